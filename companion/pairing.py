"""Pairing phones and checking who may write.

A phone pairs by sending the pairing code (printed at start-up with a QR code, or set
with ``GINGO_PAIRING_CODE``) and gets a bearer token. Only the sha256 of each token is
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
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading

from companion.store import EventStore, TokenRecord

MAX_NAME = 60


class PairingError(ValueError):
    """A wrong pairing code, host code or token (the API answers 401)."""


def hash_token(token: str) -> str:
    """The stored form of a token.

    >>> len(hash_token("abc"))
    64
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_code(digits: int = 6) -> str:
    """A random numeric code (easy to type on a phone).

    >>> c = new_code(); len(c) == 6 and c.isdigit()
    True
    """
    return "".join(secrets.choice("0123456789") for _ in range(digits))


class Pairing:
    """Pairing code, host code and the paired tokens."""

    def __init__(self, store: EventStore, *, code: str | None = None, host_code: str | None = None) -> None:
        self.store = store
        self.code = code or os.environ.get("GINGO_PAIRING_CODE") or new_code()
        self.host_code = host_code or os.environ.get("GINGO_HOST_CODE") or secrets.token_hex(4)
        self._lock = threading.Lock()
        self._known: dict[str, TokenRecord] = store.token_table()
        self._used: dict[str, float] = {}

    def pair(self, code: str, name: str) -> str:
        """Trade the pairing code for a new token (returned once, stored hashed)."""
        if not isinstance(code, str) or not hmac.compare_digest(code.strip().encode(), self.code.encode()):
            raise PairingError("wrong pairing code: read it from the companion's screen or start-up output")
        clean = (name or "").strip()[:MAX_NAME] or "phone"
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        rec = self.store.add_token(digest, digest[:10], clean)
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
            self.store.touch_token(digest, at)

    def tokens(self) -> list[TokenRecord]:
        """Every paired phone, with when it last wrote."""
        self.flush()
        return self.store.tokens()

    def revoke(self, token_id: str) -> bool:
        """Forget a paired phone; False when no token has that id."""
        gone = self.store.revoke_token(token_id)
        with self._lock:
            for digest, rec in list(self._known.items()):
                if rec.id == token_id:
                    del self._known[digest]
                    self._used.pop(digest, None)
        return gone
