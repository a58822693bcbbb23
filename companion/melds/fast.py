"""The four-suit fast path (Gin Rummy, Color Gin, and Gin-Go hands without jokers):
minimum deadwood and best discard of a card bitmask, exact, in as few Python steps as
the common hands allow.

Deadwood is the least, over the choice of sets, of the sum of the per-suit run table
``T`` (see :mod:`companion.melds.tables`). Three shortcuts keep most hands off the
enumeration of set choices:

* no rank held three times (three hands in four at random): four table look-ups;
* a rank held three or four times none of whose cards can be in a run (the table
  ``RC`` gives the run-capable cards of a suit pattern): the whole set is taken, as
  no other meld can use those cards;
* the last rank left to choose is settled in closed form: taking a set out of suits
  ``i`` gains ``g_i = T[x_i] - T[x_i - card]`` each, so the best is the base sum less
  the largest of 0, the three-card gain and (four present) the four-card gain or the
  best three of four.

Everything else (two or more ranks whose cards also fit runs) enumerates the choices
of the earlier ranks and closes the last one the same way. Past ``_SETS_ENUM_MAX``
such ranks the rank-by-rank programme (:mod:`companion.melds.block`) is faster.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.melds.block import _block_min
from companion.melds.rules import MeldRules
from companion.melds.tables import _BIG, _Tables

# Enumerating set choices costs about 6^(ranks held 3+ times); past this many such
# ranks the rank-by-rank programme is faster (measured in benchmarks/solver.py).
_SETS_ENUM_MAX = 5

# For a 4-bit pattern of the suits holding a rank: the suit choices of a set (as
# 4-bit masks), three or four suits.
_CHOICES: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in range(16) if c & p == c and c.bit_count() >= 3) for p in range(16)
)


SetsMin = Callable[[int, int, int, int, int, int], int]


def make_min(tb: _Tables, rules: MeldRules) -> tuple[Callable[[int], int], SetsMin]:
    """The exact minimum deadwood of a four-suit mask (no wild cards in it), and the
    part of it for hands holding a rank three or more times: ``with_sets(a, b, c, d,
    trip, mask)`` with the four suits' 13-bit patterns and the ranks held 3+ times
    (so callers that have already split the mask go straight to it)."""
    T = tb.T
    RC = tb.RC
    choices = _CHOICES

    def last(a: int, b: int, c: int, d: int, bit: int) -> int:
        # one rank left: base sum less the best gain of taking a set out of it
        ta, tb_, tc, td = T[a], T[b], T[c], T[d]
        base = ta + tb_ + tc + td
        s = n = 0
        mn = _BIG
        if a & bit:
            g = ta - T[a ^ bit]
            s += g
            n += 1
            if g < mn:
                mn = g
        if b & bit:
            g = tb_ - T[b ^ bit]
            s += g
            n += 1
            if g < mn:
                mn = g
        if c & bit:
            g = tc - T[c ^ bit]
            s += g
            n += 1
            if g < mn:
                mn = g
        if d & bit:
            g = td - T[d ^ bit]
            s += g
            n += 1
            if g < mn:
                mn = g
        if n == 4 and mn < 0:
            s -= mn  # the best three of four
        return base - s if s > 0 else base

    def rec(a: int, b: int, c: int, d: int, ranks: list[int], i: int) -> int:
        bit = ranks[i]
        if i == len(ranks) - 1:
            return last(a, b, c, d, bit)
        pat = (a & bit and 1) | (b & bit and 2) | (c & bit and 4) | (d & bit and 8)
        j = i + 1
        best = rec(a, b, c, d, ranks, j)
        for ch in choices[pat]:
            v = rec(a ^ bit if ch & 1 else a, b ^ bit if ch & 2 else b,
                    c ^ bit if ch & 4 else c, d ^ bit if ch & 8 else d, ranks, j)
            if v < best:
                best = v
        return best

    def with_sets(a: int, b: int, c: int, d: int, trip: int, mask: int) -> int:
        if not trip & (trip - 1):  # one rank: ``last`` written out (no call)
            bit = trip
            ta, tb_, tc, td = T[a], T[b], T[c], T[d]
            s = n = 0
            mn = _BIG
            if a & bit:
                g = ta - T[a ^ bit]
                s += g
                n += 1
                mn = g
            if b & bit:
                g = tb_ - T[b ^ bit]
                s += g
                n += 1
                if g < mn:
                    mn = g
            if c & bit:
                g = tc - T[c ^ bit]
                s += g
                n += 1
                if g < mn:
                    mn = g
            if d & bit:
                g = td - T[d ^ bit]
                s += g
                n += 1
                if g < mn:
                    mn = g
            if n == 4 and mn < 0:
                s -= mn
            base = ta + tb_ + tc + td
            return base - s if s > 0 else base
        free = trip & ~(RC[a] | RC[b] | RC[c] | RC[d])
        if free:
            keep = ~free
            a &= keep
            b &= keep
            c &= keep
            d &= keep
            trip ^= free
            if not trip:
                return T[a] + T[b] + T[c] + T[d]
        if not trip & (trip - 1):
            return last(a, b, c, d, trip)
        ranks = []
        while trip:
            low = trip & -trip
            ranks.append(low)
            trip ^= low
        if len(ranks) > _SETS_ENUM_MAX:
            return _block_min(mask, rules)
        return rec(a, b, c, d, ranks, 0)

    def fast(mask: int) -> int:
        lo = mask & 0x3FFFFFF  # two 26-bit halves: one-digit ints, quicker
        hi = mask >> 26 & 0x3FFFFFF
        a = lo & 8191
        b = lo >> 13
        c = hi & 8191
        d = hi >> 13
        trip = (a & b & (c | d)) | (c & d & (a | b))
        if trip:
            return with_sets(a, b, c, d, trip, mask)
        return T[a] + T[b] + T[c] + T[d]

    return fast, with_sets


__all__ = ["make_min"]
