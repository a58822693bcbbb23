"""Per-suit tables: the least run-only deadwood of every 13-bit suit pattern, the best
single removal from it, and the suit choices for sets at each presence pattern."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Final

from companion.melds.rules import MeldRules

_BIG: Final = 1 << 30  # more deadwood than any hand holds


def _run_table(values: Sequence[int]) -> list[int]:
    """Least deadwood of one suit's cards (13-bit mask) using runs only."""
    t = [0] * 8192
    for m in range(1, 8192):
        low = m & -m
        p = low.bit_length() - 1
        best = t[m ^ low] + values[p]
        run = low
        q = p + 1
        while q < 13 and m >> q & 1:
            run |= 1 << q
            if q - p >= 2:
                v = t[m ^ run]
                if v < best:
                    best = v
            q += 1
        t[m] = best
    return t


@dataclass
class _Tables:
    T: list[int]  # run-only deadwood per suit mask
    D: list[int]  # least run-only deadwood after removing one card (empty: huge)
    DS: list[int]  # which cards reach D (a suit mask)
    SUB: list[tuple[tuple[int, ...], ...]]  # natural-set suit choices per presence pattern
    SUBW: list[tuple[tuple[int, ...], ...]]  # suit choices for a set completed by a wild
    RC: list[int]  # the cards of a suit mask that some run within it could hold


def _run_capable(rules: MeldRules) -> list[int]:
    """Per suit mask, its cards that lie in three consecutive cards of the mask (so a
    run could hold them); with ``ace_high`` Q-K-A counts too."""
    windows = [0b111 << s for s in range(11)]
    if rules.ace_high:
        windows.append((1 << 11) | (1 << 12) | 1)
    out = [0] * 8192
    for m in range(8192):
        r = 0
        for w in windows:
            if m & w == w:
                r |= w
        out[m] = r
    return out


@lru_cache(maxsize=None)
def _tables(rules: MeldRules) -> _Tables:
    vals = rules.values
    low = _run_table(vals)
    if rules.ace_high:
        # Positions 2..14: bit 0 is rank 2 ... bit 11 is K, bit 12 the ace used high.
        high_vals = tuple(vals[1:]) + (vals[0],)
        th = _run_table(high_vals)
        T = [min(low[m], th[(m >> 1) | ((m & 1) << 12)]) for m in range(8192)]
    else:
        T = low
    D = [_BIG] * 8192
    DS = [0] * 8192
    for m in range(1, 8192):
        best = _BIG
        which = 0
        x = m
        while x:
            b = x & -x
            v = T[m ^ b]
            if v < best:
                best, which = v, b
            elif v == best:
                which |= b
            x ^= b
        D[m] = best
        DS[m] = which
    n = rules.nsuits
    SUB: list[tuple[tuple[int, ...], ...]] = []
    SUBW: list[tuple[tuple[int, ...], ...]] = []
    for pat in range(1 << n):
        present = [i for i in range(n) if pat >> i & 1]
        SUB.append(tuple(
            c for k in range(3, rules.set_max + 1) for c in combinations(present, k)
        ))
        SUBW.append(tuple(
            c for k in range(2, rules.set_max) for c in combinations(present, k)
        ) if rules.max_wilds_per_meld else ())
    return _Tables(T, D, DS, SUB, SUBW, _run_capable(rules))
