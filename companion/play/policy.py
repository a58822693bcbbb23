"""What every rummy bot does the same way: the turn's skeleton and the helpers the bots
share.

A bot (:mod:`companion.play.bot`'s basic one, :mod:`companion.play.strong` and the
bots built on it) is a :class:`Policy`: it answers four questions, and
:func:`play_turn` turns the answers into a legal action for the player to move:

* :meth:`Policy.take`: take the upcard or the top discard?
* :meth:`Policy.knock_now`: some least-deadwood discard ends the hand; end it now?
* :meth:`Policy.end_anyway`: no least-deadwood discard ends the hand; end it with
  another discard that does?
* :meth:`Policy.pick`: which card to let go (as a discard, or to knock with).

What is not a choice is done here for every bot: as the winner of the flip for the
first deal let the other deal (the non-dealer plays first); take the last discard on
the rescue turn whenever it is offered (it is offered only when it ends the hand); go
big gin or gin whenever the rules allow it (a gin is a knock with nothing left, which
:meth:`Policy.knock_now` is never asked about); with Color Gin's co-op jokers discard a
drawn joker at once (the only legal action); declare the melds the rule module finds
best (``best_declaration``), or let the engine declare (Color Gin).

A bot looks only at what its player may see: its own cards, the discard pile, the cards
each player took from it, the stock's size, the match score and the rules.

>>> from companion.games import rummy_game
>>> g = rummy_game("gin", seed=11)
>>> play_turn(g, Policy()) in g.legal_actions()
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion import cards as C
from companion import melds as M
from companion.play.rummy_actions import Action, BigGin, ChooseDeal, Discard, Draw, Knock, Pass

if TYPE_CHECKING:
    from companion.play.rummy import RummyGame


def best_after(hand: int, variant: M.MeldRules, forbid: int | None) -> tuple[int, int]:
    """(least deadwood after one discard, mask of discards reaching it), never
    discarding ``forbid``."""
    dw, which = M.best_discard_mask(hand, variant)
    if forbid is None or which & ~(1 << forbid):
        if forbid is not None:
            which &= ~(1 << forbid)
        return dw, which
    best = 1 << 30
    which = 0
    for c in C.iter_cards(hand):
        if c == forbid:
            continue
        v = M.deadwood_of_mask(hand & ~(1 << c), variant)
        if v < best:
            best, which = v, 1 << c
        elif v == best:
            which |= 1 << c
    return best, which


def knock_mask(game: RummyGame, hand: int, candidates: int) -> int:
    """The cards of ``candidates`` the player to move may knock (or go gin) with."""
    seat = game.turn
    out = 0
    for c in C.iter_cards(candidates):
        if game.end_kind(hand & ~(1 << c), seat) in ("gin", "knock"):
            out |= 1 << c
    return out


def declaring(game: RummyGame, hand: int, card: int) -> Knock:
    """Knock with ``card``, declaring the melds the rules module finds best for the
    player from their own seat (``best_declaration``; Color Gin declares by its
    ``auto_declare`` rule instead)."""
    best = getattr(game.rules, "best_declaration", None)
    if best is None:
        return Knock(card)
    melds = best(hand & ~(1 << card), game.hand_options)
    return Knock(card, tuple(tuple(m) for m in melds))


def unseen_cards(game: RummyGame, seat: int) -> int:
    """The cards ``seat`` cannot see: not in its hand, not in the discard pile (the
    other hands and the stock)."""
    seen = game.hands[seat]
    for c in game.discard:
        seen |= 1 << c
    return game.deck & ~seen & ~game.jokers


def draws_so_far(game: RummyGame) -> int:
    """How many cards have left the stock this hand."""
    full = game.deck.bit_count() - game.players * game.deal_size - 1
    return full - len(game.stock)


class Policy:
    """A rummy bot's choices. This base class is a plain legal bot: it takes a discard
    only when that lowers its least deadwood, knocks whenever it can and lets go the
    highest card among the least-deadwood discards; the bots override its methods."""

    def take(self, game: RummyGame, hand: int, top: int) -> bool:
        """Take ``top`` (the upcard or the top discard) into ``hand``?"""
        variant = game.meld_rules
        after, _ = best_after(hand | 1 << top, variant, top)
        return after < M.deadwood_of_mask(hand, variant)

    def knock_now(self, game: RummyGame, dw: int, knockers: int) -> bool:
        """End the hand now, keeping ``dw`` deadwood (more than 0) with one of the
        ``knockers`` as the discard?"""
        return True

    def end_anyway(self, game: RummyGame, dw: int, short: bool) -> bool:
        """No least-deadwood discard (``dw``) ends the hand: end it with another
        discard that does? (``short``: the stock is running out; always asked when
        the hand must end.)"""
        return short

    short_stock = 6  # end_anyway's ``short``: the stock is this small

    def pick(self, game: RummyGame, allowed: int, which: int, best: int, ending: bool) -> int:
        """The card to let go among ``allowed`` (``which``: the discards leaving the
        least deadwood ``best``; ``ending``: the card ends the hand)."""
        rules = M.get_rules(game.meld_rules)
        pool = which & allowed or allowed
        return max(C.iter_cards(pool), key=lambda c: (rules.card_value(c), -c))


def play_turn(game: RummyGame, policy: Policy) -> Action:
    """``policy``'s action for the player to move in ``game`` (always a legal one; see
    the module notes). In the discard phase it asks the rules only about the discards
    it weighs, which keeps self-play fast; the engine still checks the action."""
    phase = game.phase
    if phase == "over":
        raise ValueError("the match is over; there is nothing to choose")
    if phase == "first_dealer":
        return ChooseDeal(False)  # let the other deal: the non-dealer plays first
    seat = game.turn
    variant = game.meld_rules
    hand = game.hand(seat)
    if phase in ("upcard", "draw", "rescue"):
        legal = game.legal_actions()
        if Draw("discard") in legal and (phase == "rescue" or policy.take(game, hand, game.discard[-1])):
            return Draw("discard")
        return Pass() if phase in ("upcard", "rescue") else Draw("stock")
    joker = game.joker_drawn
    if joker is not None:
        return Knock(joker)  # co-op jokers: the drawn joker ends the hand at once
    if game.end_kind(hand, seat) == "big_gin":
        return BigGin()
    taken = game.barred_discard
    allowed = hand & ~(1 << taken) if taken is not None else hand
    dw, which = best_after(hand, variant, taken)
    knockers = knock_mask(game, hand, which)
    if knockers and (dw == 0 or game.must_end or policy.knock_now(game, dw, knockers)):
        return declaring(game, hand, policy.pick(game, knockers, knockers, dw, True))
    short = len(game.stock) <= policy.short_stock
    if game.must_end or dw == 0 or (not knockers and policy.end_anyway(game, dw, short)):
        # the least-deadwood discard cannot end the hand (Color Gin spoiling): end with
        # another discard when one still goes out
        others = knock_mask(game, hand, allowed & ~which)
        if others:
            return declaring(game, hand, policy.pick(game, others, 0, dw, True))
    if game.must_end:
        raise ValueError("the rescue card does not end the hand after all")  # engine bug
    return Discard(policy.pick(game, allowed, which, dw, False))


__all__ = ["Policy", "play_turn", "best_after", "knock_mask", "declaring", "unseen_cards",
           "draws_so_far"]
