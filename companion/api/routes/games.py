"""Games: create, import, read, delete, score hands, Gin-Go actions, undo, rematch,
events and the exports (``/api/v1/games...``)."""


from typing import Annotated, Any, Optional

from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse

from companion.api import models as M
from companion.api.auth import require_host, require_token
from companion.api.deps import TableDep
from companion.api.limits import MAX_SEQ
from companion.api.responses import JsonResponse
from companion.api.routes import ERRORS, HOST_ERRORS, JSON_ERRORS, json_response
from companion.api.routes.remote import remote_of, with_followed
from companion.api.sheets import score_sheet_csv
from companion.errors import InvalidInput
from companion.store import TokenRecord
from companion.table import HandInput

router = APIRouter(tags=["games"])
_WRITE = [Depends(require_token)]
#: the paired phone that writes: its name goes with what it writes (another phone is told who)
Phone = Annotated[TokenRecord, Depends(require_token)]


def hand_input(body: M.HandRequest) -> HandInput:
    """A hand's body as the table takes it (also a guest's hand on a remote game, companion.mqtt.hosting)."""
    tables = None if body.tables is None else [t.model_dump(exclude_unset=True) for t in body.tables]
    return HandInput(ender=body.ender, hands=body.hands, deadwood=body.deadwood, declared=body.declared,
                     joker=body.joker, big_gin=body.big_gin, upcard=body.upcard, tables=tables)


@router.get("/api/v1/games", response_model=M.GameList)
def list_games(table: TableDep, request: Request,
               limit: Optional[int] = Query(None, ge=1, le=1000, description="only the newest this many"),
               before: Optional[str] = Query(None, max_length=40, description="games created before this one"),
               hands: bool = Query(False, description="also each game's `hands` (every scored hand, as "
                                   "GET /api/v1/games/{id} gives them), as contract v1's list had them; each "
                                   "listed game is read in full, so page with `limit`")) -> JSONResponse:
    """Every game's summary line (scores, finished, winner...), oldest first; ``limit``
    and ``before`` page back from the newest. ``GET /api/v1/games/{id}`` has the whole game;
    ``hands=true`` adds each game's ``hands`` to its line. The newest page also lists the
    remote dealt games this board follows as the guest (their lines as the host lists them,
    with their ``remote`` part; :func:`~companion.api.routes.remote.with_followed`)."""
    remote = getattr(request.app.state, "remote", None)
    page = table.games_page(limit=limit, before=before)
    if before is None:
        page = with_followed(page, remote, limit)
    games = page["games"]
    if hands:
        games = [{**g, "hands": _hands(table, remote, g["id"])} for g in games]
    return json_response({"games": games, "total": page["total"], "next_before": page["next_before"]})


def _hands(table: Any, remote: Any, gid: str) -> list[Any]:
    if remote is not None and remote.is_mirror(gid):  # the host's public game has them
        return list((remote.dealt.mirrors.get(gid) or {}).get("hands") or [])
    return list(table.hands_of(gid))


@router.get("/api/v1/games/{game_id}/summary", response_model=M.Game, responses=ERRORS)
def get_summary(game_id: str, table: TableDep) -> JSONResponse:
    """The game's summary line: what the live channel carries with each event."""
    return json_response(table.summary(game_id))


@router.post("/api/v1/games", status_code=201, response_model=M.Game, responses=ERRORS, dependencies=_WRITE)
def create_game(body: M.CreateGame, table: TableDep, request: Request) -> JSONResponse:
    """Start a game; a retried ``client_id`` returns the same game. ``"mode": "dealt"``: the
    companion deals (bots in the ``bots`` seats; claim a seat with POST .../seats/{n}).
    ``"remote": true``: a game another board joins with the answer's ``remote.invite``."""
    if body.remote:
        remote = remote_of(request)
        if body.mode == "dealt":  # every variant: the host board deals and alone holds the hands
            dealt = {"preset": body.preset, "bots": list(body.bots), "skip_board": body.skip_board}
            return json_response(remote.host_game(body.variant, list(body.players), dict(body.options),
                                                  body.dealer, body.client_id, dealt=dealt), 201)
        if body.bots or body.skip_board:
            raise InvalidInput("a remote game with real cards has no bots and no skip_board (those are for "
                               "dealt games: add \"mode\": \"dealt\")", code="remote_unsupported")
        return json_response(remote.host_game(body.variant, list(body.players), dict(body.options), body.dealer,
                                              body.client_id, preset=body.preset), 201)
    if body.mode == "dealt":
        return json_response(table.dealing.create_dealt(body.variant, players=body.players, preset=body.preset,
                                                options=body.options, dealer=body.dealer, bots=body.bots,
                                                skip_board=body.skip_board, client_id=body.client_id).body, 201)
    if body.bots or body.skip_board:
        raise InvalidInput("bots and skip_board are for dealt games: add \"mode\": \"dealt\"", code="invalid_mode")
    return json_response(table.create_game(body.variant, players=body.players, preset=body.preset,
                                           options=body.options, dealer=body.dealer, client_id=body.client_id), 201)


@router.post("/api/v1/games/import", status_code=201, response_model=M.Game, responses=ERRORS, dependencies=_WRITE)
def import_game(table: TableDep,
                data: dict[str, Any] = Body(..., description="a file from GET .../export.json")) -> JSONResponse:
    """Re-create an exported game under a new id (every event re-checked)."""
    cid = data.get("client_id")
    return json_response(table.import_game(data, client_id=cid if isinstance(cid, str) else None), 201)


@router.get("/api/v1/games/{game_id}", response_model=M.Game, responses=ERRORS)
def get_game(game_id: str, table: TableDep) -> JSONResponse:
    return json_response(table.game(game_id))


@router.delete("/api/v1/games/{game_id}", response_model=M.Deleted, responses=HOST_ERRORS,
               dependencies=[Depends(require_host)])
def delete_game(game_id: str, table: TableDep) -> dict[str, Any]:
    """Remove a game from the list (host code); its events stay in the log."""
    out = table.delete_game(game_id)
    return {"deleted": str(out["deleted"])}


@router.post("/api/v1/games/{game_id}/hands", response_model=M.HandResponse, responses=ERRORS)
def score_hand(game_id: str, body: M.HandRequest, table: TableDep, phone: Phone) -> JSONResponse:
    """Score the end of a hand (cards per player, or deadwood numbers). A stale
    ``expected_version`` is 409 ``stale_version``; its details list the ``changes`` since
    (type, hand, and ``by``: the name of the phone that made each)."""
    out = table.score_hand(game_id, hand_input(body), client_id=body.client_id,
                           expected_version=body.expected_version, by=phone.name)
    return json_response(out)


@router.post("/api/v1/games/{game_id}/hands/preview", response_model=M.HandResponse, responses=ERRORS)
def preview_hand(game_id: str, body: M.HandRequest, table: TableDep) -> JSONResponse:
    """Score a hand without writing anything. With a stale ``expected_version`` nothing is
    refused: the answer lists the ``changes`` since (who scored what meanwhile)."""
    return json_response(table.preview_hand(game_id, hand_input(body), expected_version=body.expected_version))


@router.put("/api/v1/games/{game_id}/hands/{n}", response_model=M.HandResponse, responses=ERRORS)
def correct_hand(game_id: str, n: int, body: M.HandRequest, table: TableDep, phone: Phone) -> JSONResponse:
    """Replace hand ``n`` (1-based); the match is re-scored (a finished one too: it may
    become unfinished again)."""
    out = table.correct_hand(game_id, n, hand_input(body), client_id=body.client_id,
                             expected_version=body.expected_version, by=phone.name)
    return json_response(out)


@router.post("/api/v1/games/{game_id}/hands/{n}/preview", response_model=M.HandResponse, responses=ERRORS)
def preview_correction(game_id: str, n: int, body: M.HandRequest, table: TableDep) -> JSONResponse:
    """Score a correction of hand ``n`` without writing anything (a finished match too):
    the result, the match re-scored and the winner's ``breakdown``."""
    return json_response(table.preview_correction(game_id, n, hand_input(body), expected_version=body.expected_version))


@router.post("/api/v1/games/{game_id}/actions", response_model=M.ActionResponse, responses=ERRORS)
def action(game_id: str, body: M.ActionRequest, table: TableDep,
           rec: TokenRecord = Depends(require_token)) -> JSONResponse:
    """A Gin-Go action at a real table (see the action schema in companion.games.gingo.rules), or in
    a dealt game the caller's seat's action: one object from ``legal_actions`` of GET .../view."""
    if table.dealing.is_dealt(game_id):
        return json_response(table.dealing.play(game_id, rec.id, body.action, client_id=body.client_id,
                                        expected_version=body.expected_version))
    return json_response(table.action(game_id, body.action, client_id=body.client_id,
                                      expected_version=body.expected_version))


@router.post("/api/v1/games/{game_id}/undo", response_model=M.UndoResponse, responses=ERRORS)
def undo(game_id: str, table: TableDep, phone: Phone, body: M.UndoRequest | None = None) -> JSONResponse:
    """Undo the latest event still standing (itself an event); the game's ``undo`` says
    what that is."""
    b = body or M.UndoRequest(client_id=None)
    return json_response(table.undo(game_id, client_id=b.client_id, expected_version=b.expected_version,
                                    by=phone.name))


@router.post("/api/v1/games/{game_id}/redo", response_model=M.RedoResponse, responses=ERRORS)
def redo(game_id: str, table: TableDep, phone: Phone, body: M.UndoRequest | None = None) -> JSONResponse:
    """Bring back the latest event undone (itself an event, so nothing is lost), until a
    new entry is made; the game's ``redo`` says what that is (null: nothing to redo)."""
    b = body or M.UndoRequest(client_id=None)
    return json_response(table.redo(game_id, client_id=b.client_id, expected_version=b.expected_version,
                                    by=phone.name))


@router.post("/api/v1/games/{game_id}/rematch", status_code=201, response_model=M.Game, responses=ERRORS,
             dependencies=_WRITE)
def rematch(game_id: str, table: TableDep, body: M.WriteRequest | None = None) -> JSONResponse:
    """A new game with the same rules and players; the deal moves on one seat."""
    return json_response(table.rematch(game_id, client_id=(body or M.WriteRequest(client_id=None)).client_id), 201)


@router.get("/api/v1/games/{game_id}/events", response_model=M.EventList, responses=ERRORS)
def events(game_id: str, table: TableDep,
           after: int = Query(0, ge=0, le=MAX_SEQ, description="only events with a larger seq")) -> dict[str, Any]:
    return {"events": table.events(game_id, after=after)}


@router.get("/api/v1/games/{game_id}/export.json", responses=ERRORS)
def export_json(game_id: str, table: TableDep) -> JSONResponse:
    data = table.export(game_id)
    return JsonResponse(data, headers={"Content-Disposition": f'attachment; filename="gingo-{game_id}.json"'})


_CSV: dict[int | str, dict[str, Any]] = {200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "the score sheet"}}


@router.get("/api/v1/games/{game_id}/export.csv", responses={**JSON_ERRORS, **_CSV}, response_class=PlainTextResponse)
def export_csv(game_id: str, table: TableDep) -> PlainTextResponse:
    return PlainTextResponse(score_sheet_csv(table.game(game_id)), media_type="text/csv",
                             headers={"Content-Disposition": f'attachment; filename="gingo-{game_id}.csv"'})
