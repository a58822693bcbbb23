"""Hands without wild cards: split a hand into suits and enumerate the choice of sets
(ranks held three or more times); each choice costs one table look-up per suit."""

from __future__ import annotations

from collections.abc import Sequence

from companion.melds.rules import _FULL, MeldRules
from companion.melds.tables import _BIG, _Tables


def _suits(mask: int, rules: MeldRules) -> list[int]:
    b = rules.base
    return [(mask >> (b + 13 * s)) & _FULL for s in range(rules.nsuits)]


def _rank_bits_3plus(s: Sequence[int]) -> int:
    c1 = c2 = c3 = 0
    for x in s:
        c3 |= c2 & x
        c2 |= c1 & x
        c1 |= x
    return c3


def _min_sets(s: list[int], ranks: list[int], i: int, tb: _Tables) -> int:
    if i == len(ranks):
        T = tb.T
        total = 0
        for x in s:
            total += T[x]
        return total
    bit = ranks[i]
    pat = 0
    for j, x in enumerate(s):
        if x & bit:
            pat |= 1 << j
    best = _min_sets(s, ranks, i + 1, tb)
    for choice in tb.SUB[pat]:
        for j in choice:
            s[j] ^= bit
        v = _min_sets(s, ranks, i + 1, tb)
        for j in choice:
            s[j] ^= bit
        if v < best:
            best = v
    return best


def _bits(x: int) -> list[int]:
    out = []
    while x:
        b = x & -x
        out.append(b)
        x ^= b
    return out


def _natural_min(mask: int, rules: MeldRules, tb: _Tables) -> int:
    s = _suits(mask, rules)
    trip = _rank_bits_3plus(s)
    if not trip:
        T = tb.T
        return sum(T[x] for x in s)
    return _min_sets(s, _bits(trip), 0, tb)


def _natural_discard(mask: int, rules: MeldRules, tb: _Tables) -> tuple[int, int]:
    """(least deadwood after one discard, mask of every discard reaching it) of a hand
    without wild cards, any number of suits: each choice of sets, less the best single
    removal from the suits' runs."""
    T, D, DS = tb.T, tb.D, tb.DS
    base = rules.base
    s = _suits(mask, rules)
    ranks = _bits(_rank_bits_3plus(s))
    best = _BIG
    which = 0

    def close() -> None:
        nonlocal best, which
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
        if v <= best:
            w = 0
            for j, x in enumerate(s):
                if x and T[x] - D[x] == imp:
                    w |= DS[x] << (base + 13 * j)
            if v < best:
                best, which = v, w
            else:
                which |= w

    def rec(i: int) -> None:
        if i == len(ranks):
            close()
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
    return best, which
