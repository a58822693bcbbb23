"""The strong level's gin bot, and its reading and knocking for any two-player rummy bot
(:class:`SharpMixin`): the normal bots' play, with the opponent's hand read from what it
did, and the knock weighed on sampled hands.

Like every seat bot it plays on :func:`companion.play.knowledge.seat_game`, so it sees
what its seat knows (:func:`companion.play.knowledge.knowledge`) and nothing more. What it
adds to :mod:`companion.play.strong` (and, in the sharp Color Gin bot of
:mod:`companion.games.color_gin.sharp`, to the Color Gin bot's):

* **reading the opponent** (:func:`feed_risk`): a card next to one the next player took
  from the pile (and still holds) is the most dangerous discard; a card of a rank, or
  next in a suit to a card, they threw or let go by (passed, or drew from the stock over
  it) is safer: they showed they did not need it;
* **knocking** (:meth:`SharpMixin.knock_now`): before it knocks it deals the opponent
  :data:`SAMPLES` hands it could hold: the cards it is known to hold and, for the rest,
  the best ten of ten plus as many unseen cards as it has drawn (a hand that has drawn
  keeps what melds, so a random ten-card hand would say too little), and scores the
  knock against each with the rules (lay-offs and undercuts included). It knocks when
  the undercut chance is at most :data:`UNDERCUT_RISK` and the knock pays on average,
  or when the normal bot would and the chance is small; it never knocks into an
  undercut it expects more often than not. The samples come from a generator seeded
  by what the seat knows, so the bot is deterministic.

Its speed is measured by ``benchmarks/bots.py`` (docs/play.md); the samples are bounded
by :data:`SAMPLES` and by ``budget_ms`` (a setting: :func:`set_budget`).

>>> from companion.games import rummy_game
>>> from companion.play.policy import play_turn
>>> g = rummy_game("gin", seed=11)
>>> play_turn(g, SHARP_GIN) in g.legal_actions()
True
"""

from __future__ import annotations

import random
import time
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from companion import cards as C
from companion import melds as M
from companion.play.knowledge import SeatKnowledge, knowledge
from companion.play.policy import Policy, best_after, draws_so_far, unseen_cards
from companion.play.strong import StrongPolicy, live_outs, reach

if TYPE_CHECKING:
    from companion.play.rummy import RummyGame

SAMPLES = 24  # opponent hands dealt before a knock
UNDERCUT_RISK = 0.2  # knock when the sampled undercut chance is at most this (and it pays)
ENDING_WEIGHT = 30.0  # points of deadwood a sure chance to knock after the next draw is worth
CAP = 40  # the expected deadwood counts each draw's outcome up to this many points
CACHE = 1 << 15  # hands remembered by each deadwood cache
MIN_SCORED = 4  # hands scored before a knock even when the budget is spent
BUDGET_MS = 150.0  # the most time one decision's sampling may take (a setting)
_budget = [BUDGET_MS]


def set_budget(ms: float) -> None:
    """Bound the time one decision's sampling may take (milliseconds; at least 1). The
    samples stop early when it runs out, so a slow machine plays on fewer samples (and
    the bot is deterministic only while the budget is not reached)."""
    _budget[0] = max(1.0, float(ms))


def budget() -> float:
    """The sampling budget per decision, in milliseconds."""
    return _budget[0]


@lru_cache(maxsize=CACHE)
def _deadwood(mask: int, variant: M.MeldRules) -> int:
    return M.deadwood_of_mask(mask, variant)


@lru_cache(maxsize=CACHE)
def _after(mask: int, variant: M.MeldRules) -> int:
    return M.least_after_discard_mask(mask, variant)


def outlook(kept: int, unseen: int, limit: int, variant: M.MeldRules, cap: int = CAP) -> tuple[float, float]:
    """For the hand ``kept`` and its next draw, one of ``unseen`` cards equally likely:
    the chance that it can then knock (least deadwood after a discard at most
    ``limit``) and the expected least deadwood after that discard, each case counted up
    to ``cap`` (as :func:`companion.games.ginski.bot.outlook`, for gin's deck)."""
    n = unseen.bit_count()
    now = min(_deadwood(kept, variant), cap)
    if not n:
        return (1.0 if now <= limit else 0.0), float(now)
    rules = M.get_rules(variant)
    swap = _after(kept, variant)
    near = reach(kept, rules.wild_mask) & unseen
    ends = 0
    total = 0
    for u in C.iter_cards(unseen & ~near):
        d = min(now, swap + rules.card_value(u))
        total += d
        ends += d <= limit
    for u in C.iter_cards(near):
        d = min(now, _after(kept | 1 << u, variant))
        total += d
        ends += d <= limit
    return ends / n, total / n


def _total(p: Any) -> int:
    if isinstance(p, dict):
        return sum(int(v) for v in p.values())
    return int(p)


def feed_risk(card: int, unseen: int, held: int, shown: int) -> float:
    """How likely discarding ``card`` helps the next player: unseen cards that would meld
    with it count a little, cards they hold (taken from the pile) much more, and cards
    they threw or let go by (``shown``) make it safer."""
    r, s = C.rank(card), C.suit(card)
    if r == 0 or s < 0:
        return 0.0
    risk = 0.0
    for other in C.iter_cards(unseen | held | shown):
        if other == card:
            continue
        ro, so = C.rank(other), C.suit(other)
        same = ro == r
        run = so == s and abs(ro - r) <= 2
        if not (same or run):
            continue
        if held >> other & 1:
            risk += 3.0
        elif shown >> other & 1:
            risk -= 0.4 if (same or abs(ro - r) == 1) else 0.2
        else:
            risk += 0.25 if (same or abs(ro - r) == 1) else 0.1
    return max(risk, 0.0)


def opponent_hands(game: RummyGame, k: SeatKnowledge, opp: int, n: int, rng: random.Random,
                   deadline: float) -> list[int]:
    """Up to ``n`` hands ``opp`` could hold (see the module notes), until ``deadline``
    (a ``time.perf_counter`` value)."""
    variant = game.meld_rules
    size = k.sizes[opp]
    known = k.held[opp]
    pool = k.unseen
    for s, h in enumerate(k.held):
        if s != opp:
            pool &= ~h
    pool &= ~known
    cards = C.mask_cards(pool)
    draws = min(sum(1 for s, kind, _ in game.moves if s == opp and kind == "stock"), len(cards))
    out: list[int] = []
    need = size - known.bit_count()
    for _ in range(n):
        if out and time.perf_counter() > deadline:
            break
        pick = rng.sample(cards, min(len(cards), need + draws))
        hand = known
        for c in pick[:need]:
            hand |= 1 << c
        for c in pick[need:]:  # each draw: keep the better ten, as a player would
            hand |= 1 << c
            _, which = M.best_discard_mask(hand & ~known, variant) if hand & ~known else (0, 0)
            drop = which & ~known & ~(1 << c) or which & ~known or (1 << c)
            hand &= ~(1 << (drop.bit_length() - 1))
        out.append(hand)
    return out


class SharpMixin(Policy):
    """The strong level's reading and knocking, over a normal bot's play (see the module notes)."""

    samples = SAMPLES
    undercut_risk = UNDERCUT_RISK
    out_weight: float
    feed_weight: float

    def knock_odds(self, game: RummyGame, card: int) -> tuple[float, float]:
        """(the chance of an undercut, the mean points of the knock) over sampled hands
        of the opponent, knocking with ``card``."""
        seat = game.turn
        k = knowledge(game, seat)
        opp = (seat + 1) % game.players
        rng = random.Random(k.digest ^ card)
        deadline = time.perf_counter() + budget() / 1000.0
        kept = game.hands[seat] & ~(1 << card)
        under = 0
        total = 0.0
        hands = opponent_hands(game, k, opp, self.samples, rng, deadline)
        scored = 0
        for h in hands:
            if scored >= MIN_SCORED and time.perf_counter() > deadline:
                break  # the budget is spent: judge on the hands scored so far
            scored += 1
            masks = list(game.hands)
            masks[seat] = kept
            masks[opp] = h
            try:
                r = game._score([C.mask_cards(m) for m in masks], seat)
            except ValueError:
                continue
            mine = _total(r.points[seat])
            theirs = _total(r.points[opp])
            total += mine - theirs
            if r.winner is not None and r.winner != seat:
                under += 1
        n = max(1, scored)
        return under / n, total / n

    def knock_now(self, game: RummyGame, dw: int, knockers: int) -> bool:
        base = super().knock_now(game, dw, knockers)
        if game.players != 2:
            return base
        card = max(C.iter_cards(knockers), key=lambda c: (M.get_rules(game.meld_rules).card_value(c), c))
        risk, mean = self.knock_odds(game, card)
        if risk <= self.undercut_risk and mean > 0:
            return True
        return base and risk < self.base_risk

    base_risk = 0.5
    careful_take = True
    stock_again = 1.0

    def take(self, game: RummyGame, hand: int, top: int) -> bool:
        if not self.careful_take or game.players != 2:
            return super().take(game, hand, top)
        variant = game.meld_rules
        limit = int(getattr(game.hand_options, "knock_limit", 10))
        after = hand | 1 << top
        least, which = best_after(after, variant, top)
        if least <= limit:
            return True  # taking it lets the hand knock (or go gin) at once
        if least >= _deadwood(hand, variant):
            return False
        k = knowledge(game, game.turn)
        drawable = k.unseen & ~(1 << top)
        for s, h in enumerate(k.held):
            if s != game.turn:
                drawable &= ~h
        taken = max(self.ending_weight * p - e for p, e in
                    (outlook(after & ~(1 << c), drawable, limit, variant, self.cap) for c in C.iter_cards(which)))
        p, e = outlook(hand, drawable, limit, variant, self.cap)
        stock = self.ending_weight * (p + self.stock_again * p * (1 - p)) - e
        return taken > stock
    use_outlook = True
    ending_weight = ENDING_WEIGHT
    cap = CAP

    def value(self, game: RummyGame, hand: int, card: int, unseen: int, picked: int) -> float:
        variant = game.meld_rules
        kept = hand & ~(1 << card)
        k = knowledge(game, game.turn)
        nxt = (game.turn + 1) % game.players
        shown = k.thrown[nxt] | k.passed[nxt]
        risk = self.feed_weight * feed_risk(card, unseen, k.held[nxt], shown)
        if self.use_outlook:
            limit = int(getattr(game.hand_options, "knock_limit", 10))
            drawable = unseen
            for s, h in enumerate(k.held):
                if s != game.turn:
                    drawable &= ~h
            p, e = outlook(kept, drawable, limit, variant, self.cap)
            return e - self.ending_weight * p + risk
        dw = M.deadwood_of_mask(kept, variant)
        return dw - self.out_weight * live_outs(kept, unseen, variant) + risk


class SharpGin(SharpMixin, StrongPolicy):
    """The strong level's gin bot."""


SHARP_GIN = SharpGin()


__all__ = ["SharpMixin", "SharpGin", "SHARP_GIN", "feed_risk",
           "opponent_hands", "set_budget", "budget", "SAMPLES", "UNDERCUT_RISK", "BUDGET_MS", "draws_so_far",
           "unseen_cards"]
