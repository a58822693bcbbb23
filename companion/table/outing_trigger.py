"""What an outing does by itself when one of its games changes.

The table runs two hooks on every write to every game (:meth:`~companion.table.ledger.Ledger.add_write_hooks`),
so every path passes here: a hand entered, corrected, undone or redone, a game imported.

:class:`Trigger` is given the outings' reads and their write path
(:class:`~companion.table.outing_steps.Steps`, whose lock it holds while it settles).

* Before the write (:meth:`Trigger.guard`, under the table's lock, reading only): a
  change to how a match of an earlier round ended (finished or not, who won) is refused
  with 409 ``outing_round_played`` when a later round, paired from that result, already
  has hands entered (the games are named); deleting a pair match of an outing is refused
  with 409 ``outing_game`` (delete the outing instead).
* After the write (:meth:`Trigger.settle`): a later round paired from a result that no
  longer stands is unpaired (its games had no hands: they are deleted) and paired again
  from the new results; when the last match of the round has ended, the next round is
  paired (winners with winners, losers with losers); when a side reaches the target (or
  the round ends after the time is up) the outing's end is written, and undone again if a
  correction takes the side back under the target.

At start-up (:meth:`Trigger.catch_up`) the same runs once for every outing, so a step a
crash interrupted (a round's games created, the round not yet written) is finished: the
games are found again by their client ids. Outings kept by the first version (one row per
outing) are turned into steps then.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from companion.errors import CompanionError, Conflict, IllegalAction
from companion.games import outing_game
from companion.rules.tournament import Outing
from companion.store.outings import OutingEvent
from companion.table.outing_fold import OutingRecord, fold_outing
from companion.table.outing_reads import GameTable, OutingReads
from companion.table.outing_steps import Steps
from companion.table.state import GameState

log = logging.getLogger(__name__)
MAX_SETTLE_STEPS = 64


def _outcome(st: GameState) -> tuple[bool, Any]:
    return st.finished, (st.match.winner if st.match is not None else None)


def _expected_pairs(o: Outing, r: int) -> list[tuple[int, int]] | None:
    """The pairs round ``r + 1`` gets from rounds 1..r (None: round r has not ended, or
    the outing was over after it)."""
    sub = Outing(o.players, o.sides, o.options, tuple(m for m in o.matches if m.round <= r))
    try:
        paired = outing_game().team_rules().next_round(sub, None)
    except IllegalAction:
        return None
    return [m.players for m in paired.matches[len(sub.matches):]]


class Trigger:
    """The automatic part of the outings of ``table``: the write hooks and the start-up."""

    def __init__(self, table: GameTable, reads: OutingReads, steps: Steps) -> None:
        self.table = table
        self.reads = reads
        self.steps = steps
        self.store = table.store
        self._lock = steps.lock

    # -- before a game's write -----------------------------------------------------------

    def guard(self, before: GameState | None, after: GameState, etype: str) -> None:
        oid = after.created_payload.get("outing")
        if not isinstance(oid, str) or before is None or self.steps.busy():
            return
        try:
            rec = fold_outing(self.store.outings.events(oid))
        except ValueError:
            return
        if rec is None or rec.deleted:
            return
        r = rec.round_of(after.id)
        if r is None:
            return  # a game of a round undone (it is being deleted)
        if etype == "game_deleted":
            raise Conflict(f"game {after.id} is a pair match of outing {oid} (round {r}): delete the outing "
                           f"instead (DELETE /api/v1/outings/{oid}, with ?games=delete or ?games=keep)",
                           code="outing_game", details={"outing": oid, "round": r})
        if r >= len(rec.rounds) or _outcome(before) == _outcome(after):
            return
        later = [g for gids in rec.rounds[r:] for g in gids]
        played = [g for g in later if self.steps.hands_in(g)]
        if played:
            raise Conflict(
                f"this changes how {' v '.join(after.players)} ended in round {r} of outing {oid}, and round "
                f"{r + 1} was paired from that result: hands are already entered in {self.steps.named(played)}. Undo "
                "those hands first (a later round with no hands is paired again by itself)",
                code="outing_round_played", details={"outing": oid, "round": r, "games": played})

    # -- after a game's write ------------------------------------------------------------

    def game_written(self, game_id: str) -> None:
        if self.steps.busy():
            return
        try:
            oid = self.table.summary(game_id).get("outing")  # under the table's lock
        except CompanionError:  # deleted, or damaged
            return
        if isinstance(oid, str):
            self.settle(oid, game_id)

    def settle(self, oid: str, game_id: str | None = None) -> None:
        """Bring the outing in line with its games (see the module notes)."""
        with self._lock:
            for _ in range(MAX_SETTLE_STEPS):
                rec, evs = self.reads.record(oid, deleted_ok=True)
                if rec.deleted or not self._settle_step(rec, evs, game_id):
                    return

    def _settle_step(self, rec: OutingRecord, evs: Sequence[OutingEvent], game_id: str | None) -> bool:
        """One change (True: look again), or nothing left to do (False)."""
        o, _ = self.reads.rules_outing(rec)
        for r in range(1, len(rec.rounds)):
            actual = [m.players for m in o.matches if m.round == r + 1]
            if _expected_pairs(o, r) != actual:
                return self._unpair(rec, evs, r)
        st = outing_game().team_rules().standings(o, self.reads.elapsed(rec))
        finished = all(m["finished"] for m in st["matches"] if m["round"] == o.round)
        ended = rec.ended
        if ended is not None and ended["auto"] and not st["over"]:
            seq, typ = rec.standing[-1]
            if typ != "outing_ended":
                return False
            self.steps.write(rec.id, [("undo", {"undone": seq, "undone_type": typ, "by": "auto", "games_deleted": []})])
            return True
        if ended is None and st["over"] and (st["ended_by"] == "target" or finished):
            self.steps.write(rec.id, [("outing_ended", {"ended_by": st["ended_by"], "auto": True, "by": "auto"})])
            return False
        resume = not rec.paused or (game_id is not None and game_id in rec.rounds[-1])
        if ended is None and not st["over"] and finished and resume:
            self.steps.pair(rec, None, None, "auto")
            return True
        return False

    def _unpair(self, rec: OutingRecord, evs: Sequence[OutingEvent], r: int) -> bool:
        """Undo every step from the pairing of round ``r + 1`` on (its games and the later
        rounds' are empty, or nothing is done); a host's end is written again after."""
        pairings = [i for i, (_, typ) in enumerate(rec.standing) if typ == "round_paired"]
        start = pairings[r - 1]
        later = [g for gids in rec.rounds[r:] for g in gids]
        if any(self.steps.hands_in(g) for g in later):
            log.warning("outing %s: round %d no longer fits round %d's results, but it has hands", rec.id, r + 1, r)
            return False
        by_seq = {e.seq: e for e in evs}
        steps: list[tuple[str, dict[str, Any]]] = []
        gone: list[str] = []
        for seq, typ in reversed(rec.standing[start:]):
            games = [str(g) for g in by_seq[seq].payload.get("games") or []] if typ == "round_paired" else []
            gone += games
            steps.append(("undo", {"undone": seq, "undone_type": typ, "by": "auto", "games_deleted": games}))
        host_end = rec.ended if rec.ended is not None and not rec.ended["auto"] else None
        if host_end is not None and rec.ended is not None and rec.ended["seq"] >= rec.standing[start][0]:
            steps.append(("outing_ended", {"ended_by": "host", "auto": False, "by": host_end.get("by")}))
        self.steps.write(rec.id, steps)
        self.steps.delete_games(gone)
        return True

    # -- start-up ------------------------------------------------------------------------

    def catch_up(self) -> None:
        """Turn first-version rows into steps, then settle every outing (see the notes)."""
        try:
            for oid, created, body in self.store.outings.legacy():
                rounds = [list(r) for r in body.get("rounds") or []]
                if not rounds:
                    continue
                steps: list[tuple[str, dict[str, Any]]] = [("outing_created", {
                    "players": body.get("players"), "sides": body.get("sides"), "preset": body.get("preset"),
                    "options": body.get("options") or {}, "games": rounds[0], "created": created})]
                steps += [("round_paired", {"round": r, "games": g, "by": "auto"})
                          for r, g in enumerate(rounds[1:], start=2)]
                self.steps.write(oid, steps)
            ids = self.store.outings.ids()
        except Exception:
            log.exception("the outings could not be read at start-up")
            return
        for oid in ids:
            try:
                self.settle(oid)
                self._clean(oid)
            except Exception:
                log.exception("outing %s could not be brought up to date at start-up", oid)

    def _clean(self, oid: str) -> None:
        """Delete the games a crash left behind: those of a round undone (they had no
        hands), or of an outing deleted with its games."""
        with self._lock:
            rec, evs = self.reads.record(oid, deleted_ok=True)
            if rec.deleted:
                mode = next((e.payload.get("games") for e in reversed(evs) if e.type == "outing_deleted"), "keep")
                left = rec.every_game if mode == "delete" else []
            else:
                left = [g for g in rec.every_game if g not in rec.games() and not self.steps.hands_in(g)]
            self.steps.delete_games([g for g in left if self.steps.exists(g)])


__all__ = ["Trigger"]
