"""What a game is played with, as the phone draws it: a :class:`Deck` (the standard
52, Gin-Go's 54 with two jokers, Ginski's 70 in colours) and the :class:`HandSizes` a
seat holds when a hand ends. Plain values: a Variant names its deck and says its hand
sizes (:mod:`companion.games.base`).

>>> STANDARD.size, GINGO.extra, RUMSKI.name_order
(52, ('JK1', 'JK2'), 'colour_rank')
>>> HandSizes(10, 11).as_dict()
{'deal': 10, 'big': 11}
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from companion import cards as C


@dataclass(frozen=True)
class Deck:
    """A deck as the phone draws its card grid: ``columns`` (suit or colour letters with
    their labels), ``ranks`` (row labels, low to high), ``extra`` cards (jokers, wilds)
    and what one is called, the number of cards, and how a card is named
    (``name_order``: ``"rank_suit"`` as in 10H, ``"colour_rank"`` as in R10)."""

    name: str
    size: int
    columns: tuple[tuple[str, str], ...]
    ranks: tuple[str, ...]
    extra: tuple[str, ...] = ()
    extra_label: str = ""
    name_order: Literal["rank_suit", "colour_rank"] = "rank_suit"

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "size": self.size,
                "columns": [{"key": k, "label": label} for k, label in self.columns],
                "ranks": list(self.ranks), "extra": list(self.extra), "extra_label": self.extra_label,
                "name_order": self.name_order}


STANDARD = Deck("standard", 52, tuple(zip(C.SUITS, C.SUIT_SYMBOLS)), C.RANK_NAMES)
GINGO = dataclasses.replace(STANDARD, name="gingo", size=54, extra=("JK1", "JK2"), extra_label="joker")
RUMSKI = Deck("rumski", 70, tuple(zip(C.COLOURS, C.COLOUR_NAMES)), tuple(str(r) for r in range(1, 14)),
              tuple(C.card_name(w) for w in C.WILDS), "wild", "colour_rank")


@dataclass(frozen=True)
class HandSizes:
    """Cards a seat holds when a hand ends: ``deal`` after the discard, and ``big`` for
    the ender who melds one card more without discarding (None: no such ending)."""

    deal: int
    big: int | None

    def as_dict(self) -> dict[str, int | None]:
        return {"deal": self.deal, "big": self.big}


__all__ = ["Deck", "GINGO", "HandSizes", "RUMSKI", "STANDARD"]
