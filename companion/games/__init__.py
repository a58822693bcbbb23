"""The games the companion knows, as one registry (in the shape of python-chess's
``variant.py``): one :class:`~companion.games.base.Variant` per game, :data:`VARIANTS`
and :func:`find_variant`.

Each game is one package here (``gin``, ``color_gin``, ``ginski``, ``gingo``) with its
Variant, its rules, options, match scoring, full play and bots; what games share sits
beside them (:mod:`~companion.games.base`, :mod:`~companion.games.seams`,
:mod:`~companion.games.options`, and :mod:`~companion.games.rummy` for the three rummy
games) and in the shared machinery of :mod:`companion.rules` and :mod:`companion.play`,
which never import a game's package; no game's package imports another's. Adding a game is one package with its
Variant and one line in :data:`VARIANTS` (:mod:`companion.games.registry`, the only map
from a name to a game): the table asks the Variant what it switches on (how a hand is
scored, how moves are entered, sides, board frames, the dealt engine, bonus words), and
the API (``GET /api/v1/variants``) serves labels, seats, deck, hand sizes, options and
presets from it. ``tests/toy_game`` is such a game, played through the API by
``tests/test_toy_variant.py``.

The names below load on first use: the games' rules modules import
:mod:`companion.games.options` (how options are described and checked), and the
registry imports the games' packages, so importing this package must not load the
registry at once.

A rummy game's engine is built by its Variant, which hands it the game's rules module;
by a game's name, :func:`rummy_game` (the shared machinery in :mod:`companion.play` never
looks a game up by its name).

>>> from companion.games import find_variant, rummy_game
>>> find_variant("gin").label
'Gin Rummy'
>>> rummy_game("ginski", seed=3).players
3
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.games.base import Variant
    from companion.games.deck import Deck, HandSizes
    from companion.games.gingo import GinGo
    from companion.games.options import OptionSpec, Preset
    from companion.games.registry import VARIANTS, find_variant, outing_game, rummy_game, rummy_variant, team_game
    from companion.games.color_gin import ColorGin
    from companion.games.gin import GinRummy
    from companion.games.ginski import Ginski
    from companion.games.rummy import RummyVariant

_WHERE = {
    "VARIANTS": "registry", "find_variant": "registry", "outing_game": "registry", "team_game": "registry",
    "rummy_variant": "registry", "rummy_game": "registry",
    "Variant": "base", "Deck": "deck", "HandSizes": "deck",
    "GinGo": "gingo", "RummyVariant": "rummy", "GinRummy": "gin", "ColorGin": "color_gin", "Ginski": "ginski",
    "OptionSpec": "options", "Preset": "options",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'companion.games' has no attribute {name!r}")
    return getattr(importlib.import_module(f"companion.games.{module}"), name)


__all__ = ["VARIANTS", "find_variant", "rummy_variant", "rummy_game", "outing_game", "team_game", "Variant", "RummyVariant", "GinRummy", "ColorGin",
           "Ginski", "GinGo", "Deck", "HandSizes", "OptionSpec", "Preset"]
