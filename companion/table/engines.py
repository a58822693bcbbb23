"""Which game each variant name is (the registry, :mod:`companion.games`), and a game's
options built through it (the one options mechanism)."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from companion.games import VARIANTS as REGISTRY
from companion.games import RummyVariant, Variant, find_variant
from companion.games.options import options_dict as options_dict

#: names of the games the table tracks (from the registry)
VARIANTS: tuple[str, ...] = tuple(REGISTRY)
#: games scored hand by hand (kept for callers written before the registry)
RUMMY_VARIANTS: tuple[str, ...] = tuple(n for n, v in REGISTRY.items() if isinstance(v, RummyVariant))
#: games whose hand score depends on the hands before it (closed suits)
CONTEXT_VARIANTS: frozenset[str] = frozenset(
    n for n, v in REGISTRY.items() if isinstance(v, RummyVariant) and v.context_scoring)


def rules_module(variant: str) -> ModuleType:
    """The rules module of a variant, for callers written before the registry (the table
    itself goes through :func:`companion.games.find_variant`).

    >>> rules_module("gingo").__name__
    'companion.rules.gingo'
    """
    find_variant(variant)
    return importlib.import_module(f"companion.rules.{variant}")


def make_options(variant: str | Variant, preset: str | None, overrides: dict[str, Any], players: int) -> Any:
    """A game's options: ``preset`` with ``overrides``, for ``players`` seats."""
    v = variant if isinstance(variant, Variant) else find_variant(variant)
    return v.make_options(preset, overrides, players)
