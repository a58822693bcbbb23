"""Request bodies the API refuses before any route runs: too large (413) or holding a
lone UTF-16 surrogate escape (400), both in the contract's error form.

>>> _has_lone_surrogate(b'{"name": "\\\\ud800"}'), _has_lone_surrogate(b'{"name": "\\\\ud83d\\\\ude00"}')
(True, False)
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from companion.api.errors import error_response

DEFAULT_MAX_BODY = 1_000_000
#: The largest seq a client may name (``?after=``): the largest whole number every JSON
#: reader keeps exact, far above any real seq.
MAX_SEQ = 2**53 - 1


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with a 413 in the contract's form."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        too_big = error_response(413, "too_large", f"the request body is larger than {self.limit} bytes")
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    if int(value) > self.limit:
                        await too_big(scope, receive, send)
                        return
                except ValueError:
                    pass
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return
            body = msg.get("body", b"")
            size += len(body)
            if size > self.limit:
                await too_big(scope, receive, send)
                return
            chunks.append(body)
            more = bool(msg.get("more_body", False))
        data = b"".join(chunks)
        if _SURROGATE_ESCAPE.search(data) and _has_lone_surrogate(data):
            # "\ud800" alone is valid JSON but not text: stored in a player name it made every
            # later GET /api/v1/games and the live snapshot fail with a 500
            await error_response(400, "malformed_json", "the body holds a lone UTF-16 surrogate escape "
                                 "(like \\ud800), which is not a character: send real text")(scope, receive, send)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": data, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _has_lone_surrogate(data: bytes) -> bool:
    """True when ``data`` is JSON whose strings hold a surrogate that is not half of a pair."""
    try:
        json.dumps(json.loads(data), ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    except (ValueError, RecursionError):
        return False  # not JSON at all: the route says so
    return False


def body_limit(limit: int) -> Any:
    """:class:`BodyLimit` with ``limit`` bound, in the form ``app.add_middleware`` takes."""

    class _Limit(BodyLimit):
        def __init__(self, app: ASGIApp) -> None:
            super().__init__(app, limit)

    return _Limit
