"""The games the companion knows, as one registry (in the shape of python-chess's
``variant.py``): one :class:`~companion.games.base.Variant` per game, :data:`VARIANTS`
and :func:`find_variant`.

Adding a game is one module here with its Variant, and one line in :data:`VARIANTS`:
the table, the API (``GET /api/v1/variants``) and the phone page read everything else
(labels, seats, deck, hand sizes, options, presets) from it.

>>> [v.name for v in VARIANTS.values()]
['gin', 'color_gin', 'ginski', 'gingo']
>>> find_variant("ginski").label, find_variant("ginski").seats
('Ginski', (3, 2, 4))
>>> find_variant("poker")
Traceback (most recent call last):
...
companion.errors.UnknownVariant: unknown variant 'poker'; choose one of gin, color_gin, ginski, gingo
"""

from __future__ import annotations

from companion.errors import UnknownVariant
from companion.games.base import Deck, HandSizes, Variant
from companion.games.gingo import GinGo
from companion.games.options import OptionSpec, Preset
from companion.games.rummy import ColorGin, Ginski, GinRummy, RummyVariant

#: every game, by name, in the order the phone lists them
VARIANTS: dict[str, Variant] = {v.name: v for v in (GinRummy(), ColorGin(), Ginski(), GinGo())}


def find_variant(name: object) -> Variant:
    """The game called ``name``; :class:`~companion.errors.UnknownVariant` (listing the
    games) for any other name."""
    if isinstance(name, str) and name in VARIANTS:
        return VARIANTS[name]
    raise UnknownVariant(name, list(VARIANTS))


__all__ = ["VARIANTS", "find_variant", "Variant", "RummyVariant", "GinRummy", "ColorGin", "Ginski", "GinGo",
           "Deck", "HandSizes", "OptionSpec", "Preset"]
