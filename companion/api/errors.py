"""Every error the API gives is ``{"error": {"code": ..., "message": ...}}`` with a 4xx.

FastAPI's own validation and HTTP errors are rewritten into that form, so a phone
shows one kind of message whatever went wrong.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from companion.pairing import PairingError
from companion.table import TableError

log = logging.getLogger(__name__)


class ApiError(Exception):
    """An error raised by a route: HTTP ``status``, ``code`` and ``message``."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


def error_response(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


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
        return error_response(400 if code == "malformed_json" else 422, code, message)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed", 401: "unauthorized", 413: "too_large"}
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"no such path: {request.url.path}"
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
        return error_response(exc.status, exc.code, exc.message, headers or None)

    @app.exception_handler(TableError)
    async def _table(request: Request, exc: TableError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(PairingError)
    async def _pairing(request: Request, exc: PairingError) -> JSONResponse:
        return error_response(401, exc.code, str(exc), {"WWW-Authenticate": "Bearer"})
