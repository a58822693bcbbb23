"""The API's routes, one module per resource: ``service`` (health, variants), ``pairing``
(pairing and tokens), ``games`` (games, hands, actions, exports), ``board`` (the board
view, the simulator, the LED frame), ``live`` (the WebSocket channel) and ``rules`` (rule
helpers that store nothing: the first-dealer flip, team play).

Each module holds an ``APIRouter`` named ``router``; :func:`companion.api.app.create_app`
includes them in :data:`ROUTERS` order. Routes that answer with the table's own dicts
(``JSONResponse``) still declare a ``response_model``: the OpenAPI schema documents it and
``tests/test_api_fuzz.py`` checks every answer against it.
"""


from typing import Any


from companion.api import models as M
from companion.api.responses import JsonResponse

#: the error answers every route may give (the contract's ``{"error": ...}`` body). They
#: name no ``model``: FastAPI would build a serializer of :class:`~companion.api.models.ErrorBody`
#: for each of them on each route, twice (the router's route, then the app's copy on the first
#: request), over 270 at start-up, 0.04 s of CPU here and a third of a second of a Pi Zero's,
#: for the OpenAPI file alone; :func:`companion.api.openapi.install_openapi` gives every 4xx
#: and 5xx answer the ErrorBody schema (the model's own, in the components, from
#: ``GET /api/v1/leds``' 404)
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {} for code in (400, 401, 404, 409, 413, 422)
}


#: :data:`ERRORS` for a route whose own answer is not JSON (FastAPI would document the
#: errors under the route's media type; they are JSON whatever the route sends)
JSON_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"description": "an error", "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/ErrorBody"}}}} for code in ERRORS
}


_RETRY = {"Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}}
#: a route that takes the pairing code: one address guessing codes waits (429)
PAIR_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS, 429: {"headers": _RETRY,
                    "description": "too many wrong codes from this address: wait Retry-After seconds"}}
#: a route that takes the host code: the same limit on wrong host codes
HOST_ERRORS = PAIR_ERRORS


def json_response(body: Any, status: int = 200) -> JsonResponse:
    """Answer with ``body`` as it is (the route's model documents it; the table built it)."""
    return JsonResponse(body, status_code=status)
