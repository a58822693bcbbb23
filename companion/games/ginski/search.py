"""A searching Ginski bot: the normal bot's discards weighed by playing the round out
over deals its seat could not tell from the real one (information-set Monte Carlo).

It plays no level yet: over 300 duplicate matches on deals it was not tried on it won
49.6% per seat against the normal bot (docs/play.md), no better than the normal bot it
builds on, so Ginski's strong level is still the normal bot. ``benchmarks/bots.py``
pairs it as ``ginsearch``.

A Ginski round is short (somebody usually ends it within two or three turns) and the
ender scores both opponents' deadwood, so which card goes now decides much of a round.
The normal bot (:mod:`companion.games.ginski.bot`) ranks its discards by the chance that
its own next draw lets it end the round; what it cannot see is what the others do with
the card it throws, and how soon they end the round themselves. This bot lets the normal
bot name its :data:`DISCARDS` best discards and weighs them against each other: for each
sample it deals every card its seat cannot see again
(:func:`companion.play.knowledge.seat_game` with a sampling generator: the cards the
others are known to hold stay with them, the rest of their hands and the stock are
dealt at random, only the sizes kept), plays each candidate in that same deal, then the
rest of the round with :data:`PLAYOUT` (the normal bot) in every seat, and scores the
round for its seat (:func:`round_value`: its points less the mean of the others'). It
keeps the candidate with the best mean; the normal bot's own choice wins a tie. Every
candidate meets the same deals, so luck does not blur the comparison. Drawing, ending
the round and everything else is the normal bot's play.

It plays on the seat's copy of the game (:func:`companion.play.levels.seat_action`), and
its samples come from a generator seeded by what the seat knows
(:attr:`companion.play.knowledge.SeatKnowledge.digest`), so two games that look the same
from the seat give the same choice, and the real game is never touched (each play-out
runs on a copy). It plays :data:`SAMPLES` deals at most and stops sooner when one more
round of play-outs (as long as the slowest so far) would overrun the time budget
(:func:`companion.play.sharp.budget`, the setting ``GINGO_BOT_BUDGET_MS``), after at least
:data:`MIN_SAMPLES`; the budget counts the processor time of the thread deciding.

>>> from companion.games import rummy_game
>>> from companion.play.policy import play_turn
>>> g = rummy_game("ginski", seed=11)
>>> play_turn(g, GINSKI_SEARCH) in g.legal_actions()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.games.ginski.bot import GINSKI, GinskiPolicy
from companion.play.knowledge import knowledge, seat_game
from companion.play.policy import Policy, best_after, play_turn
from companion.play.rummy_actions import Action, Discard, Draw, Pass
from companion.play.rummy_inference import weighted_seat_game
from companion.play.sharp import budget

if TYPE_CHECKING:
    from companion.play.rummy import RummyGame

DISCARDS = 3  # the normal bot's best discards weighed against each other
SAMPLES = 16  # deals played out at most per decision
MIN_SAMPLES = 1  # deals played out even when the budget is spent
ACTION_CAP = 200  # a play-out still running after this many actions is scored as a void round
WEIGH_DRAWS = False  # weigh taking the discard against the stock too
PLAYOUT: Policy = Policy()  # the bot every seat plays in a play-out (the plain legal bot: quick)


def round_value(points: Sequence[object], seat: int) -> float:
    """What a round's ``points`` (one entry per seat) are worth to ``seat``: its points
    less the mean of the others'."""
    pts = [_total(p) for p in points]
    others = [p for s, p in enumerate(pts) if s != seat]
    return pts[seat] - sum(others) / len(others)


def _total(p: object) -> int:
    if isinstance(p, dict):
        return sum(int(v) for v in p.values())
    assert isinstance(p, int)
    return p


def play_out(game: RummyGame, first: Action, seat: int, policy: Policy) -> float:
    """Play ``first`` on ``game`` (a sampled copy, changed in place), then ``policy`` in
    every seat to the end of the round; :func:`round_value` for ``seat`` (0 for a round
    the cap stopped)."""
    result = game.apply(first)
    for _ in range(ACTION_CAP):
        if result is not None:
            return round_value(result.points, seat)
        if game.over:
            break
        result = game.apply(play_turn(game, policy))
    return 0.0


class GinskiSearch(GinskiPolicy):
    """The normal Ginski bot, with its discards weighed by sampled play-outs (see the
    module notes)."""

    discards = DISCARDS
    samples = SAMPLES

    weigh_draws = WEIGH_DRAWS
    playout = PLAYOUT  # the bot every seat plays in a play-out
    infer = False  # deals weighed by what the others threw and let go by (companion.play.rummy_inference)

    def take(self, game: RummyGame, hand: int, top: int) -> bool:
        start = time.thread_time()
        normal = super().take(game, hand, top)
        if not self.weigh_draws or game.phase == "rescue":
            return normal
        after, _ = best_after(hand | 1 << top, game.meld_rules, top)
        if after <= game.hand_options.end_limit:
            return True  # taking it ends the round at once
        stock = Pass() if game.phase == "upcard" else Draw("stock")
        moves: list[Action] = [Draw("discard"), stock] if normal else [stock, Draw("discard")]
        means = self.weigh(game, moves, start)
        return moves[max(range(2), key=lambda i: (means[i], -i))] == Draw("discard")

    def pick(self, game: RummyGame, allowed: int, which: int, best: int, ending: bool) -> int:
        if ending:
            return super().pick(game, allowed, which, best, ending)
        start = time.thread_time()  # the normal bot's ranking counts against the budget too
        moves = self.ranked(game, allowed, best)[:self.discards]
        if len(moves) <= 1:
            return moves[0] if moves else super().pick(game, allowed, which, best, ending)
        means = self.weigh(game, [Discard(c) for c in moves], start)
        return moves[max(range(len(moves)), key=lambda i: (means[i], -i))]

    def weigh(self, game: RummyGame, moves: Sequence[Action], start: float | None = None) -> list[float]:
        """The mean :func:`round_value` of each of ``moves`` over the sampled deals (the
        budget counted from ``start``, a ``time.thread_time`` value, by default now)."""
        seat = game.turn
        know = knowledge(game, seat)
        sampler = random.Random(know.digest ^ 0x6A5C)
        totals = [0.0] * len(moves)
        start = time.thread_time() if start is None else start
        limit = budget() / 1000.0
        done = 0
        slowest = 0.0
        for _ in range(self.samples):
            if done >= MIN_SAMPLES and time.thread_time() - start + slowest > limit:
                break  # the next round of play-outs would overrun the budget
            round_start = time.thread_time()
            deal = (weighted_seat_game(game, seat, sampler, know) if self.infer
                    else seat_game(game, seat, sampler, know))
            for i, move in enumerate(moves):
                totals[i] += play_out(deal.clone(), move, seat, self.playout)
            done += 1
            slowest = max(slowest, time.thread_time() - round_start)
        return [t / done for t in totals]


GINSKI_SEARCH = GinskiSearch()


class GinskiInfer(GinskiSearch):
    """:class:`GinskiSearch` on deals weighed by what the others threw and let go by
    (:func:`companion.play.rummy_inference.weighted_seat_game`); not a level (see the
    module notes)."""

    infer = True


GINSKI_INFER = GinskiInfer()


class GinskiInferNormal(GinskiInfer):
    """:class:`GinskiInfer` playing the rounds out with the normal bot in every seat
    (slower play-outs, fewer deals in the budget); not a level."""

    playout = GINSKI


GINSKI_INFER_NORMAL = GinskiInferNormal()


__all__ = ["GinskiSearch", "GINSKI_SEARCH", "GinskiInfer", "GINSKI_INFER", "GINSKI_INFER_NORMAL",
           "round_value", "play_out", "DISCARDS", "SAMPLES", "MIN_SAMPLES"]
