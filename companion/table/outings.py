"""Seed 004's outing as a kept record: players in two equal sides, rounds of pair
matches, standings per player and per side (the rules: :mod:`companion.games.gin.outing`).

Each pair match is an ordinary Gin Rummy game of the table, created by the outing and
carrying its id (``outing`` in the game); its hands are entered, undone and corrected
like any game's. The outing itself is kept as steps in the event log's file (its
creation, each round paired, its end, an undo, its deletion: see
:mod:`~companion.table.outing_fold`), so it survives a restart, has a version like a
game (``expected_version`` -> 409) and can be undone step by step. The standings are
folded from the games whenever the outing is read, so they always agree with the score
sheets. The next round pairs itself whenever the last match of a round ends, by
whatever path (:mod:`~companion.table.outing_trigger`); export and import are
:mod:`~companion.table.outing_transfer`.

A refused request raises an error of :mod:`companion.errors` naming the rule or what is
wrong, and writes nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from companion.errors import Conflict, IllegalAction, InvalidInput, NotFound, StaleVersion
from companion.games import outing_game
from companion.games.options import options_dict
from companion.rules.tournament import Outing, PairMatch
from companion.store.outings import OutingEvent
from companion.table.checks import check_players
from companion.table.errors import TableError
from companion.table.tracking import hand_result
from companion.table.outing_fold import STEP_NAMES, OutingRecord, fold_outing
from companion.table.outing_steps import GameTable, OutingListener, Steps, public
from companion.table.outing_transfer import Transfer
from companion.table.outing_trigger import Trigger
from companion.table.retries import fingerprint, new_id

CODE = "invalid_team_entry"
#: how the game an outing is played in names an outing among its team plays
#: (:attr:`~companion.games.base.Variant.team_plays`)
TEAM = "outing"


def refuse(exc: Exception) -> IllegalAction:
    rule = outing_game().team_rules().RULE
    text = str(exc) if str(exc).startswith(rule) else f"{rule}: {exc}"
    return IllegalAction(text, code=CODE)


def outing_id(client_id: str | None) -> str:
    return new_id("o", client_id)


class Outings(Steps, Trigger, Transfer):
    """Every outing of one table (thread-safe: one lock around each change)."""

    def __init__(self, table: GameTable) -> None:
        self.table = table
        self.store = table.store
        self._lock = threading.RLock()
        self._local = threading.local()
        self._listeners: list[OutingListener] = []
        table.add_write_hooks(self.guard, self.game_written)
        self.catch_up()

    # -- reading ---------------------------------------------------------------------

    def _record(self, oid: str, *, deleted_ok: bool = False) -> tuple[OutingRecord, list[OutingEvent]]:
        evs = self.store.outing_events(oid) if isinstance(oid, str) else []
        try:
            rec = fold_outing(evs)
        except ValueError as exc:
            raise Conflict(f"outing {oid} cannot be read: {exc}", code="outing_damaged") from None
        if rec is None:
            raise NotFound(f"outing {oid!r} does not exist", details={"outing": str(oid)[:40]})
        if rec.deleted and not deleted_ok:
            raise NotFound(f"outing {oid!r} was deleted", details={"outing": str(oid)[:40], "deleted": True})
        return rec, evs

    def options_of(self, preset: str | None, options: dict[str, Any]) -> Any:
        """The options of the outing's pair matches (two players each), as its game sets them."""
        return outing_game().team_options(TEAM, preset, options, 2)

    def elapsed(self, rec: OutingRecord) -> float:
        return max(0.0, (self.store.now() - rec.created) / 60.0)

    def rules_outing(self, rec: OutingRecord) -> tuple[Outing, list[dict[str, Any]]]:
        """The outing's rules state from its games, and each match's game."""
        matches, games = [], []
        index = {name: i for i, name in enumerate(rec.players)}
        for r, gids in enumerate(rec.rounds, start=1):
            for gid in gids:
                g = self.table.game(gid)
                pair = (index[g["players"][0]], index[g["players"][1]])
                results = tuple(hand_result(h["result"]) for h in g.get("hands", []))
                matches.append(PairMatch(r, pair, results))
                games.append(g)
        o = Outing(tuple(rec.players), tuple(rec.sides), self.options_of(rec.preset, rec.options),
                         tuple(matches))
        return o, games

    def view(self, oid: str) -> dict[str, Any]:
        """The outing: players, sides, rounds and their games, standings, what an undo
        would undo, and the next round's pairs once the round has ended."""
        with self._lock:
            rec, evs = self._record(oid)
            return self._view(rec, evs)

    def _view(self, rec: OutingRecord, evs: Sequence[OutingEvent]) -> dict[str, Any]:
        o, games = self.rules_outing(rec)
        elapsed = self.elapsed(rec)
        table = outing_game().team_rules().standings(o, elapsed)
        for m, g in zip(table["matches"], games):
            m.update(game=g["id"], version=g["version"], preset=g.get("preset"))
        current = [i for i, m in enumerate(o.matches) if m.round == o.round]
        finished = all(outing_game().team_rules().match_score(o, i).finished for i in current)
        ended = None if rec.ended is None else {k: rec.ended.get(k) for k in ("ended_by", "auto", "by", "time")}
        if ended is not None and not table["over"]:
            table.update(over=True, ended_by=ended["ended_by"])
        nxt = None
        if finished and not table["over"]:
            paired = outing_game().team_rules().next_round(o, elapsed)
            nxt = [[paired.players[p] for p in m.players] for m in paired.matches[len(o.matches):]]
        opts = o.options
        top_seq, top_type = rec.standing[-1]
        return {
            "id": rec.id, "created": rec.created, "preset": rec.preset, "version": rec.version,
            "names": list(o.players), "sides_of": list(o.sides),
            "options": options_dict(opts),
            "outing_target": int(opts.outing_target), "outing_minutes": int(opts.outing_minutes),
            "elapsed_minutes": round(elapsed, 2),
            "rounds": [list(r) for r in rec.rounds],
            **table,
            "ended": ended,
            "round_finished": finished,
            "next_round": nxt,
            "undo": None if top_type == "outing_created" else {"seq": top_seq, "type": top_type,
                                                                "what": undo_words(top_type, len(rec.rounds))},
            "imported_from": rec.imported_from,
        }

    def line(self, rec: OutingRecord, evs: Sequence[OutingEvent]) -> dict[str, Any]:
        v = self._view(rec, evs)
        return {k: v[k] for k in ("id", "created", "version", "names", "sides_of", "round", "sides",
                                  "leading_side", "over", "ended_by", "round_finished")}

    def lines(self) -> list[dict[str, Any]]:
        """A line per outing (deleted ones left out), oldest first."""
        out = []
        with self._lock:
            for oid in self.store.outing_ids():
                try:
                    rec, evs = self._record(oid, deleted_ok=True)
                    if rec.deleted:
                        continue
                    out.append(self.line(rec, evs))
                except Exception as exc:  # one unreadable outing must not hide the others
                    out.append({"id": oid, "names": [], "error": f"this outing cannot be read: {exc}"})
        return out

    def steps(self, oid: str) -> list[dict[str, Any]]:
        """The outing's stored steps, oldest first (as ``GET .../events`` gives a game's)."""
        with self._lock:
            _, evs = self._record(oid)
            return [public(e) for e in evs]

    # -- changes ---------------------------------------------------------------------

    def create(self, players: Sequence[str], sides: Sequence[int] | None = None, *, preset: str | None = None,
               options: dict[str, Any] | None = None, client_id: str | None = None) -> dict[str, Any]:
        """A new outing and the games of its first round (a retried ``client_id`` gets
        the outing back)."""
        oid = outing_id(client_id)
        fp = fingerprint("outing", players=list(players), sides=None if sides is None else list(sides),
                         preset=preset, options=options or {}) if client_id else None
        with self._lock:
            if self.retried(oid, client_id, fp) is not None:
                return self.view(oid)
            try:
                names = check_players(players)
            except TableError as exc:
                raise refuse(exc) from None
            opts = dict(options or {})
            for key, value in outing_game().team_plays[TEAM].items():  # the outing's own (its team mode)
                if opts.get(key, value) != value:
                    raise refuse(ValueError(f"an outing is played with {key} {value}, not {opts[key]!r}"))
                opts[key] = value
            game_options = self.options_of(preset, opts)  # InvalidInput (invalid_options) names a bad option
            try:
                o = outing_game().team_rules().new_outing(names, sides, game_options)
            except IllegalAction as exc:
                raise refuse(exc) from None
            created = self.store.now()
            games = self.start_games(oid, "v0", names, preset, opts, o.matches)
            self.write(oid, [("outing_created", {"players": list(o.players), "sides": list(o.sides),
                                                 "preset": preset, "options": opts, "games": games,
                                                 "created": created})], client_id, fp)
            return self.view(oid)

    def next_round(self, oid: str, *, expected_round: int | None = None, expected_version: int | None = None,
                   client_id: str | None = None, by: str | None = None) -> dict[str, Any]:
        """Pair the next round (winners play winners, losers play losers) and create its
        games. A retried ``client_id`` gets the outing back; an ``expected_round`` or
        ``expected_version`` the outing has moved past is refused with 409."""
        fp = fingerprint("outing_round", expected_round=expected_round,
                         expected_version=expected_version) if client_id else None
        with self._lock:
            rec, evs = self._record(oid)
            if self.retried(oid, client_id, fp) is not None:
                return self._view(rec, evs)
            self.check_version(rec, evs, expected_version)
            now_round = len(rec.rounds)
            if expected_round is not None and expected_round != now_round:
                raise StaleVersion(f"the outing is at round {now_round}, not {expected_round}: reload it and "
                                   "try again", version=rec.version, expected=expected_round)
            if rec.ended is not None:
                raise refuse(ValueError("the outing is over (it was ended): undo its end to go on"))
            self.pair(rec, client_id, fp, by or "phone")
            return self.view(oid)

    def pair(self, rec: OutingRecord, client_id: str | None, fp: str | None, by: str) -> None:
        """Pair and write the next round of ``rec`` (the caller holds the lock)."""
        o, _ = self.rules_outing(rec)
        try:
            paired = outing_game().team_rules().next_round(o, self.elapsed(rec))
        except IllegalAction as exc:
            raise refuse(exc) from None
        new = paired.matches[len(o.matches):]
        games = self.start_games(rec.id, f"v{rec.version}", rec.players, rec.preset, rec.options, new)
        self.write(rec.id, [("round_paired", {"round": len(rec.rounds) + 1, "games": games, "by": by})],
                   client_id, fp)

    def end(self, oid: str, *, expected_version: int | None = None, client_id: str | None = None,
            by: str | None = None) -> dict[str, Any]:
        """End the outing now (the host calls time); undo brings it back."""
        fp = fingerprint("outing_end", expected_version=expected_version) if client_id else None
        with self._lock:
            rec, evs = self._record(oid)
            if self.retried(oid, client_id, fp) is not None:
                return self._view(rec, evs)
            self.check_version(rec, evs, expected_version)
            if rec.ended is not None:
                raise Conflict(f"the outing has already ended ({rec.ended['ended_by']})", code="finished")
            self.write(oid, [("outing_ended", {"ended_by": "host", "auto": False, "by": by})], client_id, fp)
            return self.view(oid)

    def undo(self, oid: str, *, expected_version: int | None = None, client_id: str | None = None,
             by: str | None = None) -> dict[str, Any]:
        """Undo the outing's last step still standing: a round paired (refused once a
        hand of it is entered; its games, empty, are deleted) or its end (refused while
        the target or the time still ends it). Its start cannot be undone: delete it."""
        fp = fingerprint("outing_undo", expected_version=expected_version) if client_id else None
        with self._lock:
            rec, evs = self._record(oid)
            if self.retried(oid, client_id, fp) is not None:
                return {"undone": None, "outing": self._view(rec, evs)}
            self.check_version(rec, evs, expected_version)
            seq, typ = rec.standing[-1]
            if typ == "outing_created":
                raise Conflict("there is nothing to undo in this outing: its start cannot be undone (delete the "
                               f"outing instead: DELETE /api/v1/outings/{oid})", code="nothing_to_undo")
            gone: list[str] = []
            if typ == "round_paired":
                gone = rec.rounds[-1]
                played = [g for g in gone if self.hands_in(g)]
                if played:
                    raise Conflict(f"round {len(rec.rounds)} cannot be unpaired: hands are entered in "
                                   f"{self.named(played)}; undo those hands first", code="outing_round_played",
                                   details={"games": played, "round": len(rec.rounds)})
            elif typ == "outing_ended" and rec.ended is not None and rec.ended.get("auto"):
                o, _ = self.rules_outing(rec)
                st = outing_game().team_rules().standings(o, self.elapsed(rec))
                if st["over"]:
                    why = (f"a side reached the target {int(o.options.outing_target)}" if st["ended_by"] == "target"
                           else f"its time ({int(o.options.outing_minutes)} minutes) is up")
                    raise Conflict(f"the outing's end cannot be undone: {why} (correct or undo a hand of its games "
                                   "to go on)", code="nothing_to_undo")
            self.write(oid, [("undo", {"undone": seq, "undone_type": typ, "by": by, "games_deleted": gone})],
                       client_id, fp)
            self.delete_games(gone)
            return {"undone": {"seq": seq, "type": typ, "what": undo_words(typ, len(rec.rounds)), "games_deleted": gone},
                    "outing": self.view(oid)}

    def delete(self, oid: str, *, games: str | None = None, client_id: str | None = None) -> dict[str, Any]:
        """Delete the outing. ``games``: ``"delete"`` deletes its games too, ``"keep"``
        keeps them as ordinary games; left out, the outing is deleted only if no hand was
        entered in any of its games (409 ``outing_has_games`` names them otherwise), and
        its empty games go with it."""
        if games not in (None, "keep", "delete"):
            raise InvalidInput(f"games must be \"keep\" or \"delete\", not {games!r}", code="invalid_request")
        fp = fingerprint("outing_delete", games=games) if client_id else None
        with self._lock:
            rec, _ = self._record(oid, deleted_ok=bool(client_id))
            if self.retried(oid, client_id, fp) is not None:
                return {"deleted": oid, "games_deleted": [], "games_kept": []}
            if rec.deleted:
                raise NotFound(f"outing {oid!r} was deleted", details={"outing": oid, "deleted": True})
            linked = [g for g in rec.every_game if self._exists(g)]
            played = [g for g in linked if self.hands_in(g)]
            if games is None and played:
                raise Conflict(f"outing {oid} has games with hands entered: {self.named(played)}. Delete it with "
                               "?games=delete to delete those games too, or ?games=keep to keep them as ordinary "
                               "games", code="outing_has_games", details={"games": played})
            gone = [] if games == "keep" else linked
            self.write(oid, [("outing_deleted", {"games": games or "delete", "games_deleted": gone})], client_id, fp)
            self.delete_games(gone)
            return {"deleted": oid, "games_deleted": gone, "games_kept": [g for g in linked if g not in gone]}

def undo_words(step: str, rounds: int) -> str:
    """What undoing the step ``step`` takes back, in players' words."""
    if step == "round_paired":
        return f"the pairing of round {rounds}"
    return "the outing's end" if step == "outing_ended" else STEP_NAMES.get(step, step)


def outings_of(table: object) -> Outings:
    """The outings of ``table`` (a :class:`~companion.table.service.Table`)."""
    got = getattr(table, "outings", None)
    assert isinstance(got, Outings)
    return got


__all__ = ["Outings", "outings_of", "public", "refuse"]
