"""Large hands: a rank-by-rank dynamic programme over blocks (four suits).

In one suit, the cards kept out of sets, plus the places wilds fill, form blocks of
consecutive ranks. A block of three or more with no wild, or with one wild, melds
completely (as runs); a block with two wilds melds when some cut between the wilds
leaves three or more cards on each side (one wild per run). A block of one or two
naturals is deadwood. So the least deadwood is found rank by rank, each suit carrying
only the shape of its open block: no branching per natural card, only per set choice
and per wild. Used for the four-suit games when the hand is large.
"""

from __future__ import annotations

from functools import lru_cache

from companion.melds.natural import _suits
from companion.melds.rules import MeldRules
from companion.melds.tables import _BIG, _tables


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


def _block_ok(rules: MeldRules) -> bool:
    """Whether the rank-by-rank programme covers these rules (four suits, one wild per
    meld, wilds never standing for a card the hand holds)."""
    return (
        rules.nsuits == 4 and not rules.wilds_fewer_than_naturals
        and rules.max_wilds_per_meld <= 1 and not rules.wild_may_duplicate_hand
    )
