"""The paired phones' tokens in the event log's file (the ``tokens`` table): only their
hashes are stored (see :mod:`companion.pairing`)."""

from __future__ import annotations

import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from companion.store.records import TokenRecord


class TokenTable(ABC):
    """The token methods of :class:`~companion.store.log.EventStore`, which gives them its
    clock, its reads and its locked writes."""

    _clock: Any

    @abstractmethod
    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]: ...

    @abstractmethod
    def _wexec(self, sql: str, args: Sequence[Any]) -> sqlite3.Cursor: ...

    def add_token(self, token_hash: str, token_id: str, name: str) -> TokenRecord:
        now = float(self._clock())
        self._wexec("INSERT INTO tokens(hash, id, name, created) VALUES (?, ?, ?, ?)", (token_hash, token_id, name, now))
        return TokenRecord(token_id, name, now)

    def token_by_hash(self, token_hash: str) -> TokenRecord | None:
        rows = self._read("SELECT id, name, created, last_used FROM tokens WHERE hash = ?", (token_hash,))
        return None if not rows else TokenRecord(*rows[0])

    def touch_token(self, token_hash: str, at: float | None = None) -> None:
        when = float(self._clock()) if at is None else float(at)
        self._wexec("UPDATE tokens SET last_used = ? WHERE hash = ?", (when, token_hash))

    def token_table(self) -> dict[str, TokenRecord]:
        """Every paired token by its hash (the service keeps this in memory)."""
        rows = self._read("SELECT hash, id, name, created, last_used FROM tokens")
        return {r[0]: TokenRecord(r[1], r[2], r[3], r[4]) for r in rows}

    def tokens(self) -> list[TokenRecord]:
        rows = self._read("SELECT id, name, created, last_used FROM tokens ORDER BY created")
        return [TokenRecord(r[0], r[1], r[2], r[3]) for r in rows]

    def revoke_token(self, token_id: str) -> bool:
        return self._wexec("DELETE FROM tokens WHERE id = ?", (token_id,)).rowcount > 0
