"""What a dealt game shows between its turns: each seat's latest moves in public form
(the card a seat has just drawn is in its own view only, and the hand-over summary every
seat's phone shows when a hand ends, all hands face up, is the game's Variant's:
:meth:`~companion.games.base.Variant.dealt_summary`).

Nothing here reveals a card that is still hidden: a move from the stock names no card, a
summary is made only once its hand is over, and the drawn card is given only to the seat
that holds it (:meth:`companion.table.dealt.DealtGame.view`).

>>> public_move(1, {"type": "draw", "source": "stock"}, hand=3, top=None)
{'seat': 1, 'hand': 3, 'type': 'draw', 'source': 'stock'}
>>> public_move(1, {"type": "draw", "source": "discard"}, hand=3, top="9C")
{'seat': 1, 'hand': 3, 'type': 'draw', 'source': 'discard', 'card': '9C'}
"""

from __future__ import annotations

from typing import Any, Final


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


__all__ = ["RECENT", "public_move"]
