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

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.errors import InvalidInput, UnknownVariant
from companion.games.base import Variant
from companion.games.color_gin import ColorGin
from companion.games.gin import GinRummy
from companion.games.gingo import GinGo
from companion.games.ginski import Ginski
from companion.games.rummy import RummyVariant

if TYPE_CHECKING:  # full play loads when a game is first played, not with the registry
    from companion.play.rummy import RummyGame

#: every game, by name, in the order the phone lists them
VARIANTS: dict[str, Variant] = {v.name: v for v in (GinRummy(), ColorGin(), Ginski(), GinGo())}


def find_variant(name: object) -> Variant:
    """The game called ``name``; :class:`~companion.errors.UnknownVariant` (listing the
    games) for any other name."""
    if isinstance(name, str) and name in VARIANTS:
        return VARIANTS[name]
    raise UnknownVariant(name, list(VARIANTS))


def rummy_variant(name: object) -> RummyVariant:
    """The rummy game called ``name`` (its Variant holds its rules module, meld rules and
    bots); :class:`~companion.errors.UnknownVariant` for a name no game has, and
    :class:`~companion.errors.InvalidInput` (code ``unknown_variant``, listing the rummy
    games) for a game that is not a rummy game.

    >>> rummy_variant("color_gin").rules.__name__
    'companion.games.color_gin.rules'
    >>> rummy_variant("gingo")
    Traceback (most recent call last):
    ...
    companion.errors.InvalidInput: 'gingo' is not a rummy game; choose one of gin, color_gin, ginski
    """
    variant = find_variant(name)
    if isinstance(variant, RummyVariant):
        return variant
    choices = [v.name for v in VARIANTS.values() if isinstance(v, RummyVariant)]
    raise InvalidInput(f"{name!r} is not a rummy game; choose one of {', '.join(choices)}", code="unknown_variant",
                       details={"choices": choices})


def rummy_game(name: object, players: int | None = None, seed: int = 0, preset: str | None = None,
               options: Any = None, dealer: int | None = None,
               hand_rng: Callable[[int], random.Random] | None = None, **overrides: Any) -> RummyGame:
    """A whole match of the rummy game called ``name``, dealt from ``seed``: the game's
    engine (:class:`companion.play.rummy.RummyGame`) as its Variant builds it
    (:meth:`~companion.games.rummy.RummyVariant.rummy_game`, which takes the same
    arguments); the errors of :func:`rummy_variant` for a name that is no rummy game.

    >>> g = rummy_game("gin", seed=7, dealer=0, preset="pagat")
    >>> g.variant, g.phase, g.dealer, len(g.stock)
    ('gin', 'upcard', 0, 31)
    >>> rummy_game("poker")
    Traceback (most recent call last):
    ...
    companion.errors.UnknownVariant: unknown variant 'poker'; choose one of gin, color_gin, ginski, gingo
    """
    return rummy_variant(name).rummy_game(players, seed=seed, preset=preset, options=options, dealer=dealer,
                                          hand_rng=hand_rng, **overrides)


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
