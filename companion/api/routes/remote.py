"""Remote play's routes: ``POST /api/v1/remote/join`` and ``GET /api/v1/remote``, and
:class:`GuestWrites`, which sends a guest board's writes on a remote game to the host.

The remote-play adapter itself is :mod:`companion.mqtt.remote`, kept on
``app.state.remote`` (None without a ``[remote]`` config section). A remote game is
created with ``POST /api/v1/games`` and ``"remote": true`` (:mod:`.games`).
"""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from companion.api import models as M
from companion.api.auth import require_token
from companion.api.errors import ApiError, companion_error_response, error_response
from companion.api.routes import ERRORS, json_response
from companion.errors import CompanionError

router = APIRouter(tags=["remote"])

#: the writes on a game that a guest board sends to the host: path suffix -> proposal op
GUEST_OPS = {"actions": "action", "undo": "undo", "redo": "redo"}
_GAME_WRITE = re.compile(r"^/api/v1/games/([^/]{1,64})/([a-z]+)(/.*)?$")
MAX_BODY = 64 * 1024


def remote_of(request: Request) -> Any:
    remote = getattr(request.app.state, "remote", None)
    if remote is None:
        raise ApiError(409, "remote_not_configured", "remote play needs a [remote] section in the config file "
                       "(the broker both homes reach; see docs/remote.md)")
    return remote


@router.post("/api/v1/remote/join", status_code=201, response_model=M.Game, responses={**ERRORS, 503: {
    "model": M.ErrorBody, "description": "remote_unreachable: the broker or the host board cannot be reached"}},
             dependencies=[Depends(require_token)])
async def join(body: M.JoinRemote, request: Request) -> JSONResponse:
    """Join the remote game of an invite code (from the host board's ``POST /api/v1/games``
    with ``"remote": true``): the game is copied here and answered with the same id."""
    game = await remote_of(request).join(body.invite)
    return json_response(game, 201)


@router.get("/api/v1/remote", response_model=M.RemoteList)
def remote_games(request: Request) -> dict[str, Any]:
    """This board's remote games: role, the other board and whether it is online."""
    remote = getattr(request.app.state, "remote", None)
    if remote is None:
        return {"status": "off", "board": None, "games": []}
    table = request.app.state.table
    games = []
    for gid in list(remote.games):
        try:
            finished = bool(table.summary(gid).get("finished"))
        except CompanionError:  # a guest's copy not made yet, a deleted game
            finished = False
        games.append({"id": gid, "finished": finished, **(remote.describe(gid) or {})})
    return {"status": remote.status, "board": remote.board_id, "games": games}


class GuestWrites:
    """ASGI middleware (innermost, after the host-name and body-size checks): a write to a
    game this board holds as a guest goes to the host as a proposal, and the host's
    verdict is the answer. Other writes on a copy (hands, seats) are refused with 409."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "DELETE"):
            await self.app(scope, receive, send)
            return
        m = _GAME_WRITE.match(scope["path"])
        remote = getattr(scope["app"].state, "remote", None) if "app" in scope else None
        if m is None or remote is None or not remote.is_copy(m.group(1)) or m.group(2) in ("summary", "export"):
            await self.app(scope, receive, send)
            return
        response = await self._forward(scope, receive, remote, m.group(1), m.group(2), m.group(3))
        await response(scope, receive, send)

    async def _forward(self, scope: Scope, receive: Receive, remote: Any, gid: str, what: str,
                       rest: str | None) -> JSONResponse:
        request = Request(scope, receive)
        try:
            await require_token(request)
        except ApiError as exc:
            return error_response(exc.status, exc.code, exc.message, {"WWW-Authenticate": "Bearer"})
        op = GUEST_OPS.get(what) if rest is None and scope["method"] == "POST" else None
        if op is None:
            return error_response(409, "remote_copy", f"{scope['method']} .../{what}{rest or ''} is not sent to the "
                                  "host board: on a remote game this board sends actions, undo and redo")
        raw = await request.body()
        if len(raw) > MAX_BODY:
            return error_response(413, "too_large", f"a remote write is at most {MAX_BODY} bytes")
        try:
            body = json.loads(raw) if raw.strip() else {}
        except ValueError:
            return error_response(400, "malformed_json", "the body is not JSON")
        if not isinstance(body, dict):
            return error_response(422, "invalid_body", "the body is a JSON object")
        try:
            status, out = await remote.propose(gid, op, body)
        except CompanionError as exc:
            return companion_error_response(exc)
        return json_response(out, status)


__all__ = ["router", "GuestWrites"]
