"""Exact meld search: minimum deadwood, best discard, every optimal arrangement, lay-offs.

The hand is a card bitmask (see :mod:`companion.cards`). Each suit is a 13-bit slice;
with no wild cards the minimum deadwood is::

    min over the choice of sets (ranks held 3+ times)  of  sum over suits T[suit bits left]

where ``T`` is a 8192-entry table of the least run-only deadwood of one suit's cards.
Most hands hold no rank three times, so the answer is four table look-ups. Wild cards
(Ginski wilds, Gin-Go jokers) go through an exact search that spends wilds on sets and,
suit by suit, on runs (memoised per suit pattern), then charges unused wilds as deadwood.

How cards meld is a rule set, :class:`MeldRules`: ``variant`` is one (a game's Variant
carries its own, ``Variant.meld_rules``) or the name of one: ``"standard"`` (the
default), ``"rumski"`` (Rumski cards and wilds), ``"jokers"`` (one joker per meld) or
``"jokers_fewer"`` (jokers fewer than naturals in a meld). Nothing here names a game.

Wild cards stand for a card (their *designation*): a run wild for the missing rank of
the run's suit, a set wild for the rank in a suit not in the set. Two wilds never stand
for the same card. In Gin-Go a joker may not stand for a card the same hand holds
(the seed: a joker "cannot match cards already in play"); in Ginski it may.

>>> min_deadwood("5H 6H 7H 9C 9D 9S KS QS 2D 3C")
25
>>> best_discard("5H 6H 7H 9C 9D 9S KS QS 2D 3C AC")
(16, ['QS', 'KS'])

The package holds one module per part (imports point down only: ``cards`` <- ``rules``
<- ``tables`` <- ``natural`` <- ``wild``, ``block`` <- ``fast`` <- ``solve`` <-
``arrange`` <- ``check``, ``layoffs``):

* :mod:`~companion.melds.rules`: :class:`MeldRules`, the rule sets, ``get_rules``;
* :mod:`~companion.melds.tables`: the per-suit run tables;
* :mod:`~companion.melds.natural`: hands without wilds, set enumeration;
* :mod:`~companion.melds.wild`: the wild-card search;
* :mod:`~companion.melds.block`: the rank-by-rank programme for large hands;
* :mod:`~companion.melds.fast`: the four-suit solver (minimum and best discard of a mask);
* :mod:`~companion.melds.solve`: ``min_deadwood``, ``best_discard`` and their mask forms,
  ``least_after_discard_mask``
  (reading the caller's cards into a mask and choosing each game's solver);
* :mod:`~companion.melds.arrange`: :class:`Meld`, :class:`Arrangement`, ``arrangements``;
* :mod:`~companion.melds.check`: ``check_meld``;
* :mod:`~companion.melds.layoffs`: ``best_layoffs``.
"""

from __future__ import annotations

from companion import cards as C  # re-exported: callers reach the cards module as melds.C
from companion.melds.arrange import Arrangement, Meld, arrangements, best_arrangement
from companion.melds.arrange import _arrangements_mask as _arrangements_mask
from companion.melds.block import _block_min as _block_min
from companion.melds.check import check_meld
from companion.melds.layoffs import LayoffResult, best_layoffs
from companion.melds.natural import _natural_min as _natural_min
from companion.melds.rules import (
    FACE_VALUES, GIN_VALUES, JOKERS, JOKERS_FEWER, RULE_SETS, RUMSKI, STANDARD, MeldRules, RuleSetName, RulesArg,
    get_rules,
)
from companion.melds.rules import _hand_mask as _hand_mask
from companion.melds.solve import (
    best_discard, best_discard_mask, deadwood_of_mask, least_after_discard_mask, min_deadwood,
)
from companion.melds.tables import _tables as _tables
from companion.melds.wild import _wild_min as _wild_min

__all__ = [
    "MeldRules", "RuleSetName", "RulesArg", "STANDARD", "RUMSKI", "JOKERS", "JOKERS_FEWER", "RULE_SETS",
    "GIN_VALUES", "FACE_VALUES",
    "get_rules", "min_deadwood", "deadwood_of_mask", "best_discard", "best_discard_mask",
    "least_after_discard_mask",
    "Meld", "Arrangement", "arrangements", "best_arrangement", "check_meld",
    "LayoffResult", "best_layoffs",
]
