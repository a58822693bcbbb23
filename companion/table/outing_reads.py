"""How an outing is read: its steps folded into a record (:mod:`~companion.table.outing_fold`),
its rules state built from the games of its rounds, and the view the API shows (players,
sides, rounds, standings, what an undo would undo, the next round's pairs). The outings
reach their games through :class:`GameTable`, the commands of the table that holds them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from companion.errors import Conflict, NotFound
from companion.games import outing_game
from companion.games.options import options_dict
from companion.rules.tournament import Outing, PairMatch
from companion.store.outings import OutingEvent
from companion.table.outing_fold import STEP_NAMES, OutingRecord, fold_outing
from companion.table.tracking import hand_result

if TYPE_CHECKING:
    from companion.store import EventStore

#: how the game an outing is played in names an outing among its team plays
#: (:attr:`~companion.games.base.Variant.team_plays`)
TEAM = "outing"


class GameTable(Protocol):
    """What the outings use of their table (:class:`~companion.table.service.Table`, which
    holds them): its store, its write hooks and the commands on the pair matches' games."""

    @property
    def store(self) -> EventStore: ...

    @property
    def create_game(self) -> Callable[..., dict[str, Any]]: ...

    @property
    def delete_game(self) -> Callable[..., dict[str, Any]]: ...

    @property
    def game(self) -> Callable[[str], dict[str, Any]]: ...

    @property
    def summary(self) -> Callable[[str], dict[str, Any]]: ...

    @property
    def export(self) -> Callable[[str], dict[str, Any]]: ...

    @property
    def import_game(self) -> Callable[..., dict[str, Any]]: ...

    @property
    def add_write_hooks(self) -> Callable[..., None]: ...


def undo_words(step: str, rounds: int) -> str:
    """What undoing the step ``step`` takes back, in players' words.

    >>> undo_words("round_paired", 3), undo_words("outing_ended", 3)
    ('the pairing of round 3', "the outing's end")
    """
    if step == "round_paired":
        return f"the pairing of round {rounds}"
    return "the outing's end" if step == "outing_ended" else STEP_NAMES.get(step, step)


class OutingReads:
    """The reads of the outings kept in ``table``'s store (the caller holds the outings' lock)."""

    def __init__(self, table: GameTable) -> None:
        self.table = table
        self.store = table.store

    def record(self, oid: str, *, deleted_ok: bool = False) -> tuple[OutingRecord, list[OutingEvent]]:
        """The outing folded from its steps, and the steps; 404 when there is none (or it
        was deleted, unless ``deleted_ok``), 409 ``outing_damaged`` when it cannot be read."""
        evs = self.store.outings.events(oid) if isinstance(oid, str) else []
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
        """The outing as the API shows it (see :meth:`shown`)."""
        rec, evs = self.record(oid)
        return self.shown(rec, evs)

    def shown(self, rec: OutingRecord, evs: Sequence[OutingEvent]) -> dict[str, Any]:
        """The outing: players, sides, rounds and their games, standings, what an undo
        would undo, and the next round's pairs once the round has ended."""
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
        """The outing's line in the list of outings."""
        v = self.shown(rec, evs)
        return {k: v[k] for k in ("id", "created", "version", "names", "sides_of", "round", "sides",
                                  "leading_side", "over", "ended_by", "round_finished")}


__all__ = ["GameTable", "OutingReads", "TEAM", "undo_words"]
