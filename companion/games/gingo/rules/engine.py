"""The Gin-Go engine: one table game driven by typed actions (see the package docstring).

:meth:`GingoGame.perform` takes an :class:`~companion.games.gingo.rules.actions.Action` and
returns typed events; :meth:`GingoGame.apply` is the JSON edge (a dict in, dicts out).
A refused action raises :class:`~companion.games.gingo.rules.errors.GingoError` and changes
nothing. Full play (:mod:`companion.games.gingo.play`) drives the same engine with the same
actions, adding what only it knows (the player's other cards).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion import board as B
from companion import cards as C
from companion.rules.first_dealer import FLIP_RULES, first_dealer_from_flips
from companion.games.gingo.rules import actions as A
from companion.games.gingo.rules.chips import place_chips, shortfall
from companion.games.gingo.rules.errors import GingoError
from companion.games.gingo.rules.events import (
    Captured, Event, HitLaid, HandStarted, MeldLaid, StockRanOut, SuitRowsSet, TurnPassed, to_dicts,
)
from companion.games.gingo.rules.jokers import choose_lays
from companion.games.gingo.rules.melds import TableMeld, check_not_on_table, hit_meld, new_meld
from companion.games.gingo.rules.options import Options, make_options
from companion.games.gingo.rules.state import TableState, side_of

_CAPTURED = "a captured card already in play"


class GingoGame:
    """Table tracking of one Gin-Go game (the actions are listed in the package docstring).

    >>> g = new_game(["Ann", "Bob"], {})
    >>> _ = g.apply({"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}})
    >>> ev = g.perform(A.Meld(0, tuple(C.parse_cards("AS 2S 3S"))))
    >>> [e.type for e in ev], g.as_dict()["board"][:12]
    (['meld', 'chips'], '1...1...1...')
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
        self._s = TableState(board=B.Board(chip_cap=cap, adjacency=self.options.adjacency))

    def copy(self) -> GingoGame:
        """An independent game in the same state (for look-ahead and atomic multi-step play)."""
        g = GingoGame.__new__(GingoGame)
        g.players, g.options, g._s = list(self.players), self.options, self._s.copy()
        return g

    # -- read-only views --------------------------------------------------------

    @property
    def nseats(self) -> int:
        return len(self.players)

    side_of = staticmethod(side_of)

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

    def meld(self, meld_id: int) -> TableMeld:
        return self._s.meld(meld_id).copy()

    def can_hit(self, meld_id: int, cards: Sequence[int], designations: Mapping[int, int] | None = None,
                held: Iterable[int] = ()) -> bool:
        """Whether ``cards`` (ints) fit meld ``meld_id`` by the meld and joker rules (the
        chip supply is not considered). Nothing changes."""
        try:
            hit_meld(self._s.meld(meld_id), list(cards), dict(designations or {}), self._s.melds, self.options,
                     held=held)
        except GingoError:
            return False
        return True

    def frame(self, side: int) -> B.Frame:
        if side not in self._s.frames:
            raise GingoError("the suit rows are not set up yet (set up the suit rows first)")
        return self._s.frames[side]

    def space(self, side: int, card: int) -> int:
        """The board space of ``card`` in ``side``'s coordinates."""
        return self.frame(side).space(card)

    def shortfall(self, side: int, cards: Iterable[int]) -> int:
        """How many chips ``side`` lacks to cover ``cards`` (natural cards) now."""
        return shortfall(self._s.board, self.frame(side), side, list(cards))

    def table_cards(self) -> int:
        """Mask of the cards physically in melds on the table."""
        return C.cards_mask(c for m in self._s.melds for c in m.cards)

    def in_play(self) -> int:
        """Mask of natural cards a joker may not stand for: naturals and designations on the table."""
        return C.cards_mask(c for m in self._s.melds for c in m.stands())

    def captured_lays(self, seat: int, captured: Sequence[int]) -> tuple[A.JokerLay, ...]:
        """Where the captured jokers among ``captured`` help ``seat``'s side most (the rest are dead)."""
        side = side_of(seat)
        return choose_lays(self._s.melds, self._s.board, self.frame(side), side, captured, self.options)

    def as_dict(self) -> dict[str, Any]:
        s = self._s
        b = s.board
        return {
            "variant": "gingo", "players": list(self.players), "options": self.options.as_dict(),
            "phase": s.phase, "hand": s.hand, "dealer": s.dealer, "setup_format": s.setup_format,
            "suit_rows": {str(k): v for k, v in sorted(s.suit_rows.items())},
            "board": b.to_string52(),
            "supply": {"1": b.supply(1), "2": b.supply(2)},
            "links": {"1": b.link(1), "2": b.link(2)},
            "link_distance": {"1": b.link_distance(1), "2": b.link_distance(2)},
            "gin": {"1": s.gin[1], "2": s.gin[2]},
            "melds": [m.as_dict() for m in s.melds],
            "exhaustions": s.exhaustions, "winner": s.winner, "win_reason": s.win_reason,
            "turn": s.turn if s.phase == "play" else None,
            "hands": [h.to_dict() for h in s.hands], "actions": s.actions,
        }

    # -- applying actions ---------------------------------------------------------

    def apply(self, action: object) -> list[dict[str, Any]]:
        """Apply one JSON action; return its events as JSON. Refused: :class:`GingoError`, no change."""
        return to_dicts(self.perform(A.action_from_dict(action, A.TABLE_KEYS)))

    def perform(self, action: A.Action, *, held: Iterable[int] = ()) -> list[Event]:
        """Apply one typed action; return its events. ``held`` (full play): the player's
        other cards, which a joker may not stand for. Refused: :class:`GingoError`, no change."""
        s = self._s.copy()
        if isinstance(action, A.Setup):
            events = self._setup(s, action)
        elif isinstance(action, A.Meld):
            events = self._meld(s, action, held)
        elif isinstance(action, A.Hit):
            events = self._hit(s, action, held)
        elif isinstance(action, A.GoOut):
            events = self._go_out(s, action)
        elif isinstance(action, A.StockExhausted):
            events = self._stock_exhausted(s)
        elif isinstance(action, A.NewHand):
            events = self._new_hand(s)
        elif isinstance(action, A.Pass):
            events = self._pass(s, action)
        else:
            raise GingoError(f"action {action.to_dict()['type']} is for full play, not table tracking")
        s.actions += 1
        self._s = s
        return events

    # -- helpers ------------------------------------------------------------------------

    def _need(self, s: TableState, phase: str, what: str) -> None:
        if s.phase != phase:
            if s.phase == "game_over":
                raise GingoError(f"cannot {what}: the game is over (side {s.winner} won)")
            hint = {"setup": "set up the suit rows first", "play": "a hand is in play",
                    "hand_over": "the hand is over; start a new hand"}[s.phase]
            raise GingoError(f"cannot {what} now: {hint}")

    def _seat(self, seat: int) -> int:
        if not 0 <= seat < self.nseats:
            raise GingoError(f"seat must be 0..{self.nseats - 1}, got {seat!r}")
        return seat

    def _bind(self, s: TableState, cards: A.Cards, des: A.Designations, what: str, *, designate: bool = True,
              taken: Iterable[int] = ()) -> tuple[A.Cards, dict[int, int]]:
        on_table = {c for m in s.melds for c in m.jokers} | set(taken)
        out = A.bind_jokers(cards, des, free=[j for j in C.JOKERS if j not in on_table], what=what,
                            designate=designate)
        if not self.options.jokers and any(c in C.JOKERS for c in out[0]):
            raise GingoError(f"{what}: this game is played without jokers (option jokers = false)")
        return out

    # -- actions ------------------------------------------------------------------------

    def _first_deal(self, a: A.Setup) -> tuple[int, dict[str, Any] | None]:
        """The first dealer: from the flips when the set-up gives them (option
        first_dealer), else the dealer named (seat 0 if none)."""
        rule = self.options.first_dealer
        if a.flips is None:
            if a.choice is not None:
                raise GingoError("setup: choice is the flip winner's, given with the flips")
            dealer = 0 if a.dealer is None else a.dealer
            if not 0 <= dealer < self.nseats:
                raise GingoError(f"dealer must be a seat 0..{self.nseats - 1}, got {dealer!r}")
            return dealer, None
        if rule not in FLIP_RULES:
            raise GingoError(f"setup: flips are for option first_dealer = {' or '.join(FLIP_RULES)} "
                             f"(this game: {rule}); name the dealer instead")
        try:
            fd = first_dealer_from_flips([list(r) for r in a.flips], self.nseats, rule, a.choice,
                                         deck=C.STANDARD_DECK)
        except ValueError as exc:
            raise GingoError(f"setup: {exc}") from None
        if fd.dealer is None:
            raise GingoError(f"setup: seat {fd.winner} won the flip (first_dealer = {rule}) and chooses to "
                             "deal or not: give choice 'deal' or 'pass'")
        if a.dealer is not None and a.dealer != fd.dealer:
            raise GingoError(f"setup: the flips make seat {fd.dealer} the first dealer, not seat {a.dealer}")
        return fd.dealer, fd.as_dict()

    def _setup(self, s: TableState, a: A.Setup) -> list[Event]:
        self._need(s, "setup", "set up the suit rows")
        dealer, first_deal = self._first_deal(a)
        chooser: str | None = None
        order: str | None = None
        if a.suit_rows is not None:
            rows, fmt = dict(a.suit_rows), "direct"
        elif a.reveal is not None:
            try:
                rev = B.reveal_suits(list(a.reveal))
                order, chooser = rev.order, rev.chooser
                fmt = rev.choose(a.format if a.format is not None else
                                 self.options.suit_rows if chooser else "normal")
                if fmt == "secrecy" and a.secret is None:
                    raise GingoError('setup: secrecy needs each side\'s order in secret: {"1": "SHDC", "2": "CDHS"}')
                if fmt != "secrecy" and a.secret is not None:
                    raise GingoError("setup: secret orders are only for the secrecy format")
                rows = B.suit_rows(fmt, order, side_of(dealer), a.secret)
            except GingoError:
                raise
            except ValueError as exc:
                raise GingoError(f"setup: {exc}") from None
        else:
            raise GingoError("setup: give reveal (the cards turned up) or suit_rows")
        if a.board is not None:
            try:
                s.board = B.Board.from_string52(a.board, chip_cap=s.board.chip_cap, adjacency=s.board.adjacency)
            except ValueError as exc:
                raise GingoError(f"setup board: {exc}") from None
            for side in (1, 2):
                s.linked[side] = s.gin[side] = s.board.link(side) is not None
                if s.gin[side]:
                    s.gin_order.append(side)
        s.suit_rows, s.setup_format, s.dealer, s.phase = rows, fmt, dealer, "play"
        s.turn = (dealer + 1) % self.nseats
        s.frames = {side: B.Frame(side, rows[side], rank_axis=self.options.rank_axis) for side in (1, 2)}
        # after a second joker the opponent calls: in the 4-player game, the dealer's right
        seat = {"dealer": dealer, "opponent": (dealer - 1) % self.nseats}.get(chooser or "")
        return [SuitRowsSet(fmt, order, chooser, seat, dict(rows), dealer, first_deal)]

    def _meld(self, s: TableState, a: A.Meld, held: Iterable[int]) -> list[Event]:
        self._need(s, "play", "meld")
        seat = self._seat(a.seat)
        side = side_of(seat)
        cards, des = self._bind(s, a.cards, a.designations, "meld")
        m = new_meld(s.next_id, seat, side, cards, des, s.melds, self.options, held=held)
        s.next_id += 1
        s.melds.append(m)
        chips = place_chips(s.board, s.frames[side], side, sorted(m.stands(), key=m.position), a.skip, "meld")
        s.turn = (seat + 1) % self.nseats
        return [MeldLaid(seat, side, m.copy()), chips, *s.update_links(side, seat)]

    def _hit(self, s: TableState, a: A.Hit, held: Iterable[int]) -> list[Event]:
        self._need(s, "play", "hit")
        seat = self._seat(a.seat)
        side = side_of(seat)
        m = s.meld(a.meld)
        cards, des = self._bind(s, a.cards, a.designations, "hit")
        new, chip_cards = hit_meld(m, cards, des, s.melds, self.options, held=held)
        s.replace_meld(new)
        chips = place_chips(s.board, s.frames[side], side, chip_cards, a.skip, "hit")
        s.turn = (seat + 1) % self.nseats
        return [HitLaid(seat, side, new.copy(), cards), chips, *s.update_links(side, seat)]

    def _go_out(self, s: TableState, a: A.GoOut) -> list[Event]:
        self._need(s, "play", "go out")
        seat = self._seat(a.seat)
        side = side_of(seat)
        captured: list[tuple[int, A.Cards]] = []
        taken: list[int] = []
        for other, cs in a.captured:
            if not 0 <= other < self.nseats:
                raise GingoError(f"go out: no seat {other}")
            if other == seat:
                raise GingoError("go out: the player who went out holds no cards (their last card was discarded)")
            bound = self._bind(s, cs, (), f"go out (seat {other})", designate=False, taken=taken)[0] if cs else ()
            captured.append((other, bound))
            taken += bound
        check_not_on_table(taken, s.melds, "go out")
        naturals = [c for c in taken if c not in C.JOKERS]
        jokers = [c for c in taken if c in C.JOKERS]
        keys = A.bind_keys([x.joker for x in a.jokers], jokers, "go out")
        chips_for = list(naturals)
        laid: list[A.JokerLay] = []
        for j, lay in zip(keys, a.jokers):
            if j not in jokers:
                raise GingoError(f"go out: {A.name(j)} is not a captured joker")
            if any(x.joker == j for x in laid):
                raise GingoError(f"go out: {C.card_name(j)} is laid twice")
            what = f"captured {C.card_name(j)}"
            if lay.card in naturals:
                raise GingoError(f"go out: {C.card_name(j)} cannot stand for {C.card_name(lay.card)}, {_CAPTURED} "
                                 "(a joker cannot match cards already in play)")
            new, more = hit_meld(s.meld(lay.meld), [j], {j: lay.card}, s.melds, self.options, held=naturals,
                                 held_as=_CAPTURED, what=what)
            s.replace_meld(new)
            chips_for += more
            laid.append(A.JokerLay(j, lay.meld, lay.card))
        dead = tuple(j for j in jokers if all(x.joker != j for x in laid))
        events: list[Event] = [Captured(seat, side, tuple(sorted(captured)), tuple(laid), dead)]
        gin_before, linked_before = dict(s.gin), dict(s.linked)
        if chips_for:
            events.append(place_chips(s.board, s.frames[side], side, chips_for, a.skip, "go out"))
        elif a.skip:
            raise GingoError("go out: nothing to skip, no chips go down")
        events += s.update_links(side, seat)
        events += s.end_hand(seat, gin_before, linked_before, self.players)
        return events

    def _stock_exhausted(self, s: TableState) -> list[Event]:
        self._need(s, "play", "run out of stock")
        s.exhaustions += 1
        s.melds = []
        events: list[Event] = [StockRanOut(s.exhaustions)]
        if s.exhaustions >= 2:  # option second_exhaustion = end_hand_no_capture
            events += s.end_hand(None, dict(s.gin), dict(s.linked), self.players)
        return events

    def _pass(self, s: TableState, a: A.Pass) -> list[Event]:
        """A turn that laid nothing down: the table's turn moves on, so every phone and the
        LEDs show who plays next (the draw and the discard are not entered)."""
        self._need(s, "play", "pass")
        seat = self._seat(a.seat)
        s.turn = (seat + 1) % self.nseats
        return [TurnPassed(seat, s.turn)]

    def _new_hand(self, s: TableState) -> list[Event]:
        self._need(s, "hand_over", "start a new hand")
        s.hand += 1
        s.dealer = (s.dealer + 1) % self.nseats
        s.melds = []
        s.exhaustions = 0
        s.phase = "play"
        s.turn = (s.dealer + 1) % self.nseats
        return [HandStarted(s.hand, s.dealer)]


def new_game(players: list[str], options: Mapping[str, Any] | None = None) -> GingoGame:
    """A new Gin-Go table game for 2 or 4 ``players`` with ``options`` (a JSON dict).

    >>> g = new_game(["Ann", "Bob", "Cy", "Di"], {"deal": 5})
    >>> g.options.deal, g.side_of(2), g.phase
    (5, 1, 'setup')
    """
    if not isinstance(players, list):
        raise GingoError("players must be a list of 2 or 4 names")
    return GingoGame(list(players), make_options(len(players), options))


__all__ = ["GingoGame", "new_game"]
