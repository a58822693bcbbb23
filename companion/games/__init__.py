"""The games the companion knows, as one registry (in the shape of python-chess's
``variant.py``): one :class:`~companion.games.base.Variant` per game, :data:`VARIANTS`
and :func:`find_variant`.

Adding a game is one module here with its Variant, and one line in :data:`VARIANTS`
(:mod:`companion.games.registry`): the table, the API (``GET /api/v1/variants``) and the
phone page read everything else (labels, seats, deck, hand sizes, options, presets)
from it.

The names below load on first use: the rules modules import
:mod:`companion.games.options` (how options are described and checked), and the
registry imports the rules modules, so importing this package must not load the
registry at once.

>>> from companion.games import find_variant
>>> find_variant("gin").label
'Gin Rummy'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.games.base import Deck, HandSizes, Variant
    from companion.games.gingo import GinGo
    from companion.games.options import OptionSpec, Preset
    from companion.games.registry import VARIANTS, find_variant
    from companion.games.rummy import ColorGin, Ginski, GinRummy, RummyVariant

_WHERE = {
    "VARIANTS": "registry", "find_variant": "registry", "Variant": "base", "Deck": "base", "HandSizes": "base",
    "GinGo": "gingo", "RummyVariant": "rummy", "GinRummy": "rummy", "ColorGin": "rummy", "Ginski": "rummy",
    "OptionSpec": "options", "Preset": "options",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'companion.games' has no attribute {name!r}")
    return getattr(importlib.import_module(f"companion.games.{module}"), name)


__all__ = ["VARIANTS", "find_variant", "Variant", "RummyVariant", "GinRummy", "ColorGin", "Ginski", "GinGo",
           "Deck", "HandSizes", "OptionSpec", "Preset"]
