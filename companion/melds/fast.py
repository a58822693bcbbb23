"""The four-suit solver (Gin Rummy, Color Gin, and Gin-Go hands without jokers): the
exact minimum deadwood and best discard of a card bitmask, in as few Python steps as
the common hands allow. Everything here works on masks; the public functions in
:mod:`companion.melds.solve` only read the caller's cards into a mask.

Deadwood is the least, over the choice of sets, of the sum of the per-suit run table
``T`` (see :mod:`companion.melds.tables`). With the suits ``a b c d`` (13 bits each):

* no rank held three times (three hands in four at random): four table look-ups;
* one rank held three or four times (bit ``t``): either no set of it (the base sum),
  or the set of every card of it (``rest``: each suit looked up without ``t``), or,
  four held, a set of three of them: ``rest`` with one card put back, the best one
  being the suit whose ``T[x] - T[x - t]`` is least. No branching per suit;
* a rank held three or more times none of whose cards can be in a run (the table
  ``RC`` gives the run-capable cards of a suit pattern): the whole set is taken, as
  no other meld can use those cards;
* more ranks: the choices of the earlier ranks are enumerated (quads last, since the
  closed form above settles a quad as cheaply as a triple) and the last is closed in
  the closed form. Past ``SETS_ENUM_MAX`` such ranks the rank-by-rank programme
  (:mod:`companion.melds.block`) is faster.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from companion.errors import IllegalAction
from companion.melds.block import _block_min
from companion.melds.rules import MeldRules
from companion.melds.tables import _BIG, _tables

# Enumerating set choices costs about 6^(ranks held 3+ times); past this many such
# ranks the rank-by-rank programme is faster (measured in benchmarks/solver.py).
SETS_ENUM_MAX = 5

# For a 4-bit pattern of the suits holding a rank: the suit choices of a set (as
# 4-bit masks), three or four suits.
_CHOICES: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in range(16) if c & p == c and c.bit_count() >= 3) for p in range(16)
)

Sets = Callable[[int, int, int, int, int], int]


@dataclass(frozen=True)
class FourSuit:
    """One game's four-suit solver: ``min(mask)``; ``sets(a, b, c, d, trip)`` for
    hands holding ranks three or more times (the suits' 13-bit patterns and those
    ranks, so callers that have split the mask go straight to it);
    ``discard(mask)`` ``-> (deadwood, mask of every discard reaching it)``; ``T`` the
    run table, for callers that look suits up inline (``solve.min_deadwood``: a list,
    whose ``list[int]`` subscript 3.11 specialises), and ``TB`` the same as bytes,
    twice as long, which ``min`` reads: the second half (a suit pattern past the
    deck) reads 255, so four look-ups summing to 255 or more mean a mask beyond the
    deck."""

    min: Callable[[int], int]
    sets: Sets
    discard: Callable[[int], tuple[int, int]]
    T: list[int]
    TB: bytes


def byte_table(T: list[int]) -> bytes:
    """``T`` as bytes (a compact table: one cache line holds 64 suit patterns) with a
    second half of 255s. Four suits' deadwood must stay below 255."""
    if max(T) * 4 >= 255:
        raise IllegalAction("card values too large for the byte table")
    return bytes(T) + b"\xff" * len(T)


@lru_cache(maxsize=None)
def four_suit(rules: MeldRules) -> FourSuit:
    """The solver for a four-suit game whose cards start at bit 0 (no wild cards in
    the masks it is given)."""
    if rules.base != 0 or rules.nsuits != 4:
        raise IllegalAction(f"the {rules.name} rules are not a four-suit game's")
    tb = _tables(rules)
    T = tb.T
    TB = byte_table(T)
    RC = tb.RC
    D = tb.D
    DS = tb.DS
    choices = _CHOICES

    def quad(a: int, b: int, c: int, d: int, nt: int) -> int:
        # one rank held four times (``nt`` all but it): no set, the set of four, or
        # the four less the card whose suit loses most by giving it up
        ta, tb_, tc, td = T[a], T[b], T[c], T[d]
        ra, rb, rc, rd = T[a & nt], T[b & nt], T[c & nt], T[d & nt]
        base = ta + tb_ + tc + td
        rest = ra + rb + rc + rd
        g = ta - ra
        if tb_ - rb < g:
            g = tb_ - rb
        if tc - rc < g:
            g = tc - rc
        if td - rd < g:
            g = td - rd
        if g < 0:
            rest += g
        return rest if rest < base else base

    def one(a: int, b: int, c: int, d: int, t: int) -> int:
        # one rank ``t`` held three or four times: no set of it, or the set of every
        # card of it (each suit looked up without ``t``), or for four a set of three
        nt = ~t
        if a & b & c & d & t:
            return quad(a, b, c, d, nt)
        rest = T[a & nt] + T[b & nt] + T[c & nt] + T[d & nt]
        base = T[a] + T[b] + T[c] + T[d]
        return rest if rest < base else base

    def two(a: int, b: int, c: int, d: int, t: int, u: int) -> int:
        # two ranks ``t`` and ``u`` held three times, or ``u`` four times: each suit
        # looked up four ways (with both, without t, without u, without either); a
        # suit lacking a rank reads the same without it, so "the set of every card
        # of t" is the sum of the without-t column. For the quad ``u`` a set of
        # three puts one card back: the suit that gains most.
        nt = ~t
        nu = ~u
        ntu = nt & nu
        a0, a1, a2, a3 = T[a], T[a & nt], T[a & nu], T[a & ntu]
        b0, b1, b2, b3 = T[b], T[b & nt], T[b & nu], T[b & ntu]
        c0, c1, c2, c3 = T[c], T[c & nt], T[c & nu], T[c & ntu]
        d0, d1, d2, d3 = T[d], T[d & nt], T[d & nu], T[d & ntu]
        best = a0 + b0 + c0 + d0
        v = a1 + b1 + c1 + d1
        if v < best:
            best = v
        s2 = a2 + b2 + c2 + d2
        s3 = a3 + b3 + c3 + d3
        if a & b & c & d & u:
            # a set of three of u: the card put back in the suit where it helps most
            g = a0 - a2
            if b0 - b2 < g:
                g = b0 - b2
            if c0 - c2 < g:
                g = c0 - c2
            if d0 - d2 < g:
                g = d0 - d2
            if g < 0:
                s2 += g
            g = a1 - a3
            if b1 - b3 < g:
                g = b1 - b3
            if c1 - c3 < g:
                g = c1 - c3
            if d1 - d3 < g:
                g = d1 - d3
            if g < 0:
                s3 += g
        if s2 < best:
            best = s2
        return s3 if s3 < best else best

    def rec(a: int, b: int, c: int, d: int, ranks: list[int], i: int) -> int:
        bit = ranks[i]
        j = i + 1
        if j == len(ranks):
            return one(a, b, c, d, bit)
        pat = (a & bit and 1) | (b & bit and 2) | (c & bit and 4) | (d & bit and 8)
        best = rec(a, b, c, d, ranks, j)
        for ch in choices[pat]:
            v = rec(a ^ bit if ch & 1 else a, b ^ bit if ch & 2 else b,
                    c ^ bit if ch & 4 else c, d ^ bit if ch & 8 else d, ranks, j)
            if v < best:
                best = v
        return best

    def sets(a: int, b: int, c: int, d: int, trip: int) -> int:
        if not trip & (trip - 1):
            # one rank (the commonest call, from solve.min_deadwood): ``one`` written
            # out for a triple
            nt = ~trip
            if a & b & c & d & trip:
                return quad(a, b, c, d, nt)
            rest = T[a & nt] + T[b & nt] + T[c & nt] + T[d & nt]
            base = T[a] + T[b] + T[c] + T[d]
            return rest if rest < base else base
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
                return one(a, b, c, d, trip)
        quads = a & b & c & d & trip
        low = trip & -trip
        high = trip ^ low
        if not high & (high - 1):
            # two ranks: at most one quad, put last; two quads go to the enumeration
            if not quads:
                return two(a, b, c, d, low, high)
            if quads != trip:
                return two(a, b, c, d, trip ^ quads, quads)
        ranks = []
        x = trip ^ quads  # triples first, quads last (closed by ``one``)
        while x:
            low = x & -x
            ranks.append(low)
            x ^= low
        while quads:
            low = quads & -quads
            ranks.append(low)
            quads ^= low
        if len(ranks) > SETS_ENUM_MAX:
            return _block_min(a | b << 13 | c << 26 | d << 39, rules)
        return rec(a, b, c, d, ranks, 0)

    def solve(mask: int) -> int:
        lo = mask & 0x3FFFFFF  # two 26-bit halves: one-digit ints, quicker
        hi = mask >> 26
        b = lo >> 13
        d = hi >> 13
        # the ranks held 3+ times (lo | b and hi | d carry junk above bit 13 that the
        # first term, under 8192, clears)
        trip = (lo & b | hi & d) & (lo | b) & (hi | d)
        if not trip:
            return TB[lo & 8191] + TB[b] + TB[hi & 8191] + TB[d]
        a = lo & 8191
        c = hi & 8191
        if trip & (trip - 1):
            return sets(a, b, c, d, trip)
        # one rank: ``one`` written out for a triple
        nt = ~trip
        if a & b & c & d & trip:
            return quad(a, b, c, d, nt)
        rest = T[a & nt] + T[b & nt] + T[c & nt] + T[d & nt]
        base = T[a] + T[b] + T[c] + T[d]
        return rest if rest < base else base

    def improve(s: list[int]) -> tuple[int, int]:
        # the suits' run tables summed, less the best single removal; which removals
        total = 0
        imp = -_BIG
        for x in s:
            total += T[x]
            if x:
                g = T[x] - D[x]
                if g > imp:
                    imp = g
        if imp == -_BIG:
            return _BIG, 0
        which = 0
        for j, x in enumerate(s):
            if x and T[x] - D[x] == imp:
                which |= DS[x] << (13 * j)
        return total - imp, which

    def discard(mask: int) -> tuple[int, int]:
        s = [mask & 8191, mask >> 13 & 8191, mask >> 26 & 8191, mask >> 39 & 8191]
        a, b, c, d = s
        trip = (a & b | c & d) & (a | b) & (c | d)
        if not trip:
            return improve(s)
        if trip.bit_count() > SETS_ENUM_MAX:
            # many set ranks (enumerating set choices grows as 6^ranks): the exact
            # minimum once per discard
            best = _BIG
            which = 0
            x = mask
            while x:
                low = x & -x
                x ^= low
                v = solve(mask ^ low)
                if v < best:
                    best, which = v, low
                elif v == best:
                    which |= low
            return best, which
        ranks = []
        while trip:
            low = trip & -trip
            ranks.append(low)
            trip ^= low
        best = _BIG
        which = 0

        def walk(i: int) -> None:
            nonlocal best, which
            if i == len(ranks):
                v, w = improve(s)
                if v < best:
                    best, which = v, w
                elif v == best:
                    which |= w
                return
            bit = ranks[i]
            pat = (s[0] & bit and 1) | (s[1] & bit and 2) | (s[2] & bit and 4) | (
                s[3] & bit and 8)
            walk(i + 1)
            for ch in choices[pat]:
                for j in range(4):
                    if ch >> j & 1:
                        s[j] ^= bit
                walk(i + 1)
                for j in range(4):
                    if ch >> j & 1:
                        s[j] ^= bit

        walk(0)
        return best, which

    return FourSuit(solve, sets, discard, T, TB)


__all__ = ["FourSuit", "SETS_ENUM_MAX", "four_suit"]
