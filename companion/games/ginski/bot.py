"""The Ginski bot: a race to 13 deadwood, played one draw ahead.

A Ginski round is short: with three players and five wild cards somebody usually ends
it within the first two or three turns, and the ender scores the deadwood of *both*
opponents (about 80 points, most of a game to 100). So the bot plays for the round to
end on its own turn, soon:

* **ending** (:meth:`GinskiPolicy.knock_now`): it ends the round whenever the rules
  allow (13 deadwood or less), whatever the match score or the stage of the round.
  Holding on for less deadwood (against an undercut) or for the Ginski bonus was
  measured and loses: the opponents end it first too often;
* **discarding** (:meth:`GinskiPolicy.pick`): among the discards within :data:`SLACK`
  points of the least deadwood it keeps the ten cards with the best *outlook*
  (:func:`outlook`): over every card it might draw next (:func:`drawable`: unseen, and
  not taken from the pile by another player), the chance that the draw lets it end the
  round, worth :data:`ENDING_WEIGHT` points, less the expected deadwood after that draw
  (each case counted up to :data:`CAP`: 30 points, up from 22, won 0.624 against 0.613
  on seeds 1-500 and 0.656 against 0.649 on 5001-5500; a penalty for discards that meld
  with the card the next player took from the pile helped on the first range only, and
  weighing the deadwood kept now, or a bias toward taking, lost or changed nothing).
  It never lets a wild go while another discard is near (a wild melds with any pair,
  and it is the best card the next player could take);
* **drawing** (:meth:`GinskiPolicy.take`): it takes the discard when that lets it end
  the round at once; otherwise when the discard lowers its deadwood *and* the outlook
  after taking it beats drawing from the stock (the chance that the stock card ends
  the round now, and again next turn).

The outlook needs the least deadwood after one discard of many eleven-card hands, and a
hand with wilds is a large search; :func:`companion.melds.least_after_discard_mask` does
it in one pass (the meld search with one deadwood card set aside), four to five times
faster than one search per discard.

How strong it is, against the basic bot that played Ginski before it, is measured by
``benchmarks/bots.py`` (docs/play.md). Like the other bots it looks only at what its
player may see (its cards, the discard pile, the stock's size).

>>> from companion.games import rummy_game
>>> g = rummy_game("ginski", seed=11)
>>> choose_action(g) in g.legal_actions()
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from companion import cards as C
from companion import melds as M
from companion.play.policy import Policy, best_after, play_turn, unseen_cards
from companion.play.rummy_actions import Action
from companion.play.strong import reach

if TYPE_CHECKING:
    from companion.play.rummy import RummyGame

RULES = M.RUMSKI  # how Ginski's cards meld
SLACK = 4  # discards this many points above the least deadwood are still weighed
ENDING_WEIGHT = 40.0  # points of deadwood a sure end of the round on the next draw is worth
CAP = 30  # the expected deadwood counts each draw's outcome up to this many points
STOCK_AGAIN = 1.0  # drawing from the stock: weight of a second chance to end next turn
CACHE = 1 << 14  # hands remembered by each deadwood cache (a few megabytes)


@lru_cache(maxsize=CACHE)
def deadwood(mask: int) -> int:
    """The least deadwood of the Ginski hand ``mask``."""
    return M.deadwood_of_mask(mask, RULES)


@lru_cache(maxsize=CACHE)
def least_after_discard(mask: int) -> int:
    """The least deadwood of the Ginski hand ``mask`` after one discard, as
    ``min(deadwood(mask - c) for c in mask)`` but in one search
    (:func:`companion.melds.least_after_discard_mask`).

    >>> least_after_discard(C.to_mask("R1 R2 W1 B5 B6 B7 G9 G10 G11 Y8 P13"))
    8
    """
    return M.least_after_discard_mask(mask, RULES)


def outlook(kept: int, unseen: int, limit: int, cap: int = CAP) -> tuple[float, float]:
    """For the hand ``kept`` (after the discard) and the next draw, one of ``unseen``
    cards equally likely: the chance that the hand can then end the round (deadwood at
    most ``limit`` after the discard), and the expected least deadwood after the
    discard, each case counted up to ``cap``.

    A card that melds with nothing kept (:func:`companion.play.strong.reach`) is not
    searched: it is discarded again, or it replaces the best discard of ``kept``."""
    n = unseen.bit_count()
    now = min(deadwood(kept), cap)
    if not n:
        return (1.0 if now <= limit else 0.0), float(now)
    swap = least_after_discard(kept)  # ``kept`` less its best discard
    near = reach(kept, RULES.wild_mask) & unseen
    ends = 0
    total = 0
    for u in C.iter_cards(unseen & ~near):
        d = min(now, swap + RULES.card_value(u))
        total += d
        ends += d <= limit
    for u in C.iter_cards(near):
        d = min(now, least_after_discard(kept | 1 << u))
        total += d
        ends += d <= limit
    return ends / n, total / n


def drawable(game: RummyGame) -> int:
    """The cards the player to move might draw next: those it has not seen, less the
    cards the others took from the discard pile and still hold (they are in a hand)."""
    unseen = unseen_cards(game, game.turn)
    for seat, c in enumerate(game.last_taken):
        if c is not None and seat != game.turn:
            unseen &= ~(1 << c)
    return unseen


class GinskiPolicy(Policy):
    """The Ginski bot's choices (see the module notes)."""

    slack = SLACK
    ending_weight = ENDING_WEIGHT
    cap = CAP
    stock_again = STOCK_AGAIN

    def score(self, kept: int, unseen: int, limit: int) -> float:
        """What keeping ``kept`` is worth (higher is better): the chance of ending the
        round after the next draw, in points, less the expected deadwood then."""
        p, e = outlook(kept, unseen, limit, self.cap)
        return self.ending_weight * p - e

    def knock_now(self, game: RummyGame, dw: int, knockers: int) -> bool:
        return True  # end the round whenever allowed (see the module notes)

    def take(self, game: RummyGame, hand: int, top: int) -> bool:
        limit = game.hand_options.end_limit
        after = hand | 1 << top
        least, which = best_after(after, game.meld_rules, top)
        if least <= limit:
            return True  # taking it ends the round at once
        now = deadwood(hand)
        if least >= now:
            return False
        unseen = drawable(game) & ~(1 << top)
        taken = max(self.score(after & ~(1 << c), unseen, limit) for c in C.iter_cards(which))
        p, e = outlook(hand, unseen, limit, self.cap)
        stock = self.ending_weight * (p + self.stock_again * p * (1 - p)) - e
        return taken > stock

    def pick(self, game: RummyGame, allowed: int, which: int, best: int, ending: bool) -> int:
        if ending:  # face down, every candidate keeps the same deadwood
            return max(C.iter_cards(allowed), key=lambda c: (RULES.card_value(c), c))
        return self.ranked(game, allowed, best)[0]

    def near(self, hand: int, allowed: int, best: int) -> list[int]:
        """The discards among ``allowed`` this bot weighs: those within :attr:`slack` of the
        least deadwood ``best``, a wild only when nothing else is near."""
        near = [c for c in C.iter_cards(allowed) if deadwood(hand & ~(1 << c)) <= best + self.slack]
        naturals = [c for c in near if not RULES.wild_mask >> c & 1]
        return naturals or near

    def ranked(self, game: RummyGame, allowed: int, best: int) -> list[int]:
        """The discards this bot weighs (:meth:`near`), its favourite first."""
        hand = game.hands[game.turn]
        near = self.near(hand, allowed, best)
        if len(near) == 1:
            return near
        unseen = drawable(game)
        limit = game.hand_options.end_limit
        return sorted(near, key=lambda c: (self.score(hand & ~(1 << c), unseen, limit),
                                           RULES.card_value(c), c), reverse=True)


GINSKI = GinskiPolicy()


def choose_action(game: RummyGame) -> Action:
    """The Ginski bot's action for the player to move (always a legal one)."""
    return play_turn(game, GINSKI)


__all__ = ["choose_action", "GinskiPolicy", "GINSKI", "outlook", "drawable", "least_after_discard", "deadwood",
           "SLACK", "ENDING_WEIGHT", "CAP", "STOCK_AGAIN"]
