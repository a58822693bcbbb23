"""What the table asks of the objects a Variant gives it (:mod:`companion.games.base`),
so that it never asks which game it is: :class:`HandScoring` (a game scored hand by
hand), :class:`ActionTable` (a game entered move by move), :class:`TeamPlay` (a game
played by teams at several tables), :class:`TeamRules` (the outing of pair matches, and
team scores computed from entries alone), and :class:`DealtMove` (one move of a dealt game
as the Variant played it). Each Protocol is what the table calls; a game's package
implements it, usually on its Variant class itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import Field, dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Literal, Protocol

from companion.games.options import OptionSpec
from companion.rules.base import HandResult, MatchScore
from companion.rules.tournament import Outing

PlayStyle = Literal["hands", "actions"]


@dataclass(frozen=True)
class DealtMove:
    """One move of a dealt game as the table records it: the JSON action as played, what
    it did in public (``effects``), the top of the discard pile before it (a draw from
    the pile names it) and the hand it was played in."""

    played: dict[str, Any]
    effects: list[dict[str, Any]]
    top: str | None
    hand: int


#: What a hand entry of a game scored by hands takes, where the game does not say
#: (:meth:`HandScoring.entries` says what differs): ``cards``, each seat's cards;
#: ``deadwood``, each seat's deadwood count instead; ``ender``, who ended the hand (a
#: seat, or nobody: the stock ran out); ``gin``, the one-tap ending with every card melded
#: (the game's ``gin_word``); ``upcard``, the hand's upcard (Oklahoma gin); ``declared``,
#: the ender's own melds; ``joker``, a drawn joker (Color Gin's co-op); ``big_gin``, the
#: ender melded every card without a discard. The phone page shows only what a game takes.
ENTRY_DEFAULTS: Mapping[str, bool] = MappingProxyType({
    "cards": True, "deadwood": False, "ender": True, "gin": False, "upcard": False, "declared": False,
    "joker": False, "big_gin": False})


class GameModel(Protocol):
    """A game's own model as the table holds it (``GameState.engine``): the table game an
    :class:`ActionTable` makes and moves on, or the one a dealt game keeps
    (:meth:`~companion.games.base.Variant.dealt_table`). The table reads nothing of it:
    it hands it back to the Variant that made it (:class:`ActionTable`,
    :meth:`~companion.games.base.Variant.frames`, :meth:`~companion.games.base.Variant.board_wait`,
    :meth:`~companion.games.base.Variant.board_position`), and mypy refuses any field the
    table would read of one. Its one member, the model's own state as JSON, is what a
    game's model always has (and keeps None from passing for a model)."""

    def as_dict(self) -> dict[str, Any]: ...


class GameOptions(Protocol):
    """A game's options as the table holds them (``GameState.options``, made by the
    Variant's :meth:`~companion.games.base.Variant.make_options`): the game's own record,
    a dataclass of its ``options_class``. The table reads none of its fields: it hands
    the record back to the Variant (which reads them) or turns it into plain data
    (:func:`companion.games.options.options_dict`); mypy refuses any field the table
    would read of one."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]


class DealtModel(Protocol):
    """A dealt game's engine as the table holds it (``DealtGame.engine``, made by the
    Variant's :meth:`~companion.games.base.Variant.dealt_play`): the table copies it
    before a move (a refused move leaves the game as it was) and reads its options (the
    bots' level); everything else it asks the Variant's ``dealt_*`` methods."""

    @property
    def options(self) -> Any: ...

    def clone(self) -> DealtModel: ...


class HandScoring(Protocol):
    """What the table asks of a game scored by hands (``play_style == "hands"``): the
    entries a hand takes, a hand's result, and the match folded one hand at a time. A
    Variant gives it by :meth:`Variant.hand_scoring`; the table never asks which game it is."""

    @property
    def name(self) -> str: ...

    @property
    def context_scoring(self) -> bool: ...

    def option_specs(self) -> tuple[OptionSpec, ...]: ...

    def entries(self, options: Any) -> dict[str, bool]: ...

    def score_hand(self, hands: Sequence[Any], ender: int | None, options: Any, *,
                   prior: Sequence[HandResult] = (), players: int = 2, declared: Any = None,
                   joker: bool = False, upcard: str | None = None,
                   match: MatchScore | None = None) -> dict[str, Any]: ...

    def score_from_deadwood(self, deadwood: Sequence[int], ender: int | None, options: Any, *,
                            big_gin: bool = False, upcard: str | None = None) -> dict[str, Any]: ...

    def score_match(self, results: Sequence[HandResult], players: int, options: Any) -> MatchScore: ...

    def add_hand(self, match: MatchScore, result: HandResult, options: Any) -> MatchScore: ...

    def next_dealer(self, result: HandResult, dealer: int, players: int, options: Any) -> int: ...


class TeamPlay(Protocol):
    """What the table asks of a game played by teams at several tables (Gin Rummy's
    pagat partnership): checking and scoring one entry of every table's hand, the deal
    at each table, the team fields of the summary, each seat's own results and what a
    preview shows of each table (its breakdown, its tied arrangements). A Variant
    gives it for a game's options by :meth:`Variant.team_play`."""

    def check_entry(self, tables: Any, top: dict[str, Any]) -> list[dict[str, Any]]: ...

    def score_entry(self, variant: Any, options: Any, tables: list[dict[str, Any]]) -> dict[str, Any]: ...

    def deal_order(self, options: Any, dealer: int, hands: Sequence[tuple[dict[str, Any], dict[str, Any]]]
                   ) -> tuple[list[list[int]], list[int]]: ...

    def deal_step(self, options: Any, now: Sequence[int], entry: dict[str, Any],
                  result: dict[str, Any]) -> tuple[list[int], list[int]]: ...

    def team_fields(self, players: Sequence[str], match: Any) -> dict[str, Any]: ...

    def seat_results(self, results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]: ...

    def seats_by_table(self) -> list[list[int]]: ...

    def previews(self, variant: Any, options: Any, players: Sequence[str], tables: Sequence[dict[str, Any]],
                 result: dict[str, Any]) -> dict[str, Any]: ...


class TeamRules(Protocol):
    """What the table and the API ask of the game team play at separate tables is played
    in (the Variant that ``hosts_outings``, by :meth:`Variant.team_rules`): an outing of
    pair matches (its records: :mod:`companion.rules.tournament`) begun, scored, paired
    round after round and ranked, its refusals' rule (``RULE``), and the quick scores of
    a partnership and an outing from their entries alone (``POST /api/v1/teams/...``)."""

    RULE: str

    def new_outing(self, players: Sequence[str], sides: Sequence[int] | None = None,
                   options: Any = None) -> Outing: ...

    def match_score(self, outing: Outing, index: int) -> MatchScore: ...

    def next_round(self, outing: Outing, elapsed_minutes: float | None = None) -> Outing: ...

    def standings(self, outing: Outing, elapsed_minutes: float | None = None) -> dict[str, Any]: ...

    def quick_partnership(self, players: Sequence[str], preset: str | None, options: Mapping[str, Any],
                          hands: Sequence[Sequence[Mapping[str, Any]]]) -> dict[str, Any]: ...

    def quick_outing(self, players: Sequence[str], sides: Sequence[int] | None, preset: str | None,
                     options: Mapping[str, Any], matches: Sequence[Sequence[Mapping[str, Any]]],
                     elapsed_minutes: float | None) -> dict[str, Any]: ...


class ActionTable(Protocol):
    """What the table asks of a game tracked move by move (``play_style == "actions"``):
    a table game to enter the moves into, a move applied to it (the game moves on in
    place, and is left as it was when it refuses the move; the move's public effects
    are returned), the hand in play, the seat dealing it (``created_dealer`` until the
    game names one), a line saying what one move did, whether the game is over, and the
    fields the whole game (``GET .../games/{id}``) and its summary line show of the
    table game. A Variant gives it by
    :meth:`Variant.action_table`; the table game is a :class:`GameModel`, handed back
    to the methods here as it was made."""

    def new_game(self, players: list[str], overrides: Any) -> GameModel: ...

    def apply_action(self, game: GameModel, action: dict[str, Any]) -> list[dict[str, Any]]: ...

    def hand_number(self, game: GameModel) -> int: ...

    def table_dealer(self, game: GameModel, created_dealer: int) -> int: ...

    def play_line(self, n: int, hand: int, action: dict[str, Any],
                  events: list[dict[str, Any]]) -> dict[str, Any]: ...

    def finished(self, game: GameModel) -> bool: ...

    def game_fields(self, game: GameModel) -> dict[str, Any]: ...

    def summary_fields(self, game: GameModel) -> dict[str, Any]: ...


__all__ = ["ActionTable", "DealtModel", "DealtMove", "ENTRY_DEFAULTS", "GameModel", "HandScoring", "PlayStyle",
           "TeamPlay", "TeamRules"]
