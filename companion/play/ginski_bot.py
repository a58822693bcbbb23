"""The Ginski bot: the strong bot's play, with knocks timed against two opponents.

In Ginski (three players, the 70-card Rumski deck with five colours and five wilds) a
player may end the round with 13 deadwood or less and scores every opponent's deadwood
less its own; but an opponent holding less undercuts, and scores 25 plus *everybody's*
deadwood. With two opponents the undercut is twice as likely as in gin, and costs more:

* **knocking** (:meth:`GinskiPolicy.knock_now`): the bot knocks when its deadwood is
  below the lower of what it estimates for its two opponents, less a margin
  (:data:`MARGIN`); the estimate (:data:`OPPONENT_CURVE`) is the tenth percentile of an
  opponent's deadwood after as many draws each in self-play, so the knock is rarely
  undercut; with the stock nearly spent it knocks whenever allowed;
* **discarding and drawing**: as the strong bot (kept deadwood, live outs, and the risk
  of feeding the next player, the only one who may take the discard), over the five
  colours.

>>> from companion.play.rummy import RummyGame
>>> g = RummyGame("ginski", seed=11)
>>> choose_action(g) in g.legal_actions()
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.play.policy import draws_so_far, play_turn
from companion.play.rummy_actions import Action
from companion.play.strong import StrongPolicy

if TYPE_CHECKING:
    from companion.play.rummy import RummyGame

# an opponent's tenth-percentile deadwood by draws each (self-play of the strong bot)
OPPONENT_CURVE = (19, 16, 16, 14, 12, 10, 8, 6, 5, 4)
MARGIN = 0  # knock only this far below the estimate


def opponent_estimate(game: RummyGame) -> int:
    """The deadwood the bot assumes its lowest opponent may hold (see the notes)."""
    d = draws_so_far(game) // game.players
    return OPPONENT_CURVE[min(d, len(OPPONENT_CURVE) - 1)]


class GinskiPolicy(StrongPolicy):
    """The Ginski bot's choices (see the module notes)."""

    margin = MARGIN

    def opponent_estimate(self, game: RummyGame) -> int:
        return opponent_estimate(game)

    def knock_now(self, game: RummyGame, dw: int, knockers: int) -> bool:
        if len(game.stock) <= self.short_stock:
            return True
        return dw < self.opponent_estimate(game) - self.margin


GINSKI = GinskiPolicy()


def choose_action(game: RummyGame) -> Action:
    """The Ginski bot's action for the player to move (always a legal one)."""
    return play_turn(game, GINSKI)


__all__ = ["choose_action", "GinskiPolicy", "GINSKI", "opponent_estimate", "OPPONENT_CURVE", "MARGIN"]
