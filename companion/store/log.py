"""The event log itself: :class:`EventStore` over one SQLite file (it holds its paired-phone
tokens, :mod:`~companion.store.tokens`, and its outings' steps, :mod:`~companion.store.outings`;
its file permissions are in :mod:`~companion.store.files`, the row-by-row damage scan in
:mod:`~companion.store.damage`)."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from companion.store.acks import AckCounter
from companion.store.commit import CommitQueue, Ticket, roll_back, storage_error
from companion.store.files import private_file
from companion.store.records import (Checkpoint, DamageReport, GameRow, GameWrite, NewEvent, StoredEvent,
                                     decode_row, dumps)
from companion.store.schema import SCHEMA, SCHEMA_VERSION, migrate
from companion.store.outings import OutingTable
from companion.store.tokens import TokenTable

log = logging.getLogger("companion.store")

_COLS = ("seq, CAST(game_id AS BLOB), CAST(type AS BLOB), CAST(payload AS BLOB), CAST(client_id AS BLOB), "
         "CAST(result AS BLOB), time")
_MAX_SEQ = 2**63 - 1  # the largest SQLite INTEGER
SYNC_COUNT_EVERY = 100  # commits between syncs of the acknowledged-count file


class EventStore:
    """The append-only event log in one SQLite file (thread-safe).

    ``path`` is the database file; its folder must exist. ``clock`` gives event times
    (seconds since the epoch) and exists for tests. ``max_bytes`` caps the file's size
    (SQLite's ``max_page_count``): a write past it is refused as a full disk is.

    It holds the two other tables of its file, which share its connections, lock and
    clock: :attr:`tokens` (the paired phones) and :attr:`outings` (the outings' steps).
    """

    def __init__(self, path: str | os.PathLike[str], *, clock: Any = time.time, max_bytes: int | None = None) -> None:
        self.path = Path(path)
        self._clock = clock
        self.max_bytes = max_bytes
        self._wlock = threading.RLock()
        self._rlock = threading.RLock()
        self.damage: DamageReport | None = None
        self.upgraded_from: Path | None = None
        self.incidents: list[str] = []
        was_size = self.path.stat().st_size if self.path.exists() else None
        # owner-only, and made before any connection: closing a descriptor of the file later
        # would drop this process's SQLite locks on it (POSIX locks belong to the process)
        private_file(self.path)  # SQLite gives its -wal and -shm files the same mode
        self.acks = AckCounter(self.path)
        acked_seq, acked_count = self.acks.read()
        if acked_count > 0 and not was_size:
            what = "is missing" if was_size is None else "is empty (0 bytes)"
            self._incident(f"THE EVENT LOG {self.path} {what}, but {acked_count} events (up to seq {acked_seq}) "
                           "were acknowledged in it before: those games are not in this log. Look for a backup "
                           "of the data folder; the companion goes on with an empty log.")
        try:
            self._conn = self._open()
            self._check()
        except sqlite3.DatabaseError as exc:
            self._move_aside(str(exc))
            private_file(self.path)
            self._conn = self._open()
        self._rconn = self._connect()
        seq, count = self._db_counts()
        if was_size and self.damage is None and (seq < acked_seq or count < acked_count):
            self._incident(f"THE EVENT LOG {self.path} LOST ACKNOWLEDGED EVENTS: it ends at seq {seq} with "
                           f"{count} events, but {acked_count} events up to seq {acked_seq} were acknowledged "
                           f"({max(acked_count - count, acked_seq - seq)} missing; was its -wal file deleted "
                           "after a crash?). New events are numbered after the lost ones.")
        self._seq = max(seq, acked_seq if acked_count else 0)
        projected = self._read("SELECT value FROM meta WHERE key = 'projected'")
        #: whether the games table matches the events (see :meth:`projected`)
        self._projected = bool(projected) and projected[0][0] == str(seq) and seq > 0
        self._projected_next = self._projected
        self._count = count
        self._commits = 0
        self.acks.write(self._seq, count)
        self.acks.sync()
        self._queue = CommitQueue(self._write_batch, self._seq + 1)
        for text in self._stored_incidents():
            if text not in self.incidents:
                self.incidents.append(text)
        #: the paired phones' tokens
        self.tokens = TokenTable(self._read, self._wexec, self.now)
        #: the outings' steps
        self.outings = OutingTable(self._conn, self._wlock, self._read, self.now)

    # -- opening ---------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA busy_timeout=5000")
        return conn

    def _open(self) -> sqlite3.Connection:
        conn = self._connect()
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            self.upgraded_from = migrate(conn, self.path) or self.upgraded_from
            conn.executescript(SCHEMA)
            conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            if self.max_bytes is not None:
                page = int(conn.execute("PRAGMA page_size").fetchone()[0])
                conn.execute(f"PRAGMA max_page_count = {max(1, int(self.max_bytes) // page)}")
        except sqlite3.DatabaseError:
            conn.close()
            raise
        return conn

    def _check(self) -> None:
        rows = [str(r[0]) for r in self._conn.execute("PRAGMA quick_check").fetchall()]
        if rows != ["ok"]:
            self._conn.close()
            self._move_aside("quick_check: " + "; ".join(rows[:5]), rows)
            private_file(self.path)
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

    def _db_counts(self) -> tuple[int, int]:
        with self._rlock:
            r = self._rconn.execute("SELECT COALESCE(MAX(seq), 0), COUNT(*) FROM events").fetchone()
        return int(r[0]), int(r[1])

    def _incident(self, text: str) -> None:
        log.error("%s", text)
        self.incidents.append(text)
        conn = getattr(self, "_conn", None)
        if conn is not None:
            self._save_incidents()

    def _stored_incidents(self) -> list[str]:
        with self._rlock:
            r = self._rconn.execute("SELECT value FROM meta WHERE key = 'incidents'").fetchone()
        try:
            old = json.loads(r[0]) if r else []
        except ValueError:
            old = []
        if self.incidents:
            self._save_incidents(old)
        return [str(x) for x in old] if isinstance(old, list) else []

    def _save_incidents(self, old: list[Any] | None = None) -> None:
        keep = [str(x) for x in (old or [])] + [t for t in self.incidents if t not in (old or [])]
        try:
            with self._wlock:
                self._conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('incidents', ?)",
                                   (dumps(keep[-20:]),))
        except sqlite3.Error as exc:  # a full disk: it is still reported for this run
            log.warning("could not record the storage report: %s", exc)

    def close(self) -> None:
        with self._wlock, self._rlock:
            for conn in (self._rconn, self._conn):
                try:
                    conn.close()
                except sqlite3.Error as exc:  # e.g. the final checkpoint on a full disk
                    log.warning("closing the event log: %s", exc)
            self.acks.sync()
            self.acks.close()

    # -- writing ---------------------------------------------------------------------

    def now(self) -> float:
        """The store's clock (seconds since the epoch)."""
        return float(self._clock())

    @property
    def generation(self) -> int:
        """Moves on each time a commit fails (see :class:`~companion.store.commit.CommitQueue`)."""
        return self._queue.generation

    def next_seq(self) -> int:
        """The seq the next event written gets."""
        return self._queue.next_seq()

    def submit(self, events: Sequence[NewEvent], *, at: float | None = None, games: Sequence[GameWrite] = (),
               on_commit: Any = None, first_seq: int | None = None, generation: int | None = None) -> Ticket:
        """Queue events for the next group commit; :meth:`wait` for it."""
        now = float(self._clock()) if at is None else float(at)
        return self._queue.submit([(e.game_id, e.type, e.payload, e.client_id, e.result) for e in events], now,
                                  games=games, on_commit=on_commit, first_seq=first_seq, generation=generation)

    def wait(self, ticket: Ticket) -> list[StoredEvent]:
        return self._queue.wait(ticket)

    def append(self, game_id: str, type: str, payload: dict[str, Any], *, client_id: str | None = None,
               result: Any = None, at: float | None = None) -> StoredEvent:
        """Append one event and commit it; returns the stored row (``at``: its time,
        default now). A client id already used in this game raises :class:`StoreError`."""
        return self.append_many([NewEvent(game_id, type, payload, client_id, result)], at=at)[0]

    def append_many(self, events: Sequence[NewEvent], *, at: float | None = None) -> list[StoredEvent]:
        """Append several events in one transaction: all are committed or none."""
        return self.wait(self.submit(events, at=at))

    def _write_batch(self, batch: list[Ticket]) -> None:
        with self._wlock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                for t in batch:
                    conn.executemany(
                        "INSERT INTO events(seq, game_id, type, payload, client_id, result, time) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)",
                        [(e.seq, e.game_id, e.type, dumps(e.payload), e.client_id,
                          None if e.result is None else dumps(e.result), e.time) for e in t.events])
                    for gw in t.games:
                        conn.execute("INSERT OR REPLACE INTO games(id, created_seq, last_seq, version, finished, "
                                     "deleted, summary) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                     (gw.game_id, gw.created_seq, gw.last_seq, gw.version, int(gw.finished),
                                      int(gw.deleted), dumps(gw.summary)))
                        cp = gw.checkpoint
                        if cp is not None:
                            conn.execute("INSERT OR REPLACE INTO checkpoints(game_id, seq, version, state) "
                                         "VALUES (?, ?, ?, ?)", (cp.game_id, cp.seq, cp.version, dumps(cp.state)))
                # the games table is up to date with the events as long as every event came
                # with its game's line; one that did not (a tool writing events alone) marks
                # it stale, and the next start-up checks every game against its events
                events = [e for t in batch for e in t.events]
                if events:
                    lines = {gw.game_id for t in batch for gw in t.games}
                    covered = self._projected and all(e.game_id in lines for e in events)
                    if covered or self._projected:
                        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('projected', ?)",
                                     (str(events[-1].seq) if covered else "0",))
                    self._projected_next = covered
                conn.execute("COMMIT")
            except BaseException as exc:
                roll_back(conn)
                if isinstance(exc, (sqlite3.Error, OSError)):
                    raise storage_error(exc) from None
                raise
            if any(t.events for t in batch):
                self._projected = self._projected_next
            n = sum(len(t.events) for t in batch)
            last = max((t.events[-1].seq for t in batch if t.events), default=self._seq)
            self._seq = max(self._seq, last)
            self._count += n
            self.acks.write(self._seq, self._count)
            self._commits += 1
            if self._commits % SYNC_COUNT_EVERY == 0:
                self.acks.sync()

    def write_games(self, games: Sequence[GameWrite]) -> None:
        """Rewrite derived lines and checkpoints (after a rebuild at start-up); best effort."""
        if not games:
            return
        try:
            self.wait(self._queue.submit([], self.now(), games=games))
        except Exception as exc:  # derived data: the fold stays the truth
            log.warning("could not store game summaries: %s", exc)

    # -- reading -----------------------------------------------------------------------

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        with self._rlock:
            return self._rconn.execute(sql, args).fetchall()

    def find_client(self, game_id: str, client_id: str) -> StoredEvent | None:
        """The first event this client id wrote in this game, if any."""
        rows = self._read(f"SELECT {_COLS} FROM events WHERE game_id = ? AND client_id = ? ORDER BY seq LIMIT 1",
                          (game_id, client_id))
        return decode_row(rows[0]) if rows else None

    def events(self, game_id: str | None = None, after: int = 0, limit: int | None = None,
               upto: int | None = None) -> list[StoredEvent]:
        """Events with ``after < seq (<= upto)`` in order, for one game or all of them.

        ``after`` beyond SQLite's 64-bit range is clamped (no event lies past it), so
        ``?after=<huge>`` reads nothing instead of failing."""
        sql = f"SELECT {_COLS} FROM events WHERE seq > ?"
        args: list[Any] = [max(-1, min(int(after), _MAX_SEQ))]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(max(-1, min(int(upto), _MAX_SEQ)))
        if game_id is not None:
            sql += " AND game_id = ?"
            args.append(game_id)
        sql += " ORDER BY seq"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        return [decode_row(r) for r in self._read(sql, args)]

    def iter_events(self, batch: int = 2000) -> Iterator[StoredEvent]:
        """Every event in order, read in batches."""
        after = 0
        while True:
            chunk = self.events(after=after, limit=batch)
            if not chunk:
                return
            yield from chunk
            after = chunk[-1].seq

    def last_seq(self) -> int:
        """The seq of the last committed event (after a lost WAL: of the last acknowledged one)."""
        return self._seq

    def count(self) -> int:
        return int(self._read("SELECT COUNT(*) FROM events")[0][0])

    def projected(self) -> bool:
        """Whether the ``games`` table was written with every event since the last
        :meth:`mark_projected` and still adds up (its versions sum to the number of events,
        its last seqs reach the last event): then start-up need not check each game."""
        if not self._projected:
            return False
        (versions, top), = self._read("SELECT COALESCE(SUM(version), 0), COALESCE(MAX(last_seq), 0) FROM games")
        (count, last), = self._read("SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM events")
        return bool(versions == count and top == last)

    def mark_projected(self) -> None:
        """Say the ``games`` table now matches every event (after a start-up rebuilt it)."""
        with self._wlock:
            try:
                top = self._conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]
                self._conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('projected', ?)", (str(top),))
                self._projected = self._projected_next = True
            except sqlite3.Error as exc:
                log.warning("could not record the games table as current: %s", exc)

    def game_heads(self) -> dict[str, tuple[int, int]]:
        """Every game id in the log with (its last seq, its number of events)."""
        return {str(g): (int(m), int(n)) for g, m, n in
                self._read("SELECT game_id, MAX(seq), COUNT(*) FROM events GROUP BY game_id")}

    def game_rows(self, game_id: str | None = None, with_summary: bool = True) -> list[GameRow]:
        """The lines of the ``games`` table (of one game), in the order the games were
        created; ``with_summary=False`` leaves each ``raw`` empty (fetch it later)."""
        col = "CAST(summary AS BLOB)" if with_summary else "NULL"
        sql = f"SELECT id, created_seq, last_seq, version, finished, deleted, {col} FROM games"
        args: tuple[Any, ...] = ()
        if game_id is not None:
            sql += " WHERE id = ?"
            args = (game_id,)
        return [GameRow(str(gid), int(cseq), int(lseq), int(ver), bool(fin), bool(dele), bytes(raw or b""))
                for gid, cseq, lseq, ver, fin, dele, raw in self._read(sql + " ORDER BY created_seq", args)]

    def summaries(self, game_ids: Sequence[str] | None = None) -> dict[str, bytes]:
        """Stored summary lines (JSON bytes) by game id, of every game or of those named."""
        if game_ids is not None and len(game_ids) <= 200:
            marks = ",".join("?" * len(game_ids))
            rows = self._read(f"SELECT id, CAST(summary AS BLOB) FROM games WHERE id IN ({marks})", list(game_ids))
        else:
            rows = self._read("SELECT id, CAST(summary AS BLOB) FROM games")
        return {str(gid): bytes(raw) for gid, raw in rows}

    def checkpoint(self, game_id: str) -> Checkpoint | None:
        rows = self._read("SELECT seq, version, CAST(state AS BLOB) FROM checkpoints WHERE game_id = ?", (game_id,))
        if not rows:
            return None
        try:
            state = json.loads(bytes(rows[0][2]).decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return None
        return Checkpoint(game_id, int(rows[0][0]), int(rows[0][1]), state) if isinstance(state, dict) else None

    def health(self) -> dict[str, Any]:
        """What the health endpoint shows about the log."""
        acked_seq, acked_count = self.acks.read()
        return {"path": str(self.path), "events": self._count, "last_seq": self._seq,
                "acknowledged": acked_count, "incidents": list(self.incidents),
                "damaged_file": None if self.damage is None else str(self.damage.moved_to),
                "upgraded_from": None if self.upgraded_from is None else str(self.upgraded_from),
                "last_error": None if self._queue.last_error is None else str(self._queue.last_error),
                "commits": self._queue.commits,
                "writes_per_commit": round(self._queue.batched / max(1, self._queue.commits), 2),
                "ms_per_commit": round(1000 * self._queue.commit_seconds / max(1, self._queue.commits), 2)}

    # -- what the token table and the damage scan use -------------------------------

    def _wexec(self, sql: str, args: Sequence[Any]) -> sqlite3.Cursor:
        with self._wlock:
            try:
                return self._conn.execute(sql, args)
            except (sqlite3.OperationalError, OSError) as exc:
                raise storage_error(exc) from None
