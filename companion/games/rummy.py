"""What the rummy games of the registry share (Gin Rummy, Color Gin and Ginski, each in
its own package under ``companion/games/``): :class:`RummyVariant`.

Each is tracked at the table hand by hand (``play_style = "hands"``): a hand's end is
scored by the rules module (:meth:`RummyVariant.score_hand`, or from deadwood counts
alone where the game allows it), a match is a fold over the hands
(:meth:`RummyVariant.score_match`), and the deal moves on by the game's rule.

>>> from companion.games import find_variant
>>> gin = find_variant("gin")
>>> opts = gin.make_options("pagat", {}, 2)
>>> gin.score_from_deadwood([4, 30], 0, opts)["points"]
[26, 0]
>>> find_variant("ginski").hand_sizes(find_variant("ginski").make_options(None, {}, 2), 2)
HandSizes(deal=12, big=13)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from companion.errors import InvalidInput
from companion import cards as C
from companion.games.base import Variant, players_of, preset_from
from companion.games.deck import HandSizes
from companion.games.seams import DealtModel, DealtMove
from companion.games.options import Preset
from companion.melds import MeldRules
from companion.rules.base import HandResult, MatchScore, RulesModule

if TYPE_CHECKING:  # full play loads when a game is first played, not with the registry
    from companion.play import rummy as play
    from companion.play.policy import Policy
    from companion.play.sharp import SharpMixin


class RummyVariant(Variant):
    """A game whose hands are scored at the table from the cards (or deadwood counts)."""

    play_style = "hands"
    deals = True
    #: True when a hand's score depends on the hands before it (Color Gin's closed suits)
    context_scoring: ClassVar[bool] = False
    #: deadwood-only quick entry (Color Gin needs the cards: spoiled suits come from them)
    deadwood_entry: ClassVar[bool] = True
    #: the ending with every card melded, as players call it
    gin_word: ClassVar[str] = "gin"
    big_word: ClassVar[str] = "big gin"
    #: what leaving a hand's declared melds empty does, in the game's words (the entry's help)
    declared_help: ClassVar[str] = ("Leave empty to let the companion choose the arrangement that leaves the least "
                                    "deadwood (and, among those, the one that leaves the other player the most "
                                    "deadwood after lay-offs).")
    #: the rules module's preset names with their plain-word labels and help
    preset_words: ClassVar[dict[str, tuple[str, str]]] = {}

    rules: ClassVar[RulesModule]
    meld_rules: ClassVar[MeldRules]

    def _make_presets(self) -> dict[str, Preset]:
        out: dict[str, Preset] = {}
        for name, opts in self.rules.PRESETS.items():
            label, help_text = self.preset_words.get(name, (name.replace("_", " "), ""))
            out[name] = preset_from(name, label, help_text, opts)
        return out

    def _preset_alias(self, preset: str) -> str | None:
        return dict(getattr(self.rules, "ALIASES", {})).get(preset)

    def _build_options(self, preset: str | None, overrides: dict[str, Any], players: int) -> Any:
        fields = {f.name for f in dataclasses.fields(self.options_class)}
        if "players" in fields and "players" not in overrides:
            overrides = {**overrides, "players": players}
        return self.rules.make_options(preset, **overrides)

    def _for_players(self, options: Any, players: int) -> Any:
        if players_of(options, players) != players:
            return dataclasses.replace(options, players=players)
        return options

    def hand_sizes(self, options: Any, players: int) -> HandSizes:
        deal = int(self.rules.deal_size(players, options))
        return HandSizes(deal, deal + 1)

    def big_bonus(self, options: Any) -> int:
        """The bonus for melding all eleven cards without a discard (0: no such ending)."""
        return 0

    def stock_showdown(self, options: Any) -> bool:
        """A hand whose stock ran out is a showdown (the lower deadwood scores) under
        ``options``, not a void hand (the entry's help says which)."""
        return False

    def entries(self, options: Any) -> dict[str, bool]:
        """Which fields a hand entry takes beyond the cards and the ender."""
        return {"cards": True, "deadwood": self.deadwood_entry, "ender": True, "gin": True, "upcard": False,
                "declared": True, "joker": False, "big_gin": self.big_bonus(options) > 0}

    def table_rules(self, options: Any, players: int) -> dict[str, Any]:
        return {**super().table_rules(options, players),
                "gin_word": self.gin_word, "big_word": self.big_word, "big_bonus": self.big_bonus(options),
                "suit_columns": self.context_scoring, "stock_showdown": self.stock_showdown(options)}

    def page_flags(self) -> dict[str, Any]:
        return {**super().page_flags(), "gin_word": self.gin_word, "big_word": self.big_word,
                "declared_help": self.declared_help}

    # -- scoring -------------------------------------------------------------------------

    def score_hand(self, hands: Sequence[Any], ender: int | None, options: Any, *,
                   prior: Sequence[HandResult] = (), players: int = 2, declared: Any = None,
                   joker: bool = False, upcard: str | None = None, match: MatchScore | None = None) -> dict[str, Any]:
        """One hand's result from every seat's cards. A game whose scoring depends on the
        hands before it (:attr:`context_scoring`) reads ``match``, the match before this
        hand, or else folds ``prior``, the results of those hands. Refusals raise ``ValueError``."""
        kwargs: dict[str, Any] = {"options": options}
        if joker:
            raise InvalidInput("\"joker\" is a Color Gin entry only (co-op jokers)", code="invalid_hand")
        if declared is not None:  # the ender's own melds: any legal arrangement within the limit
            kwargs["declared"] = declared
        if upcard is not None:
            kwargs["upcard"] = upcard
        return dict(self.rules.score_hand(list(hands), ender, **kwargs).as_dict())

    def score_from_deadwood(self, deadwood: Sequence[int], ender: int | None, options: Any, *,
                            big_gin: bool = False, upcard: str | None = None) -> dict[str, Any]:
        """One hand's result from deadwood counts alone (quick entry)."""
        raise InvalidInput(f"deadwood-only entry is not available for {self.name}: enter each player's "
                           "cards (\"hands\")", code="unsupported")

    def score_match(self, results: Sequence[HandResult], players: int, options: Any) -> MatchScore:
        """The match folded from every hand's result (:meth:`add_hand` on each, from
        :meth:`start_match`)."""
        m = self.start_match(players, options)
        for r in results:
            m = self.add_hand(m, r, options)
        return m

    def start_match(self, players: int, options: Any) -> MatchScore:
        """The match before its first hand."""
        return self.rules.start_match(players, options)

    def add_hand(self, match: MatchScore, result: HandResult, options: Any) -> MatchScore:
        """The match one hand further, in time that does not grow with the hands before
        (``match`` is left as it was); a hand after the end raises ``ValueError``."""
        return self.rules.add_hand(match, result, options)

    def next_dealer(self, result: HandResult, dealer: int, players: int, options: Any) -> int:
        return int(self.rules.next_dealer(result, dealer, players, options))

    # -- the seam ---------------------------------------------------------------------

    def hand_scoring(self) -> RummyVariant:
        return self

    def rummy_game(self, players: int | None = None, seed: int = 0, preset: str | None = None,
                   options: Any = None, dealer: int | None = None,
                   hand_rng: Callable[[int], random.Random] | None = None, **overrides: Any) -> play.RummyGame:
        """This game's engine for a whole match (:class:`companion.play.rummy.RummyGame`,
        handed the game's rules module and meld rules): ``players`` (the game's default
        when None), ``seed``, ``preset``/``options``/``**overrides`` as the rules module's
        ``make_options``, ``dealer`` (drawn from the seed when None), ``hand_rng`` (a
        dealt game's per-hand shuffles). By a game's name: :func:`companion.games.rummy_game`.

        >>> from companion.games import find_variant
        >>> g = find_variant("ginski").rummy_game(seed=3, dealer=2)
        >>> g.variant, g.players, g.dealer, g.rules.__name__
        ('ginski', 3, 2, 'companion.games.ginski.rules')
        """
        from companion.play import rummy as play

        return play.RummyGame(self.name, players=players, seed=seed, preset=preset, options=options, dealer=dealer,
                              hand_rng=hand_rng, rules=self.rules, meld_rules=self.meld_rules, **overrides)

    def dealt_play(self, names: list[str], options: Any, *, dealer: int | None,
                   hand_rng: Callable[[int], random.Random]) -> play.RummyGame:
        return self.rummy_game(len(names), options=options, dealer=dealer or 0, hand_rng=hand_rng)

    def dealt_bot_action(self, game: DealtModel, level: str, rng: random.Random) -> dict[str, Any]:
        from companion.play.rummy import action_to_dict

        game = _engine(game)
        return action_to_dict(self.bot(level)(game, rng))

    def dealt_legal_actions(self, game: DealtModel) -> list[dict[str, Any]]:
        from companion.play.rummy import action_to_dict

        game = _engine(game)
        return [action_to_dict(a) for a in game.legal_actions()]

    def dealt_hint(self, game: DealtModel, seat: int, names: list[str]) -> dict[str, Any]:
        from companion.play.hints import HINT_LEVEL, rummy_hint

        game = _engine(game)
        return rummy_hint(game, list(names), self.bot_policy(HINT_LEVEL), self.knock_reader())

    def dealt_finished(self, game: DealtModel) -> bool:
        game = _engine(game)
        return bool(game.over)

    def dealt_to_move(self, game: DealtModel, players: int) -> int:
        game = _engine(game)
        return int(game.turn)

    def dealt_hands_over(self, game: DealtModel) -> int:
        game = _engine(game)
        return len(game.results)

    def dealt_dealer(self, game: DealtModel) -> int:
        game = _engine(game)
        return int(game.dealer)

    def dealt_hand(self, game: DealtModel, seat: int) -> list[int]:
        game = _engine(game)
        return C.mask_cards(game.hands[seat]) if not game.over else []

    def dealt_endings(self, game: DealtModel, seat: int) -> dict[str, str]:
        """Each knock's card and whether it goes gin (big gin included) or knocks: the
        Play screen says Gin, not "Knock", for a gin."""
        from companion.play.rummy import Knock

        game = _engine(game)
        out: dict[str, str] = {}
        for a in game.legal_actions():
            if isinstance(a, Knock):
                kind = game.end_kind(game.hands[seat] & ~(1 << a.card), seat)
                out[C.card_name(a.card)] = "gin" if kind in ("gin", "big_gin") else "knock"
        return out

    def dealt_apply(self, before: DealtModel, game: DealtModel, seat: int,
                    action: dict[str, Any]) -> DealtMove:
        from companion.play.rummy import action_from_dict, action_to_dict

        before = _engine(before)
        game = _engine(game)
        typed = action_from_dict(action)
        game.apply(typed)
        played = action_to_dict(typed)
        top = C.card_name(before.discard[-1]) if before.discard else None
        return DealtMove(played, [{"type": "played", "seat": seat, "action": played}], top, int(before.hand_number))

    def dealt_summary(self, before: DealtModel, game: DealtModel, effects: list[dict[str, Any]],
                      names: list[str], explain: Callable[[dict[str, Any], Any], dict[str, Any] | None]
                      ) -> dict[str, Any]:
        """The hand that just ended: the result with every seat's melds, lay-offs and
        deadwood, the winner's points in parts, and the match after it."""
        before = _engine(before)
        game = _engine(game)
        result = game.results[-1].as_dict()
        return {"hand": len(game.results), "result": result, "breakdown": explain(result, game.hand_options),
                "match": game.match.as_dict(), "finished": bool(game.over)}

    def dealt_match(self, game: DealtModel) -> MatchScore:
        game = _engine(game)
        return game.match

    def dealt_results(self, game: DealtModel) -> Sequence[HandResult]:
        game = _engine(game)
        return game.results

    def dealt_public(self, game: DealtModel) -> dict[str, Any]:
        game = _engine(game)
        v: dict[str, Any] = game.view(None)
        v.pop("variant", None)
        v.pop("players", None)
        return v

    def selfplay_players(self, players: int | None, preset: str | None) -> int | None:
        self.new_play(players, seed=0, preset=preset)  # bad settings fail here
        return players

    # -- the bots ---------------------------------------------------------------------------
    # The game says which bot plays at which level; play/ holds the bots and never picks
    # one by a game's name. The registry must load without play/, so each game's methods
    # import its bots when first asked (the imports point from games/ down to play/'s
    # machinery, which never imports a game's package: no cycle).

    def seat_policy(self) -> Policy:
        """The normal level's bot, which also plays :meth:`bot_action` and self-play (the
        strongest measured for the game; a game without its own plays the basic bot)."""
        from companion.play.bot import BASIC

        return BASIC

    def strong_policy(self) -> Policy:
        """The strong level's bot (the normal one unless the game has a stronger one)."""
        return self.seat_policy()

    def knock_reader(self) -> SharpMixin | None:
        """The policy a hint asks how likely a knock is to be undercut (two players; None:
        the hint gives no such reason)."""
        return None

    def bot_policy(self, level: str) -> Policy:
        """The bot that plays a seat at ``level`` (``easy``: the basic bot, ``normal``:
        :meth:`seat_policy`, ``strong``: :meth:`strong_policy`); ``ValueError`` naming
        the levels for any other.

        >>> from companion.games import find_variant
        >>> [type(find_variant("gin").bot_policy(level)).__name__ for level in ("easy", "normal", "strong")]
        ['BasicPolicy', 'StrongPolicy', 'SharpGin']
        """
        from companion.play.bot import BASIC
        from companion.play.levels import check_level

        check_level(level)
        if level == "easy":
            return BASIC
        if level == "strong":
            return self.strong_policy()
        return self.seat_policy()

    def bot(self, level: str) -> Callable[[play.RummyGame, random.Random | None], play.Action]:
        policy = self.bot_policy(level)
        from companion.play.levels import seat_action

        def act(game: play.RummyGame, rng: random.Random | None = None) -> play.Action:
            return seat_action(game, policy)

        return act

    # -- full play and its bot -----------------------------------------------------------

    def new_play(self, players: int | None = None, *, seed: int = 0, preset: str | None = None,
                 options: Any = None, dealer: int | None = None) -> play.RummyGame:
        """A whole match dealt from ``seed``, played through actions (see :mod:`companion.play.rummy`);
        ``options`` (a record) or ``preset`` go through :meth:`make_options` like a table game's."""
        if options is None:
            options = self.make_options(preset, {}, players or self.seats[0])
        return self.rummy_game(players, seed=seed, options=options, dealer=dealer)

    def bot_action(self, game: play.RummyGame, rng: random.Random | None = None) -> play.Action:
        """The seat bot's (:meth:`seat_policy`'s) move in ``game``, on the whole game."""
        from companion.play.policy import play_turn

        return play_turn(game, self.seat_policy())

    def selfplay(self, seed: int, players: int | None = None, *, check: bool = True,
                 preset: str | None = None, options: Any = None) -> dict[str, Any]:
        """The seat bot plays every seat of one whole match from ``seed`` (invariants
        checked with ``check``); ``options`` (a record) instead of ``preset``."""
        if options is None:
            options = self.make_options(preset, {}, players or self.seats[0])
        from companion.play.rummy_selfplay import selfplay_match

        return selfplay_match(seed, self.name, players=players, check=check, options=options,
                              policy=self.seat_policy(), rules=self.rules, meld_rules=self.meld_rules)


def _engine(game: DealtModel) -> play.RummyGame:
    """The rummy engine the table handed back (it holds only what a rummy Variant's
    :meth:`~RummyVariant.dealt_play` made: anything else is a bug, a 500)."""
    from companion.play.rummy import RummyGame

    if not isinstance(game, RummyGame):
        raise TypeError(f"a rummy game's engine was expected, not {type(game).__name__}")
    return game


__all__ = ["RulesModule", "RummyVariant"]
