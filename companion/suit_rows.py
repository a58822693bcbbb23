"""Gin-Go suit rows and coordinate frames: which space each side's cards sit on.

Every board space has two coordinates, one per side: each side reads the board from
its own edge. Board rows run
1..13 from side 1's edge and columns 1..4 from side 1's left; a space is
``(row - 1) * 4 + (col - 1)``. A :class:`Frame` turns one side's card into a space:

* side 1: ``row = rank``, ``col = position of the suit in side 1's suit row``;
* side 2 (opposed rank axis, the default): ``row = 14 - rank``,
  ``col = 5 - position of the suit in side 2's suit row`` (a 180° turn);
* side 2 with the shared rank axis: ``row = rank``, the column as above.

An ace always sits on the A row, also when it is used high (Q-K-A). Jokers have no
space of their own: their chip goes on the card they are designated to stand for.

The suit rows come from the set-up (the "Suit-Row Set-Up": each side turns up cards
and lays its suits out in the order they come):
:func:`reveal_suits` reads the revealed cards, :func:`suit_rows` lays out both rows.

>>> p1 = Frame(1, "SHDC"); p2 = Frame(2, "CDHS")
>>> p1.space("3H") == p2.space("JH")
True
>>> reveal_suits("5H JK 9H 2S KD QC").chooser
'dealer'
>>> suit_rows("suit_for_suit", "HSDC", dealer_side=1)
{1: 'HSDC', 2: 'CDSH'}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from companion.errors import IllegalAction
from companion import cards as C

SUIT_ORDER: Final = C.SUITS  # "SHDC": the suit letters
FORMATS: Final = ("normal", "suit_for_suit", "secrecy")
RANK_AXES: Final = ("opposed", "shared")
_SUIT_CHARS: Final = {
    "S": "S", "H": "H", "D": "D", "C": "C",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C",
}


def parse_suit_row(text: str | Iterable[str]) -> str:
    """Read a suit row (four suits, left to right as its side sees them) as letters.

    Letters or symbols, with or without separators; each suit exactly once.

    >>> parse_suit_row("♥ ♠ ♦ ♣"), parse_suit_row("s,h,d,c"), parse_suit_row(["C", "D", "H", "S"])
    ('HSDC', 'SHDC', 'CDHS')
    >>> parse_suit_row("SHDS")
    Traceback (most recent call last):
    ...
    companion.errors.IllegalAction: suit row 'SHDS' repeats S and lacks C: a suit row holds each of S, H, D, C exactly once
    """
    raw = text if isinstance(text, str) else "".join(str(t) for t in text)
    letters = []
    for ch in raw:
        if ch in " ,-/|" or ch.isspace():
            continue
        suit = _SUIT_CHARS.get(ch.upper())
        if suit is None:
            raise IllegalAction(f"suit row {raw!r}: {ch!r} is not a suit (write S H D C or ♠ ♥ ♦ ♣)")
        letters.append(suit)
    row = "".join(letters)
    if len(row) == 4 and len(set(row)) == 4:
        return row
    repeated = sorted({s for s in row if row.count(s) > 1}, key=SUIT_ORDER.index)
    missing = [s for s in SUIT_ORDER if s not in row]
    parts = []
    if repeated:
        parts.append("repeats " + ", ".join(repeated))
    if missing:
        parts.append("lacks " + ", ".join(missing))
    what = " and ".join(parts) if parts else f"has {len(row)} suits"
    raise IllegalAction(f"suit row {raw!r} {what}: a suit row holds each of S, H, D, C exactly once")


def _card(card: int | str) -> int:
    if isinstance(card, int):
        C.card_name(card)  # raises ValueError for a bool or a number that is no card
        return card
    return C.parse_card(card)


def _check_seat(seat: object, what: str = "seat") -> int:
    if isinstance(seat, bool) or seat not in (1, 2):
        raise IllegalAction(f"{what} must be 1 or 2 (side 1 sits at board row 1, side 2 at row 13), got {seat!r}")
    assert isinstance(seat, int)
    return seat


@dataclass(frozen=True)
class Frame:
    """One side's coordinates: its cards to board spaces and back.

    ``seat`` is 1 or 2 (in team play, the team's side); ``suit_row`` the four suits
    left to right as that side sees them (``"SHDC"`` or ``"♠♥♦♣"``); ``rank_axis``
    ``"opposed"`` (default: side 2's A row is side 1's K row) or ``"shared"``.

    >>> f = Frame(2, "♠♥♦♣")
    >>> f.space("AS"), f.card(51), f.card(0)
    (51, 'AS', 'KC')
    >>> Frame(2, "SHDC", rank_axis="shared").space("AS")
    3
    """

    seat: int
    suit_row: str
    rank_axis: str = "opposed"
    _to_space: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _to_card: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        row = parse_suit_row(self.suit_row)
        if self.rank_axis not in RANK_AXES:
            raise IllegalAction(f"rank_axis must be 'opposed' or 'shared', got {self.rank_axis!r}")
        object.__setattr__(self, "suit_row", row)
        to_space = [0] * 52
        to_card = [0] * 52
        for card in range(52):
            y = self.row(C.rank(card))
            c = self.column(C.SUITS[C.suit(card)])
            to_space[card] = (y - 1) * 4 + (c - 1)
            to_card[(y - 1) * 4 + (c - 1)] = card
        object.__setattr__(self, "_to_space", tuple(to_space))
        object.__setattr__(self, "_to_card", tuple(to_card))

    def row(self, rank: int) -> int:
        """Board row (1..13) of this side's ``rank`` (1 = ace .. 13 = king)."""
        if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= 13:
            raise IllegalAction(f"rank must be 1 (ace) .. 13 (king), got {rank!r}")
        if self.seat == 2 and self.rank_axis == "opposed":
            return 14 - rank
        return rank

    def column(self, suit: str) -> int:
        """Board column (1..4, from side 1's left) of this side's ``suit``."""
        letter = _SUIT_CHARS.get(suit.upper()) if isinstance(suit, str) else None
        if letter is None:
            raise IllegalAction(f"not a suit: {suit!r} (write S H D C or ♠ ♥ ♦ ♣)")
        pos = self.suit_row.index(letter) + 1
        return pos if self.seat == 1 else 5 - pos

    def space(self, card: int | str) -> int:
        """The board space (0..51) where this side puts a chip for ``card``.

        Raises ``ValueError`` for a joker (its chip goes on its designated card)
        or a card that is not one of the 52 standard cards.
        """
        c = _card(card)
        if C.is_wild(c):
            raise IllegalAction(
                f"{C.card_name(c)} is a joker and has no space: place the chip for the card "
                "it is designated to stand for (a joker's chip goes on the space of the card it stands for)"
            )
        if not 0 <= c < 52:
            raise IllegalAction(f"{C.card_name(c)} is not a standard card; Gin-Go uses S H D C")
        return self._to_space[c]

    def card_int(self, space: int) -> int:
        """The card (int) this side reads on ``space``."""
        if isinstance(space, bool) or not isinstance(space, int) or not 0 <= space < 52:
            raise IllegalAction(f"space must be an int 0..51, got {space!r}")
        return self._to_card[space]

    def card(self, space: int) -> str:
        """The card name this side reads on ``space``, e.g. ``'10H'``."""
        return C.card_name(self.card_int(space))


def normalize_format(fmt: str) -> str:
    """``"Suit-for-Suit"`` -> ``"suit_for_suit"``; ValueError for an unknown format."""
    key = str(fmt).strip().lower().replace("-", "_").replace(" ", "_")
    if key not in FORMATS:
        raise IllegalAction(f"unknown suit-row set-up {fmt!r} (normal, suit_for_suit or secrecy)")
    return key


@dataclass(frozen=True)
class Reveal:
    """What the set-up reveal showed.

    ``order``: the four suits in the order they appeared; ``used``: how many cards
    were turned; ``jokers``: how many jokers came up before the fourth suit;
    ``cards``: the cards turned, in order.
    """

    order: str
    used: int
    jokers: int
    cards: tuple[int, ...]

    @property
    def chooser(self) -> str | None:
        """Who calls the format: None (Normal is forced), ``"dealer"`` after one
        joker, ``"opponent"`` after a second (in the 4-player game, the player to
        the dealer's right)."""
        return (None, "dealer", "opponent")[min(self.jokers, 2)]

    @property
    def formats(self) -> tuple[str, ...]:
        """The formats that may be called: Normal only, unless a joker showed."""
        return FORMATS if self.jokers else ("normal",)

    def choose(self, fmt: str, by: str | None = None) -> str:
        """Check a call of ``fmt`` (by ``"dealer"`` or ``"opponent"``, if given).

        >>> reveal_suits("JK 5H 9H 2S KD QC").choose("Secrecy", by="dealer")
        'secrecy'
        """
        key = normalize_format(fmt)
        if key not in self.formats:
            raise IllegalAction(
                f"no joker came up before the fourth suit, so the set-up is Normal; "
                f"{key!r} may not be called (seed: Suit-Row Set-Up)"
            )
        if by is not None and self.chooser is not None and by != self.chooser:
            n = "one joker" if self.jokers == 1 else "a second joker"
            raise IllegalAction(f"after {n} the {self.chooser} calls the set-up, not the {by} (seed: Suit-Row Set-Up)")
        return key


def reveal_suits(cards: Sequence[int | str] | str) -> Reveal:
    """Turn cards one at a time until all four suits have shown.

    ``cards`` is the shuffled 54-card deck from the top (or at least its first cards);
    a bare ``JK`` is the next joker not yet seen. Cards after the fourth suit are not read.

    >>> r = reveal_suits(["9D", "JK", "3D", "QS", "JK", "4C", "AH", "2H"])
    >>> r.order, r.used, r.jokers, r.chooser
    ('DSCH', 7, 2, 'opponent')
    """
    tokens: list[int | str] = list(cards.replace(",", " ").split() if isinstance(cards, str) else cards)
    order = ""
    jokers = 0
    seen: list[int] = []
    for tok in tokens:
        c = _card(tok)
        if C.is_wild(c) and isinstance(tok, str) and tok.strip().upper() in ("JK", "JOKER", "🃏"):
            c = C.JOKER2 if C.JOKER1 in seen else C.JOKER1
        if not (0 <= c < 52 or c in C.JOKERS):
            raise IllegalAction(f"{C.card_name(c)} is not in the Gin-Go deck (52 cards and two jokers)")
        if c in seen:
            raise IllegalAction(f"{C.card_name(c)} was turned twice in the set-up reveal")
        seen.append(c)
        if c in C.JOKERS:
            jokers += 1
        else:
            letter = C.SUITS[C.suit(c)]
            if letter not in order:
                order += letter
                if len(order) == 4:
                    return Reveal(order, len(seen), jokers, tuple(seen))
    raise IllegalAction(
        f"the reveal ran out after {len(seen)} cards with only {len(order)} suits shown "
        f"({order or 'none'}); keep turning cards until all four suits appear"
    )


def suit_rows(
    fmt: str,
    order: str | None,
    dealer_side: int,
    secret: Mapping[int, str] | None = None,
) -> dict[int, str]:
    """Both sides' suit rows (left to right as each side sees them) for a set-up.

    * ``normal``: both sides lay out ``order`` left to right;
    * ``suit_for_suit``: the dealer left to right, the opponent right to left, so under
      the opposed frame both sides' suits share the board's columns;
    * ``secrecy``: each side's own choice, ``secret = {1: "...", 2: "..."}``
      (``order`` is not used and may be None).

    >>> suit_rows("normal", "DSCH", dealer_side=2)
    {1: 'DSCH', 2: 'DSCH'}
    >>> suit_rows("secrecy", None, 1, secret={1: "CHSD", 2: "♦♣♥♠"})
    {1: 'CHSD', 2: 'DCHS'}
    """
    key = normalize_format(fmt)
    dealer = _check_seat(dealer_side, "dealer_side")
    if key == "secrecy":
        if secret is None or set(secret) != {1, 2}:
            raise IllegalAction("a Secrecy set-up needs each side's chosen row: secret={1: 'SHDC', 2: '...'}")
        return {side: parse_suit_row(secret[side]) for side in (1, 2)}
    if secret is not None:
        raise IllegalAction(f"secret rows are only used in a Secrecy set-up, not {key!r}")
    if order is None:
        raise IllegalAction(f"a {key!r} set-up needs the order in which the suits appeared")
    row = parse_suit_row(order)
    if key == "normal":
        return {1: row, 2: row}
    rows = {dealer: row, 3 - dealer: row[::-1]}
    return {1: rows[1], 2: rows[2]}
