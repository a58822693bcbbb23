"""The FastAPI application: API contract v1 over a :class:`~companion.table.Table`.

:func:`create_app` puts the table, pairing, board sync and live hub on ``app.state`` and
includes the routes, one module per resource under :mod:`companion.api.routes`.

Everything the API changes goes through the table, so a phone, a board button and a
test drive the same code. Reads are open on the LAN; writes need a bearer token from
``POST /api/v1/pair``; deleting a game and managing tokens need the host code.

>>> import tempfile, pathlib
>>> from fastapi.testclient import TestClient
>>> from companion.store import open_store
>>> from companion.table import HandInput, Table
>>> from companion.pairing import Pairing
>>> store = open_store(pathlib.Path(tempfile.mkdtemp()))
>>> app = create_app(Table(store), pairing=Pairing(store, code="4242", host_code="h"))
>>> with TestClient(app, base_url="http://localhost") as client:
...     token = client.post("/api/v1/pair", json={"code": "4242", "name": "Ann"}).json()["token"]
...     r = client.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bob"]},
...                     headers={"Authorization": f"Bearer {token}"})
>>> r.status_code, r.json()["variant"]
(201, 'gingo')
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import RedirectResponse

from companion import __version__
from companion.api.errors import install
from companion.api.limits import DEFAULT_MAX_BODY, body_limit
from companion.api.routes import board, games, live, outings, pairing as pairing_routes, people, play, remote, rules, service
from companion.api.methods import MethodGuard
from companion.api.openapi import install_openapi
from companion.api.responses import JsonResponse
from companion.api.security import WebGuard
from companion.api.throttle import AddressThrottle
from companion.pairing import Pairing
from companion.table import Table

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
#: The companion exports no traces, metrics or logs over OpenTelemetry: FastAPI releases
#: that can are told so, which spares each request their check for a configured provider.
_NO_TELEMETRY: dict[str, Any] = (
    {"telemetry": {"tracing": False, "metrics": False, "logs": False}}
    if "telemetry" in inspect.signature(FastAPI.__init__).parameters else {})
ROUTERS = (service.router, pairing_routes.router, games.router, play.router, board.router, live.router,
           rules.router, people.router, outings.router, remote.router)


def create_app(
    table: Table,
    *,
    pairing: Pairing,
    sync: Any = None,
    web_dir: Path | None = WEB_DIR,
    max_body: int = DEFAULT_MAX_BODY,
    warnings: list[str] | None = None,
    names: Iterable[str] = (),
) -> FastAPI:
    """The ASGI app. ``sync`` is a :class:`~companion.hardware.sync.BoardSync` (None: no board);
    ``web_dir`` the phone page served at ``/`` when the folder exists; ``names`` more host
    names the companion answers to (besides localhost, gingo.local, the hostname and IP
    addresses, see :mod:`companion.api.security`)."""
    hub = live.make_hub(table, sync, pairing, remote=lambda: app.state.remote)
    unsubscribe = table.subscribe(lambda ev, msg: hub.publish(msg))
    unsubscribe_outings = table.outings.subscribe(hub.publish)  # {"type": "outing", ...}, no event seq
    pairing.subscribe(hub.publish)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub.bind(asyncio.get_running_loop())
        started: list[Any] = []
        try:
            for adapter in app.state.adapters:  # MQTT (companion.mqtt): started in the service's loop
                await adapter.start()
                started.append(adapter)
            yield
        finally:
            for adapter in reversed(started):
                await adapter.stop()
            unsubscribe()
            unsubscribe_outings()

    app = FastAPI(
        lifespan=lifespan,
        title="Gin-Go Companion",
        version=__version__,
        description="API contract v1: games, scores, Gin-Go actions, the board and the live channel. "
        "Writes need 'Authorization: Bearer <token>' from POST /api/v1/pair.",
        docs_url=None,  # Swagger UI and ReDoc load scripts from a CDN onto the token's origin
        redoc_url=None,
        openapi_url="/openapi.json",
        default_response_class=JsonResponse,
        **_NO_TELEMETRY,
    )
    app.state.table = table
    app.state.pairing = pairing
    app.state.sync = sync
    app.state.hub = hub
    app.state.warnings = warnings if warnings is not None else []
    app.state.adapters = []  # more front ends beside the API, each with async start() and stop()
    app.state.mqtt = None  # the Home Assistant adapter, when [mqtt] is configured
    app.state.remote = None  # remote play (companion.mqtt.remote), when [remote] is configured
    app.state.pair_throttle = AddressThrottle(limit=10, window=60.0)
    app.state.host_throttle = AddressThrottle(limit=10, window=60.0)
    install(app)
    if sync is not None:
        previous = sync.publish

        def fan(msg: dict[str, Any]) -> None:
            hub.publish(msg)
            if previous is not None:
                previous(msg)

        sync.publish = fan

    for router in ROUTERS:
        app.include_router(router)

    if web_dir is not None and Path(web_dir).is_dir():
        from fastapi.staticfiles import StaticFiles

        app.mount("/", StaticFiles(directory=str(web_dir), html=True), name="web")
    else:

        @app.get("/", include_in_schema=False)
        def root() -> RedirectResponse:
            return RedirectResponse("/openapi.json")

    app.add_middleware(remote.GuestWrites)  # innermost: after the host-name and size checks
    app.add_middleware(body_limit(max_body))
    app.add_middleware(MethodGuard, routes=app.router.routes)
    app.add_middleware(WebGuard, extra_names=tuple(names))
    install_openapi(app)
    return app
