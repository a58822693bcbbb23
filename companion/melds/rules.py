"""Meld rules per game (:class:`MeldRules`), the games' rule constants, and checking
that a hand holds only cards of the game."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from companion.errors import IllegalAction
from companion import cards as C

_FULL: Final = 0x1FFF  # one suit's 13 rank bits


@dataclass(frozen=True)
class MeldRules:
    """How cards meld in one game."""

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
            raise IllegalAction(f"{C.card_name(card)} is not a card of {self.name}")
        return self.values[off % 13]

    def run_wild_limit(self, naturals: int) -> int:
        """How many wilds a meld with ``naturals`` natural cards may hold."""
        if self.max_wilds_per_meld == 0:
            return 0
        if self.wilds_fewer_than_naturals:
            return max(naturals - 1, 0)
        return self.max_wilds_per_meld


_GIN_VALUES: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_FACE_VALUES: Final = tuple(range(1, 14))

GIN: Final = MeldRules("gin", 0, 4, _GIN_VALUES)
COLOR_GIN: Final = MeldRules("color_gin", 0, 4, _GIN_VALUES)
GINSKI: Final = MeldRules(
    "ginski", C.RUMSKI_BASE, 5, _FACE_VALUES, wild_mask=C.WILD_MASK, wild_value=20,
    set_max=5, max_wilds_per_meld=1, wild_may_duplicate_hand=True,
)
GINGO: Final = MeldRules(
    "gingo", 0, 4, _GIN_VALUES, wild_mask=C.JOKER_MASK, wild_value=15, ace_high=True,
    set_max=4, max_wilds_per_meld=1,
)
GINGO_FEWER: Final = MeldRules(
    "gingo_fewer", 0, 4, _GIN_VALUES, wild_mask=C.JOKER_MASK, wild_value=15, ace_high=True,
    set_max=4, max_wilds_per_meld=2, wilds_fewer_than_naturals=True,
)
VARIANTS: Final[dict[str, MeldRules]] = {
    r.name: r for r in (GIN, COLOR_GIN, GINSKI, GINGO, GINGO_FEWER)
}


def get_rules(variant: str | MeldRules) -> MeldRules:
    if isinstance(variant, MeldRules):
        return variant
    try:
        return VARIANTS[variant]
    except KeyError:
        raise IllegalAction(
            f"unknown variant {variant!r} (one of {', '.join(VARIANTS)})"
        ) from None


def _hand_mask(cards: int | str | Iterable[str | int], rules: MeldRules) -> int:
    mask = C.to_mask(cards)
    extra = mask & ~(rules.natural_mask | rules.wild_mask)
    if extra:
        names = ", ".join(C.mask_names(extra))
        raise IllegalAction(f"not a card of {rules.name}: {names}")
    return mask
