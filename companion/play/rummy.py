"""One state machine for the rummy family: Gin Rummy, Color Gin and Ginski.

The engine knows turns, cards and the order of play; everything that differs between
the games comes from the game's rule module (:mod:`companion.games.gin.rules`,
:mod:`~companion.games.color_gin.rules`, :mod:`~companion.games.ginski.rules`) through the module
surface documented in :mod:`companion.rules.base`: ``deal_size``, ``DECK`` (or
``deck(options)``), ``end_kind``, ``score_hand``, ``score_match`` and ``next_dealer``.

A hand goes through these phases (``RummyGame.phase``):

``"first_dealer"``
    Only before the first hand, when the options flip for the deal
    (``first_dealer = flip_high_chooses``, as in ``gin_004``) and no dealer was
    given: the flips are drawn from the seed (``first_deal``) and the winner chooses
    ``ChooseDeal(True)`` to deal or ``ChooseDeal(False)`` to let the player on their
    right deal. (``flip_low_deals`` needs no choice: the lowest card deals.)
``"upcard"``
    The player left of the dealer (the non-dealer with two players), then each player
    in turn and the dealer last, may take the upcard (``Draw("discard")``) or
    ``Pass()``. Whoever takes it discards next; if everybody passes, the first player
    must draw from the stock (``Draw("stock")`` only).
``"draw"``
    The player to move takes the top of the stock or of the discard pile.
``"discard"``
    The player holds one card more than the deal. ``Discard(card)`` ends the turn;
    ``Knock(card)`` discards face down and ends the hand (a knock, or gin when the
    kept cards all meld); ``Knock(card, declared)`` lays out the player's own choice
    of melds (refused, state unchanged, when the rules refuse the declaration); ``BigGin()`` ends it with no discard. The card just taken
    from the discard pile may not be discarded (nor knocked with), unless the
    options turn ``no_same_card_discard`` off.
    With Color Gin's co-op jokers (``coop_jokers``), a player who draws a joker from
    the stock must end the hand at once with ``Knock(joker)``, the only legal action:
    gin when the ten other cards all meld (a gin arrangement is declared), otherwise a
    knock whatever the deadwood (``score_hand(..., joker=True)``). The joker is the
    discard, so it never stays in a hand.
``"rescue"``
    Only with Gin Rummy's ``last_discard_rescue``: the stock is down to two cards and
    the next player may take the last discard only to end the hand with it;
    ``Pass()`` gives up and the hand is void.
``"over"``
    The match is over (``score_match`` says finished).

Co-op jokers are dealt only into the stock: the dealer shuffles the 52 cards, deals the
hands and the upcard from them, and shuffles both jokers into the rest (as if the deal
were redone until both jokers were in the stock). So a joker is never dealt, never the
upcard, and never offered on the discard pile: the only joker that reaches the pile is
the one discarded face down as the hand ends, and it goes back into the next shuffle.

When a discard leaves two cards in the stock, nobody ending the hand, the hand ends at
the stock (``score_hand(..., ender=None)``: void or, in ``gin_002``, a showdown). After
each hand the result is folded into the match, and unless it is over the next dealer
(``next_dealer``) deals from a fresh seeded shuffle.

Actions are small frozen dataclasses: :class:`Pass`, :class:`Draw`, :class:`Discard`,
:class:`Knock`, :class:`BigGin`. An illegal action raises ``ValueError`` naming the
rule and leaves the state unchanged.

>>> from companion.games import rummy_game  # the game's Variant hands the engine its rules
>>> g = rummy_game("gin", seed=7)  # gin_004: the flip for the first deal
>>> g.phase, g.turn == g.first_deal.winner, g.legal_actions()
('first_dealer', True, [ChooseDeal(deal=False), ChooseDeal(deal=True)])
>>> g.apply(ChooseDeal(False))
>>> g.phase, len(g.stock), [len(C.mask_cards(h)) for h in g.hands]
('upcard', 31, [10, 10])
>>> g.apply(Draw("stock"))
Traceback (most recent call last):
...
companion.errors.IllegalAction: the upcard phase: take the upcard (Draw('discard')) or pass (Pass()); the stock is not open yet
>>> from companion.play.bot import BASIC
>>> from companion.play.rummy_selfplay import selfplay_match  # bots play it out (above the engine)
>>> r = selfplay_match(3, "gin", policy=BASIC, rules=g.rules)
>>> r["finished"], r["hands"] >= 1
(True, True)
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import random
from collections.abc import Callable
from typing import Any, Final, TypeGuard

from companion.errors import IllegalAction
from companion import cards as C
from companion import melds as M
from companion.rules.base import ArrangingRules, HandResult, MatchScore, RulesModule
from companion.play.rummy_actions import (Action, BigGin, ChooseDeal, Discard, Draw, Knock, Pass,
                                          action_from_dict, action_to_dict)
from companion.play.rummy_checks import MAX_HANDS, STOCK_END_AT, check_game, game_view
from companion.play.rummy_moves import apply_action
from companion.rules.first_dealer import FLIP_RULES, FirstDeal, draw_flips


#: what a rummy game's rules module offers (:class:`~companion.rules.base.RulesModule`;
#: the module :class:`RummyGame` is handed must have them all: an option or helper module
#: is no game's rules)
RULES_API: Final = ("PRESETS", "PLAYERS", "DECK", "MELD_RULES", "make_options", "deal_size", "end_kind", "score_hand",
                    "score_match", "start_match", "add_hand", "next_dealer")
#: what a rules module that chooses the ender's arrangement adds (a co-op joker's gin)
ARRANGING_API: Final = ("closed_mask", "choose_arrangement", "all_arrangements")


def _arranges(rules: RulesModule) -> TypeGuard[ArrangingRules]:
    return all(hasattr(rules, name) for name in ARRANGING_API)


def _deck_of(rules: RulesModule, options: Any) -> int:
    deck_fn = getattr(rules, "deck", None)
    return int(deck_fn(options)) if callable(deck_fn) else int(rules.DECK)


class RummyGame:
    """A whole match of a rummy-family game, hand after hand, from a seed.

    The game's Variant builds it (:meth:`companion.games.rummy.RummyVariant.rummy_game`;
    by a game's name, :func:`companion.games.rummy_game`): the engine never looks a game
    up by its name. ``variant``: the game's name, kept as data (the view's ``"variant"``,
    the wording of errors); ``rules``: the game's rules module (``IllegalAction`` when it
    lacks part of :data:`RULES_API`); ``meld_rules``: how the cards meld (the rules
    module's ``MELD_RULES`` when None); ``players``: the number of seats (the game's
    default when None); ``preset``/``options``/``**overrides``: as the rules module's
    ``make_options``; ``dealer``: the first dealer (drawn from the seed when None). All
    randomness comes from ``random.Random(seed)``, except that with ``hand_rng`` each
    hand is shuffled by ``hand_rng(hand_number)`` (a dealt game's secret per-hand seeds,
    :mod:`companion.play.deal`).
    """

    def __init__(self, variant: str, players: int | None = None, seed: int = 0,
                 preset: str | None = None, options: Any = None, dealer: int | None = None,
                 hand_rng: Callable[[int], random.Random] | None = None, *, rules: RulesModule,
                 meld_rules: M.MeldRules | None = None, **overrides: Any) -> None:
        self.variant = variant
        self._hand_rng = hand_rng
        missing = [name for name in RULES_API if not hasattr(rules, name)]
        if missing:
            raise IllegalAction(f"the rules given for {variant!r} are not a rummy game's rules "
                                f"(no {', '.join(missing)})")
        # the rules module, as the game's Variant gives it
        self.rules: RulesModule = rules
        if options is None:
            options = self.rules.make_options(preset, **overrides)
        elif overrides or preset is not None:
            raise IllegalAction("give options, or a preset and overrides, not both")
        self.options = options
        default_players = getattr(options, "players", None)
        n = players if players is not None else (
            default_players if isinstance(default_players, int) else self.rules.PLAYERS[0])
        if n not in self.rules.PLAYERS:
            lo, hi = self.rules.PLAYERS[0], self.rules.PLAYERS[-1]
            span = f"{lo}" if lo == hi else f"{lo} to {hi}"
            raise IllegalAction(f"{variant} is for {span} players, not {n}")
        if isinstance(default_players, int) and default_players != n:
            # the rule set keeps the number of players in its options (Ginski)
            options = dataclasses.replace(options, players=n)
            self.options = options
        self.players: int = n
        # how the cards meld, as the game's Variant gives it (else its rules module's)
        self.meld_rules: M.MeldRules = meld_rules if meld_rules is not None else self.rules.MELD_RULES
        self.deck: int = _deck_of(self.rules, options)
        self.deal_size: int = self.rules.deal_size(n, options)
        if n * self.deal_size + 1 + STOCK_END_AT >= self.deck.bit_count():
            raise IllegalAction(f"{n} hands of {self.deal_size} leave no stock")
        params = inspect.signature(self.rules.score_hand).parameters
        self._pass_closed = "closed" in params
        self.jokers: int = self.deck & C.JOKER_MASK if getattr(options, "coop_jokers", False) \
            else 0  # co-op jokers: drawing one ends the hand
        self.seed = seed
        self.rng = random.Random(seed)
        rule = getattr(options, "first_dealer", "random")
        # the flip for the first deal (seed 004: the highest card chooses, a tie flips again); None when not flipped
        self.first_deal: FirstDeal | None = None
        if dealer is None and rule in FLIP_RULES:
            self.first_deal = draw_flips(self.rng, self.deck & ~C.JOKER_MASK, n, rule)
            dealer = self.first_deal.winner  # provisional until the winner chooses
        self.dealer: int = self.rng.randrange(n) if dealer is None else dealer
        if not 0 <= self.dealer < n:
            raise IllegalAction(f"dealer must be a seat 0..{n - 1}, not {dealer}")
        self.results: list[HandResult] = []
        self.match: MatchScore = self.rules.score_match([], n, options)
        self.actions = 0
        self.hand_number = 0
        # per-hand state, set by _deal
        self.hands: list[int] = []
        self.stock: list[int] = []
        self.discard: list[int] = []
        self.phase = "upcard"
        self.turn = 0
        self.passes = 0
        self.taken: int | None = None  # card taken from the discard pile this turn
        self.must_stock = False
        self.must_end = False
        self.last_taken: list[int | None] = [None] * n  # each seat's latest discard pick-up
        # this hand's public moves, in order: (seat, "take" | "throw" | "pass" | "stock", card or -1)
        self.moves: list[tuple[int, str, int]] = []
        self.hand_options: Any = options
        # the card just taken from the discard pile may not be discarded again at once: on unless the options turn it off
        self._same_card_barred: bool = bool(getattr(options, "no_same_card_discard", True))
        self._checked: tuple[int, int, bool] | None = None
        self._end_cache: dict[tuple[int, int], str | None] = {}
        if self.first_deal is not None and self.first_deal.dealer is None:
            self.phase = "first_dealer"  # the winner of the flip chooses; then the deal
            self.turn = self.first_deal.winner
            self.hands = [0] * n
        else:
            self._deal()

    # ------------------------------------------------------------------ state

    def _deal(self) -> None:
        if self._hand_rng is not None:
            self.rng = self._hand_rng(self.hand_number + 1)
        cards = C.mask_cards(self.deck)
        self.rng.shuffle(cards)
        jokers: list[int] = []
        if self.jokers:
            # co-op jokers go only into the stock (see the module notes)
            jokers = [c for c in cards if self.jokers >> c & 1]
            cards = [c for c in cards if not self.jokers >> c & 1]
        n, k = self.players, self.deal_size
        first = (self.dealer + 1) % n
        self.hands = [0] * n
        for i in range(n):
            seat = (first + i) % n
            for c in cards[i * k:(i + 1) * k]:
                self.hands[seat] |= 1 << c
        up = cards[n * k]
        self.discard = [up]
        self.stock = cards[n * k + 1:]
        if jokers:
            self.stock += jokers
            self.rng.shuffle(self.stock)
        self.phase = "upcard"
        self.turn = first
        self.passes = 0
        self.taken = None
        self.must_stock = False
        self.must_end = False
        self.last_taken = [None] * n
        self.moves = []
        self.hand_number += 1
        opts = self.options
        if getattr(opts, "oklahoma", False):
            opts = dataclasses.replace(opts, upcard=C.card_name(up))
        self.hand_options = opts
        self._end_cache = {}

    def clone(self) -> RummyGame:
        """An independent copy (what one more action would do, without touching this one)."""
        other = copy.copy(self)
        other.rng = copy.copy(self.rng)
        other.hands, other.stock, other.discard = list(self.hands), list(self.stock), list(self.discard)
        other.last_taken, other.results = list(self.last_taken), list(self.results)
        other.moves = list(self.moves)
        return other

    @property
    def over(self) -> bool:
        """True once the match is finished."""
        return self.phase == "over"

    @property
    def top_discard(self) -> int | None:
        return self.discard[-1] if self.discard else None

    @property
    def joker_drawn(self) -> int | None:
        """The co-op joker the player to move has just drawn (they must end the hand by
        discarding it), else None. A joker is held only in that moment."""
        if self.phase != "discard" or not self.jokers:
            return None
        held = self.hands[self.turn] & self.jokers
        return held.bit_length() - 1 if held else None

    @property
    def barred_discard(self) -> int | None:
        """The card the player to move may not discard (nor knock with) now: the one
        taken from the discard pile this turn, under ``no_same_card_discard``."""
        return self.taken if self._same_card_barred else None

    def hand(self, seat: int) -> int:
        """The cards (a mask) ``seat`` holds."""
        return self.hands[seat]

    def end_kind(self, kept: int, seat: int) -> str | None:
        """How ``seat`` keeping ``kept`` may end the hand (the rule module's answer,
        remembered for the rest of the hand: options and match do not change in it)."""
        key = (kept, seat)
        cache = self._end_cache
        if key in cache:
            return cache[key]
        kind: str | None = self.rules.end_kind(kept, self.hand_options, self.match, seat)
        cache[key] = kind
        return kind

    def _next(self, seat: int) -> int:
        return (seat + 1) % self.players

    def _can_end_with(self, hand: int, taken: int | None) -> bool:
        for c in C.iter_cards(hand):
            if c != taken and self.end_kind(hand & ~(1 << c), self.turn) in ("gin", "knock"):
                return True
        return self.end_kind(hand, self.turn) == "big_gin"

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[Action]:
        """Every action the player to move may take now (empty once the match is over)."""
        ph = self.phase
        if ph == "over":
            return []
        if ph == "first_dealer":
            return [ChooseDeal(False), ChooseDeal(True)]
        if ph == "upcard":
            return [Draw("discard"), Pass()]
        if ph == "rescue":
            out: list[Action] = [Pass()]
            top = self.discard[-1]
            if self._can_end_with(self.hands[self.turn] | 1 << top, top):
                out.insert(0, Draw("discard"))
            return out
        if ph == "draw":
            if self.must_stock:
                return [Draw("stock")]
            return [Draw("stock"), Draw("discard")]
        joker = self.joker_drawn
        if joker is not None:
            return [Knock(joker)]
        hand = self.hands[self.turn]
        acts: list[Action] = []
        if self.end_kind(hand, self.turn) == "big_gin":
            acts.append(BigGin())
        for c in C.iter_cards(hand):
            if c == self.taken and self._same_card_barred:
                continue
            if not self.must_end:
                acts.append(Discard(c))
            if self.end_kind(hand & ~(1 << c), self.turn) in ("gin", "knock"):
                acts.append(Knock(c))
        return acts

    def apply(self, action: Action) -> HandResult | None:
        """Play ``action`` for the player to move. Returns the hand's result when the
        action ended a hand, else None. Raises ``ValueError`` (state unchanged) when the
        action is not legal now (see :func:`companion.play.rummy_moves.apply_action`)."""
        return apply_action(self, action)

    def _score(self, hands: list[list[int]], ender: int | None, joker: bool = False,
               declared: list[list[str]] | None = None) -> HandResult:
        kwargs: dict[str, Any] = {"options": self.hand_options}
        if self._pass_closed:
            kwargs["closed"] = self.match
        if joker:
            assert ender is not None
            kwargs["joker"] = True
            gin = self._joker_gin(ender)
            if gin is not None:
                kwargs["declared"] = gin
        if declared is not None:
            kwargs["declared"] = declared
        result: HandResult = self.rules.score_hand(hands, ender, **kwargs)
        return result

    def _end_hand(self, ender: int | None, joker: bool = False,
                  declared: list[list[str]] | None = None) -> HandResult:
        hands = [C.mask_cards(h) for h in self.hands]
        result = self._score(hands, ender, joker, declared)
        self.results.append(result)
        self.match = self.rules.score_match(self.results, self.players, self.options)
        if self.match.finished:
            self.phase = "over"
            self.taken = None
            return result
        self.dealer = self.rules.next_dealer(result, self.dealer, self.players, self.options)
        self._deal()
        return result

    def _joker_gin(self, ender: int) -> list[list[str]] | None:
        """The melds to declare when ``ender`` drew a co-op joker and the ten cards
        kept all meld ("gin if you can"): the gin arrangement the engine would declare,
        or any gin arrangement when none can score. None when gin is impossible (the
        engine then declares a knock, whatever the deadwood)."""
        kept = self.hands[ender]
        if M.deadwood_of_mask(kept, self.meld_rules) != 0:
            return None
        rules = self.rules
        if not _arranges(rules):
            raise IllegalAction(f"{self.variant}'s rules do not choose an ender's arrangement "
                                f"(no {', '.join(n for n in ARRANGING_API if not hasattr(rules, n))})")
        closed = rules.closed_mask(self.match)
        gin_only = dataclasses.replace(self.hand_options, knock_limit=0)
        d = rules.choose_arrangement(kept, gin_only, closed,
                                     defender=self.hands[1 - ender])
        arr = d.arrangement if d is not None else next(iter(rules.all_arrangements(kept, 0)))
        return [m.names() for m in arr.melds]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What a player may see (see :func:`companion.play.rummy_checks.game_view`)."""
        return game_view(self, seat)

    def check(self) -> None:
        """Raise ``AssertionError`` if an invariant is broken (see
        :func:`companion.play.rummy_checks.check_game`)."""
        check_game(self)


__all__ = [
    "Pass", "Draw", "Discard", "Knock", "BigGin", "ChooseDeal", "Action", "RummyGame",
    "action_to_dict", "action_from_dict",
    "STOCK_END_AT", "MAX_HANDS",
]
