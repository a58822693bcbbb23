"""Plays a Gin-Go hand can make, found by search (for the bot and ``legal_actions``).

Melds come from the hand's naturals (sets of one rank, runs of one suit, ace low or
high) with at most the jokers the option allows, each joker standing for a card not in
play on the table nor in the hand; hits are single cards that fit a meld on the table,
checked by the engine's own rules.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any

from companion import cards as C
from companion.games.gingo.rules.engine import GingoGame


def _run_windows(naturals: set[int], suit: int, jokers: list[int], limit: Any, forbid: set[int]) -> Iterator[
        tuple[list[int], dict[int, int]]]:
    """Runs of ``suit`` from the hand's naturals plus jokers (positions 1..14, 14 = ace high)."""
    max_gaps = min(len(jokers), 2 if limit == "fewer_than_naturals" else 1)
    if len(naturals) < 3 and not (max_gaps and len(naturals) >= 2):
        return
    base = suit * 13
    for lo in range(1, 13):
        cards: list[int] = []
        gaps: list[int] = []
        for hi in range(lo, 15):
            if lo == 1 and hi == 14:
                break
            c = base + (0 if hi == 14 else hi - 1)
            if c in naturals:
                cards.append(c)
            else:
                if len(gaps) == max_gaps or c in forbid:
                    break
                gaps.append(c)
            if hi - lo < 2 or not cards:
                continue
            if gaps and limit == "fewer_than_naturals" and len(gaps) >= len(cards):
                continue
            des = {jokers[i]: g for i, g in enumerate(gaps)}
            yield cards + list(des), des


def candidate_melds(hand: Sequence[int], game: GingoGame) -> list[tuple[list[int], dict[int, int]]]:
    """New melds the hand can lay (cards, designations), jokers standing only for cards
    not in play on the table nor in the hand."""
    opts = game.options
    naturals = {c for c in hand if c < 52} - {c for m in game.table_melds for c in m.naturals}
    jokers = [c for c in hand if c in C.JOKERS] if opts.jokers else []
    in_play = game.in_play()
    forbid = {c for c in range(52) if in_play >> c & 1} | {c for c in hand if c < 52}
    out: list[tuple[list[int], dict[int, int]]] = []
    for r in range(1, 14):
        have = [c for c in naturals if C.rank(c) == r]
        for k in range(3, len(have) + 1):
            for combo in combinations(sorted(have), k):
                out.append((list(combo), {}))
        if jokers:
            missing = [s * 13 + r - 1 for s in range(4) if s * 13 + r - 1 not in naturals]
            for k in range(2, min(len(have), 3) + 1):
                for combo in combinations(sorted(have), k):
                    for d in missing:
                        if d not in forbid:
                            out.append((list(combo) + [jokers[0]], {jokers[0]: d}))
                            break
    for s in range(4):
        out.extend(_run_windows({c for c in naturals if C.suit(c) == s}, s, jokers,
                                opts.max_jokers_per_meld, forbid))
    return out


def candidate_hits(hand: Sequence[int], game: GingoGame) -> list[tuple[int, int, dict[int, int]]]:
    """Single-card hits (meld id, card, designations) that fit, checked by the table rules."""
    out: list[tuple[int, int, dict[int, int]]] = []
    in_play = game.in_play()
    on_table = game.table_cards()
    for m in game.table_melds:
        st = m.stands()
        if m.kind == "set":
            r = C.rank(next(iter(st)))
            fits = [s * 13 + r - 1 for s in range(4)]
        else:
            s = C.suit(next(iter(st)))
            # a single card goes onto a run only next to an end (or where its joker
            # stands): the ranks from one below the lowest to one above the highest
            pos = {C.rank(x) for x in st}
            if 1 in pos and 13 in pos:
                pos = {14 if r == 1 else r for r in pos}
            lo, hi = min(pos) - 1, max(pos) + 1
            fits = [s * 13 + x - 1 for x in range(max(lo, 1), min(hi, 13) + 1)]
            if hi >= 14 and s * 13 not in fits:
                fits.insert(0, s * 13)  # the ace high (in card order, as the others)
        for c in hand:
            if c < 52:
                if c in fits and not on_table >> c & 1 and (c not in st or c in m.designations.values()):
                    if c in st and c in m.naturals:
                        continue
                    out.append((m.id, c, {}))
            elif game.options.jokers:
                for d in fits:
                    if not in_play >> d & 1 and d not in hand:
                        out.append((m.id, c, {c: d}))
    return [(mid, c, des) for mid, c, des in out if game.can_hit(mid, [c], des)]


__all__ = ["candidate_melds", "candidate_hits"]
