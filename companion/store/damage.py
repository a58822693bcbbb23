"""Rows of the event log that are not UTF-8 JSON, found by reading every row once."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.store.log import EventStore


def _scan_sql() -> str:
    return ("SELECT seq, CAST(game_id AS BLOB), json_valid(payload), CAST(payload AS BLOB), "
            "CASE WHEN result IS NULL THEN 1 ELSE json_valid(result) END, CAST(result AS BLOB) "
            "FROM events WHERE seq > ? ORDER BY seq LIMIT 5000")


def scan_damage(store: EventStore) -> dict[str, list[tuple[int, str]]]:
    """Every row whose payload or result is not UTF-8 JSON, by game: ``{game: [(seq, why)]}``.

    ``PRAGMA quick_check`` sees a broken page, not a changed byte inside a row; this
    reads every row once (SQLite checks the JSON, Python the UTF-8)."""
    out: dict[str, list[tuple[int, str]]] = {}
    after = 0
    while True:
        rows = store._read(_scan_sql(), (after,))
        if not rows:
            return out
        for seq, gid, ok_payload, payload, ok_result, result in rows:
            after = int(seq)
            why = None
            if not ok_payload:
                why = "payload is not JSON"
            elif not ok_result:
                why = "result is not JSON"
            else:
                try:
                    bytes(payload).decode("utf-8")
                    if result is not None:
                        bytes(result).decode("utf-8")
                except UnicodeDecodeError:
                    why = "not UTF-8 text"
            if why is not None:
                out.setdefault(bytes(gid).decode("utf-8", "replace"), []).append((int(seq), why))
