"""Gin-Go table play: what a physical game tells the companion, as JSON actions.

A :class:`GingoGame` holds the board (chips of both sides), the melds on the table,
who deals, and the end-of-hand resolution. It is driven only by :meth:`GingoGame.apply`,
which takes one JSON-able action dict and returns a list of JSON-able event dicts.
An illegal action raises :class:`GingoError` (a ``ValueError``) whose message names the
rule broken, and leaves the game exactly as it was. Replaying the same actions on a new
game (``new_game(players, options)``) gives the same state, so a service can store the
actions as its event log and fold them.

Seats, sides and cards
======================

* Seats are ``0 .. n-1`` clockwise (``n`` = 2 or 4). Seat ``s`` plays for side
  ``1 if s % 2 == 0 else 2``; in the 4-player game partners (0 and 2, 1 and 3) sit
  opposite and share one colour, one board end and one coordinate frame.
* Cards are written as :func:`companion.cards.parse_card` reads them (``"10H"``,
  ``"TH"``, ``"♥10"``). Jokers are ``"JK1"`` and ``"JK2"``; a bare ``"JK"`` means the
  lowest joker not already on the table this hand.
* ``designations`` map a joker to the card it stands for: ``{"JK1": "8H"}``.
* Melds on the table have ids ``1, 2, 3 ...`` (ints, never reused within a game).

Actions (``game.apply(action)``)
================================

Every action is a dict with a ``"type"``; unknown keys are rejected.

``{"type": "setup", "dealer": 0, "reveal": ["5H", "JK1", "2S", "KC", "9D"], "format": "secrecy", "secret": {"1": "SHDC", "2": "CDHS"}}``
    Suit-row set-up, once per game, before the first meld. ``dealer`` (default 0) is the
    seat dealing the first hand. ``reveal`` lists the cards turned up until all four
    suits showed; the suit order is read from it. With no joker before the fourth suit
    the format is ``normal`` and ``format`` must be left out (or be ``"normal"``). A joker
    first lets the dealer choose ``"normal" | "suit_for_suit" | "secrecy"``; a second
    joker lets the opponent choose (the event says who chose); with ``format`` left out
    the option ``suit_rows`` is used. ``secret`` (secrecy only) gives each side's own
    order, left to right as that side sees it.
    Or directly: ``{"type": "setup", "dealer": 0, "suit_rows": {"1": "SHDC", "2": "SHDC"}}``
    (format ``"direct"``). Either form may add ``"board": "<52 chars . 1 2>"``, the chips
    already on the board when an unfinished game is resumed from its recording form (a side
    linked there counts as having called Gin).
    Events: ``{"type": "setup", "format", "order", "chooser": null | "dealer" | "opponent",
    "chooser_seat", "suit_rows": {"1", "2"}, "dealer"}``.

``{"type": "meld", "seat": 0, "cards": ["JK1", "7H", "9H"], "designations": {"JK1": "8H"}}``
    A new meld from ``seat``'s hand (3+ cards; run of one suit in sequence, ace low or
    high, never round the corner; or a set of one rank). At most one joker per meld
    (``max_jokers_per_meld = "fewer_than_naturals"``: fewer jokers than naturals).
    A joker's designation may not be a card already in a meld on the table.
    ``"skip": ["8H"]`` (only when the side's chip supply runs short, chip cap rule)
    names cards whose chips are forfeited.
    Events: ``{"type": "meld", "seat", "side", "meld": <meld dict>}``, then
    ``{"type": "chips", "side", "spaces": [every space filled], "placed": [spaces that got a
    new chip], "bumped": [spaces taken from the other side], "forfeited": [cards]}``,
    then for each side whose link changed ``{"type": "link", "side", "formed": bool,
    "path": [spaces] | null}``; a link formed is followed by
    ``{"type": "gin_called", "side", "seat"}``.

``{"type": "hit", "seat": 1, "meld": 3, "cards": ["5H"], "designations": {}}``
    Lay cards off onto meld 3 (anyone's). Runs grow at either end (not past an ace that
    ends the run); sets take suits not yet shown; a joker may not join a closed set (all
    four suits shown); a natural may go onto the place its joker stands for (the joker
    stays; a set then holds 5 cards). Events: ``hit`` (with the updated meld), ``chips``,
    ``link``/``gin_called`` as for ``meld``.

``{"type": "go_out", "seat": 0, "captured": {"1": ["KS", "JK2"]}, "jokers": {"JK2": {"meld": 3, "as": "6S"}}}``
    ``seat`` emptied their hand with a discard. ``captured`` gives the cards still held by
    every other seat (keys are seat numbers as strings or ints; in the 4-player game both
    opponents *and* the partner; a seat holding nothing may be left out). Chips go on the
    going-out side's coordinates for every captured natural card. ``jokers`` lays captured
    jokers onto melds that take them (chip on the designated card); a captured joker not
    listed is dead. Then the hand is resolved (RULES.md 5A Winning, 5C #15):
    1. both sides linked: the side that went out wins (``"both_linked"``);
    2. one side linked: it wins (``"gin_held"`` when it called Gin before the capture and
       still holds it; ``"capture_link"`` when the capture completed the link of the
       side that went out);
    3. no link: the hand ends, the chips stay, the deal passes clockwise.
    Events: ``{"type": "capture", "seat", "side", "cards": {"1": [...]}, "jokers_laid":
    [{"joker", "meld", "as"}], "jokers_dead": [...]}``, ``chips``, ``link``...,
    then ``{"type": "hand_end", "hand": n, "went_out": seat, "winner": side | null,
    "reason": str | null}`` and, when someone won, ``{"type": "game_over", "winner": side,
    "players": [names of the side's seats]}``.

``{"type": "stock_exhausted"}``
    The stock ran out: the table melds become the new stock (they can no longer be hit;
    the chips stay). The second time in one hand (``second_exhaustion =
    "end_hand_no_capture"``, the only choice) the hand ends with no capture; it is
    resolved as above without a side that went out: one linked side wins, and when both
    are linked the side that called Gin first wins (``"gin_first"``). Events:
    ``{"type": "stock_exhausted", "count": 1 | 2}`` and, the second time, ``hand_end``.

``{"type": "new_hand"}``
    After a hand ended with no winner: the next dealer clockwise deals. Melds are
    cleared, chips stay. Event ``{"type": "new_hand", "hand": n, "dealer": seat}``.

State (``game.as_dict()``)
==========================

``{"variant": "gingo", "players": [...], "options": {...}, "phase": "setup" | "play" |
"hand_over" | "game_over", "hand": n, "dealer": seat, "setup_format": str | null,
"suit_rows": {"1": "SHDC", "2": ...},
"board": "<52 chars . 1 2 in space order>", "supply": {"1": n, "2": n},
"links": {"1": [spaces] | null, "2": ...}, "link_distance": {"1": n, "2": n},
"gin": {"1": bool, "2": bool}, "melds": [meld dicts], "exhaustions": n,
"winner": side | null, "win_reason": str | null, "hands": [hand_end events],
"actions": number applied}``; ``supply`` is null per side with ``chip_cap = "unlimited"``.

A meld dict: ``{"id": 3, "seat": 0, "side": 1, "kind": "run" | "set", "cards": ["4H",
"JK1", "6H", "7H", "5H"] (in the order laid), "designations": {"JK1": "5H"},
"stands_for": ["4H", "5H", "6H", "7H"] (table order), "closed": bool}``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from companion import board as B
from companion import cards as C
from companion import melds as M
from companion.errors import ChipShortfall, IllegalAction

PHASES: Final = ("setup", "play", "hand_over", "game_over")
FORMATS: Final = ("normal", "suit_for_suit", "secrecy")


class GingoError(IllegalAction):
    """An illegal Gin-Go action. The message names the rule broken; the game is unchanged."""


class GingoChipShortfall(GingoError, ChipShortfall):
    """A play needs more chips than the side has left: ``details`` carry the side, its
    supply, the chips needed and the cards that need one (see
    :class:`companion.errors.ChipShortfall`); the game is unchanged."""


# ---------------------------------------------------------------------------
# Options


def _opt(default: Any, help_text: str, choices: tuple[Any, ...]) -> Any:
    return field(default=default, metadata={"help": help_text, "choices": choices})


@dataclass(frozen=True)
class Options:
    """Every ``gingo.*`` option of RULES.md 5C, defaults in force.

    ``deal`` of 0 means the default for the number of players (9 for two, 7 for four).

    >>> make_options(2, {"deal": 7}).deal
    7
    >>> make_options(4, {}).deal
    7
    """

    players: int = _opt(2, "two players, or four as two teams of partners sitting opposite", (2, 4))
    deal: int = _opt(0, "cards dealt to each player: odd, 1-15 for two players, 1-9 for four (0: 9 or 7)",
                     (0, 1, 3, 5, 7, 9, 11, 13, 15))
    jokers: bool = _opt(True, "play with the two jokers as wild cards", (True, False))
    max_jokers_per_meld: int | str = _opt(
        1, "jokers allowed in one meld: one, or fewer than the natural cards", (1, "fewer_than_naturals"))
    rank_axis: str = _opt("opposed", "opposed: each side counts A to K from its own end; shared: both from side 1's end",
                          ("opposed", "shared"))
    suit_rows: str = _opt("normal", "set-up format used when the player entitled to choose does not say",
                          FORMATS)
    adjacency: str = _opt("king8", "link steps: king8 (sideways, straight and diagonal) or ortho4 (no diagonals)",
                          ("king8", "ortho4"))
    chip_cap: int | str = _opt(50, "chips per side: 50 (short supply forfeits chips) or unlimited",
                               (50, "unlimited"))
    second_exhaustion: str = _opt(
        "end_hand_no_capture", "when the stock runs out a second time in one hand, the hand ends with no capture",
        ("end_hand_no_capture",))

    @property
    def meld_rules(self) -> M.MeldRules:
        return M.GINGO_FEWER if self.max_jokers_per_meld == "fewer_than_naturals" else M.GINGO

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def default_deal(players: int) -> int:
    return 9 if players == 2 else 7


def check_deal(players: int, deal: int, jokers: bool = True) -> None:
    """Raise :class:`GingoError` unless ``deal`` is a legal deal size (RULES.md 5C #16).

    >>> check_deal(2, 15)
    >>> check_deal(4, 11)
    Traceback (most recent call last):
    ...
    companion.rules.gingo.GingoError: deal size 11 not allowed: four players deal an odd number of cards from 1 to 9
    """
    top = 15 if players == 2 else 9
    who = "two players" if players == 2 else "four players"
    if isinstance(deal, bool) or not isinstance(deal, int) or deal < 1 or deal > top or deal % 2 == 0:
        raise GingoError(
            f"deal size {deal} not allowed: {who} deal an odd number of cards from 1 to {top}")
    deck = 54 if jokers else 52
    if deck - players * deal - 1 < 1:
        raise GingoError(f"deal size {deal} leaves no stock for {players} players (the stock needs at least one card "
                         "after the deal and the first upcard)")


def make_options(players: int, options: Mapping[str, Any] | None = None) -> Options:
    """Options for a game of ``players`` from a JSON dict; unknown names or values raise.

    >>> make_options(2, {"chip_cap": "unlimited"}).chip_cap
    'unlimited'
    >>> make_options(2, {"colour": "red"})
    Traceback (most recent call last):
    ...
    companion.rules.gingo.GingoError: unknown Gin-Go option 'colour' (known: players, deal, jokers, max_jokers_per_meld, rank_axis, suit_rows, adjacency, chip_cap, second_exhaustion)
    """
    if options is not None and not isinstance(options, Mapping):
        raise GingoError(f"Gin-Go options are a mapping of option names to values, not {options!r}")
    opts = dict(options or {})
    if players not in (2, 4):
        raise GingoError(f"Gin-Go is played by 2 players or 4 (two teams), not {players}")
    fields = {f.name: f for f in dataclasses.fields(Options)}
    for name, value in opts.items():
        if name not in fields:
            raise GingoError(f"unknown Gin-Go option {name!r} (known: {', '.join(fields)})")
        if name == "deal":
            continue
        choices = fields[name].metadata["choices"]
        if value not in choices or isinstance(value, bool) != isinstance(choices[0], bool):
            raise GingoError(f"option {name} = {value!r} not allowed (one of {', '.join(map(str, choices))})")
    if opts.get("players", players) != players:
        raise GingoError(f"option players = {opts['players']} but {players} players were named")
    opts["players"] = players
    deal = opts.get("deal", 0) or default_deal(players)
    check_deal(players, deal, bool(opts.get("jokers", True)))
    opts["deal"] = deal
    return Options(**opts)


# ---------------------------------------------------------------------------
# Melds on the table


@dataclass
class TableMeld:
    """A meld on the table. ``cards`` in the order laid (a natural laid on its joker's
    place is kept too); ``designations`` joker -> card it stands for."""

    id: int
    seat: int
    side: int
    kind: str
    cards: list[int]
    designations: dict[int, int]

    def copy(self) -> TableMeld:
        return TableMeld(self.id, self.seat, self.side, self.kind, list(self.cards), dict(self.designations))

    @property
    def jokers(self) -> list[int]:
        return [c for c in self.cards if c in C.JOKERS]

    @property
    def naturals(self) -> list[int]:
        return [c for c in self.cards if c not in C.JOKERS]

    def stands(self) -> set[int]:
        """The natural cards this meld shows (naturals and what its jokers stand for)."""
        return set(self.naturals) | set(self.designations.values())

    def table_order(self) -> list[int]:
        st = self.stands()
        if self.kind == "set":
            return sorted(st, key=C.suit)
        ranks = {C.rank(x) for x in st}
        high = 1 in ranks and 13 in ranks
        return sorted(st, key=lambda x: 14 if high and C.rank(x) == 1 else C.rank(x))

    @property
    def closed(self) -> bool:
        return self.kind == "set" and len(self.naturals) == 4

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "seat": self.seat, "side": self.side, "kind": self.kind,
            "cards": [C.card_name(c) for c in self.cards],
            "designations": {C.card_name(j): C.card_name(d) for j, d in self.designations.items()},
            "stands_for": [C.card_name(c) for c in self.table_order()],
            "closed": self.closed,
        }


def _shape_rules(rules: M.MeldRules) -> M.MeldRules:
    """The meld shape rules with the joker count left to :func:`_check_joker_count`."""
    return dataclasses.replace(rules, name=rules.name, max_wilds_per_meld=2, wilds_fewer_than_naturals=False)


def _check_joker_count(jokers: int, naturals: int, options: Options) -> None:
    if options.max_jokers_per_meld == "fewer_than_naturals":
        if jokers and jokers >= naturals:
            raise GingoError(
                "a meld must hold fewer jokers than natural cards (option max_jokers_per_meld = fewer_than_naturals)")
    elif jokers > 1:
        raise GingoError("a meld may hold at most one joker (this game's option: jokers in one meld, one)")


# ---------------------------------------------------------------------------
# State


@dataclass
class _State:
    board: B.Board
    phase: str = "setup"
    hand: int = 1
    dealer: int = 0
    suit_rows: dict[int, str] = field(default_factory=dict)
    setup_format: str | None = None
    melds: list[TableMeld] = field(default_factory=list)
    next_id: int = 1
    exhaustions: int = 0
    gin: dict[int, bool] = field(default_factory=lambda: {1: False, 2: False})
    gin_order: list[int] = field(default_factory=list)
    linked: dict[int, bool] = field(default_factory=lambda: {1: False, 2: False})
    winner: int | None = None
    win_reason: str | None = None
    hands: list[dict[str, Any]] = field(default_factory=list)
    actions: int = 0

    def copy(self) -> _State:
        s = dataclasses.replace(self)
        s.board = self.board.copy()
        s.suit_rows = dict(self.suit_rows)
        s.melds = [m.copy() for m in self.melds]
        s.gin = dict(self.gin)
        s.gin_order = list(self.gin_order)
        s.linked = dict(self.linked)
        s.hands = [dict(h) for h in self.hands]
        return s


def _card(token: Any, what: str) -> int:
    try:
        c = C.parse_card(token)
    except ValueError as exc:
        raise GingoError(f"{what}: {exc}") from None
    if not 0 <= c < 54:
        raise GingoError(f"{what}: {C.card_name(c)} is not a card of the Gin-Go deck")
    return c


_ACTION_KEYS: Final[dict[str, frozenset[str]]] = {
    "setup": frozenset({"dealer", "reveal", "format", "secret", "suit_rows", "board"}),
    "meld": frozenset({"seat", "cards", "designations", "skip"}),
    "hit": frozenset({"seat", "meld", "cards", "designations", "skip"}),
    "go_out": frozenset({"seat", "captured", "jokers", "skip"}),
    "stock_exhausted": frozenset(),
    "new_hand": frozenset(),
}


class GingoGame:
    """Table tracking of one Gin-Go game (see the module docstring for the actions).

    >>> g = new_game(["Ann", "Bob"], {})
    >>> _ = g.apply({"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}})
    >>> ev = g.apply({"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S"]})
    >>> [e["type"] for e in ev]
    ['meld', 'chips']
    >>> g.as_dict()["board"][:12]
    '1...1...1...'
    """

    def __init__(self, players: list[str], options: Options | Mapping[str, Any] | None = None) -> None:
        if not isinstance(players, list) or len(players) not in (2, 4) or not all(
                isinstance(p, str) and p.strip() for p in players):
            raise GingoError("Gin-Go needs a list of 2 or 4 player names")
        self.players = list(players)
        self.options = options if isinstance(options, Options) else make_options(len(players), options)
        if self.options.players != len(players):
            raise GingoError(f"options are for {self.options.players} players, {len(players)} were named")
        cap = None if self.options.chip_cap == "unlimited" else int(self.options.chip_cap)
        self._s = _State(board=_new_board(cap, self.options.adjacency))
        self._frames: dict[int, B.Frame] = {}

    def copy(self) -> GingoGame:
        """An independent game in the same state (for look-ahead and atomic multi-step play)."""
        g = GingoGame.__new__(GingoGame)
        g.players = list(self.players)
        g.options = self.options
        g._s = self._s.copy()
        g._frames = dict(self._frames)
        return g

    # -- read-only views ----------------------------------------------------

    @property
    def nseats(self) -> int:
        return len(self.players)

    @staticmethod
    def side_of(seat: int) -> int:
        return 1 if seat % 2 == 0 else 2

    @property
    def phase(self) -> str:
        return self._s.phase

    @property
    def board(self) -> B.Board:
        """The board (do not mutate it; use actions)."""
        return self._s.board

    @property
    def dealer(self) -> int:
        return self._s.dealer

    @property
    def hand(self) -> int:
        return self._s.hand

    @property
    def winner(self) -> int | None:
        return self._s.winner

    @property
    def exhaustions(self) -> int:
        return self._s.exhaustions

    @property
    def melds(self) -> list[TableMeld]:
        return [m.copy() for m in self._s.melds]

    @property
    def table_melds(self) -> tuple[TableMeld, ...]:
        """The melds on the table themselves, not copies: read them, never change them."""
        return tuple(self._s.melds)

    def can_hit(self, meld_id: int, cards: list[int], designations: dict[int, int] | None = None) -> bool:
        """Whether ``cards`` (ints) fit meld ``meld_id`` by the meld and joker rules (the
        chip supply is not considered). Nothing changes.

        >>> g = new_game(["A", "B"], {}); _ = g.apply({"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}})
        >>> _ = g.apply({"type": "meld", "seat": 0, "cards": ["JS", "QS", "KS"]})
        >>> g.can_hit(1, [C.parse_card("10S")]), g.can_hit(1, [C.parse_card("AS")]), g.can_hit(1, [C.parse_card("2S")])
        (True, True, False)
        """
        try:
            m = self._find_meld(self._s, meld_id).copy()
            self._hit(self._s, m, list(cards), dict(designations or {}), "hit")
        except GingoError:
            return False
        return True

    def meld(self, meld_id: int) -> TableMeld:
        return self._find_meld(self._s, meld_id).copy()

    def frame(self, side: int) -> B.Frame:
        if side not in self._frames:
            raise GingoError("the suit rows are not set up yet (seed: Suit-Row Set-Up)")
        return self._frames[side]

    def space(self, side: int, card: int) -> int:
        """The board space of ``card`` in ``side``'s coordinates."""
        return self.frame(side).space(card)

    def shortfall(self, side: int, cards: Iterable[int]) -> int:
        """How many chips ``side`` lacks to cover ``cards`` (natural cards) now (chip cap)."""
        sup = self._s.board.supply(side)
        if sup is None:
            return 0
        spaces = {self.space(side, c) for c in cards}
        new = [sp for sp in spaces if self._s.board.owner(sp) != side]
        return max(0, len(new) - sup)

    def table_cards(self) -> int:
        """Mask of natural cards physically in melds on the table."""
        m = 0
        for x in self._s.melds:
            for c in x.naturals:
                m |= 1 << c
        return m

    def in_play(self) -> int:
        """Mask of natural cards a joker may not stand for: naturals and designations on the table."""
        m = 0
        for x in self._s.melds:
            for c in x.stands():
                m |= 1 << c
        return m

    def as_dict(self) -> dict[str, Any]:
        s = self._s
        b = s.board
        return {
            "variant": "gingo",
            "players": list(self.players),
            "options": self.options.as_dict(),
            "phase": s.phase,
            "hand": s.hand,
            "dealer": s.dealer,
            "setup_format": s.setup_format,
            "suit_rows": {str(k): v for k, v in sorted(s.suit_rows.items())},
            "board": b.to_string52(),
            "supply": {"1": b.supply(1), "2": b.supply(2)},
            "links": {"1": b.link(1), "2": b.link(2)},
            "link_distance": {"1": b.link_distance(1), "2": b.link_distance(2)},
            "gin": {"1": s.gin[1], "2": s.gin[2]},
            "melds": [m.as_dict() for m in s.melds],
            "exhaustions": s.exhaustions,
            "winner": s.winner,
            "win_reason": s.win_reason,
            "hands": [dict(h) for h in s.hands],
            "actions": s.actions,
        }

    # -- applying actions -----------------------------------------------------

    def apply(self, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Apply one action; return its events. Illegal: :class:`GingoError`, no change."""
        if not isinstance(action, Mapping):
            raise GingoError("an action is a JSON object with a 'type'")
        kind = action.get("type")
        if kind not in _ACTION_KEYS:
            raise GingoError(f"unknown action type {kind!r} (one of {', '.join(_ACTION_KEYS)})")
        extra = set(action) - {"type"} - _ACTION_KEYS[kind]
        if extra:
            raise GingoError(f"action {kind} does not take {', '.join(sorted(extra))}")
        s = self._s.copy()
        frames = dict(self._frames)
        events: list[dict[str, Any]] = getattr(self, "_do_" + kind)(s, frames, action)
        s.actions += 1
        self._s = s
        self._frames = frames
        return events

    # -- helpers -----------------------------------------------------------------

    def _seat(self, s: _State, action: Mapping[str, Any]) -> int:
        seat = action.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.nseats:
            raise GingoError(f"seat must be 0..{self.nseats - 1}, got {seat!r}")
        return seat

    def _need_phase(self, s: _State, phase: str, what: str) -> None:
        if s.phase != phase:
            if s.phase == "game_over":
                raise GingoError(f"cannot {what}: the game is over (side {s.winner} won)")
            hint = {"setup": "set up the suit rows first (seed: Suit-Row Set-Up)",
                    "play": "a hand is in play",
                    "hand_over": "the hand is over; start a new hand"}[s.phase]
            raise GingoError(f"cannot {what} now: {hint}")

    @staticmethod
    def _find_meld(s: _State, meld_id: Any) -> TableMeld:
        for m in s.melds:
            if m.id == meld_id and not isinstance(meld_id, bool):
                return m
        extra = " (melds from before the stock ran out can no longer be hit: they became the new stock)" if s.exhaustions else ""
        raise GingoError(f"no meld {meld_id!r} on the table{extra}")

    def _parse_card_list(self, s: _State, raw: Any, what: str, reserved_jokers: int = 0) -> list[int]:
        if isinstance(raw, str):
            raw = raw.replace(",", " ").split()
        if not isinstance(raw, list) or not raw:
            raise GingoError(f"{what}: give a non-empty list of cards")
        out: list[int] = []
        on_table_j = {c for m in s.melds for c in m.jokers}
        for tok in raw:
            if isinstance(tok, str) and tok.strip().upper() in ("JK", "JOKER", "🃏"):
                free = [j for j in C.JOKERS if j not in on_table_j and j not in out and not reserved_jokers >> j & 1]
                if not free:
                    raise GingoError(f"{what}: no joker left that is not already on the table")
                c = free[0]
            else:
                c = _card(tok, what)
            if c in out:
                raise GingoError(f"{what}: {C.card_name(c)} is given twice")
            out.append(c)
        if not self.options.jokers:
            for c in out:
                if c in C.JOKERS:
                    raise GingoError(f"{what}: this game is played without jokers (option jokers = false)")
        return out

    @staticmethod
    def _designations(raw: Any, cards: list[int], raw_cards: Any, what: str) -> dict[int, int]:
        raw = raw or {}
        if not isinstance(raw, Mapping):
            raise GingoError(f"{what}: designations map a joker to a card, like {{\"JK1\": \"8H\"}}")
        # map generic "JK" keys in the order the generic jokers were given
        generic = [c for c, t in zip(cards, raw_cards if isinstance(raw_cards, list) else [])
                   if isinstance(t, str) and t.strip().upper() in ("JK", "JOKER", "🃏")]
        out: dict[int, int] = {}
        for k, v in raw.items():
            if isinstance(k, str) and k.strip().upper() in ("JK", "JOKER") and generic:
                j = generic.pop(0)
            else:
                j = _card(k, what)
            if j not in C.JOKERS:
                raise GingoError(f"{what}: only jokers get designations, not {C.card_name(j)}")
            if j not in cards:
                raise GingoError(f"{what}: designation for {C.card_name(j)}, which is not among the cards")
            d = _card(v, what)
            if d >= 52:
                raise GingoError(f"{what}: {C.card_name(j)} must stand for a natural card, not {C.card_name(d)}")
            out[j] = d
        for c in cards:
            if c in C.JOKERS and c not in out:
                raise GingoError(
                    f"{what}: say which card {C.card_name(c)} stands for (seed: a joker's suit in a set, "
                    "its rank in a run, must be designated)")
        return out

    def _check_designations(self, s: _State, des: dict[int, int], naturals: Iterable[int], what: str) -> None:
        in_play = {c: m.id for m in s.melds for c in m.stands()}
        nat = set(naturals)
        seen: set[int] = set()
        for j, d in des.items():
            if d in in_play:
                raise GingoError(
                    f"{what}: {C.card_name(j)} cannot stand for {C.card_name(d)}, a card already in play in meld "
                    f"{in_play[d]} (seed: a joker cannot match cards already in play)")
            if d in nat or d in seen:
                raise GingoError(
                    f"{what}: {C.card_name(j)} cannot stand for {C.card_name(d)}, already in the meld (a joker takes "
                    "a suit not showing in a set, a missing rank in a run)")
            seen.add(d)

    def _check_not_on_table(self, s: _State, cards: Iterable[int], what: str) -> None:
        on = {c: m.id for m in s.melds for c in m.cards}
        for c in cards:
            if c in on:
                raise GingoError(f"{what}: {C.card_name(c)} is already on the table in meld {on[c]}")

    def _place(self, s: _State, frames: dict[int, B.Frame], side: int, cards: list[int],
               skip_raw: Any, what: str) -> list[dict[str, Any]]:
        """Chips for ``cards`` (natural cards, designations already resolved) on ``side``'s
        coordinates; returns the chips event and any link events."""
        skip: list[int] = []
        if skip_raw:
            skip = self._parse_card_list(s, skip_raw, f"{what} skip")
            for c in skip:
                if c not in cards:
                    raise GingoError(f"{what}: cannot skip {C.card_name(c)}, no chip goes there in this play")
        frame = frames[side]
        b = s.board
        targets: list[int] = []
        for c in cards:
            sp = frame.space(c)
            if sp not in targets:
                targets.append(sp)
        fill = [frame.space(c) for c in cards if c not in skip]
        fill = list(dict.fromkeys(fill))
        skipped = [frame.space(c) for c in skip]
        new_needed = [sp for sp in targets if b.owner(sp) != side]
        new_fill = [sp for sp in fill if b.owner(sp) != side]
        cap = b.supply(side)
        supply = len(targets) if cap is None else cap
        if skip:
            if len(new_needed) <= supply:
                raise GingoError(
                    f"{what}: chips may be skipped only when the supply runs short (side {side} has {supply}, "
                    f"needs {len(new_needed)}; a side forfeits only the chips its supply cannot cover)")
            if any(sp in fill for sp in skipped):
                raise GingoError(f"{what}: a skipped card shares its space with a card that is filled")
        if len(new_fill) > supply:
            raise GingoChipShortfall(
                side=side, supply=supply, need=len(new_fill), what=what,
                cards=[C.card_name(c) for c in cards if c not in skip and b.owner(frame.space(c)) != side])
        try:
            bumped = b.place(side, fill)
        except ValueError as exc:  # pragma: no cover - board validated above
            raise GingoError(f"{what}: {exc}") from None
        b.pop_link_events()  # links are compared in _links
        events: list[dict[str, Any]] = [{
            "type": "chips", "side": side, "spaces": fill, "placed": new_fill, "bumped": list(bumped),
            "forfeited": [C.card_name(c) for c in skip],
        }]
        return events

    def _links(self, s: _State, placer_side: int | None, seat: int | None, announce: bool) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        for side in (1, 2):
            path = s.board.link(side)
            now = path is not None
            if now == s.linked[side]:
                continue
            s.linked[side] = now
            events.append({"type": "link", "side": side, "formed": now, "path": path})
            if now and announce:
                s.gin[side] = True
                if side in s.gin_order:
                    s.gin_order.remove(side)
                s.gin_order.append(side)
                events.append({"type": "gin_called", "side": side, "seat": seat if side == placer_side else None})
            if not now:
                s.gin[side] = False
                if side in s.gin_order:
                    s.gin_order.remove(side)
        return events

    # -- actions --------------------------------------------------------------

    def _do_setup(self, s: _State, frames: dict[int, B.Frame], a: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._need_phase(s, "setup", "set up the suit rows")
        dealer = a.get("dealer", 0)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < self.nseats:
            raise GingoError(f"dealer must be a seat 0..{self.nseats - 1}, got {dealer!r}")
        dealer_side = self.side_of(dealer)
        chooser: str | None = None
        order: str | None = None
        if "suit_rows" in a:
            if any(k in a for k in ("reveal", "format", "secret")):
                raise GingoError("setup: give either suit_rows directly or reveal (with format and secret)")
            raw = a["suit_rows"]
            if not isinstance(raw, Mapping):
                raise GingoError('setup: suit_rows is {"1": "SHDC", "2": "SHDC"}')
            rows = {}
            for side in (1, 2):
                v = raw.get(str(side), raw.get(side))
                rows[side] = _suit_row(v, f"suit row of side {side}")
            if set(map(str, raw)) - {"1", "2"}:
                raise GingoError("setup: suit_rows has keys \"1\" and \"2\" only")
            fmt = "direct"
        elif "reveal" in a:
            raw_cards = a["reveal"]
            if not isinstance(raw_cards, list) or not raw_cards:
                raise GingoError("setup: reveal is the list of cards turned up until all four suits showed")
            cards = [_card(t, "setup reveal") for t in raw_cards]
            try:
                rev = B.reveal_suits(cards)
            except ValueError as exc:
                raise GingoError(f"setup: {exc}") from None
            order = rev.order
            chooser = rev.chooser
            called = a.get("format")
            if called is None:
                called = self.options.suit_rows if chooser else "normal"
            try:
                fmt = rev.choose(str(called))
            except ValueError as exc:
                raise GingoError(f"setup: {exc}") from None
            secret = a.get("secret")
            if fmt == "secrecy":
                if not isinstance(secret, Mapping):
                    raise GingoError('setup: secrecy needs each side\'s order in secret: {"1": "SHDC", "2": "CDHS"}')
                sec = {side: _suit_row(secret.get(str(side), secret.get(side)), f"secret suit row of side {side}")
                       for side in (1, 2)}
            elif secret is not None:
                raise GingoError("setup: secret orders are only for the secrecy format")
            else:
                sec = None
            try:
                rows = {int(k): v for k, v in B.suit_rows(fmt, order, dealer_side, sec).items()}
            except ValueError as exc:
                raise GingoError(f"setup: {exc}") from None
        else:
            raise GingoError("setup: give reveal (the cards turned up) or suit_rows")
        if a.get("board") is not None:
            try:
                s.board = B.Board.from_string52(a["board"], chip_cap=s.board.chip_cap, adjacency=s.board.adjacency)
            except ValueError as exc:
                raise GingoError(f"setup board: {exc}") from None
            for side in (1, 2):
                s.linked[side] = s.gin[side] = s.board.link(side) is not None
                if s.gin[side]:
                    s.gin_order.append(side)
        s.suit_rows = rows
        s.setup_format = fmt
        s.dealer = dealer
        s.phase = "play"
        for side in (1, 2):
            frames[side] = B.Frame(side, rows[side], rank_axis=self.options.rank_axis)
        chooser_seat = None
        if chooser == "dealer":
            chooser_seat = dealer
        elif chooser == "opponent":  # RULES.md 5C #14: in the 4-player game, the dealer's right
            chooser_seat = (dealer - 1) % self.nseats
        return [{"type": "setup", "format": fmt, "order": order, "chooser": chooser, "chooser_seat": chooser_seat,
                 "suit_rows": {"1": rows[1], "2": rows[2]}, "dealer": dealer}]

    def _do_meld(self, s: _State, frames: dict[int, B.Frame], a: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._need_phase(s, "play", "meld")
        seat = self._seat(s, a)
        side = self.side_of(seat)
        what = "meld"
        cards = self._parse_card_list(s, a.get("cards"), what)
        des = self._designations(a.get("designations"), cards, a.get("cards"), what)
        nats = [c for c in cards if c not in C.JOKERS]
        self._check_not_on_table(s, cards, what)
        self._check_designations(s, des, nats, what)
        _check_joker_count(len(cards) - len(nats), len(nats), self.options)
        try:
            shaped = M.check_meld(cards, _shape_rules(self.options.meld_rules), des)
        except ValueError as exc:
            raise GingoError(f"meld: {exc}") from None
        m = TableMeld(s.next_id, seat, side, shaped.kind, list(cards), des)
        s.next_id += 1
        s.melds.append(m)
        events: list[dict[str, Any]] = [{"type": "meld", "seat": seat, "side": side, "meld": m.as_dict()}]
        events += self._place(s, frames, side, sorted(m.stands(), key=_table_position(m)), a.get("skip"), what)
        events += self._links(s, side, seat, announce=True)
        return events

    def _hit(self, s: _State, m: TableMeld, cards: list[int], des: dict[int, int], what: str) -> list[int]:
        """Validate and apply a hit onto ``m`` (mutates ``m``); return the cards whose chips go down."""
        nats = [c for c in cards if c not in C.JOKERS]
        jokers = [c for c in cards if c in C.JOKERS]
        self._check_not_on_table(s, cards, what)
        # a natural on its joker's place: covers it (the joker stays)
        covered_now = set(m.naturals)
        joker_places = {d for d in m.designations.values() if d not in covered_now}
        extends = [c for c in nats if c not in joker_places]  # the others cover their joker's place
        if jokers and m.kind == "set" and len({C.suit(x) for x in m.stands()}) == 4:
            raise GingoError(
                f"{what}: a joker cannot hit a closed set (all four suits of meld {m.id} are showing; "
                "seed: The Joker in Play)")
        others = [x for x in s.melds if x.id != m.id]
        in_play = {c: x.id for x in others for c in x.stands()}
        for j, d in des.items():
            if d in m.stands() or d in in_play:
                where = m.id if d in m.stands() else in_play[d]
                raise GingoError(
                    f"{what}: {C.card_name(j)} cannot stand for {C.card_name(d)}, a card already in play in meld "
                    f"{where} (seed: a joker cannot match cards already in play)")
            if d in nats:
                raise GingoError(f"{what}: {C.card_name(j)} cannot stand for {C.card_name(d)}, which the same hit lays")
        if len(set(des.values())) != len(des):
            raise GingoError(f"{what}: two jokers cannot stand for the same card")
        # the meld shape after the hit: existing non-covering cards + new extensions and jokers
        base = [c for c in m.cards if c not in covered_now or c not in m.designations.values()]
        shape_cards = base + extends + jokers
        shape_des = dict(m.designations)
        shape_des.update(des)
        _check_joker_count(len(m.jokers) + len(jokers), len(m.naturals) + len(nats), self.options)
        try:
            shaped = M.check_meld(shape_cards, _shape_rules(self.options.meld_rules), shape_des)
        except ValueError as exc:
            kind = "run" if m.kind == "run" else "set"
            raise GingoError(
                f"{what}: {' '.join(C.card_name(c) for c in cards)} does not fit meld {m.id} "
                f"({' '.join(C.card_name(c) for c in m.table_order())}, a {kind}): {exc}") from None
        if shaped.kind != m.kind:
            raise GingoError(f"{what}: the cards would turn meld {m.id} from a {m.kind} into a {shaped.kind}")
        m.cards.extend(cards)
        m.designations.update(des)
        return nats + [des[j] for j in jokers]

    def _do_hit(self, s: _State, frames: dict[int, B.Frame], a: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._need_phase(s, "play", "hit")
        seat = self._seat(s, a)
        side = self.side_of(seat)
        what = "hit"
        m = self._find_meld(s, a.get("meld"))
        cards = self._parse_card_list(s, a.get("cards"), what)
        des = self._designations(a.get("designations"), cards, a.get("cards"), what)
        placed = self._hit(s, m, cards, des, what)
        events: list[dict[str, Any]] = [{"type": "hit", "seat": seat, "side": side, "meld": m.as_dict(),
                                         "cards": [C.card_name(c) for c in cards]}]
        events += self._place(s, frames, side, placed, a.get("skip"), what)
        events += self._links(s, side, seat, announce=True)
        return events

    def _do_go_out(self, s: _State, frames: dict[int, B.Frame], a: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._need_phase(s, "play", "go out")
        seat = self._seat(s, a)
        side = self.side_of(seat)
        what = "go out"
        raw = a.get("captured", {})
        if not isinstance(raw, Mapping):
            raise GingoError('go out: captured maps each other seat to its cards: {"1": ["KS", "JK2"]}')
        captured: dict[int, list[int]] = {}
        all_caps: list[int] = []
        for k, v in raw.items():
            try:
                other = int(k)
            except (TypeError, ValueError):
                raise GingoError(f"go out: captured key {k!r} is not a seat number") from None
            if not 0 <= other < self.nseats:
                raise GingoError(f"go out: no seat {other}")
            if other == seat:
                raise GingoError("go out: the player who went out holds no cards (their last card was discarded)")
            if other in captured:
                raise GingoError(f"go out: seat {other} is given twice")
            cs = [] if v in ([], "") else self._parse_card_list(s, v, f"go out (seat {other})")
            for c in cs:
                if c in all_caps:
                    raise GingoError(f"go out: {C.card_name(c)} is captured from two hands")
            captured[other] = cs
            all_caps += cs
        self._check_not_on_table(s, all_caps, what)
        jraw = a.get("jokers") or {}
        if not isinstance(jraw, Mapping):
            raise GingoError('go out: jokers is {"JK2": {"meld": 3, "as": "6S"}}')
        laid: list[dict[str, Any]] = []
        chips_for: list[int] = [c for c in all_caps if c not in C.JOKERS]
        laid_jokers: set[int] = set()
        for k, spec in jraw.items():
            j = _card(k, "go out jokers")
            if j not in C.JOKERS or j not in all_caps:
                raise GingoError(f"go out: {C.card_name(j)} is not a captured joker")
            if not isinstance(spec, Mapping) or set(spec) != {"meld", "as"}:
                raise GingoError(f'go out: lay a captured joker as {{"meld": id, "as": card}}, got {spec!r}')
            m = self._find_meld(s, spec["meld"])
            d = _card(spec["as"], "go out jokers")
            if d in all_caps:
                raise GingoError(
                    f"go out: {C.card_name(j)} cannot stand for {C.card_name(d)}, a captured card already in play "
                    "(seed: a joker cannot match cards already in play)")
            chips_for += self._hit(s, m, [j], {j: d}, f"captured {C.card_name(j)}")
            laid_jokers.add(j)
            laid.append({"joker": C.card_name(j), "meld": m.id, "as": C.card_name(d)})
        dead = [C.card_name(c) for c in all_caps if c in C.JOKERS and c not in laid_jokers]
        events: list[dict[str, Any]] = [{
            "type": "capture", "seat": seat, "side": side,
            "cards": {str(k): [C.card_name(c) for c in v] for k, v in sorted(captured.items())},
            "jokers_laid": laid, "jokers_dead": dead}]
        gin_before = dict(s.gin)
        linked_before = dict(s.linked)
        if chips_for:
            events += self._place(s, frames, side, chips_for, a.get("skip"), what)
        elif a.get("skip"):
            raise GingoError("go out: nothing to skip, no chips go down")
        events += self._links(s, side, seat, announce=True)
        events += self._end_hand(s, seat, gin_before, linked_before)
        return events

    def _end_hand(self, s: _State, went_out: int | None, gin_before: dict[int, bool],
                  linked_before: dict[int, bool]) -> list[dict[str, Any]]:
        linked = {side: s.board.link(side) is not None for side in (1, 2)}
        winner: int | None = None
        reason: str | None = None
        out_side = self.side_of(went_out) if went_out is not None else None
        if linked[1] and linked[2]:
            if out_side is not None:
                winner, reason = out_side, "both_linked"
            else:
                winner = next((x for x in s.gin_order if linked[x]), 1)
                reason = "gin_first"
        elif linked[1] or linked[2]:
            winner = 1 if linked[1] else 2
            if gin_before[winner] and linked_before[winner]:
                reason = "gin_held"
            else:
                reason = "capture_link"
        end = {"type": "hand_end", "hand": s.hand, "went_out": went_out, "winner": winner, "reason": reason}
        s.hands.append(dict(end))
        events: list[dict[str, Any]] = [end]
        if winner is not None:
            s.winner, s.win_reason, s.phase = winner, reason, "game_over"
            events.append({"type": "game_over", "winner": winner,
                           "players": [p for i, p in enumerate(self.players) if self.side_of(i) == winner]})
        else:
            s.phase = "hand_over"
        return events

    def _do_stock_exhausted(self, s: _State, frames: dict[int, B.Frame], a: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._need_phase(s, "play", "run out of stock")
        s.exhaustions += 1
        s.melds = []
        events: list[dict[str, Any]] = [{"type": "stock_exhausted", "count": s.exhaustions}]
        if s.exhaustions >= 2:
            events += self._end_hand(s, None, dict(s.gin), dict(s.linked))
        return events

    def _do_new_hand(self, s: _State, frames: dict[int, B.Frame], a: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._need_phase(s, "hand_over", "start a new hand")
        s.hand += 1
        s.dealer = (s.dealer + 1) % self.nseats
        s.melds = []
        s.exhaustions = 0
        s.phase = "play"
        return [{"type": "new_hand", "hand": s.hand, "dealer": s.dealer}]


def _table_position(m: TableMeld) -> Callable[[int], int]:
    """Sort key: where a card stands in ``m`` (runs low to high, sets by suit)."""
    order = {c: i for i, c in enumerate(m.table_order())}
    return lambda c: order.get(c, 99)


def _suit_row(v: Any, what: str) -> str:
    if not isinstance(v, str):
        raise GingoError(f"{what}: write the four suits left to right, like \"SHDC\"")
    try:
        return B.parse_suit_row(v)
    except ValueError as exc:
        raise GingoError(f"{what}: {exc}") from None


def _new_board(cap: int | None, adjacency: str) -> B.Board:
    return B.Board(chip_cap=cap, adjacency=adjacency)


def new_game(players: list[str], options: Mapping[str, Any] | None = None) -> GingoGame:
    """A new Gin-Go table game for 2 or 4 ``players`` with ``options`` (a JSON dict).

    >>> g = new_game(["Ann", "Bob", "Cy", "Di"], {"deal": 5})
    >>> g.options.deal, g.side_of(2), g.phase
    (5, 1, 'setup')
    """
    if not isinstance(players, list):
        raise GingoError("players must be a list of 2 or 4 names")
    return GingoGame(list(players), make_options(len(players), options))


__all__ = ["GingoError", "Options", "make_options", "check_deal", "default_deal", "TableMeld",
           "GingoGame", "new_game"]
