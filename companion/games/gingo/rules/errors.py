"""Why a Gin-Go action was refused: a message naming the rule, a stable code, details.

Every refusal leaves the game exactly as it was. ``details`` is plain JSON data for
clients that act on the refusal (the phone page opens its forfeit box from a
:class:`ChipShortfall`'s side, supply, need and cards) instead of reading the words.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion import errors as E


class GingoError(E.IllegalAction):
    """A well-formed Gin-Go action the rules refuse; the message names the rule broken
    (code ``illegal``, an :class:`companion.errors.IllegalAction`)."""


class GingoInputError(E.InvalidAction):
    """A Gin-Go action that cannot be read: not an object, an unknown type or key, a
    field of the wrong shape, a card name that is no card of the Gin-Go deck (code
    ``invalid_action``, an :class:`companion.errors.InvalidAction`; HTTP 400)."""


class GingoChipShortfall(GingoError, E.ChipShortfall):
    """A play needs more chips than the side has left, or names more forfeits than the
    shortfall. ``details``: ``reason`` ("chip_shortfall"), ``side``, ``supply`` (chips
    left), ``need`` (new spaces the play fills), ``short`` (``need - supply``) and
    ``cards`` (the cards whose spaces need a chip, by name: the player names ``short`` of
    them in ``skip`` to forfeit those)."""

    def __init__(self, message: str, *, side: int, supply: int, need: int, cards: Sequence[str] = ()) -> None:
        E.ChipShortfall.__init__(self, message, side=side, supply=supply, need=need, cards=cards)


__all__ = ["GingoError", "GingoInputError", "GingoChipShortfall"]
