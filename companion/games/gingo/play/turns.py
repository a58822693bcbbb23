"""Gin-Go full play, the turn of the player to move: the state of a game in play, the
checks every turn action makes (phase, whose turn, draw before play, cards in the hand,
a card kept for the discard), and the actions themselves: draw (renewing an exhausted
stock), take from the discard pile, meld or hit, discard (the last card goes out and
captures the other hands). :class:`~companion.games.gingo.play.play.GingoPlay` holds its
:class:`PlayState` and a :class:`Turns` and hands it each turn action with a copy of the state.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from companion import cards as C
from companion.games.gingo.play.inference import fits_mask
from companion.games.gingo.rules import actions as A
from companion.games.gingo.rules.engine import GingoGame
from companion.games.gingo.rules.errors import GingoError
from companion.games.gingo.rules.events import Discarded, Drawn, Event, PileTaken, StockRenewed

PASSED_TOP = 3  # the cards on top of the pile a draw from the stock is taken to let lie


@dataclass(frozen=True)
class Record:
    """What every seat did in public this hand, as card masks per seat: the cards it is
    known to hold (taken from the pile and not laid down or thrown since), the cards it
    threw, the cards on top of the pile (:data:`PASSED_TOP` at most) it let lie when
    it drew from the stock instead, and the cards that would have gone onto a meld on the
    table when it last threw (``fits``: what it could have hit and did not; a meld laid
    since then says nothing of its hand). Every player at the table sees all of it; the
    bots' inference reads it (:mod:`companion.games.gingo.play.inference`)."""

    held: tuple[int, ...] = ()
    thrown: tuple[int, ...] = ()
    passed: tuple[int, ...] = ()
    fits: tuple[int, ...] = ()

    @staticmethod
    def empty(players: int) -> Record:
        return Record((0,) * players, (0,) * players, (0,) * players, (0,) * players)

    def _with(self, seat: int, held: int | None = None, thrown: int = 0, passed: int = 0,
              fits: int | None = None) -> Record:
        def put(masks: tuple[int, ...], value: int) -> tuple[int, ...]:
            return masks[:seat] + (value,) + masks[seat + 1:]
        h = self.held if held is None else put(self.held, held)
        t = put(self.thrown, self.thrown[seat] | thrown) if thrown else self.thrown
        p = put(self.passed, self.passed[seat] | passed) if passed else self.passed
        f = self.fits if fits is None else put(self.fits, fits)
        return Record(h, t, p, f)

    def took(self, seat: int, kept: Sequence[int], used: Sequence[int]) -> Record:
        """``seat`` dug the pile, laid ``used`` down (cards taken or held) and kept ``kept``
        of the cards taken."""
        return self._with(seat, held=self.held[seat] & ~C.cards_mask(used) | C.cards_mask(kept))

    def laid(self, seat: int, cards: Sequence[int]) -> Record:
        """``seat`` laid ``cards`` down from its hand (a meld or a hit)."""
        mask = C.cards_mask(cards)
        return self._with(seat, held=self.held[seat] & ~mask) if self.held[seat] & mask else self

    def threw(self, seat: int, card: int, fits: int) -> Record:
        """``seat`` threw ``card`` while ``fits`` (a card mask) would have gone onto the table."""
        return self._with(seat, held=self.held[seat] & ~(1 << card), thrown=1 << card, fits=fits)

    def drew(self, seat: int, pile: Sequence[int]) -> Record:
        """``seat`` drew from the stock while ``pile`` lay there (top last)."""
        top = C.cards_mask(c for c in pile[-PASSED_TOP:] if c < 52)
        return self._with(seat, passed=top) if top else self


@dataclass
class PlayState:
    """Everything of a game in play besides its options: the table engine, the generator
    that shuffles, the phase, the hands, the stock, the pile, whose turn and what each seat
    did in public (:meth:`copy` is independent of it)."""

    table: GingoGame
    rng: random.Random
    phase: str = "setup"  # first_dealer | setup | play | hand_over | game_over
    hands: list[list[int]] = field(default_factory=list)
    stock: list[int] = field(default_factory=list)  # top is the end
    pile: list[int] = field(default_factory=list)  # bottom first, top last
    turn: int = 0
    stage: str = "draw"  # draw | play
    keep: int | None = None  # a card taken from the pile that may not be discarded this turn
    reveal: tuple[int, ...] = ()
    actions: int = 0
    record: Record = Record()  # what each seat did in public this hand

    def copy(self) -> PlayState:
        r = copy.copy(self.rng)
        return dataclasses.replace(self, table=self.table.copy(), rng=r, hands=[list(h) for h in self.hands],
                                   stock=list(self.stock), pile=list(self.pile))


def need(st: PlayState, phase: str, what: str) -> None:
    """Refuse ``what`` unless the game is in ``phase``."""
    if st.phase != phase:
        if st.phase == "game_over":
            raise GingoError(f"cannot {what}: the game is over (side {st.table.winner} won)")
        raise GingoError(f"cannot {what} now (the game is in its {st.phase.replace('_', ' ')} phase)")


def captured_by(st: PlayState, seat: int) -> list[int]:
    """The cards ``seat`` would capture by going out now (every other hand's)."""
    return [c for s, h in enumerate(st.hands) if s != seat for c in h]


class Turns:
    """The turn actions of a game of ``seats`` players, each on a copy ``st`` of its state
    (the caller keeps the copy only when the whole action succeeds)."""

    def __init__(self, seats: int) -> None:
        self.seats = seats

    # -- checks -----------------------------------------------------------------------

    def _turn(self, st: PlayState, seat: int, stage: str, what: str) -> int:
        need(st, "play", what)
        if not 0 <= seat < self.seats:
            raise GingoError(f"seat must be 0..{self.seats - 1}, got {seat!r}")
        if seat != st.turn:
            raise GingoError(f"it is seat {st.turn}'s turn, not seat {seat}'s (play goes clockwise)")
        if st.stage != stage:
            if stage == "draw":
                raise GingoError(f"cannot {what}: seat {seat} has already drawn this turn")
            raise GingoError(f"cannot {what} before drawing: a turn starts by drawing from the stock or the pile")
        return seat

    @staticmethod
    def _from_hand(hand: Sequence[int], cards: A.Cards, des: A.Designations, what: str, designate: bool = True,
                   ) -> tuple[A.Cards, dict[int, int]]:
        """The cards bound to the hand's jokers; each must be in the hand."""
        bound, designations = A.bind_jokers(cards, des, free=hand, what=what, designate=designate,
                                            none_left="no joker in the hand")
        for c in bound:
            if c not in hand:
                raise GingoError(f"{what}: {C.card_name(c)} is not in seat's hand")
        return bound, designations

    @staticmethod
    def _check_keeps_discard(st: PlayState, hand: Sequence[int], used: Sequence[int], what: str) -> None:
        left = [c for c in hand if c not in used]
        if not left:
            raise GingoError(f"{what}: keep a card to discard; a turn always ends with a discard and going out "
                             "needs one")
        if st.keep is not None and left == [st.keep]:
            raise GingoError(f"{what}: the only card left would be {C.card_name(st.keep)}, taken from the pile this "
                             "turn, which may not be discarded")

    @staticmethod
    def _lay(st: PlayState, a: A.Meld | A.Hit, hand: Sequence[int], what: str) -> tuple[list[Event], A.Cards]:
        """The meld or hit ``a`` from ``hand`` on the table; returns its events and the cards used."""
        cards, des = Turns._from_hand(hand, a.cards, a.designations, what)
        bound = tuple(des.items())
        act: A.Meld | A.Hit = (A.Meld(a.seat, cards, bound, a.skip) if isinstance(a, A.Meld)
                               else A.Hit(a.seat, a.meld, cards, bound, a.skip))
        return st.table.perform(act, held=[c for c in hand if c not in cards]), cards

    # -- actions ---------------------------------------------------------------------

    def draw(self, st: PlayState, a: A.Draw) -> list[Event]:
        seat = self._turn(st, a.seat, "draw", "draw")
        events: list[Event] = []
        if not st.stock:
            old = [c for m in st.table.table_melds for c in m.cards]
            events += st.table.perform(A.StockExhausted())
            if st.table.phase == "play":
                st.rng.shuffle(old)
                st.stock = old
                if st.stock:
                    events.append(StockRenewed(len(st.stock)))
                else:  # nothing on the table: the stock runs out again at once
                    events += st.table.perform(A.StockExhausted())
            if st.table.phase != "play":  # the second exhaustion ended the hand
                st.phase = st.table.phase
                return events
        if st.record.passed:
            st.record = st.record.drew(seat, st.pile)
        st.hands[seat].append(st.stock.pop())
        st.stage = "play"
        events.append(Drawn(seat, len(st.stock)))
        return events

    def take(self, st: PlayState, a: A.Take) -> list[Event]:
        seat = self._turn(st, a.seat, "draw", "take from the discard pile")
        if (a.meld is None) == (a.hits is None):
            raise GingoError("take: the card taken from the pile must be used at once: give a meld holding it, or "
                             "hits laying off at least two of the cards taken")
        card = a.card
        if card == A.ANY_JOKER:
            card = next((j for j in C.JOKERS if j in st.pile), card)
        if card not in st.pile:
            raise GingoError(f"take: {A.name(card)} is not in the discard pile")
        idx = st.pile.index(card)
        taken = st.pile[idx:]
        hand = st.hands[seat] + taken
        events: list[Event] = [PileTaken(seat, card, tuple(taken))]
        used: list[int] = []
        if a.meld is not None:
            cards, _ = self._from_hand(hand, a.meld.cards, a.meld.designations, "take meld")
            if card not in cards:
                raise GingoError(f"take: the meld must hold {C.card_name(card)}, the card dug for (the card needed "
                                 "must go in an immediate meld)")
            st.keep = None
            self._check_keeps_discard(st, hand, cards, "take")
            more, used_cards = self._lay(st, a.meld, hand, "take meld")
            events += more
            used = list(used_cards)
        else:
            assert a.hits is not None
            if len(taken) < 2:
                raise GingoError(f"take: one card ({C.card_name(card)}) may not be taken only to lay it off; laying "
                                 "off needs at least two cards taken that go down at once")
            plan = []
            for h in a.hits:
                cs, _ = self._from_hand([c for c in hand if c not in used], h.cards, h.designations, "take hit")
                used += cs
                plan.append(h)
            laid_taken = [c for c in used if c in taken]
            if len(laid_taken) < 2:
                raise GingoError("take: at least two of the cards taken must be laid off at once "
                                 f"({len(laid_taken)} would be)")
            st.keep = card if card not in used else None
            self._check_keeps_discard(st, hand, used, "take")
            done: list[int] = []
            for h in plan:
                more, cs = self._lay(st, h, [c for c in hand if c not in done], "take hit")
                events += more
                done += cs
        st.pile = st.pile[:idx]
        st.hands[seat] = [c for c in hand if c not in used]
        st.stage = "play"
        if st.record.held:
            st.record = st.record.took(seat, [c for c in taken if c not in used], used)
        return events

    def lay_down(self, st: PlayState, a: A.Meld | A.Hit) -> list[Event]:
        """A meld or a hit from the hand of the player to move."""
        what = "meld" if isinstance(a, A.Meld) else "hit"
        seat = self._turn(st, a.seat, "play", what)
        hand = st.hands[seat]
        cards, _ = self._from_hand(hand, a.cards, a.designations, what)
        self._check_keeps_discard(st, hand, cards, what)
        events, used = self._lay(st, a, hand, what)
        st.hands[seat] = [c for c in hand if c not in used]
        if st.record.held:
            st.record = st.record.laid(seat, used)
        return events

    def discard(self, st: PlayState, a: A.Discard) -> list[Event]:
        seat = self._turn(st, a.seat, "play", "discard")
        hand = st.hands[seat]
        [card], _ = self._from_hand(hand, (a.card,), (), "discard", designate=False)
        if card == st.keep:
            raise GingoError(f"discard: {C.card_name(card)} was taken from the pile this turn and may not be "
                             "discarded (the card dug for must be used at once)")
        hand = [c for c in hand if c != card]
        st.hands[seat] = hand
        st.pile.append(card)
        if st.record.held:
            st.record = st.record.threw(seat, card, fits_mask(st.table))
        events: list[Event] = [Discarded(seat, card)]
        if hand:
            if a.jokers is not None or a.skip:
                raise GingoError("discard: captured jokers are laid, and capture chips forfeited, only when going out")
            st.turn, st.stage, st.keep = (seat + 1) % self.seats, "draw", None
            return events
        captured = tuple((s, tuple(h)) for s, h in enumerate(st.hands) if s != seat and h)
        lays = a.jokers if a.jokers is not None else st.table.captured_lays(seat, captured_by(st, seat))
        events += st.table.perform(A.GoOut(seat, captured, lays, a.skip))
        st.phase = st.table.phase
        return events


__all__ = ["PASSED_TOP", "PlayState", "Record", "Turns", "captured_by", "need"]
