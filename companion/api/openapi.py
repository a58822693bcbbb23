"""The OpenAPI file as the server really behaves: who may call each operation (the bearer
token or the host code, as security schemes), every status it can answer (421 for a
foreign Host anywhere, 429 where codes are limited, 413 where a body is read), and the
media type of the CSV export."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from companion.api.auth import require_host, require_token
from companion.api.methods import flat_routes

_ERROR = {"$ref": "#/components/schemas/ErrorBody"}
_RETRY = {"Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}}


def _error(description: str, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description, "content": {"application/json": {"schema": _ERROR}}}
    if headers:
        out["headers"] = headers
    return out


def _calls(route: APIRoute) -> set[Any]:
    found: set[Any] = set()
    stack = list(route.dependant.dependencies)
    while stack:
        dep = stack.pop()
        found.add(dep.call)
        stack.extend(dep.dependencies)
    return found


def install_openapi(app: FastAPI) -> None:
    """Replace ``app.openapi`` with the completed description (built once)."""

    def build() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        spec = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        comps = spec.setdefault("components", {})
        comps.setdefault("securitySchemes", {}).update({
            "token": {"type": "http", "scheme": "bearer",
                      "description": "a paired phone's token, from POST /api/v1/pair"},
            "hostCode": {"type": "apiKey", "in": "header", "name": "X-Host-Code",
                         "description": "the host code printed when the companion starts"},
        })
        if "ErrorBody" not in comps.get("schemas", {}):
            comps.setdefault("schemas", {}).update({
                "ErrorDetail": {"type": "object", "required": ["code", "message"],
                                "properties": {"code": {"type": "string"}, "message": {"type": "string"}}},
                "ErrorBody": {"type": "object", "required": ["error"],
                              "properties": {"error": {"$ref": "#/components/schemas/ErrorDetail"}}},
            })
        for route in flat_routes(list(app.routes)):
            if not isinstance(route, APIRoute) or not route.include_in_schema:
                continue
            calls = _calls(route)
            for method in route.methods or ():
                op = spec["paths"].get(route.path_format, {}).get(method.lower())
                if op is None:
                    continue
                responses = op.setdefault("responses", {})
                responses.setdefault("421", _error("the request names a host that is not the companion"))
                if route.dependant.body_params:
                    responses.setdefault("400", _error("the body is not JSON"))
                    responses.setdefault("413", _error("the body is larger than the limit"))
                    responses.setdefault("422", _error("a field is missing, unknown, of the wrong type or out of range"))
                if require_token in calls:
                    op["security"] = [{"token": []}]
                    responses.setdefault("401", _error("no token, or an unknown or revoked one"))
                if require_host in calls:
                    op["security"] = [{"hostCode": []}]
                    responses.setdefault("401", _error("no host code, or a wrong one"))
                    responses["429"] = _error("ten wrong host codes from this address within a minute", _RETRY)
                if route.path_format == "/api/v1/pair":
                    responses["429"] = _error("ten wrong pairing codes from this address within a minute", _RETRY)
                if route.path_format.endswith("/export.csv"):
                    responses["200"] = {"description": "the score sheet: one row per hand, then the totals",
                                        "content": {"text/csv": {"schema": {"type": "string"}}}}
                for status, answer in responses.items():
                    if status[:1] in "45":  # every error is JSON, whatever the route answers when it works
                        answer["content"] = {"application/json": {"schema": _ERROR}}
                if route.path_format in ("/api/v1/games", "/api/v1/games/import") and method == "POST" or \
                        route.path_format.endswith("/rematch"):
                    responses.setdefault("501", _error("the rules of this variant are not installed"))
        app.openapi_schema = spec
        return spec

    app.openapi = build  # type: ignore[method-assign]
