"""The public numbers: minimum deadwood and best discard, each game's solver choosing
the no-wild fast path, the wild-card search or the rank-by-rank programme."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from operator import itemgetter
from typing import Protocol

from companion import cards as C
from companion.melds.block import _block_min, _block_ok
from companion.melds.fast import _SETS_ENUM_MAX, make_min
from companion.melds.natural import _bits, _min_sets, _natural_min, _rank_bits_3plus, _suits
from companion.melds.rules import GIN, MeldRules, _hand_mask, get_rules
from companion.melds.tables import _BIG, _Tables, _tables
from companion.melds.wild import _wild_min

Solver = Callable[[int], int]


@lru_cache(maxsize=None)
def _build_solver(rules: MeldRules) -> Solver:
    tb = _tables(rules)
    wm = rules.wild_mask
    if rules.base == 0 and rules.nsuits == 4:
        nat_fast = make_min(tb, rules)[0]
    else:
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
    """``deadwood_of_mask`` and ``min_deadwood``, with Gin Rummy's tables bound in so
    that the common call (a Gin Rummy hand as a mask, or as a list of card ints) runs
    the four-suit fast path (:mod:`companion.melds.fast`) inline."""
    T = _tables(GIN).T
    sets = make_min(_tables(GIN), GIN)[1]

    def deadwood_of_mask(mask: int, variant: str | MeldRules = "gin") -> int:
        """Minimum deadwood of a card bitmask (no validation; the fast entry point)."""
        if variant == "gin":
            lo = mask & 0x3FFFFFF  # two 26-bit halves: one-digit ints, quicker
            hi = mask >> 26 & 0x3FFFFFF
            a = lo & 8191
            b = lo >> 13
            c = hi & 8191
            d = hi >> 13
            trip = (a & b & (c | d)) | (c & d & (a | b))
            if trip:
                return sets(a, b, c, d, trip, mask)
            return T[a] + T[b] + T[c] + T[d]
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
                if not cards >> 52:  # a Gin Rummy mask (a negative one goes below)
                    lo = cards & 0x3FFFFFF  # two 26-bit halves: one-digit ints, quicker
                    hi = cards >> 26
                    a = lo & 8191
                    b = lo >> 13
                    c = hi & 8191
                    d = hi >> 13
                    trip = (a & b & (c | d)) | (c & d & (a | b))
                    if not trip:
                        return T[a] + T[b] + T[c] + T[d]
                    if trip & (trip - 1):
                        return sets(a, b, c, d, trip, cards)
                    # one rank held 3+ times: the closed form of companion.melds.fast
                    ta, tb, tc, td = T[a], T[b], T[c], T[d]
                    s = n = 0
                    mn = 99
                    if a & trip:
                        mn = s = ta - T[a ^ trip]
                        n = 1
                    if b & trip:
                        g = tb - T[b ^ trip]
                        s += g
                        n += 1
                        if g < mn:
                            mn = g
                    if c & trip:
                        g = tc - T[c ^ trip]
                        s += g
                        n += 1
                        if g < mn:
                            mn = g
                    if d & trip:
                        g = td - T[d ^ trip]
                        s += g
                        n += 1
                        if g < mn:
                            mn = g
                    if n == 4 and mn < 0:
                        s -= mn
                    return ta + tb + tc + td - (s if s > 0 else 0)
            elif type(cards) is list or type(cards) is tuple:
                # card ints: one C-level pass builds the mask; anything else (names,
                # foreign numbers, one card alone, repeats, True/False) is read the
                # checked way below. (A float equal to a card int reads as that card,
                # as it would as a dict key.)
                seq: list[int] = cards  # type: ignore[assignment]
                mask: int
                try:
                    mask = sum(_gather(*seq)(_BIT))
                except (KeyError, TypeError):
                    mask = -1
                if mask >= 0 and mask.bit_count() == len(seq) and not (mask & 3 and (
                        mask & 1 and seq[seq.index(0)] is False
                        or mask & 2 and seq[seq.index(1)] is True)):
                    lo = mask & 0x3FFFFFF  # two 26-bit halves: one-digit ints, quicker
                    hi = mask >> 26
                    a = lo & 8191
                    b = lo >> 13
                    c = hi & 8191
                    d = hi >> 13
                    trip = (a & b & (c | d)) | (c & d & (a | b))
                    if trip:
                        return sets(a, b, c, d, trip, mask)
                    return T[a] + T[b] + T[c] + T[d]
        return _generic_min(cards, variant)

    return deadwood_of_mask, min_deadwood


deadwood_of_mask, min_deadwood = _make_public()


def _best_discard_mask(mask: int, rules: MeldRules) -> tuple[int, int]:
    """(least deadwood after one discard, mask of every discard reaching it)."""
    if not mask:
        raise ValueError("no card to discard")
    tb = _tables(rules)
    s = _suits(mask, rules)
    trip = _rank_bits_3plus(s)
    if mask & rules.wild_mask or (
        trip.bit_count() > _SETS_ENUM_MAX and _block_ok(rules)
    ):
        # Wild cards, or a large hand with many set ranks (enumerating set choices
        # grows as 6^ranks): solve once per discard with the exact solver.
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
    T, D, DS = tb.T, tb.D, tb.DS
    base = rules.base
    if not trip:
        total = 0
        imp = -_BIG
        for x in s:
            total += T[x]
            if x:
                g = T[x] - D[x]
                if g > imp:
                    imp = g
        which = 0
        for j, x in enumerate(s):
            if x and T[x] - D[x] == imp:
                which |= DS[x] << (base + 13 * j)
        return total - imp, which
    state = [_BIG, 0]
    ranks = _bits(trip)

    def rec(i: int) -> None:
        if i == len(ranks):
            total = 0
            imp = -_BIG
            for x in s:
                total += T[x]
                if x:
                    g = T[x] - D[x]
                    if g > imp:
                        imp = g
            if imp == -_BIG:
                return
            v = total - imp
            if v <= state[0]:
                which = 0
                for j, x in enumerate(s):
                    if x and T[x] - D[x] == imp:
                        which |= DS[x] << (base + 13 * j)
                if v < state[0]:
                    state[0], state[1] = v, which
                else:
                    state[1] |= which
            return
        bit = ranks[i]
        pat = 0
        for j, x in enumerate(s):
            if x & bit:
                pat |= 1 << j
        rec(i + 1)
        for choice in tb.SUB[pat]:
            for j in choice:
                s[j] ^= bit
            rec(i + 1)
            for j in choice:
                s[j] ^= bit

    rec(0)
    return state[0], state[1]


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
