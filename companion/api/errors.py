"""Every error the API gives is ``{"error": {"code", "message", "details"}}``.

This is the one place where the companion's errors (:mod:`companion.errors`) become
HTTP statuses (:data:`STATUS`). FastAPI's own validation and HTTP errors are rewritten
into the same form, so a phone shows one kind of message whatever went wrong, and acts
on ``code`` and ``details``, never on the wording. An exception nobody expected (a bug)
is a 500 ``internal_error`` with the same JSON form and a log line with its traceback;
it is never passed off as the player's mistake.

>>> from companion.errors import ChipShortfall, NotFound, StorageFull
>>> http_status(NotFound("no game")), http_status(ChipShortfall(side=1, supply=0, need=1)), http_status(StorageFull("x"))
(404, 422, 507)
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from companion import errors as E
from companion.api.responses import JsonResponse

log = logging.getLogger(__name__)

#: The HTTP status of each kind of error (the nearest class in the tree wins).
STATUS: dict[type[E.CompanionError], int] = {
    E.InvalidInput: 400,
    E.IllegalAction: 422,
    E.NotFound: 404,
    E.Conflict: 409,
    E.Unauthorized: 401,
    E.RateLimited: 429,
    E.StorageError: 503,
    E.StorageFull: 507,
    E.StorageDamaged: 503,
    E.StorageBusy: 503,
    E.BackendError: 503,
    E.ConfigError: 500,
}
#: Codes whose status differs from their class's (kept as contract v1 answered them).
CODE_STATUS: dict[str, int] = {"unavailable": 501}


def http_status(exc: E.CompanionError) -> int:
    """The status an error is answered with: by its code where :data:`CODE_STATUS` says,
    else by the nearest class of :data:`STATUS` in its ancestry (500 for none)."""
    if exc.code in CODE_STATUS:
        return CODE_STATUS[exc.code]
    for cls in type(exc).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 500


class ApiError(Exception):
    """An error raised by a route about HTTP itself (a throttle, a missing simulator):
    HTTP ``status``, ``code``, ``message`` and optional ``details``. Errors about games,
    storage or hardware are raised from :mod:`companion.errors` instead."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None,
                 details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.details = dict(details or {})


def error_response(status: int, code: str, message: str, headers: dict[str, str] | None = None,
                   details: dict[str, Any] | None = None) -> JSONResponse:
    body = {"error": {"code": code, "message": message, "details": details or {}}}
    return JsonResponse(body, status_code=status, headers=headers)


def companion_error_response(exc: E.CompanionError) -> JSONResponse:
    """The JSON answer to one of the companion's own errors (a 429 with its ``Retry-After``)."""
    status = http_status(exc)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    wait = exc.details.get("retry_after")
    if status == 429 and isinstance(wait, int) and not isinstance(wait, bool):
        headers = {"Retry-After": str(max(1, wait))}
    if status >= 500:
        log.warning("%s answered %d: %s", exc.code, status, exc.message)
    return error_response(status, exc.code, exc.message, headers, exc.details)


def internal_error_response(exc: BaseException, where: str) -> JSONResponse:
    """A 500 for an exception nobody expected: logged with its traceback, answered in the
    contract's form without the traceback."""
    log.error("unexpected error in %s: %r", where, exc, exc_info=exc)
    return error_response(500, "internal_error", f"the companion hit an internal error ({type(exc).__name__}); "
                          "nothing was written by this request. This is a bug: please report it",
                          details={"exception": type(exc).__name__})


class CatchAll:
    """ASGI middleware: an exception that escapes every handler becomes a JSON 500 (and a
    log line), not Starlette's text/plain traceback page. Once a response has started
    the exception is passed on (the connection is closed by the server)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception as exc:
            if started:
                raise
            where = f"{scope.get('method', '')} {scope.get('path', '')}"
            await internal_error_response(exc, where)(scope, receive, send)


def _loc(loc: Any) -> str:
    parts = [str(p) for p in loc if p not in ("body",)]
    return ".".join(parts) or "body"


def validation_message(errors: list[dict[str, Any]]) -> tuple[str, str]:
    """Turn pydantic's error list into one line (and a code)."""
    if any(e.get("type") == "json_invalid" for e in errors):
        e = next(e for e in errors if e.get("type") == "json_invalid")
        ctx = e.get("ctx") or {}
        return "malformed_json", f"the body is not valid JSON ({ctx.get('error', 'parse error')})"
    lines = []
    for e in errors[:5]:
        msg = str(e.get("msg", "invalid")).removeprefix("Value error, ")  # our own validators' words
        lines.append(f"{_loc(e.get('loc', ()))}: {msg}")
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return "invalid_request", "; ".join(lines) + more


def validation_details(errors: list[dict[str, Any]]) -> dict[str, Any]:
    """Which fields are wrong, for a page that shows each message under its field."""
    return {"fields": [{"field": _loc(e.get("loc", ())),
                        "message": str(e.get("msg", "invalid")).removeprefix("Value error, "),
                        "type": str(e.get("type", ""))} for e in errors[:20]]}


def install(app: FastAPI) -> None:
    """Register the handlers that give every error the contract's JSON form."""

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = list(exc.errors())
        ctype = request.headers.get("content-type", "")
        if ctype and "json" not in ctype.lower() and any(tuple(e.get("loc", ())) == ("body",) for e in errors):
            # FastAPI ignores a body sent as text/plain or a form, then says "Input should be a
            # valid dictionary" about JSON that is fine: name the real problem
            return error_response(400, "malformed_json", f"send the body as JSON with 'Content-Type: "
                                  f"application/json' (it came as {ctype.split(';')[0].strip()!r})")
        code, message = validation_message(errors)
        if code == "malformed_json":
            return error_response(400, code, message)
        return error_response(422, code, message, details=validation_details(errors))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed", 401: "unauthorized", 413: "too_large"}
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"no such path: {request.url.path}"
        if exc.status_code == 405 and detail == "Method Not Allowed":
            detail = f"{request.method} is not how {request.url.path} is used: the Allow header lists what is"
        if exc.status_code == 400 and detail == "There was an error parsing the body":
            # FastAPI's answer when the JSON parser itself fails (e.g. nesting too deep)
            return error_response(400, "malformed_json", "the body is not JSON the companion can read "
                                  "(nested too deeply, a number with thousands of digits, or not text)")
        return error_response(exc.status_code, codes.get(exc.status_code, "http_error"), detail,
                              dict(exc.headers) if exc.headers else None)

    @app.exception_handler(ApiError)
    async def _api(request: Request, exc: ApiError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else {}
        headers.update(exc.headers or {})
        return error_response(exc.status, exc.code, exc.message, headers or None, exc.details)

    @app.exception_handler(E.CompanionError)
    async def _companion(request: Request, exc: E.CompanionError) -> JSONResponse:
        return companion_error_response(exc)

    app.add_middleware(CatchAll)
