"""The messages of remote play: topics, signatures, invite codes, limits and errors.

Pure helpers shared by every part of :mod:`companion.mqtt.remote` (no I/O here). Topics
(``P`` = ``gingo/v1/g/<game id>``; ``<board>`` is a board id):

- ``P/cmd/<board>``: the guest's requests to the host (join, propose, sync, report, view);
- ``P/to/<board>``: the host's answers to that board only (verdicts, events, seat views);
- ``P/ev``: each event the host commits, with its version and the board after it;
- ``P/state``: the host's retained snapshot (version, board, links, finished);
- ``gingo/v1/b/<board>/presence``: ``online``, and the Will ``offline`` (retained).

Every message of a game carries ``sig`` (:func:`sign`), made with the invite's secret.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import math
import time
from dataclasses import dataclass
from typing import Any

from companion.errors import BackendError, Conflict, InvalidInput
from companion.mqtt.settings import ID_PATTERN

#: bytes: a remote message longer than this is dropped
MAX_MESSAGE = 64 * 1024
#: messages from one board about one game per :data:`RATE_WINDOW` seconds before more are dropped
RATE_LIMIT = 100
#: messages from the host about one game per :data:`RATE_WINDOW` seconds, on the guest
HOST_RATE_LIMIT = 1000
RATE_WINDOW = 10.0
#: refusals the host sends one board about one game per :data:`RATE_WINDOW` seconds: a
#: request over the limit is answered ``rate_limited`` (429) at most this many times, then
#: dropped unanswered, so a flood cannot make the host publish without bound
REFUSALS = 5
#: seconds a guest waits for the host's verdict before answering 503
VERDICT_TIMEOUT = 5.0
INVITE_PREFIX = "gingo1-"
#: the first two levels of every topic of ours (``gingo/v1/...``)
TOPIC_ROOT = ("gingo", "v1")
GAME_ID_LENGTH = 33  # "r" and 32 hex digits: 128 random bits


class RemoteUnreachable(BackendError):
    """The broker or the host board cannot be reached: nothing was written (503)."""

    code = "remote_unreachable"


class RemoteRefused(Conflict):
    """A remote request this board or the host refuses (409; the code says why)."""

    code = "remote_refused"


@dataclass
class RemoteGame:
    """What a board remembers of one remote game (``remote.json`` in the data folder).
    ``dealt``: the host deals (it alone holds the hands; the guest keeps no log of it)."""

    id: str
    role: str  # "host" or "guest"
    secret: str
    host: str
    guest: str | None = None
    dealt: bool = False


def prefix(game_id: str) -> str:
    return f"gingo/v1/g/{game_id}"


def presence_topic(board_id: str) -> str:
    return f"gingo/v1/b/{board_id}/presence"


def sign(secret: str, topic: str, body: dict[str, Any]) -> str:
    """The ``sig`` of a message: HMAC-SHA256 under the game's invite secret of its topic
    (which names the sender) and its JSON without ``sig``. Only the two boards know the
    secret (the invite goes from player to player, never over the broker), so neither the
    broker's operator nor another board can forge or redirect a message.

    >>> s = sign("00" * 16, "gingo/v1/g/r1/cmd/b", {"kind": "sync", "after": 3})
    >>> s == sign("00" * 16, "gingo/v1/g/r1/cmd/b", {"after": 3, "kind": "sync", "sig": s}), len(s)
    (True, 64)
    >>> s == sign("00" * 16, "gingo/v1/g/r1/cmd/c", {"kind": "sync", "after": 3})
    False
    """
    rest = {k: v for k, v in body.items() if k != "sig"}
    text = topic + "\n" + json.dumps(rest, sort_keys=True, separators=(",", ":"))
    return hmac.new(bytes.fromhex(secret), text.encode(), hashlib.sha256).hexdigest()


def sealed(secret: str, topic: str, body: dict[str, Any]) -> bytes:
    """``body`` with its ``sig``, as the bytes to publish on ``topic``."""
    return json.dumps({**body, "sig": sign(secret, topic, body)}).encode()


def genuine(secret: str, topic: str, body: dict[str, Any]) -> bool:
    sig = body.get("sig")
    return isinstance(sig, str) and hmac.compare_digest(sig, sign(secret, topic, body))


def make_invite(game_id: str, secret: str, host: str) -> str:
    """The invite code: the game's 128-bit id, the secret that is the right to join it, and
    the host board's id (URL-safe text, about 130 characters).

    >>> code = make_invite("r" + "1" * 32, "ab" * 16, "gingo_host")
    >>> read_invite(code) == ("r" + "1" * 32, "ab" * 16, "gingo_host")
    True
    >>> read_invite("gingo1-not base64!")
    Traceback (most recent call last):
    ...
    companion.errors.InvalidInput: not an invite code (it starts with gingo1- and is copied whole from the host's page)
    """
    raw = json.dumps({"g": game_id, "k": secret, "h": host}, separators=(",", ":")).encode()
    return INVITE_PREFIX + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def read_invite(code: Any) -> tuple[str, str, str]:
    bad = InvalidInput("not an invite code (it starts with gingo1- and is copied whole from the host's page)",
                       code="invalid_invite")
    if not isinstance(code, str) or not code.startswith(INVITE_PREFIX) or len(code) > 400:
        raise bad
    body = code[len(INVITE_PREFIX):].strip()
    try:
        data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except (ValueError, binascii.Error):
        raise bad from None
    if not isinstance(data, dict):
        raise bad
    gid, secret, host = data.get("g"), data.get("k"), data.get("h")
    if not (game_id_ok(gid) and isinstance(secret, str) and len(secret) == 32 and _hex(secret)
            and isinstance(host, str) and ID_PATTERN.match(host)):
        raise bad
    return gid, secret, host  # type: ignore[return-value]


def _hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def game_id_ok(gid: Any) -> bool:
    return isinstance(gid, str) and len(gid) == GAME_ID_LENGTH and gid[0] == "r" and _hex(gid[1:])


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    """An answer's body in the API's error shape.

    >>> error_body("seat_taken", "another board has joined")["error"]["code"]
    'seat_taken'
    """
    return {"error": {"code": code, "message": message, "details": details or {}}}


class Rates:
    """A sliding-window count of messages per sender and bucket.

    >>> r = Rates()
    >>> [r.ok("g/b/request", 2) for _ in range(3)]
    [True, True, False]
    >>> 9 <= r.wait("g/b/request", 2) <= 10, r.wait("g/b/other", 2)
    (True, 0)
    """

    def __init__(self) -> None:
        self._seen: dict[str, list[float]] = {}

    def ok(self, who: str, limit: int = RATE_LIMIT) -> bool:
        now = time.monotonic()
        recent = [t for t in self._seen.get(who, []) if now - t < RATE_WINDOW]
        self._seen[who] = recent
        if len(recent) >= limit:
            return False
        recent.append(now)
        return True

    def wait(self, who: str, limit: int = RATE_LIMIT) -> int:
        """Whole seconds until ``who`` may send again (0: now)."""
        now = time.monotonic()
        recent = [t for t in self._seen.get(who, []) if now - t < RATE_WINDOW]
        if len(recent) < limit:
            return 0
        return max(1, math.ceil(recent[-limit] + RATE_WINDOW - now))


__all__ = ["REFUSALS", "TOPIC_ROOT", "RemoteGame", "RemoteRefused", "RemoteUnreachable", "Rates", "error_body",
           "genuine", "make_invite", "prefix", "presence_topic", "read_invite", "sealed", "sign"]
