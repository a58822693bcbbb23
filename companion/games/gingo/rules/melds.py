"""Melds on the Gin-Go table and the rules for laying them: new melds, hits, jokers.

The seed's joker rules live here once: a joker may not stand for a card already in play
(a natural or a designation in any meld on the table; full play adds the cards its player
holds, table tracking the cards captured with it), it may not join a closed set, a meld
holds at most one joker (or fewer jokers than naturals, by option), and a natural may
go onto the place its joker stands for (the joker stays).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion import cards as C
from companion import melds as M
from companion.games.gingo.rules.errors import GingoError
from companion.games.gingo.rules.options import Options


@dataclass
class TableMeld:
    """A meld on the table. ``cards`` in the order laid (a natural laid on its joker's
    place is kept too); ``designations`` joker -> card it stands for."""

    id: int
    seat: int
    side: int
    kind: str
    cards: list[int]
    designations: dict[int, int]

    def copy(self) -> TableMeld:
        return TableMeld(self.id, self.seat, self.side, self.kind, list(self.cards), dict(self.designations))

    @property
    def jokers(self) -> list[int]:
        return [c for c in self.cards if c in C.JOKERS]

    @property
    def naturals(self) -> list[int]:
        return [c for c in self.cards if c not in C.JOKERS]

    def stands(self) -> set[int]:
        """The natural cards this meld shows (naturals and what its jokers stand for)."""
        return set(self.naturals) | set(self.designations.values())

    def table_order(self) -> list[int]:
        st = self.stands()
        if self.kind == "set":
            return sorted(st, key=C.suit)
        ranks = {C.rank(x) for x in st}
        high = 1 in ranks and 13 in ranks
        return sorted(st, key=lambda x: 14 if high and C.rank(x) == 1 else C.rank(x))

    def position(self, card: int) -> int:
        """Where ``card`` stands in :meth:`table_order` (99 if it does not)."""
        order = self.table_order()
        return order.index(card) if card in order else 99

    @property
    def closed(self) -> bool:
        return self.kind == "set" and len(self.naturals) == 4

    @property
    def full(self) -> bool:
        """A set showing all four suits (naturals or designations): no joker may join it."""
        return self.kind == "set" and len({C.suit(x) for x in self.stands()}) == 4

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "seat": self.seat, "side": self.side, "kind": self.kind,
            "cards": [C.card_name(c) for c in self.cards],
            "designations": {C.card_name(j): C.card_name(d) for j, d in self.designations.items()},
            "stands_for": [C.card_name(c) for c in self.table_order()],
            "closed": self.closed,
        }


def _shape_rules(rules: M.MeldRules) -> M.MeldRules:
    """The meld shape rules with the joker count left to :func:`check_joker_count`."""
    return dataclasses.replace(rules, name=rules.name, max_wilds_per_meld=2, wilds_fewer_than_naturals=False)


def check_joker_count(jokers: int, naturals: int, options: Options) -> None:
    if options.max_jokers_per_meld == "fewer_than_naturals":
        if jokers and jokers >= naturals:
            raise GingoError(
                "a meld must hold fewer jokers than natural cards (option max_jokers_per_meld = fewer_than_naturals)")
    elif jokers > 1:
        raise GingoError("a meld may hold at most one joker (option max_jokers_per_meld = 1)")


def in_play(melds: Iterable[TableMeld]) -> dict[int, int]:
    """Natural card -> id of the meld showing it (as a natural or a designation)."""
    return {c: m.id for m in melds for c in m.stands()}


def check_designations(des: Mapping[int, int], melds: Sequence[TableMeld], *, laid: Iterable[int] = (),
                       held: Iterable[int] = (), held_as: str = "a card the player holds", what: str) -> None:
    """The seed: "a joker cannot match cards already in play". A designation may not be
    a card shown by a meld on the table, a natural laid in the same play (``laid``),
    another designation of the same play, or one of ``held`` (the player's other cards in
    full play, the other captured cards when going out)."""
    shown = in_play(melds)
    nat = set(laid)
    hold = set(held)
    seen: set[int] = set()
    for j, d in des.items():
        if d in shown:
            raise GingoError(f"{what}: {C.card_name(j)} cannot stand for {C.card_name(d)}, a card already in play in "
                             f"meld {shown[d]} (a joker cannot match cards already in play)")
        if d in nat or d in seen:
            raise GingoError(f"{what}: {C.card_name(j)} cannot stand for {C.card_name(d)}, already in the meld (a joker "
                             "takes a suit not showing in a set, a missing rank in a run)")
        if d in hold:
            raise GingoError(f"{what}: {C.card_name(j)} cannot stand for {C.card_name(d)}, {held_as} (a joker "
                             "cannot match cards already in play)")
        seen.add(d)


def check_not_on_table(cards: Iterable[int], melds: Sequence[TableMeld], what: str) -> None:
    on = {c: m.id for m in melds for c in m.cards}
    for c in cards:
        if c in on:
            raise GingoError(f"{what}: {C.card_name(c)} is already on the table in meld {on[c]}")


def new_meld(mid: int, seat: int, side: int, cards: Sequence[int], des: dict[int, int],
             melds: Sequence[TableMeld], options: Options, *, held: Iterable[int] = (), what: str = "meld",
             ) -> TableMeld:
    """A meld of ``cards`` checked against the table; raises :class:`GingoError`."""
    nats = [c for c in cards if c not in C.JOKERS]
    check_not_on_table(cards, melds, what)
    check_designations(des, melds, laid=nats, held=held, what=what)
    check_joker_count(len(cards) - len(nats), len(nats), options)
    try:
        shaped = M.check_meld(list(cards), _shape_rules(options.meld_rules), des)
    except ValueError as exc:
        raise GingoError(f"{what}: {exc}") from None
    return TableMeld(mid, seat, side, shaped.kind, list(cards), dict(des))


def hit_meld(m: TableMeld, cards: Sequence[int], des: dict[int, int], melds: Sequence[TableMeld],
             options: Options, *, held: Iterable[int] = (), held_as: str = "a card the player holds",
             what: str = "hit") -> tuple[TableMeld, list[int]]:
    """``m`` with ``cards`` laid off onto it (a new meld value; ``m`` is not changed) and the
    natural cards whose chips go down; raises :class:`GingoError` when they do not fit."""
    nats = [c for c in cards if c not in C.JOKERS]
    jokers = [c for c in cards if c in C.JOKERS]
    check_not_on_table(cards, melds, what)
    if jokers and m.full:
        raise GingoError(f"{what}: a joker cannot hit a closed set (all four suits of meld {m.id} are showing)")
    check_designations(des, melds, laid=nats, held=held, held_as=held_as, what=what)
    covered = set(m.naturals)
    joker_places = {d for d in m.designations.values() if d not in covered}
    extends = [c for c in nats if c not in joker_places]  # the others cover their joker's place
    base = [c for c in m.cards if c not in covered or c not in m.designations.values()]
    check_joker_count(len(m.jokers) + len(jokers), len(m.naturals) + len(nats), options)
    try:
        shaped = M.check_meld(base + extends + jokers, _shape_rules(options.meld_rules), {**m.designations, **des})
    except ValueError as exc:
        raise GingoError(
            f"{what}: {' '.join(C.card_name(c) for c in cards)} does not fit meld {m.id} "
            f"({' '.join(C.card_name(c) for c in m.table_order())}, a {m.kind}): {exc}") from None
    if shaped.kind != m.kind:
        raise GingoError(f"{what}: the cards would turn meld {m.id} from a {m.kind} into a {shaped.kind}")
    out = m.copy()
    out.cards.extend(cards)
    out.designations.update(des)
    return out, nats + [des[j] for j in jokers]


def joker_fits(m: TableMeld, joker: int, melds: Sequence[TableMeld], options: Options,
               forbid: Iterable[int] = ()) -> list[int]:
    """The cards ``joker`` may stand for on meld ``m`` (none of ``forbid``)."""
    if m.full:
        return []
    some = next(iter(m.stands()))
    if m.kind == "set":
        places = [C.make_card(s, C.rank(some)) for s in range(4)]
    else:
        places = [C.make_card(C.suit(some), r) for r in range(1, 14)]
    out = []
    shown = in_play(melds)
    no = set(forbid)
    for d in places:
        if d in shown or d in no:
            continue
        try:
            hit_meld(m, [joker], {joker: d}, melds, options)
        except GingoError:
            continue
        out.append(d)
    return out


__all__ = ["TableMeld", "check_joker_count", "check_designations", "check_not_on_table", "in_play", "new_meld",
           "hit_meld", "joker_fits"]
