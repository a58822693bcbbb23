"""Seed 004's outing as a kept record (``/api/v1/outings...``): create one (its first
round's pair matches are created as ordinary gin games), read it with its standings,
pair the next round. Each pair match's hands go to its game (``POST
/api/v1/games/{id}/hands``), like any game's. Documented in ``docs/api.md``."""

from __future__ import annotations

from typing import Annotated, Any, Optional

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from companion.api.auth import require_token
from companion.api.deps import TableDep
from companion.api.models import ClientId, PlayerName, _not_bool
from companion.api.routes import ERRORS, json_response
from companion.table.outings import outings_of

router = APIRouter(tags=["outings"])
_WRITE = [Depends(require_token)]


class CreateOuting(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: list[PlayerName] = Field(min_length=2, max_length=64, description="an even number of names")
    sides: Optional[list[Annotated[int, Field(ge=0, le=1)]]] = Field(
        None, max_length=64, description="0 or 1 per player, as many of each (null: the first half is side 0); "
        "round 1 pairs side 0's players in order with side 1's")
    preset: Optional[str] = Field(None, max_length=40, description="the Gin Rummy preset every pair match uses")
    options: dict[str, Any] = Field(default_factory=dict, description=(
        "Gin Rummy options for every pair match, and the outing's own: outing_target (a side's total that "
        "ends the outing, 0: none) and outing_minutes (0: no time limit)"))
    client_id: ClientId = Field(None, max_length=100)

    _no_bools = field_validator('sides', mode="before")(_not_bool)


class NextRound(BaseModel):
    model_config = ConfigDict(extra="forbid")
    expected_round: Optional[int] = Field(None, ge=0, le=10_000, description=(
        "the round the phone shows; another round meanwhile: 409 stale_version"))
    client_id: ClientId = Field(None, max_length=100)

    _no_bools = field_validator('expected_round', mode="before")(_not_bool)


class OutingView(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    names: list[str] = Field(description="the players, in the order they were given")
    sides_of: list[int] = Field(description="each player's side (0 or 1), in the order of names")
    round: int
    rounds: list[list[str]] = Field(description="the game ids of each round's pair matches")
    players: list[dict[str, Any]] = Field(description="standings: name, side, total, matches_won, matches_played, "
                                          "highest total first")
    sides: list[dict[str, Any]] = Field(description="each side's total")
    leading_side: Optional[int]
    matches: list[dict[str, Any]] = Field(description="every pair match: round, players, game, hands, finished, "
                                          "winner, score")
    over: bool
    ended_by: Optional[str] = Field(description="target, time, or null while the outing goes on")
    round_finished: bool
    next_round: Optional[list[list[str]]] = Field(description="once the round has ended: the next round's pairs")


class OutingList(BaseModel):
    outings: list[dict[str, Any]]


@router.post("/api/v1/outings", status_code=201, response_model=OutingView, responses=ERRORS, dependencies=_WRITE)
def create_outing(body: CreateOuting, table: TableDep) -> JSONResponse:
    """Start an outing: its players in two equal sides and round 1's pair matches (each an
    ordinary gin game, created now and linked to the outing)."""
    out = outings_of(table).create(body.players, body.sides, preset=body.preset, options=body.options,
                                   client_id=body.client_id)
    return json_response(out, 201)


@router.get("/api/v1/outings", response_model=OutingList)
def list_outings(table: TableDep) -> JSONResponse:
    """Every outing, oldest first: round, side totals, over or not."""
    return json_response({"outings": outings_of(table).lines()})


@router.get("/api/v1/outings/{outing_id}", response_model=OutingView, responses=ERRORS)
def get_outing(outing_id: str, table: TableDep) -> JSONResponse:
    """The outing with its standings per player and per side, folded from its games."""
    return json_response(outings_of(table).view(outing_id))


@router.post("/api/v1/outings/{outing_id}/rounds", status_code=201, response_model=OutingView, responses=ERRORS,
             dependencies=_WRITE)
def next_round(outing_id: str, table: TableDep, body: NextRound | None = None) -> JSONResponse:
    """Pair the next round once every match of this one has ended: winners play winners,
    losers play losers (the API also does this itself when the hand that ends a round is
    entered)."""
    b = body or NextRound(expected_round=None, client_id=None)
    return json_response(outings_of(table).next_round(outing_id, expected_round=b.expected_round,
                                                      client_id=b.client_id), 201)


__all__ = ["router"]
