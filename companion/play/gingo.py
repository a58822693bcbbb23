"""Gin-Go full play with a deck: deal, stock, spread discard pile, turns, bots, self-play.

:class:`GingoPlay` tracks every card. It owns a :class:`companion.rules.gingo.GingoGame`
for the table (melds, chips, links, end-of-hand resolution) and adds the hands, the
stock, the discard pile (bottom first; taking a card takes it and every card above it)
and whose turn it is. Like the table game it is driven by JSON-able actions, returns
JSON-able events, raises :class:`~companion.rules.gingo.GingoError` naming the rule
for an illegal or out-of-turn action and then leaves the state unchanged, and replays
exactly: ``GingoPlay(players, options, seed)`` plus the same actions gives the same state.

Actions (``seat`` is always the player to move)
===============================================

``{"type": "setup", "format": "normal" | "suit_for_suit" | "secrecy", "secret": {"1": "SHDC", "2": "CDHS"}}``
    The set-up reveal is read from the top of the shuffled 54-card deck (the seed turns
    cards until four suits show; jokers are in the deck for this even when they are not
    played). ``format`` may be given only when a joker came up (else it is Normal);
    ``secret`` only for Secrecy. Then the first hand is dealt.
``{"type": "draw", "seat": s}``
    Draw the top card of the stock. With the stock empty, the table melds first become
    the new stock (shuffled); the second time in a hand the hand ends with no capture.
``{"type": "take", "seat": s, "card": "7H", "meld": {"cards": [...], "designations": {...}}}``
    Dig the discard pile: take ``7H`` and every card above it, and meld ``7H`` at once
    (the meld may use cards from the hand and from the pile). Or, taking at least two
    cards, ``"hits": [{"meld": 3, "cards": ["8H"]}, {"meld": 5, "cards": ["QS"]}]``
    laying off at least two of the taken cards at once (RULES.md 5C #10). A card taken
    this way that was not used may not be discarded this turn.
``{"type": "meld", "seat": s, "cards": [...], "designations": {...}}`` and
``{"type": "hit", "seat": s, "meld": id, "cards": [...], "designations": {...}}``
    As in table play, from the hand. A meld or hit may not leave the hand empty: a turn
    always ends with a discard (RULES.md 5C #11). As full play knows the hand, a joker
    may not stand for a card its player holds either (as in the meld solver).
``{"type": "discard", "seat": s, "card": "KS", "jokers": {"JK2": {"meld": 3, "as": "6S"}}}``
    End the turn. Discarding the last card goes out: every other hand (the partner's
    too) is captured and the table resolves the hand; ``jokers`` optionally lays
    captured jokers onto melds (default: the first meld that takes each, else dead).
``{"type": "new_hand"}``
    After a hand with no winner: the deal passes clockwise and a new hand is dealt.

>>> p = GingoPlay(["Ann", "Bob"], {"deal": 7}, seed=3)
>>> _ = p.apply(bot_action(p))  # the set-up
>>> len(p.hands[0]), len(p.hands[1]), p.turn
(7, 7, 1)
>>> summary = selfplay_game(1, players=2)
>>> summary["winner"] in (1, 2, None), summary["hands"] >= 1
(True, True)
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Final

from companion import board as B
from companion import cards as C
from companion.rules.gingo import GingoError, GingoGame, Options, make_options

_KEYS: Final[dict[str, frozenset[str]]] = {
    "setup": frozenset({"format", "secret"}),
    "draw": frozenset({"seat"}),
    "take": frozenset({"seat", "card", "meld", "hits"}),
    "meld": frozenset({"seat", "cards", "designations", "skip"}),
    "hit": frozenset({"seat", "meld", "cards", "designations", "skip"}),
    "discard": frozenset({"seat", "card", "jokers"}),
    "new_hand": frozenset(),
}


@dataclass
class _PState:
    table: GingoGame
    rng: random.Random
    phase: str = "setup"  # setup | play | hand_over | game_over
    hands: list[list[int]] = field(default_factory=list)
    stock: list[int] = field(default_factory=list)  # top is the end
    pile: list[int] = field(default_factory=list)  # bottom first, top last
    turn: int = 0
    stage: str = "draw"  # draw | play
    keep: int | None = None  # a card taken from the pile that may not be discarded this turn
    reveal: tuple[int, ...] = ()
    actions: int = 0

    def copy(self) -> _PState:
        r = random.Random()
        r.setstate(self.rng.getstate())
        return dataclasses.replace(
            self, table=self.table.copy(), rng=r, hands=[list(h) for h in self.hands],
            stock=list(self.stock), pile=list(self.pile))


def _names(cards: list[int]) -> list[str]:
    return [C.card_name(c) for c in cards]


class GingoPlay:
    """A whole Gin-Go game with a deck (see the module docstring for the actions)."""

    def __init__(self, players: list[str], options: Options | Mapping[str, Any] | None = None,
                 seed: int = 0, dealer: int = 0) -> None:
        if not isinstance(players, list) or len(players) not in (2, 4):
            raise GingoError("Gin-Go needs a list of 2 or 4 player names")
        opts = options if isinstance(options, Options) else make_options(len(players), options)
        table = GingoGame(list(players), opts)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < len(players):
            raise GingoError(f"dealer must be a seat 0..{len(players) - 1}")
        self.players = list(players)
        self.options = opts
        self.seed = seed
        rng = random.Random(seed)
        deck = list(range(54))
        rng.shuffle(deck)
        self._st = _PState(table=table, rng=rng, reveal=B.reveal_suits(deck).cards)
        self._first_dealer = dealer

    @classmethod
    def from_deal(cls, players: list[str], options: Options | Mapping[str, Any] | None = None, *,
                  suit_rows: Mapping[str, str], hands: list[list[str]], pile: list[str],
                  stock: list[str], dealer: int = 0, turn: int | None = None,
                  board: str | None = None, seed: int = 0) -> GingoPlay:
        """A game whose first hand is arranged: the suit rows, each seat's cards, the pile
        (bottom first) and the stock (top last), and maybe the chips already on the board.
        For puzzles, lessons and tests; later hands are dealt from ``seed``. Every card of
        the deck must be in exactly one place.

        >>> p = GingoPlay.from_deal(["A", "B"], {"jokers": False, "deal": 1},
        ...     suit_rows={"1": "SHDC", "2": "SHDC"}, hands=[["AS"], ["2S"]], pile=["3S"],
        ...     stock=[C.card_name(c) for c in range(3, 52)])
        >>> p.turn, p.pile
        (1, [2])
        """
        play = cls(players, options, seed=seed, dealer=dealer)
        st = play._st
        act: dict[str, Any] = {"type": "setup", "dealer": dealer, "suit_rows": dict(suit_rows)}
        if board is not None:
            act["board"] = board
        st.table.apply(act)
        try:
            hs = [C.parse_cards(h) for h in hands]
            pl = C.parse_cards(pile)
            sk = C.parse_cards(stock)
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
        st.turn = (dealer + 1) % len(players) if turn is None else turn
        st.stage, st.keep, st.phase = "draw", None, "play"
        return play

    # -- views ------------------------------------------------------------------

    @property
    def table(self) -> GingoGame:
        """The table game (read it; change it only through :meth:`apply`)."""
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
    def winner(self) -> int | None:
        return self._st.table.winner

    @property
    def reveal(self) -> B.Reveal:
        return B.reveal_suits(list(self._st.reveal))

    def deck_mask(self) -> int:
        return C.GINGO_DECK if self.options.jokers else C.STANDARD_DECK

    def as_dict(self) -> dict[str, Any]:
        st = self._st
        d = st.table.as_dict()
        d.update({
            "full_play": True, "phase": st.phase, "turn": st.turn, "stage": st.stage,
            "hands": [_names(h) for h in st.hands], "stock": len(st.stock), "pile": _names(st.pile),
            "keep": None if st.keep is None else C.card_name(st.keep), "actions": st.actions,
        })
        return d

    # -- applying -------------------------------------------------------------------

    def apply(self, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Apply one action; return its events. Illegal: :class:`GingoError`, no change."""
        if not isinstance(action, Mapping):
            raise GingoError("an action is a JSON object with a 'type'")
        kind = action.get("type")
        if kind not in _KEYS:
            raise GingoError(f"unknown action type {kind!r} in full play (one of {', '.join(_KEYS)})")
        extra = set(action) - {"type"} - _KEYS[kind]
        if extra:
            raise GingoError(f"action {kind} does not take {', '.join(sorted(extra))}")
        st = self._st.copy()
        events: list[dict[str, Any]] = getattr(self, "_do_" + kind)(st, action)
        st.actions += 1
        self._st = st
        return events

    # -- checks -----------------------------------------------------------------------

    def _need(self, st: _PState, phase: str, what: str) -> None:
        if st.phase != phase:
            if st.phase == "game_over":
                raise GingoError(f"cannot {what}: the game is over (side {st.table.winner} won)")
            raise GingoError(f"cannot {what} now (the game is in its {st.phase.replace('_', ' ')} phase)")

    def _turn(self, st: _PState, a: Mapping[str, Any], stage: str, what: str) -> int:
        self._need(st, "play", what)
        seat = a.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.players):
            raise GingoError(f"seat must be 0..{len(self.players) - 1}, got {seat!r}")
        if seat != st.turn:
            raise GingoError(f"it is seat {st.turn}'s turn, not seat {seat}'s (play goes clockwise)")
        if st.stage != stage:
            if stage == "draw":
                raise GingoError(f"cannot {what}: seat {seat} has already drawn this turn")
            raise GingoError(f"cannot {what} before drawing: a turn starts by drawing from the stock or the pile")
        return seat

    @staticmethod
    def _from_hand(hand: list[int], raw: Any, what: str) -> list[int]:
        if isinstance(raw, str):
            raw = raw.replace(",", " ").split()
        if not isinstance(raw, list) or not raw:
            raise GingoError(f"{what}: give a non-empty list of cards")
        out: list[int] = []
        for tok in raw:
            if isinstance(tok, str) and tok.strip().upper() in ("JK", "JOKER"):
                free = [j for j in C.JOKERS if j in hand and j not in out]
                if not free:
                    raise GingoError(f"{what}: no joker in the hand")
                c: int = free[0]
            else:
                try:
                    c = C.parse_card(tok)
                except ValueError as exc:
                    raise GingoError(f"{what}: {exc}") from None
            if c not in hand:
                raise GingoError(f"{what}: {C.card_name(c)} is not in seat's hand")
            if c in out:
                raise GingoError(f"{what}: {C.card_name(c)} is given twice")
            out.append(c)
        return out

    @staticmethod
    def _table_action(st: _PState, seat: int, a: Mapping[str, Any], cards: list[int], kind: str) -> list[dict[str, Any]]:
        act: dict[str, Any] = {"type": kind, "seat": seat, "cards": _names(cards)}
        des = a.get("designations")
        if des:
            if not isinstance(des, Mapping):
                raise GingoError(f"{kind}: designations map a joker to a card, like {{\"JK1\": \"8H\"}}")
            explicit = set()
            for k in des:
                if str(k).strip().upper() not in ("JK", "JOKER"):
                    try:
                        explicit.add(C.parse_card(k))
                    except ValueError as exc:
                        raise GingoError(f"{kind}: {exc}") from None
            generic = [c for c in cards if c in C.JOKERS and c not in explicit]
            out: dict[str, Any] = {}
            for k, v in des.items():
                if str(k).strip().upper() in ("JK", "JOKER"):
                    if not generic:
                        raise GingoError(f"{kind}: designation for a joker that is not among the cards")
                    out[C.card_name(generic.pop(0))] = v
                else:
                    out[str(k)] = v
            act["designations"] = out
        if kind == "hit":
            act["meld"] = a.get("meld")
        if a.get("skip"):
            act["skip"] = a["skip"]
        return st.table.apply(act)

    @staticmethod
    def _check_not_held(hand: list[int], used: list[int], a: Mapping[str, Any], what: str) -> None:
        """Full play knows the hand: a joker may not stand for a card its player holds
        (seed: a joker cannot match cards already in play)."""
        des = a.get("designations") or {}
        if not isinstance(des, Mapping):
            return  # the table names the error
        left = {c for c in hand if c not in used}
        for k, v in des.items():
            try:
                d = C.parse_card(v)
            except ValueError:
                continue
            if d in left:
                raise GingoError(f"{what}: {k} cannot stand for {C.card_name(d)}, a card the player holds "
                                 "(seed: a joker cannot match cards already in play)")

    def _check_keeps_discard(self, st: _PState, hand: list[int], used: list[int], what: str) -> None:
        left = [c for c in hand if c not in used]
        if not left:
            raise GingoError(f"{what}: keep a card to discard; a turn always ends with a discard and going out "
                             "needs one (rule: every turn ends with a discard, going out too)")
        if st.keep is not None and left == [st.keep]:
            raise GingoError(f"{what}: the only card left would be {C.card_name(st.keep)}, taken from the pile this "
                             "turn, which may not be discarded (rule: a card taken from the pile is used at once, never discarded "
                             "in the same turn)")

    # -- actions ---------------------------------------------------------------------

    def _do_setup(self, st: _PState, a: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._need(st, "setup", "set up")
        act: dict[str, Any] = {"type": "setup", "dealer": self._first_dealer, "reveal": _names(list(st.reveal))}
        if a.get("format") is not None:
            act["format"] = a["format"]
        if a.get("secret") is not None:
            act["secret"] = a["secret"]
        events = st.table.apply(act)
        events += self._deal(st)
        return events

    def _deal(self, st: _PState) -> list[dict[str, Any]]:
        n = len(self.players)
        dealer = st.table.dealer
        deck = [c for c in range(54) if self.deck_mask() >> c & 1]
        st.rng.shuffle(deck)
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(self.options.deal * n):
            hands[(dealer + 1 + i) % n].append(deck.pop())
        st.hands = hands
        st.pile = [deck.pop()]
        st.stock = deck
        st.turn = (dealer + 1) % n
        st.stage = "draw"
        st.keep = None
        st.phase = "play"
        return [{"type": "deal", "hand": st.table.hand, "dealer": dealer, "cards": self.options.deal,
                 "upcard": C.card_name(st.pile[0]), "stock": len(st.stock), "turn": st.turn}]

    def _do_draw(self, st: _PState, a: Mapping[str, Any]) -> list[dict[str, Any]]:
        seat = self._turn(st, a, "draw", "draw")
        events: list[dict[str, Any]] = []
        if not st.stock:
            old = [c for m in st.table.melds for c in m.cards]
            events += st.table.apply({"type": "stock_exhausted"})
            if st.table.phase != "play":  # the second exhaustion ended the hand
                st.phase = st.table.phase
                return events
            st.rng.shuffle(old)
            st.stock = old
            if not st.stock:  # nothing on the table: the stock runs out again at once
                events += st.table.apply({"type": "stock_exhausted"})
                st.phase = st.table.phase
                return events
            events.append({"type": "new_stock", "cards": len(st.stock)})
        card = st.stock.pop()
        st.hands[seat].append(card)
        st.stage = "play"
        events.append({"type": "draw", "seat": seat, "from": "stock", "stock": len(st.stock)})
        return events

    def _do_take(self, st: _PState, a: Mapping[str, Any]) -> list[dict[str, Any]]:
        seat = self._turn(st, a, "draw", "take from the discard pile")
        try:
            card = C.parse_card(a.get("card"))  # type: ignore[arg-type]
        except ValueError as exc:
            raise GingoError(f"take: {exc}") from None
        if card not in st.pile:
            raise GingoError(f"take: {C.card_name(card)} is not in the discard pile")
        idx = st.pile.index(card)
        taken = st.pile[idx:]
        hand = st.hands[seat] + taken
        events: list[dict[str, Any]] = [{"type": "take", "seat": seat, "card": C.card_name(card),
                                         "cards": _names(taken)}]
        meld, hits = a.get("meld"), a.get("hits")
        if (meld is None) == (hits is None):
            raise GingoError("take: the card taken from the pile must be used at once: give a meld holding it, or "
                             "hits laying off at least two of the cards taken (rule: a card taken from the pile is used at once)")
        if meld is not None:
            if not isinstance(meld, Mapping) or set(meld) - {"cards", "designations", "skip"}:
                raise GingoError('take: meld is {"cards": [...], "designations": {...}}')
            cards = self._from_hand(hand, meld.get("cards"), "take meld")
            if card not in cards:
                raise GingoError(f"take: the meld must hold {C.card_name(card)}, the card dug for "
                                 "(seed: the card needed must go in an immediate meld)")
            st.keep = None
            self._check_keeps_discard(st, hand, cards, "take")
            self._check_not_held(hand, cards, meld, "take")
            events += self._table_action(st, seat, meld, cards, "meld")
            used: list[int] = cards
        else:
            if not isinstance(hits, list) or not hits:
                raise GingoError('take: hits is a list like [{"meld": 3, "cards": ["8H"]}]')
            if len(taken) < 2:
                raise GingoError(f"take: one card ({C.card_name(card)}) may not be taken only to lay it off; laying "
                                 "off needs at least two cards taken that go down at once (rule: taking from the pile to lay off needs "
                                 "two cards laid off together)")
            used = []
            plan: list[tuple[Mapping[str, Any], list[int]]] = []
            for h in hits:
                if not isinstance(h, Mapping) or set(h) - {"meld", "cards", "designations", "skip"}:
                    raise GingoError('take: each hit is {"meld": id, "cards": [...]}')
                cs = self._from_hand([c for c in hand if c not in used], h.get("cards"), "take hit")
                self._check_not_held(hand, cs, h, "take hit")
                used += cs
                plan.append((h, cs))
            laid_taken = [c for c in used if c in taken]
            if len(laid_taken) < 2:
                raise GingoError("take: at least two of the cards taken must be laid off at once "
                                 f"({len(laid_taken)} would be; rule: taking from the pile to lay off needs two cards laid off together)")
            st.keep = card if card not in used else None
            self._check_keeps_discard(st, hand, used, "take")
            for h, cs in plan:
                events += self._table_action(st, seat, h, cs, "hit")
        st.pile = st.pile[:idx]
        st.hands[seat] = [c for c in hand if c not in used]
        st.stage = "play"
        return events

    def _do_meld(self, st: _PState, a: Mapping[str, Any]) -> list[dict[str, Any]]:
        return self._lay_down(st, a, "meld")

    def _do_hit(self, st: _PState, a: Mapping[str, Any]) -> list[dict[str, Any]]:
        return self._lay_down(st, a, "hit")

    def _lay_down(self, st: _PState, a: Mapping[str, Any], kind: str) -> list[dict[str, Any]]:
        """A meld or a hit from the hand of the player to move."""
        seat = self._turn(st, a, "play", kind)
        hand = st.hands[seat]
        cards = self._from_hand(hand, a.get("cards"), kind)
        self._check_keeps_discard(st, hand, cards, kind)
        self._check_not_held(hand, cards, a, kind)
        events = self._table_action(st, seat, a, cards, kind)
        st.hands[seat] = [c for c in hand if c not in cards]
        return events

    def _do_discard(self, st: _PState, a: Mapping[str, Any]) -> list[dict[str, Any]]:
        seat = self._turn(st, a, "play", "discard")
        hand = st.hands[seat]
        if a.get("card") is None:
            raise GingoError("discard: name the card to discard")
        [card] = self._from_hand(hand, [a.get("card")], "discard")
        if card == st.keep:
            raise GingoError(f"discard: {C.card_name(card)} was taken from the pile this turn and may not be "
                             "discarded (rule: a card taken from the pile is used at once, never discarded in the same turn)")
        hand = [c for c in hand if c != card]
        st.hands[seat] = hand
        st.pile.append(card)
        events: list[dict[str, Any]] = [{"type": "discard", "seat": seat, "card": C.card_name(card)}]
        if hand:
            if a.get("jokers"):
                raise GingoError("discard: captured jokers are laid only when going out")
            st.turn = (seat + 1) % len(self.players)
            st.stage = "draw"
            st.keep = None
            return events
        captured = {str(s): _names(h) for s, h in enumerate(st.hands) if s != seat and h}
        jokers = a.get("jokers")
        if jokers is None:
            jokers = _auto_jokers(st.table, seat, [c for h in st.hands for c in h if c in C.JOKERS])
        out: dict[str, Any] = {"type": "go_out", "seat": seat, "captured": captured, "jokers": jokers}
        side = GingoGame.side_of(seat)
        nat = [c for h in st.hands for c in h if c < 52]
        short = st.table.shortfall(side, nat)
        if short:  # chip cap: the chips for the last captured cards are forfeited
            skip: list[int] = []
            taken_spaces: set[int] = set()
            for c in reversed(nat):
                sp = st.table.space(side, c)
                if st.table.board.owner(sp) != side and sp not in taken_spaces and len(skip) < short:
                    skip.append(c)
                    taken_spaces.add(sp)
            out["skip"] = _names(skip)
        events += st.table.apply(out)
        st.phase = st.table.phase
        return events

    def _do_new_hand(self, st: _PState, a: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._need(st, "hand_over", "start a new hand")
        events = st.table.apply({"type": "new_hand"})
        events += self._deal(st)
        return events

    # -- invariants -------------------------------------------------------------------

    def check(self) -> None:
        """Raise ``AssertionError`` if an invariant fails: every card in exactly one place,
        chips on the board plus supply equal to the cap per side, the incremental links
        equal to links computed from scratch."""
        st = self._st
        b = st.table.board
        for side in (1, 2):
            cap = b.chip_cap
            if cap is not None:
                assert b.count(side) + b.supply(side) == cap and b.supply(side) >= 0, f"chips of side {side}"  # type: ignore[operator]
            assert b.link(side) == B.link_from_scratch(b.mask(side), b.adjacency), f"link of side {side}"
            assert b.link_distance(side) == B.link_distance_from_scratch(b.mask(side), b.adjacency)
        assert not b.mask(1) & b.mask(2), "a space holds both colours"
        if st.phase != "play":
            return
        places = [st.stock, st.pile] + st.hands + [m.cards for m in st.table.melds]
        seen = 0
        total = 0
        for p in places:
            for c in p:
                assert not seen >> c & 1, f"{C.card_name(c)} is in two places"
                seen |= 1 << c
                total += 1
        assert seen == self.deck_mask(), f"cards missing: {C.mask_names(self.deck_mask() & ~seen)}"
        for s, h in enumerate(st.hands):
            assert h, f"seat {s} holds no card but did not go out"


# ---------------------------------------------------------------------------
# Candidate plays (used by the bot and by legal_actions)


def _run_windows(naturals: set[int], suit: int, jokers: list[int], limit: Any, forbid: set[int]) -> Iterator[
        tuple[list[int], dict[int, int]]]:
    """Runs of ``suit`` from the hand's naturals plus jokers (positions 1..14, 14 = ace high)."""
    max_gaps = min(len(jokers), 2 if limit == "fewer_than_naturals" else 1)
    if len(naturals) < 3 and not (max_gaps and len(naturals) >= 2):
        return
    base = suit * 13
    for lo in range(1, 13):
        cards: list[int] = []
        gaps: list[int] = []
        for hi in range(lo, 15):
            if lo == 1 and hi == 14:
                break
            c = base + (0 if hi == 14 else hi - 1)
            if c in naturals:
                cards.append(c)
            else:
                if len(gaps) == max_gaps or c in forbid:
                    break
                gaps.append(c)
            if hi - lo < 2 or not cards:
                continue
            if gaps and limit == "fewer_than_naturals" and len(gaps) >= len(cards):
                continue
            des = {jokers[i]: g for i, g in enumerate(gaps)}
            yield cards + list(des), des


def candidate_melds(hand: list[int], game: GingoGame) -> list[tuple[list[int], dict[int, int]]]:
    """New melds the hand can lay (cards, designations), jokers standing only for cards
    not in play on the table nor in the hand."""
    opts = game.options
    naturals = {c for c in hand if c < 52} - {c for m in game.table_melds for c in m.naturals}
    jokers = [c for c in hand if c in C.JOKERS] if opts.jokers else []
    in_play = game.in_play()
    forbid = {c for c in range(52) if in_play >> c & 1} | {c for c in hand if c < 52}
    out: list[tuple[list[int], dict[int, int]]] = []
    for r in range(1, 14):
        have = [c for c in naturals if C.rank(c) == r]
        for k in range(3, len(have) + 1):
            for combo in combinations(sorted(have), k):
                out.append((list(combo), {}))
        if jokers:
            missing = [s * 13 + r - 1 for s in range(4) if s * 13 + r - 1 not in naturals]
            for k in range(2, min(len(have), 3) + 1):
                for combo in combinations(sorted(have), k):
                    for d in missing:
                        if d not in forbid:
                            out.append((list(combo) + [jokers[0]], {jokers[0]: d}))
                            break
    for s in range(4):
        out.extend(_run_windows({c for c in naturals if C.suit(c) == s}, s, jokers,
                                opts.max_jokers_per_meld, forbid))
    return out


def candidate_hits(hand: list[int], game: GingoGame) -> list[tuple[int, int, dict[int, int]]]:
    """Single-card hits (meld id, card, designations) that fit, checked by the table rules."""
    out: list[tuple[int, int, dict[int, int]]] = []
    in_play = game.in_play()
    on_table = game.table_cards()
    for m in game.table_melds:
        st = m.stands()
        if m.kind == "set":
            r = C.rank(next(iter(st)))
            fits = [s * 13 + r - 1 for s in range(4)]
        else:
            s = C.suit(next(iter(st)))
            fits = [s * 13 + x for x in range(13)]
        for c in hand:
            if c < 52:
                if c in fits and not on_table >> c & 1 and (c not in st or c in m.designations.values()):
                    if c in st and c in m.naturals:
                        continue
                    out.append((m.id, c, {}))
            elif game.options.jokers:
                for d in fits:
                    if not in_play >> d & 1 and d not in hand:
                        out.append((m.id, c, {c: d}))
    return [(mid, c, des) for mid, c, des in out if game.can_hit(mid, [c], des)]


def _auto_jokers(game: GingoGame, seat: int, captured_jokers: list[int]) -> dict[str, Any]:
    """Lay each captured joker onto the first meld that takes it, choosing the designation
    whose chip helps the side that went out most."""
    out: dict[str, Any] = {}
    g = game.copy()
    side = g.side_of(seat)
    for j in captured_jokers:
        best: tuple[int, int, int] | None = None
        for mid, _c, des in candidate_hits([j], g):
            d = des[j]
            sp = g.space(side, d)
            b = g.board.copy()
            if b.owner(sp) == side or (b.supply(side) is not None and b.supply(side) < 1):  # type: ignore[operator]
                score = 0
            else:
                before = b.link_distance(side)
                b.place(side, [sp])
                score = before - b.link_distance(side)
            if best is None or score > best[0]:
                best = (score, mid, d)
        if best is not None:
            _, mid, d = best
            try:
                g.apply({"type": "hit", "seat": seat, "meld": mid, "cards": [C.card_name(j)],
                         "designations": {C.card_name(j): C.card_name(d)}})
            except GingoError:  # the chip supply runs short: the joker stays dead
                continue
            out[C.card_name(j)] = {"meld": mid, "as": C.card_name(d)}
    return out


# ---------------------------------------------------------------------------
# Bot


def _chip_value(game: GingoGame, side: int, cards: list[int]) -> float:
    """How much placing ``side``'s chips for ``cards`` helps: own link distance shortened,
    the opponent's lengthened (a broken link counts most)."""
    b = game.board.copy()
    spaces = list(dict.fromkeys(game.space(side, c) for c in cards))
    opp = 3 - side
    own0, opp0 = b.link_distance(side), b.link_distance(opp)
    sup = b.supply(side)
    new = [sp for sp in spaces if b.owner(sp) != side]
    if sup is not None and len(new) > sup:
        return -1.0
    b.place(side, spaces)
    own1, opp1 = b.link_distance(side), b.link_distance(opp)
    score = 3.0 * (own0 - own1) + 2.0 * (opp1 - opp0) + 0.3 * len(new)
    if opp0 == 0 and opp1 > 0:
        score += 20.0
    if own1 == 0:
        score += 30.0
    return score


def _best_discard(hand: list[int], keep: int | None, game: GingoGame) -> int:
    from companion.melds import deadwood_of_mask
    choices = [c for c in hand if c != keep] or list(hand)
    naturals = [c for c in choices if c < 52] or choices
    best = None
    for c in naturals:
        rest = C.cards_mask([x for x in hand if x != c and x < 52])
        v = deadwood_of_mask(rest, "gingo") * 100 - C.gin_value(c) if c < 52 else 10**6
        if best is None or v < best[0]:
            best = (v, c)
    assert best is not None
    return best[1]


def _meld_action(seat: int, cards: list[int], des: dict[int, int]) -> dict[str, Any]:
    act: dict[str, Any] = {"type": "meld", "seat": seat, "cards": _names(cards)}
    if des:
        act["designations"] = {C.card_name(k): C.card_name(v) for k, v in des.items()}
    return act


def bot_action(play: GingoPlay, rng: random.Random | None = None) -> dict[str, Any]:
    """The bot's next action for whoever is to move (set-up, draw or dig, meld, hit,
    discard, new hand). It melds and hits whatever it can, preferring plays whose chips
    shorten its own link or break the opponent's; digs the pile when the dug card
    melds at once and few cards come with it."""
    rng = rng or random.Random(0)
    phase = play.phase
    if phase == "setup":
        rev = play.reveal
        if rev.chooser is None:
            return {"type": "setup"}
        fmt = rng.choice(B.FORMATS)
        if fmt == "secrecy":
            rows = {}
            for key in ("1", "2"):
                row = list(C.SUITS)
                rng.shuffle(row)
                rows[key] = "".join(row)
            return {"type": "setup", "format": fmt, "secret": rows}
        return {"type": "setup", "format": fmt}
    if phase == "hand_over":
        return {"type": "new_hand"}
    if phase != "play":
        raise GingoError("the game is over")
    seat = play.turn
    side = GingoGame.side_of(seat)
    hand = play.hands[seat]
    game = play.table
    if play.stage == "draw":
        pile = play.pile
        best: tuple[float, dict[str, Any]] | None = None
        for idx in range(len(pile) - 1, max(-1, len(pile) - 6), -1):
            card = pile[idx]
            taken = pile[idx:]
            trial = hand + taken
            for cards, des in candidate_melds(trial, game):
                if card not in cards or len(cards) >= len(trial):
                    continue
                cv = _chip_value(game, side, [des.get(c, c) for c in cards])
                if cv < 0:
                    continue
                score = cv + len(cards) - 0.5 * len(taken)
                if best is None or score > best[0]:
                    m: dict[str, Any] = {"cards": _names(cards)}
                    if des:
                        m["designations"] = {C.card_name(k): C.card_name(v) for k, v in des.items()}
                    best = (score, {"type": "take", "seat": seat, "card": C.card_name(card), "meld": m})
        for idx in range(len(pile) - 2, max(-1, len(pile) - 6), -1):
            lay = _layoff_take(play, idx)
            if lay is None:
                continue
            lay_act, laid = lay
            score = _chip_value(game, side, laid) + len(laid) - 0.5 * (len(pile) - idx - len(laid))
            if best is None or score > best[0]:
                best = (score, lay_act)
        if best is not None and best[0] > 1.0:
            return best[1]
        return {"type": "draw", "seat": seat}
    # play stage: best meld, else best hit, else discard
    keep = play.keep
    options: list[tuple[float, dict[str, Any]]] = []
    for cards, des in candidate_melds(hand, game):
        left = [c for c in hand if c not in cards]
        if not left or (keep is not None and left == [keep]):
            continue
        score = _chip_value(game, side, [des.get(c, c) for c in cards])
        if score < 0:
            continue  # the chip supply cannot cover it
        score += len(cards)
        options.append((score, _meld_action(seat, cards, des)))
    if not options:
        for mid, c, des in candidate_hits(hand, game):
            left = [x for x in hand if x != c]
            if not left or (keep is not None and left == [keep]):
                continue
            if c in C.JOKERS and len(hand) > 3:
                continue  # keep jokers for melds while the hand is big
            score = _chip_value(game, side, [des.get(c, c)])
            if score < 0:
                continue
            score += 1
            act: dict[str, Any] = {"type": "hit", "seat": seat, "meld": mid, "cards": [C.card_name(c)]}
            if des:
                act["designations"] = {C.card_name(k): C.card_name(v) for k, v in des.items()}
            options.append((score, act))
    if options:
        options.sort(key=lambda x: -x[0])
        return options[0][1]
    return {"type": "discard", "seat": seat, "card": C.card_name(_best_discard(hand, keep, game))}


def _layoff_take(play: GingoPlay, idx: int) -> tuple[dict[str, Any], list[int]] | None:
    """A dig of ``play.pile[idx:]`` using the lay-off exception: the taken cards laid off one
    by one (so a run can take the 7 and then the 8) while any fits; None unless at least two
    go down and the whole dig is legal. Returns the action and the cards laid off."""
    seat = play.turn
    taken = play.pile[idx:]
    if len(taken) < 2:
        return None
    g = play.table.copy()
    left = [c for c in taken if c < 52]
    hits: list[dict[str, Any]] = []
    laid: list[int] = []
    progress = True
    while progress and left:
        progress = False
        for mid, c, des in candidate_hits(left, g):
            if des:
                continue
            h = {"meld": mid, "cards": [C.card_name(c)]}
            try:
                g.apply({"type": "hit", "seat": seat, **h})
            except GingoError:  # the chip supply runs short
                continue
            hits.append(h)
            laid.append(c)
            left.remove(c)
            progress = True
            break
    if len(laid) < 2:
        return None
    act = {"type": "take", "seat": seat, "card": C.card_name(taken[0]), "hits": hits}
    return (act, laid) if _is_legal(play, act) else None


def legal_actions(play: GingoPlay) -> list[dict[str, Any]]:
    """The actions the player to move may take, as far as the candidate generator finds
    them: the draw, for each depth of the pile one dig with a meld and one with the
    lay-off exception (when there is one), every natural meld, joker melds with one
    legal designation each, every single-card hit and every discard."""
    if play.phase == "setup":
        rev = play.reveal
        if rev.chooser is None:
            return [{"type": "setup"}]
        return [{"type": "setup", "format": f} for f in ("normal", "suit_for_suit")] + [
            {"type": "setup", "format": "secrecy", "secret": {"1": "SHDC", "2": "SHDC"}}]
    if play.phase == "hand_over":
        return [{"type": "new_hand"}]
    if play.phase != "play":
        return []
    seat, hand, game = play.turn, play.hands[play.turn], play.table
    out: list[dict[str, Any]] = []
    if play.stage == "draw":
        out.append({"type": "draw", "seat": seat})
        pile = play.pile
        for idx, card in enumerate(pile):
            trial = hand + pile[idx:]
            for cards, des in candidate_melds(trial, game):
                if card in cards and len(cards) < len(trial):
                    m: dict[str, Any] = {"cards": _names(cards)}
                    if des:
                        m["designations"] = {C.card_name(k): C.card_name(v) for k, v in des.items()}
                    act = {"type": "take", "seat": seat, "card": C.card_name(card), "meld": m}
                    if _is_legal(play, act):
                        out.append(act)
                        break
            lay = _layoff_take(play, idx)
            if lay is not None:
                out.append(lay[0])
        return out
    for cards, des in candidate_melds(hand, game):
        out.append(_meld_action(seat, cards, des))
    for mid, c, des in candidate_hits(hand, game):
        hit_act: dict[str, Any] = {"type": "hit", "seat": seat, "meld": mid, "cards": [C.card_name(c)]}
        if des:
            hit_act["designations"] = {C.card_name(k): C.card_name(v) for k, v in des.items()}
        out.append(hit_act)
    for c in hand:
        out.append({"type": "discard", "seat": seat, "card": C.card_name(c)})
    return [a for a in out if _is_legal(play, a)]


def _is_legal(play: GingoPlay, action: dict[str, Any]) -> bool:
    trial = GingoPlay.__new__(GingoPlay)
    trial.__dict__.update(play.__dict__)
    try:
        trial.apply(action)
    except GingoError:
        return False
    return True


# ---------------------------------------------------------------------------
# Self-play


def selfplay_game(seed: int, players: int = 2, check: bool = True, max_hands: int = 200,
                  options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Bots play one whole game from ``seed``; with ``check`` every invariant is checked
    after every action. Returns ``{"seed", "players", "winner" (side or None), "reason"
    ("gin_held", "both_linked", "capture_link", "gin_first" or "hand_cap"), "hands",
    "actions", "seconds"}``; a game still running after ``max_hands`` hands is reported
    honestly as a draw by the cap (winner None, reason "hand_cap").

    >>> r = selfplay_game(4, players=4)
    >>> r["winner"] in (1, 2), r["reason"] in ("gin_held", "both_linked", "capture_link", "gin_first")
    (True, True)
    """
    if players not in (2, 4):
        raise GingoError(f"Gin-Go self-play is for 2 or 4 players, not {players}")
    t0 = time.perf_counter()
    names = [f"bot{i + 1}" for i in range(players)]
    play = GingoPlay(names, dict(options or {}), seed=seed)
    rng = random.Random(seed * 7919 + 1)
    actions = 0
    max_actions = max_hands * 2000
    while play.phase != "game_over":
        if play.phase == "hand_over" and play.table.hand >= max_hands:
            break
        act = bot_action(play, rng)
        play.apply(act)
        actions += 1
        if check:
            play.check()
        if actions > max_actions:  # pragma: no cover - a bot loop would be a bug
            raise AssertionError(f"self-play seed {seed} did not finish in {max_actions} actions")
    t = play.table
    return {
        "seed": seed, "players": players, "winner": t.winner,
        "reason": t.as_dict()["win_reason"] if t.winner is not None else "hand_cap",
        "hands": t.hand, "actions": actions, "seconds": round(time.perf_counter() - t0, 4),
    }


__all__ = ["GingoPlay", "bot_action", "legal_actions", "candidate_melds", "candidate_hits", "selfplay_game"]
