"""Group commit: many writers, one transaction and one disk sync per batch.

A writer hands its events to :meth:`CommitQueue.submit` (which numbers them) and waits in
:meth:`CommitQueue.wait`. Whichever waiting writer finds no commit under way becomes the
leader: it writes every queued batch in one transaction, commits (the WAL is synced to
disk: ``synchronous=FULL``), runs each batch's ``on_commit`` in order and wakes the
others. A write is acknowledged only after that commit returned.

When a commit fails (a full disk), that batch and every batch queued behind it fail with
the same error and nothing of them is kept; the queue's ``generation`` moves on, so a
writer that checked its input against the lost batches (the table) must reload before
its next submit, which it proves by passing the generation it last saw.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.store.records import GameWrite, StoredEvent, StorageFailed, StoreFull, StoreError

_log = logging.getLogger(__name__)


@dataclass
class Ticket:
    """One writer's batch in the queue."""

    events: list[StoredEvent]
    games: Sequence[GameWrite] = ()
    on_commit: Callable[[], None] | None = None
    done: bool = False
    error: BaseException | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def roll_back(conn: sqlite3.Connection) -> None:
    """Undo the transaction ``conn`` has open, if any, after a failed write. SQLite may
    refuse even that (the disk or the connection is gone); the write is lost either way,
    and the caller reports the first error, not this one."""
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass


def storage_error(exc: BaseException) -> StoreError:
    """SQLite's error as the store's own (full disk: :class:`StoreFull`)."""
    text = str(exc)
    if isinstance(exc, sqlite3.IntegrityError):
        return StoreError(f"client_id already used in this game: {text}")
    if isinstance(exc, OSError) or "full" in text.lower():
        if "full" in text.lower() or getattr(exc, "errno", None) == 28:
            return StoreFull("the companion's storage is full: nothing of this entry was saved. Free some "
                               "space (or raise the log's size cap) and send it again")
    return StorageFailed(f"the event log could not be written ({text}): nothing of this entry was saved")


class CommitQueue:
    """The queue in front of one SQLite connection (see the module text)."""

    def __init__(self, write: Callable[[list[Ticket]], None], next_seq: int) -> None:
        self._write = write
        self._cond = threading.Condition()
        self._queue: list[Ticket] = []
        self._committing = False
        self._next = next_seq
        self.generation = 0
        self.last_error: StoreError | None = None
        self.commits = 0  # batches written, and the writers' batches they held
        self.batched = 0
        self.commit_seconds = 0.0

    def next_seq(self) -> int:
        with self._cond:
            return self._next

    def reset_next(self, next_seq: int) -> None:
        with self._cond:
            self._next = max(self._next, next_seq)

    def submit(self, events: Sequence[tuple[str, str, dict[str, Any], str | None, Any]], at: float, *,
               games: Sequence[GameWrite] = (), on_commit: Callable[[], None] | None = None,
               first_seq: int | None = None, generation: int | None = None) -> Ticket:
        """Queue events ``(game_id, type, payload, client_id, result)`` (numbered here).

        ``first_seq``/``generation``: what the caller checked its input against; a
        mismatch (someone else's write, or a failed commit since) raises :class:`StoreError`.
        """
        with self._cond:
            if generation is not None and generation != self.generation:
                raise self.last_error or StoreError("the log changed under this write: send it again")
            if first_seq is not None and first_seq != self._next:
                raise StoreError(f"the log moved on (next seq {self._next}, expected {first_seq}): send it again")
            evs = [StoredEvent(self._next + i, gid, typ, payload, cid, at, result)
                   for i, (gid, typ, payload, cid, result) in enumerate(events)]
            self._next += len(evs)
            t = Ticket(evs, games, on_commit)
            self._queue.append(t)
            return t

    def wait(self, t: Ticket) -> list[StoredEvent]:
        """Block until ``t`` is committed (returns its events) or failed (raises)."""
        while True:
            with self._cond:
                while not t.done and self._committing:
                    self._cond.wait()
                if t.done:
                    break
                self._committing = True
                batch, self._queue = self._queue, []
            self._lead(batch)
        if t.error is not None:
            raise t.error
        return t.events

    def _lead(self, batch: list[Ticket]) -> None:
        failed: StoreError | None = None
        t0 = time.perf_counter()
        try:
            self._write(batch)
        except StoreError as exc:
            failed = exc
        except (sqlite3.Error, OSError) as exc:
            failed = storage_error(exc)
        self.commits += 1
        self.batched += len(batch)
        self.commit_seconds += time.perf_counter() - t0
        if failed is None:
            for t in batch:
                if t.on_commit is not None:
                    try:
                        t.on_commit()
                    except Exception:  # a listener must not undo a commit; say so instead
                        _log.exception("a commit listener failed (the write itself is committed)")
        with self._cond:
            if failed is not None:
                behind, self._queue = self._queue, []
                batch = batch + behind
                self.generation += 1
                self.last_error = failed
                self._next = min([self._next, *[t.events[0].seq for t in batch if t.events]])
            for t in batch:
                t.done = True
                t.error = failed
            self._committing = False
            self._cond.notify_all()
