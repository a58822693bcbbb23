"""Dealt games, one seat at a time: claim a seat, free one (host), a seat's own view and a
hint for its turn (``/api/v1/games/{id}/seats/{n}``, ``/api/v1/games/{id}/view`` and
``/api/v1/games/{id}/hint``). A seat's actions go
to ``POST /api/v1/games/{id}/actions`` (:mod:`companion.api.routes.games`)."""


from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from companion.api import models as M
from companion.api.auth import bearer, require_host, require_token
from companion.api.deps import PairingDep, TableDep
from companion.api.routes import ERRORS, HOST_ERRORS, json_response
from companion.store import TokenRecord

router = APIRouter(tags=["play"])


@router.post("/api/v1/games/{game_id}/seats/{n}", response_model=M.SeatView, responses=ERRORS)
def claim_seat(game_id: str, n: int, table: TableDep, rec: TokenRecord = Depends(require_token)) -> JSONResponse:
    """Take seat ``n`` of a dealt game for this phone's token (409 when a bot or another phone
    holds it); answers the seat's view, cards included."""
    return json_response(table.dealing.claim_seat(game_id, n, rec.id))


@router.delete("/api/v1/games/{game_id}/seats/{n}", response_model=M.Game, responses=HOST_ERRORS,
               dependencies=[Depends(require_host)])
def free_seat(game_id: str, n: int, table: TableDep) -> JSONResponse:
    """The host frees seat ``n`` (a phone that left); another phone may claim it."""
    return json_response(table.dealing.free_seat(game_id, n))


@router.get("/api/v1/games/{game_id}/view", response_model=M.SeatView, responses=ERRORS)
def view(game_id: str, request: Request, table: TableDep, pairing: PairingDep) -> JSONResponse:
    """The caller's own view of a dealt game: ``seat`` (null without one), ``hand`` (the
    caller's cards, empty without a seat), ``legal_actions``, ``public``, ``version`` and
    ``finished``. Without a token (or with one that holds no seat) only the public part."""
    token = bearer(request)
    rec = pairing.check(token) if token is not None else None
    return json_response(table.dealing.view(game_id, rec.id if rec is not None else None))


@router.get("/api/v1/games/{game_id}/hint", response_model=M.Hint, responses=ERRORS)
def hint(game_id: str, table: TableDep, rec: TokenRecord = Depends(require_token)) -> JSONResponse:
    """A hint for the caller's own seat on its turn: the strong bot's choice (``action``, one
    of ``legal_actions``) and a short reason in words (``text``), chosen from what the seat
    may know only. Each hint is counted in the game's record (``dealt.hints``, per seat);
    409 ``not_your_turn`` when it is not the caller's turn, 422 ``no_seat`` without a seat."""
    return json_response(table.dealing.hint(game_id, rec.id))
