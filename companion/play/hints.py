"""A hint on request: the strong bot's choice for the seat to move, with a short reason
in words (``GET /api/v1/games/{id}/hint``).

The choice is the strong level's bot's, which the game's Variant gives
(:meth:`companion.games.base.Variant.dealt_hint` passes it here, with the policy that
weighs a knock's undercut risk when the game has one), made on what the seat knows only
(:func:`companion.play.knowledge.seat_game`), and so is the reason: its own deadwood, and
what the next player did in the open (took, threw, let go by). This module words the
rummy games' hints and a card (:func:`say`); a game with other moves words its own with
them (Gin-Go: :mod:`companion.games.gingo.play.hint`).

>>> from companion.games import rummy_game
>>> from companion.play.sharp import SHARP_GIN
>>> g = rummy_game("gin", seed=11, dealer=0)
>>> h = rummy_hint(g, ["Ann", "Bot 1"], SHARP_GIN, SHARP_GIN)
>>> sorted(h), h["action"]["type"] in ("draw", "pass")
(['action', 'text'], True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion import cards as C
from companion import melds as M
from companion.play.knowledge import knowledge, seat_game
from companion.play.policy import Policy, play_turn
from companion.play.sharp import SharpMixin
from companion.play.rummy_actions import BigGin, ChooseDeal, Discard, Draw, Knock, Pass, action_to_dict

if TYPE_CHECKING:
    from companion.play.rummy import RummyGame

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
HINT_LEVEL = "strong"


def say(card: int) -> str:
    """A card in words for a hint: ``9♣``, ``red 7``, ``wild``, ``joker``."""
    if 0 <= card < 52:
        name = C.card_name(card)
        return name[:-1] + C.SUIT_SYMBOLS[C.SUITS.index(name[-1])]
    if card in C.JOKERS:
        return "joker"
    name = C.card_name(card)
    if name.startswith("W"):
        return "wild"
    return f"{C.COLOUR_NAMES[C.COLOURS.index(name[0])]} {name[1:]}"


def _count(n: int, word: str) -> str:
    text = NUMBERS[n] if n < len(NUMBERS) else str(n)
    return f"{text} {word}{'' if n == 1 else 's'}"


def _suit_word(card: int) -> str | None:
    if 0 <= card < 52:
        return C.SUIT_NAMES[C.suit(card)]
    if C.RUMSKI_BASE <= card < C.RUMSKI_BASE + 65:
        return C.COLOUR_NAMES[(card - C.RUMSKI_BASE) // 13]
    return None


def _near(a: int, b: int) -> bool:
    ra, rb = C.rank(a), C.rank(b)
    if ra == 0 or rb == 0:
        return False
    return ra == rb or (C.suit(a) == C.suit(b) and C.suit(a) >= 0 and abs(ra - rb) <= 2)


def _reading(game: RummyGame, seat: int, card: int, names: list[str]) -> str:
    """What the next player's open moves say about letting ``card`` go (or '')."""
    k = knowledge(game, seat)
    nxt = (seat + 1) % game.players
    who = names[nxt] if nxt < len(names) else f"seat {nxt}"
    held = [c for c in C.iter_cards(k.held[nxt])]
    near = [c for c in held if _near(c, card)]
    if near:
        return f", though {who} picked up {', '.join(say(c) for c in near)}, close to it"
    shown = [c for c in C.iter_cards(k.thrown[nxt] | k.passed[nxt]) if _near(c, card)][:3]
    if shown:
        return f", and {who} let {', '.join(say(c) for c in shown)} go, so it is likely safe"
    if held:
        suits = [s for c in held if (s := _suit_word(c)) is not None]
        if suits:
            top = max(set(suits), key=suits.count)
            n = suits.count(top)
            word = top[:-1] if top.endswith("s") else f"{top} card"
            return f", and {who} picked up {_count(n, word)}, none near it"
    return ""


def rummy_hint(game: RummyGame, names: list[str], policy: Policy,
               reader: SharpMixin | None = None) -> dict[str, Any]:
    """``policy``'s action for the player to move in ``game`` and why, in words
    (``{"action": ..., "text": ...}``); chosen on what that seat knows only. A knock's
    reason weighs the undercut risk with ``reader`` when the game has one (two players)."""
    seat = game.turn
    view = seat_game(game, seat)
    action = play_turn(view, policy)
    variant = game.meld_rules
    hand = game.hands[seat]
    dw = M.deadwood_of_mask(hand, variant) if game.phase != "first_dealer" else 0
    text: str
    if isinstance(action, ChooseDeal):
        text = "let the other player deal: the player who does not deal plays first"
    elif isinstance(action, Draw) and action.source == "discard":
        top = game.discard[-1]
        after = min((M.deadwood_of_mask((hand | 1 << top) & ~(1 << c), variant)
                     for c in C.iter_cards(hand)), default=dw)
        text = f"take {say(top)}: it brings your deadwood from {dw} to {after} after your discard"
    elif isinstance(action, (Draw, Pass)):
        shown = game.discard[-1] if game.discard else None
        verb = "draw from the stock" if isinstance(action, Draw) else "pass"
        text = verb if shown is None else f"{verb}: {say(shown)} would not lower your deadwood"
        if shown is not None and game.phase != "rescue":
            lower = min((M.deadwood_of_mask((hand | 1 << shown) & ~(1 << c), variant)
                         for c in C.iter_cards(hand)), default=dw)
            if lower < dw:
                text = (f"{verb}: {say(shown)} would bring your deadwood only from {dw} to {lower}, "
                        "and the cards you hold have better chances from the stock")
        if isinstance(action, Pass) and game.phase == "rescue":
            text = f"pass: {say(shown)} would not let you knock" if shown is not None else "pass"
    elif isinstance(action, BigGin):
        text = "big gin: all your cards meld, with no discard"
    elif isinstance(action, Knock):
        kept = hand & ~(1 << action.card)
        left = M.deadwood_of_mask(kept, variant)
        if left == 0:
            text = f"go gin with {say(action.card)}: every card you keep melds"
        else:
            text = f"knock with {say(action.card)}: you keep {left} deadwood"
            reason = _knock_reason(view, action.card, reader)
            if reason:
                text += reason
    elif isinstance(action, Discard):
        kept = hand & ~(1 << action.card)
        left = M.deadwood_of_mask(kept, variant)
        text = f"discard {say(action.card)}: it leaves {left} deadwood" + _reading(game, seat, action.card, names)
    else:  # pragma: no cover - every action is one of the above
        text = str(action)
    return {"action": action_to_dict(action), "text": text}


def _knock_reason(view: RummyGame, card: int, reader: SharpMixin | None) -> str:
    if view.players != 2 or reader is None:
        return ""
    risk, _mean = reader.knock_odds(view, card)
    if risk <= 0.1:
        return ", and an undercut is unlikely"
    return f", and an undercut is a risk worth taking (about {round(risk * 100)}% of the hands the other may hold)"


__all__ = ["rummy_hint", "say", "HINT_LEVEL"]
