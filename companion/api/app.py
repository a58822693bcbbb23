"""The FastAPI application: API contract v1 over a :class:`~companion.table.Table`.

Everything the API changes goes through the table, so a phone, a board button and a
test drive the same code. Reads are open on the LAN; writes need a bearer token from
``POST /api/v1/pair``; deleting a game and managing tokens need the host code.

>>> import tempfile, pathlib
>>> from fastapi.testclient import TestClient
>>> from companion.store import open_store
>>> from companion.table import HandInput, Table
>>> from companion.pairing import Pairing, PairingError
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
import csv
import functools
import io
import json
import re
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from fastapi import Body, Depends, FastAPI, Query, Request, WebSocket
from fastapi.responses import JSONResponse, PlainTextResponse, RedirectResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from companion import __version__
from companion.api import models as M
from companion.api.auth import client_address, require_host, require_token
from companion.api.errors import ApiError, error_response, install
from companion.api.live import MAX_REPLAY, LiveHub
from companion.api.security import WebGuard
from companion.api.throttle import AddressThrottle, refuse_if_locked
from companion.api.variants import describe_variants
from companion.pairing import Pairing, PairingError
from companion.store import TokenRecord
from companion.table import HandInput, Table

DEFAULT_MAX_BODY = 1_000_000
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": M.ErrorBody} for code in (400, 401, 404, 409, 413, 422)
}
_RETRY = {"Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}}
_PAIR_ERRORS: dict[int | str, dict[str, Any]] = {
    **_ERRORS, 429: {"model": M.ErrorBody, "headers": _RETRY,
                     "description": "too many wrong codes from this address: wait Retry-After seconds"}}
_HOST_ERRORS = _PAIR_ERRORS


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
    """The ASGI app. ``sync`` is a :class:`~companion.sync.BoardSync` (None: no board);
    ``web_dir`` the phone page served at ``/`` when the folder exists; ``names`` more host
    names the companion answers to (besides localhost, gingo.local, the hostname and IP
    addresses, see :mod:`companion.api.security`)."""
    hub_box: list[LiveHub] = []

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub_box[0].bind(asyncio.get_running_loop())
        try:
            yield
        finally:
            unsubscribe()

    app = FastAPI(
        lifespan=lifespan,
        title="Gin-Go Companion",
        version=__version__,
        description="API contract v1: games, scores, Gin-Go actions, the board and the live channel. "
        "Writes need 'Authorization: Bearer <token>' from POST /api/v1/pair.",
        docs_url=None,  # Swagger UI and ReDoc load scripts from a CDN onto the token's origin
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.state.table = table
    app.state.pairing = pairing
    app.state.sync = sync
    install(app)
    pair_throttle = app.state.pair_throttle = AddressThrottle(limit=10, window=60.0)
    app.state.host_throttle = AddressThrottle(limit=10, window=60.0)

    def snapshot() -> dict[str, Any]:
        seq = table.last_seq()
        return {"type": "snapshot", "seq": seq, "games": table.games(),
                "board": sync.state() if sync is not None else None}

    def missed(after: int, upto: int) -> list[dict[str, Any]]:
        evs = table.store.events(after=after, limit=MAX_REPLAY)
        return [{"type": "event", "seq": e.seq, "event": e.as_dict(), "game": None, "replay": True}
                for e in evs if e.seq <= upto]

    hub = LiveHub(snapshot, missed)
    hub_box.append(hub)
    app.state.hub = hub
    unsubscribe = table.subscribe(lambda ev, msg: hub.publish(msg))
    pairing.subscribe(hub.publish)
    if sync is not None:
        previous = sync.publish

        def fan(msg: dict[str, Any]) -> None:
            hub.publish(msg)
            if previous is not None:
                previous(msg)

        sync.publish = fan

    variants_cache = functools.lru_cache(maxsize=1)(describe_variants)

    # -- service --------------------------------------------------------------------------

    @app.get("/api/v1/health", response_model=M.Health, tags=["service"])
    def health() -> dict[str, Any]:
        """Liveness and which LED and sensor backends run."""
        warn = list(warnings or [])
        warn += table.replay_errors
        return {
            "status": "ok",
            "version": __version__,
            "leds": sync.leds_name if sync is not None else "none",
            "sensors": sync.sensors_name if sync is not None else "offline",
            "seq": table.last_seq(),
            "warnings": warn,
        }

    @app.get("/api/v1/variants", tags=["service"])
    def variants() -> dict[str, Any]:
        """Every variant with its presets and options (default, help, choices)."""
        return variants_cache()

    @app.post("/api/v1/pair", response_model=M.PairResponse, responses=_PAIR_ERRORS, tags=["pairing"])
    def pair(body: M.PairRequest, request: Request) -> dict[str, Any]:
        """Trade the pairing code for a bearer token. Ten wrong codes from one address in a
        minute and that address waits (429 with Retry-After); other addresses do not."""
        address = client_address(request)
        refuse_if_locked(pair_throttle, address, "pairing codes")
        try:
            token = pairing.pair(body.code, body.name)
        except PairingError:
            pair_throttle.failed(address)
            raise
        rec = pairing.check(token)
        assert rec is not None
        return {"token": token, "id": rec.id, "name": rec.name}

    @app.get("/api/v1/pair/code", response_model=M.PairCode, responses=_ERRORS, tags=["pairing"],
             dependencies=[Depends(require_token)])
    def pair_code() -> dict[str, Any]:
        """The pairing code for a paired phone to show a new one (``code`` null once expired)."""
        return pairing.code_status()

    @app.post("/api/v1/pair/code", response_model=M.PairCode, responses=_ERRORS, tags=["pairing"])
    def new_pair_code(rec: TokenRecord = Depends(require_token)) -> dict[str, Any]:
        """A new pairing code, good for the whole window, shown on this paired phone."""
        pairing.rotate(f"the paired phone {rec.name!r}")
        return pairing.code_status()

    @app.post("/api/v1/pair/rotate", response_model=M.PairCode, responses=_HOST_ERRORS, tags=["pairing"],
              dependencies=[Depends(require_host)])
    def rotate_pair_code() -> dict[str, Any]:
        """A new pairing code (host code): the old one stops working; paired phones keep working."""
        pairing.rotate("the host (POST /api/v1/pair/rotate)")
        return pairing.code_status()

    @app.get("/api/v1/tokens", response_model=M.TokenList, responses=_ERRORS, tags=["pairing"],
             dependencies=[Depends(require_host)])
    def tokens() -> dict[str, Any]:
        """Paired phones (host code)."""
        return {"tokens": [t.as_dict() for t in pairing.tokens()]}

    @app.get("/api/v1/tokens/me", response_model=M.TokenInfo, responses=_ERRORS, tags=["pairing"])
    def token_me(rec: TokenRecord = Depends(require_token)) -> dict[str, Any]:
        """This phone's own token (its bearer token): 401 once it is revoked."""
        return dict(rec.as_dict())

    @app.delete("/api/v1/tokens/{token_id}", response_model=M.Deleted, responses=_ERRORS, tags=["pairing"],
                dependencies=[Depends(require_host)])
    def revoke(token_id: str) -> dict[str, Any]:
        """Revoke a paired phone's token (host code); the live channel says so."""
        if not pairing.revoke(token_id):
            raise ApiError(404, "not_found", f"no token with id {token_id!r}")
        hub.publish({"type": "token_revoked", "id": token_id})
        return {"deleted": token_id}

    @app.delete("/api/v1/tokens", response_model=M.Deleted, responses=_ERRORS, tags=["pairing"],
                dependencies=[Depends(require_host)])
    def revoke_by_query(id: str = Query(..., max_length=64, description="the token id from GET /api/v1/tokens")
                        ) -> dict[str, Any]:
        """The same as ``DELETE /api/v1/tokens/{id}``."""
        return revoke(id)

    # -- games --------------------------------------------------------------------------------

    @app.get("/api/v1/games", response_model=M.GameList, tags=["games"])
    def list_games() -> JSONResponse:
        return _json({"games": table.games()})

    @app.post("/api/v1/games", status_code=201, response_model=M.Game, responses=_ERRORS, tags=["games"],
              dependencies=[Depends(require_token)])
    def create_game(body: M.CreateGame) -> JSONResponse:
        """Start a game; a retried ``client_id`` returns the same game."""
        return _json(table.create_game(body.variant, players=body.players, preset=body.preset,
                                       options=body.options, dealer=body.dealer, client_id=body.client_id), 201)

    @app.post("/api/v1/games/import", status_code=201, response_model=M.Game, responses=_ERRORS, tags=["games"],
              dependencies=[Depends(require_token)])
    def import_game(data: dict[str, Any] = Body(..., description="a file from GET .../export.json")) -> JSONResponse:
        """Re-create an exported game under a new id (every event re-checked)."""
        cid = data.get("client_id")
        return _json(table.import_game(data, client_id=cid if isinstance(cid, str) else None), 201)

    @app.get("/api/v1/games/{game_id}", response_model=M.Game, responses=_ERRORS, tags=["games"])
    def get_game(game_id: str) -> JSONResponse:
        return _json(table.game(game_id))

    @app.delete("/api/v1/games/{game_id}", response_model=M.Deleted, responses=_ERRORS, tags=["games"],
                dependencies=[Depends(require_host)])
    def delete_game(game_id: str) -> dict[str, Any]:
        """Remove a game from the list (host code); its events stay in the log."""
        out = table.delete_game(game_id)
        return {"deleted": str(out["deleted"])}

    @app.post("/api/v1/games/{game_id}/hands", response_model=M.HandResponse, responses=_ERRORS, tags=["games"],
              dependencies=[Depends(require_token)])
    def score_hand(game_id: str, body: M.HandRequest) -> JSONResponse:
        """Score the end of a hand (cards per player, or deadwood numbers)."""
        return _json(table.score_hand(game_id, _entry(body), client_id=body.client_id,
                                      expected_version=body.expected_version))

    @app.post("/api/v1/games/{game_id}/hands/preview", response_model=M.HandResponse, responses=_ERRORS,
              tags=["games"])
    def preview_hand(game_id: str, body: M.HandRequest) -> JSONResponse:
        """Score a hand without writing anything."""
        return _json(table.preview_hand(game_id, _entry(body)))

    @app.put("/api/v1/games/{game_id}/hands/{n}", response_model=M.HandResponse, responses=_ERRORS,
             tags=["games"], dependencies=[Depends(require_token)])
    def correct_hand(game_id: str, n: int, body: M.HandRequest) -> JSONResponse:
        """Replace hand ``n`` (1-based); the match is re-scored."""
        return _json(table.correct_hand(game_id, n, _entry(body), client_id=body.client_id,
                                        expected_version=body.expected_version))

    @app.post("/api/v1/games/{game_id}/actions", response_model=M.ActionResponse, responses=_ERRORS,
              tags=["games"], dependencies=[Depends(require_token)])
    def action(game_id: str, body: M.ActionRequest) -> JSONResponse:
        """A Gin-Go action (see the action schema in companion.rules.gingo)."""
        return _json(table.action(game_id, body.action, client_id=body.client_id,
                                  expected_version=body.expected_version))

    @app.post("/api/v1/games/{game_id}/undo", response_model=M.UndoResponse, responses=_ERRORS, tags=["games"],
              dependencies=[Depends(require_token)])
    def undo(game_id: str, body: M.UndoRequest | None = None) -> JSONResponse:
        """Undo the latest event still standing (itself an event)."""
        b = body or M.UndoRequest(client_id=None)
        return _json(table.undo(game_id, client_id=b.client_id, expected_version=b.expected_version))

    @app.post("/api/v1/games/{game_id}/rematch", status_code=201, response_model=M.Game, responses=_ERRORS,
              tags=["games"], dependencies=[Depends(require_token)])
    def rematch(game_id: str, body: M.WriteRequest | None = None) -> JSONResponse:
        """A new game with the same rules and players; the deal moves on one seat."""
        return _json(table.rematch(game_id, client_id=(body or M.WriteRequest(client_id=None)).client_id), 201)

    @app.get("/api/v1/games/{game_id}/events", response_model=M.EventList, responses=_ERRORS, tags=["games"])
    def events(game_id: str, after: int = Query(0, ge=0)) -> dict[str, Any]:
        return {"events": table.events(game_id, after=after)}

    @app.get("/api/v1/games/{game_id}/export.json", responses=_ERRORS, tags=["games"])
    def export_json(game_id: str) -> JSONResponse:
        data = table.export(game_id)
        return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="gingo-{game_id}.json"'})

    @app.get("/api/v1/games/{game_id}/export.csv", responses=_ERRORS, tags=["games"],
             response_class=PlainTextResponse)
    def export_csv(game_id: str) -> PlainTextResponse:
        return PlainTextResponse(score_sheet_csv(table.game(game_id)), media_type="text/csv",
                                 headers={"Content-Disposition": f'attachment; filename="gingo-{game_id}.csv"'})

    # -- board -------------------------------------------------------------------------------

    @app.get("/api/v1/board", response_model=M.Board, tags=["board"])
    def board() -> dict[str, Any]:
        """Expected and sensed boards, every mismatch, and both sides' links."""
        if sync is None:
            from companion.sync import compare

            active = table.active_gingo()
            return compare(None if active is None else active["board"], None)
        view: dict[str, Any] = sync.state()
        return view

    @app.post("/api/v1/board/sim", response_model=M.SimPut, responses=_ERRORS, tags=["board"],
              dependencies=[Depends(require_token)])
    def board_sim(body: M.SimPut) -> dict[str, Any]:
        """Simulator only: put a chip of a side on a space, or lift it (side null)."""
        if sync is None:
            raise ApiError(409, "not_simulated", "this companion has no simulated board")
        done: dict[str, Any] = sync.put_sim(body.space, body.side)
        return done

    @app.get("/api/v1/leds", tags=["board"])
    def leds() -> dict[str, Any]:
        """The last LED frame (simulated strip only): one [r, g, b] per LED."""
        strip = getattr(sync, "leds", None)
        if strip is None or not hasattr(strip, "pixels"):
            raise ApiError(404, "not_simulated", "no simulated LED strip to read")
        return {"pixels": [list(p) for p in strip.pixels()]}

    # -- live -----------------------------------------------------------------------------------

    @app.websocket("/api/v1/live")
    async def live(ws: WebSocket, after: str | None = None) -> None:
        cursor = None if after is None else _after_param(after)
        if isinstance(cursor, str):
            # a bad ?after= used to be a bare 403 handshake refusal: say what is wrong instead
            await ws.accept()
            await ws.send_json({"type": "error", "error": {"code": "invalid_request", "message": cursor}})
            await ws.close(code=1008, reason="bad ?after=")
            return
        await hub.serve(ws, cursor)

    # -- the phone page -------------------------------------------------------------------------

    if web_dir is not None and Path(web_dir).is_dir():
        from fastapi.staticfiles import StaticFiles

        app.mount("/", StaticFiles(directory=str(web_dir), html=True), name="web")
    else:

        @app.get("/", include_in_schema=False)
        def root() -> RedirectResponse:
            return RedirectResponse("/openapi.json")

    app.add_middleware(_body_limit(max_body))
    app.add_middleware(WebGuard, extra_names=tuple(names))
    return app


def _json(body: Any, status: int = 200) -> JSONResponse:
    """Answer with ``body`` as it is (the route's model documents it; the table built it)."""
    return JSONResponse(body, status_code=status)


def _entry(body: M.HandRequest) -> HandInput:
    return HandInput(ender=body.ender, hands=body.hands, deadwood=body.deadwood, declared=body.declared,
                     joker=body.joker, big_gin=body.big_gin, upcard=body.upcard)


def _body_limit(limit: int) -> Any:
    class _Limit(BodyLimit):
        def __init__(self, app: ASGIApp) -> None:
            super().__init__(app, limit)

    return _Limit


def _cell(points: Any) -> str:
    if isinstance(points, dict):
        return " ".join(f"{k}:{v}" for k, v in points.items())
    return str(points)


def score_sheet_csv(game: dict[str, Any]) -> str:
    """A game's score sheet as CSV: one row per hand, then the totals.

    >>> print(score_sheet_csv({"players": ["A", "B"], "hands": [{"n": 1, "ender": 0,
    ...     "result": {"kind": "gin", "winner": 0, "points": [30, 0]}}], "scores": [30, 0]}).strip())
    hand,ender,kind,winner,A,B
    1,A,gin,A,30,0
    total,,,,30,0
    """
    players = list(game.get("players", []))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["hand", "ender", "kind", "winner", *players])

    def name(seat: Any) -> str:
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else ("" if seat is None else str(seat))

    for h in game.get("hands", []):
        res = h.get("result")
        if isinstance(res, dict):
            pts = res.get("points") or []
            w.writerow([h.get("n"), name(h.get("ender")), res.get("kind"), name(res.get("winner")),
                        *[_cell(p) for p in pts]])
        else:  # Gin-Go hand_end events
            w.writerow([h.get("hand"), name(h.get("went_out")), h.get("reason") or "", h.get("winner") or "",
                        *["" for _ in players]])
    scores = game.get("scores") or []
    w.writerow(["total", "", "", "", *[_cell(s) for s in scores]])
    return buf.getvalue()


def _after_param(raw: str) -> int | str:
    """The live channel's ``?after=N``: a whole number >= 0, or the error message."""
    text = raw.strip()
    if not (text.isascii() and text.isdigit()):
        return f"after must be a whole number >= 0 (the last seq you saw), got {raw!r}"
    return int(text)
