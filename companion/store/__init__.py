"""The durable event log: one SQLite file, append-only, acknowledged only after commit.

Every command the table accepts becomes one row in ``events`` (a global sequence
number, the game it belongs to, a type, a JSON payload with the command and what it
changed, the client id that sent it, the small part of the answer the client was given,
and the time). A client id is unique per game: a retried write finds the first row and
gets its answer back, and nothing is added. The file runs in WAL mode with
``synchronous=FULL``, and writers share commits (:mod:`~companion.store.commit`), so a
row that :meth:`EventStore.append` returned survives a power cut or a ``SIGKILL``.

Beside the events, ``games`` (one line per game) and ``checkpoints`` (folded states) make
start-up cheap; both are derived and rebuilt from the events when they disagree.

Opening runs ``PRAGMA quick_check``. A damaged file is never silently replaced: it is
renamed aside with a time stamp (``events.sqlite3.damaged-20260101T120000``) and the
store starts empty, with :attr:`EventStore.damage` saying what happened. A count of
acknowledged events kept beside the file (:mod:`~companion.store.acks`) reports a log
that went missing, came back empty or lost its WAL (:attr:`EventStore.incidents`). A
version 1 file is upgraded in place on first open; the old file is kept as
``events.sqlite3.v1-<time>``.

Paired phone tokens (``tokens``, sha256 hashes only) and the outings' steps
(``outing_events``) live in the same file; the store holds them as :attr:`EventStore.tokens`
and :attr:`EventStore.outings`.

>>> import tempfile, pathlib
>>> store = EventStore(pathlib.Path(tempfile.mkdtemp()) / "events.sqlite3")
>>> ev = store.append("g1", "game_created", {"variant": "gin"}, client_id="c1", result={"ok": 1})
>>> ev.seq, ev.game_id, ev.type
(1, 'g1', 'game_created')
>>> store.find_client("g1", "c1").result
{'ok': 1}
>>> [e.seq for e in store.events()]
[1]
>>> store.close()
"""

from __future__ import annotations

import os
from pathlib import Path

from companion.store.log import EventStore
from companion.store.records import (Checkpoint, DamageReport, GameRow, GameWrite, NewEvent, StorageFailed,
                                     StoreFull, StoreBusy, StoredEvent, StoreError, TokenRecord)
from companion.store.schema import SCHEMA_VERSION

FILENAME = "events.sqlite3"

__all__ = [
    "FILENAME", "SCHEMA_VERSION", "Checkpoint", "DamageReport", "EventStore", "GameRow", "GameWrite", "NewEvent",
    "StorageFailed", "StoreFull", "StoreBusy", "StoreError", "StoredEvent", "TokenRecord", "open_store",
]


def open_store(data: str | os.PathLike[str] | Path, *, exclusive: bool = False,
               max_bytes: int | None = None) -> EventStore:
    """Open (or create) the event log in the data directory ``data``.

    ``exclusive`` takes a lock on the folder for as long as this process lives, so two
    services never write one log (each keeps its own idempotency and versions in memory).
    ``max_bytes`` caps the log file's size (a write past it answers as a full disk).
    """
    folder = Path(data)
    if exclusive:
        _lock_folder(folder)
    return EventStore(folder / FILENAME, max_bytes=max_bytes)


_HELD: dict[Path, int] = {}


def _lock_folder(folder: Path) -> None:
    import fcntl

    path = (folder / (FILENAME + ".lock")).resolve()
    if path in _HELD:
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise StoreBusy(
            f"another gingo serve is already using {folder}: stop it first, or pass --data with another folder"
        ) from None
    _HELD[path] = fd
