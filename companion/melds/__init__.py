"""Exact meld search, a package: for now every part lives in :mod:`companion.melds.block`
(moved there unchanged so its history follows); the next commit splits it into one module
per part."""

from __future__ import annotations

from companion import cards as C  # re-exported: callers reach the cards module as melds.C
from companion.melds.block import (
    COLOR_GIN, GIN, GINGO, GINGO_FEWER, GINSKI, VARIANTS, Arrangement, LayoffResult, Meld,
    MeldRules, arrangements, best_arrangement, best_discard, best_discard_mask, best_layoffs,
    check_meld, deadwood_of_mask, get_rules, min_deadwood,
)
from companion.melds.block import _arrangements_mask as _arrangements_mask
from companion.melds.block import _block_min as _block_min
from companion.melds.block import _hand_mask as _hand_mask
from companion.melds.block import _natural_min as _natural_min
from companion.melds.block import _tables as _tables
from companion.melds.block import _wild_min as _wild_min

__all__ = [
    "MeldRules", "GIN", "COLOR_GIN", "GINSKI", "GINGO", "GINGO_FEWER", "VARIANTS",
    "get_rules", "min_deadwood", "deadwood_of_mask", "best_discard", "best_discard_mask",
    "Meld", "Arrangement", "arrangements", "best_arrangement", "check_meld",
    "LayoffResult", "best_layoffs",
]
