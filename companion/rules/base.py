"""What every rummy rule set hands back: one hand's result and a match's running score.

Each game module (:mod:`companion.games.gin.rules`, :mod:`~companion.games.color_gin.rules`,
:mod:`~companion.games.ginski.rules`) exposes the same small surface, so the play engine,
the service and the phone page treat them alike:

* ``Options`` (a frozen dataclass), ``PRESETS: dict[str, Options]``, ``DEFAULT_PRESET``
  and ``make_options(preset=None, **overrides) -> Options``, built with
  :mod:`companion.games.options`, where every option is described and checked (an unknown
  preset, option or value: :class:`~companion.errors.InvalidInput`, a ``ValueError`` with
  code ``invalid_options``, naming it);
* ``score_hand(hands, ender, preset=None, *, options=None, **overrides) -> HandResult``;
* ``score_match(results, players, options) -> MatchScore``: a pure fold over the hand
  results in order, so a corrected hand two rounds back is re-scored by folding again;
* ``end_kind(kept, options, match=None, seat=0) -> str | None``: which ending
  (``"gin"``, ``"big_gin"``, ``"knock"``) a player keeping the card mask ``kept`` may
  declare, or None when they may not end the hand;
* ``deal_size(players, options) -> int``, ``DECK`` (card mask), ``PLAYERS`` (range);
* ``next_dealer(result, dealer, players, options) -> int``.

Both result types are plain data with ``as_dict()`` for JSON; card lists are names.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal, Protocol, Union

if TYPE_CHECKING:  # types only (melds sit below the rules)
    from companion.melds import Arrangement, MeldRules

HandKind = Literal["gin", "big_gin", "knock", "undercut", "void", "showdown"]
KINDS: tuple[str, ...] = ("gin", "big_gin", "knock", "undercut", "void", "showdown")

# Per seat: an int, or for Color Gin a dict suit letter -> points.
Points = Union[list[int], list[dict[str, int]]]


@dataclass(frozen=True)
class HandResult:
    """The outcome of one hand.

    ``points`` are what each seat scores for this hand before any match-level rule
    (suit closing, game bonus, boxes). ``deadwood`` is per seat after lay-offs;
    ``layoffs`` lists the cards each seat laid off; ``melds`` each seat's melds as
    lists of card names (a wild written ``JK1=5H``); ``extra`` holds what a game adds
    (Color Gin: ``spoiled`` suits; Ginski: ``undercutter``).
    """

    variant: str
    kind: HandKind
    ender: int | None
    winner: int | None
    points: Points
    deadwood: list[int]
    layoffs: list[list[str]] = field(default_factory=list)
    melds: list[list[list[str]]] = field(default_factory=list)
    deadwood_cards: list[list[str]] = field(default_factory=list)
    extra: dict[str, object] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "kind": self.kind,
            "ender": self.ender,
            "winner": self.winner,
            "points": self.points,
            "deadwood": self.deadwood,
            "layoffs": self.layoffs,
            "melds": self.melds,
            "deadwood_cards": self.deadwood_cards,
            "extra": self.extra,
            "notes": self.notes,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> HandResult:
        """A result from its :meth:`as_dict` (a stored one); keys it does not know are left
        out, so a log written by another version still reads.

        >>> r = HandResult("gin", "gin", 0, 0, [25, 0], [0, 12])
        >>> HandResult.from_dict({**r.as_dict(), "new_key": 1}) == r
        True
        """
        return cls(**{k: v for k, v in d.items() if k in _RESULT_FIELDS})


_RESULT_FIELDS = frozenset(f.name for f in fields(HandResult))


@dataclass(frozen=True)
class MatchScore:
    """A match folded from its hand results.

    ``totals`` per seat (Color Gin: a dict suit -> points per seat, closed suits keep
    their overshoot); ``hands_won`` per seat; ``bonuses`` names every match-level line
    (``{"seat": 0, "kind": "game", "points": 100}``) so a score sheet can show them;
    ``final`` per seat is the total with the bonuses once the match is over (equal to
    ``totals`` while it runs, for games without match bonuses). ``extra`` holds what a
    game adds (Color Gin: ``suit_winner``, ``closed``).
    """

    variant: str
    players: int
    totals: Points
    hands_won: list[int]
    finished: bool
    winner: int | None
    final: list[int]
    bonuses: list[dict[str, object]] = field(default_factory=list)
    hands: int = 0
    extra: dict[str, object] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "players": self.players,
            "totals": self.totals,
            "hands_won": self.hands_won,
            "finished": self.finished,
            "winner": self.winner,
            "final": self.final,
            "bonuses": self.bonuses,
            "hands": self.hands,
            "extra": self.extra,
        }


class RulesModule(Protocol):
    """The surface above, as mypy checks each game's rules module against it (the play
    engine, :class:`companion.play.rummy.RummyGame`, and the Variants hold a module as this
    type). ``options`` is ``Any`` here: each game has its own ``Options`` dataclass."""

    @property
    def PRESETS(self) -> Mapping[str, Any]: ...

    @property
    def MELD_RULES(self) -> MeldRules: ...

    @property
    def DECK(self) -> int: ...

    @property
    def PLAYERS(self) -> Sequence[int]: ...

    def make_options(self, preset: str | None = None, **overrides: Any) -> Any: ...

    def deal_size(self, players: int, options: Any) -> int: ...

    def end_kind(self, kept: int, options: Any, match: MatchScore | None = None, seat: int = 0) -> str | None: ...

    def score_hand(self, hands: Sequence[Any], ender: int | None, preset: str | None = None, *,
                   options: Any = None, **overrides: Any) -> HandResult: ...

    def score_match(self, results: Sequence[HandResult], players: int, options: Any) -> MatchScore: ...

    def start_match(self, players: int, options: Any) -> MatchScore: ...

    def add_hand(self, match: MatchScore, result: HandResult, options: Any) -> MatchScore: ...

    def next_dealer(self, result: HandResult, dealer: int, players: int, options: Any) -> int: ...


class ChosenDeclaration(Protocol):
    """What :meth:`ArrangingRules.choose_arrangement` answers: the arrangement declared."""

    @property
    def arrangement(self) -> Arrangement: ...


class ArrangingRules(RulesModule, Protocol):
    """A rules module that also chooses the ender's arrangement itself (Color Gin, whose
    closed suits decide it): what a co-op joker's "gin if you can" needs."""

    def closed_mask(self, closed: Any) -> int: ...

    def choose_arrangement(self, cards: int, options: Any, closed: int = 0, forced: bool = False,
                           defender: int | None = None) -> ChosenDeclaration | None: ...

    def all_arrangements(self, cards: int, limit: int | None = None) -> Iterator[Arrangement]: ...
