"""The paired phones' tokens in the event log's file (the ``tokens`` table): only their
hashes are stored (see :mod:`companion.pairing`).

>>> import pathlib, tempfile
>>> from companion.store import EventStore
>>> store = EventStore(pathlib.Path(tempfile.mkdtemp()) / "events.sqlite3", clock=lambda: 100.0)
>>> store.tokens.add("h" * 64, "t1", "Ann's phone")
TokenRecord(id='t1', name="Ann's phone", created=100.0, last_used=None)
>>> store.tokens.revoke("t1"), store.tokens.revoke("t1")
(True, False)
>>> store.close()
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from companion.store.records import TokenRecord

#: runs one read query and returns its rows
Read = Callable[[str, Sequence[Any]], list[Any]]
#: runs one write statement under the log's write lock (a full disk raises ``StoreFull``)
Write = Callable[[str, Sequence[Any]], sqlite3.Cursor]


class TokenTable:
    """The ``tokens`` table of one event log (:attr:`EventStore.tokens
    <companion.store.log.EventStore.tokens>`), given the log's reads, its locked writes and
    its clock."""

    def __init__(self, read: Read, write: Write, clock: Callable[[], float]) -> None:
        self._read = read
        self._write = write
        self._clock = clock

    def add(self, token_hash: str, token_id: str, name: str) -> TokenRecord:
        now = float(self._clock())
        self._write("INSERT INTO tokens(hash, id, name, created) VALUES (?, ?, ?, ?)", (token_hash, token_id, name, now))
        return TokenRecord(token_id, name, now)

    def by_hash(self, token_hash: str) -> TokenRecord | None:
        rows = self._read("SELECT id, name, created, last_used FROM tokens WHERE hash = ?", (token_hash,))
        return None if not rows else TokenRecord(*rows[0])

    def touch(self, token_hash: str, at: float | None = None) -> None:
        when = float(self._clock()) if at is None else float(at)
        self._write("UPDATE tokens SET last_used = ? WHERE hash = ?", (when, token_hash))

    def by_hashes(self) -> dict[str, TokenRecord]:
        """Every paired token by its hash (the service keeps this in memory)."""
        rows = self._read("SELECT hash, id, name, created, last_used FROM tokens", ())
        return {r[0]: TokenRecord(r[1], r[2], r[3], r[4]) for r in rows}

    def all(self) -> list[TokenRecord]:
        """Every paired token, oldest first."""
        rows = self._read("SELECT id, name, created, last_used FROM tokens ORDER BY created", ())
        return [TokenRecord(r[0], r[1], r[2], r[3]) for r in rows]

    def revoke(self, token_id: str) -> bool:
        """Forget a token; whether there was one with this id."""
        return self._write("DELETE FROM tokens WHERE id = ?", (token_id,)).rowcount > 0
