"""Gin-Go full play: the deck, the hands, the stock, the spread discard pile and turns,
around the one table engine (:class:`companion.games.gingo.rules.GingoGame`).

The actions are listed in the package docstring. :meth:`GingoPlay.perform` takes typed
actions and returns typed events; :meth:`GingoPlay.apply` is the JSON edge. The flip for
the first deal, the set-up and the deal are here; the state of a game in play and the turn
of the player to move (draw, take, meld or hit, discard) are in
:mod:`companion.games.gingo.play.turns`, whose :class:`~companion.games.gingo.play.turns.Turns`
a game holds.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion import board as B
from companion import cards as C
from companion.games.gingo.play.turns import PlayState, Record, Turns, captured_by, need
from companion.rules.first_dealer import FLIP_RULES, FirstDeal, dealer_after_choice, draw_flips
from companion.games.gingo.rules import actions as A
from companion.games.gingo.rules.engine import GingoGame
from companion.games.gingo.rules.errors import GingoError
from companion.games.gingo.rules.events import Dealt, Event, to_dicts
from companion.games.gingo.rules.options import Options, make_options
from companion.games.gingo.rules.state import side_of


class GingoPlay:
    """A whole Gin-Go game with a deck (see the package docstring for the actions)."""

    def __init__(self, players: list[str], options: Options | Mapping[str, Any] | None = None,
                 seed: int = 0, dealer: int | None = None,
                 hand_rng: Callable[[int], random.Random] | None = None) -> None:
        if not isinstance(players, list) or len(players) not in (2, 4):
            raise GingoError("Gin-Go needs a list of 2 or 4 player names")
        opts = options if isinstance(options, Options) else make_options(len(players), options)
        table = GingoGame(list(players), opts)
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)
                                   or not 0 <= dealer < len(players)):
            raise GingoError(f"dealer must be a seat 0..{len(players) - 1}")
        self.players = list(players)
        self.options = opts
        self.seed = seed
        self._turns = Turns(len(players))
        # hand_rng: each hand (0: the set-up reveal) shuffled by its own generator (a dealt
        # game's secret per-hand seeds, companion.play.deal)
        self._hand_rng = hand_rng
        rng = random.Random(seed) if hand_rng is None else hand_rng(0)
        deck = list(range(54))
        rng.shuffle(deck)
        self._st = PlayState(table=table, rng=rng, reveal=B.reveal_suits(deck).cards)
        # the first dealer: named, or flipped for (option first_dealer; drawn after the
        # reveal from the same generator, so games without the flip deal as before)
        self.first_deal: FirstDeal | None = None
        if dealer is None and opts.first_dealer in FLIP_RULES:
            self.first_deal = draw_flips(rng, C.STANDARD_DECK, len(players), opts.first_dealer)
            dealer = self.first_deal.winner  # until the winner chooses (flip_high_chooses)
            if self.first_deal.dealer is None:
                self._st.phase, self._st.turn = "first_dealer", dealer
        self._first_dealer = 0 if dealer is None else dealer

    @classmethod
    def from_deal(cls, players: list[str], options: Options | Mapping[str, Any] | None = None, *,
                  suit_rows: Mapping[str, str], hands: Sequence[Sequence[str | int]], pile: Sequence[str | int],
                  stock: Sequence[str | int], dealer: int = 0, turn: int | None = None,
                  board: str | None = None, seed: int = 0) -> GingoPlay:
        """A game whose first hand is arranged: the suit rows, each seat's cards, the pile
        (bottom first) and the stock (top last), and maybe the chips already on the board.
        For puzzles, lessons and tests; later hands are dealt from ``seed``. Every card of
        the deck must be in exactly one place.

        >>> p = GingoPlay.from_deal(["A", "B"], {"jokers": False, "deal": 1},
        ...     suit_rows={"1": "SHDC", "2": "SHDC"}, hands=[["AS"], ["2S"]], pile=["3S"],
        ...     stock=list(range(3, 52)))
        >>> p.turn, p.pile
        (1, [2])
        """
        play = cls(players, options, seed=seed, dealer=dealer)
        st = play._st
        setup: dict[str, Any] = {"type": "setup", "dealer": dealer, "suit_rows": dict(suit_rows)}
        if board is not None:
            setup["board"] = board
        st.table.apply(setup)
        try:
            hs = [C.parse_cards(list(h)) for h in hands]
            pl, sk = C.parse_cards(list(pile)), C.parse_cards(list(stock))
        except ValueError as exc:
            raise GingoError(f"arranged deal: {exc}") from None
        if len(hs) != len(players):
            raise GingoError(f"arranged deal: {len(players)} hands needed, got {len(hs)}")
        seen = 0
        for c in [c for h in hs for c in h] + pl + sk:
            if seen >> c & 1:
                raise GingoError(f"arranged deal: {C.card_name(c)} is in two places")
            seen |= 1 << c
        if seen != play.deck_mask():
            raise GingoError(f"arranged deal: cards missing: {' '.join(C.mask_names(play.deck_mask() & ~seen))}")
        if not all(hs) or not pl:
            raise GingoError("arranged deal: every seat holds a card and the pile has its upcard")
        st.hands, st.pile, st.stock = hs, pl, sk
        st.record = Record.empty(len(players))
        st.turn = (dealer + 1) % len(players) if turn is None else turn
        st.stage, st.keep, st.phase = "draw", None, "play"
        return play

    def clone(self) -> GingoPlay:
        """An independent copy (what one more action would do, without touching this one)."""
        other = copy.copy(self)
        other._st = self._st.copy()
        return other

    # -- views ------------------------------------------------------------------

    @property
    def table(self) -> GingoGame:
        """The table game (read it; change it only through :meth:`perform`)."""
        return self._st.table

    @property
    def phase(self) -> str:
        return self._st.phase

    @property
    def turn(self) -> int:
        return self._st.turn

    @property
    def stage(self) -> str:
        return self._st.stage

    @property
    def hands(self) -> list[list[int]]:
        return [list(h) for h in self._st.hands]

    @property
    def stock(self) -> list[int]:
        return list(self._st.stock)

    @property
    def pile(self) -> list[int]:
        return list(self._st.pile)

    @property
    def keep(self) -> int | None:
        return self._st.keep

    @property
    def record(self) -> Record:
        """What each seat did in public this hand (:class:`~companion.games.gingo.play.turns.Record`)."""
        return self._st.record

    @property
    def winner(self) -> int | None:
        return self._st.table.winner

    @property
    def reveal(self) -> B.Reveal:
        return B.reveal_suits(list(self._st.reveal))

    def captured_by(self, seat: int) -> list[int]:
        """What ``seat`` would capture by going out now (:func:`~companion.games.gingo.play.turns.captured_by`)."""
        return captured_by(self._st, seat)

    def deck_mask(self) -> int:
        return C.GINGO_DECK if self.options.jokers else C.STANDARD_DECK

    def as_dict(self) -> dict[str, Any]:
        st = self._st
        d = st.table.as_dict()
        d.update({
            "full_play": True, "phase": st.phase, "turn": st.turn, "stage": st.stage,
            "hands": [A.names(h) for h in st.hands], "stock": len(st.stock), "pile": A.names(st.pile),
            "keep": None if st.keep is None else C.card_name(st.keep), "actions": st.actions,
        })
        if self.first_deal is not None:
            d["first_deal"] = self.first_deal.as_dict()
        return d

    # -- applying -------------------------------------------------------------------

    def apply(self, action: object) -> list[dict[str, Any]]:
        """Apply one JSON action; return its events as JSON. Refused: :class:`GingoError`, no change."""
        return to_dicts(self.perform(A.action_from_dict(action, A.PLAY_KEYS, " in full play")))

    def perform(self, action: A.Action, *, in_place: bool = False) -> list[Event]:
        """Apply one typed action; return its events. Refused: :class:`GingoError`, no change.
        ``in_place``: change the state as the action goes instead of a copy of it (quicker,
        for a bot's play-outs on its own copy of a game, whose moves are legal): a refused
        action may then leave the game half changed."""
        st = self._st if in_place else self._st.copy()
        if isinstance(action, A.ChooseDeal):
            events = self._choose_deal(st, action)
        elif isinstance(action, A.Setup):
            events = self._setup(st, action)
        elif isinstance(action, A.Draw):
            events = self._turns.draw(st, action)
        elif isinstance(action, A.Take):
            events = self._turns.take(st, action)
        elif isinstance(action, (A.Meld, A.Hit)):
            events = self._turns.lay_down(st, action)
        elif isinstance(action, A.Discard):
            events = self._turns.discard(st, action)
        elif isinstance(action, A.NewHand):
            need(st, "hand_over", "start a new hand")
            events = st.table.perform(action) + self._deal(st)
        else:
            raise GingoError(f"action {action.to_dict()['type']} is for table tracking, not full play")
        st.actions += 1
        self._st = st
        return events

    # -- actions ---------------------------------------------------------------------

    def _choose_deal(self, st: PlayState, a: A.ChooseDeal) -> list[Event]:
        fd = self.first_deal
        if st.phase != "first_dealer" or fd is None:
            raise GingoError("the first dealer is chosen already (option first_dealer)")
        if a.seat != fd.winner:
            raise GingoError(f"seat {fd.winner} won the flip and chooses to deal or not, not seat {a.seat}")
        dealer = dealer_after_choice(fd.winner, a.deal, len(self.players))
        self.first_deal = dataclasses.replace(fd, dealer=dealer)
        self._first_dealer = dealer
        st.phase, st.turn = "setup", 0
        return []

    def _setup(self, st: PlayState, a: A.Setup) -> list[Event]:
        if st.phase == "first_dealer" and self.first_deal is not None:
            raise GingoError(f"cannot set up yet: seat {self.first_deal.winner} won the flip for the first deal "
                             "and chooses to deal or not (choose_deal)")
        need(st, "setup", "set up")
        fd = self.first_deal
        flips = None if fd is None else tuple(tuple(C.card_name(c) for _, c in r) for r in fd.rounds)
        choice = None
        if fd is not None and fd.rule == "flip_high_chooses":
            choice = "deal" if fd.dealer == fd.winner else "pass"
        events = st.table.perform(A.Setup(self._first_dealer, st.reveal, a.format, a.secret, flips=flips,
                                          choice=choice))
        return events + self._deal(st)

    def _deal(self, st: PlayState) -> list[Event]:
        n = len(self.players)
        dealer = st.table.dealer
        if self._hand_rng is not None:
            st.rng = self._hand_rng(st.table.hand)
        deck = C.mask_cards(self.deck_mask())
        st.rng.shuffle(deck)
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(self.options.deal * n):
            hands[(dealer + 1 + i) % n].append(deck.pop())
        st.hands, st.pile, st.stock = hands, [deck.pop()], deck
        st.record = Record.empty(n)
        st.turn, st.stage, st.keep, st.phase = (dealer + 1) % n, "draw", None, "play"
        return [Dealt(st.table.hand, dealer, self.options.deal, st.pile[0], len(st.stock), st.turn)]

    # -- invariants -------------------------------------------------------------------

    def check(self) -> None:
        """Raise ``AssertionError`` if an invariant fails: every card in exactly one place,
        chips on the board plus supply equal to the cap per side, the incremental links
        equal to links computed from scratch."""
        st = self._st
        b = st.table.board
        for side in (1, 2):
            sup = b.supply(side)
            if b.chip_cap is not None:
                assert sup is not None and b.count(side) + sup == b.chip_cap and sup >= 0, f"chips of side {side}"
            assert b.link(side) == B.link_from_scratch(b.mask(side), b.adjacency), f"link of side {side}"
            assert b.link_distance(side) == B.link_distance_from_scratch(b.mask(side), b.adjacency)
        assert not b.mask(1) & b.mask(2), "a space holds both colours"
        if st.phase != "play":
            return
        seen = 0
        for place in [st.stock, st.pile, *st.hands, *(m.cards for m in st.table.table_melds)]:
            for c in place:
                assert not seen >> c & 1, f"{C.card_name(c)} is in two places"
                seen |= 1 << c
        assert seen == self.deck_mask(), f"cards missing: {C.mask_names(self.deck_mask() & ~seen)}"
        for s, h in enumerate(st.hands):
            assert h, f"seat {s} holds no card but did not go out"


__all__ = ["GingoPlay", "side_of"]
