"""Seed 004's outing as a kept record: players in two equal sides, rounds of pair
matches, standings per player and per side (the rules: :mod:`companion.rules.outing`).

Each pair match is an ordinary Gin Rummy game of the table, created by the outing and
carrying its id (``outing`` in the game); its hands are entered, undone and corrected
like any game's. The outing's row (:mod:`companion.store.outings`) keeps who plays,
the sides, the rules and the games of each round; the standings are folded from those
games whenever the outing is read, so they always agree with the score sheets. When
every match of a round has ended, the next round pairs winners with winners and
losers with losers (:meth:`Outings.next_round`, also run by the API once the hand that
ends a round is entered). The outing ends when a side's total reaches
``outing_target`` or ``outing_minutes`` have passed since it was created.

A refused request raises :class:`~companion.errors.IllegalAction` (``invalid_team_entry``,
naming the rule) and writes nothing.
"""

from __future__ import annotations

import hashlib
import threading
import uuid
import weakref
from collections.abc import Sequence
from typing import Any

from companion.errors import IllegalAction, InvalidInput, NotFound, StaleVersion
from companion.games import find_variant
from companion.games.options import options_dict
from companion.rules import outing as rules
from companion.table.checks import check_players
from companion.table.errors import TableError
from companion.table.fold import hand_result
from companion.table.service import Table

CODE = "invalid_team_entry"
#: the options an outing keeps for itself (its pair matches are played with the rest)
OUTING_KEYS = ("team_mode", "outing_target", "outing_minutes")


def _refuse(exc: Exception) -> IllegalAction:
    text = str(exc) if str(exc).startswith(rules.RULE) else f"{rules.RULE}: {exc}"
    return IllegalAction(text, code=CODE)


class Outings:
    """Every outing of one table (thread-safe: one lock around each change)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.store = table.store
        self._lock = threading.RLock()

    # -- reading ---------------------------------------------------------------------

    def _row(self, outing_id: str) -> tuple[float, dict[str, Any]]:
        rows = self.store.outing_rows(outing_id) if isinstance(outing_id, str) else []
        if not rows:
            raise NotFound(f"outing {outing_id!r} does not exist", details={"outing": str(outing_id)[:40]})
        return rows[0][1], rows[0][2]

    def _options(self, body: dict[str, Any]) -> Any:
        overrides = {**dict(body.get("options") or {}), "team_mode": "pair_tournament"}
        return find_variant("gin").make_options(body.get("preset"), overrides, 2)

    def _elapsed(self, created: float) -> float:
        return max(0.0, (self.store.now() - created) / 60.0)

    def _fold(self, body: dict[str, Any]) -> tuple[rules.Outing, list[dict[str, Any]]]:
        """The outing's rules state from its games, and each match's game."""
        matches, games = [], []
        index = {name: i for i, name in enumerate(body["players"])}
        for r, gids in enumerate(body["rounds"], start=1):
            for gid in gids:
                g = self.table.game(gid)
                pair = (index[g["players"][0]], index[g["players"][1]])
                results = tuple(hand_result(h["result"]) for h in g.get("hands", []))
                matches.append(rules.PairMatch(r, pair, results))
                games.append(g)
        o = rules.Outing(tuple(body["players"]), tuple(body["sides"]), self._options(body), tuple(matches))
        return o, games

    def view(self, outing_id: str) -> dict[str, Any]:
        """The outing: players, sides, rounds and their games, standings, and the next
        round's pairs once the round has ended."""
        with self._lock:
            created, body = self._row(outing_id)
            return self._view(outing_id, created, body)

    def _view(self, outing_id: str, created: float, body: dict[str, Any]) -> dict[str, Any]:
        o, games = self._fold(body)
        elapsed = self._elapsed(created)
        table = rules.standings(o, elapsed)
        for m, g in zip(table["matches"], games):
            m.update(game=g["id"], version=g["version"], preset=g.get("preset"))
        current = [i for i, m in enumerate(o.matches) if m.round == o.round]
        finished = all(rules.match_score(o, i).finished for i in current)
        nxt = None
        if finished and not table["over"]:
            paired = rules.next_round(o, elapsed)
            nxt = [[paired.players[p] for p in m.players] for m in paired.matches[len(o.matches):]]
        opts = o.options
        return {
            "id": outing_id, "created": created, "preset": body.get("preset"),
            "names": list(o.players), "sides_of": list(o.sides),
            "options": options_dict(opts),
            "outing_target": int(opts.outing_target), "outing_minutes": int(opts.outing_minutes),
            "elapsed_minutes": round(elapsed, 2),
            "rounds": [list(r) for r in body["rounds"]],
            **table,
            "round_finished": finished,
            "next_round": nxt,
        }

    def lines(self) -> list[dict[str, Any]]:
        """A line per outing, oldest first."""
        out = []
        with self._lock:
            for oid, created, body in self.store.outing_rows():
                try:
                    v = self._view(oid, created, body)
                except Exception as exc:  # one unreadable outing must not hide the others
                    out.append({"id": oid, "created": created, "names": body.get("players", []),
                                "error": f"this outing cannot be read: {exc}"})
                    continue
                out.append({k: v[k] for k in ("id", "created", "names", "sides_of", "round", "sides",
                                              "leading_side", "over", "ended_by", "round_finished")})
        return out

    # -- changes ---------------------------------------------------------------------

    def create(self, players: Sequence[str], sides: Sequence[int] | None = None, *, preset: str | None = None,
               options: dict[str, Any] | None = None, client_id: str | None = None) -> dict[str, Any]:
        """A new outing and the games of its first round (a retried ``client_id`` gets
        the same outing back)."""
        oid = "o" + (hashlib.sha256(client_id.encode("utf-8")).hexdigest()[:11] if client_id
                     else uuid.uuid4().hex[:11])
        with self._lock:
            if client_id and self.store.outing_rows(oid):
                return self.view(oid)
            try:
                names = check_players(players)
            except TableError as exc:
                raise _refuse(exc) from None
            opts = dict(options or {})
            if opts.get("team_mode", "pair_tournament") != "pair_tournament":
                raise _refuse(ValueError(f"an outing is played with team_mode pair_tournament, "
                                         f"not {opts['team_mode']!r}"))
            body: dict[str, Any] = {"players": names, "preset": preset,
                                    "options": {**opts, "team_mode": "pair_tournament"}}
            gin_options = self._options(body)  # InvalidInput (invalid_options) names a bad option
            try:
                o = rules.new_outing(names, sides, gin_options)
            except ValueError as exc:
                raise _refuse(exc) from None
            body["sides"] = list(o.sides)
            body["rounds"] = []
            body["client_id"] = client_id
            created = self.store.now()
            body["rounds"].append(self._start_games(oid, body, o.matches, 1))
            self.store.save_outing(oid, created, body)
            return self._view(oid, created, body)

    def _start_games(self, oid: str, body: dict[str, Any], matches: Sequence[rules.PairMatch],
                     round_no: int) -> list[str]:
        """Create (or find again: the client ids are the outing's) the games of one round."""
        overrides = {k: v for k, v in body["options"].items()}
        gids = []
        for k, m in enumerate(matches):
            pair = [body["players"][p] for p in m.players]
            g = self.table.create_game("gin", players=pair, preset=body.get("preset"), options=overrides,
                                       client_id=f"outing:{oid}:round {round_no}:match {k + 1}", outing=oid)
            gids.append(g["id"])
        return gids

    def next_round(self, outing_id: str, *, expected_round: int | None = None,
                   client_id: str | None = None) -> dict[str, Any]:
        """Pair the next round (winners play winners, losers play losers) and create its
        games. A retried ``client_id`` gets the outing back; an ``expected_round`` the
        outing has moved past is refused with 409."""
        with self._lock:
            created, body = self._row(outing_id)
            done = list(body.get("round_clients") or [])
            if client_id and client_id in done:
                return self._view(outing_id, created, body)
            now_round = len(body["rounds"])
            if expected_round is not None and expected_round != now_round:
                raise StaleVersion(f"the outing is at round {now_round}, not {expected_round}: reload it and "
                                   "try again", version=now_round, expected=expected_round)
            o, _ = self._fold(body)
            try:
                paired = rules.next_round(o, self._elapsed(created))
            except ValueError as exc:
                raise _refuse(exc) from None
            new = paired.matches[len(o.matches):]
            body["rounds"].append(self._start_games(outing_id, body, new, now_round + 1))
            if client_id:
                body["round_clients"] = (done + [client_id])[-20:]
            self.store.save_outing(outing_id, created, body)
            return self._view(outing_id, created, body)

    def advance(self, outing_id: str) -> bool:
        """Pair the next round if the current one has ended and the outing goes on (after
        the hand that ends a match); True when a round was paired."""
        with self._lock:
            try:
                created, body = self._row(outing_id)
                o, _ = self._fold(body)
                current = [i for i, m in enumerate(o.matches) if m.round == o.round]
                if not all(rules.match_score(o, i).finished for i in current):
                    return False
                if rules.standings(o, self._elapsed(created))["over"]:
                    return False
                self.next_round(outing_id, expected_round=len(body["rounds"]))
                return True
            except (NotFound, IllegalAction, InvalidInput, StaleVersion):
                return False


_HELD: weakref.WeakKeyDictionary[Table, Outings] = weakref.WeakKeyDictionary()
_HELD_LOCK = threading.Lock()


def outings_of(table: Table) -> Outings:
    """The outings of ``table`` (one service per table)."""
    with _HELD_LOCK:
        got = _HELD.get(table)
        if got is None:
            got = _HELD[table] = Outings(table)
        return got


__all__ = ["Outings", "outings_of", "OUTING_KEYS"]
