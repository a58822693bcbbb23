"""The shape of a rummy match as its moves and checks read and change it:
:class:`RummyMatch`, a :class:`typing.Protocol` that
:class:`companion.play.rummy.RummyGame` fills.

The moves (:mod:`companion.play.rummy_moves`) and the checks
(:mod:`companion.play.rummy_checks`) are functions of a match kept in modules of their
own. They name this protocol, not the class, so the class imports them and they never
import the class back: the import graph stays a tree (``rummy`` above ``rummy_moves``
above ``rummy_checks`` above this module).

>>> from companion.games import rummy_game
>>> match: RummyMatch = rummy_game("gin", seed=3, dealer=0)
>>> match.phase, match.players
('upcard', 2)
"""

from __future__ import annotations

from typing import Any, Protocol

from companion.melds.rules import MeldRules
from companion.play.rummy_actions import Action
from companion.rules.base import HandResult, MatchScore, RulesModule
from companion.rules.first_dealer import FirstDeal


class RummyMatch(Protocol):
    """What a rummy match holds (cards as ints, hands as masks) and the few steps the
    moves call back: deal the next hand, score a hand, end it."""

    variant: str
    rules: RulesModule
    options: Any
    players: int
    meld_rules: MeldRules
    deck: int
    deal_size: int
    jokers: int
    first_deal: FirstDeal | None
    dealer: int
    results: list[HandResult]
    match: MatchScore
    actions: int
    hand_number: int
    hands: list[int]
    stock: list[int]
    discard: list[int]
    phase: str
    turn: int
    passes: int
    taken: int | None
    must_stock: bool
    must_end: bool
    last_taken: list[int | None]
    moves: list[tuple[int, str, int]]
    _same_card_barred: bool
    _checked: tuple[int, int, bool] | None

    @property
    def over(self) -> bool: ...

    @property
    def top_discard(self) -> int | None: ...

    @property
    def joker_drawn(self) -> int | None: ...

    def end_kind(self, kept: int, seat: int) -> str | None: ...

    def legal_actions(self) -> list[Action]: ...

    def _deal(self) -> None: ...

    def _next(self, seat: int) -> int: ...

    def _can_end_with(self, hand: int, taken: int | None) -> bool: ...

    def _score(self, hands: list[list[int]], ender: int | None, joker: bool = False,
               declared: list[list[str]] | None = None) -> HandResult: ...

    def _end_hand(self, ender: int | None, joker: bool = False,
                  declared: list[list[str]] | None = None) -> HandResult: ...


__all__ = ["RummyMatch"]
