"""Outings (seed 004's pair tournament) in the event log's file: the ``outings`` table,
one row per outing with its set-up and the games of each round as JSON. Everything
played in an outing is a game of the event log (each pair match is an ordinary gin
game that names its outing); the row only says who is in the outing and which games
make its rounds (see :mod:`companion.table.outings`)."""

from __future__ import annotations

import json
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from companion.store.records import dumps


class OutingTable(ABC):
    """The outing methods of :class:`~companion.store.log.EventStore` (its reads and its
    locked writes, committed with ``synchronous=FULL`` like every write)."""

    @abstractmethod
    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]: ...

    @abstractmethod
    def _wexec(self, sql: str, args: Sequence[Any]) -> sqlite3.Cursor: ...

    def save_outing(self, outing_id: str, created: float, body: dict[str, Any]) -> None:
        """Write (or rewrite) the row of outing ``outing_id``."""
        self._wexec("INSERT INTO outings(id, created, body) VALUES (?, ?, ?) "
                    "ON CONFLICT(id) DO UPDATE SET body = excluded.body", (outing_id, float(created), dumps(body)))

    def outing_rows(self, outing_id: str | None = None) -> list[tuple[str, float, dict[str, Any]]]:
        """(id, created, body) of every outing (or of one), oldest first; a row whose body
        cannot be read is left out."""
        sql = "SELECT id, created, CAST(body AS BLOB) FROM outings"
        args: tuple[Any, ...] = ()
        if outing_id is not None:
            sql += " WHERE id = ?"
            args = (outing_id,)
        out = []
        for oid, created, raw in self._read(sql + " ORDER BY created, id", args):
            try:
                body = json.loads(bytes(raw).decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                continue
            if isinstance(body, dict):
                out.append((str(oid), float(created), body))
        return out
