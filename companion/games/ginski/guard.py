"""A Ginski bot that does not hand the next player the round: the normal bot's
discards, less those the next player could end the round with.

Why: over 167 rounds of the normal bot against itself (seeds 150001-150060), 73 rounds
ended when a player took the card the player before it had just thrown and ended the
round at once (33 more on the upcard, 61 on a card from the stock). Nobody was ever
undercut (the others hold about 40 deadwood when a round ends), so a round is a race,
and the card thrown is the likeliest way to lose it: the next player may take it, and
the ender scores both opponents' deadwood (about 80 points, most of a game to 100).

How: the normal bot (:class:`companion.games.ginski.bot.GinskiPolicy`) ranks its
discards by the chance that its own next draw lets it end the round. This bot deals the
next player's hand :data:`SAMPLES` times from what its seat cannot see (the cards the
next player is known to hold from the pile stay with it), each deal weighed by what that
player threw and let go by (:func:`companion.play.rummy_inference.hand_weight`) and
dropped when it could already have ended the round (a player that has discarded this
round kept more than the limit, or it would have ended it). For each candidate discard
it counts the weighed share of those hands that could end the round by taking it
(:func:`feeds`), and takes :data:`FEED_WEIGHT` points per sure feed off the normal
bot's score. The same deals are used for every candidate, so their comparison is not
blurred by luck; the generator is seeded by what the seat knows
(:attr:`companion.play.knowledge.SeatKnowledge.digest`), so the bot is deterministic for
a seed and two games that look the same from its seat get the same choice.
Drawing and ending the round are the normal bot's.

>>> from companion.games import rummy_game
>>> from companion.play.policy import play_turn
>>> g = rummy_game("ginski", seed=11)
>>> play_turn(g, GINSKI_GUARD) in g.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from companion import cards as C
from companion.games.ginski.bot import RULES, GinskiPolicy, deadwood, drawable, least_after_discard
from companion.play.knowledge import SeatKnowledge, knowledge
from companion.play.rummy_inference import hand_weight
from companion.play.strong import reach

if TYPE_CHECKING:
    from companion.play.rummy import RummyGame

SAMPLES = 48  # hands of the next player dealt per decision
FEED_WEIGHT = 60.0  # points a sure feed (the next player ends the round with the card) costs


def next_hands(game: RummyGame, know: SeatKnowledge, rng: random.Random, samples: int) -> list[tuple[int, float]]:
    """``samples`` hands the next player could hold, from ``know`` only, each with its
    weight (see the module notes)."""
    seat = know.seat
    nxt = (seat + 1) % game.players
    pool = know.unseen
    for s in range(game.players):
        if s != seat:
            pool &= ~know.held[s]
    cards = C.mask_cards(pool)
    need = know.sizes[nxt] - know.held[nxt].bit_count()
    limit = game.hand_options.end_limit
    discarded = bool(know.thrown[nxt])
    wilds = RULES.wild_mask
    out: list[tuple[int, float]] = []
    if need < 0 or need > len(cards):
        return out
    for _ in range(samples):
        hand = know.held[nxt]
        for c in rng.sample(cards, need):
            hand |= 1 << c
        if discarded and deadwood(hand) <= limit:
            continue  # it would have ended the round instead of throwing
        w = hand_weight(hand, know.thrown[nxt], know.passed[nxt], wilds)
        if w > 0:
            out.append((hand, w))
    return out


def feeds(hands: list[tuple[int, float]], card: int, limit: int) -> float:
    """The weighed share of ``hands`` that could end the round by taking ``card`` (the
    least deadwood after one discard, never ``card`` itself, at most ``limit``)."""
    total = sum(w for _, w in hands)
    if not total:
        return 0.0
    fed = 0.0
    for hand, w in hands:
        if not reach(hand, RULES.wild_mask) >> card & 1:
            continue  # it melds with nothing there: taking it cannot lower the deadwood
        if least_after_discard(hand | 1 << card) <= limit and _ends_keeping(hand, card, limit):
            fed += w
    return fed / total


def _ends_keeping(hand: int, card: int, limit: int) -> bool:
    """Whether ``hand`` with ``card`` taken ends the round without throwing ``card`` back
    (the rules bar discarding the card taken)."""
    after = hand | 1 << card
    return any(deadwood(after & ~(1 << c)) <= limit for c in C.iter_cards(hand))


class GinskiGuard(GinskiPolicy):
    """The normal Ginski bot, its discards weighed against feeding the next player (see
    the module notes)."""

    samples = SAMPLES
    feed_weight = FEED_WEIGHT

    def ranked(self, game: RummyGame, allowed: int, best: int) -> list[int]:
        hand = game.hands[game.turn]
        near = self.near(hand, allowed, best)
        if len(near) == 1:
            return near
        know = knowledge(game, game.turn)
        rng = random.Random(know.digest ^ 0x9A4D)
        hands = next_hands(game, know, rng, self.samples)
        unseen = drawable(game)
        limit = game.hand_options.end_limit

        def key(c: int) -> tuple[float, int, int]:
            own = self.score(hand & ~(1 << c), unseen, limit)
            return (own - self.feed_weight * feeds(hands, c, limit), RULES.card_value(c), c)

        return sorted(near, key=key, reverse=True)


GINSKI_GUARD = GinskiGuard()


__all__ = ["GinskiGuard", "GINSKI_GUARD", "next_hands", "feeds", "SAMPLES", "FEED_WEIGHT"]
