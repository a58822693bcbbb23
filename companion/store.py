"""The durable event log: one SQLite file, append-only, acknowledged only after commit.

Every command the table accepts becomes one row in ``events`` (a global sequence
number, the game it belongs to, a type, a JSON payload, the client id that sent it,
the JSON result the client was given, and the time). A client id is unique per game:
a retried write finds the first row and gets its stored result back, and nothing is
added. The file runs in WAL mode with ``synchronous=FULL``, so a row that
:meth:`EventStore.append` returned survives a power cut or a ``SIGKILL``.

Opening runs ``PRAGMA quick_check``. A damaged file is never silently replaced: it is
renamed aside with a time stamp (``events.sqlite3.damaged-20260101T120000``) and the
store starts empty, with :attr:`EventStore.damage` saying what happened so the service
can say so loudly.

Paired phone tokens live in the same file (``tokens``, sha256 hashes only).

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

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import StorageBusy, StorageError

FILENAME = "events.sqlite3"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    client_id TEXT,
    result TEXT,
    time REAL NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS events_client ON events(game_id, client_id);
CREATE INDEX IF NOT EXISTS events_game ON events(game_id, seq);
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    created REAL NOT NULL,
    last_used REAL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class StoreError(StorageError):
    """The event log refused a write (for example a client id reused in one batch)."""


@dataclass(frozen=True)
class StoredEvent:
    """One committed row of the log."""

    seq: int
    game_id: str
    type: str
    payload: dict[str, Any]
    client_id: str | None
    time: float
    result: Any = None

    def as_dict(self) -> dict[str, Any]:
        """The event as the API and the live channel show it (without the result)."""
        return {
            "seq": self.seq,
            "game_id": self.game_id,
            "type": self.type,
            "payload": self.payload,
            "client_id": self.client_id,
            "time": self.time,
        }


@dataclass(frozen=True)
class NewEvent:
    """An event to append (see :meth:`EventStore.append_many`)."""

    game_id: str
    type: str
    payload: dict[str, Any]
    client_id: str | None = None
    result: Any = None


@dataclass(frozen=True)
class TokenRecord:
    """A paired phone: the token itself is never stored, only its sha256."""

    id: str
    name: str
    created: float
    last_used: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "created": self.created, "last_used": self.last_used}


@dataclass
class DamageReport:
    """What :class:`EventStore` found wrong with the file it was asked to open."""

    path: Path
    moved_to: Path
    reason: str
    lines: list[str] = field(default_factory=list)

    def message(self) -> str:
        return (
            f"THE EVENT LOG {self.path} IS DAMAGED ({self.reason}). It was moved aside to "
            f"{self.moved_to} and NOT deleted; the companion starts with an empty log. "
            "Keep the damaged file if you want to recover games from it."
        )


def _row(r: sqlite3.Row | tuple[Any, ...]) -> StoredEvent:
    seq, game_id, typ, payload, client_id, result, t = r
    return StoredEvent(
        seq=int(seq),
        game_id=str(game_id),
        type=str(typ),
        payload=json.loads(payload),
        client_id=client_id,
        time=float(t),
        result=None if result is None else json.loads(result),
    )


_COLS = "seq, game_id, type, payload, client_id, result, time"
_MAX_SEQ = 2**63 - 1  # the largest SQLite INTEGER


class EventStore:
    """The append-only event log in one SQLite file (thread-safe).

    ``path`` is the database file; its folder must exist. ``clock`` gives event times
    (seconds since the epoch) and exists for tests.
    """

    def __init__(self, path: str | os.PathLike[str], *, clock: Any = time.time) -> None:
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.RLock()
        self.damage: DamageReport | None = None
        try:
            self._conn = self._open()
            self._check()
        except sqlite3.DatabaseError as exc:
            self._move_aside(str(exc))
            self._conn = self._open()

    # -- opening ---------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        _private_file(self.path)  # SQLite gives its -wal and -shm files the same mode
        conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA busy_timeout=5000")
            conn.executescript(_SCHEMA)
            conn.execute(
                "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
            )
        except sqlite3.DatabaseError:
            conn.close()
            raise
        return conn

    def _check(self) -> None:
        rows = [str(r[0]) for r in self._conn.execute("PRAGMA quick_check").fetchall()]
        if rows != ["ok"]:
            self._conn.close()
            self._move_aside("quick_check: " + "; ".join(rows[:5]), rows)
            self._conn = self._open()

    def _move_aside(self, reason: str, lines: list[str] | None = None) -> None:
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
        target = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{n}")
        os.replace(self.path, target)
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                os.replace(side, target.with_name(target.name + suffix))
        self.damage = DamageReport(self.path, target, reason, lines or [])

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- events ----------------------------------------------------------------------

    def now(self) -> float:
        """The store's clock (seconds since the epoch)."""
        return float(self._clock())

    def find_client(self, game_id: str, client_id: str) -> StoredEvent | None:
        """The first event this client id wrote in this game, if any."""
        with self._lock:
            r = self._conn.execute(
                f"SELECT {_COLS} FROM events WHERE game_id = ? AND client_id = ? ORDER BY seq LIMIT 1",
                (game_id, client_id),
            ).fetchone()
        return None if r is None else _row(r)

    def append(
        self,
        game_id: str,
        type: str,
        payload: dict[str, Any],
        *,
        client_id: str | None = None,
        result: Any = None,
        at: float | None = None,
    ) -> StoredEvent:
        """Append one event and commit it; returns the stored row (``at``: its time,
        default now).

        A client id already used in this game raises :class:`StoreError` (callers check
        :meth:`find_client` first, under their own lock).
        """
        return self.append_many([NewEvent(game_id, type, payload, client_id, result)], at=at)[0]

    def append_many(self, events: Sequence[NewEvent], *, at: float | None = None) -> list[StoredEvent]:
        """Append several events in one transaction: all are committed or none."""
        out: list[StoredEvent] = []
        with self._lock:
            now = float(self._clock()) if at is None else float(at)
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                for ev in events:
                    payload = json.dumps(ev.payload, separators=(",", ":"))
                    result = None if ev.result is None else json.dumps(ev.result, separators=(",", ":"))
                    cur = self._conn.execute(
                        "INSERT INTO events(game_id, type, payload, client_id, result, time) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (ev.game_id, ev.type, payload, ev.client_id, result, now),
                    )
                    seq = int(cur.lastrowid or 0)
                    out.append(StoredEvent(seq, ev.game_id, ev.type, ev.payload, ev.client_id, now, ev.result))
                self._conn.execute("COMMIT")
            except sqlite3.IntegrityError as exc:
                self._conn.execute("ROLLBACK")
                raise StoreError(f"client_id already used in this game: {exc}") from None
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise
        return out

    def events(self, game_id: str | None = None, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events with ``seq > after`` in order, for one game or all of them.

        ``after`` beyond SQLite's 64-bit range is clamped (no event lies past it), so
        ``?after=<huge>`` reads nothing instead of failing."""
        sql = f"SELECT {_COLS} FROM events WHERE seq > ?"
        args: list[Any] = [max(-1, min(int(after), _MAX_SEQ))]
        if game_id is not None:
            sql += " AND game_id = ?"
            args.append(game_id)
        sql += " ORDER BY seq"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        with self._lock:
            rows = self._conn.execute(sql, args).fetchall()
        return [_row(r) for r in rows]

    def iter_events(self, batch: int = 2000) -> Iterator[StoredEvent]:
        """Every event in order, read in batches (start-up replay)."""
        after = 0
        while True:
            chunk = self.events(after=after, limit=batch)
            if not chunk:
                return
            yield from chunk
            after = chunk[-1].seq

    def last_seq(self) -> int:
        with self._lock:
            r = self._conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
        return int(r[0])

    def count(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])

    # -- tokens ----------------------------------------------------------------------

    def add_token(self, token_hash: str, token_id: str, name: str) -> TokenRecord:
        now = float(self._clock())
        with self._lock:
            self._conn.execute(
                "INSERT INTO tokens(hash, id, name, created) VALUES (?, ?, ?, ?)",
                (token_hash, token_id, name, now),
            )
        return TokenRecord(token_id, name, now)

    def token_by_hash(self, token_hash: str) -> TokenRecord | None:
        with self._lock:
            r = self._conn.execute(
                "SELECT id, name, created, last_used FROM tokens WHERE hash = ?", (token_hash,)
            ).fetchone()
        return None if r is None else TokenRecord(r[0], r[1], r[2], r[3])

    def touch_token(self, token_hash: str, at: float | None = None) -> None:
        when = float(self._clock()) if at is None else float(at)
        with self._lock:
            self._conn.execute("UPDATE tokens SET last_used = ? WHERE hash = ?", (when, token_hash))

    def token_table(self) -> dict[str, TokenRecord]:
        """Every paired token by its hash (the service keeps this in memory)."""
        with self._lock:
            rows = self._conn.execute("SELECT hash, id, name, created, last_used FROM tokens").fetchall()
        return {r[0]: TokenRecord(r[1], r[2], r[3], r[4]) for r in rows}

    def tokens(self) -> list[TokenRecord]:
        with self._lock:
            rows = self._conn.execute("SELECT id, name, created, last_used FROM tokens ORDER BY created").fetchall()
        return [TokenRecord(r[0], r[1], r[2], r[3]) for r in rows]

    def revoke_token(self, token_id: str) -> bool:
        with self._lock:
            cur = self._conn.execute("DELETE FROM tokens WHERE id = ?", (token_id,))
        return cur.rowcount > 0


class StoreBusy(StoreError, StorageBusy):
    """Another process (a second ``gingo serve``) holds the data directory."""


def open_store(data: str | os.PathLike[str] | Path, *, exclusive: bool = False) -> EventStore:
    """Open (or create) the event log in the data directory ``data``.

    ``exclusive`` takes a lock on the folder for as long as this process lives, so two
    services never write one log (each keeps its own idempotency and versions in memory).
    """
    folder = Path(data)
    if exclusive:
        _lock_folder(folder)
    return EventStore(folder / FILENAME)


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


def _private_file(path: Path) -> None:
    """Create ``path`` readable and writable by its owner only (0600), or take group and
    other permissions off it: it holds the token hashes and every game."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return  # sqlite3.connect says what is wrong
    try:
        st = os.fstat(fd)
        if st.st_uid == os.getuid() and st.st_mode & 0o077:
            os.fchmod(fd, 0o600)
    except OSError:
        pass
    finally:
        os.close(fd)
