"""How cards meld (:class:`MeldRules`), the rule sets the games use, and checking that a
hand holds only cards of its deck.

A rule set is named for what it is, not for a game: :data:`STANDARD` (a 52-card deck,
no wild cards), :data:`RUMSKI` (five colours and wild cards that may stand for a card
the hand holds), :data:`JOKERS` (two jokers, one to a meld, ace high or low) and
:data:`JOKERS_FEWER` (jokers fewer than the natural cards of a meld). Which one a game
plays is the game's to say: its Variant carries it (``Variant.meld_rules``), and
nothing here knows a game. :func:`get_rules` reads a rule set's name (the command line,
the tests).

>>> get_rules("rumski").nsuits, STANDARD.card_value(C.parse_card("KH"))
(5, 10)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

from companion.errors import IllegalAction
from companion import cards as C

_FULL: Final = 0x1FFF  # one suit's 13 rank bits


#: the rule sets' names, as :func:`get_rules` reads them
RuleSetName = Literal["standard", "rumski", "jokers", "jokers_fewer"]


@dataclass(frozen=True, eq=False)  # one object per rule set: hashed and compared by identity (fast)
class MeldRules:
    """How cards meld under one rule set."""

    name: str
    base: int  # bit of suit 0, rank 1 (0 for the standard deck, 64 for Rumski)
    nsuits: int  # 4 suits or 5 Rumski colours
    values: tuple[int, ...]  # deadwood value of ranks 1..13
    wild_mask: int = 0  # which card bits are wild
    wild_value: int = 0
    ace_high: bool = False  # Q-K-A allowed (never round the corner)
    set_max: int = 4
    max_wilds_per_meld: int = 0  # 0 = wilds never meld
    wilds_fewer_than_naturals: bool = False  # Gin-Go option instead of one per meld
    wild_may_duplicate_hand: bool = False  # Ginski: a wild may stand for a card you hold
    deck: str = "the standard deck"  # the deck in words, for messages

    @property
    def natural_mask(self) -> int:
        m = 0
        for s in range(self.nsuits):
            m |= _FULL << (self.base + 13 * s)
        return m

    def card_value(self, card: int) -> int:
        if self.wild_mask >> card & 1:
            return self.wild_value
        off = card - self.base
        if not 0 <= off < 13 * self.nsuits:
            raise IllegalAction(f"{C.card_name(card)} is not a card of {self.deck}")
        return self.values[off % 13]

    def run_wild_limit(self, naturals: int) -> int:
        """How many wilds a meld with ``naturals`` natural cards may hold."""
        if self.max_wilds_per_meld == 0:
            return 0
        if self.wilds_fewer_than_naturals:
            return max(naturals - 1, 0)
        return self.max_wilds_per_meld


GIN_VALUES: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)  # ace 1, faces 10
FACE_VALUES: Final = tuple(range(1, 14))  # each card its rank

STANDARD: Final = MeldRules("standard", 0, 4, GIN_VALUES)
RUMSKI: Final = MeldRules(
    "rumski", C.RUMSKI_BASE, 5, FACE_VALUES, wild_mask=C.WILD_MASK, wild_value=20,
    set_max=5, max_wilds_per_meld=1, wild_may_duplicate_hand=True, deck="the Rumski deck",
)
JOKERS: Final = MeldRules(
    "jokers", 0, 4, GIN_VALUES, wild_mask=C.JOKER_MASK, wild_value=15, ace_high=True,
    set_max=4, max_wilds_per_meld=1, deck="the deck with two jokers",
)
JOKERS_FEWER: Final = MeldRules(
    "jokers_fewer", 0, 4, GIN_VALUES, wild_mask=C.JOKER_MASK, wild_value=15, ace_high=True,
    set_max=4, max_wilds_per_meld=2, wilds_fewer_than_naturals=True, deck="the deck with two jokers",
)
#: what the meld functions take as their rules: a rule set, or its name
RulesArg = MeldRules | RuleSetName

#: every rule set, by its name
RULE_SETS: Final[dict[str, MeldRules]] = {r.name: r for r in (STANDARD, RUMSKI, JOKERS, JOKERS_FEWER)}


def get_rules(variant: RulesArg | str) -> MeldRules:
    """``variant`` itself, or the rule set of that name; ``IllegalAction`` naming the
    rule sets for any other name."""
    if isinstance(variant, MeldRules):
        return variant
    try:
        return RULE_SETS[variant]
    except (KeyError, TypeError):
        raise IllegalAction(
            f"unknown meld rules {variant!r} (one of {', '.join(RULE_SETS)})"
        ) from None


def _hand_mask(cards: int | str | Iterable[str | int], rules: MeldRules) -> int:
    mask = C.to_mask(cards)
    extra = mask & ~(rules.natural_mask | rules.wild_mask)
    if extra:
        names = ", ".join(C.mask_names(extra))
        raise IllegalAction(f"not a card of {rules.deck}: {names}")
    return mask
