"""Rule helpers over HTTP that store nothing: the flip for the first deal and team play
for Gin Rummy (the pagat partnership and seed 004's outing). Each answer is computed
from the body alone, so the phone can call them as often as it likes; no token is
needed. A refusal is 422 with the rule named (``invalid_first_dealer``,
``invalid_team_entry``). Documented in ``docs/api.md``.
"""


from typing import Any, Literal, Optional

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from companion.api.routes import ERRORS, json_response
from companion.errors import CompanionError, IllegalAction
from companion.games import team_game
from companion.rules import gin, outing, teams
from companion.rules.base import HandResult
from companion.rules.first_dealer import first_dealer_from_flips

Card = str


class FirstDealerRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: int = Field(2, description="how many players flipped (2 to 8)")
    rule: Literal["flip_high_chooses", "flip_low_deals"] = "flip_high_chooses"
    flips: list[list[Card]] = Field(..., max_length=30, description=(
        "round by round: round 1 one card per player in seat order, each later round one "
        "card per player still tied"))
    choice: Optional[Literal["deal", "pass"]] = Field(None, description=(
        "flip_high_chooses: the winner deals ('deal') or not ('pass'); null: not chosen yet"))


class PairGame(BaseModel):
    """One pair game's end, entered as at the table: the cards or the deadwood."""

    model_config = ConfigDict(extra="forbid")
    ender: Optional[int] = Field(..., description="seat 0 or 1 of this pair game; null: the stock ran down")
    hands: Optional[list[list[Card]]] = None
    deadwood: Optional[list[int]] = None
    declared: Optional[list[list[Card]]] = Field(None, max_length=10)
    big_gin: bool = False


class PartnershipRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: list[str] = Field(..., description="four names: seats 0 and 2 are team A, 1 and 3 team B")
    preset: Optional[str] = None
    options: dict[str, Any] = Field(default_factory=dict)
    hands: list[list[PairGame]] = Field(default_factory=list, max_length=200, description=(
        "each hand: the two pair games entered together, seat 0 v seat 1 then seat 2 v seat 3"))


class OutingMatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hands: list[PairGame] = Field(default_factory=list, max_length=200)


class OutingRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: list[str] = Field(..., max_length=64)
    sides: Optional[list[int]] = Field(None, description="0 or 1 per player, equal sides")
    preset: Optional[str] = None
    options: dict[str, Any] = Field(default_factory=dict)
    matches: list[OutingMatch] = Field(default_factory=list, max_length=500, description=(
        "the pair matches in the order the outing made them (round 1 first)"))
    elapsed_minutes: Optional[float] = Field(None, ge=0, description="how long the outing has run")


def _options(preset: Optional[str], overrides: dict[str, Any], team: str, players: int) -> gin.Options:
    """The options of the game played by teams as ``team`` (its Variant sets its team mode)."""
    opts: gin.Options = team_game(team).team_options(team, preset, overrides, players)
    return opts


def _pair_result(entry: PairGame, opts: gin.Options, where: str) -> HandResult:
    try:
        if (entry.hands is None) == (entry.deadwood is None):
            raise IllegalAction('give either "hands" (both players\' cards) or "deadwood" (two numbers)')
        if entry.hands is not None:
            return gin.score_hand(entry.hands, entry.ender, options=opts, declared=entry.declared)
        if entry.declared is not None:
            raise IllegalAction('"declared" goes with "hands"')
        assert entry.deadwood is not None
        return gin.score_from_deadwood(entry.deadwood, entry.ender, options=opts, big_gin=entry.big_gin)
    except CompanionError as exc:
        raise IllegalAction(f"{where}: {exc}") from None


def _refuse(code: str, exc: CompanionError) -> IllegalAction:
    return IllegalAction(str(exc), code=code, details=dict(getattr(exc, "details", None) or {}))


class FirstDealerAnswer(BaseModel):
    rule: str
    rounds: list[list[dict[str, Any]]]
    winner: int
    dealer: Optional[int]


class PartnershipAnswer(BaseModel):
    team_mode: str
    teams: list[dict[str, Any]]
    hands: list[dict[str, Any]]
    match: dict[str, Any]
    team_target: int


class OutingAnswer(BaseModel):
    round: int
    players: list[dict[str, Any]]
    sides: list[dict[str, Any]]
    leading_side: Optional[int]
    matches: list[dict[str, Any]]
    over: bool
    ended_by: Optional[str]
    round_finished: bool
    next_round: Optional[list[list[str]]]


def partnership(body: PartnershipRequest) -> dict[str, Any]:
    opts = _options(body.preset, body.options, "partnership", teams.PARTNERSHIP_PLAYERS)
    teams.check_partnership_seats(len(body.players), opts)
    hands = []
    for i, pair in enumerate(body.hands):
        if len(pair) != 2:
            raise IllegalAction(f"team_mode pagat_partnership: hand {i + 1} needs both pair games "
                             f"(seat 0 v 1 and seat 2 v 3) entered together, got {len(pair)}")
        t1 = _pair_result(pair[0], opts, f"hand {i + 1}, seats 0 v 1")
        t2 = _pair_result(pair[1], opts, f"hand {i + 1}, seats 2 v 3")
        hands.append(teams.partnership_hand(t1, t2))
    score = teams.score_partnership(hands, opts)
    names = body.players
    return {
        "team_mode": opts.team_mode,
        "teams": [{"team": t, "seats": list(seats), "players": [names[s] for s in seats]}
                  for t, seats in enumerate(teams.TEAMS)],
        "hands": [h.as_dict() for h in hands],
        "match": score.as_dict(),
        "team_target": opts.team_target,
    }


def replay_outing(body: OutingRequest) -> dict[str, Any]:
    opts = _options(body.preset, body.options, "outing", 2)
    o = outing.new_outing(body.players, body.sides, opts)
    for i, m in enumerate(body.matches):
        while i >= len(o.matches):
            o = outing.next_round(o)
        for k, entry in enumerate(m.hands):
            o = outing.record_hand(o, i, _pair_result(entry, opts, f"match {i}, hand {k + 1}"))
    table = outing.standings(o, body.elapsed_minutes)
    current = [i for i, m in enumerate(o.matches) if m.round == o.round]
    table["round_finished"] = all(outing.match_score(o, i).finished for i in current)
    table["next_round"] = None
    if table["round_finished"] and not table["over"]:
        nxt = outing.next_round(o, body.elapsed_minutes)
        table["next_round"] = [[nxt.players[p] for p in m.players]
                               for m in nxt.matches[len(o.matches):]]
    return table


router = APIRouter(tags=["rules"])


@router.post("/api/v1/rules/first-dealer", response_model=FirstDealerAnswer, responses=ERRORS)
def first_dealer(body: FirstDealerRequest) -> JSONResponse:
    """Who deals first from what each player flipped (seed 004: the highest chooses
    to deal or not, a tie flips again)."""
    try:
        fd = first_dealer_from_flips(body.flips, body.players, body.rule, body.choice)
    except CompanionError as exc:
        raise _refuse("invalid_first_dealer", exc) from None
    return json_response(fd.as_dict())


@router.post("/api/v1/teams/partnership", response_model=PartnershipAnswer, responses=ERRORS)
def partnership_score(body: PartnershipRequest) -> JSONResponse:
    """The pagat partnership's team score from every hand's two pair games."""
    try:
        return json_response(partnership(body))
    except CompanionError as exc:
        raise _refuse("invalid_team_entry", exc) from None


@router.post("/api/v1/teams/outing", response_model=OutingAnswer, responses=ERRORS)
def outing_standings(body: OutingRequest) -> JSONResponse:
    """Seed 004's outing: standings per player and side, and the next round's pairs."""
    try:
        return json_response(replay_outing(body))
    except CompanionError as exc:
        raise _refuse("invalid_team_entry", exc) from None


__all__ = ["router", "partnership", "replay_outing"]
