"""The sharp Color Gin bot: the Color Gin bot's play (:mod:`companion.games.color_gin.bot`)
with the strong level's reading and knocking (:class:`companion.play.sharp.SharpMixin`).
It plays no level (it lost to the normal Color Gin bot: docs/play.md); a Color Gin hint
weighs a knock's undercut risk with its sampling
(:meth:`companion.games.color_gin.ColorGin.knock_reader`).

>>> from companion.play.policy import play_turn
>>> from companion.games import rummy_game
>>> g = rummy_game("color_gin", seed=11)
>>> play_turn(g, SHARP_COLOR_GIN) in g.legal_actions()
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.color_gin.bot import ColorGinPolicy, least_deadwood_suits
from companion.play.sharp import SharpMixin

if TYPE_CHECKING:
    from companion.play.rummy import RummyGame


class SharpColorGin(SharpMixin, ColorGinPolicy):
    """The strong level's Color Gin bot (its knocks also weigh the suits they score in;
    a Color Gin hand takes longer to score, so it samples fewer hands)."""

    samples = 12

    def value(self, game: RummyGame, hand: int, card: int, unseen: int, picked: int) -> float:
        base = SharpMixin.value(self, game, hand, card, unseen, picked)
        return base - self.suit_weight * least_deadwood_suits(game, hand & ~(1 << card))


SHARP_COLOR_GIN = SharpColorGin()


__all__ = ["SharpColorGin", "SHARP_COLOR_GIN"]
