"""Melds and arrangements: :class:`Meld`, :class:`Arrangement`, and every arrangement
of a hand that reaches the least deadwood."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations

from companion import cards as C
from companion.melds.block import _block_min, _block_ok
from companion.melds.natural import _bits
from companion.melds.rules import STANDARD, MeldRules, RulesArg, _hand_mask, get_rules
from companion.melds.solve import _solver
from companion.melds.wild import _wild_min


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
    variant: RulesArg = STANDARD,
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
    cards: int | str | Iterable[str | int], variant: RulesArg = STANDARD
) -> Arrangement:
    """One arrangement with the least deadwood."""
    rules = get_rules(variant)
    return _arrangements_mask(_hand_mask(cards, rules), rules, limit=1)[0]
