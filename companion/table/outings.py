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

:class:`Outings` holds its parts: the reads (:class:`~companion.table.outing_reads.OutingReads`),
the write path with the lock (:class:`~companion.table.outing_steps.Steps`, :attr:`Outings.writer`),
the trigger and the transfer; the changes a person asks for are its own.

A refused request raises an error of :mod:`companion.errors` naming the rule or what is
wrong, and writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.errors import Conflict, IllegalAction, InvalidInput, NotFound, StaleVersion
from companion.games import outing_game
from companion.table.checks import check_players
from companion.table.errors import TableError
from companion.table.outing_reads import TEAM, GameTable, OutingReads, undo_words
from companion.table.outing_steps import OutingListener, Steps, public, refuse
from companion.table.outing_transfer import Transfer
from companion.table.outing_trigger import Trigger
from companion.table.retries import fingerprint, new_id


def outing_id(client_id: str | None) -> str:
    return new_id("o", client_id)


class Outings:
    """Every outing of one table (thread-safe: one lock around each change)."""

    def __init__(self, table: GameTable) -> None:
        self.table = table
        self.store = table.store
        self.reads = OutingReads(table)
        self.writer = Steps(table, self.reads)
        self.trigger = Trigger(table, self.reads, self.writer)
        self.transfer = Transfer(table, self.reads, self.writer, self.trigger)
        self._lock = self.writer.lock
        table.add_write_hooks(self.trigger.guard, self.trigger.game_written)
        self.trigger.catch_up()

    # -- reading ---------------------------------------------------------------------

    def view(self, oid: str) -> dict[str, Any]:
        """The outing: players, sides, rounds and their games, standings, what an undo
        would undo, and the next round's pairs once the round has ended."""
        with self._lock:
            return self.reads.view(oid)

    def lines(self) -> list[dict[str, Any]]:
        """A line per outing (deleted ones left out), oldest first."""
        out = []
        with self._lock:
            for oid in self.store.outings.ids():
                try:
                    rec, evs = self.reads.record(oid, deleted_ok=True)
                    if rec.deleted:
                        continue
                    out.append(self.reads.line(rec, evs))
                except Exception as exc:  # one unreadable outing must not hide the others
                    out.append({"id": oid, "names": [], "error": f"this outing cannot be read: {exc}"})
        return out

    def steps(self, oid: str) -> list[dict[str, Any]]:
        """The outing's stored steps, oldest first (as ``GET .../events`` gives a game's)."""
        with self._lock:
            _, evs = self.reads.record(oid)
            return [public(e) for e in evs]

    def subscribe(self, fn: OutingListener) -> Callable[[], None]:
        """Call ``fn(message)`` after each committed step (see :meth:`~companion.table.outing_steps.Steps.subscribe`)."""
        return self.writer.subscribe(fn)

    def export(self, oid: str) -> dict[str, Any]:
        """The outing and every game of its rounds, re-importable with :meth:`import_outing`."""
        return self.transfer.export(oid)

    def import_outing(self, data: Any, *, client_id: str | None = None) -> dict[str, Any]:
        """Re-create an exported outing and its games under new ids (:mod:`~companion.table.outing_transfer`)."""
        return self.transfer.import_outing(data, client_id=client_id)

    # -- changes ---------------------------------------------------------------------

    def create(self, players: Sequence[str], sides: Sequence[int] | None = None, *, preset: str | None = None,
               options: dict[str, Any] | None = None, client_id: str | None = None) -> dict[str, Any]:
        """A new outing and the games of its first round (a retried ``client_id`` gets
        the outing back)."""
        oid = outing_id(client_id)
        fp = fingerprint("outing", players=list(players), sides=None if sides is None else list(sides),
                         preset=preset, options=options or {}) if client_id else None
        with self._lock:
            if self.writer.retried(oid, client_id, fp) is not None:
                return self.reads.view(oid)
            try:
                names = check_players(players)
            except TableError as exc:
                raise refuse(exc) from None
            opts = dict(options or {})
            for key, value in outing_game().team_plays[TEAM].items():  # the outing's own (its team mode)
                if opts.get(key, value) != value:
                    raise refuse(ValueError(f"an outing is played with {key} {value}, not {opts[key]!r}"))
                opts[key] = value
            game_options = self.reads.options_of(preset, opts)  # InvalidInput (invalid_options) names a bad option
            try:
                o = outing_game().team_rules().new_outing(names, sides, game_options)
            except IllegalAction as exc:
                raise refuse(exc) from None
            created = self.store.now()
            games = self.writer.start_games(oid, "v0", names, preset, opts, o.matches)
            self.writer.write(oid, [("outing_created", {"players": list(o.players), "sides": list(o.sides),
                                                 "preset": preset, "options": opts, "games": games,
                                                 "created": created})], client_id, fp)
            return self.reads.view(oid)

    def next_round(self, oid: str, *, expected_round: int | None = None, expected_version: int | None = None,
                   client_id: str | None = None, by: str | None = None) -> dict[str, Any]:
        """Pair the next round (winners play winners, losers play losers) and create its
        games. A retried ``client_id`` gets the outing back; an ``expected_round`` or
        ``expected_version`` the outing has moved past is refused with 409."""
        fp = fingerprint("outing_round", expected_round=expected_round,
                         expected_version=expected_version) if client_id else None
        with self._lock:
            rec, evs = self.reads.record(oid)
            if self.writer.retried(oid, client_id, fp) is not None:
                return self.reads.shown(rec, evs)
            self.writer.check_version(rec, evs, expected_version)
            now_round = len(rec.rounds)
            if expected_round is not None and expected_round != now_round:
                raise StaleVersion(f"the outing is at round {now_round}, not {expected_round}: reload it and "
                                   "try again", version=rec.version, expected=expected_round)
            if rec.ended is not None:
                raise refuse(ValueError("the outing is over (it was ended): undo its end to go on"))
            self.writer.pair(rec, client_id, fp, by or "phone")
            return self.reads.view(oid)

    def end(self, oid: str, *, expected_version: int | None = None, client_id: str | None = None,
            by: str | None = None) -> dict[str, Any]:
        """End the outing now (the host calls time); undo brings it back."""
        fp = fingerprint("outing_end", expected_version=expected_version) if client_id else None
        with self._lock:
            rec, evs = self.reads.record(oid)
            if self.writer.retried(oid, client_id, fp) is not None:
                return self.reads.shown(rec, evs)
            self.writer.check_version(rec, evs, expected_version)
            if rec.ended is not None:
                raise Conflict(f"the outing has already ended ({rec.ended['ended_by']})", code="finished")
            self.writer.write(oid, [("outing_ended", {"ended_by": "host", "auto": False, "by": by})], client_id, fp)
            return self.reads.view(oid)

    def undo(self, oid: str, *, expected_version: int | None = None, client_id: str | None = None,
             by: str | None = None) -> dict[str, Any]:
        """Undo the outing's last step still standing: a round paired (refused once a
        hand of it is entered; its games, empty, are deleted) or its end (refused while
        the target or the time still ends it). Its start cannot be undone: delete it."""
        fp = fingerprint("outing_undo", expected_version=expected_version) if client_id else None
        with self._lock:
            rec, evs = self.reads.record(oid)
            if self.writer.retried(oid, client_id, fp) is not None:
                return {"undone": None, "outing": self.reads.shown(rec, evs)}
            self.writer.check_version(rec, evs, expected_version)
            seq, typ = rec.standing[-1]
            if typ == "outing_created":
                raise Conflict("there is nothing to undo in this outing: its start cannot be undone (delete the "
                               f"outing instead: DELETE /api/v1/outings/{oid})", code="nothing_to_undo")
            gone: list[str] = []
            if typ == "round_paired":
                gone = rec.rounds[-1]
                played = [g for g in gone if self.writer.hands_in(g)]
                if played:
                    raise Conflict(f"round {len(rec.rounds)} cannot be unpaired: hands are entered in "
                                   f"{self.writer.named(played)}; undo those hands first", code="outing_round_played",
                                   details={"games": played, "round": len(rec.rounds)})
            elif typ == "outing_ended" and rec.ended is not None and rec.ended.get("auto"):
                o, _ = self.reads.rules_outing(rec)
                st = outing_game().team_rules().standings(o, self.reads.elapsed(rec))
                if st["over"]:
                    why = (f"a side reached the target {int(o.options.outing_target)}" if st["ended_by"] == "target"
                           else f"its time ({int(o.options.outing_minutes)} minutes) is up")
                    raise Conflict(f"the outing's end cannot be undone: {why} (correct or undo a hand of its games "
                                   "to go on)", code="nothing_to_undo")
            self.writer.write(oid, [("undo", {"undone": seq, "undone_type": typ, "by": by, "games_deleted": gone})],
                       client_id, fp)
            self.writer.delete_games(gone)
            return {"undone": {"seq": seq, "type": typ, "what": undo_words(typ, len(rec.rounds)), "games_deleted": gone},
                    "outing": self.reads.view(oid)}

    def delete(self, oid: str, *, games: str | None = None, client_id: str | None = None) -> dict[str, Any]:
        """Delete the outing. ``games``: ``"delete"`` deletes its games too, ``"keep"``
        keeps them as ordinary games; left out, the outing is deleted only if no hand was
        entered in any of its games (409 ``outing_has_games`` names them otherwise), and
        its empty games go with it."""
        if games not in (None, "keep", "delete"):
            raise InvalidInput(f"games must be \"keep\" or \"delete\", not {games!r}", code="invalid_request")
        fp = fingerprint("outing_delete", games=games) if client_id else None
        with self._lock:
            rec, _ = self.reads.record(oid, deleted_ok=bool(client_id))
            if self.writer.retried(oid, client_id, fp) is not None:
                return {"deleted": oid, "games_deleted": [], "games_kept": []}
            if rec.deleted:
                raise NotFound(f"outing {oid!r} was deleted", details={"outing": oid, "deleted": True})
            linked = [g for g in rec.every_game if self.writer.exists(g)]
            played = [g for g in linked if self.writer.hands_in(g)]
            if games is None and played:
                raise Conflict(f"outing {oid} has games with hands entered: {self.writer.named(played)}. Delete it with "
                               "?games=delete to delete those games too, or ?games=keep to keep them as ordinary "
                               "games", code="outing_has_games", details={"games": played})
            gone = [] if games == "keep" else linked
            self.writer.write(oid, [("outing_deleted", {"games": games or "delete", "games_deleted": gone})], client_id, fp)
            self.writer.delete_games(gone)
            return {"deleted": oid, "games_deleted": gone, "games_kept": [g for g in linked if g not in gone]}

def outings_of(table: object) -> Outings:
    """The outings of ``table`` (a :class:`~companion.table.service.Table`)."""
    got = getattr(table, "outings", None)
    assert isinstance(got, Outings)
    return got


__all__ = ["Outings", "TEAM", "outings_of", "public", "refuse"]
