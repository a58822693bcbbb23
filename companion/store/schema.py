"""The tables of the log file, and the upgrade of a version 1 file in place.

Version 1 stored, with every event, the whole answer its client got, game included (97 %
of the file). Version 2 stores the command and what it changed: the ``result`` column
holds ``{"v": 2, "body": ..., "game_at": seq, "game_key": "game" | null}`` and the game
part of an answer is folded again when a retried client id asks for it. Two tables make
start-up cheap: ``games`` (one line per game: what the list shows) and ``checkpoints``
(a game's folded state every so many events). Both are derived from ``events`` and are
rebuilt from it whenever they disagree with it.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from companion.store.records import dumps

log = logging.getLogger("companion.store")

SCHEMA_VERSION = 2

SCHEMA = """
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
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    version INTEGER NOT NULL,
    finished INTEGER NOT NULL,
    deleted INTEGER NOT NULL,
    summary TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outings (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outing_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    outing_id TEXT NOT NULL,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    client_id TEXT,
    time REAL NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS outing_events_client ON outing_events(outing_id, client_id);
CREATE TABLE IF NOT EXISTS checkpoints (
    game_id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    version INTEGER NOT NULL,
    state TEXT NOT NULL
);
"""


def schema_version(conn: sqlite3.Connection) -> int:
    """The version the file says it has (0: a new, empty file)."""
    has_meta = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone()
    if not has_meta:
        return 0
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    return int(row[0]) if row else 0


def small_result(result: Any) -> Any:
    """A version 1 result (the whole answer) as version 2 keeps it (without the game).

    >>> small_result({"result": {"kind": "gin"}, "game": {"id": "g1", "seq": 7}})
    {'v': 2, 'body': {'result': {'kind': 'gin'}}, 'game_at': 7, 'game_key': 'game'}
    >>> small_result({"id": "g1", "variant": "gin", "seq": 1, "hands": []})
    {'v': 2, 'body': {}, 'game_at': 1, 'game_key': None}
    >>> small_result({"deleted": "g1"})
    {'v': 2, 'body': {'deleted': 'g1'}, 'game_at': None, 'game_key': None}
    """
    if not isinstance(result, dict) or result.get("v") == 2:
        return result
    game = result.get("game")
    if isinstance(game, dict) and isinstance(game.get("seq"), int):
        body = {k: v for k, v in result.items() if k != "game"}
        return {"v": 2, "body": body, "game_at": game["seq"], "game_key": "game"}
    if "variant" in result and "id" in result and isinstance(result.get("seq"), int):
        return {"v": 2, "body": {}, "game_at": result["seq"], "game_key": None}
    return {"v": 2, "body": result, "game_at": None, "game_key": None}


def backup_path(path: Path, version: int) -> Path:
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    target = path.with_name(f"{path.name}.v{version}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.v{version}-{stamp}-{n}")
    return target


def migrate(conn: sqlite3.Connection, path: Path) -> Path | None:
    """Bring the file up to :data:`SCHEMA_VERSION`; returns where the copy of the old
    file went (None: nothing to do). The copy is made first, with SQLite's backup (the
    WAL included); the upgrade is one transaction, then the file is compacted."""
    version = schema_version(conn)
    has_events = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").fetchone()
    if version >= SCHEMA_VERSION or (version == 0 and not has_events):
        return None
    if version != 1 and not (version == 0 and has_events):
        raise sqlite3.DatabaseError(f"unknown schema version {version}")
    copy = backup_path(path, 1)
    os.close(os.open(copy, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))  # owner-only, as the log itself
    dest = sqlite3.connect(copy)
    try:
        conn.backup(dest)
    finally:
        dest.close()
    log.warning("upgrading the event log %s to version %d (the old file is kept as %s)", path,
                SCHEMA_VERSION, copy)
    conn.execute("BEGIN IMMEDIATE")
    try:
        for stmt in SCHEMA.split(";"):
            if stmt.strip():
                conn.execute(stmt)
        after = 0
        while True:
            rows = conn.execute("SELECT seq, CAST(result AS BLOB), CAST(payload AS BLOB) FROM events "
                                "WHERE seq > ? AND result IS NOT NULL ORDER BY seq LIMIT 500", (after,)).fetchall()
            if not rows:
                break
            for seq, raw, raw_payload in rows:
                after = int(seq)
                try:
                    old = json.loads(bytes(raw).decode("utf-8"))
                    payload = json.loads(bytes(raw_payload).decode("utf-8"))
                except (UnicodeDecodeError, ValueError):
                    continue  # a damaged row stays as it is: its game is quarantined when read
                new = small_result(old)
                if isinstance(payload, dict) and isinstance(new, dict) and isinstance(new.get("body"), dict):
                    same = [k for k, v in new["body"].items() if k in payload and payload[k] == v]
                    if same:
                        new["body"] = {k: v for k, v in new["body"].items() if k not in same}
                        new["from_payload"] = same
                conn.execute("UPDATE events SET result = ? WHERE seq = ?", (dumps(new), seq))
        conn.execute("DELETE FROM games")
        conn.execute("DELETE FROM checkpoints")
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("VACUUM")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return copy
