"""What the event log holds and answers: rows, new events, tokens, and its errors."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import errors as E


class StoreError(E.StorageError):
    """The event log refused a write (for example a client id reused in one batch)."""


class StoreBusy(StoreError, E.StorageBusy):
    """Another process (a second ``gingo serve``) holds the data directory."""

    code = "storage_busy"


class StoreFull(StoreError, E.StorageFull):
    """The disk (or the log's size cap) is full: nothing of the write was kept (507)."""

    code = "storage_full"


class StorageFailed(StoreError):
    """The disk refused a write for another reason (read-only, I/O error): nothing was kept."""

    code = "storage_failed"


#: the payload key no public rendering of an event shows (a dealt game's match key)
SECRET = "secret"


def public_payload(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` as the API, the live channel and exports show it: without its secret part.

    >>> public_payload({"variant": "gin", "secret": {"key": "00"}})
    {'variant': 'gin'}
    """
    if SECRET not in payload:
        return payload
    return {k: v for k, v in payload.items() if k != SECRET}


@dataclass(frozen=True)
class StoredEvent:
    """One committed row of the log. ``damage`` says why a row could not be read
    (its payload is then empty); a game with a damaged row is quarantined."""

    seq: int
    game_id: str
    type: str
    payload: dict[str, Any]
    client_id: str | None
    time: float
    result: Any = None
    damage: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The event as the API and the live channel show it (without the result)."""
        d = {
            "seq": self.seq,
            "game_id": self.game_id,
            "type": self.type,
            "payload": public_payload(self.payload),
            "client_id": self.client_id,
            "time": self.time,
        }
        if self.damage is not None:
            d["damaged"] = self.damage
        return d


@dataclass(frozen=True)
class NewEvent:
    """An event to append (see :meth:`EventStore.append_many`)."""

    game_id: str
    type: str
    payload: dict[str, Any]
    client_id: str | None = None
    result: Any = None


@dataclass(frozen=True)
class GameRow:
    """A game's line in the ``games`` table: what the list shows without folding it.
    ``raw`` is its summary as stored (JSON bytes, decoded only when it is shown)."""

    id: str
    created_seq: int
    last_seq: int
    version: int
    finished: bool
    deleted: bool
    raw: bytes

    def summary(self) -> dict[str, Any] | None:
        """The summary, or None when it cannot be read (the game is folded again)."""
        try:
            out = json.loads(self.raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return None
        return out if isinstance(out, dict) else None


@dataclass(frozen=True)
class Checkpoint:
    """A game's folded state after event ``seq`` (see :mod:`companion.table.checkpoint`)."""

    game_id: str
    seq: int
    version: int
    state: dict[str, Any]


@dataclass(frozen=True)
class GameWrite:
    """What a commit also writes for one game: its list line and maybe a checkpoint."""

    game_id: str
    created_seq: int
    last_seq: int
    version: int
    finished: bool
    deleted: bool
    summary: dict[str, Any]
    checkpoint: Checkpoint | None = None


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


def dumps(value: Any) -> str:
    """JSON as the log stores it (compact)."""
    return json.dumps(value, separators=(",", ":"))


def decode_row(r: tuple[Any, ...]) -> StoredEvent:
    """A row read with its text columns as bytes; a column that is not UTF-8 JSON marks
    the event damaged instead of failing the whole read."""
    seq, game_id, typ, payload, client_id, result, t = r
    damage: list[str] = []

    def text(raw: Any, what: str) -> str | None:
        if raw is None or isinstance(raw, str):
            return raw
        try:
            return bytes(raw).decode("utf-8")
        except UnicodeDecodeError as exc:
            damage.append(f"{what} is not UTF-8 text ({exc.reason} at byte {exc.start})")
            return bytes(raw).decode("utf-8", "replace")

    def parsed(raw: str | None, what: str) -> Any:
        if raw is None or damage:
            return None
        try:
            return json.loads(raw)
        except ValueError as exc:
            damage.append(f"{what} is not JSON ({exc})")
            return None

    gid = text(game_id, "game id") or ""
    kind = text(typ, "type") or ""
    cid = text(client_id, "client id")
    body = parsed(text(payload, "payload"), "payload")
    if not damage and not isinstance(body, dict):
        damage.append("payload is not a JSON object")
    res = parsed(text(result, "result"), "result") if not damage else None
    try:
        when = float(t)
    except (TypeError, ValueError):
        damage.append(f"time is not a number ({t!r})")
        when = 0.0
    return StoredEvent(int(seq), gid, kind, body if isinstance(body, dict) and not damage else {}, cid, when,
                       res, "; ".join(damage) if damage else None)
