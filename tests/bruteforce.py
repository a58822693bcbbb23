"""A slow, obviously-correct meld search used to check the fast solver.

It lists every legal meld of a hand (every wild with every card it could stand for),
then tries every partition of the hand into disjoint melds whose wilds stand for
distinct cards. Written from the rules, not from the solver.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product

from companion.cards import card_name, rank, suit
from companion.melds import MeldRules


def _card(rules: MeldRules, s: int, r: int) -> int:
    return rules.base + 13 * s + r - 1


def all_melds(hand: frozenset[int], rules: MeldRules) -> list[tuple[frozenset[int], frozenset[int]]]:
    """(cards, designated cards) for every legal meld drawn from ``hand``."""
    wilds = sorted(c for c in hand if rules.wild_mask >> c & 1)
    nats = sorted(c for c in hand if not rules.wild_mask >> c & 1)
    out: list[tuple[frozenset[int], frozenset[int]]] = []

    def wild_ok(n_nat: int, n_wild: int) -> bool:
        if n_wild == 0:
            return True
        if rules.max_wilds_per_meld == 0:
            return False
        if rules.wilds_fewer_than_naturals:
            return n_wild < n_nat
        return n_wild <= rules.max_wilds_per_meld and n_nat >= 1

    def may_stand_for(card: int) -> bool:
        return rules.wild_may_duplicate_hand or card not in hand

    # sets
    for r in range(1, 14):
        same = [c for c in nats if rank(c) == r]
        for k in range(1, len(same) + 1):
            for combo in combinations(same, k):
                for nw in range(0, len(wilds) + 1):
                    size = k + nw
                    if size < 3 or size > rules.set_max or not wild_ok(k, nw):
                        continue
                    missing = [
                        _card(rules, s, r) for s in range(rules.nsuits)
                        if _card(rules, s, r) not in combo and may_stand_for(_card(rules, s, r))
                    ]
                    for ws in combinations(wilds, nw):
                        for des in combinations(missing, nw):
                            out.append((frozenset(combo) | frozenset(ws), frozenset(des)))
    # runs: positions 1..13, or 1..14 with the ace high
    top = 14 if rules.ace_high else 13
    for s in range(rules.nsuits):
        for lo in range(1, top + 1):
            for hi in range(lo + 2, top + 1):
                if lo == 1 and hi == 14:
                    continue
                positions = [_card(rules, s, 1 if p == 14 else p) for p in range(lo, hi + 1)]
                # each position: the natural (if held) or a wild standing for it
                choices = []
                for card in positions:
                    opts = []
                    if card in hand:
                        opts.append("n")
                    if wilds and may_stand_for(card):
                        opts.append("w")
                    choices.append(opts)
                for pick in product(*choices):
                    nw = pick.count("w")
                    nn = len(pick) - nw
                    if nw > len(wilds) or not wild_ok(nn, nw):
                        continue
                    nat_cards = frozenset(c for c, x in zip(positions, pick) if x == "n")
                    des = frozenset(c for c, x in zip(positions, pick) if x == "w")
                    for ws in combinations(wilds, nw):
                        out.append((nat_cards | frozenset(ws), des))
    return out


def brute_min(hand_cards: list[int], rules: MeldRules) -> int:
    hand = frozenset(hand_cards)
    melds = all_melds(hand, rules)
    by_card: dict[int, list[tuple[frozenset[int], frozenset[int]]]] = {c: [] for c in hand}
    for m in melds:
        for c in m[0]:
            by_card[c].append(m)

    def value(c: int) -> int:
        return rules.card_value(c)

    @lru_cache(maxsize=None)
    def rec(rest: frozenset[int], designated: frozenset[int]) -> int:
        if not rest:
            return 0
        c = min(rest)
        best = value(c) + rec(rest - {c}, designated)
        for cards_, des in by_card[c]:
            if cards_ <= rest and not (des & designated):
                v = rec(rest - cards_, designated | des)
                if v < best:
                    best = v
        return best

    return rec(hand, frozenset())


def brute_best_discard(hand_cards: list[int], rules: MeldRules) -> tuple[int, list[str]]:
    results = {c: brute_min([x for x in hand_cards if x != c], rules) for c in hand_cards}
    best = min(results.values())
    return best, [card_name(c) for c in sorted(hand_cards) if results[c] == best]


__all__ = ["all_melds", "brute_min", "brute_best_discard", "suit"]
