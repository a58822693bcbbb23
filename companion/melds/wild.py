"""Wild cards: an exact search that spends wilds on sets and, suit by suit, on runs
(memoised per suit pattern), then charges unused wilds as deadwood."""

from __future__ import annotations

from functools import lru_cache

from companion.melds.natural import _bits, _natural_min, _suits
from companion.melds.rules import MeldRules
from companion.melds.tables import _BIG, _tables

#: entries the suit-pattern memo holds before it and the run searches' caches start
#: afresh. Without a bound they grow with every hand the service has seen (the seat bots
#: ask about each hand a draw could give): after 400 three-player Ginski matches of the
#: seat bot, 110,000 memo entries and a process of 51 MB, still growing; with this bound,
#: 42 MB and level, at the same speed (``benchmarks/memo.py``, with ``--unbounded``).
MEMO_LIMIT = 1 << 16


class _RunWild:
    """Least deadwood of one suit's naturals and ``k`` wilds given to its runs."""

    def __init__(self, rules: MeldRules) -> None:
        self.rules = rules
        self.memo: dict[tuple[int, int, int, int], int] = {}
        self.restarts = 0  # times the memo started afresh (see MEMO_LIMIT)
        v = rules.values
        self.low_vals = v
        self.high_vals = tuple(v[1:]) + (v[0],)

    def __call__(self, m: int, k: int, forbid: int) -> int:
        """``m``: naturals of the suit; ``forbid``: ranks wilds may not stand for."""
        key = (m, k, forbid, 0)
        r = self.memo.get(key)
        if r is not None:
            return r
        self._bound()
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

    def less_one(self, m: int, k: int, forbid: int) -> int:
        """As a call, with one of the naturals ``m`` set aside (the discard)."""
        key = (m, k, forbid, 1)
        r = self.memo.get(key)
        if r is None:
            r = min((self(m ^ b, k, forbid) for b in _bits(m)), default=_BIG)
            self._bound()
            self.memo[key] = r
        return r

    def _bound(self) -> None:
        """Start the memo and the run searches' caches afresh once they hold
        :data:`MEMO_LIMIT` entries (checked on a miss only: a hit costs nothing more)."""
        searched = _RunWild._f.cache_info().currsize + _RunWild._f_dup.cache_info().currsize
        if len(self.memo) >= MEMO_LIMIT or searched >= MEMO_LIMIT:
            self.memo.clear()
            self.restarts += 1
            _RunWild._f.cache_clear()
            _RunWild._f_dup.cache_clear()

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


def _wild_min(mask: int, rules: MeldRules, held: int | None = None, taken: int = 0,
              discard: bool = False) -> int:
    """Exact minimum deadwood of a hand that holds wild cards.

    ``held``: cards a Gin-Go joker may not stand for (the whole hand by default);
    ``taken``: cards some wild already stands for. ``discard``: the least deadwood after
    one discard, in one search (for rules where a wild may stand for a card the hand
    holds, so setting a card aside frees no designation): some best hand after a
    discard is a whole-hand arrangement with the discard among its deadwood, so the runs
    are searched with a flag for "a deadwood card, or an unused wild, is set aside".
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

    def leaf_less_one(ws: int) -> int:
        # as leaf, per number of wilds used: [no discard yet, discard made]
        left = w - ws
        cur = [[0] + [_BIG] * left, [_BIG] * (left + 1)]
        for j in range(nsuits):
            x = s[j]
            if not x:
                continue
            nxt = [[_BIG] * (left + 1), [_BIG] * (left + 1)]
            fj = forbids[j]
            for used in range(left + 1):
                a0, a1 = cur[0][used], cur[1][used]
                if a0 >= _BIG and a1 >= _BIG:
                    continue
                for kk in range(left - used + 1):
                    r = rw(x, kk, fj)
                    t = used + kk
                    nxt[0][t] = min(nxt[0][t], a0 + r)
                    nxt[1][t] = min(nxt[1][t], a1 + r, a0 + rw.less_one(x, kk, fj))
            cur = nxt
        out = _BIG
        for used in range(left + 1):
            spare = left - used  # unused wilds: deadwood, or one of them the discard
            out = min(out, cur[1][used] + wv * spare)
            if spare:
                out = min(out, cur[0][used] + wv * (spare - 1))
        return out

    end = leaf_less_one if discard else leaf

    def rec(i: int, ws: int) -> None:
        nonlocal best
        if i == len(ranks):
            v = end(ws)
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
