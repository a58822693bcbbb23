"""Lay-offs: the defender's best lay-offs onto the knocker's melds together with
their own melds."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from companion import cards as C
from companion.melds.arrange import Arrangement, Meld, _arrangements_mask
from companion.melds.natural import _bits
from companion.melds.rules import STANDARD, MeldRules, RulesArg, _hand_mask, get_rules
from companion.melds.solve import _solver


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
    variant: RulesArg = STANDARD,
    allow_wild: bool = False,
) -> LayoffResult:
    """Choose the defender's lay-offs onto ``knocker_melds`` together with their own
    melds so that the defender's deadwood is least.

    >>> from companion.melds import STANDARD, check_meld
    >>> k = [check_meld([C.parse_card(x) for x in "5H 6H 7H".split()], STANDARD)]
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
