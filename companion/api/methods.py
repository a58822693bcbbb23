"""HTTP methods as RFC 9110 and the OpenAPI file say: ``OPTIONS`` answers which methods a
path takes, ``HEAD`` works wherever ``GET`` does, and every 405 lists the path's methods
in ``Allow`` (the router alone listed only the first route it found for the path, and the
phone page's static files answered ``GET, HEAD`` for API paths).

>>> allow_header({"POST", "GET"})
'GET, HEAD, POST, OPTIONS'
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from starlette.routing import Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from companion.api.errors import error_response

_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def allow_header(methods: AbstractSet[str]) -> str:
    """The ``Allow`` value for a path taking ``methods`` (HEAD with GET, OPTIONS always)."""
    every = set(methods) | ({"HEAD"} if "GET" in methods else set())
    return ", ".join([m for m in _ORDER if m in every] + sorted(every - set(_ORDER)) + ["OPTIONS"])


def flat_routes(routes: list[Any]) -> list[Any]:
    """Every route, with the routes of included routers (FastAPI keeps those as one
    entry holding the router) in their place. The API's routers have no prefix."""
    out: list[Any] = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            out.extend(flat_routes(list(inner.routes)))
        else:
            out.append(route)
    return out


def path_methods(routes: list[Any], scope: Scope) -> set[str]:
    """The methods the API routes take on this request's path (empty: no API route); a
    path only the phone page's static files serve takes GET and HEAD. Where a fixed path
    and a template both match (``/tokens/me`` and ``/tokens/{token_id}``), the fixed one
    is the path, as the OpenAPI file says."""
    by_params: dict[int, set[str]] = {}
    static = False
    probe = {**scope, "type": "http"}
    for route in flat_routes(routes):
        if isinstance(route, Mount):
            static = static or route.matches(probe)[0] != Match.NONE
            continue
        methods = getattr(route, "methods", None)
        if methods and route.matches(probe)[0] != Match.NONE:
            by_params.setdefault(str(getattr(route, "path", "")).count("{"), set()).update(methods)
    found = by_params[min(by_params)] if by_params else set()
    if not found and static and not str(scope.get("path", "")).startswith("/api/"):
        found = {"GET", "HEAD"}
    return found


class MethodGuard:
    """ASGI middleware: OPTIONS, HEAD and the ``Allow`` of every 405 (see the module doc).
    ``routes`` is the app's route list (read again when its length changes, so routes
    added later count).

    What a path takes is remembered (the last :data:`CACHE_SIZE` paths): matching the
    path against every route was a visible share of each request's cost on the Pi."""

    CACHE_SIZE = 1024

    def __init__(self, app: ASGIApp, routes: list[Any]) -> None:
        self.app = app
        self.routes = routes
        self._known: dict[str, frozenset[str]] = {}
        self._count = -1

    def methods_for(self, scope: Scope) -> frozenset[str]:
        """:func:`path_methods` of this request's path, remembered."""
        if len(self.routes) != self._count:
            self._known.clear()
            self._count = len(self.routes)
        path = str(scope.get("path", ""))
        found = self._known.get(path)
        if found is None:
            found = frozenset(path_methods(self.routes, scope))
            if len(self._known) >= self.CACHE_SIZE:
                self._known.clear()
            self._known[path] = found
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope.get("method", "GET")
        methods = self.methods_for(scope)
        path = str(scope.get("path", ""))
        if not methods and path.startswith("/api/") and scope.get("method") != "GET":
            # no such API path: 404 whatever the method (the page's static files said 405)
            await error_response(404, "not_found", f"no such path: {path[:200]}")(scope, receive, send)
            return
        if method == "OPTIONS" and methods:
            await send({"type": "http.response.start", "status": 204,
                        "headers": [(b"allow", allow_header(methods).encode())]})
            await send({"type": "http.response.body", "body": b""})
            return
        head = method == "HEAD" and "GET" in methods and "HEAD" not in methods
        if head:
            scope = {**scope, "method": "GET"}
        elif methods and method not in methods:
            # answered here: behind the router the phone page's static files would say 404
            await error_response(405, "method_not_allowed",
                                 f"{method} is not how {scope.get('path', '')} is used: it takes "
                                 f"{allow_header(methods).replace(', OPTIONS', ' or OPTIONS')}",
                                 {"Allow": allow_header(methods)})(scope, receive, send)
            return

        async def patched(message: Message) -> None:
            if message["type"] == "http.response.start" and message.get("status") == 405 and methods:
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"allow"]
                headers.append((b"allow", allow_header(methods).encode()))
                message = {**message, "headers": headers}
            elif message["type"] == "http.response.body" and head:
                message = {**message, "body": b"", "more_body": message.get("more_body", False)}
            await send(message)

        await self.app(scope, receive, patched)
