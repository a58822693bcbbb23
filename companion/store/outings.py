"""Outings (seed 004's pair tournament) in the event log's file.

An outing is kept as events, like a game: the ``outing_events`` table holds one row per
step (its creation with round 1's games, each round paired, its end, an undo, its
deletion), append-only, with a sequence number, the outing's id, a type, a JSON payload,
the client id that sent it (unique per outing: a retried write finds its first row) and
the time. Every write is committed with ``synchronous=FULL`` before it is answered, so
a step that was answered survives a power cut or a ``SIGKILL``. What the steps mean is
:mod:`companion.table.outing_fold`; everything played in an outing is a game of the
event log (each pair match is an ordinary gin game that names its outing).

The ``outings`` table (one row per outing with its rounds as JSON) is how the first
version kept outings; such a row is turned into events once
(:meth:`OutingTable.legacy`), and the row stays where it was.

>>> import pathlib, tempfile
>>> from companion.store import EventStore
>>> store = EventStore(pathlib.Path(tempfile.mkdtemp()) / "events.sqlite3", clock=lambda: 100.0)
>>> [e.seq for e in store.outings.append("o1", [("outing_created", {"pairs": 2})], "c1")]
[1]
>>> store.outings.ids(), store.outings.find_client("o1", "c1").type
(['o1'], 'outing_created')
>>> store.close()
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.store.commit import roll_back, storage_error
from companion.store.records import dumps


@dataclass(frozen=True)
class OutingEvent:
    """One stored step of an outing."""

    seq: int
    outing_id: str
    type: str
    payload: dict[str, Any]
    client_id: str | None
    time: float

    def as_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "outing_id": self.outing_id, "type": self.type, "payload": self.payload,
                "client_id": self.client_id, "time": self.time}


class OutingClientReused(Exception):
    """A client id this outing already used (the caller answers with the first write)."""


class OutingTable:
    """The outing steps of one event log (:attr:`EventStore.outings
    <companion.store.log.EventStore.outings>`), given the log's write connection and its
    lock (a step is committed with ``synchronous=FULL`` like every write), its reads and
    its clock."""

    def __init__(self, conn: sqlite3.Connection, wlock: threading.RLock,
                 read: Callable[[str, Sequence[Any]], list[Any]], clock: Callable[[], float]) -> None:
        self._conn = conn
        self._wlock = wlock
        self._read = read
        self._clock = clock

    # -- events --------------------------------------------------------------------------

    def append(self, outing_id: str, steps: Sequence[tuple[str, dict[str, Any]]],
               client_id: str | None = None, *, at: float | None = None) -> list[OutingEvent]:
        """Append the steps ``(type, payload)`` of one outing in one transaction (the
        client id goes with the first); all are committed or none. A client id this
        outing already used raises :class:`OutingClientReused` and writes nothing."""
        now = float(self._clock()) if at is None else float(at)
        out: list[OutingEvent] = []
        with self._wlock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                for i, (etype, payload) in enumerate(steps):
                    cid = client_id if i == 0 else None
                    cur = conn.execute("INSERT INTO outing_events(outing_id, type, payload, client_id, time) "
                                       "VALUES (?, ?, ?, ?, ?)", (outing_id, etype, dumps(payload), cid, now))
                    out.append(OutingEvent(int(cur.lastrowid or 0), outing_id, etype, payload, cid, now))
                conn.execute("COMMIT")
            except BaseException as exc:
                roll_back(conn)
                if isinstance(exc, sqlite3.IntegrityError):
                    raise OutingClientReused(str(client_id)) from None
                if isinstance(exc, (sqlite3.Error, OSError)):
                    raise storage_error(exc) from None
                raise
        return out

    def events(self, outing_id: str | None = None) -> list[OutingEvent]:
        """The steps of one outing (or of every outing) in the order they were written;
        a row whose payload cannot be read is left out."""
        sql = ("SELECT seq, CAST(outing_id AS BLOB), CAST(type AS BLOB), CAST(payload AS BLOB), "
               "CAST(client_id AS BLOB), time FROM outing_events")
        args: tuple[Any, ...] = ()
        if outing_id is not None:
            sql += " WHERE outing_id = ?"
            args = (outing_id,)
        out = []
        for seq, oid, etype, raw, cid, t in self._read(sql + " ORDER BY seq", args):
            try:
                payload = json.loads(bytes(raw).decode("utf-8"))
                names = (bytes(oid).decode("utf-8"), bytes(etype).decode("utf-8"),
                         None if cid is None else bytes(cid).decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                continue
            if isinstance(payload, dict):
                out.append(OutingEvent(int(seq), names[0], names[1], payload, names[2], float(t)))
        return out

    def ids(self) -> list[str]:
        """Every outing with events, in the order they were created."""
        return [str(r[0]) for r in self._read("SELECT outing_id, MIN(seq) AS first FROM outing_events "
                                               "GROUP BY outing_id ORDER BY first", ())]

    def find_client(self, outing_id: str, client_id: str) -> OutingEvent | None:
        """The step this client id wrote in this outing, if any."""
        hits = [e for e in self.events(outing_id) if e.client_id == client_id]
        return hits[0] if hits else None

    # -- the first version's rows --------------------------------------------------------

    def legacy(self) -> list[tuple[str, float, dict[str, Any]]]:
        """(id, created, body) of each row of the first version's ``outings`` table that
        has no events yet, oldest first (a row whose body cannot be read is left out)."""
        rows = self._read("SELECT id, created, CAST(body AS BLOB) FROM outings WHERE id NOT IN "
                          "(SELECT DISTINCT outing_id FROM outing_events) ORDER BY created, id", ())
        out = []
        for oid, created, raw in rows:
            try:
                body = json.loads(bytes(raw).decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                continue
            if isinstance(body, dict):
                out.append((str(oid), float(created), body))
        return out
