"""Exact meld search: minimum deadwood, best discard, every optimal arrangement, lay-offs.

The hand is a card bitmask (see :mod:`companion.cards`). Each suit is a 13-bit slice;
with no wild cards the minimum deadwood is::

    min over the choice of sets (ranks held 3+ times)  of  sum over suits T[suit bits left]

where ``T`` is a 8192-entry table of the least run-only deadwood of one suit's cards.
Most hands hold no rank three times, so the answer is four table look-ups. Wild cards
(Ginski wilds, Gin-Go jokers) go through an exact search that spends wilds on sets and,
suit by suit, on runs (memoised per suit pattern), then charges unused wilds as deadwood.

Meld rules per game live in :class:`MeldRules`; ``variant`` may be ``"gin"``,
``"color_gin"``, ``"ginski"``, ``"gingo"`` (one joker per meld) or ``"gingo_fewer"``
(jokers fewer than naturals in a meld), or a :class:`MeldRules`.

Wild cards stand for a card (their *designation*): a run wild for the missing rank of
the run's suit, a set wild for the rank in a suit not in the set. Two wilds never stand
for the same card. In Gin-Go a joker may not stand for a card the same hand holds
(the seed: a joker "cannot match cards already in play"); in Ginski it may.

>>> min_deadwood("5H 6H 7H 9C 9D 9S KS QS 2D 3C")
25
>>> best_discard("5H 6H 7H 9C 9D 9S KS QS 2D 3C AC")
(16, ['QS', 'KS'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Final

from companion import cards as C

_FULL: Final = 0x1FFF
_BIG: Final = 1 << 30


# ---------------------------------------------------------------------------
# Rules


@dataclass(frozen=True)
class MeldRules:
    """How cards meld in one game."""

    name: str
    base: int  # bit of suit 0, rank 1 (0 for the standard deck, 64 for Rumski)
    nsuits: int  # 4 suits or 5 Rumski colours
    values: tuple[int, ...]  # deadwood value of ranks 1..13
    wild_mask: int = 0  # which card bits are wild
    wild_value: int = 0
    ace_high: bool = False  # Q-K-A allowed (never round the corner)
    set_max: int = 4
    max_wilds_per_meld: int = 0  # 0 = wilds never meld
    wilds_fewer_than_naturals: bool = False  # Gin-Go option instead of one per meld
    wild_may_duplicate_hand: bool = False  # Ginski: a wild may stand for a card you hold

    @property
    def natural_mask(self) -> int:
        m = 0
        for s in range(self.nsuits):
            m |= _FULL << (self.base + 13 * s)
        return m

    def card_value(self, card: int) -> int:
        if self.wild_mask >> card & 1:
            return self.wild_value
        off = card - self.base
        if not 0 <= off < 13 * self.nsuits:
            raise ValueError(f"{C.card_name(card)} is not a card of {self.name}")
        return self.values[off % 13]

    def run_wild_limit(self, naturals: int) -> int:
        """How many wilds a meld with ``naturals`` natural cards may hold."""
        if self.max_wilds_per_meld == 0:
            return 0
        if self.wilds_fewer_than_naturals:
            return max(naturals - 1, 0)
        return self.max_wilds_per_meld


_GIN_VALUES: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_FACE_VALUES: Final = tuple(range(1, 14))

GIN: Final = MeldRules("gin", 0, 4, _GIN_VALUES)
COLOR_GIN: Final = MeldRules("color_gin", 0, 4, _GIN_VALUES)
GINSKI: Final = MeldRules(
    "ginski", C.RUMSKI_BASE, 5, _FACE_VALUES, wild_mask=C.WILD_MASK, wild_value=20,
    set_max=5, max_wilds_per_meld=1, wild_may_duplicate_hand=True,
)
GINGO: Final = MeldRules(
    "gingo", 0, 4, _GIN_VALUES, wild_mask=C.JOKER_MASK, wild_value=15, ace_high=True,
    set_max=4, max_wilds_per_meld=1,
)
GINGO_FEWER: Final = MeldRules(
    "gingo_fewer", 0, 4, _GIN_VALUES, wild_mask=C.JOKER_MASK, wild_value=15, ace_high=True,
    set_max=4, max_wilds_per_meld=2, wilds_fewer_than_naturals=True,
)
VARIANTS: Final[dict[str, MeldRules]] = {
    r.name: r for r in (GIN, COLOR_GIN, GINSKI, GINGO, GINGO_FEWER)
}


def get_rules(variant: str | MeldRules) -> MeldRules:
    if isinstance(variant, MeldRules):
        return variant
    try:
        return VARIANTS[variant]
    except KeyError:
        raise ValueError(
            f"unknown variant {variant!r} (one of {', '.join(VARIANTS)})"
        ) from None


# ---------------------------------------------------------------------------
# Tables


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
    return _Tables(T, D, DS, SUB, SUBW)


# ---------------------------------------------------------------------------
# Fast path: no wild cards in the hand


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


# Enumerating set choices costs about 2^(ranks held 3+ times); past this many such
# ranks the rank-by-rank programme is faster (measured in benchmarks/solver.py).
_SETS_ENUM_MAX = 5


def _make_gin_fast(tb: _Tables, rules: MeldRules) -> Callable[[int], int]:
    T = tb.T

    def fast(mask: int) -> int:
        a = mask & 8191
        b = mask >> 13 & 8191
        c = mask >> 26 & 8191
        d = mask >> 39 & 8191
        trip = (a & b & (c | d)) | (c & d & (a | b))
        if trip:
            ranks = _bits(trip)
            if len(ranks) > _SETS_ENUM_MAX:
                return _block_min(mask, rules)
            return _min_sets([a, b, c, d], ranks, 0, tb)
        return T[a] + T[b] + T[c] + T[d]

    return fast


def _block_ok(rules: MeldRules) -> bool:
    """Whether the rank-by-rank programme covers these rules (four suits, one wild per
    meld, wilds never standing for a card the hand holds)."""
    return (
        rules.nsuits == 4 and not rules.wilds_fewer_than_naturals
        and rules.max_wilds_per_meld <= 1 and not rules.wild_may_duplicate_hand
    )


# ---------------------------------------------------------------------------
# Wild cards: runs of one suit with a budget of wilds


class _RunWild:
    """Least deadwood of one suit's naturals and ``k`` wilds given to its runs."""

    def __init__(self, rules: MeldRules) -> None:
        self.rules = rules
        self.memo: dict[tuple[int, int, int, int], int] = {}
        v = rules.values
        self.low_vals = v
        self.high_vals = tuple(v[1:]) + (v[0],)

    def __call__(self, m: int, k: int, forbid: int) -> int:
        """``m``: naturals of the suit; ``forbid``: ranks wilds may not stand for."""
        key = (m, k, forbid, 0)
        r = self.memo.get(key)
        if r is not None:
            return r
        if self.rules.wild_may_duplicate_hand:
            r = self._f_dup(m, k, forbid, self.low_vals)
        else:
            r = self._f(m, k, 0, forbid, self.low_vals)
        if self.rules.ace_high:
            mh = (m >> 1) | ((m & 1) << 12)
            # The ace's own rank may not be stood for twice: forbid position 12 (ace high)
            # if the ace is held, and the low ace does not exist in this frame.
            fh = (forbid >> 1) | ((forbid & 1) << 12)
            r = min(r, self._f(mh, k, 0, fh, self.high_vals))
        self.memo[key] = r
        return r

    @lru_cache(maxsize=None)  # noqa: B019 - the instance lives as long as its rules
    def _f(self, m: int, k: int, lo: int, forbid: int, vals: tuple[int, ...]) -> int:
        """Least deadwood of naturals ``m`` (13 positions) given ``k`` wilds, a wild
        not used in a run counting as deadwood; runs may not start below ``lo``; wilds
        may not stand on ``forbid`` positions."""
        if not m:
            return k * self.rules.wild_value
        low = m & -m
        p = low.bit_length() - 1
        # p is deadwood
        best = vals[p] + self._f(m ^ low, k, p + 1, forbid, vals)
        rules = self.rules
        fixed_limit = not rules.wilds_fewer_than_naturals
        max_w = min(k, rules.max_wilds_per_meld if fixed_limit else k)
        blocked = forbid | ((1 << lo) - 1)
        # a run whose lowest natural is p: positions s..p-1 are wilds
        for s in range(p, p - max_w - 1, -1):
            if s < 0:
                break
            if s < p and blocked >> s & 1:
                break
            wilds = p - s
            nat = 0
            used = 0
            for q in range(p, 13):
                if m >> q & 1:
                    nat += 1
                    used |= 1 << q
                else:
                    if blocked >> q & 1:
                        break
                    wilds += 1
                    if wilds > max_w:
                        break
                if q - s >= 2 and wilds <= rules.run_wild_limit(nat):
                    v = self._f(m & ~used, k - wilds, q + 1, forbid, vals)
                    if v < best:
                        best = v
        return best


    @lru_cache(maxsize=None)  # noqa: B019 - the instance lives as long as its rules
    def _f_dup(self, m: int, k: int, blocked: int, vals: tuple[int, ...]) -> int:
        """As :meth:`_f` for games where a wild may stand for a card the hand holds
        (Ginski): two runs may then share a position, one with the natural card and
        one with a wild standing for it (``1 2 W=3`` beside ``3 4 W=5``). ``blocked``:
        positions no wild may stand for (already stood for, or set designations)."""
        if not m:
            return k * self.rules.wild_value
        low = m & -m
        p = low.bit_length() - 1
        best = vals[p] + self._f_dup(m ^ low, k, blocked, vals)
        rules = self.rules
        if k == 0:
            # no wilds left: plain runs of consecutive naturals from p
            run = low
            q = p + 1
            while q < 13 and m >> q & 1:
                run |= 1 << q
                if q - p >= 2:
                    v = self._f_dup(m ^ run, 0, blocked, vals)
                    if v < best:
                        best = v
                q += 1
            return best
        limit_fixed = not rules.wilds_fewer_than_naturals
        max_w = min(k, rules.max_wilds_per_meld if limit_fixed else k)
        # runs whose lowest natural is p; positions s..p-1 are wilds
        stack: list[tuple[int, int, int, int, int]] = []
        for s in range(p, p - max_w - 1, -1):
            if s < 0:
                break
            wl = 0
            ok = True
            for x in range(s, p):
                if blocked >> x & 1:
                    ok = False
                    break
                wl |= 1 << x
            if not ok:
                break
            stack.append((s, p, low, wl, 1))
        while stack:
            s, q, used, wl, nat = stack.pop()
            nw = wl.bit_count()
            if q - s >= 2 and nw <= rules.run_wild_limit(nat):
                v = self._f_dup(m & ~used, k - nw, blocked | wl, vals)
                if v < best:
                    best = v
            nq = q + 1
            if nq >= 13:
                continue
            if m >> nq & 1:
                stack.append((s, nq, used | 1 << nq, wl, nat + 1))
            if nw < max_w and not blocked >> nq & 1:
                # a wild at nq (standing for a card the hand may also hold)
                stack.append((s, nq, used, wl | 1 << nq, nat))
        return best


@lru_cache(maxsize=None)
def _run_wild(rules: MeldRules) -> _RunWild:
    return _RunWild(rules)


def _wild_min(mask: int, rules: MeldRules, held: int | None = None, taken: int = 0) -> int:
    """Exact minimum deadwood of a hand that holds wild cards.

    ``held``: cards a Gin-Go joker may not stand for (the whole hand by default);
    ``taken``: cards some wild already stands for.
    """
    tb = _tables(rules)
    w = (mask & rules.wild_mask).bit_count()
    nat = mask & rules.natural_mask
    if w == 0 or rules.max_wilds_per_meld == 0:
        return _natural_min(nat, rules, tb) + w * rules.wild_value
    if held is None:
        held = nat
    s = _suits(nat, rules)
    dup = rules.wild_may_duplicate_hand
    # ranks a wild may not stand for, per suit: designations so far (and, in Gin-Go,
    # every card the hand holds)
    forbids = _suits(taken, rules)
    if not dup:
        for j, x in enumerate(_suits(held, rules)):
            forbids[j] |= x
    rw = _run_wild(rules)
    c1 = c2 = 0
    for x in s:
        c2 |= c1 & x
        c1 |= x
    ranks = _bits(c2)
    nsuits = rules.nsuits
    wv = rules.wild_value
    best = _BIG

    def leaf(ws: int) -> int:
        left = w - ws
        cur = [0] + [_BIG] * left
        for j in range(nsuits):
            x = s[j]
            if not x:
                continue
            nxt = [_BIG] * (left + 1)
            fj = forbids[j]
            for used in range(left + 1):
                cu = cur[used]
                if cu >= _BIG:
                    continue
                for kk in range(left - used + 1):
                    v = cu + rw(x, kk, fj)
                    if v < nxt[used + kk]:
                        nxt[used + kk] = v
            cur = nxt
        return min(cur[u] + wv * (left - u) for u in range(left + 1))

    def rec(i: int, ws: int) -> None:
        nonlocal best
        if i == len(ranks):
            v = leaf(ws)
            if v < best:
                best = v
            return
        bit = ranks[i]
        pat = 0
        for j in range(nsuits):
            if s[j] & bit:
                pat |= 1 << j
        rec(i + 1, ws)
        # one more set at this rank (a 5-colour deck can hold two), then look again
        for choice in tb.SUB[pat]:
            for j in choice:
                s[j] ^= bit
            rec(i, ws)
            for j in choice:
                s[j] ^= bit
        if ws < w:
            for choice in tb.SUBW[pat]:
                for d in range(nsuits):
                    if d in choice or forbids[d] & bit:
                        continue
                    for j in choice:
                        s[j] ^= bit
                    forbids[d] |= bit
                    rec(i, ws + 1)
                    forbids[d] ^= bit
                    for j in choice:
                        s[j] ^= bit

    rec(0, 0)
    return best


# ---------------------------------------------------------------------------
# Large hands: a rank-by-rank dynamic programme over blocks (four suits)
#
# In one suit, the cards kept out of sets, plus the places wilds fill, form blocks of
# consecutive ranks. A block of three or more with no wild, or with one wild, melds
# completely (as runs); a block with two wilds melds when some cut between the wilds
# leaves three or more cards on each side (one wild per run). A block of one or two
# naturals is deadwood. So the least deadwood is found rank by rank, each suit carrying
# only the shape of its open block: no branching per natural card, only per set choice
# and per wild. Used for the four-suit games when the hand is large.

# Block codes per suit: 0 none; 1..3 no wild, length 1, 2, 3+; 4..9 one wild, with
# d = length - first possible cut (c0) in -2..3; 10..12 two wilds, length beyond c0
# 1..3. Bit 4 of a suit's state: its ace is kept back to be used high (or, with no
# natural ace, a wild already stands for it).
_BAD = -1


def _block_extend(code: int, wild: bool) -> int:
    if code == 0:
        return 4 if wild else 1
    if code <= 3:
        if not wild:
            return min(code + 1, 3)
        return 5 if code == 1 else 6
    if code <= 9:
        d = code - 6
        if not wild:
            return min(d + 1, 3) + 6
        if d < 0:
            return _BAD
        return 9 + min(d + 1, 3)
    if wild:
        return _BAD
    return min(code - 9 + 1, 3) + 9


_EXT_NAT = [_block_extend(c, False) for c in range(13)]
_EXT_WILD = [_block_extend(c, True) for c in range(13)]


_PRUNE_AT = 32
_FLAGS = (1 << 4) | (1 << 9) | (1 << 14) | (1 << 19)

# how many naturals must follow a wild placed on a block with this code
_WILD_NEEDS = [2, 1, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0]


def _block_close_ok(code: int) -> bool:
    return code <= 3 or 6 <= code <= 9 or code == 12


@lru_cache(maxsize=None)
def _suit_moves(
    rules: MeldRules, p: int, has_nat: bool, nxt1: bool, nxt2: bool, forbidden: bool,
    keep_ace_ok: bool, wild_on: bool,
) -> tuple[tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...], ...]:
    """One suit's moves at position ``p``: ``[in_set][designated][state]`` -> tuple of
    (new state, cost, wilds used); a state is ``code | ace_flag << 4``."""
    posval = list(rules.values) + [rules.values[0]]
    wv = rules.wild_value
    ace_high = rules.ace_high

    def short_cost(code: int) -> int:
        if code == 1:
            return posval[p - 1]
        if code == 2:
            return posval[p - 1] + posval[p - 2]
        return 0

    per_case = []
    for in_set in (False, True):
        per_dsg = []
        for designated in (False, True):
            table = []
            for st in range(32):
                code = st & 15
                flag = st >> 4
                out: list[tuple[int, int, int]] = []
                if code > 12:
                    table.append(tuple(out))
                    continue
                if p == 13:
                    present = bool(flag) and has_nat
                    wild_ok = not flag and not forbidden
                    flag = 0
                else:
                    present = has_nat and not in_set
                    wild_ok = not has_nat and not forbidden and not designated
                    if p == 0 and designated:
                        flag = 1  # a set wild stands for this ace
                if present:
                    out.append((_EXT_NAT[code] | flag << 4, 0, 0))
                    if p == 0 and ace_high and keep_ace_ok:
                        out.append((16, 0, 0))  # keep the ace back for a Q-K-A run
                else:
                    if _block_close_ok(code):
                        out.append((flag << 4, short_cost(code), 0))
                    if wild_ok and wild_on:
                        nc = _EXT_WILD[code]
                        # a wild must end in a run: it needs naturals after it when it
                        # starts a block or follows a single card
                        needs = _WILD_NEEDS[code]
                        if nc != _BAD and not (needs >= 1 and not nxt1) \
                                and not (needs >= 2 and not nxt2):
                            f2 = 1 if (p == 0 and ace_high) else flag
                            out.append((nc | f2 << 4, -wv, 1))
                table.append(tuple(out))
            per_dsg.append(tuple(table))
        per_case.append(tuple(per_dsg))
    return tuple(per_case)


def _block_min(mask: int, rules: MeldRules, held: int | None = None, taken: int = 0) -> int:
    """Exact least deadwood for four-suit rules with one wild per meld and at most two
    wilds in the hand; its cost grows with ranks, not with the hand's set choices."""
    nat = mask & rules.natural_mask
    wilds = (mask & rules.wild_mask).bit_count()
    w = wilds if rules.max_wilds_per_meld else 0
    if held is None:
        held = nat
    s = _suits(nat, rules)
    forbid = _suits(taken, rules)
    if not rules.wild_may_duplicate_hand:
        for j, x in enumerate(_suits(held, rules)):
            forbid[j] |= x
    vals = rules.values
    posval = list(vals) + [vals[0]]  # position 13 is the ace used high
    tb = _tables(rules)
    wv = rules.wild_value
    ace_high = rules.ace_high
    # pending cost of closing a short wild-free block that ends just before position p
    def short_cost(code: int, p: int) -> int:
        if code == 1:
            return posval[p - 1]
        if code == 2:
            return posval[p - 1] + posval[p - 2]
        return 0

    UB = 20  # wilds used sit at bit 20
    ace_val = rules.values[0]
    # the most the ace at the top can save: the last run (X Y A) loses the ace, leaving
    # two naturals, or a natural and a wild, unmelded
    posval_top3 = rules.values[12] + max(rules.values[11], wv if w else 0)
    states: dict[int, int] = {0: wilds * rules.wild_value}
    top = 13 if ace_high else 12
    for p in range(top + 1):
        if p < 13:
            bit = 1 << p
            pat = 0
            for j in range(4):
                if s[j] & bit:
                    pat |= 1 << j
            configs: list[tuple[int, int]] = [(0, -1)]
            for choice in tb.SUB[pat]:
                configs.append((sum(1 << j for j in choice), -1))
            if w:
                for choice in tb.SUBW[pat]:
                    cm = sum(1 << j for j in choice)
                    for d in range(4):
                        if not cm >> d & 1 and not forbid[d] & bit:
                            configs.append((cm, d))
        else:
            bit = 1
            configs = [(0, -1)]
        moves = []
        for j in range(4):
            has_nat = bool(s[j] & bit)
            if p + 1 < 13:
                nxt1 = bool(s[j] >> (p + 1) & 1)
            else:
                nxt1 = p + 1 == 13 and ace_high and bool(s[j] & 1)
            if p + 2 < 13:
                nxt2 = bool(s[j] >> (p + 2) & 1)
            else:
                nxt2 = p + 2 == 13 and ace_high and bool(s[j] & 1)
            moves.append(_suit_moves(
                rules, p, has_nat, nxt1, nxt2,
                bool(forbid[j] & (1 if p == 13 else bit)),
                (s[j] & 0x1800 == 0x1800) or (w > 0 and bool(s[j] & 0x1800)), w > 0,
            ))
        new: dict[int, int] = {}
        get = new.get
        items = list(states.items())
        for cm, dsg in configs:
            t0 = moves[0][cm & 1][dsg == 0]
            t1 = moves[1][cm >> 1 & 1][dsg == 1]
            t2 = moves[2][cm >> 2 & 1][dsg == 2]
            t3 = moves[3][cm >> 3 & 1][dsg == 3]
            bu = 1 if dsg >= 0 else 0
            bc = -wv if dsg >= 0 else 0
            for state, cost in items:
                u0 = (state >> UB) + bu
                if u0 > w:
                    continue
                cost += bc
                for n0, c0, w0 in t0[state & 31]:
                    for n1, c1, w1 in t1[state >> 5 & 31]:
                        for n2, c2, w2 in t2[state >> 10 & 31]:
                            for n3, c3, w3 in t3[state >> 15 & 31]:
                                uu = u0 + w0 + w1 + w2 + w3
                                if uu > w:
                                    continue
                                key = n0 | n1 << 5 | n2 << 10 | n3 << 15 | uu << UB
                                v = cost + c0 + c1 + c2 + c3
                                old = get(key)
                                if old is None or v < old:
                                    new[key] = v
        # an ace kept back for high saves at most what its last run would leave
        # unmelded, and costs at most itself: prune flagged states by those bounds
        if ace_high and 0 < p < 13 and len(new) > _PRUNE_AT:
            gain = posval_top3
            for key in [k for k in new if k & _FLAGS]:
                c = new.get(key)
                if c is None:
                    continue
                for sh in (4, 9, 14, 19):
                    if key >> sh & 1:
                        alt = get(key ^ (1 << sh))
                        if alt is None:
                            continue
                        if c >= alt + gain:
                            del new[key]
                            break
                        if alt >= c + ace_val:
                            del new[key ^ (1 << sh)]
        # a state that used more wilds for no less cost is never better
        if w:
            for key in [k for k in new if k >> UB]:
                c = new[key]
                low = key & ((1 << UB) - 1)
                for u in range(key >> UB):
                    alt = new.get(low | u << UB)
                    if alt is not None and alt <= c:
                        del new[key]
                        break
        states = new
    end = top + 1
    best = _BIG
    for state, cost in states.items():
        total = cost
        for j in range(4):
            code = state >> (5 * j) & 15
            if not _block_close_ok(code):
                total = _BIG
                break
            total += short_cost(code, end)
        if total < best:
            best = total
    return best


# ---------------------------------------------------------------------------
# Public numbers


def _hand_mask(cards: int | str | Iterable[str | int], rules: MeldRules) -> int:
    mask = C.to_mask(cards)
    extra = mask & ~(rules.natural_mask | rules.wild_mask)
    if extra:
        names = ", ".join(C.mask_names(extra))
        raise ValueError(f"not a card of {rules.name}: {names}")
    return mask


Solver = Callable[[int], int]


@lru_cache(maxsize=None)
def _build_solver(rules: MeldRules) -> Solver:
    tb = _tables(rules)
    wm = rules.wild_mask
    if rules.base == 0 and rules.nsuits == 4:
        nat_fast = _make_gin_fast(tb, rules)
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


def deadwood_of_mask(mask: int, variant: str | MeldRules = "gin") -> int:
    """Minimum deadwood of a card bitmask (no validation; the fast entry point)."""
    entry = _FAST.get(variant) or _fast_entry(variant)
    return entry[0](mask)


def min_deadwood(cards: int | str | Iterable[str | int], variant: str | MeldRules = "gin") -> int:
    """Least deadwood value over every arrangement of ``cards`` into melds.

    ``cards`` is a bitmask, a string (``"5H 6H 7H"``) or a list of names or ints.

    >>> min_deadwood(["AS", "2S", "3S", "KD"])
    10
    >>> min_deadwood("QS KS AS", "gingo"), min_deadwood("QS KS AS", "gin")
    (0, 21)
    """
    entry = _FAST.get(variant) or _fast_entry(variant)
    if type(cards) is int:
        if cards & ~entry[1] or cards < 0:
            _hand_mask(cards, get_rules(variant))
        return entry[0](cards)
    return entry[0](_hand_mask(cards, get_rules(variant)))


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


# ---------------------------------------------------------------------------
# Melds and arrangements


@dataclass(frozen=True)
class Meld:
    """A meld: ``kind`` is ``"run"`` or ``"set"``; ``cards`` in meld order (runs low to
    high, by the rank each card stands for); ``wilds`` maps each wild to the card it
    stands for (its designation)."""

    kind: str
    cards: tuple[int, ...]
    wilds: tuple[tuple[int, int], ...] = ()

    @property
    def mask(self) -> int:
        return C.cards_mask(self.cards)

    @property
    def naturals(self) -> tuple[int, ...]:
        w = {c for c, _ in self.wilds}
        return tuple(c for c in self.cards if c not in w)

    def stands_for(self) -> tuple[int, ...]:
        """The natural card each card of the meld is (wilds replaced by designations)."""
        d = dict(self.wilds)
        return tuple(d.get(c, c) for c in self.cards)

    def names(self) -> list[str]:
        d = dict(self.wilds)
        return [
            f"{C.card_name(c)}={C.card_name(d[c])}" if c in d else C.card_name(c)
            for c in self.cards
        ]

    def __str__(self) -> str:
        return " ".join(self.names())


@dataclass(frozen=True)
class Arrangement:
    """One way to lay out a hand: melds and deadwood cards."""

    melds: tuple[Meld, ...]
    deadwood: tuple[int, ...]
    value: int

    @property
    def deadwood_names(self) -> list[str]:
        return [C.card_name(c) for c in self.deadwood]

    def as_dict(self) -> dict[str, object]:
        return {
            "melds": [m.names() for m in self.melds],
            "deadwood": self.deadwood_names,
            "deadwood_value": self.value,
        }


@dataclass(frozen=True)
class _Cand:
    kind: str
    mask: int  # cards used, naturals and wilds
    nat_positions: tuple[int, ...]  # for runs: natural cards in rank order
    wild_positions: tuple[int, ...]  # for runs: designated natural card ints
    set_rank: int = 0
    set_wild: int = 0  # for sets: how many wilds


def _suit_card(rules: MeldRules, suit: int, pos: int) -> int:
    """Card at run position ``pos`` (0..13; 13 is the ace used high) of ``suit``."""
    return rules.base + 13 * suit + (0 if pos == 13 else pos)


def _melds_with(c: int, R: int, held: int, designated: int, rules: MeldRules) -> Iterator[_Cand]:
    """Every meld drawn from ``R`` that contains natural card ``c`` (the lowest natural
    card of ``R``)."""
    off = c - rules.base
    su, pr = divmod(off, 13)
    wilds = _bits(R & rules.wild_mask)
    nw = len(wilds)
    dup = rules.wild_may_duplicate_hand
    # sets
    same = []
    for j in range(rules.nsuits):
        cc = rules.base + 13 * j + pr
        if cc != c and R >> cc & 1:
            same.append(cc)
    for k in range(2, rules.set_max):
        for combo in combinations(same, k):
            m = (1 << c) | C.cards_mask(combo)
            yield _Cand("set", m, (), (), pr + 1, 0)
    if nw and rules.max_wilds_per_meld:
        for k in range(1, rules.set_max - 1):
            for combo in combinations(same, k):
                m = (1 << c) | C.cards_mask(combo) | wilds[0]
                in_set = {C.suit(x) for x in combo} | {su}
                for j in range(rules.nsuits):
                    d = rules.base + 13 * j + pr
                    if j in in_set or designated >> d & 1 or (not dup and held >> d & 1):
                        continue
                    yield _Cand("set", m, (), (d,), pr + 1, 1)
    # runs: positions 0..12 are ranks A..K; 13 is the ace used high (ace-high games)
    top = 13 if rules.ace_high else 12
    cposes = [pr] + ([13] if rules.ace_high and pr == 0 else [])
    sbase = rules.base + 13 * su
    for cpos in cposes:
        for s in range(cpos, -1, -1):
            for e in range(max(cpos, s + 2), top + 1):
                if s == 0 and e == 13:
                    break  # the ace cannot be at both ends
                nat_cards: list[int] = []
                wild_cards: list[int] = []
                opt_nat: list[int] = []  # naturals a Ginski wild may stand in for
                ok = True
                for p in range(s, e + 1):
                    card = sbase + (0 if p == 13 else p)
                    if p == cpos:
                        nat_cards.append(card)
                    elif R >> card & 1:
                        nat_cards.append(card)
                        if dup:
                            opt_nat.append(card)
                    else:
                        if designated >> card & 1 or (not dup and held >> card & 1):
                            ok = False
                            break
                        wild_cards.append(card)
                if not ok or len(wild_cards) > nw:
                    continue
                for nrep in range(0, len(opt_nat) + 1):
                    for rep in combinations(opt_nat, nrep):
                        if any(designated >> x & 1 for x in rep):
                            continue
                        nats = [x for x in nat_cards if x not in rep]
                        des = sorted(wild_cards + list(rep))
                        if len(des) > nw or len(des) > rules.run_wild_limit(len(nats)):
                            continue
                        m = C.cards_mask(nats)
                        for i in range(len(des)):
                            m |= wilds[i]
                        yield _Cand("run", m, tuple(nats), tuple(des))


def _key_order(rules: MeldRules, card: int, high: bool) -> int:
    r = C.rank(card)
    return 14 if (high and r == 1) else r


def _build_meld(cand: _Cand, rules: MeldRules) -> Meld:
    """Turn a candidate into a :class:`Meld` with its wilds' designations."""
    wild_ints = [b.bit_length() - 1 for b in _bits(cand.mask & rules.wild_mask)]
    pairs = tuple(zip(wild_ints, cand.wild_positions))
    if cand.kind == "run":
        allc = list(cand.nat_positions) + list(cand.wild_positions)
        high = any(C.rank(x) == 13 for x in allc) and any(C.rank(x) == 1 for x in allc)
        order = sorted(allc, key=lambda x: _key_order(rules, x, high))
        dmap = {d: w for w, d in pairs}
        return Meld("run", tuple(dmap.get(x, x) for x in order), pairs)
    nats = [b.bit_length() - 1 for b in _bits(cand.mask & ~rules.wild_mask)]
    return Meld("set", tuple(nats + wild_ints), pairs)


def arrangements(
    cards: int | str | Iterable[str | int],
    variant: str | MeldRules = "gin",
    limit: int = 1000,
) -> list[Arrangement]:
    """Every arrangement that reaches the least deadwood (at most ``limit`` of them).

    Arrangements that differ only in the order of melds or in which card a Ginski wild
    replaces are listed once.

    >>> [str(m) for m in arrangements("7H 7S 7C 7D 8H 9H")[0].melds]
    ['7S 7D 7C', '7H 8H 9H']
    >>> [[str(m) for m in a.melds] for a in arrangements("5D 6D 7D 6H 6C 8H 5C")]
    [['5D 6D 7D'], ['6H 6D 6C']]
    """
    rules = get_rules(variant)
    mask = _hand_mask(cards, rules)
    return _arrangements_mask(mask, rules, limit)


def _arrangements_mask(mask: int, rules: MeldRules, limit: int = 1000) -> list[Arrangement]:
    held = mask & rules.natural_mask
    opt = _dw_held(mask, held, rules)
    out: list[Arrangement] = []
    wm = rules.wild_mask
    seen: set[tuple[frozenset[int], tuple[int, ...]]] = set()

    def dfs(R: int, d: int, melds: list[_Cand], designated: int) -> None:
        if len(out) >= limit:
            return
        nat = R & ~wm
        if not nat:
            dv = d + (R & wm).bit_count() * rules.wild_value
            if dv == opt:
                _emit(melds, R)
            return
        low = nat & -nat
        c = low.bit_length() - 1
        v = rules.card_value(c)
        if d + v + _dw_held(R ^ low, held, rules, designated) == opt:
            dfs(R ^ low, d + v, melds, designated)
        for cand in _melds_with(c, R, held, designated, rules):
            rest = R & ~cand.mask
            nd = designated
            for x in cand.wild_positions:
                nd |= 1 << x
            if d + _dw_held(rest, held, rules, nd) == opt:
                melds.append(cand)
                dfs(rest, d, melds, nd)
                melds.pop()

    def _emit(melds: list[_Cand], R: int) -> None:
        built = [_build_meld(cand, rules) for cand in melds]
        dead = tuple(C.mask_cards(mask & ~sum(m.mask for m in built)))
        key = (frozenset(m.mask for m in built), tuple(sorted(dead)))
        if key in seen:
            return
        seen.add(key)
        out.append(Arrangement(tuple(built), dead, sum(rules.card_value(x) for x in dead)))

    dfs(mask, 0, [], 0)
    return out


def _dw_held(mask: int, held: int, rules: MeldRules, taken: int = 0) -> int:
    """Least deadwood of ``mask`` where no wild stands for a ``taken`` card nor, in
    Gin-Go, for a ``held`` one."""
    if mask & rules.wild_mask and rules.max_wilds_per_meld:
        if _block_ok(rules) and (mask & rules.wild_mask).bit_count() <= 2:
            return _block_min(mask, rules, held, taken)
        return _wild_min(mask, rules, held, taken)
    return _solver(rules)(mask)


def best_arrangement(
    cards: int | str | Iterable[str | int], variant: str | MeldRules = "gin"
) -> Arrangement:
    """One arrangement with the least deadwood."""
    rules = get_rules(variant)
    return _arrangements_mask(_hand_mask(cards, rules), rules, limit=1)[0]


# ---------------------------------------------------------------------------
# Validating a declared meld


def check_meld(
    cards: Sequence[int], rules: MeldRules, designations: dict[int, int] | None = None
) -> Meld:
    """Check that ``cards`` (with wild ``designations``: wild -> card it stands for)
    form one legal meld; return it as a :class:`Meld` or raise ``ValueError``."""
    designations = dict(designations or {})
    if len(cards) < 3:
        raise ValueError(f"a meld needs at least 3 cards, got {len(cards)}")
    if len(set(cards)) != len(cards):
        raise ValueError("a meld cannot hold the same card twice")
    wilds = [c for c in cards if rules.wild_mask >> c & 1]
    nats = [c for c in cards if not rules.wild_mask >> c & 1]
    for c in nats:
        rules.card_value(c)  # raises for foreign cards
    if wilds and rules.max_wilds_per_meld == 0:
        raise ValueError(f"wild cards do not meld in {rules.name}")
    if len(wilds) > rules.run_wild_limit(len(nats)):
        if rules.wilds_fewer_than_naturals:
            raise ValueError("a meld must hold fewer jokers than natural cards")
        raise ValueError(f"a meld may hold at most {rules.max_wilds_per_meld} wild card")
    for w in wilds:
        if w not in designations:
            raise ValueError(f"say which card {C.card_name(w)} stands for")
        d = designations[w]
        if rules.wild_mask >> d & 1 or not rules.natural_mask >> d & 1:
            raise ValueError(f"{C.card_name(w)} must stand for a natural card")
    stands = [designations.get(c, c) for c in cards]
    if len(set(stands)) != len(stands):
        raise ValueError("a wild card cannot stand for a card already in the meld")
    ranks = {C.rank(x) for x in stands}
    suits = {C.suit(x) for x in stands}
    if len(ranks) == 1:
        if len(stands) > rules.set_max:
            raise ValueError(f"a set holds at most {rules.set_max} cards")
        order = sorted(range(len(cards)), key=lambda i: C.suit(stands[i]))
        return Meld("set", tuple(cards[i] for i in order),
                    tuple((w, designations[w]) for w in wilds))
    if len(suits) != 1:
        raise ValueError(
            "not a meld: a set is one rank, a run is one suit in sequence "
            f"({' '.join(C.card_name(x) for x in stands)})"
        )
    rs = sorted(C.rank(x) for x in stands)
    if rs == list(range(rs[0], rs[0] + len(rs))):
        order = sorted(range(len(cards)), key=lambda i: C.rank(stands[i]))
        return Meld("run", tuple(cards[i] for i in order),
                    tuple((w, designations[w]) for w in wilds))
    if rules.ace_high and rs[0] == 1:
        hs = sorted(14 if r == 1 else r for r in rs)
        if hs == list(range(hs[0], hs[0] + len(hs))):
            order = sorted(range(len(cards)),
                           key=lambda i: 14 if C.rank(stands[i]) == 1 else C.rank(stands[i]))
            return Meld("run", tuple(cards[i] for i in order),
                        tuple((w, designations[w]) for w in wilds))
    raise ValueError(
        "not a run: the cards are not in sequence"
        + (" (the ace is low or high, never round the corner)" if rules.ace_high else
           " (the ace is low only)")
    )


# ---------------------------------------------------------------------------
# Lay-offs


@dataclass(frozen=True)
class LayoffResult:
    """The defender's best lay-offs together with their own melds."""

    laid: tuple[tuple[int, tuple[int, ...]], ...]  # (index of the knocker's meld, cards)
    arrangement: Arrangement  # the defender's remaining cards
    deadwood: int

    @property
    def cards(self) -> tuple[int, ...]:
        return tuple(c for _, cs in self.laid for c in cs)


def _layoff_options(meld: Meld, hand: int, rules: MeldRules, allow_wild: bool) -> list[int]:
    """Every set of the defender's cards that can be laid off onto ``meld`` (as masks),
    the empty set first. Runs take chains at either end (the 7 and then the 8)."""
    out = [0]
    stands = meld.stands_for()
    nwild = len(meld.wilds)
    nnat = len(stands) - nwild
    hand_w = _bits(hand & rules.wild_mask) if allow_wild and rules.max_wilds_per_meld else []
    if meld.kind == "set":
        r = C.rank(stands[0])
        have = {C.suit(x) for x in stands}
        avail = [rules.base + 13 * j + r - 1 for j in range(rules.nsuits) if j not in have]
        avail = [x for x in avail if hand >> x & 1]
        room = rules.set_max - len(stands)
        for k in range(1, room + 1):
            for combo in combinations(avail, k):
                out.append(C.cards_mask(combo))
        if hand_w and room > 0 and nwild < rules.run_wild_limit(nnat):
            for k in range(0, room):
                for combo in combinations(avail, k):
                    out.append(C.cards_mask(combo) | hand_w[0])
        return out
    su = C.suit(stands[0])
    rs = [C.rank(x) for x in stands]
    high = 1 in rs and 13 in rs
    pos = sorted((14 if (high and r == 1) else r) for r in rs)
    lo, hi = pos[0], pos[-1]
    has_ace = 1 in rs
    top = 14 if (rules.ace_high and not has_ace) else 13
    bottom = 2 if high else 1

    def card_at(p: int) -> int:
        return rules.base + 13 * su + (0 if p == 14 else p - 1)

    def chain(start: int, step: int, stop: int) -> list[tuple[int, int]]:
        """(natural cards mask, wilds used) for each chain length from ``start``."""
        res: list[tuple[int, int]] = []
        m = 0
        used_w = 0
        p = start
        while (p >= stop) if step < 0 else (p <= stop):
            card = card_at(p)
            if hand >> card & 1:
                m |= 1 << card
            elif used_w < len(hand_w) and nwild + used_w + 1 <= rules.run_wild_limit(
                nnat + m.bit_count()
            ):
                used_w += 1
            else:
                break
            res.append((m, used_w))
            p += step
        return res

    lefts = chain(lo - 1, -1, bottom) if lo - 1 >= bottom else []
    rights = chain(hi + 1, 1, top) if hi + 1 <= top else []
    for lm, lw in [(0, 0)] + lefts:
        for rm, rw in [(0, 0)] + rights:
            if not (lm or rm or lw or rw) or lm & rm or lw + rw > len(hand_w):
                continue
            if nwild + lw + rw > rules.run_wild_limit(nnat + (lm | rm).bit_count()):
                continue
            m = lm | rm
            for i in range(lw + rw):
                m |= hand_w[i]
            out.append(m)
    return out


def best_layoffs(
    defender: int | str | Iterable[str | int],
    knocker_melds: Sequence[Meld],
    variant: str | MeldRules = "gin",
    allow_wild: bool = False,
) -> LayoffResult:
    """Choose the defender's lay-offs onto ``knocker_melds`` together with their own
    melds so that the defender's deadwood is least.

    >>> k = [check_meld([C.parse_card(x) for x in "5H 6H 7H".split()], GIN)]
    >>> r = best_layoffs("8H 9H KS QS", k)
    >>> r.deadwood, [C.card_name(c) for c in r.cards]
    (20, ['8H', '9H'])
    """
    rules = get_rules(variant)
    hand = _hand_mask(defender, rules)
    opts = [_layoff_options(m, hand, rules, allow_wild) for m in knocker_melds]
    best: tuple[int, tuple[int, ...]] | None = None

    def rec(i: int, used: int, chosen: list[int]) -> None:
        nonlocal best
        if i == len(opts):
            v = _solver(rules)(hand & ~used)
            if best is None or v < best[0] or (
                v == best[0] and sum(x.bit_count() for x in chosen) < sum(
                    x.bit_count() for x in best[1])
            ):
                best = (v, tuple(chosen))
            return
        for o in opts[i]:
            if o & used:
                continue
            chosen.append(o)
            rec(i + 1, used | o, chosen)
            chosen.pop()

    rec(0, 0, [])
    assert best is not None
    used = 0
    laid = []
    for i, o in enumerate(best[1]):
        if o:
            laid.append((i, tuple(C.mask_cards(o))))
            used |= o
    arr = _arrangements_mask(hand & ~used, rules, limit=1)[0]
    return LayoffResult(tuple(laid), arr, best[0])


__all__ = [
    "MeldRules", "GIN", "COLOR_GIN", "GINSKI", "GINGO", "GINGO_FEWER", "VARIANTS",
    "get_rules", "min_deadwood", "deadwood_of_mask", "best_discard", "best_discard_mask",
    "Meld", "Arrangement", "arrangements", "best_arrangement", "check_meld",
    "LayoffResult", "best_layoffs",
]
