"""The basic rummy bot: legal, sensible and fast; the easy level's, and the baseline
``benchmarks/bots.py`` measures the others against.

Which bot plays an empty seat of a game is the game's Variant's choice
(:meth:`companion.games.rummy.RummyVariant.bot_policy`, by level), not this module's:
the strongest measured for each game is in its own module (:mod:`companion.play.strong`,
:mod:`companion.games.color_gin.bot`, :mod:`companion.games.ginski.bot`). The turn's
skeleton every bot shares is :mod:`companion.play.policy`'s.

It looks only at what its player may see: its own cards, the discard pile's top, the
cards each opponent has picked up from the discard pile, the stock's size and the
match score. Its policy:

* take the upcard or the top discard only when it lowers the least deadwood the hand
  can reach after the discard (a card that only replaces itself is not worth showing);
* discard by :func:`companion.melds.best_discard` (the exact least deadwood after the
  discard, which keeps melds together); between equal discards, avoid cards near those
  the next player picked up (same rank, or same suit within two ranks), then drop the
  highest value;
* go big gin or gin whenever the rules allow it;
* when it knocks, declare its melds: the least deadwood and, among ties, the melds
  the fewest unseen cards could be laid off onto (``best_declaration``);
* as the winner of the flip for the first deal, let the other deal (it plays first);
* knock when allowed and it is not behind in the match, or the deadwood is already
  low (3 or less), or the stock is running short; the rule module decides legality,
  so Color Gin's "no knock when nothing would score" is respected;
* with Color Gin's co-op jokers, a drawn joker is discarded at once to end the hand
  (the only legal action; the engine declares gin when the other ten cards meld).

>>> from companion.games import rummy_game
>>> g = rummy_game("gin", seed=11)
>>> basic_action(g) in g.legal_actions()
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion import cards as C
from companion import melds as M
from companion.play.policy import Policy, play_turn
from companion.play.rummy_actions import Action

if TYPE_CHECKING:
    from companion.play.rummy import RummyGame

LOW_DEADWOOD = 3  # knock at once with this little deadwood, whatever the score
SHORT_STOCK = 10  # knock whenever allowed once the stock is this small


def _score(total: int | dict[str, int]) -> int:
    if isinstance(total, dict):
        return sum(int(v) for v in total.values())
    return int(total)


def _ahead(game: RummyGame, seat: int) -> bool:
    totals: list[int | dict[str, int]] = list(game.match.totals)
    mine = _score(totals[seat])
    return all(mine >= _score(t) for s, t in enumerate(totals) if s != seat)


def _danger(card: int, picked: list[int]) -> int:
    """How close ``card`` is to cards the next player took from the discard pile."""
    r, s = C.rank(card), C.suit(card)
    d = 0
    for p in picked:
        if C.rank(p) == r and r:
            d += 1
        elif C.suit(p) == s and s >= 0 and abs(C.rank(p) - r) <= 2:
            d += 1
    return d


def choose_discard(game: RummyGame, candidates: int) -> int:
    """Among the ``candidates`` mask, the card to let go (see the module notes)."""
    seat = game.turn
    nxt = (seat + 1) % game.players
    picked = [c for c in (game.last_taken[nxt],) if c is not None]
    rules = M.get_rules(game.meld_rules)
    return min(C.iter_cards(candidates),
               key=lambda c: (_danger(c, picked), -rules.card_value(c), c))


class BasicPolicy(Policy):
    """The first bot's choices (see the module notes)."""

    short_stock = SHORT_STOCK

    def knock_now(self, game: RummyGame, dw: int, knockers: int) -> bool:
        return dw <= LOW_DEADWOOD or len(game.stock) <= SHORT_STOCK or _ahead(game, game.turn)

    def pick(self, game: RummyGame, allowed: int, which: int, best: int, ending: bool) -> int:
        return choose_discard(game, allowed if ending else which)


BASIC = BasicPolicy()


def basic_action(game: RummyGame) -> Action:
    """The basic bot's action for the player to move in ``game`` (always a legal one)."""
    return play_turn(game, BASIC)


__all__ = ["basic_action", "BasicPolicy", "BASIC", "choose_discard",
           "LOW_DEADWOOD", "SHORT_STOCK"]
