"""Cards as small ints, card sets as int bitmasks.

Numbering (one scheme for every deck, so a card int never needs its deck to be read):

* Standard suits, in the order ``S H D C`` (spades, hearts, diamonds, clubs), are
  13-bit slices: ``card = suit * 13 + (rank - 1)``, so the 52 cards are 0..51 and
  ``AS`` is 0, ``KS`` 12, ``AH`` 13 ... ``KC`` 51.
* The two jokers of the 54-card Gin-Go deck are 52 (``JK1``) and 53 (``JK2``).
* The 70-card Rumski deck (Ginski) has five colours, also 13-bit slices, starting at
  bit 64: ``card = 64 + colour * 13 + (rank - 1)`` with colours ``R B G Y P``
  (red, blue, green, yellow, purple), and five wilds 129..133 (``W1`` .. ``W5``).

A card set is the int with bit ``card`` set for each card, so union is ``|``,
intersection ``&`` and the 13 cards of one suit are ``(mask >> 13 * suit) & 0x1FFF``.

Text forms accepted by :func:`parse_card`:

* standard: rank then suit, or suit then rank: ``AS``, ``TD``, ``10D``, ``10♦``, ``♦10``,
  ``D10``, ``qh`` (case does not matter; ``♤♡♢♧`` work as well as ``♠♥♦♣``);
* jokers: ``JK``, ``JK1``, ``JK2`` (also ``JOKER``, ``🃏``);
* Rumski: colour letter then rank number 1-13: ``R5``, ``B13``, ``Y1``; wilds ``W``,
  ``W1`` .. ``W5``.

>>> card_name(parse_card("10♥"))
'10H'
>>> parse_cards("AS 2S 3S")
[0, 1, 2]
>>> mask_names(cards_mask(parse_cards(["KC", "JK"])))
['KC', 'JK1']
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from typing import Final

from companion.errors import IllegalAction

SUITS: Final = "SHDC"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS: Final = "♠♥♦♣"
COLOURS: Final = "RBGYP"
COLOUR_NAMES: Final = ("red", "blue", "green", "yellow", "purple")
RANK_NAMES: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

SUIT_BITS: Final = 0x1FFF  # 13 ranks of one suit
JOKER1: Final = 52
JOKER2: Final = 53
JOKERS: Final = (JOKER1, JOKER2)
RUMSKI_BASE: Final = 64
WILD_BASE: Final = RUMSKI_BASE + 5 * 13  # 129
WILDS: Final = tuple(range(WILD_BASE, WILD_BASE + 5))

STANDARD_DECK: Final = (1 << 52) - 1
GINGO_DECK: Final = (1 << 54) - 1
JOKER_MASK: Final = (1 << JOKER1) | (1 << JOKER2)
RUMSKI_NATURALS: Final = ((1 << 65) - 1) << RUMSKI_BASE
WILD_MASK: Final = 0x1F << WILD_BASE
RUMSKI_DECK: Final = RUMSKI_NATURALS | WILD_MASK
ANY_WILD: Final = JOKER_MASK | WILD_MASK

_SYMBOL_SUIT = {"♠": 0, "♤": 0, "♥": 1, "♡": 1, "❤": 1, "♦": 2, "♢": 2, "♣": 3, "♧": 3}
_INVISIBLE = {ord(c): None for c in "\ufe0e\ufe0f\u200b\u200c\u200d\u2060\ufeff"}
_LETTER_SUIT = {"S": 0, "H": 1, "D": 2, "C": 3}
_COLOUR = {c: i for i, c in enumerate(COLOURS)}
_RANKS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13, "1": 1}
_RANKS.update({str(n): n for n in range(2, 14)})
_JOKER_WORDS = {"JK": JOKER1, "JOKER": JOKER1, "🃏": JOKER1, "JK1": JOKER1, "JK2": JOKER2}


def make_card(suit: int, rank: int) -> int:
    """The standard card of ``suit`` (0..3, ``S H D C``) and ``rank`` (1..13)."""
    if not 0 <= suit < 4 or not 1 <= rank <= 13:
        raise IllegalAction(f"no standard card with suit {suit} and rank {rank}")
    return suit * 13 + rank - 1


def make_rumski(colour: int, rank: int) -> int:
    """The Rumski card of ``colour`` (0..4, ``R B G Y P``) and ``rank`` (1..13)."""
    if not 0 <= colour < 5 or not 1 <= rank <= 13:
        raise IllegalAction(f"no Rumski card with colour {colour} and rank {rank}")
    return RUMSKI_BASE + colour * 13 + rank - 1


def is_wild(card: int) -> bool:
    """True for Gin-Go jokers and Rumski wilds."""
    return card in (JOKER1, JOKER2) or WILD_BASE <= card < WILD_BASE + 5


def is_rumski(card: int) -> bool:
    return RUMSKI_BASE <= card < WILD_BASE + 5


def rank(card: int) -> int:
    """Rank 1..13 of a natural card (ace is 1). Wild cards have rank 0."""
    if card < 52:
        return card % 13 + 1
    if RUMSKI_BASE <= card < WILD_BASE:
        return (card - RUMSKI_BASE) % 13 + 1
    return 0


def suit(card: int) -> int:
    """Suit index of a natural card: 0..3 (``SHDC``) or, for Rumski, the colour 0..4.

    Wild cards have suit -1.
    """
    if card < 52:
        return card // 13
    if RUMSKI_BASE <= card < WILD_BASE:
        return (card - RUMSKI_BASE) // 13
    return -1


def card_name(card: int) -> str:
    """Canonical text of a card: ``AS``, ``10H``, ``JK1``, ``R13``, ``W2``.

    >>> card_name(12), card_name(53), card_name(make_rumski(2, 7))
    ('KS', 'JK2', 'G7')
    """
    if not isinstance(card, int) or isinstance(card, bool):
        raise IllegalAction(f"not a card number: {card!r}")
    if 0 <= card < 52:
        return RANK_NAMES[card % 13] + SUITS[card // 13]
    if card in (JOKER1, JOKER2):
        return f"JK{card - JOKER1 + 1}"
    if RUMSKI_BASE <= card < WILD_BASE:
        c, r = divmod(card - RUMSKI_BASE, 13)
        return f"{COLOURS[c]}{r + 1}"
    if WILD_BASE <= card < WILD_BASE + 5:
        return f"W{card - WILD_BASE + 1}"
    raise IllegalAction(f"not a card number: {card}")


def _parse_rank(text: str) -> int | None:
    return _RANKS.get(text)


def parse_card(text: str | int) -> int:
    """Read one card; raise ``ValueError`` naming the token if it is not a card.

    >>> [parse_card(t) for t in ("AS", "TD", "10D", "10♦", "♦10", "JK2", "b13", "W")]
    [0, 35, 35, 35, 35, 53, 89, 129]
    """
    if isinstance(text, int) and not isinstance(text, bool):
        card_name(text)  # validates
        return text
    if not isinstance(text, str):
        raise IllegalAction(f"not a card: {text!r}")
    # phones type "♥️" (heart + emoji variation selector) and may add zero-width or
    # full-width characters: read the card they show, not the bytes behind it
    token = unicodedata.normalize("NFKC", text).translate(_INVISIBLE).strip().upper()
    if not token:
        raise IllegalAction(f"not a card: {text!r} (empty)")
    if token in _JOKER_WORDS:
        return _JOKER_WORDS[token]
    if token[0] == "W" and (len(token) == 1 or token[1:].isdigit()):
        n = int(token[1:]) if len(token) > 1 else 1
        if 1 <= n <= 5:
            return WILD_BASE + n - 1
        raise IllegalAction(f"not a card: {text!r} (Rumski wilds are W1..W5)")
    # suit symbol first or last
    if token[0] in _SYMBOL_SUIT:
        r = _parse_rank(token[1:])
        if r is not None and r <= 13:
            return make_card(_SYMBOL_SUIT[token[0]], r)
    if token[-1] in _SYMBOL_SUIT:
        r = _parse_rank(token[:-1])
        if r is not None:
            return make_card(_SYMBOL_SUIT[token[-1]], r)
    # rank then suit letter: AS, 10H, TD
    if token[-1] in _LETTER_SUIT and len(token) >= 2:
        r = _parse_rank(token[:-1])
        if r is not None:
            return make_card(_LETTER_SUIT[token[-1]], r)
    # letter first: Rumski colour (R5, B13) or standard suit (H10)
    if token[0] in _COLOUR and token[1:].isdigit():
        r = int(token[1:])
        if 1 <= r <= 13:
            return make_rumski(_COLOUR[token[0]], r)
        raise IllegalAction(f"not a card: {text!r} (Rumski ranks are 1..13)")
    if token[0] in _LETTER_SUIT and len(token) >= 2:
        r = _parse_rank(token[1:])
        if r is not None:
            return make_card(_LETTER_SUIT[token[0]], r)
    raise IllegalAction(
        f"not a card: {text!r} (write rank and suit like AS, 10H, TD, 10♦ or ♦10; "
        f"JK for a joker; R5, B13 or W for Rumski)"
    )


def parse_cards(cards: str | Iterable[str | int]) -> list[int]:
    """Read several cards (a whitespace/comma separated string or a list).

    A bare ``JK`` or ``W`` takes the next joker or wild not yet used, so ``JK JK``
    reads as both jokers. Any card given twice raises ``ValueError`` naming it.

    >>> parse_cards("JK 5H jk")
    [52, 17, 53]
    >>> parse_cards("5H 5h")
    Traceback (most recent call last):
    ...
    companion.errors.IllegalAction: duplicate card: '5h' (5H is already in the list)
    """
    if isinstance(cards, str):
        tokens: list[str | int] = [t for t in cards.replace(",", " ").split() if t]
    elif isinstance(cards, int):
        raise IllegalAction("expected a list of cards, got a single number (use mask_cards for a bitmask)")
    elif isinstance(cards, (bytes, Mapping)) or not isinstance(cards, Iterable):
        raise IllegalAction(f"expected a list of cards, got {cards!r}")
    else:
        tokens = list(cards)
    out: list[int] = []
    seen = 0
    for tok in tokens:
        generic = isinstance(tok, str) and tok.strip().upper() in ("JK", "JOKER", "🃏", "W")
        c = parse_card(tok)
        if generic:
            pool = JOKERS if c == JOKER1 else WILDS
            for alt in pool:
                if not seen >> alt & 1:
                    c = alt
                    break
        if seen >> c & 1:
            raise IllegalAction(f"duplicate card: {tok!r} ({card_name(c)} is already in the list)")
        seen |= 1 << c
        out.append(c)
    return out


def cards_mask(cards: Iterable[int]) -> int:
    """The bitmask of a collection of card ints."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def to_mask(cards: int | str | Iterable[str | int]) -> int:
    """A card set from a bitmask (returned as is), a string, or a list of names/ints."""
    if isinstance(cards, bool):
        raise IllegalAction(f"not a card set: {cards!r}")
    if isinstance(cards, int):
        if cards < 0:
            raise IllegalAction("a card set bitmask cannot be negative")
        return cards
    return cards_mask(parse_cards(cards))


def mask_cards(mask: int) -> list[int]:
    """The card ints of a bitmask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_names(mask: int) -> list[str]:
    """Card names of a bitmask, lowest card first."""
    return [card_name(c) for c in mask_cards(mask)]


def popcount(mask: int) -> int:
    return mask.bit_count()


def deck_mask(deck: str) -> int:
    """``standard`` (52), ``gingo`` (54: with two jokers) or ``rumski`` (70)."""
    try:
        return {"standard": STANDARD_DECK, "gingo": GINGO_DECK, "rumski": RUMSKI_DECK}[deck]
    except KeyError:
        raise IllegalAction(f"unknown deck {deck!r} (standard, gingo or rumski)") from None


def gin_value(card: int) -> int:
    """Deadwood value in the gin family: ace 1, 2-10 face, J Q K 10; jokers 15."""
    if card < 52:
        return min(card % 13 + 1, 10)
    if card in (JOKER1, JOKER2):
        return 15
    raise IllegalAction(f"{card_name(card)} has no gin value")


def ginski_value(card: int) -> int:
    """Deadwood value in Ginski: the number on the card (1..13); a wild counts 20."""
    if RUMSKI_BASE <= card < WILD_BASE:
        return (card - RUMSKI_BASE) % 13 + 1
    if WILD_BASE <= card < WILD_BASE + 5:
        return 20
    raise IllegalAction(f"{card_name(card)} is not a Rumski card")
