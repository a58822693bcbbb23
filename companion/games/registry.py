"""The registry itself: :data:`VARIANTS` and :func:`find_variant` (read them from
:mod:`companion.games`).

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

from companion.errors import InvalidInput, UnknownVariant
from companion.games.base import Variant
from companion.games.color_gin import ColorGin
from companion.games.gin import GinRummy
from companion.games.gingo import GinGo
from companion.games.ginski import Ginski

#: every game, by name, in the order the phone lists them
VARIANTS: dict[str, Variant] = {v.name: v for v in (GinRummy(), ColorGin(), Ginski(), GinGo())}


def find_variant(name: object) -> Variant:
    """The game called ``name``; :class:`~companion.errors.UnknownVariant` (listing the
    games) for any other name."""
    if isinstance(name, str) and name in VARIANTS:
        return VARIANTS[name]
    raise UnknownVariant(name, list(VARIANTS))


def outing_game() -> Variant:
    """The game outings are played in (the one whose Variant ``hosts_outings``).

    >>> outing_game().label
    'Gin Rummy'
    """
    return next(v for v in VARIANTS.values() if v.hosts_outings)


def team_game(team: str) -> Variant:
    """The game played by teams as ``team`` (its Variant's ``team_plays`` names it):
    ``"partnership"`` or ``"outing"``; :class:`~companion.errors.InvalidInput` when no
    game is.

    >>> team_game("partnership").label
    'Gin Rummy'
    """
    for v in VARIANTS.values():
        if team in v.team_plays:
            return v
    raise InvalidInput(f'no game is played by teams as "{team}"', code="invalid_options",
                       details={"team": str(team)[:40]})
