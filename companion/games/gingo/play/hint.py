"""A Gin-Go hint in words: the strong Gin-Go bot's move for the seat to move, and why
(``GET /api/v1/games/{id}/hint``, asked through
:meth:`companion.games.gingo.GinGo.dealt_hint`). The bot reads the seat's own hand, the
pile and the table; the cards are worded as every hint words them
(:func:`companion.play.hints.say`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion import cards as C
from companion.games.gingo.play.search import candidates
from companion.play.hints import say

if TYPE_CHECKING:
    from companion.games.gingo.play.play import GingoPlay

_GINGO_VERBS = {"draw": "draw from the stock", "new_hand": "deal the next hand", "setup": "set up the board"}


def gingo_hint(play: GingoPlay, seat: int, move: Any) -> dict[str, Any]:
    """``move``, the strong Gin-Go bot's action for ``seat`` (the seat to move), and why, in words."""
    action: dict[str, Any] = move.to_dict()
    kind = str(action.get("type"))
    def names(cards: list[str]) -> str:
        return " ".join(say(C.parse_card(c)) for c in cards)

    if kind == "take":
        meld = action.get("meld") or {}
        text = f"dig {say(C.parse_card(action['card']))} from the pile"
        if meld.get("cards"):
            text += f" and meld {names(meld['cards'])} at once: its chips help your link"
        else:
            text += ": its cards lay off at once"
    elif kind in ("meld", "hit"):
        text = (f"meld {names(action.get('cards') or [])}" if kind == "meld"
                else f"lay {names(action.get('cards') or [])} off on a meld on the table")
        if len(candidates(play)) > 1:  # weighed against others (four players): by play-outs
            text += (f": of the {'melds' if kind == 'meld' else 'lay-offs'} you can make, it left the best board "
                     "when the rest of the hand was played out over hands the others could hold")
        elif kind == "meld":
            text += ": its chips are the best on the board for you"
    elif kind == "discard":
        hand = play.hands[seat]
        if len(hand) <= 1:
            text = f"go out with {say(C.parse_card(action['card']))}: you capture every card still held"
        else:
            text = (f"discard {say(C.parse_card(action['card']))}: it is among the cards you need least (they "
                    "meld with little you hold and their spaces are off your shortest path), and it left the best "
                    "board when the rest of the hand was played out over hands the others could hold")
    elif kind == "choose_deal":
        text = "deal" if action.get("deal") else "let the other side deal"
    else:
        text = _GINGO_VERBS.get(kind, kind.replace("_", " "))
        if kind == "draw" and len(candidates(play)) > 1:
            text += ": it left a better board than any dig of the pile when the rest of the hand was played out"
    return {"action": action, "text": text}


__all__ = ["gingo_hint"]
