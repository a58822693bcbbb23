"""The table's write path: trial fold, group-committed write, answer, notice.

:class:`Ledger` owns what every write shares: the event log, the table's lock (a read
takes it too, so it never sees half a write), the :class:`~companion.table.library.Library`
of folded games, the writes still committing, the retried client ids and the write hooks.
The commands (:class:`~companion.table.service.Table`,
:class:`~companion.table.dealing.Dealing`) stage their events through it.

Each write runs in three steps. Under the table's lock: a retried client id gets its
first answer again; otherwise the new event is folded onto the game (the trial: refused
input raises and writes nothing), queued for the next group commit with the game's new
summary line (and a checkpoint now and then), and the game's new state is held. Outside
the lock the writer waits for the commit: the answer goes out only once the event is on
disk, and the live channel hears of it in the order of the log. If the commit fails (a
full disk), every game the failed batches touched is folded from the log again, so
nothing of them remains, and the writer gets the storage error.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.errors import CompanionError, IllegalAction, InvalidInput, StaleVersion
from companion.store import EventStore, NewEvent, StoredEvent, StoreError
from companion.store.commit import Ticket
from companion.table import checkpoint
from companion.table.errors import engine_failure
from companion.table.fold import NeedsRefold, fold_game, step
from companion.table.history import describe
from companion.table.library import Library, game_write
from companion.table.retries import first_answer, stamp
from companion.table.state import GameState
from companion.table.subscriptions import Subscriber, Subscribers

_log = logging.getLogger(__name__)

#: a check before a write: (the game before, the game after, the event type); raises to refuse
Guard = Callable[[GameState | None, GameState, str], None]
#: told after each write command (once it is committed, no lock held): the game's id
After = Callable[[str], None]

@dataclass(frozen=True)
class Outcome:
    """What a write command returns: the API's response body and the event written
    (None for a retried client id, whose first answer is returned again)."""

    body: dict[str, Any]
    event: StoredEvent | None
    replayed: bool = False


@dataclass
class Staged:
    """A write queued for commit: its answer is sent once the ticket is done."""

    key: tuple[str, str] | None
    ticket: Ticket
    body: dict[str, Any]
    event: StoredEvent
    fp: str | None = None


#: how a command's answer is made from the state after it: (small body, key of the game in
#: the body, or None when the body is the game itself)
BodyParts = Callable[[GameState], tuple[dict[str, Any], str | None]]


def stored_answer(small: dict[str, Any], payload: dict[str, Any], seq: int | None,
                  key: str | None) -> dict[str, Any]:
    """What the log keeps of an answer: the parts the payload does not already hold (a
    hand's score is in its payload: it is named, not repeated), and where the game stood.

    >>> stored_answer({"result": {"kind": "gin"}}, {"result": {"kind": "gin"}}, 7, "game")
    {'v': 2, 'body': {}, 'from_payload': ['result'], 'game_at': 7, 'game_key': 'game'}
    """
    same = [k for k, v in small.items() if k in payload and payload[k] == v]
    out: dict[str, Any] = {"v": 2, "body": {k: v for k, v in small.items() if k not in same}}
    if same:
        out["from_payload"] = same
    out.update(game_at=seq, game_key=key)
    return out


class Ledger:
    """The write path of one event log: stage a write under :attr:`lock`, then wait for
    its commit (:meth:`run`); the folded games are :attr:`library`."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.lock = threading.RLock()
        self._subs = Subscribers()
        self._pending: dict[tuple[str, str], Staged] = {}
        self._inflight: dict[str, dict[int, StoredEvent]] = {}  # queued, not yet committed
        #: the game played on the board that was written to last (None: none since start-up)
        self.board_game: str | None = None
        self._gen = store.generation
        self._guards: list[Guard] = []
        self._afters: list[After] = []
        self.library = Library(store)
        self.library.start()
        self.replay_errors = self.library.replay_errors
        # every row is read once for damage a page check cannot see; on a long log that
        # takes a while, so it runs behind the start-up (a game it flags is quarantined)
        self.scan_state = "running"
        self._scanned = threading.Event()
        threading.Thread(target=self._scan, name="log-scan", daemon=True).start()

    def _scan(self) -> None:
        try:
            found = self.library.scan()
            with self.lock:
                self.library.quarantine(found)
            self.scan_state = "done"
        except Exception as exc:  # the log was closed meanwhile, or cannot be read
            self.scan_state = f"failed: {exc}"
        finally:
            self._scanned.set()

    def wait_scan(self, timeout: float | None = None) -> bool:
        """Wait for the start-up scan of every row (tests, tools); True when it finished."""
        return self._scanned.wait(timeout)

    # -- subscribers -------------------------------------------------------------------

    def subscribe(self, fn: Subscriber) -> Callable[[], None]:
        """Call ``fn(event, message)`` after each commit, in the order of the log;
        ``message["game"]`` is the game's summary. Returns an unsubscribe function."""
        return self._subs.add(fn)

    def add_write_hooks(self, guard: Guard | None = None, after: After | None = None) -> None:
        """``guard(before, after, type)`` runs on the trial state of every write, under
        the table's lock (it only reads; raising refuses the write, nothing is written);
        ``after(game_id)`` runs once a write command is committed, in the writer's thread
        with no lock held (an error there is logged: the write itself stands)."""
        if guard is not None:
            self._guards.append(guard)
        if after is not None:
            self._afters.append(after)

    # -- the write path ------------------------------------------------------------------

    def _replayed(self, game_id: str, client_id: str | None, op: str = "",
                  fp: str | None = None) -> Outcome | Staged | None:
        """The first answer to a retried client id (or its write, still committing); 409
        ``client_id_reused`` when it was used for another request (see retries)."""
        if not client_id:
            return None
        staged = self._pending.get((game_id, client_id))
        if staged is not None:
            first_answer(stamp({}, staged.fp), staged.event.type, op, fp, client_id)
            return staged
        prev = self.store.find_client(game_id, client_id)
        if prev is None:
            return None
        checked = first_answer(prev.result, prev.type, op, fp, client_id)
        return Outcome(self._answer_of(dataclasses.replace(prev, result=checked)), None, True)

    def _answer_of(self, prev: StoredEvent) -> dict[str, Any]:
        res = prev.result
        if not isinstance(res, dict):
            return {"result": res}
        if res.get("v") != 2:
            return res  # written by an old version that stored whole answers
        body = dict(res.get("body") or {})
        for k in res.get("from_payload") or ():
            body[k] = prev.payload.get(k)
        at = res.get("game_at")
        if isinstance(at, int):
            game = self._game_at(prev.game_id, at)
            key = res.get("game_key")
            if isinstance(key, str):
                body[key] = game
            else:
                body = game
        return body

    def _game_at(self, game_id: str, seq: int) -> dict[str, Any]:
        g = self.library.get(game_id)
        if g is not None and g.last_seq == seq:
            return g.as_dict()
        return fold_game(self.store.events(game_id, upto=seq)).as_dict()

    def events_now(self, game_id: str) -> list[StoredEvent]:
        """The game's events, those still committing included (the caller holds the lock)."""
        merged = {ev.seq: ev for ev in self.store.events(game_id)}
        merged.update(self._inflight.get(game_id, {}))
        return [merged[k] for k in sorted(merged)]

    def check_version(self, g: GameState, expected: int | None) -> None:
        """409 ``stale_version`` when the client started from another version; its details
        list ``changes``: what each event since that version did and which phone wrote it."""
        if expected is not None and int(expected) != g.version:
            exc = StaleVersion(version=g.version, expected=int(expected))
            if 0 < int(expected) < g.version:
                exc.details["changes"] = describe(self.events_now(g.id), after=int(expected))
            raise exc

    def recover(self) -> None:
        """After a failed commit: fold again every game whose held state the log lacks."""
        if self.store.generation == self._gen:
            return
        durable = self.store.last_seq()
        for gid in [gid for gid, seq in self.library.seqs.items() if seq > durable]:
            self.library.forget(gid)
        self._pending = {k: s for k, s in self._pending.items() if not s.ticket.done}
        self._inflight = {gid: kept for gid, evs in self._inflight.items()
                          if (kept := {q: ev for q, ev in evs.items() if q <= durable})}
        self._gen = self.store.generation

    def _trial(self, g: GameState | None, probe: StoredEvent) -> GameState:
        """The state after ``probe`` (the trial before the write); refusals raise TableError."""
        fast = g is not None and g.engine is not None and probe.type == "action"
        try:
            if g is None:
                return fold_game([probe])
            try:
                return step(g, probe)
            except NeedsRefold:
                return fold_game([*self.events_now(g.id), probe])
        except IllegalAction as exc:  # an engine's refusal: its message names the rule
            if g is None and type(exc) is IllegalAction and exc.code == "illegal":  # a new game's options
                raise InvalidInput(str(exc), code="invalid_options", details=exc.details) from None
            raise
        except CompanionError:
            raise
        except Exception as exc:  # anything else is a bug (a ValueError too): 500, logged, nothing written
            if fast and g is not None:  # only a refusal is promised to leave the engine unchanged
                self.library.forget(g.id)
            raise engine_failure(exc)

    def stage(self, g: GameState | None, game_id: str, etype: str, payload: dict[str, Any], client_id: str | None,
              parts: BodyParts, fp: str | None = None) -> Staged:
        """Trial, then queue the event (the caller holds the lock)."""
        self.recover()
        now = self.store.now()
        seq = self.store.next_seq()
        probe = StoredEvent(seq, game_id, etype, payload, client_id, now)
        new_state = self._trial(g, probe)
        try:
            for guard in self._guards:
                guard(g, new_state, etype)
            small, key = parts(new_state)
            game = new_state.as_dict()
            body = dict(small) if key is not None else game
            if key is not None:
                body[key] = game
            stored = stamp(stored_answer(small, payload, seq, key), fp)
            # after an undo (or a redo) the checkpoint is written at once: a tail never holds an undo to replay
            gw = game_write(new_state, etype in ("undo", "redo") or self.library.needs_checkpoint(new_state))
            summary = gw.summary
            event = StoredEvent(seq, game_id, etype, payload, client_id, now, stored)
            ticket = self.store.submit([NewEvent(game_id, etype, payload, client_id, stored)], at=now, games=[gw],
                                       on_commit=lambda: self._subs.notify(event, summary),
                                       first_seq=seq, generation=self._gen)
        except BaseException:
            if g is not None and g.engine is not None:  # the engine moved on in place: back to what the log says
                self.library.forget(g.id)
            raise
        if gw.checkpoint is not None:
            self.library.checkpointed[game_id] = new_state.version
        self.library.keep(new_state, gw.summary)
        if new_state.rules.on_board:
            self.board_game = game_id
        self._inflight.setdefault(game_id, {})[seq] = event
        staged = Staged((game_id, client_id) if client_id else None, ticket, body, event, fp)
        if staged.key is not None:
            self._pending[staged.key] = staged
        return staged

    def stage_game(self, gid: str, client_id: str | None, probes: list[StoredEvent], st: GameState, now: float,
                   fp: str | None = None) -> Staged:
        """Queue a whole new game's events at once (an import: ``probes`` already checked,
        ``st`` the state after them; the caller holds the lock). Its answer is the game."""
        last = probes[-1].seq
        stored = stamp({"v": 2, "body": {}, "game_at": last, "game_key": None}, fp)
        new = [NewEvent(gid, p.type, p.payload, p.client_id, stored if i == 0 else None)
               for i, p in enumerate(probes)]
        gw = game_write(st, st.version >= checkpoint.EVERY)
        events = [StoredEvent(p.seq, gid, p.type, p.payload, p.client_id, now, stored if i == 0 else None)
                  for i, p in enumerate(probes)]

        def announce() -> None:
            for ev in events:
                self._subs.notify(ev, gw.summary)

        ticket = self.store.submit(new, at=now, games=[gw], on_commit=announce, first_seq=probes[0].seq,
                                   generation=self._gen)
        if gw.checkpoint is not None:
            self.library.checkpointed[gid] = st.version
        self.library.keep(st)
        for ev in events:
            self._inflight.setdefault(gid, {})[ev.seq] = ev
        staged = Staged((gid, client_id) if client_id else None, ticket, st.as_dict(), events[0], fp)
        if staged.key is not None:
            self._pending[staged.key] = staged
        return staged

    def drop_committed(self, gid: str) -> None:
        """Forget the events of ``gid`` held as committing that the log now has (after
        :meth:`stage_game`, whose later events :meth:`finish` does not settle)."""
        with self.lock:
            held = self._inflight.get(gid)
            if held is not None:
                for ev in list(held.values()):
                    if ev.seq <= self.store.last_seq():
                        held.pop(ev.seq, None)
                if not held:
                    self._inflight.pop(gid, None)

    def committing(self, gid: str) -> bool:
        """Whether a write to ``gid`` is queued and not yet committed (the caller holds the lock)."""
        return bool(self._inflight.get(gid))

    def _settle(self, staged: Staged) -> None:
        ev = staged.event
        if staged.key is not None and self._pending.get(staged.key) is staged:
            del self._pending[staged.key]
        held = self._inflight.get(ev.game_id)
        if held is not None:
            held.pop(ev.seq, None)
            if not held:
                del self._inflight[ev.game_id]

    def finish(self, staged: Staged, replayed: bool = False) -> Outcome:
        """Wait (without the lock) until the event is on disk; then answer."""
        try:
            self.store.wait(staged.ticket)
        except StoreError:
            with self.lock:
                self._settle(staged)
                self.recover()
            raise
        with self.lock:
            self._settle(staged)
        return Outcome(staged.body, None if replayed else staged.event, replayed)

    def run(self, game_id: str, client_id: str | None, stage: Callable[[], Staged], op: str = "",
            fp: str | None = None) -> Outcome:
        """One write command: a retried client id, or ``stage()`` under the lock; then wait."""
        with self.lock:
            self.recover()
            hit = self._replayed(game_id, client_id, op, fp)
            if isinstance(hit, Outcome):
                return hit
            staged = hit if hit is not None else stage()
        out = self.finish(staged, replayed=hit is not None)
        for fn in list(self._afters):
            try:
                fn(game_id)
            except Exception:  # the write is committed; what follows from it is retried later
                _log.exception("a follow-up of the write to game %s failed (the write itself is committed)", game_id)
        return out
