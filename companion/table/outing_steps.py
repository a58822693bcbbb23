"""How an outing's steps are written: the outings' lock, the request's fingerprint with
the first step, a retried ``client_id`` told from a reused one, ``expected_version``, the
listeners (the live channel), the next round paired, and the games an outing creates and
deletes itself (while it does, its own hooks stand aside: :meth:`Steps.busy`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from companion.errors import Conflict, IllegalAction, NotFound, StaleVersion
from companion.games import outing_game
from companion.rules.tournament import PairMatch
from companion.store.outings import OutingClientReused, OutingEvent
from companion.table.errors import TableError
from companion.table.outing_fold import STEP_NAMES, OutingRecord, describe_steps
from companion.table.outing_reads import GameTable, OutingReads
from companion.table.retries import KEY

CODE = "invalid_team_entry"


def refuse(exc: Exception) -> IllegalAction:
    """The outing's rules refuse a request: 422 ``invalid_team_entry`` naming the rule."""
    rule = outing_game().team_rules().RULE
    text = str(exc) if str(exc).startswith(rule) else f"{rule}: {exc}"
    return IllegalAction(text, code=CODE)


#: what a listener of the outings hears: ``{"type": "outing", ...}``
OutingListener = Callable[[dict[str, Any]], None]


def public(ev: OutingEvent) -> dict[str, Any]:
    """A step as the API shows it (without the request's fingerprint)."""
    d = ev.as_dict()
    d["payload"] = {k: v for k, v in ev.payload.items() if k != KEY}
    return d



class Steps:
    """The write path of the outings of ``table`` (read through ``reads``): every change
    holds :attr:`lock`."""

    def __init__(self, table: GameTable, reads: OutingReads) -> None:
        self.table = table
        self.reads = reads
        self.store = table.store
        self.lock = threading.RLock()
        self._local = threading.local()
        self._listeners: list[OutingListener] = []

    # -- listeners -------------------------------------------------------------------

    def subscribe(self, fn: OutingListener) -> Callable[[], None]:
        """Call ``fn(message)`` after each committed step (``{"type": "outing", "outing",
        "version", "step", "line"}``; ``line`` is None once the outing is deleted)."""
        self._listeners.append(fn)
        return lambda: self._listeners.remove(fn) if fn in self._listeners else None

    def _announce(self, oid: str, written: Sequence[OutingEvent]) -> None:
        if not self._listeners or not written:
            return
        try:
            rec, evs = self.reads.record(oid, deleted_ok=True)
            line = None if rec.deleted else self.reads.line(rec, evs)
            version = rec.version
        except Exception:  # a game of it cannot be read: the step is still news
            line, version = None, 0
        for ev in written:
            msg = {"type": "outing", "outing": oid, "version": version, "step": public(ev), "line": line}
            for fn in list(self._listeners):
                try:
                    fn(msg)
                except Exception:  # a broken listener must not undo a committed step
                    pass

    # -- the write path ----------------------------------------------------------------

    def busy(self) -> bool:
        """Whether this thread is inside an outing's own change (its games' writes)."""
        return bool(getattr(self._local, "depth", 0))

    def enter(self) -> None:
        """This thread starts an outing's own change of its games (:meth:`busy` until :meth:`leave`)."""
        self._local.depth = getattr(self._local, "depth", 0) + 1

    def leave(self) -> None:
        self._local.depth = max(0, getattr(self._local, "depth", 0) - 1)

    def write(self, oid: str, steps: Sequence[tuple[str, dict[str, Any]]], client_id: str | None = None,
              fp: str | None = None) -> list[OutingEvent]:
        """Append steps (the caller holds the lock); the fingerprint of the request goes
        with the first, and the listeners hear of them once committed."""
        if fp is not None and steps:
            steps = [(steps[0][0], {**steps[0][1], KEY: fp}), *steps[1:]]
        try:
            written = self.store.outings.append(oid, steps, client_id)
        except OutingClientReused:
            raise Conflict(f"client_id {str(client_id)[:100]!r} was already used in this outing",
                           code="client_id_reused") from None
        self._announce(oid, written)
        return written

    def retried(self, oid: str, client_id: str | None, fp: str | None) -> OutingEvent | None:
        """The step a retried ``client_id`` wrote (409 ``client_id_reused`` when it was
        used for another request), or None for a new request."""
        if not client_id:
            return None
        prev = self.store.outings.find_client(oid, client_id)
        if prev is None:
            return None
        if prev.payload.get(KEY) != fp:
            raise Conflict(f"client_id {client_id[:100]!r} was already used in this outing for another request "
                           f"({STEP_NAMES.get(prev.type, prev.type)}): a retry must repeat the same request; send a "
                           "new client_id for a new one", code="client_id_reused",
                           details={"client_id": client_id[:100], "used_for": prev.type})
        return prev

    def check_version(self, rec: OutingRecord, evs: Sequence[OutingEvent], expected: int | None) -> None:
        if expected is not None and int(expected) != rec.version:
            exc = StaleVersion(f"the outing is at version {rec.version}, not {expected}: reload it and try again",
                               version=rec.version, expected=int(expected))
            if 0 < int(expected) < rec.version:
                exc.details["changes"] = describe_steps(evs, after=int(expected))
            raise exc

    def pair(self, rec: OutingRecord, client_id: str | None, fp: str | None, by: str) -> None:
        """Pair and write the next round of ``rec`` (the caller holds the lock)."""
        o, _ = self.reads.rules_outing(rec)
        try:
            paired = outing_game().team_rules().next_round(o, self.reads.elapsed(rec))
        except IllegalAction as exc:
            raise refuse(exc) from None
        new = paired.matches[len(o.matches):]
        games = self.start_games(rec.id, f"v{rec.version}", rec.players, rec.preset, rec.options, new)
        self.write(rec.id, [("round_paired", {"round": len(rec.rounds) + 1, "games": games, "by": by})],
                   client_id, fp)

    def start_games(self, oid: str, tag: str, players: Sequence[str], preset: str | None,
                    options: dict[str, Any], matches: Sequence[PairMatch]) -> list[str]:
        """Create (or find again: the client ids are the outing's, ``tag`` its version
        when paired) the games of one round."""
        gids = []
        self.enter()
        try:
            for k, m in enumerate(matches):
                pair = [players[p] for p in m.players]
                g = self.table.create_game(outing_game().name, players=pair, preset=preset, options=dict(options),
                                           client_id=f"outing:{oid}:{tag}:match {k + 1}", outing=oid)
                gids.append(g["id"])
        finally:
            self.leave()
        return gids

    def delete_games(self, gids: Sequence[str]) -> None:
        """Delete games of the outing (empty ones, or all of them when asked)."""
        self.enter()
        try:
            for gid in gids:
                try:
                    self.table.delete_game(gid)
                except NotFound:
                    pass  # already gone
        finally:
            self.leave()

    def hands_in(self, gid: str) -> int:
        """How many hands game ``gid`` has (0 when it is gone)."""
        try:
            return int(self.table.summary(gid).get("hands_played") or 0)
        except (NotFound, TableError):
            return 0

    def named(self, gids: Sequence[str]) -> str:
        """Games as people read them: ``g1 (Ann v Bob, 3 hands)``."""
        parts = []
        for gid in gids:
            try:
                s = self.table.summary(gid)
                n = int(s.get("hands_played") or 0)
                parts.append(f"{gid} ({' v '.join(s.get('players', []))}, {n} hand{'' if n == 1 else 's'})")
            except (NotFound, TableError):
                parts.append(gid)
        return ", ".join(parts)

    def exists(self, gid: str) -> bool:
        try:
            self.table.summary(gid)
            return True
        except (NotFound, TableError):
            return False


__all__ = ["CODE", "GameTable", "OutingListener", "Steps", "public", "refuse"]
