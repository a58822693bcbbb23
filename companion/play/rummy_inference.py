"""What a rummy seat can infer of the hands it cannot see from what their players threw
and let go by this hand, and seat games dealt with that in mind.

:func:`companion.play.knowledge.seat_game` deals every card a seat cannot see again at
random, keeping only the cards the others are known to hold. A player keeps the cards
that may still meld together, so a hand holding a card that melds with one its player
threw (the same rank, or the same suit within two ranks) is less likely
(:data:`THROWN`, per such card and throw), and a player that let a card go by (passed
the upcard, or drew from the stock over it) likely held no two cards that meld with it
(:data:`PASSED`). :func:`weighted_seat_game` draws :data:`TRIES` seat games and keeps
one with a chance in proportion to the product of those factors over the other hands
(sampling-importance-resampling). It reads only the seat's knowledge
(:class:`companion.play.knowledge.SeatKnowledge`) and draws only from the generator it
is given.

>>> from companion.games import rummy_game
>>> g = rummy_game("ginski", seed=11)
>>> import random
>>> weighted_seat_game(g, 0, random.Random(1)).hands[0] == g.hands[0]
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from companion import cards as C
from companion.play.knowledge import SeatKnowledge, knowledge, seat_game
from companion.play.strong import reach

if TYPE_CHECKING:
    from companion.play.rummy import RummyGame

THROWN = 0.7  # per held card that melds with a card its player threw
PASSED = 0.4  # per card let go by that two held cards meld with
TRIES = 8  # seat games drawn to pick one from


def hand_weight(hand: int, thrown: int, passed: int, wilds: int) -> float:
    """How likely a player who threw ``thrown`` and let ``passed`` go by holds ``hand``
    (card masks), up to a constant (see the module notes)."""
    w = 1.0
    naturals = hand & ~wilds
    for d in C.iter_cards(thrown & ~wilds):
        k = (naturals & reach(1 << d, 0) & ~(1 << d)).bit_count()
        if k:
            w *= THROWN ** k
    for p in C.iter_cards(passed & ~wilds & ~hand):
        if (naturals & reach(1 << p, 0) & ~(1 << p)).bit_count() >= 2:
            w *= PASSED
    return w


def weighted_seat_game(game: RummyGame, seat: int, rng: random.Random,
                       know: SeatKnowledge | None = None) -> RummyGame:
    """A seat game (:func:`companion.play.knowledge.seat_game`) of :data:`TRIES`, picked
    with a chance in proportion to how likely the evidence makes its other hands."""
    k = know if know is not None else knowledge(game, seat)
    wilds = game.meld_rules.wild_mask
    games: list[RummyGame] = []
    weights: list[float] = []
    for _ in range(TRIES):
        g = seat_game(game, seat, rng, k)
        w = 1.0
        if g.hands:
            for s in range(game.players):
                if s != seat:
                    w *= hand_weight(g.hands[s], k.thrown[s], k.passed[s], wilds)
        games.append(g)
        weights.append(w)
    pick = rng.random() * sum(weights)
    for g, w in zip(games, weights):
        pick -= w
        if pick < 0:
            return g
    return games[-1]


__all__ = ["hand_weight", "weighted_seat_game", "THROWN", "PASSED", "TRIES"]
