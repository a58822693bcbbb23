"""Reading cards at the API edge, and binding bare jokers: the one joker check.

A bare ``"JK"`` (or ``"JOKER"``) is :data:`ANY_JOKER` until :func:`bind_jokers` gives it
the lowest joker free where it is played (not on the table in table tracking, in the
player's hand in full play) and checks every designation against the cards.

>>> cards = read_cards(["7H", "JK", "9H"], "meld")
>>> bound, des = bind_jokers(cards, read_designations({"JK": "8H"}, "meld"), free=[C.JOKER2], what="meld")
>>> names(bound), {C.card_name(j): C.card_name(d) for j, d in des.items()}
(['7H', 'JK2', '9H'], {'JK2': '8H'})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from companion import cards as C
from companion.games.gingo.rules.errors import GingoError, GingoInputError

ANY_JOKER: Final = -1
_GENERIC: Final = frozenset({"JK", "JOKER", "🃏"})

Cards = tuple[int, ...]
Designations = tuple[tuple[int, int], ...]  # (joker or ANY_JOKER, the natural card it stands for)


# ---------------------------------------------------------------------------
# Reading cards (the API edge) and binding jokers


def name(card: int) -> str:
    """A card's name; ``"JK"`` for a joker not yet bound."""
    return "JK" if card == ANY_JOKER else C.card_name(card)


def names(cards: Iterable[int]) -> list[str]:
    return [name(c) for c in cards]


def read_card(token: object, what: str) -> int:
    """One card of the Gin-Go deck; a bare ``JK`` is :data:`ANY_JOKER`."""
    if isinstance(token, str) and token.strip().upper() in _GENERIC:
        return ANY_JOKER
    try:
        card = C.parse_card(token)  # type: ignore[arg-type]
    except ValueError as exc:
        raise GingoInputError(f"{what}: {exc}") from None
    if not 0 <= card < 54:
        raise GingoInputError(f"{what}: {C.card_name(card)} is not a card of the Gin-Go deck")
    return card


def read_natural(token: object, what: str) -> int:
    card = read_card(token, what)
    if not 0 <= card < 52:
        raise GingoInputError(f"{what}: a joker stands for a natural card, not {name(card)}")
    return card


def read_cards(raw: object, what: str) -> Cards:
    """A non-empty list of cards (or one string of names); a card given twice is refused."""
    if isinstance(raw, str):
        raw = raw.replace(",", " ").split()
    if not isinstance(raw, list) or not raw:
        raise GingoInputError(f"{what}: give a non-empty list of cards")
    out: list[int] = []
    for tok in raw:
        c = read_card(tok, what)
        if c != ANY_JOKER and c in out:
            raise GingoInputError(f"{what}: {C.card_name(c)} is given twice")
        out.append(c)
    return tuple(out)


def read_designations(raw: object, what: str) -> Designations:
    if not raw:
        return ()
    if not isinstance(raw, Mapping):
        raise GingoInputError(f'{what}: designations map a joker to a card, like {{"JK1": "8H"}}')
    return tuple((read_card(k, what), read_natural(v, what)) for k, v in raw.items())


def bind_keys(keys: Sequence[int], jokers: Sequence[int], what: str) -> list[int]:
    """Give each ``ANY_JOKER`` key, in order, one of ``jokers`` no other key names."""
    spare = [j for j in jokers if j not in keys]
    out = []
    for k in keys:
        if k == ANY_JOKER:
            if not spare:
                raise GingoError(f"{what}: designation for a joker that is not among the cards")
            k = spare.pop(0)
        out.append(k)
    return out


def bind_jokers(cards: Cards, designations: Designations, *, free: Iterable[int], what: str,
                designate: bool = True, none_left: str = "no joker left that is not already on the table",
                ) -> tuple[Cards, dict[int, int]]:
    """Cards with every bare joker bound to the lowest ``free`` joker not given otherwise,
    and the designations keyed by joker. With ``designate`` every joker needs one (the
    seed: a joker's suit in a set, its rank in a run, must be named)."""
    spare = [j for j in C.JOKERS if j in set(free) and j not in cards]
    bound: list[int] = []
    for c in cards:
        if c == ANY_JOKER:
            if not spare:
                raise GingoError(f"{what}: {none_left}")
            c = spare.pop(0)
        elif c in bound:
            raise GingoError(f"{what}: {C.card_name(c)} is given twice")
        bound.append(c)
    jokers = [c for c in bound if c in C.JOKERS]
    keys = bind_keys([k for k, _ in designations], [j for j, c in zip(bound, cards) if c == ANY_JOKER] + jokers,
                      what)
    des: dict[int, int] = {}
    for j, (_, d) in zip(keys, designations):
        if j not in C.JOKERS:
            raise GingoError(f"{what}: only jokers get designations, not {C.card_name(j)}")
        if j not in bound:
            raise GingoError(f"{what}: designation for {C.card_name(j)}, which is not among the cards")
        if j in des:
            raise GingoError(f"{what}: {C.card_name(j)} is designated twice")
        des[j] = d
    if designate:
        for j in jokers:
            if j not in des:
                raise GingoError(f"{what}: say which card {C.card_name(j)} stands for (a joker in a set takes a "
                                 "suit not showing, in a run a missing rank, and it must be named)")
    return tuple(bound), des


__all__ = ["ANY_JOKER", "Cards", "Designations", "name", "names", "read_card", "read_natural", "read_cards",
           "read_designations", "bind_keys", "bind_jokers"]
