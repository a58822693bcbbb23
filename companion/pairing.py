"""Pairing phones and checking who may write.

A phone pairs by sending the pairing code (printed at start-up with a QR code, or set
with ``GINGO_PAIRING_CODE``) and gets a bearer token. A code is good for a window
(:data:`DEFAULT_WINDOW`, 10 minutes, or ``GINGO_PAIRING_WINDOW`` seconds) after it was
made: at start-up, by the host (``POST /api/v1/pair/rotate``), by a paired phone
(``POST /api/v1/pair/code``) or by a long press of the board's confirm button. Each of
those makes a new code; phones already paired keep their tokens. Only the sha256 of each token is
stored (in the event log's ``tokens`` table), so a copy of the data directory does not
hand out access. Deleting games, listing and revoking tokens need the host code
(``GINGO_HOST_CODE``, or generated and printed at start-up).

>>> import tempfile, pathlib
>>> from companion.store import open_store
>>> p = Pairing(open_store(pathlib.Path(tempfile.mkdtemp())), code="123456", host_code="h0st")
>>> token = p.pair("123456", "Ann's phone")
>>> p.check(token).name
"Ann's phone"
>>> p.check("nonsense") is None
True
>>> p.pair("000000", "Eve")
Traceback (most recent call last):
...
companion.pairing.PairingError: wrong pairing code: read it from the companion's screen or start-up output
>>> old = p.code; p.rotate("a test") != old and p.code_status()["valid"]
True
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import os
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.errors import Unauthorized
from companion.store import EventStore, TokenRecord

MAX_NAME = 60
#: How long a pairing code is good for, in seconds (``GINGO_PAIRING_WINDOW`` overrides).
DEFAULT_WINDOW = 600.0
MAX_WINDOW = 7 * 24 * 3600.0

log = logging.getLogger("gingo.pairing")


class PairingError(Unauthorized):
    """A wrong pairing code, host code or token (the API answers 401 with ``code``)."""

    code = "unauthorized"


class CodeExpired(PairingError):
    """The pairing code's window is over: a new code must be shown first."""

    code = "pairing_code_expired"


def pairing_window(value: str | float | None = None) -> float:
    """The code window in seconds: ``value``, else ``GINGO_PAIRING_WINDOW``, else 600.

    >>> pairing_window("90"), pairing_window(None) > 0
    (90.0, True)
    >>> pairing_window("0")
    Traceback (most recent call last):
    ...
    ValueError: GINGO_PAIRING_WINDOW must be a number of seconds from 10 to 604800, got '0'
    """
    raw = value if value is not None else os.environ.get("GINGO_PAIRING_WINDOW")
    if raw is None or raw == "":
        return DEFAULT_WINDOW
    try:
        seconds = float(raw)
    except (TypeError, ValueError):
        seconds = math.nan
    if not 10 <= seconds <= MAX_WINDOW:
        raise ValueError(f"GINGO_PAIRING_WINDOW must be a number of seconds from 10 to {int(MAX_WINDOW)}, "
                         f"got {raw!r}")
    return seconds


def hash_token(token: str) -> str:
    """The stored form of a token.

    >>> len(hash_token("abc"))
    64
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def typed_code(code: object) -> str:
    """A pairing code as typed, without the spaces and dashes a person puts between its
    digits (``"123 456"``, ``"123-456"``); not a string: empty.

    >>> typed_code(" 123 456 "), typed_code("12-34-56"), typed_code(None)
    ('123456', '123456', '')
    """
    if not isinstance(code, str):
        return ""
    return "".join(ch for ch in code if not ch.isspace() and ch not in "-‐‑–")


def new_code(digits: int = 6) -> str:
    """A random numeric code (easy to type on a phone).

    >>> c = new_code(); len(c) == 6 and c.isdigit()
    True
    """
    return "".join(secrets.choice("0123456789") for _ in range(digits))


class Pairing:
    """Pairing code, host code and the paired tokens."""

    def __init__(self, store: EventStore, *, code: str | None = None, host_code: str | None = None,
                 window: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.code = code or os.environ.get("GINGO_PAIRING_CODE") or new_code()
        self.host_code = host_code or os.environ.get("GINGO_HOST_CODE") or secrets.token_hex(4)
        self.window = pairing_window(window)
        self._clock = clock
        self._made = clock()
        self._lock = threading.Lock()
        self._known: dict[str, TokenRecord] = store.tokens.by_hashes()
        self._used: dict[str, float] = {}
        self._listeners: list[Callable[[dict[str, Any]], None]] = []

    # -- the pairing code ----------------------------------------------------------------

    def expires_in(self) -> float:
        """Seconds the current code is still good for (0 once it has expired)."""
        return max(0.0, self._made + self.window - self._clock())

    def code_status(self, *, with_code: bool = True) -> dict[str, Any]:
        """``{"code", "valid", "expires_in", "window"}`` (``code`` None once expired)."""
        left = self.expires_in()
        return {"code": self.code if with_code and left > 0 else None, "valid": left > 0,
                "expires_in": int(math.ceil(left)), "window": int(self.window)}

    def rotate(self, by: str) -> str:
        """Make a new pairing code, good for a whole window; the old one stops working at
        once. ``by`` says who asked (it goes to the log). Returns the new code."""
        with self._lock:
            fresh = new_code()
            while fresh == self.code:
                fresh = new_code()
            self.code = fresh
            self._made = self._clock()
        log.warning("new pairing code %s from %s, good for %d minutes", fresh, by, round(self.window / 60))
        news = {"type": "pairing_code", "by": by, **self.code_status(with_code=False)}
        del news["code"]
        for listener in list(self._listeners):
            try:
                listener(news)
            except Exception:  # a listener never stops the rotation
                log.exception("pairing listener failed")
        return fresh

    def subscribe(self, listener: Callable[[dict[str, Any]], None]) -> None:
        """Call ``listener`` with ``{"type": "pairing_code", "by", "valid", "expires_in",
        "window"}`` (never the code itself) whenever the code changes."""
        self._listeners.append(listener)

    def pair(self, code: str, name: str) -> str:
        """Trade the pairing code for a new token (returned once, stored hashed)."""
        if self.expires_in() <= 0:
            raise CodeExpired(f"the pairing code has expired (a code is good for {round(self.window / 60)} "
                              "minutes): ask a paired phone for a new one (Host, then 'New pairing code'), "
                              "or hold the board's confirm button for about 2 seconds (a long press, "
                              "shorter than the shutdown hold)")
        typed = typed_code(code)
        if len(typed) != len(self.code):
            raise PairingError(f"pairing codes have {len(self.code)} digits, and {len(typed)} were typed: "
                               "read the code again from the companion's screen or start-up output")
        if not hmac.compare_digest(typed.encode(), self.code.encode()):
            raise PairingError("wrong pairing code: read it from the companion's screen or start-up output")
        clean = (name or "").strip()[:MAX_NAME] or "phone"
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        rec = self.store.tokens.add(digest, digest[:10], clean)
        with self._lock:
            self._known[digest] = rec
        return token

    def check(self, token: str | None) -> TokenRecord | None:
        """The paired phone a token belongs to, or None (memory only: never waits on the disk)."""
        if not token:
            return None
        digest = hash_token(token)
        with self._lock:
            rec = self._known.get(digest)
            if rec is not None:
                self._used[digest] = self.store.now()
        return rec

    def is_host(self, code: str | None) -> bool:
        """True when ``code`` is the host code."""
        return bool(code) and hmac.compare_digest(str(code).encode(), self.host_code.encode())

    def flush(self) -> None:
        """Write the "last used" times kept in memory to the store."""
        with self._lock:
            used, self._used = self._used, {}
        for digest, at in used.items():
            self.store.tokens.touch(digest, at)

    def tokens(self) -> list[TokenRecord]:
        """Every paired phone, with when it last wrote."""
        self.flush()
        return self.store.tokens.all()

    def revoke(self, token_id: str) -> bool:
        """Forget a paired phone; False when no token has that id."""
        gone = self.store.tokens.revoke(token_id)
        with self._lock:
            for digest, rec in list(self._known.items()):
                if rec.id == token_id:
                    del self._known[digest]
                    self._used.pop(digest, None)
        return gone
