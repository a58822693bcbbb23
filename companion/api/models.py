"""The request and response bodies of API contract v1 (pydantic models).

Requests are strict about their own fields (unknown fields are refused, so a typo is
an error rather than silently ignored); game bodies are open (``extra="allow"``)
because each variant adds its own fields.
"""


from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator

ClientId = Optional[str]
#: The limits the table enforces, here so that the OpenAPI schema shows them too.
PlayerName = Annotated[str, Field(min_length=1, max_length=40)]
Card = Annotated[str, Field(min_length=1, max_length=8, description='a card as typed: "10H", "TH", "♥10", "JK1"')]
Deadwood = Annotated[int, Field(ge=0, le=500)]
Version = Annotated[int, Field(ge=0, le=2**53 - 1)]


def _not_bool(value: Any) -> Any:
    """A number is a JSON number: true/false is not (pydantic would read true as seat 1),
    nor is text ("0" would be read as 0). 2.0 is 2, as JSON Schema says."""
    items = value if isinstance(value, list) else [value]
    for i, v in enumerate(items):
        where = f" (item {i})" if isinstance(value, list) else ""
        if isinstance(v, bool):
            raise ValueError(f"expected whole numbers, not true/false{where}")
        if isinstance(v, str):
            raise ValueError(f"expected a number, not the text {v[:20]!r}{where}")
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorDetail(BaseModel):
    code: str = Field(description="a short machine word, e.g. not_found, stale_version")
    message: str = Field(description="what is wrong, in words a player understands")
    details: dict[str, Any] = Field(default_factory=dict, description="what a program needs to act on the "
                                    "error (e.g. a chip shortfall's side, supply, need and cards); see "
                                    "companion.errors")


class ErrorBody(BaseModel):
    error: ErrorDetail


class Health(BaseModel):
    status: str
    version: str
    leds: str
    sensors: str
    seq: int
    warnings: list[str] = []
    calibration: Optional[str] = Field(None, description="what the sensors classify with: the calibration "
                                       "file (and when it was made) or the default thresholds")
    storage: Optional[dict[str, Any]] = Field(None, description="the event log: events, acknowledged count, "
                                              "incidents (a missing, empty or shortened log), damaged games")
    mqtt: str = Field("off", description="Home Assistant over MQTT: off (not configured), online or offline "
                      "(the broker cannot be reached; the companion keeps trying)")
    remote: str = Field("off", description="remote play's broker: off (not configured), online or offline")


class PairRequest(_Strict):
    code: str = Field(max_length=64, description="the pairing code printed at start-up")
    name: str = Field("phone", max_length=60, description="a name for this phone, shown in the token list")


class PairResponse(BaseModel):
    token: str
    id: str
    name: str


class PairCode(BaseModel):
    code: Optional[str] = Field(description="the pairing code to show a new phone (null once it has expired)")
    valid: bool = Field(description="false once the code's window is over")
    expires_in: int = Field(ge=0, description="seconds the code is still good for")
    window: int = Field(ge=0, description="how long each new code is good for, in seconds")


class CreateGame(_Strict):
    variant: str = Field(description="gin | color_gin | ginski | gingo", max_length=20)
    preset: Optional[str] = Field(None, max_length=40)
    players: list[PlayerName] = Field(min_length=2, max_length=4)
    options: dict[str, Any] = Field(default_factory=dict)
    dealer: int = Field(0, ge=0, le=3)
    client_id: ClientId = Field(None, max_length=100)
    mode: Literal["tracked", "dealt"] = Field("tracked", description="tracked: the cards are real and the table "
                                              "enters what happens; dealt: the companion shuffles, deals and holds "
                                              "every hand (each player sees their own on a phone)")
    bots: list[int] = Field(default_factory=list, max_length=4, description="dealt games: the seats a bot plays")
    skip_board: bool = Field(False, strict=True, description="dealt Gin-Go: play on phones only, without waiting "
                             "for the board's chips")
    remote: bool = Field(False, strict=True, description="a remote game (needs [remote] in the config): another "
                         "board joins it with the answer's remote.invite (POST /api/v1/remote/join); this board "
                         "stays its only writer. Gin-Go table tracking, or any variant dealt (this board holds the hands)")

    _no_bools = field_validator('dealer', 'bots', mode="before")(_not_bool)


class Game(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    variant: str
    version: int
    players: list[str]
    scores: Any = None
    hands: list[Any] = []
    finished: bool = False
    winner: Any = None


class JoinRemote(_Strict):
    invite: str = Field(max_length=400, description="the invite code from the host board's remote.invite")


class RemoteInvite(BaseModel):
    invite: str = Field(description="the invite code (gingo1-...): the game's id and the right to join it")
    role: str = Field(description="host: only the host board gives its game's invite")
    board: Optional[str] = Field(None, description="this board's id")
    peer: Optional[str] = Field(None, description="the board that joined (null: none yet)")
    peer_online: bool = False
    broker: str = Field("offline", description="online or offline: the link to the remote broker")


class RemoteList(BaseModel):
    status: str = Field(description="off (no [remote] config), online or offline: the link to the remote broker")
    board: Optional[str] = Field(None, description="this board's id")
    games: list[dict[str, Any]] = Field(description="each remote game: id, finished, role (host or guest), peer "
                                        "(the other board's id), peer_online")


class GameList(BaseModel):
    games: list[Game]
    total: Optional[int] = None
    next_before: Optional[str] = None


class PairTable(_Strict):
    """One pair game of a partnership hand, entered as at that table."""

    seats: Optional[list[Annotated[int, Field(ge=0, le=3)]]] = Field(
        None, max_length=4, description="the two seats at this table: [0, 1] for table 1, [2, 3] for table 2 "
        "(optional; a wrong pair is refused)")
    ender: Optional[int] = Field(ge=0, le=3, description="the seat (of the game, one of this table's two) "
                                 "that knocked or went gin; null: the stock ran down")
    hands: Optional[list[Annotated[list[Card], Field(max_length=20)]]] = Field(
        None, max_length=4, description="the two players' cards, the table's first seat first")
    deadwood: Optional[list[Deadwood]] = Field(None, max_length=4, description="quick entry: the two deadwood counts")
    declared: Optional[list[Annotated[list[Card], Field(max_length=20)]]] = Field(
        None, max_length=10, description="the ender's declared melds")
    big_gin: bool = Field(False, strict=True, description="with deadwood: the ender melded all 11 cards")
    upcard: Optional[str] = Field(None, max_length=8, description="Oklahoma gin: this table's upcard")
    dealer: Optional[int] = Field(None, ge=0, le=3, description="the seat that dealt this table (one of its two; "
                                  "optional: the game's table_dealers says who deals by the rules, this names "
                                  "another, e.g. after the flip for the first deal)")

    _no_bools = field_validator('ender', 'seats', 'deadwood', 'dealer', mode="before")(_not_bool)


class HandRequest(_Strict):
    ender: Optional[int] = Field(ge=0, le=3, description="seat index of the player who ended the hand "
                                 "(null: the stock ran out, a void hand; a partnership hand sends null and "
                                 "each table's ender in \"tables\")")
    hands: Optional[list[Annotated[list[Card], Field(max_length=20)]]] = Field(
        None, max_length=4, description="each player's cards in seat order (the ender's 11 for a big gin, else 10)"
    )
    deadwood: Optional[list[Deadwood]] = Field(None, max_length=4, description="quick entry: deadwood per seat")
    declared: Optional[list[Annotated[list[Card], Field(max_length=20)]]] = Field(
        None, max_length=10, description="The ender's declared melds (Gin Rummy, Color Gin, Ginski), each a list of "
        "card names; the rest of the ender's hand is deadwood")
    joker: bool = Field(False, strict=True, description="Color Gin co-op jokers: the ender drew a joker")
    big_gin: bool = Field(False, strict=True, description="with deadwood: the ender melded all 11 cards (big gin)")
    upcard: Optional[str] = Field(None, max_length=8, description="Oklahoma gin: this hand's upcard")
    tables: Optional[list[PairTable]] = Field(
        None, max_length=4, description="a partnership hand (Gin Rummy, team_mode pagat_partnership): both pair "
        "games together, table 1 seat 0 v seat 1, table 2 seat 2 v seat 3")
    client_id: ClientId = Field(None, max_length=100)
    expected_version: Optional[Version] = None

    _no_bools = field_validator('ender', 'deadwood', 'expected_version', mode="before")(_not_bool)


class HandResponse(BaseModel):
    result: dict[str, Any]
    game: Game
    preview: bool = False
    breakdown: Optional[dict[str, Any]] = Field(None, description="previews: the winner's points in parts "
                                                "(seat, parts [{label, points}], total, times, per_suit)")
    changes: Optional[list[dict[str, Any]]] = Field(None, description="previews with a stale expected_version: "
                                                    "what changed since (seq, type, hand, by)")
    version: Optional[int] = Field(None, description="previews with a stale expected_version: the game's version now")
    arrangements: Optional[list[dict[str, Any]]] = Field(
        None, description="previews with cards: the ender's arrangements that tie on the least deadwood "
        "(melds, deadwood, deadwood_value), when there are two or more; send one as \"declared\" to use it")
    table_breakdowns: Optional[list[Optional[dict[str, Any]]]] = Field(
        None, description="partnership previews: each table's breakdown (its seats 0 and 1 are the table's two)")
    table_arrangements: Optional[list[Optional[list[dict[str, Any]]]]] = Field(
        None, description="partnership previews with cards: per table, the ender's tied arrangements (or null)")


class ActionRequest(_Strict):
    action: dict[str, Any] = Field(description="a Gin-Go action, see companion.games.gingo.rules: \"type\", "
                                   "\"seat\" (a whole number), \"cards\" (a list of cards), ...")
    client_id: ClientId = Field(None, max_length=100)
    expected_version: Optional[Version] = None

    _no_bools = field_validator('expected_version', mode="before")(_not_bool)

    @field_validator("action")
    @classmethod
    def _action_shape(cls, action: dict[str, Any]) -> dict[str, Any]:
        """The JSON types of an action's common fields (the engine checks the rest)."""
        if not isinstance(action.get("type"), str):
            raise ValueError('an action needs "type": "setup", "meld", "hit", "go_out", ...')
        for key in ("seat", "meld", "dealer"):
            if key == "meld" and action.get("type") == "take" and isinstance(action.get("meld"), dict):
                continue  # full play's dig: the meld the dug card goes into, as an object
            if key in action and (isinstance(action[key], bool) or not isinstance(action[key], int)):
                raise ValueError(f'"{key}" must be a whole number, got {action[key]!r}')
        cards = action.get("cards")
        if "cards" in action and not (isinstance(cards, list) and all(isinstance(c, str) for c in cards)):
            raise ValueError('"cards" must be a list of cards such as ["3S", "4S", "5S"], '
                             f"not {type(cards).__name__ if not isinstance(cards, str) else 'one string'}")
        return action


class ActionResponse(BaseModel):
    events: list[dict[str, Any]]
    game: Game
    view: Optional[dict[str, Any]] = Field(None, description="dealt games: the caller's view after the action "
                                           "(and after the bots' moves)")


class SeatView(BaseModel):
    """A dealt game as one seat sees it."""

    model_config = ConfigDict(extra="allow")
    seat: Optional[int] = Field(description="the caller's seat, null without one")
    hand: list[str] = Field(description="the caller's cards (empty without a seat)")
    legal_actions: list[dict[str, Any]] = Field(description="what the caller may do now: post one of these, as "
                                                "given, to POST .../actions")
    public: dict[str, Any] = Field(description="what every player sees: turn, stock size, discard pile, card counts; "
                                   "'recent' (the latest moves in public form: a draw from the stock names no "
                                   "card), 'hands_over' and 'last_hand' (the summary of the hand that ended last: "
                                   "every hand face up, the points in parts, the match after it)")
    drawn: Optional[str] = Field(None, description="the card the caller has just drawn from the stock (null when "
                                 "none): the Play screen marks it")
    endings: dict[str, str] = Field(default_factory=dict, description="on the caller's turn, how each knock "
                                    "ends the hand, by the card it discards: 'gin' or 'knock'")
    version: int
    finished: bool
    waiting_for_board: Optional[dict[str, Any]] = Field(
        None, description="dealt Gin-Go on the board: the spaces the next turn waits for (pending, bumps, "
        "unexpected, each named) and a message saying what to do; null when nothing waits")


class Hint(BaseModel):
    """The strong bot's choice for the caller's seat on its turn, and why."""

    model_config = ConfigDict(extra="allow")
    seat: int = Field(description="the caller's seat")
    action: dict[str, Any] = Field(description="the action the strong bot would take, as in legal_actions")
    text: str = Field(description="the action and a short reason in words, from what the seat knows only")
    hints_used: int = Field(description="hints this seat has asked for in this game (counted in its record)")
    version: int = Field(description="the game's version after the hint was counted")


class UndoRequest(_Strict):
    client_id: ClientId = Field(None, max_length=100)
    expected_version: Optional[Version] = None

    _no_bools = field_validator('expected_version', mode="before")(_not_bool)


class UndoResponse(BaseModel):
    undone: dict[str, Any]
    game: Game


class RedoResponse(BaseModel):
    redone: dict[str, Any]
    game: Game


class WriteRequest(_Strict):
    client_id: ClientId = Field(None, max_length=100)


class EventList(BaseModel):
    events: list[dict[str, Any]]


class VariantList(BaseModel):
    model_config = ConfigDict(extra="allow")
    variants: list[dict[str, Any]] = Field(description="every installed variant: presets, options, seats")
    unavailable: list[dict[str, Any]] = Field(default_factory=list, description="variants that cannot load, "
                                              "with the reason")


class LedFrame(BaseModel):
    pixels: list[list[int]] = Field(description="one [r, g, b] per LED of the simulated strip")


class Board(BaseModel):
    model_config = ConfigDict(extra="allow")
    expected: Optional[str]
    sensed: Optional[str]
    mismatches: list[int]
    links: dict[str, Optional[list[int]]]
    link_distance: dict[str, Optional[int]]


class SimPut(_Strict):
    space: int = Field(ge=0, le=51)
    side: Optional[int] = Field(None, ge=1, le=2)

    _no_bools = field_validator('space', 'side', mode="before")(_not_bool)


class TokenInfo(BaseModel):
    id: str
    name: str
    created: float
    last_used: Optional[float] = None


class TokenList(BaseModel):
    tokens: list[TokenInfo]


class Deleted(BaseModel):
    deleted: str


class PlayerLine(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    played: int = Field(description="games sat in, finished or not")
    games: int = Field(description="finished games")
    wins: int
    last_played: float
    variants: list[str]


class PlayerList(BaseModel):
    players: list[PlayerLine]


class HeadToHead(BaseModel):
    opponent: str
    games: int
    wins: int
    losses: int


class VariantStats(BaseModel):
    model_config = ConfigDict(extra="allow")
    variant: str
    games: int
    wins: int
    losses: int
    current_streak: int
    best_streak: int
    hands: int
    hands_won: int
    points: int
    average_hand: Optional[float] = Field(description="points per hand (null: no scored rummy hands)")
    gins: int
    big_gins: int
    undercuts: int
    head_to_head: list[HeadToHead]


class PlayerStats(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    games: int
    wins: int
    losses: int
    played: int
    last_played: float
    variants: list[VariantStats]


class StatsList(BaseModel):
    players: list[PlayerStats]
    games: int = Field(description="games counted (an imported copy of a game still here counts once)")
    finished: int
