"""An outing's export and import: the outing with every game of its rounds in one file.

The file is ``{"format": "gingo-outing/1", "outing": {...}, "steps": [...], "games":
[export, ...]}``: the outing as ``GET /api/v1/outings/{id}`` shows it, its stored steps
(for the record), and each game of its rounds as ``GET /api/v1/games/{id}/export.json``
gives it, round by round. An import re-creates the outing under a new id from its set-up
(players, sides, preset, options), its rounds and its end; its undo history is not
replayed. Every game is imported again (every hand scored again by the rules) and linked
to the new outing. Before anything is written the whole file is checked: each game
replays, is a Gin Rummy match of the outing's two players with the outing's rules,
round 1 pairs the sides in order, each later round is what the rules pair from the round
before (winners with winners, losers with losers), and every round but the last has
ended. What does not fit is refused with 400 ``invalid_import`` naming it, and nothing
is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games import outing_game
from companion.games.options import options_dict
from companion.rules.tournament import Outing, PairMatch
from companion.errors import CompanionError, IllegalAction, InvalidInput
from companion.table.errors import TableError
from companion.table.tracking import hand_result
from companion.table.outing_reads import GameTable, OutingReads
from companion.table.outing_steps import Steps, public
from companion.table.outing_trigger import Trigger
from companion.table.retries import fingerprint, new_id
from companion.table.transfer import imported_events

OUTING_FORMAT = "gingo-outing/1"


def _bad(text: str) -> TableError:
    return InvalidInput(text, code="invalid_import")


@dataclass
class Plan:
    """What a checked file becomes: the set-up, and the file's game indexes per round."""

    players: list[str]
    sides: list[int]
    preset: str | None
    options: dict[str, Any]
    created: float
    rounds: list[list[int]]
    ended: dict[str, Any] | None
    imported_from: str | None


def read_setup(data: Any, now: float) -> tuple[dict[str, Any], list[Any]]:
    """The file's outing and games, or ``invalid_import`` naming what is missing."""
    if not isinstance(data, dict) or data.get("format") != OUTING_FORMAT:
        raise _bad(f"not an outing export (expected format {OUTING_FORMAT!r})")
    o, games = data.get("outing"), data.get("games")
    if not isinstance(o, dict):
        raise _bad("the export holds no \"outing\" object")
    if not isinstance(games, list) or not games:
        raise _bad("the export holds no \"games\"")
    for key, kind in (("names", list), ("sides_of", list), ("rounds", list)):
        if not isinstance(o.get(key), kind):
            raise _bad(f"the outing needs {key!r} (a list)")
    if not isinstance(o.get("options", {}), dict):
        raise _bad("the outing's \"options\" must be an object")
    if o.get("preset") is not None and not isinstance(o.get("preset"), str):
        raise _bad("the outing's \"preset\" must be a preset name or null")
    return o, games


class Transfer:
    """Export and import of the outings of ``table``: read through ``reads``, written
    through ``steps`` and settled by ``trigger`` after an import."""

    def __init__(self, table: GameTable, reads: OutingReads, steps: Steps, trigger: Trigger) -> None:
        self.table = table
        self.reads = reads
        self.steps = steps
        self.trigger = trigger
        self.store = table.store
        self._lock = steps.lock

    def export(self, oid: str) -> dict[str, Any]:
        """The outing and every game of its rounds, re-importable with :meth:`import_outing`."""
        with self._lock:
            rec, evs = self.reads.record(oid)
            return {"format": OUTING_FORMAT, "outing": self.reads.shown(rec, evs), "steps": [public(e) for e in evs],
                    "games": [self.table.export(gid) for gid in rec.games()]}

    def check_import(self, data: Any, oid: str) -> Plan:
        """The checks of the module notes (nothing is written)."""
        now = self.store.now()
        o, games = read_setup(data, now)
        preset, options = o.get("preset"), {k: v for k, v in dict(o.get("options") or {}).items()}
        try:
            opts = self.reads.options_of(preset, options)
            start = outing_game().team_rules().new_outing(o["names"], o["sides_of"], opts)
        except CompanionError as exc:
            raise _bad(f"the outing's set-up: {exc}") from None
        ids: list[str] = []
        for k, g in enumerate(games):
            gid = g.get("game", {}).get("id") if isinstance(g, dict) and isinstance(g.get("game"), dict) else None
            if not isinstance(gid, str):
                raise _bad(f"game {k + 1} of the file is not a game export (it has no game id)")
            if gid in ids:
                raise _bad(f"game {gid} is in the file twice")
            ids.append(gid)
        rounds: list[list[int]] = []
        for r, gids in enumerate(o["rounds"], start=1):
            if not isinstance(gids, list) or not gids:
                raise _bad(f"round {r} of the outing lists no games")
            missing = [g for g in gids if g not in ids]
            if missing:
                raise _bad(f"round {r}'s game {missing[0]} is not in the file's games")
            rounds.append([ids.index(g) for g in gids])
        used = [k for r in rounds for k in r]
        if len(set(used)) != len(used):
            raise _bad("a game is listed in two rounds of the outing")
        extra = [ids[k] for k in range(len(ids)) if k not in used]
        if extra:
            raise _bad(f"game {extra[0]} of the file is in no round of the outing")
        want = options_dict(opts)
        matches: list[PairMatch] = []
        for r, ks in enumerate(rounds, start=1):
            expect = [m.players for m in start.matches] if r == 1 else self._paired(start, matches, r - 1)
            got = []
            for k in ks:
                st = self._game(games[k], ids[k], oid)
                names = st.players
                if st.variant != outing_game().name or len(names) != 2:
                    raise _bad(f"game {ids[k]} is not a two-player {outing_game().label} match")
                unknown = [n for n in names if n not in start.players]
                if unknown:
                    raise _bad(f"game {ids[k]}'s player {unknown[0]!r} is not in the outing")
                have = options_dict(st.options)
                diff = sorted(key for key in set(want) | set(have) if want.get(key) != have.get(key))
                if diff or st.preset != preset:
                    raise _bad(f"game {ids[k]} is not played with the outing's rules "
                               f"({'preset' if st.preset != preset else ', '.join(diff)} differ)")
                pair = (start.players.index(names[0]), start.players.index(names[1]))
                got.append(pair)
                matches.append(PairMatch(r, pair, tuple(hand_result(h.result) for h in st.hands)))
                if r < len(rounds) and not st.finished:
                    raise _bad(f"game {ids[k]} of round {r} has not ended, but round {r + 1} was paired")
            if expect is None or got != expect:
                what = " and ".join(f"{start.players[a]} v {start.players[b]}" for a, b in expect or [])
                raise _bad(f"round {r} does not pair the players as the outing's rules do"
                           + (f" (they pair {what})" if what else ""))
        ended = o.get("ended")
        end = None
        if isinstance(ended, dict) and ended.get("ended_by") in ("target", "time", "host"):
            end = {"ended_by": ended["ended_by"], "auto": bool(ended.get("auto")), "by": "import"}
        created = o.get("created")
        when = float(created) if isinstance(created, (int, float)) and not isinstance(created, bool) \
            and 0 < created <= now else now
        return Plan(list(start.players), list(start.sides), preset, options, when, rounds, end,
                    o.get("id") if isinstance(o.get("id"), str) else None)

    def _paired(self, start: Outing, matches: list[PairMatch], r: int) -> list[tuple[int, int]] | None:
        sub = Outing(start.players, start.sides, start.options, tuple(matches))
        try:
            paired = outing_game().team_rules().next_round(sub, None)
        except IllegalAction:
            return None
        assert paired.round == r + 1
        return [m.players for m in paired.matches[len(matches):]]

    def _game(self, data: Any, gid: str, oid: str) -> Any:
        try:
            _, st = imported_events(data, "g-check", None, 1, self.store.now(), oid)
        except TableError as exc:
            raise _bad(f"game {gid}: {exc.message}") from None
        return st

    def import_outing(self, data: Any, *, client_id: str | None = None) -> dict[str, Any]:
        """Re-create an exported outing and its games under new ids (see the notes)."""

        oid = new_id("o", client_id)
        body = {k: v for k, v in data.items() if k != "client_id"} if isinstance(data, dict) else data
        fp = fingerprint("outing_import", data=body) if client_id else None
        with self._lock:
            if self.steps.retried(oid, client_id, fp) is not None:
                return self.reads.view(oid)
            plan = self.check_import(data, oid)
            games = data["games"]
            gids: list[list[str]] = []
            self.steps.enter()
            try:
                for r, ks in enumerate(plan.rounds, start=1):
                    gids.append([str(self.table.import_game(games[k], client_id=f"outing-import:{oid}:{k}",
                                                            outing=oid)["id"]) for k in ks])
            finally:
                self.steps.leave()
            steps: list[tuple[str, dict[str, Any]]] = [("outing_created", {
                "players": plan.players, "sides": plan.sides, "preset": plan.preset, "options": plan.options,
                "games": gids[0], "created": plan.created, "imported_from": plan.imported_from})]
            steps += [("round_paired", {"round": r, "games": g, "by": "import"}) for r, g in enumerate(gids[1:], 2)]
            if plan.ended is not None:
                steps.append(("outing_ended", plan.ended))
            self.steps.write(oid, steps, client_id, fp)
            self.trigger.settle(oid)
            return self.reads.view(oid)


__all__ = ["OUTING_FORMAT", "Plan", "Transfer"]
