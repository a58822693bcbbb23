"""A stronger rummy bot for gin and Color Gin: knock timing, live outs, safe discards.

Like :mod:`companion.play.bot` it looks only at what its player may see: its own
cards, the discard pile (every card in it is out of play), the card the next player
last took from the pile, the stock's size and the rules. What it does differently:

* **knocking**: it knocks as soon as the rules allow while the hand is young (the
  opponent has had few draws to get low, so an undercut is unlikely); later it knocks
  only when its deadwood is below an estimate of the opponent's, which falls with
  every draw (:func:`opponent_estimate`); with the stock nearly spent it knocks
  whenever allowed;
* **discarding**: among discards within :data:`SLACK` points of the least deadwood it
  weighs the deadwood kept, the *live outs* of the ten cards kept (unseen cards that
  would lower the deadwood, :func:`live_outs`) and how much the discard could help the
  next player (:func:`feed_risk`: a card whose rank and neighbours are already dead is
  safe, a card next to what they took from the pile is not);
* **drawing**: it takes the discard only when that lowers its least deadwood, as the
  first bot does. (Taking a card that only keeps the deadwood, for more live outs, lost:
  over 500 duplicate gin matches against the first bot that rule won 0.566 and 0.602 on
  two seed ranges, without it 0.642 and 0.638; in Color Gin 0.691 against 0.747 over 300.
  It shows the opponent a card and gives up the stock's surprise for a small gain.)

Everything else (big gin, gin, Color Gin's co-op jokers, the rescue turn, declaring
melds) follows :mod:`companion.play.bot`, whose helpers it uses.

>>> from companion.games import rummy_game
>>> g = rummy_game("gin", seed=11)
>>> choose_action(g) in g.legal_actions()
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion import cards as C
from companion import melds as M
from companion.play.policy import Policy, draws_so_far, play_turn, unseen_cards
from companion.play.rummy_actions import Action

if TYPE_CHECKING:
    from companion.play.rummy import RummyGame

EARLY_DRAWS = 8  # knock whenever allowed while this few cards have left the stock
SHORT_STOCK = 6  # and again once the stock is this small
SLACK = 4  # discards this many points above the least deadwood are still weighed
OUT_WEIGHT = 0.25  # points of deadwood one live out is worth
FEED_WEIGHT = 0.5  # points of deadwood one unit of feed risk costs


def opponent_estimate(game: RummyGame) -> int:
    """A rough estimate of the next player's deadwood: a dealt ten-card hand holds
    about 55 points, and each draw takes off a few (the curve of self-play)."""
    d = draws_so_far(game) // game.players
    return max(2, 50 - 7 * d)


def live_outs(kept: int, unseen: int, variant: M.MeldRules) -> int:
    """How many ``unseen`` cards would lower the least deadwood of ``kept`` if drawn
    (a card that melds with something kept)."""
    rules = M.get_rules(variant)
    base = M.deadwood_of_mask(kept, variant)
    outs = 0
    for u in C.iter_cards(unseen & reach(kept, rules.wild_mask)):
        if M.deadwood_of_mask(kept | 1 << u, variant) < base + rules.card_value(u):
            outs += 1
    return outs


def reach(kept: int, wilds: int) -> int:
    """The cards that could meld with something in ``kept``: the same rank, the same
    suit within two ranks (either way), and the wild cards; no other card can lower
    the deadwood of ``kept`` (so :func:`live_outs` tries only these)."""
    out = wilds
    for c in C.iter_cards(kept & ~wilds):
        r, s = C.rank(c), C.suit(c)
        if r == 0 or s < 0:
            continue
        base = c - (r - 1)  # the suit's ace (cards of a suit are consecutive, ace first)
        for d in (-2, -1, 1, 2):
            if 1 <= r + d <= 13:
                out |= 1 << (base + r - 1 + d)
        out |= _RANKS.get((r, c >= C.RUMSKI_BASE), 0)
    return out


def _rank_masks() -> dict[tuple[int, bool], int]:
    masks: dict[tuple[int, bool], int] = {}
    for r in range(1, 14):
        masks[(r, False)] = sum(1 << (s * 13 + r - 1) for s in range(4))
        masks[(r, True)] = sum(1 << (C.RUMSKI_BASE + s * 13 + r - 1) for s in range(5))
    return masks


_RANKS = _rank_masks()


def feed_risk(card: int, unseen: int, picked: int) -> float:
    """How likely discarding ``card`` helps the next player: the unseen cards that
    would meld with it (same rank, same suit within two ranks), those next to a card
    they took from the pile weighing much more."""
    r, s = C.rank(card), C.suit(card)
    if r == 0 or s < 0:
        return 0.0
    risk = 0.0
    for other in C.iter_cards(unseen | picked):
        if other == card:
            continue
        ro, so = C.rank(other), C.suit(other)
        near = ro == r or (so == s and abs(ro - r) <= 2)
        if not near:
            continue
        if picked >> other & 1:
            risk += 3.0
        else:
            risk += 0.25 if ro == r or abs(ro - r) == 1 else 0.1
    return risk


def picked_by_next(game: RummyGame, seat: int) -> int:
    """The cards the next player is known to hold (taken from the pile, not let go)."""
    nxt = (seat + 1) % game.players
    c = game.last_taken[nxt]
    if c is None or c in game.discard:
        return 0
    return 1 << c


class StrongPolicy(Policy):
    """The strong bot's choices (see the module notes)."""

    short_stock = SHORT_STOCK
    early_draws = EARLY_DRAWS
    slack = SLACK
    out_weight = OUT_WEIGHT
    feed_weight = FEED_WEIGHT

    def opponent_estimate(self, game: RummyGame) -> int:
        return opponent_estimate(game)

    def knock_now(self, game: RummyGame, dw: int, knockers: int) -> bool:
        if draws_so_far(game) <= self.early_draws or len(game.stock) <= self.short_stock:
            return True
        return dw < self.opponent_estimate(game)

    def value(self, game: RummyGame, hand: int, card: int, unseen: int, picked: int) -> float:
        """What keeping ``hand`` less ``card`` is worth (lower is better): the kept
        deadwood, less the live outs, plus the feed risk of the discard."""
        variant = game.meld_rules
        kept = hand & ~(1 << card)
        dw = M.deadwood_of_mask(kept, variant)
        return dw - self.out_weight * live_outs(kept, unseen, variant) \
            + self.feed_weight * feed_risk(card, unseen, picked)

    def pick(self, game: RummyGame, allowed: int, which: int, best: int, ending: bool) -> int:
        seat = game.turn
        hand = game.hands[seat]
        variant = game.meld_rules
        unseen = unseen_cards(game, seat)
        picked = picked_by_next(game, seat)
        limit = best + self.slack if which else 1 << 30
        near = [c for c in C.iter_cards(allowed)
                if M.deadwood_of_mask(hand & ~(1 << c), variant) <= limit]
        return min(near, key=lambda c: (self.value(game, hand, c, unseen, picked), c))


STRONG = StrongPolicy()


def choose_discard(game: RummyGame, allowed: int, best: int) -> int:
    """The card to let go among ``allowed`` (``best``: the least deadwood after a
    discard), by kept deadwood, live outs and feed risk."""
    return STRONG.pick(game, allowed, allowed, best, False)


def choose_action(game: RummyGame) -> Action:
    """The strong bot's action for the player to move (always a legal one)."""
    return play_turn(game, STRONG)


__all__ = ["choose_action", "choose_discard", "live_outs", "reach", "feed_risk", "opponent_estimate", "StrongPolicy",
           "STRONG", "picked_by_next", "unseen_cards", "draws_so_far"]
