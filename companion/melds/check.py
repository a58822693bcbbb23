"""Validating a declared meld."""

from __future__ import annotations

from collections.abc import Sequence

from companion.errors import IllegalAction
from companion import cards as C
from companion.melds.arrange import Meld
from companion.melds.rules import MeldRules


def check_meld(
    cards: Sequence[int], rules: MeldRules, designations: dict[int, int] | None = None
) -> Meld:
    """Check that ``cards`` (with wild ``designations``: wild -> card it stands for)
    form one legal meld; return it as a :class:`Meld` or raise ``ValueError``."""
    designations = dict(designations or {})
    if len(cards) < 3:
        raise IllegalAction(f"a meld needs at least 3 cards, got {len(cards)}")
    if len(set(cards)) != len(cards):
        raise IllegalAction("a meld cannot hold the same card twice")
    wilds = [c for c in cards if rules.wild_mask >> c & 1]
    nats = [c for c in cards if not rules.wild_mask >> c & 1]
    for c in nats:
        rules.card_value(c)  # raises for foreign cards
    if wilds and rules.max_wilds_per_meld == 0:
        raise IllegalAction(f"wild cards do not meld under the {rules.name} rules")
    if len(wilds) > rules.run_wild_limit(len(nats)):
        if rules.wilds_fewer_than_naturals:
            raise IllegalAction("a meld must hold fewer jokers than natural cards")
        raise IllegalAction(f"a meld may hold at most {rules.max_wilds_per_meld} wild card")
    for w in wilds:
        if w not in designations:
            raise IllegalAction(f"say which card {C.card_name(w)} stands for")
        d = designations[w]
        if rules.wild_mask >> d & 1 or not rules.natural_mask >> d & 1:
            raise IllegalAction(f"{C.card_name(w)} must stand for a natural card")
    stands = [designations.get(c, c) for c in cards]
    if len(set(stands)) != len(stands):
        raise IllegalAction("a wild card cannot stand for a card already in the meld")
    ranks = {C.rank(x) for x in stands}
    suits = {C.suit(x) for x in stands}
    if len(ranks) == 1:
        if len(stands) > rules.set_max:
            raise IllegalAction(f"a set holds at most {rules.set_max} cards")
        order = sorted(range(len(cards)), key=lambda i: C.suit(stands[i]))
        return Meld("set", tuple(cards[i] for i in order),
                    tuple((w, designations[w]) for w in wilds))
    if len(suits) != 1:
        raise IllegalAction(
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
    raise IllegalAction(
        "not a run: the cards are not in sequence"
        + (" (the ace is low or high, never round the corner)" if rules.ace_high else
           " (the ace is low only)")
    )
