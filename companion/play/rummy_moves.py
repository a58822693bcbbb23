"""How an action changes a rummy match: :func:`apply_action`, the body of
:meth:`companion.play.rummy.RummyGame.apply` (every check that refuses an illegal action
with the rule that forbids it, then the move itself), and the words of its refusals.

>>> from companion.games import rummy_game
>>> from companion.play.rummy import Draw
>>> g = rummy_game("gin", seed=7, dealer=0)
>>> apply_action(g, Draw("stock"))
Traceback (most recent call last):
...
companion.errors.IllegalAction: the upcard phase: take the upcard (Draw('discard')) or pass (Pass()); the stock is not open yet
"""

from __future__ import annotations

import dataclasses

from companion.errors import IllegalAction
from companion import cards as C
from companion import melds as M
from companion.play.rummy_state import RummyMatch
from companion.play.rummy_actions import Action, BigGin, ChooseDeal, Discard, Draw, Knock, Pass, _name
from companion.play.rummy_checks import STOCK_END_AT
from companion.rules.base import HandResult
from companion.rules.first_dealer import dealer_after_choice


def apply_action(game: RummyMatch, action: Action) -> HandResult | None:
    """Play ``action`` for the player to move. Returns the hand's result when the
    action ended a hand, else None. Raises ``ValueError`` (state unchanged) when the
    action is not legal now."""
    ph = game.phase
    if ph == "over":
        raise IllegalAction("the match is over; no more actions")
    seat = game.turn
    if ph == "first_dealer" or isinstance(action, ChooseDeal):
        if not (ph == "first_dealer" and isinstance(action, ChooseDeal)):
            raise IllegalAction(
                "the first deal: the winner of the flip chooses to deal or not "
                "(ChooseDeal(True) or ChooseDeal(False))" if ph == "first_dealer" else
                "the first dealer has been chosen already (rule first_dealer)")
        if not isinstance(action.deal, bool):
            raise IllegalAction(f"choose to deal with true or false, not {action.deal!r}")
        assert game.first_deal is not None
        game.actions += 1
        game.dealer = dealer_after_choice(seat, action.deal, game.players)
        game.first_deal = dataclasses.replace(game.first_deal, dealer=game.dealer)
        game._deal()
        return None
    if isinstance(action, Pass):
        if ph == "upcard":
            game.actions += 1
            game.moves.append((seat, "pass", game.discard[-1]))
            game.passes += 1
            if game.passes >= game.players:
                game.phase = "draw"
                game.turn = game._next(game.dealer)
                game.must_stock = getattr(game.options, "after_all_pass", "") \
                    != "may_take_upcard"
            else:
                game.turn = game._next(seat)
            return None
        if ph == "rescue":
            game.actions += 1
            return game._end_hand(None)
        raise IllegalAction(f"{_phase_words(game)}: there is nothing to pass")
    if isinstance(action, Draw):
        if action.source not in ("stock", "discard"):
            raise IllegalAction(f"draw from 'stock' or 'discard', not {action.source!r}")
        if ph not in ("upcard", "draw", "rescue"):
            raise IllegalAction(f"{_phase_words(game)}: you have drawn already; discard, "
                             "knock or go gin")
        if action.source == "stock":
            if ph == "upcard":
                raise IllegalAction("the upcard phase: take the upcard (Draw('discard')) or "
                                 "pass (Pass()); the stock is not open yet")
            if ph == "rescue":
                raise IllegalAction("two cards are left in the stock and may not be drawn: "
                                 "take the last discard to end the hand, or pass")
            game.actions += 1
            card = game.stock.pop()
            game.moves.append((seat, "stock", -1))
            game.hands[seat] |= 1 << card
            game.taken = None
            game.phase = "discard"
            return None
        if ph == "draw" and game.must_stock:
            raise IllegalAction("everybody passed the upcard: the first player must draw "
                             "from the stock")
        top = game.discard[-1]
        if ph == "rescue" and not game._can_end_with(game.hands[seat] | 1 << top, top):
            raise IllegalAction("with two cards left in the stock the last discard may be "
                             "taken only to knock or go gin with it")
        game.actions += 1
        game.discard.pop()
        game.moves.append((seat, "take", top))
        game.hands[seat] |= 1 << top
        game.taken = top
        game.last_taken[seat] = top
        game.must_end = ph == "rescue"
        game.phase = "discard"
        return None
    if isinstance(action, (Discard, Knock)):
        if ph != "discard":
            raise IllegalAction(f"{_phase_words(game)}: draw a card before discarding")
        card = action.card
        hand = game.hands[seat]
        if not isinstance(card, int) or isinstance(card, bool) or card < 0 \
                or not hand >> card & 1:
            raise IllegalAction(f"you cannot discard {_name(card)}: it is not in your hand")
        joker = game.joker_drawn
        if joker is not None and (card != joker or isinstance(action, Discard)):
            raise IllegalAction(_joker_words(joker))
        if card == game.taken and game._same_card_barred:
            raise IllegalAction(f"you may not discard {C.card_name(card)}: you took it from "
                             "the discard pile this turn (rule no_same_card_discard)")
        kept = hand & ~(1 << card)
        if joker is not None:
            game.actions += 1
            game.hands[seat] = kept
            game.discard.append(card)  # face down; back into the next shuffle
            return game._end_hand(seat, joker=True)
        if isinstance(action, Knock):
            kind = game.end_kind(kept, seat)
            if kind not in ("gin", "knock"):
                raise IllegalAction(_why_no_end(game, kept))
            declared = _declared(action)
            if declared is not None:  # refused here, before anything moves
                hands = [C.mask_cards(h) for h in game.hands]
                hands[seat] = C.mask_cards(kept)
                game._score(hands, seat, declared=declared)
            game.actions += 1
            game.hands[seat] = kept
            game.discard.append(card)  # face down, but it is out of play all the same
            return game._end_hand(seat, declared=declared)
        if game.must_end:
            raise IllegalAction("you took the last discard to end the hand: knock or go gin")
        game.actions += 1
        game.hands[seat] = kept
        game.discard.append(card)
        game.moves.append((seat, "throw", card))
        game.taken = None
        return _after_discard(game, seat)
    if isinstance(action, BigGin):
        if ph != "discard":
            raise IllegalAction(f"{_phase_words(game)}: big gin needs the drawn card")
        joker = game.joker_drawn
        if joker is not None:
            raise IllegalAction(_joker_words(joker))
        if game.end_kind(game.hands[seat], seat) != "big_gin":
            raise IllegalAction("big gin needs every card held to meld, and the rules in "
                             "play to allow it")
        game.actions += 1
        return game._end_hand(seat)
    raise IllegalAction(f"not a rummy action: {action!r}")

def _why_no_end(game: RummyMatch, kept: int) -> str:
    dw = M.deadwood_of_mask(kept, game.meld_rules)
    return (f"you may not knock keeping these cards ({dw} deadwood): the rules in play "
            "do not allow ending the hand with them")

def _joker_words(joker: int) -> str:
    name = C.card_name(joker)
    return (f"you drew a joker ({name}): under the co-op joker rule you must end the "
            f"hand at once with the joker as the discard, gin if you can, else a knock "
            f"whatever your deadwood (Knock({name}))")

def _phase_words(game: RummyMatch) -> str:
    return {"upcard": "the upcard phase", "draw": "it is time to draw",
            "discard": "you hold the drawn card", "rescue": "the stock is down to two"
            }.get(game.phase, game.phase)

def _after_discard(game: RummyMatch, seat: int) -> HandResult | None:
    if len(game.stock) <= STOCK_END_AT:
        if getattr(game.options, "last_discard_rescue", False):
            game.phase = "rescue"
            game.turn = game._next(seat)
            game.must_stock = False
            return None
        return game._end_hand(None)
    game.phase = "draw"
    game.must_stock = False
    game.must_end = False
    game.turn = game._next(seat)
    return None

def _declared(action: Knock) -> list[list[str]] | None:
    if action.declared is None:
        return None
    if isinstance(action.declared, (str, bytes)) or not all(
            isinstance(m, (tuple, list)) and all(isinstance(c, str) for c in m)
            for m in action.declared):
        raise IllegalAction("declared: give the melds as lists of card names")
    return [list(m) for m in action.declared]


__all__ = ["apply_action"]
