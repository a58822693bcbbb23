"""Seed 004's outing as a kept record (``/api/v1/outings...``): create one (its first
round's pair matches are created as ordinary gin games), read it with its standings,
pair the next round, end it, undo its last step, delete it, export it with its games and
import it again. Each pair match's hands go to its game (``POST
/api/v1/games/{id}/hands``), like any game's. Documented in ``docs/api.md``."""


from typing import Annotated, Any, Literal, Optional

from fastapi import APIRouter, Body, Depends, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from companion.api.auth import require_host, require_token
from companion.api.deps import TableDep
from companion.api.models import ClientId, PlayerName, Version, _not_bool
from companion.api.responses import JsonResponse
from companion.api.routes import ERRORS, HOST_ERRORS, json_response
from companion.store import TokenRecord
from companion.table.outings import outings_of

router = APIRouter(tags=["outings"])
_WRITE = [Depends(require_token)]
#: the paired phone that writes (its name goes with the step)
Phone = Annotated[TokenRecord, Depends(require_token)]


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
    expected_version: Optional[Version] = Field(None, description="the outing's version the phone shows; "
                                                "another meanwhile: 409 stale_version")
    client_id: ClientId = Field(None, max_length=100)

    _no_bools = field_validator('expected_round', 'expected_version', mode="before")(_not_bool)


class OutingWrite(BaseModel):
    model_config = ConfigDict(extra="forbid")
    expected_version: Optional[Version] = Field(None, description="the outing's version the phone shows; "
                                                "another meanwhile: 409 stale_version")
    client_id: ClientId = Field(None, max_length=100)

    _no_bools = field_validator('expected_version', mode="before")(_not_bool)


class OutingView(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    version: int = Field(description="the number of the outing's steps (creation, rounds paired, end, undo)")
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
    ended: Optional[dict[str, Any]] = Field(description="the outing's end as written: ended_by (target, time or "
                                            "host), auto, by, time; null while it goes on")
    undo: Optional[dict[str, Any]] = Field(description="the step an undo would undo (seq, type, what); null: "
                                           "nothing to undo")


class OutingUndone(BaseModel):
    undone: Optional[dict[str, Any]] = Field(description="the step undone (seq, type, what, games_deleted); null "
                                             "for a retried client_id")
    outing: OutingView


class OutingDeleted(BaseModel):
    deleted: str
    games_deleted: list[str]
    games_kept: list[str]


class OutingSteps(BaseModel):
    steps: list[dict[str, Any]]


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


@router.post("/api/v1/outings/{outing_id}/rounds", status_code=201, response_model=OutingView, responses=ERRORS)
def next_round(outing_id: str, table: TableDep, phone: Phone, body: NextRound | None = None) -> JSONResponse:
    """Pair the next round once every match of this one has ended: winners play winners,
    losers play losers (the companion also does this itself when the last match of a
    round ends, however it ends: a hand, a correction, an undo, an import)."""
    b = body or NextRound(expected_round=None, expected_version=None, client_id=None)
    return json_response(outings_of(table).next_round(outing_id, expected_round=b.expected_round,
                                                      expected_version=b.expected_version,
                                                      client_id=b.client_id, by=phone.name), 201)


@router.post("/api/v1/outings/{outing_id}/undo", response_model=OutingUndone, responses=ERRORS)
def undo_step(outing_id: str, table: TableDep, phone: Phone, body: OutingWrite | None = None) -> JSONResponse:
    """Undo the outing's last step still standing: a round paired (its games, with no
    hands yet, are deleted; 409 ``outing_round_played`` once a hand is entered) or its
    end. Its start cannot be undone (409 ``nothing_to_undo``): delete the outing."""
    b = body or OutingWrite(expected_version=None, client_id=None)
    return json_response(outings_of(table).undo(outing_id, expected_version=b.expected_version,
                                                client_id=b.client_id, by=phone.name))


@router.post("/api/v1/outings/{outing_id}/end", response_model=OutingView, responses=ERRORS)
def end_outing(outing_id: str, table: TableDep, phone: Phone, body: OutingWrite | None = None) -> JSONResponse:
    """End the outing now (the host calls time): no round is paired after; undo brings
    it back."""
    b = body or OutingWrite(expected_version=None, client_id=None)
    return json_response(outings_of(table).end(outing_id, expected_version=b.expected_version,
                                               client_id=b.client_id, by=phone.name))


@router.delete("/api/v1/outings/{outing_id}", response_model=OutingDeleted, responses=HOST_ERRORS,
               dependencies=[Depends(require_host)])
def delete_outing(outing_id: str, table: TableDep,
                  games: Optional[Literal["keep", "delete"]] = Query(None, description=(
                      "delete: its games go too; keep: they stay as ordinary games; left out: refused with 409 "
                      "outing_has_games if a hand was entered in any of them (its empty games go with it)")),
                  client_id: Optional[str] = Query(None, max_length=100)) -> JSONResponse:
    """Delete the outing (host code); its steps stay in the log."""
    return json_response(outings_of(table).delete(outing_id, games=games, client_id=client_id))


@router.get("/api/v1/outings/{outing_id}/steps", response_model=OutingSteps, responses=ERRORS)
def outing_steps(outing_id: str, table: TableDep) -> JSONResponse:
    """The outing's stored steps, oldest first."""
    return json_response({"steps": outings_of(table).steps(outing_id)})


@router.get("/api/v1/outings/{outing_id}/export.json", responses=ERRORS)
def export_outing(outing_id: str, table: TableDep) -> JSONResponse:
    """The outing with every game of its rounds, in one file (``POST .../import`` takes it)."""
    data = outings_of(table).export(outing_id)
    return JsonResponse(data, headers={"Content-Disposition": f'attachment; filename="gingo-{outing_id}.json"'})


@router.post("/api/v1/outings/import", status_code=201, response_model=OutingView, responses=ERRORS,
             dependencies=_WRITE)
def import_outing(table: TableDep, data: dict[str, Any] = Body(..., description="a file from GET "
                                                                  ".../outings/{id}/export.json")) -> JSONResponse:
    """Re-create an exported outing and its games under new ids, linked again; the whole
    file is checked first (400 ``invalid_import`` names what does not fit, nothing written)."""
    cid = data.get("client_id")
    return json_response(outings_of(table).import_outing(data, client_id=cid if isinstance(cid, str) else None), 201)


__all__ = ["router"]
