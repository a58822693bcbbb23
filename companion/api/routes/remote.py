"""Remote play's routes: ``POST /api/v1/remote/join`` and ``GET /api/v1/remote``, and
:class:`GuestWrites`, which sends a guest board's writes on a remote game to the host.

The remote-play adapter itself is :mod:`companion.mqtt.remote`, kept on
``app.state.remote`` (None without a ``[remote]`` config section). A remote game is
created with ``POST /api/v1/games`` and ``"remote": true`` (:mod:`.games`).
"""


import json
import re
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from companion.api import models as M
from companion.api.auth import bearer, require_host, require_token
from companion.api.errors import ApiError, companion_error_response, error_response
from companion.api.routes import ERRORS, json_response
from companion.errors import CompanionError
from companion.store import TokenRecord

router = APIRouter(tags=["remote"])

#: the writes on a game that a guest board sends to the host: path suffix -> proposal op
GUEST_OPS = {"actions": "action", "undo": "undo", "redo": "redo", "hands": "hand"}
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
            line = remote.dealt.mirrors.get(gid) if remote.is_mirror(gid) else table.summary(gid)
            finished = bool((line or {}).get("finished"))
        except CompanionError:  # a guest's copy not made yet, a deleted game
            finished = False
        games.append({"id": gid, "finished": finished, **(remote.describe(gid) or {})})
    return {"status": remote.status, "board": remote.board_id, "games": games}


@router.get("/api/v1/games/{game_id}/invite", response_model=M.RemoteInvite, responses=ERRORS)
def game_invite(game_id: str, request: Request, phone: TokenRecord = Depends(require_token)) -> dict[str, Any]:
    """The invite code of a remote game this board hosts, again, for a paired phone of this
    board (a phone that reloaded its page has lost it). Unlike the game, which anyone on the
    network may read, the invite is the right to join: it needs a token. 404 ``not_remote``
    for a game that is not remote here, 409 ``not_host`` on the guest's board."""
    return dict(remote_of(request).invite(game_id))


def with_followed(page: dict[str, Any], remote: Any, limit: int | None = None) -> dict[str, Any]:
    """A page of :meth:`~companion.table.Table.games_page` (the newest one) with the summary
    lines of the remote dealt games this board follows as the guest (it keeps no log of
    them: :mod:`companion.mqtt.dealt`) after its own, counted in ``total``. With ``limit``,
    the oldest of its own lines make room for them (never all of them: ``next_before``
    must name one of this board's games), so the page may pass ``limit`` by that many.

    >>> class Dealt:
    ...     def listed(self): return [{"id": "r1"}]
    >>> class Remote:
    ...     dealt = Dealt()
    >>> page = {"games": [{"id": "a"}, {"id": "b"}], "total": 2, "next_before": None}
    >>> with_followed(page, Remote(), 2)
    {'games': [{'id': 'b'}, {'id': 'r1'}], 'total': 3, 'next_before': 'b'}
    >>> with_followed(page, None, 2) is page
    True
    """
    lines = remote.dealt.listed() if remote is not None else []
    if not lines:
        return page
    own = list(page["games"])
    games, before = own + lines, page["next_before"]
    cut = 0 if limit is None else min(len(games) - limit, len(own) - 1)
    if cut > 0:
        games, before = games[cut:], own[cut]["id"]
    return {"games": games, "total": page["total"] + len(lines), "next_before": before}


class GuestWrites:
    """ASGI middleware (innermost, after the host-name and body-size checks): a write to a
    game this board holds as a guest goes to the host as a proposal, and the host's
    verdict is the answer. Other writes on a copy are refused with 409. A dealt game this
    board follows has no copy here (the host alone holds the hands): its reads are
    answered from the host's public game and, for a seat, from the host (:class:`DealtMirror`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        remote = getattr(scope["app"].state, "remote", None) if scope["type"] == "http" and "app" in scope else None
        if remote is not None:
            d = _DEALT_GAME.match(scope["path"])
            if d is not None and d.group(2) != "invite" and remote.is_mirror(d.group(1)):  # its invite: the route says not_host
                response = await DealtMirror(remote, scope, receive).answer(d.group(1), d.group(2) or "", d.group(3))
                await response(scope, receive, send)
                return
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "DELETE"):
            await self.app(scope, receive, send)
            return
        m = _GAME_WRITE.match(scope["path"])
        if m is None or remote is None or not remote.is_copy(m.group(1)) or m.group(2) in ("summary", "export") \
                or (m.group(2) == "hands" and (m.group(3) or "").endswith("/preview")):
            await self.app(scope, receive, send)  # a preview writes nothing: the copy answers it with the same rules
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
        hand = None
        if what == "hands" and scope["method"] == "PUT" and rest is not None and rest[1:].isdigit():
            op, hand = "correct", int(rest[1:])  # PUT .../hands/{n}: a correction
        if op is None:
            return error_response(409, "remote_copy", f"{scope['method']} .../{what}{rest or ''} is not sent to the "
                                  "host board: on a remote game this board sends actions, hands (and their "
                                  "corrections), undo and redo")
        body = await _json_body(request)
        if isinstance(body, JSONResponse):
            return body
        try:
            status, out = await remote.propose(gid, op, body if hand is None else {**body, "hand": hand})
        except CompanionError as exc:
            return companion_error_response(exc)
        return json_response(out, status)


_DEALT_GAME = re.compile(r"^/api/v1/games/([^/]{1,64})(?:/([a-z.]+))?(?:/([^/]{1,8}))?/?$")


async def _json_body(request: Request) -> dict[str, Any] | JSONResponse:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return error_response(413, "too_large", f"a remote write is at most {MAX_BODY} bytes")
    try:
        body = json.loads(raw) if raw.strip() else {}
    except ValueError:
        return error_response(400, "malformed_json", "the body is not JSON")
    if not isinstance(body, dict):
        return error_response(422, "invalid_body", "the body is a JSON object")
    return body


class DealtMirror:
    """One request on a dealt game this board follows as the guest. Reads of the game
    answer the host's public game; a seat's view, a hint, a move and a seat claimed or
    freed go to the host for the caller's token (its holder there is this board's)."""

    def __init__(self, remote: Any, scope: Scope, receive: Receive) -> None:
        self.remote = remote
        self.method = scope["method"]
        self.request = Request(scope, receive)

    async def answer(self, gid: str, what: str, rest: str | None) -> JSONResponse:
        try:
            return await self._answer(gid, what, rest)
        except ApiError as exc:
            return error_response(exc.status, exc.code, exc.message)
        except CompanionError as exc:
            return companion_error_response(exc)

    async def _answer(self, gid: str, what: str, rest: str | None) -> JSONResponse:
        method, remote = self.method, self.remote
        if method == "GET" and rest is None and what in ("", "summary"):
            return json_response(remote.dealt.mirror(gid))
        if method == "GET" and rest is None and what == "view":
            token = bearer(self.request)
            rec = self.request.app.state.pairing.check(token) if token is not None else None
            if rec is None:  # no seat: what everybody sees, from the host's public game
                game = remote.dealt.mirror(gid)
                return json_response({"seat": None, "hand": [], "drawn": None, "legal_actions": [], "endings": {},
                                      "public": game.get("dealt"), "finished": game.get("finished"),
                                      "version": game.get("version"), "game_id": gid, "waiting_for_board": None})
            return await self._ask(gid, "view", rec.id)
        if method == "GET" and rest is None and what == "hint":
            return await self._ask(gid, "hint", (await require_token(self.request)).id)
        if method == "POST" and rest is None and what in ("actions", "undo", "redo"):
            rec = await require_token(self.request)
            return await self._ask(gid, {"actions": "play"}.get(what, what), rec.id, await _json_body(self.request))
        if what == "seats" and rest is not None and rest.isdigit() and method in ("POST", "DELETE"):
            if method == "DELETE":
                await require_host(self.request)
            rec = await require_token(self.request)
            return await self._ask(gid, "claim" if method == "POST" else "free", rec.id, seat=int(rest))
        if method == "GET":
            return error_response(409, "remote_dealt", f"GET .../{what} is not kept on this board: the host board "
                                  "deals this game and keeps its log (its hands stay there)")
        return error_response(409, "remote_copy", f"{method} .../{what}{'/' + rest if rest else ''} is not sent to "
                              "the host board: on a remote dealt game this board sends moves, seats and hints")

    async def _ask(self, gid: str, op: str, holder: str, body: dict[str, Any] | JSONResponse | None = None,
                   seat: int | None = None) -> JSONResponse:
        if isinstance(body, JSONResponse):
            return body
        status, out = await self.remote.dealt.ask(gid, op, holder, body, seat)
        return json_response(out, status)


__all__ = ["router", "GuestWrites", "DealtMirror", "with_followed"]
