"""The actions of the rummy engine (:class:`~companion.play.rummy.RummyGame`) and their
JSON form: small frozen dataclasses, :func:`action_to_dict` and :func:`action_from_dict`.

>>> action_to_dict(Draw("stock"))
{'type': 'draw', 'source': 'stock'}
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, Union

from companion.errors import IllegalAction
from companion import cards as C



@dataclass(frozen=True)
class Pass:
    """Turn down the upcard (upcard phase), or give up the last-discard rescue."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Draw:
    """Take the top card of the ``"stock"`` or of the ``"discard"`` pile."""

    source: Literal["stock", "discard"]

    def __str__(self) -> str:
        return f"draw {self.source}"


@dataclass(frozen=True)
class Discard:
    """Put ``card`` face up on the discard pile; the turn passes on."""

    card: int

    def __str__(self) -> str:
        return f"discard {C.card_name(self.card)}"


@dataclass(frozen=True)
class Knock:
    """Discard ``card`` face down and end the hand: a knock, or gin when every kept
    card melds (the rule module decides which). ``declared``: the melds the player lays
    out, as card names (``("3H", "4H", "5H")``; a wild ``"W1=R5"``), the rest of the
    hand deadwood; None lets the rules declare the least-deadwood arrangement."""

    card: int
    # not part of equality: Knock(c, declared) is legal exactly when Knock(c) is
    declared: tuple[tuple[str, ...], ...] | None = dataclasses.field(default=None, compare=False)

    def __str__(self) -> str:
        text = f"knock {C.card_name(self.card)}"
        if self.declared is not None:
            text += " declaring " + " / ".join(" ".join(m) for m in self.declared)
        return text

    def undeclared(self) -> Knock:
        return Knock(self.card) if self.declared is not None else self


@dataclass(frozen=True)
class ChooseDeal:
    """The winner of the flip for the first deal (``first_dealer =
    flip_high_chooses``) deals (``deal=True``) or leaves the deal to the player on
    their right (``deal=False``)."""

    deal: bool

    def __str__(self) -> str:
        return "deal first" if self.deal else "let the other deal"


@dataclass(frozen=True)
class BigGin:
    """End the hand with every card held melded and no discard."""

    def __str__(self) -> str:
        return "big gin"


Action = Union[Pass, Draw, Discard, Knock, BigGin, ChooseDeal]


def action_to_dict(action: Action) -> dict[str, Any]:
    """An action as JSON-ready data: ``{"type": "pass" | "draw" | "discard" | "knock" |
    "big_gin"}`` with ``"source"`` for a draw and ``"card"`` (a name) for a discard
    or knock.

    >>> action_to_dict(Knock(C.parse_card("KD")))
    {'type': 'knock', 'card': 'KD'}
    """
    if isinstance(action, Pass):
        return {"type": "pass"}
    if isinstance(action, Draw):
        return {"type": "draw", "source": action.source}
    if isinstance(action, Discard):
        return {"type": "discard", "card": C.card_name(action.card)}
    if isinstance(action, Knock):
        out: dict[str, Any] = {"type": "knock", "card": C.card_name(action.card)}
        if action.declared is not None:
            out["declared"] = [list(m) for m in action.declared]
        return out
    if isinstance(action, ChooseDeal):
        return {"type": "choose_deal", "deal": action.deal}
    if isinstance(action, BigGin):
        return {"type": "big_gin"}
    raise IllegalAction(f"not a rummy action: {action!r}")


def action_from_dict(data: Any) -> Action:
    """The action written as :func:`action_to_dict` writes it; ``ValueError`` naming
    what is wrong otherwise.

    >>> action_from_dict({"type": "discard", "card": "10h"})
    Discard(card=22)
    >>> action_from_dict({"type": "draw", "source": "deck"})
    Traceback (most recent call last):
    ...
    companion.errors.IllegalAction: a draw's source is 'stock' or 'discard', not 'deck'
    """
    if not isinstance(data, dict):
        raise IllegalAction(f"an action is an object with a 'type', not {type(data).__name__}")
    kind = data.get("type")
    if kind == "pass":
        return Pass()
    if kind == "big_gin":
        return BigGin()
    if kind == "draw":
        source = data.get("source")
        if source not in ("stock", "discard"):
            raise IllegalAction(f"a draw's source is 'stock' or 'discard', not {source!r}")
        return Draw(source)
    if kind == "choose_deal":
        deal = data.get("deal")
        if not isinstance(deal, bool):
            raise IllegalAction(f"choose_deal says 'deal': true or false, not {deal!r}")
        return ChooseDeal(deal)
    if kind in ("discard", "knock"):
        card = data.get("card")
        if not isinstance(card, str):
            raise IllegalAction(f"a {kind} names its card, like {{'card': '5H'}}")
        c = C.parse_card(card)
        if kind == "discard":
            return Discard(c)
        declared = data.get("declared")
        if declared is None:
            return Knock(c)
        if not isinstance(declared, list) or not all(
                isinstance(m, list) and all(isinstance(x, str) for x in m) for m in declared):
            raise IllegalAction("a knock's 'declared' is a list of melds, each a list of card "
                             "names, like [['3H', '4H', '5H']]")
        return Knock(c, tuple(tuple(m) for m in declared))
    raise IllegalAction(
        f"unknown action type {kind!r} (pass, draw, discard, knock, big_gin or choose_deal)")


def _name(card: object) -> str:
    try:
        return C.card_name(card)  # type: ignore[arg-type]
    except ValueError:
        return repr(card)


__all__ = ["Pass", "Draw", "Discard", "Knock", "BigGin", "ChooseDeal", "Action", "action_to_dict",
           "action_from_dict"]
