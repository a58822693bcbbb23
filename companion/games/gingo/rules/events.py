"""Gin-Go events as typed values: what an action did, with ``to_dict`` for the API edge.

The JSON shapes are those of API contract v1 (``{"type": "chips", "side": 1, ...}``);
card fields hold ints here and names in ``to_dict``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Union

from companion import cards as C
from companion.games.gingo.rules.actions import JokerLay, names
from companion.games.gingo.rules.melds import TableMeld


@dataclass(frozen=True)
class SuitRowsSet:
    type: ClassVar[str] = "setup"
    format: str
    order: str | None
    chooser: str | None
    chooser_seat: int | None
    suit_rows: dict[int, str]
    dealer: int
    first_deal: dict[str, Any] | None = None  # the flip for the first deal, when there was one

    def to_dict(self) -> dict[str, Any]:
        out = {"type": self.type, "format": self.format, "order": self.order, "chooser": self.chooser,
               "chooser_seat": self.chooser_seat, "suit_rows": {str(k): v for k, v in sorted(self.suit_rows.items())},
               "dealer": self.dealer}
        if self.first_deal is not None:
            out["first_deal"] = self.first_deal
        return out


@dataclass(frozen=True)
class MeldLaid:
    """A new meld (``meld`` is a snapshot, not the meld on the table)."""

    type: ClassVar[str] = "meld"
    seat: int
    side: int
    meld: TableMeld

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "side": self.side, "meld": self.meld.as_dict()}


@dataclass(frozen=True)
class HitLaid:
    type: ClassVar[str] = "hit"
    seat: int
    side: int
    meld: TableMeld
    cards: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "side": self.side, "meld": self.meld.as_dict(),
                "cards": names(self.cards)}


@dataclass(frozen=True)
class ChipsPlaced:
    """``spaces`` every space filled, ``placed`` those that got a new chip, ``bumped``
    those taken from the other side, ``forfeited`` the cards whose chips were not placed."""

    type: ClassVar[str] = "chips"
    side: int
    spaces: tuple[int, ...]
    placed: tuple[int, ...]
    bumped: tuple[int, ...]
    forfeited: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "side": self.side, "spaces": list(self.spaces), "placed": list(self.placed),
                "bumped": list(self.bumped), "forfeited": names(self.forfeited)}


@dataclass(frozen=True)
class LinkChanged:
    type: ClassVar[str] = "link"
    side: int
    formed: bool
    path: tuple[int, ...] | None

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "side": self.side, "formed": self.formed,
                "path": None if self.path is None else list(self.path)}


@dataclass(frozen=True)
class GinCalled:
    type: ClassVar[str] = "gin_called"
    side: int
    seat: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "side": self.side, "seat": self.seat}


@dataclass(frozen=True)
class Captured:
    type: ClassVar[str] = "capture"
    seat: int
    side: int
    cards: tuple[tuple[int, tuple[int, ...]], ...]
    jokers_laid: tuple[JokerLay, ...]
    jokers_dead: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "side": self.side,
                "cards": {str(s): names(cs) for s, cs in self.cards},
                "jokers_laid": [{"joker": C.card_name(x.joker), "meld": x.meld, "as": C.card_name(x.card)}
                                for x in self.jokers_laid],
                "jokers_dead": names(self.jokers_dead)}


@dataclass(frozen=True)
class HandEnded:
    type: ClassVar[str] = "hand_end"
    hand: int
    went_out: int | None
    winner: int | None
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "hand": self.hand, "went_out": self.went_out, "winner": self.winner,
                "reason": self.reason}


@dataclass(frozen=True)
class GameWon:
    type: ClassVar[str] = "game_over"
    winner: int
    players: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "winner": self.winner, "players": list(self.players)}


@dataclass(frozen=True)
class StockRanOut:
    type: ClassVar[str] = "stock_exhausted"
    count: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "count": self.count}


@dataclass(frozen=True)
class HandStarted:
    type: ClassVar[str] = "new_hand"
    hand: int
    dealer: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "hand": self.hand, "dealer": self.dealer}


@dataclass(frozen=True)
class TurnPassed:
    """A turn with no meld or hit (table tracking): ``turn`` is the seat to play next."""

    type: ClassVar[str] = "pass"
    seat: int
    turn: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "turn": self.turn}


# -- full play --------------------------------------------------------------------


@dataclass(frozen=True)
class Dealt:
    type: ClassVar[str] = "deal"
    hand: int
    dealer: int
    cards: int
    upcard: int
    stock: int
    turn: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "hand": self.hand, "dealer": self.dealer, "cards": self.cards,
                "upcard": C.card_name(self.upcard), "stock": self.stock, "turn": self.turn}


@dataclass(frozen=True)
class StockRenewed:
    type: ClassVar[str] = "new_stock"
    cards: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "cards": self.cards}


@dataclass(frozen=True)
class Drawn:
    type: ClassVar[str] = "draw"
    seat: int
    stock: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "from": "stock", "stock": self.stock}


@dataclass(frozen=True)
class PileTaken:
    type: ClassVar[str] = "take"
    seat: int
    card: int
    cards: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "card": C.card_name(self.card), "cards": names(self.cards)}


@dataclass(frozen=True)
class Discarded:
    type: ClassVar[str] = "discard"
    seat: int
    card: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "card": C.card_name(self.card)}


Event = Union[SuitRowsSet, MeldLaid, HitLaid, ChipsPlaced, LinkChanged, GinCalled, Captured, HandEnded, GameWon,
              StockRanOut, HandStarted, TurnPassed, Dealt, StockRenewed, Drawn, PileTaken, Discarded]


def to_dicts(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events]


__all__ = ["Event", "SuitRowsSet", "MeldLaid", "HitLaid", "ChipsPlaced", "LinkChanged", "GinCalled", "Captured",
           "HandEnded", "GameWon", "StockRanOut", "HandStarted", "TurnPassed", "Dealt", "StockRenewed", "Drawn", "PileTaken",
           "Discarded", "to_dicts"]
