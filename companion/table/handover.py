"""What a dealt game shows between its turns and hands: each seat's latest moves in public
form, the card a seat has just drawn (its own view only) and, when a hand ends, the
hand-over summary every seat's phone shows (all hands face up, how the points were made,
the running totals).

Nothing here reveals a card that is still hidden: a move from the stock names no card, a
summary is made only once its hand is over, and the drawn card is given only to the seat
that holds it (:meth:`companion.table.dealt.DealtGame.view`).

>>> public_move(1, {"type": "draw", "source": "stock"}, hand=3, top=None)
{'seat': 1, 'hand': 3, 'type': 'draw', 'source': 'stock'}
>>> public_move(1, {"type": "draw", "source": "discard"}, hand=3, top="9C")
{'seat': 1, 'hand': 3, 'type': 'draw', 'source': 'discard', 'card': '9C'}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from companion import cards as C
from companion.table.explain import breakdown

#: how many of the latest moves a table keeps for the Play screen's "last move" lines
RECENT: Final = 24

#: the keys of a move that say what it did in public (a go-out's captured cards are in
#: the hand-over summary instead)
_PUBLIC_KEYS: Final = ("type", "source", "card", "cards", "meld", "designations", "deal", "format")


def public_move(seat: int, action: dict[str, Any], *, hand: int, top: str | None) -> dict[str, Any]:
    """``seat``'s ``action`` as everyone may read it: its type and the face-up cards it
    played; a draw from the discard pile names the card taken (``top``), a draw from the
    stock names none."""
    out: dict[str, Any] = {"seat": seat, "hand": hand}
    out.update((k, action[k]) for k in _PUBLIC_KEYS if k in action)
    if action.get("type") == "draw" and action.get("source") == "discard" and top is not None:
        out["card"] = top
    if action.get("type") == "draw" and action.get("source") != "discard":
        out.pop("card", None)
    return out


def rummy_summary(engine: Any, names: Sequence[str]) -> dict[str, Any]:
    """The hand that just ended in a rummy-family match (``engine`` a
    :class:`~companion.play.rummy.RummyGame` after it): the result with every seat's melds,
    lay-offs and deadwood, the winner's points in parts, and the match after it."""
    result = engine.results[-1].as_dict()
    return {
        "hand": len(engine.results),
        "result": result,
        "breakdown": breakdown(engine.variant, result, engine.hand_options, list(names)),
        "match": engine.match.as_dict(),
        "finished": bool(engine.over),
    }


def gingo_summary(before: Any, after: Any, effects: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The Gin-Go hand that just ended (``before``/``after``: the
    :class:`~companion.play.gingo.GingoPlay` around the action that ended it; ``effects``
    its events): who went out, the cards captured from each hand and the chips they
    placed, the jokers laid or dead, the links, and who won the game if anyone did. The
    hands not captured (a hand that ends at the stock) are shown as they were held."""
    end = next((e for e in effects if e.get("type") == "hand_end"), {})
    capture = next((e for e in effects if e.get("type") == "capture"), None)
    chips = [e for e in effects if e.get("type") == "chips"]
    held = {str(s): [C.card_name(c) for c in cs] for s, cs in enumerate(before.hands) if cs}
    captured = dict(capture.get("cards", {})) if capture else {}
    st = after.table.as_dict()
    return {
        "hand": end.get("hand"),
        "went_out": end.get("went_out"),
        "winner": end.get("winner"),
        "reason": end.get("reason"),
        "captured": captured,
        "held": {s: cs for s, cs in held.items() if s not in captured and s != str(end.get("went_out"))},
        "jokers_laid": list(capture.get("jokers_laid", [])) if capture else [],
        "jokers_dead": list(capture.get("jokers_dead", [])) if capture else [],
        "placed": sum(len(e.get("placed", [])) for e in chips),
        "bumped": sum(len(e.get("bumped", [])) for e in chips),
        "links": st.get("links"),
        "link_distance": st.get("link_distance"),
        "gin": st.get("gin"),
        "finished": after.phase == "game_over",
    }


__all__ = ["RECENT", "public_move", "rummy_summary", "gingo_summary"]
