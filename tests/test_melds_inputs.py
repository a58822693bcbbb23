"""How ``min_deadwood`` reads its cards: the fast paths (a Gin Rummy mask, a list or
tuple of card ints) must give the same answer, or raise the same error, as the checked
reading (``companion.cards.to_mask`` and the game's deck) for every input, good or bad."""

import random
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from companion import cards as C
from companion import melds as M
from companion.melds.solve import _generic_min

I64 = np.int64

# (cards, the answer or (error type, message)) as min_deadwood reads them today
CASES: list[tuple[object, object]] = [
    ([], 0), ((), 0), ([5], 6), ((5,), 6), ([0], 1), ([1], 2), ([51], 10),
    ([0, 1, 2], 0), ([12, 25, 38, 51], 0), ([51, 0, 26, 13], 10),
    # negative card ints, however far below zero (a list index would wrap them)
    ([1, 2, -1], "not a card number: -1"), ([-1], "not a card number: -1"),
    ([-1, 3], "not a card number: -1"), ([-52, 3], "not a card number: -52"),
    ([-53, 3], "not a card number: -53"), ([-64, 3], "not a card number: -64"),
    ([-104, 3], "not a card number: -104"), ([-105, 3], "not a card number: -105"),
    ([3, -200], "not a card number: -200"),
    # ints past the Gin Rummy deck: jokers, Rumski cards, no card at all
    ([52], "not a card of the standard deck: JK1"), ([1, 52], "not a card of the standard deck: JK1"),
    ([1, 53], "not a card of the standard deck: JK2"), ([1, 54], "not a card number: 54"),
    ([1, 64], "not a card of the standard deck: R1"), ([1, 103], "not a card of the standard deck: Y1"),
    ([1, 104], "not a card of the standard deck: Y2"), ([1, 200], "not a card number: 200"),
    ([1, 1 << 70], f"not a card number: {1 << 70}"),
    # True and False are not the cards 1 and 0
    ([True, 5], "not a card: True"), ([False, 5], "not a card: False"),
    ([True], "not a card: True"), ([False], "not a card: False"),
    ([0, True], "not a card: True"), ([1, False], "not a card: False"),
    ([True, False], "not a card: True"), ((True, 5), "not a card: True"),
    ([5, True], "not a card: True"), ([2, 0, False], "not a card: False"),
    # repeats
    ([3, 3], r"duplicate card: 3 \(4S"), ([3, 3, 9], r"duplicate card: 3 \(4S"),
    ([0, 0], r"duplicate card: 0 \(AS"), ([1, 1], r"duplicate card: 1 \(2S"),
    ([51, 51], r"duplicate card: 51 \(KC"), ([0, 0, 1, 1], r"duplicate card: 0 \(AS"),
    # numbers that equal a card int read as that card in a list of two or more (as
    # dict keys do); alone, or not equal to a card, they are not cards
    ([5.0, 6.0], 13), ([0.0, 1.0], 3), ([1.0, 2, 3], 0), ([Fraction(5), 6], 13),
    ([Decimal(5), 6], 13), ([complex(5), 6], 13), ([I64(5), I64(6)], 13),
    ([5.0], "not a card: 5.0"), ([I64(5)], r"not a card: (np.int64\()?5\b"),
    ([1, 2.5], "not a card: 2.5"),
    ([-1.0, 3], "not a card: -1.0"), ([52.0, 3], "not a card: 52.0"),
    ([I64(-1), 5], r"not a card: (np.int64\()?-1\b"),
    ([I64(52), 5], r"not a card: (np.int64\()?52\b"),
    # names, and things that are not cards
    (["AS", "2S"], 3), ([0, "2S"], 3), (["AS"], 1), ("AS 2S 3S", 0), ({1, 2, 3}, 0),
    (frozenset({4}), 5),
    ([None, 1], "not a card: None"), ([[1], 2], r"not a card: \[1\]"),
    ([1, None], "not a card: None"),
    # masks
    (0, 0), (7, 0), (-3, "cannot be negative"), (-(1 << 52), "cannot be negative"),
    # (the fast path once answered 0 and 4 for these two: the top suit's look-up
    # wrapped round from the end of the table)
    (-(1 << 53), "cannot be negative"), (-(1 << 53) + 5, "cannot be negative"),
    (-(1 << 52) - 1, "cannot be negative"), (-(1 << 60), "cannot be negative"),
    (1 << 52, "not a card of the standard deck: JK1"), ((1 << 52) | 7, "not a card of the standard deck: JK1"),
    ((1 << 52) | 1 | 1 << 13 | 1 << 26, "not a card of the standard deck: JK1"),
    (1 << 60, "not a card number: 60"), (1 | 1 << 13 | 1 << 26 | 1 << 80, "not a card of the standard deck: B4"),
    (True, "not a card set: True"), (False, "not a card set: False"),
    (I64(7), "expected a list of cards"), (5.0, "expected a list of cards"),
    (None, "expected a list of cards"), (b"\x01\x02", "expected a list of cards"),
]


@pytest.mark.parametrize(("cards", "want"), CASES, ids=[repr(c) for c, _ in CASES])
@pytest.mark.parametrize("variant", [(), ("standard",)], ids=["default", "standard"])
def test_min_deadwood_reads_every_input_as_before(cards, want, variant):
    if isinstance(want, int):
        assert M.min_deadwood(cards, *variant) == want
    else:
        with pytest.raises(ValueError, match=want):
            M.min_deadwood(cards, *variant)


def test_lists_in_any_order_read_like_the_checked_path():
    """Random lists of card ints (any order, 0 to 13 cards; some with one bad entry)
    against the checked reading: the same answer or the same error."""
    rng = random.Random("inputs")
    bad = [-1, -2, -51, -52, -53, -100, -104, -105, 52, 53, 63, 64, 103, 104, 10**6, True, False]
    for i in range(3000):
        hand: list[object] = list(rng.sample(range(52), rng.randint(0, 13)))
        if i % 3 == 0 and hand:
            hand[rng.randrange(len(hand))] = rng.choice(bad + hand)  # may repeat a card
        for cards in (hand, tuple(hand)):
            try:
                want: object = _generic_min(cards, "standard")
            except ValueError as e:
                want = str(e)
            try:
                got: object = M.min_deadwood(cards)
            except ValueError as e:
                got = str(e)
            assert got == want, cards
            if isinstance(want, int):
                assert M.min_deadwood(C.cards_mask(hand)) == want


def test_negative_masks_are_refused_however_large():
    rng = random.Random("negative")
    for k in range(0, 120):
        for m in (-(1 << k), -(1 << k) - rng.getrandbits(52), -(1 << k) + rng.getrandbits(k or 1) + 1):
            if m < 0:
                with pytest.raises(ValueError, match="cannot be negative"):
                    M.min_deadwood(m)
