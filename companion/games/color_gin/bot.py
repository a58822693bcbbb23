"""The Color Gin bot: the strong bot's play, with knocks and discards weighed by the
suits they can score in.

In Color Gin the points of a hand go only into the suits the ender's declared melds
leave unspoiled and still open (a run spoils its suit, a three-card set the suit it
lacks, every deadwood card its own suit), and an undercut pays the defender in those
same suits. So a knock is worth its margin *times the suits it scores in*:

* **knocking** (:meth:`ColorGinPolicy.knock_now`): among the arrangements the rules
  allow it to declare, the bot takes the best estimate of what the knock brings,
  ``suits x (opponent's estimated deadwood - own deadwood)``, and knocks when that is
  at least :data:`KNOCK_GAIN`, or when the stock is nearly spent; the opponent's
  deadwood is estimated from how many cards have left the stock
  (:data:`OPPONENT_CURVE`, the median of self-play);
* **discarding** (:meth:`ColorGinPolicy.value`): as the strong bot (kept deadwood,
  live outs, feed risk), less :data:`SUIT_WEIGHT` for each open suit the kept cards'
  least-deadwood arrangements leave unspoiled (the most of them,
  :func:`least_deadwood_suits`), so deadwood gathers in few suits.

>>> from companion.games import rummy_game
>>> g = rummy_game("color_gin", seed=11)
>>> choose_action(g) in g.legal_actions()
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion import cards as C
from companion import melds as M
from companion.play.policy import draws_so_far, play_turn
from companion.play.rummy_actions import Action
from companion.play.strong import StrongPolicy
from companion.games.color_gin.declare import all_arrangements, closed_mask, spoiled_suits

if TYPE_CHECKING:
    from companion.play.rummy import RummyGame

# the opponent's median deadwood by draws each (self-play of the strong bot, 40 matches)
OPPONENT_CURVE = (52, 37, 30, 27, 23, 20, 17, 11, 8, 8, 6, 5)
KNOCK_GAIN = 25  # knock when suits x margin is estimated at least this
SUIT_WEIGHT = 1.0  # points of deadwood one open unspoiled suit of the kept cards is worth


def opponent_estimate(game: RummyGame) -> int:
    """The opponent's estimated deadwood: :data:`OPPONENT_CURVE` at the draws each
    player has made this hand."""
    d = draws_so_far(game) // game.players
    return OPPONENT_CURVE[min(d, len(OPPONENT_CURVE) - 1)]


def open_suits(game: RummyGame, melds: tuple[M.Meld, ...], deadwood: tuple[int, ...]) -> int:
    """The open suits (a 4-bit mask) an arrangement leaves unspoiled: the suits it
    would score in."""
    closed = closed_mask(game.match)
    spoiled = spoiled_suits(melds, deadwood)
    return 0xF & ~spoiled & ~closed


def least_deadwood_suits(game: RummyGame, kept: int) -> int:
    """The most open suits a least-deadwood arrangement of ``kept`` leaves unspoiled."""
    least = M.deadwood_of_mask(kept, game.meld_rules)
    return max((open_suits(game, arr.melds, arr.deadwood).bit_count()
                for arr in all_arrangements(kept, least)), default=0)


def knock_gain(game: RummyGame, kept: int, estimate: int) -> int:
    """The best ``suits x margin`` among the arrangements of ``kept`` the rules let its
    player declare (gin counts the gin bonus and the estimate in full)."""
    opts = game.hand_options
    best = -(1 << 30)
    for arr in all_arrangements(kept, opts.knock_limit):
        n = open_suits(game, arr.melds, arr.deadwood).bit_count()
        if not n:
            continue
        margin = opts.gin_bonus + estimate if arr.value == 0 else estimate - arr.value
        best = max(best, n * margin)
    return best


class ColorGinPolicy(StrongPolicy):
    """The Color Gin bot's choices (see the module notes)."""

    knock_at = KNOCK_GAIN
    suit_weight = SUIT_WEIGHT

    def opponent_estimate(self, game: RummyGame) -> int:
        return opponent_estimate(game)

    def knock_now(self, game: RummyGame, dw: int, knockers: int) -> bool:
        if len(game.stock) <= self.short_stock:
            return True
        hand = game.hands[game.turn]
        est = self.opponent_estimate(game)
        gain = max(knock_gain(game, hand & ~(1 << c), est) for c in C.iter_cards(knockers))
        return gain >= self.knock_at

    def value(self, game: RummyGame, hand: int, card: int, unseen: int, picked: int) -> float:
        base = super().value(game, hand, card, unseen, picked)
        return base - self.suit_weight * least_deadwood_suits(game, hand & ~(1 << card))


COLOR_GIN = ColorGinPolicy()


def choose_action(game: RummyGame) -> Action:
    """The Color Gin bot's action for the player to move (always a legal one)."""
    return play_turn(game, COLOR_GIN)


__all__ = ["choose_action", "ColorGinPolicy", "COLOR_GIN", "knock_gain", "least_deadwood_suits", "open_suits", "opponent_estimate",
           "OPPONENT_CURVE", "KNOCK_GAIN", "SUIT_WEIGHT"]
