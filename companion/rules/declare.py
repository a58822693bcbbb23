"""A declared arrangement: the melds an ender lays out, the rest of the hand deadwood.

The knocker may declare any legal arrangement of the hand whose deadwood is within the
limit, and when two arrangements tie on deadwood the player chooses; seed 004 has the
knocker lay out the hand "grouping them into melds and unmatched cards". Gin Rummy and
Ginski take a declaration through ``score_hand(..., declared=[[cards], ...])`` and full
play's ``Knock(card, declared=...)``; this module reads and checks it.

A wild card in a declared meld is written with the card it stands for, as the engine
writes melds: ``W1=R5`` (Ginski). Every refusal is a ``ValueError`` naming the meld
and the rule.

>>> a = read_declared([["3H", "4H", "5H"], ["KS", "KD", "KC"]],
...                   C.to_mask("2H 3H 4H 5H KS KD KC AS AD 2C"), M.STANDARD)
>>> a.value, a.deadwood_names
(6, ['AS', '2H', 'AD', '2C'])
>>> read_declared([["3H", "4H", "6H"]], C.to_mask("2H 3H 4H 6H"), M.STANDARD)
Traceback (most recent call last):
...
companion.errors.IllegalAction: declared meld 1 (3H 4H 6H): not a run: the cards are not in sequence (the ace is low only)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from companion.errors import IllegalAction
from companion import cards as C
from companion import melds as M

Declared = Sequence[Iterable[Any]]


def _token(text: Any, rules: M.MeldRules) -> tuple[int, int | None]:
    """A card of a declared meld, and the card a wild stands for (``W1=R5``)."""
    if isinstance(text, str) and "=" in text:
        left, right = text.split("=", 1)
        wild, stands = C.parse_card(left), C.parse_card(right)
        if not rules.wild_mask >> wild & 1:
            raise IllegalAction(f"{C.card_name(wild)} is not a wild card, so it stands for itself")
        return wild, stands
    return C.parse_card(text), None


def read_declared(declared: Declared, hand: int, rules: M.MeldRules) -> M.Arrangement:
    """The arrangement ``declared`` (a list of melds, each a list of cards) makes of the
    card mask ``hand``: each meld legal under ``rules``, made of the hand's cards, no
    card in two melds; whatever is left is deadwood."""
    if isinstance(declared, (str, bytes)) or not isinstance(declared, Sequence):
        raise IllegalAction("declared must be a list of melds, each a list of cards")
    melds: list[M.Meld] = []
    used = 0
    designated = 0
    for i, meld_in in enumerate(declared):
        if isinstance(meld_in, str):
            meld_in = meld_in.replace(",", " ").split()
        if isinstance(meld_in, bytes) or not isinstance(meld_in, Iterable):
            raise IllegalAction(f"declared meld {i + 1} must be a list of cards")
        tokens = list(meld_in)
        shown = " ".join(str(t) for t in tokens)
        try:
            pairs = [_token(t, rules) for t in tokens]
        except ValueError as exc:
            raise IllegalAction(f"declared meld {i + 1} ({shown}): {exc}") from None
        cards = [c for c, _ in pairs]
        mask = C.cards_mask(cards)
        if mask.bit_count() != len(cards):
            raise IllegalAction(f"declared meld {i + 1} ({shown}): a card appears twice")
        missing = mask & ~hand
        if missing:
            raise IllegalAction(f"declared meld {i + 1} ({shown}): "
                             f"{', '.join(C.mask_names(missing))} is not in the ender's hand")
        if mask & used:
            raise IllegalAction(f"declared meld {i + 1} ({shown}): "
                             f"{', '.join(C.mask_names(mask & used))} is already in another meld")
        designations = {c: d for c, d in pairs if d is not None}
        try:
            meld = M.check_meld(cards, rules, designations)
        except ValueError as exc:
            raise IllegalAction(f"declared meld {i + 1} ({shown}): {exc}") from None
        for _, d in meld.wilds:
            if designated >> d & 1:
                raise IllegalAction(f"declared meld {i + 1} ({shown}): another wild already "
                                 f"stands for {C.card_name(d)}")
            designated |= 1 << d
        used |= mask
        melds.append(meld)
    dead = tuple(C.mask_cards(hand & ~used))
    return M.Arrangement(tuple(melds), dead, sum(rules.card_value(c) for c in dead))


def declared_names(arrangement: M.Arrangement) -> list[list[str]]:
    """The melds of ``arrangement`` as a declaration (lists of card names)."""
    return [m.names() for m in arrangement.melds]


__all__ = ["Declared", "read_declared", "declared_names"]
