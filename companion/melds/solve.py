"""The public numbers: minimum deadwood and best discard. Each game's solver works on
a card bitmask (the four-suit games through :mod:`companion.melds.fast`, others
through the wild-card search or the rank-by-rank programme); the functions here only
read the caller's cards into a mask (checked) and hand it over."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from operator import itemgetter
from typing import Protocol

from companion import cards as C
from companion.melds.block import _block_min, _block_ok
from companion.melds.fast import four_suit
from companion.melds.natural import _bits, _natural_discard, _natural_min
from companion.melds.rules import GIN, MeldRules, _hand_mask, get_rules
from companion.melds.tables import _BIG, _tables
from companion.melds.wild import _wild_min

Solver = Callable[[int], int]


def _four_suit_ok(rules: MeldRules) -> bool:
    return rules.base == 0 and rules.nsuits == 4


@lru_cache(maxsize=None)
def _build_solver(rules: MeldRules) -> Solver:
    wm = rules.wild_mask
    if _four_suit_ok(rules):
        nat_fast = four_suit(rules).min
    else:
        tb = _tables(rules)

        def nat_fast(mask: int) -> int:
            return _natural_min(mask, rules, tb)
    if not wm:
        return nat_fast

    block = _block_ok(rules)

    def solve(mask: int) -> int:
        if mask & wm:
            if block and (mask & wm).bit_count() <= 2:
                return _block_min(mask, rules)
            return _wild_min(mask, rules)
        return nat_fast(mask)

    return solve


# variant name -> (solver, allowed card bits); filled on first use of each variant
_FAST: dict[object, tuple[Solver, int]] = {}


def _fast_entry(variant: str | MeldRules) -> tuple[Solver, int]:
    rules = get_rules(variant)
    entry = (_build_solver(rules), rules.natural_mask | rules.wild_mask)
    _FAST[variant] = entry
    return entry


def _solver(rules: MeldRules) -> Solver:
    return _build_solver(rules)


def _generic_min(cards: object, variant: str | MeldRules) -> int:
    entry = _FAST.get(variant) or _fast_entry(variant)
    if type(cards) is int:
        if cards & ~entry[1] or cards < 0:
            _hand_mask(cards, get_rules(variant))
        return entry[0](cards)
    return entry[0](_hand_mask(cards, get_rules(variant)))  # type: ignore[arg-type]


_BIT = {card: 1 << card for card in range(52)}  # a Gin Rummy card int -> its bit
_gather = itemgetter


class _MaskMin(Protocol):
    def __call__(self, mask: int, variant: str | MeldRules = "gin") -> int: ...


class _CardsMin(Protocol):
    def __call__(self, cards: int | str | Iterable[str | int],
                 variant: str | MeldRules = "gin") -> int: ...


def _make_public() -> tuple[_MaskMin, _CardsMin]:
    """``deadwood_of_mask`` and ``min_deadwood``. The common call (a Gin Rummy hand as
    a mask, or as a list of card ints) splits the mask and, when no rank is held three
    times, answers with four byte-table look-ups here (a rank held three or four times
    once: the closed form, eight); every other Gin Rummy hand goes to the one solver
    of :mod:`companion.melds.fast`, and other games to theirs."""
    gin = four_suit(GIN)
    T = gin.T
    TB = gin.TB  # T as bytes; past the deck it reads 255, so a sum of 255+ is no hand
    sets = gin.sets
    quad = gin.quad
    solve = gin.min
    bit = _BIT

    def deadwood_of_mask(mask: int, variant: str | MeldRules = "gin") -> int:
        """Minimum deadwood of a card bitmask (no validation; the fast entry point)."""
        if variant == "gin":
            return solve(mask)
        entry = _FAST.get(variant) or _fast_entry(variant)
        return entry[0](mask)

    def min_deadwood(cards: int | str | Iterable[str | int],
                     variant: str | MeldRules = "gin") -> int:
        """Least deadwood value over every arrangement of ``cards`` into melds.

        ``cards`` is a bitmask, a string (``"5H 6H 7H"``) or a list of names or ints.

        >>> min_deadwood(["AS", "2S", "3S", "KD"])
        10
        >>> min_deadwood([0, 1, 2, 38])
        10
        >>> min_deadwood("QS KS AS", "gingo"), min_deadwood("QS KS AS", "gin")
        (0, 21)
        """
        if variant == "gin":
            if type(cards) is int:
                mask = cards
            elif type(cards) is list or type(cards) is tuple:
                # card ints: one C-level pass builds the mask; anything else (names,
                # foreign numbers, one card alone, repeats, True/False) is read the
                # checked way below. (A float equal to a card int reads as that card,
                # as it would as a dict key.)
                seq: list[int] = cards  # type: ignore[assignment]
                try:
                    mask = sum(_gather(*seq)(bit))
                except (KeyError, TypeError):
                    return _generic_min(cards, variant)
                if mask.bit_count() != len(seq) or mask & 3 and (
                        mask & 1 and seq[seq.index(0)] is False
                        or mask & 2 and seq[seq.index(1)] is True):
                    return _generic_min(cards, variant)
            else:
                return _generic_min(cards, variant)
            # fast.FourSuit.min written out (no call); a mask beyond the deck or a
            # negative one is read the checked way below (a negative one's top suit
            # could wrap round to the real half of TB: hence ``hi >= 0``)
            lo = mask & 0x3FFFFFF  # two 26-bit halves: one-digit ints, quicker
            hi = mask >> 26
            b = lo >> 13
            d = hi >> 13
            trip = (lo & b | hi & d) & (lo | b) & (hi | d)  # ranks held 3+ times
            if not trip:
                try:
                    v = TB[lo & 8191] + TB[b] + TB[hi & 8191] + TB[d]
                except IndexError:
                    pass
                else:
                    if v < 255 and hi >= 0:
                        return v
            elif not hi >> 26:
                a = lo & 8191
                c = hi & 8191
                if trip & (trip - 1):
                    return sets(a, b, c, d, trip)
                # one rank: FourSuit.one written out for a triple
                nt = ~trip
                if a & b & c & d & trip:
                    return quad(a, b, c, d, nt)
                rest = T[a & nt] + T[b & nt] + T[c & nt] + T[d & nt]
                base = T[a] + T[b] + T[c] + T[d]
                return rest if rest < base else base
        return _generic_min(cards, variant)

    return deadwood_of_mask, min_deadwood


deadwood_of_mask, min_deadwood = _make_public()


def _best_discard_mask(mask: int, rules: MeldRules) -> tuple[int, int]:
    """(least deadwood after one discard, mask of every discard reaching it)."""
    if not mask:
        raise ValueError("no card to discard")
    if not mask & rules.wild_mask:
        if _four_suit_ok(rules):
            return four_suit(rules).discard(mask)
        return _natural_discard(mask, rules, _tables(rules))
    # wild cards: solve once per discard with the exact solver
    f = _solver(rules)
    best = _BIG
    which = 0
    for c in _bits(mask):
        v = f(mask ^ c)
        if v < best:
            best, which = v, c
        elif v == best:
            which |= c
    return best, which


def best_discard_mask(mask: int, variant: str | MeldRules = "gin") -> tuple[int, int]:
    """Fast entry point: ``(deadwood, discards mask)`` for a card bitmask."""
    return _best_discard_mask(mask, get_rules(variant))


def best_discard(
    cards: int | str | Iterable[str | int], variant: str | MeldRules = "gin"
) -> tuple[int, list[str]]:
    """The least deadwood after discarding one card, and every discard that reaches it.

    >>> best_discard("AS 2S 3S 4S 9D 9H 9C KH QH JH 5C")
    (0, ['5C'])
    """
    rules = get_rules(variant)
    mask = _hand_mask(cards, rules)
    v, which = _best_discard_mask(mask, rules)
    return v, C.mask_names(which)
