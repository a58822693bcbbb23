"""What a Gin-Go seat can infer of the hands it cannot see, from what their players did
in public this hand, and deals of the unseen cards drawn with that in mind.

Every player sees who dug which cards from the pile, who drew from the stock while which
cards lay on top of the pile, who threw what, and the melds and hits on the table
(:class:`companion.games.gingo.play.turns.Record`). From it the searching bot
(:mod:`companion.games.gingo.play.search`) reads, for each other hand:

* **known cards**: the cards its player dug from the pile and has not laid down or
  thrown since are in that hand (always, in every deal);
* **no meld held** (:data:`MELD`): a player lays down what it can (melds put chips on the
  board and shrink what a capture takes), so a hand that holds a whole meld is unlikely;
* **no hit held** (:data:`HIT`, per card): the same for a card that went onto a meld on
  the table when its player last threw (``Record.fits``: a meld laid since, the seat's
  own this turn among them, was never before that player);
* **passed cards** (:data:`PASSED`, per card): a player that drew from the stock while a
  card lay on top of the pile could not meld it at once, so a hand holding two cards
  that meld with it is unlikely;
* **thrown cards** (:data:`THROWN`, per pair): a player keeps the cards that may still
  meld together, so a hand holding a card that melds with one its player threw (same
  rank, or same suit within two ranks) is less likely.

Each is a factor on how likely a hand is (:func:`hand_weight`); a deal is weighed by the
product over the other hands. :func:`weighted_deal` deals the unseen cards
:data:`TRIES` times at random (the known cards kept where they are) and picks one of
those deals with a chance in proportion to its weight (sampling-importance-resampling:
the deals come out close to the ones the evidence makes likely). It reads nothing but
what the seat to move sees, and draws only from the generator it is given.

>>> from companion.games.gingo.play.play import GingoPlay
>>> hand = {"5H", "6H", "7H", "KS"}
>>> mask = C.cards_mask(C.parse_cards(sorted(hand)))
>>> holds_meld(mask), holds_meld(mask & ~(1 << C.parse_card("6H")))
(True, False)
>>> melds_with(C.cards_mask(C.parse_cards(["5H", "6H"])), C.parse_card("7H"))
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion import cards as C
from companion.games.gingo.rules.engine import GingoGame

MELD = 0.1  # a hand holding a whole meld
HIT = 0.5  # per card of the hand that would go onto a meld on the table
PASSED = 0.3  # per passed card the hand would have melded at once
THROWN = 0.75  # per card of the hand that melds with a card its player threw
TRIES = 12  # deals drawn to pick one from

_SUIT = 0x1FFF
_RANKS = [sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)]
_JOKERS = (1 << 52) | (1 << 53)
NATURALS = (1 << 52) - 1  # the 52 natural cards (a joker is card 52 or 53)


def _near_mask(card: int) -> int:
    """The naturals that could meld with ``card``: its rank, and its suit within two ranks
    (the ace low and high)."""
    s, r = C.suit(card), C.rank(card)
    out = _RANKS[r - 1]
    for other in range(1, 14):
        gap = min(abs(other - r), abs((14 if other == 1 else other) - (14 if r == 1 else r)))
        if 0 < gap <= 2:
            out |= 1 << (s * 13 + other - 1)
    return out & ~(1 << card)


#: for each natural card, the naturals that could be in one meld with it
NEAR = [_near_mask(c) for c in range(52)]


def _run3(bits: int) -> bool:
    """Three ranks in a row in one suit's 13 bits (ace low, or Q-K-A)."""
    return bool(bits & (bits >> 1) & (bits >> 2)) or bits & 0x1801 == 0x1801


def _run2(bits: int) -> bool:
    """Two ranks of one suit a joker makes a run of (next to each other, or one apart)."""
    high = bits | ((bits & 1) << 13)  # the ace high too
    return bool(high & (high >> 1) or high & (high >> 2))


def holds_meld(hand: int) -> bool:
    """Whether the hand (a card mask) holds a whole meld: three of a rank or of a run, or
    two and a joker."""
    joker = bool(hand & _JOKERS)
    need = 2 if joker else 3
    for r in _RANKS:
        if (hand & r).bit_count() >= need:
            return True
    for s in range(4):
        bits = hand >> (s * 13) & _SUIT
        if _run3(bits) or joker and _run2(bits):
            return True
    return False


def melds_with(hand: int, card: int) -> bool:
    """Whether ``card`` makes a meld with two cards of the hand (or one and a joker)."""
    joker = bool(hand & _JOKERS)
    need = 1 if joker else 2
    if (hand & _RANKS[C.rank(card) - 1] & ~(1 << card)).bit_count() >= need:
        return True
    s = C.suit(card)
    bits = (hand | 1 << card) >> (s * 13) & _SUIT
    r = C.rank(card) - 1
    high = bits | ((bits & 1) << 13)
    pos = [r] + ([13] if r == 0 else [])
    for p in pos:
        for lo in range(p - 2, p + 1):
            if lo < 0 or lo + 2 > 13:
                continue
            window = [(high >> x) & 1 for x in range(lo, lo + 3)]
            if sum(window) >= 3 - (1 if joker else 0):
                return True
    return False


def fits_mask(game: GingoGame) -> int:
    """The natural cards that would go onto a meld on the table as it is: a set's missing
    suits, the ranks next to a run's ends (no wrap round the ace)."""
    out = 0
    on_table = game.table_cards()
    for m in game.table_melds:
        st = m.stands()
        if m.kind == "set":
            r = C.rank(next(iter(st)))
            out |= _RANKS[r - 1]
            continue
        s = C.suit(next(iter(st)))
        ranks = {C.rank(c) for c in st}
        if 1 in ranks and 13 in ranks:  # the ace is high: the run ends at it
            ranks = {14 if x == 1 else x for x in ranks}
        lo, hi = min(ranks), max(ranks)
        if lo > 1:
            out |= 1 << (s * 13 + lo - 2)
        if hi < 13:
            out |= 1 << (s * 13 + hi)
        elif hi == 13:
            out |= 1 << (s * 13)  # the ace high
    return out & ~on_table & ((1 << 52) - 1)


def hand_weight(hand: int, thrown: int, passed: int, fits: int) -> float:
    """How likely a player who threw ``thrown`` and let ``passed`` lie (card masks) holds
    ``hand``, up to a constant (see the module notes); ``fits``: :func:`fits_mask`. A
    joker thrown or let lie says nothing here: only natural cards are read from them.

    >>> hand_weight(0b111, 1 << 52, 1 << 53, 0) == hand_weight(0b111, 0, 0, 0)
    True
    """
    thrown &= NATURALS
    passed &= NATURALS
    w = 1.0
    if holds_meld(hand):
        w *= MELD
    hits = (hand & fits).bit_count()
    if hits:
        w *= HIT ** hits
    for p in C.iter_cards(passed & ~hand):
        if melds_with(hand, p):
            w *= PASSED
    pairs = 0
    for d in C.iter_cards(thrown):
        pairs += (hand & NEAR[d]).bit_count()
    if pairs:
        w *= THROWN ** pairs
    return w


def weighted_deal(pool: Sequence[int], sizes: Sequence[int], known: Sequence[int], thrown: Sequence[int],
                  passed: Sequence[int], fits: Sequence[int], rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """The cards of ``pool`` (every card the seat cannot see) dealt into hands of ``sizes``
    (0 for the seat itself) and a stock: each hand keeps its ``known`` cards (masks), and
    is weighed against the table as its player last saw it (``fits``, per seat: the cards
    that would have gone onto a meld when it last threw); of :data:`TRIES` deals one is picked with a chance in proportion to its weight (the
    product of :func:`hand_weight` over the hands). Returns the hands and the stock."""
    fixed = 0
    for k in known:
        fixed |= k
    free = [c for c in pool if not fixed >> c & 1]
    deals: list[tuple[list[list[int]], list[int]]] = []
    weights: list[float] = []
    for _ in range(TRIES):
        rng.shuffle(free)
        rest = free
        hands: list[list[int]] = []
        w = 1.0
        for s, n in enumerate(sizes):
            if n == 0:
                hands.append([])
                continue
            mine = C.mask_cards(known[s])
            need = n - len(mine)
            hand = mine + rest[:need]
            rest = rest[need:]
            hands.append(hand)
            w *= hand_weight(C.cards_mask(hand), thrown[s], passed[s], fits[s])
        deals.append((hands, list(rest)))
        weights.append(w)
    pick = rng.random() * sum(weights)
    for deal, w in zip(deals, weights):
        pick -= w
        if pick < 0:
            return deal
    return deals[-1]


__all__ = ["NEAR", "hand_weight", "weighted_deal", "holds_meld", "melds_with", "fits_mask", "TRIES"]
