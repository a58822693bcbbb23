"""Gin-Go actions as typed values: cards are ints inside, names only at the API edge.

Each action is a frozen dataclass with ``from_dict`` (read and check a JSON object from
a client: what cannot be read is a :class:`~companion.games.gingo.rules.errors.GingoInputError`,
code ``invalid_action``, never the rules' ``illegal``) and ``to_dict`` (the same JSON shape back), like python-chess's ``Move`` with
``from_uci``/``uci``. Inside the engine and between table tracking and full play only
the typed values travel; nothing is turned into a name and parsed again.

The set-up action, :class:`Setup`, lives in :mod:`.setup_action` and is offered here too.

A bare ``"JK"`` in a list of cards is :data:`ANY_JOKER` until
:func:`~companion.games.gingo.rules.reading.bind_jokers` binds it (see :mod:`.reading`).

>>> a = action_from_dict({"type": "meld", "seat": 1, "cards": ["7H", "JK", "9H"],
...                       "designations": {"JK": "8H"}}, TABLE_KEYS)
>>> a.cards == (C.parse_card("7H"), ANY_JOKER, C.parse_card("9H")), a.to_dict()["designations"]
(True, {'JK': '8H'})
>>> bind_jokers(a.cards, a.designations, free=[C.JOKER2], what="meld")[1] == {C.JOKER2: C.parse_card("8H")}
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Union

from companion import cards as C
from companion.games.gingo.rules.errors import GingoInputError
from companion.games.gingo.rules.reading import (
    ANY_JOKER, Cards, Designations, bind_jokers, bind_keys, name, names, read_card, read_cards, read_designations,
    read_natural,
)
from companion.games.gingo.rules.setup_action import Setup  # the set-up; offered here with the other actions


def _des_dict(des: Designations) -> dict[str, str]:
    return {name(j): C.card_name(d) for j, d in des}


def _seat(d: Mapping[str, Any]) -> int:
    seat = d.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise GingoInputError(f"seat must be a seat number (0, 1, ...), got {seat!r}")
    return seat


def _meld_id(raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise GingoInputError(f"no meld {raw!r} on the table")
    return raw


def _skip(raw: object, what: str) -> Cards:
    return read_cards(raw, f"{what} skip") if raw else ()


# ---------------------------------------------------------------------------
# The actions


def _with_choices(out: dict[str, Any], designations: Designations, skip: Cards) -> dict[str, Any]:
    """Add a lay-down's joker designations and forfeited cards to its JSON, when it has any."""
    if designations:
        out["designations"] = _des_dict(designations)
    if skip:
        out["skip"] = names(skip)
    return out


@dataclass(frozen=True)
class Meld:
    """A new meld from ``seat``'s cards; ``skip`` names cards whose chips are forfeited."""

    seat: int
    cards: Cards
    designations: Designations = ()
    skip: Cards = ()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], what: str = "meld") -> Meld:
        return cls(_seat(d), read_cards(d.get("cards"), what),
                   read_designations(d.get("designations"), what), _skip(d.get("skip"), what))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "meld", "seat": self.seat, "cards": names(self.cards)}
        return _with_choices(out, self.designations, self.skip)


@dataclass(frozen=True)
class Hit:
    """Cards laid off onto meld ``meld`` (anyone's)."""

    seat: int
    meld: int
    cards: Cards
    designations: Designations = ()
    skip: Cards = ()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], what: str = "hit") -> Hit:
        return cls(_seat(d), _meld_id(d.get("meld")),
                   read_cards(d.get("cards"), what), read_designations(d.get("designations"), what),
                   _skip(d.get("skip"), what))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "hit", "seat": self.seat, "meld": self.meld, "cards": names(self.cards)}
        return _with_choices(out, self.designations, self.skip)


@dataclass(frozen=True)
class JokerLay:
    """A captured joker laid onto meld ``meld`` standing for ``card``."""

    joker: int
    meld: int
    card: int

    def to_dict(self) -> dict[str, Any]:
        return {"meld": self.meld, "as": C.card_name(self.card)}


def _read_lays(raw: object, what: str) -> tuple[JokerLay, ...]:
    if not raw:
        return ()
    if not isinstance(raw, Mapping):
        raise GingoInputError(f'{what}: jokers is {{"JK2": {{"meld": 3, "as": "6S"}}}}')
    out = []
    for k, spec in raw.items():
        j = read_card(k, f"{what} jokers")
        if j != ANY_JOKER and j not in C.JOKERS:
            raise GingoInputError(f"{what}: {C.card_name(j)} is not a captured joker")
        if not isinstance(spec, Mapping) or set(spec) != {"meld", "as"}:
            raise GingoInputError(f'{what}: lay a captured joker as {{"meld": id, "as": card}}, got {spec!r}')
        out.append(JokerLay(j, _meld_id(spec["meld"]), read_natural(spec["as"], f"{what} jokers")))
    return tuple(out)


def _lays_dict(lays: tuple[JokerLay, ...]) -> dict[str, Any]:
    return {name(x.joker): x.to_dict() for x in lays}


@dataclass(frozen=True)
class GoOut:
    """``seat`` went out; ``captured`` holds every other seat's cards, ``jokers`` lays
    captured jokers onto melds (the rest are dead)."""

    seat: int
    captured: tuple[tuple[int, Cards], ...]
    jokers: tuple[JokerLay, ...] = ()
    skip: Cards = ()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GoOut:
        raw = d.get("captured", {})
        if not isinstance(raw, Mapping):
            raise GingoInputError('go out: captured maps each other seat to its cards: {"1": ["KS", "JK2"]}')
        captured: dict[int, Cards] = {}
        seen: set[int] = set()
        for k, v in raw.items():
            try:
                other = int(k)
            except (TypeError, ValueError):
                raise GingoInputError(f"go out: captured key {k!r} is not a seat number") from None
            if other in captured:
                raise GingoInputError(f"go out: seat {other} is given twice")
            cs = () if v in ([], "") else read_cards(v, f"go out (seat {other})")
            for c in cs:
                if c in seen:
                    raise GingoInputError(f"go out: {name(c)} is captured from two hands")
                seen.add(c)
            captured[other] = cs
        return cls(_seat(d), tuple(captured.items()), _read_lays(d.get("jokers"), "go out"),
                   _skip(d.get("skip"), "go out"))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "go_out", "seat": self.seat,
                               "captured": {str(s): names(cs) for s, cs in self.captured}}
        if self.jokers:
            out["jokers"] = _lays_dict(self.jokers)
        if self.skip:
            out["skip"] = names(self.skip)
        return out


@dataclass(frozen=True)
class StockExhausted:
    def to_dict(self) -> dict[str, Any]:
        return {"type": "stock_exhausted"}


@dataclass(frozen=True)
class NewHand:
    def to_dict(self) -> dict[str, Any]:
        return {"type": "new_hand"}


@dataclass(frozen=True)
class Pass:
    """Table tracking: ``seat``'s turn ended without a meld or a hit (the player drew and
    discarded, which the companion does not see); the turn goes to the next seat."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "pass", "seat": self.seat}


@dataclass(frozen=True)
class Draw:
    """Full play: draw the top card of the stock."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "draw", "seat": self.seat}


@dataclass(frozen=True)
class Take:
    """Full play: dig ``card`` and every card above it out of the discard pile, using it at
    once in ``meld`` (seat unused), or laying off at least two taken cards with ``hits``."""

    seat: int
    card: int
    meld: Meld | None = None
    hits: tuple[Hit, ...] | None = None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Take:
        seat = _seat(d)
        card = read_card(d.get("card"), "take")
        meld, hits = d.get("meld"), d.get("hits")
        if (meld is None) == (hits is None):
            return cls(seat, card)  # refused by full play, after it checks whose turn it is
        if meld is not None:
            if not isinstance(meld, Mapping) or set(meld) - {"cards", "designations", "skip"}:
                raise GingoInputError('take: meld is {"cards": [...], "designations": {...}}')
            return cls(seat, card, meld=Meld.from_dict({**meld, "seat": seat}, "take meld"))
        if not isinstance(hits, list) or not hits:
            raise GingoInputError('take: hits is a list like [{"meld": 3, "cards": ["8H"]}]')
        out = []
        for h in hits:
            if not isinstance(h, Mapping) or set(h) - {"meld", "cards", "designations", "skip"}:
                raise GingoInputError('take: each hit is {"meld": id, "cards": [...]}')
            out.append(Hit.from_dict({**h, "seat": seat}, "take hit"))
        return cls(seat, card, hits=tuple(out))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "take", "seat": self.seat, "card": name(self.card)}
        if self.meld is not None:
            m = self.meld.to_dict()
            out["meld"] = {k: v for k, v in m.items() if k not in ("type", "seat")}
        if self.hits is not None:
            out["hits"] = [{k: v for k, v in h.to_dict().items() if k not in ("type", "seat")} for h in self.hits]
        return out


@dataclass(frozen=True)
class Discard:
    """Full play: end the turn. Discarding the last card goes out; then ``jokers`` lays
    captured jokers (None: the engine's choice) and ``skip`` names the captured cards
    whose chips are forfeited when the supply runs short."""

    seat: int
    card: int
    jokers: tuple[JokerLay, ...] | None = None
    skip: Cards = ()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Discard:
        seat = _seat(d)
        if d.get("card") is None:
            raise GingoInputError("discard: name the card to discard")
        lays = None if d.get("jokers") is None else _read_lays(d["jokers"], "discard")
        return cls(seat, read_card(d["card"], "discard"), lays, _skip(d.get("skip"), "discard"))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "discard", "seat": self.seat, "card": name(self.card)}
        if self.jokers is not None:
            out["jokers"] = _lays_dict(self.jokers)
        if self.skip:
            out["skip"] = names(self.skip)
        return out


@dataclass(frozen=True)
class ChooseDeal:
    """Full play, option ``first_dealer = flip_high_chooses``: the winner of the flip
    deals (``deal``) or leaves the deal to the player on their right."""

    seat: int
    deal: bool

    def to_dict(self) -> dict[str, Any]:
        return {"type": "choose_deal", "seat": self.seat, "deal": self.deal}


Action = Union[Setup, ChooseDeal, Meld, Hit, GoOut, StockExhausted, NewHand, Pass, Draw, Take, Discard]

TABLE_KEYS: Final[dict[str, frozenset[str]]] = {
    "setup": frozenset({"dealer", "reveal", "format", "secret", "suit_rows", "board", "flips", "choice"}),
    "meld": frozenset({"seat", "cards", "designations", "skip"}),
    "hit": frozenset({"seat", "meld", "cards", "designations", "skip"}),
    "go_out": frozenset({"seat", "captured", "jokers", "skip"}),
    "stock_exhausted": frozenset(),
    "new_hand": frozenset(),
    "pass": frozenset({"seat"}),
}
PLAY_KEYS: Final[dict[str, frozenset[str]]] = {
    "choose_deal": frozenset({"seat", "deal"}),
    "setup": frozenset({"format", "secret"}),
    "draw": frozenset({"seat"}),
    "take": frozenset({"seat", "card", "meld", "hits"}),
    "meld": TABLE_KEYS["meld"],
    "hit": TABLE_KEYS["hit"],
    "discard": frozenset({"seat", "card", "jokers", "skip"}),
    "new_hand": frozenset(),
}


def action_from_dict(d: object, keys: Mapping[str, frozenset[str]], where: str = "") -> Action:
    """Read one JSON action allowed by ``keys`` (:data:`TABLE_KEYS` or :data:`PLAY_KEYS`);
    unknown types and keys are refused."""
    if not isinstance(d, Mapping):
        raise GingoInputError("an action is a JSON object with a 'type'")
    kind = d.get("type")
    if not isinstance(kind, str) or kind not in keys:
        raise GingoInputError(f"unknown action type {kind!r}{where} (one of {', '.join(keys)})")
    extra = set(d) - {"type"} - keys[kind]
    if extra:
        raise GingoInputError(f"action {kind} does not take {', '.join(sorted(map(str, extra)))}")
    if kind == "setup":
        return Setup.from_dict(d)
    if kind == "choose_deal":
        if not isinstance(d.get("deal"), bool):
            raise GingoInputError(f"choose_deal: deal is true (deal first) or false (the player on the right "
                                  f"deals), not {d.get('deal')!r}")
        return ChooseDeal(_seat(d), d["deal"])
    if kind == "meld":
        return Meld.from_dict(d)
    if kind == "hit":
        return Hit.from_dict(d)
    if kind == "go_out":
        return GoOut.from_dict(d)
    if kind == "take":
        return Take.from_dict(d)
    if kind == "discard":
        return Discard.from_dict(d)
    if kind == "draw":
        return Draw(_seat(d))
    if kind == "pass":
        return Pass(_seat(d))
    return StockExhausted() if kind == "stock_exhausted" else NewHand()


__all__ = ["ANY_JOKER", "Cards", "Designations", "Action", "Setup", "ChooseDeal", "Meld", "Hit", "JokerLay", "GoOut", "StockExhausted", "NewHand", "Pass",
           "Draw", "Take", "Discard", "TABLE_KEYS", "PLAY_KEYS", "action_from_dict", "bind_jokers", "bind_keys",
           "read_card", "read_cards", "name", "names"]
