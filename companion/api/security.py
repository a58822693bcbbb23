"""Web hardening for a service on the home network: Host allow-list, WebSocket origins,
and the headers that protect the page holding a phone's token.

* **Host allow-list (DNS rebinding).** A web page a phone visits can point its own name at
  the companion's address; the browser then sends ``Host: <that name>``. Only the
  companion's own names (``gingo.local``, this machine's hostname, ``localhost``, any name
  passed to :class:`WebGuard`) and IP literals are answered; anything else gets
  ``421 misdirected_request``.
* **WebSocket origins.** A browser always sends ``Origin`` on a WebSocket handshake; the
  live channel is refused (403 ``forbidden_origin``) unless it is the page's own origin
  (the same host and port as the request). Clients that send no ``Origin`` (scripts) are
  not browsers and are let in.
* **Headers.** Every HTTP answer carries a Content-Security-Policy with no inline script,
  ``frame-ancestors 'none'``, ``X-Content-Type-Options: nosniff``, ``Referrer-Policy`` and
  ``X-Frame-Options``.

>>> host_allowed("192.168.1.20:8000", frozenset()), host_allowed("[fe80::1]:8000", frozenset())
(True, True)
>>> host_allowed("gingo.local:8000", default_names()), host_allowed("evil.example:8000", default_names())
(True, False)
>>> same_origin("http://gingo.local:8000", "gingo.local:8000"), same_origin("http://evil.example", "gingo.local")
(True, False)
"""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The name the companion advertises over mDNS (see companion.discovery).
MDNS_NAME = "gingo.local"


def default_names() -> frozenset[str]:
    """The names the companion answers to: ``localhost``, ``gingo.local`` and this
    machine's hostname (bare, ``.local`` and fully qualified)."""
    names = {"localhost", MDNS_NAME}
    try:
        host = socket.gethostname().strip().lower().rstrip(".")
    except OSError:
        host = ""
    if host:
        short = host.split(".")[0]
        names |= {host, short, f"{short}.local"}
        try:
            names.add(socket.getfqdn(host).lower().rstrip("."))
        except OSError:
            pass
    return frozenset(n for n in names if n)


def split_host(value: str) -> tuple[str, int | None] | None:
    """``(name, port)`` of a Host header value (lower case, no trailing dot), or None
    when it is not a host at all.

    >>> split_host("GinGo.Local.:8000"), split_host("[::1]:80"), split_host("a b")
    (('gingo.local', 8000), ('::1', 80), None)
    """
    text = value.strip().lower()
    if not text or any(c.isspace() or c in "/\\@?#" for c in text):
        return None
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            return None
        name, rest = text[1:end], text[end + 1:]
        if rest and not rest.startswith(":"):
            return None
        port_text = rest[1:] if rest else ""
    else:
        name, _, port_text = text.partition(":")
        if ":" in port_text:
            return None
    port: int | None = None
    if port_text:
        if not (port_text.isascii() and port_text.isdigit() and len(port_text) <= 5):
            return None
        port = int(port_text)
    name = name.rstrip(".")
    return (name, port) if name else None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.split("%")[0])
    except ValueError:
        return False
    return True


def host_allowed(value: str | None, names: frozenset[str]) -> bool:
    """True when a request with this ``Host`` header is meant for the companion."""
    if value is None:
        return True  # HTTP/1.0 clients send none; a browser always does
    parts = split_host(value)
    if parts is None:
        return False
    name = parts[0]
    return _is_ip(name) or name in names


def same_origin(origin: str, host: str | None, secure: bool = False) -> bool:
    """True when ``origin`` (a browser's Origin header) is the page this host serves
    (over https when ``secure``, else http)."""
    if host is None:
        return False
    try:
        o = urlsplit(origin.strip())
        o_port = o.port
    except ValueError:
        return False
    if o.scheme != ("https" if secure else "http") or not o.hostname:
        return False
    parts = split_host(host)
    if parts is None:
        return False
    default = 443 if o.scheme == "https" else 80
    h_name, h_port = parts
    return o.hostname.rstrip(".") == h_name and (o_port or default) == (h_port or default)


def content_security_policy(host: str | None) -> str:
    """The page's policy: only its own scripts, styles, images and connections (its API
    and its WebSocket), never framed."""
    sockets = ""
    parts = split_host(host) if host else None
    if parts is not None:
        name, port = parts
        where = (f"[{name}]" if ":" in name else name) + (f":{port}" if port else "")
        sockets = f" ws://{where} wss://{where}"
    return ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src 'self'{sockets}; manifest-src 'self'; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message, "details": {}}}).encode("utf-8")


class WebGuard:
    """ASGI middleware: the Host allow-list, WebSocket origins and the security headers.

    ``extra_names`` are more names the companion answers to (``gingo serve --host`` with
    a name, a name set in the router).
    """

    def __init__(self, app: ASGIApp, extra_names: Iterable[str] = ()) -> None:
        self.app = app
        self.names = default_names() | frozenset(n.strip().lower().rstrip(".") for n in extra_names if n.strip())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if not host_allowed(host, self.names):
            shown = (host or "")[:80]
            await self._refuse(scope, receive, send, 421, "misdirected_request",
                               f"this companion does not answer to the name {shown!r}: open it by its IP "
                               f"address (printed when it starts) or http://{MDNS_NAME}:<port>/")
            return
        if kind == "websocket":
            origin = _header(scope, b"origin")
            if origin is not None and not same_origin(origin, host, scope.get("scheme") == "wss"):
                await self._refuse(scope, receive, send, 403, "forbidden_origin",
                                   f"the live channel only talks to the companion's own page, not to "
                                   f"{origin[:80]!r}: open the companion's page and connect from there")
                return
            await self.app(scope, receive, send)
            return
        policy = content_security_policy(host).encode("latin-1", "replace")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                for key, value in (
                    (b"content-security-policy", policy),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                    (b"cross-origin-opener-policy", b"same-origin"),
                ):
                    if key not in present:
                        headers.append((key, value))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, code: str, message: str) -> None:
        body = _error_body(code, message)
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                   (b"x-content-type-options", b"nosniff")]
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        # a WebSocket handshake: answer with an HTTP error when the server can, else close
        first = await receive()
        if first["type"] != "websocket.connect":
            return
        if "websocket.http.response" in (scope.get("extensions") or {}):
            await send({"type": "websocket.http.response.start", "status": status, "headers": headers})
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1008, "reason": code})
