"""The rummy games of the registry: Gin Rummy, Color Gin and Ginski.

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
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from companion.errors import InvalidInput
from companion.games.base import RUMSKI, STANDARD, Deck, HandSizes, Variant, players_of, preset_from
from companion.games.options import Preset
from companion.rules import color_gin, gin, ginski, teams
from companion.rules.base import HandResult, MatchScore

if TYPE_CHECKING:  # full play loads when a game is first played, not with the registry
    from companion.play import rummy as play


class RulesModule(Protocol):
    """What the table needs of a rummy rules module (see :mod:`companion.rules.base`);
    mypy checks each module against it."""

    @property
    def PRESETS(self) -> Mapping[str, Any]: ...

    def make_options(self, preset: str | None = None, **overrides: Any) -> Any: ...

    def deal_size(self, players: int, options: Any) -> int: ...

    def score_hand(self, hands: Sequence[Any], ender: int | None, preset: str | None = None, *,
                   options: Any = None, **overrides: Any) -> HandResult: ...

    def score_match(self, results: Sequence[HandResult], players: int, options: Any) -> MatchScore: ...

    def start_match(self, players: int, options: Any) -> MatchScore: ...

    def add_hand(self, match: MatchScore, result: HandResult, options: Any) -> MatchScore: ...

    def next_dealer(self, result: HandResult, dealer: int, players: int, options: Any) -> int: ...


class RummyVariant(Variant):
    """A game whose hands are scored at the table from the cards (or deadwood counts)."""

    play_style = "hands"
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

    def entries(self, options: Any) -> dict[str, bool]:
        """Which fields a hand entry takes beyond the cards and the ender."""
        return {"deadwood": self.deadwood_entry, "upcard": False, "declared": True, "joker": False,
                "big_gin": self.big_bonus(options) > 0}

    def table_rules(self, options: Any, players: int) -> dict[str, Any]:
        return {**super().table_rules(options, players), "entries": self.entries(options),
                "gin_word": self.gin_word, "big_word": self.big_word, "big_bonus": self.big_bonus(options),
                "suit_columns": self.context_scoring}

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

    # -- full play and its bot -----------------------------------------------------------

    def new_play(self, players: int | None = None, *, seed: int = 0, preset: str | None = None,
                 options: Any = None, dealer: int | None = None) -> play.RummyGame:
        """A whole match dealt from ``seed``, played through actions (see :mod:`companion.play.rummy`);
        ``options`` (a record) or ``preset`` go through :meth:`make_options` like a table game's."""
        if options is None:
            options = self.make_options(preset, {}, players or self.seats[0])
        from companion.play import rummy as play
        return play.RummyGame(self.name, players=players, seed=seed, options=options, dealer=dealer)

    def bot_action(self, game: play.RummyGame, rng: random.Random | None = None) -> play.Action:
        """The bot's move in ``game``."""
        from companion.play.bot import choose_action

        return choose_action(game)

    def selfplay(self, seed: int, players: int | None = None, *, check: bool = True,
                 preset: str | None = None) -> dict[str, Any]:
        """Bots play one whole match from ``seed`` (invariants checked with ``check``)."""
        options = self.make_options(preset, {}, players or self.seats[0])
        from companion.play.rummy_selfplay import selfplay_match

        return selfplay_match(seed, self.name, players=players, check=check, options=options)


class GinRummy(RummyVariant):
    name = "gin"
    label = "Gin Rummy"
    seats = (2,)
    deck = STANDARD
    options_class = gin.Options
    default_preset = gin.DEFAULT_PRESET
    rules: ClassVar[RulesModule] = gin
    preset_words = {
        "gin_002": ("Short rules (seed 002)", "under the knock limit to knock, a showdown at the end of the "
                    "stock, no game or box bonus"),
        "gin_004": ("Full rules with boxes (seed 004)", "game bonus 100, 25 a box, a shutout doubles the total"),
        "pagat": ("Classic (pagat.com)", "gin 20, undercut 10, a shutout doubles the game bonus"),
        "modern": ("Modern (with big gin)", "big gin 31, the deal alternates, a shutout doubles the points"),
    }
    option_labels = {"knock_limit": "Knock limit", "knock_compare": "Knock with deadwood",
                     "gin_bonus": "Gin bonus", "undercut_bonus": "Undercut bonus", "big_gin_bonus": "Big gin bonus",
                     "game_target": "Game target", "game_bonus": "Game bonus", "box_bonus": "Box bonus",
                     "oklahoma": "Oklahoma gin", "upcard": "Upcard (Oklahoma)",
                     "no_same_card_discard": "No discarding the card just picked up",
                     "first_dealer": "First dealer", "team_mode": "Team play",
                     "team_target": "Team target (partnership)", "outing_target": "Outing target score",
                     "outing_minutes": "Outing time limit (minutes)"}
    choice_labels = {"knock_compare": {"le": "up to the limit", "lt": "below the limit"},
                     "first_dealer": {"random": "drawn at random", "flip_high_chooses": "flip: highest chooses",
                                      "flip_low_deals": "flip: lowest deals"},
                     "team_mode": {"none": "none (two players)", "pagat_partnership": "partnership (4 players)",
                                   "pair_tournament": "outing of pair matches"},
                     "stock_end": {"void_at_2": "void: nobody scores", "showdown_at_2": "showdown: lower deadwood scores"},
                     "shutout": {"none": "no shutout bonus", "double_total": "double the total",
                                 "double_game_bonus": "double the game bonus", "double_points": "double the hand points"},
                     "next_dealer": {"winner": "the hand's winner", "loser": "the hand's loser", "alternate": "in turn"}}

    def _build_options(self, preset: str | None, overrides: dict[str, Any], players: int) -> Any:
        options = super()._build_options(preset, overrides, players)
        partnership = options.team_mode == "pagat_partnership"
        if partnership and players != teams.PARTNERSHIP_PLAYERS:
            # the partnership's four players share one game: two pair games per hand
            raise InvalidInput(f"team_mode pagat_partnership: four players in two teams (seats 0 and 2 against "
                               f"1 and 3), each hand two pair games entered together; this game seats {players}",
                               code="invalid_options",
                               details={"option": "team_mode", "value": "pagat_partnership", "players": players})
        if not partnership and players == teams.PARTNERSHIP_PLAYERS:
            raise InvalidInput("Gin Rummy for four players is the partnership: set the option team_mode to "
                               "pagat_partnership", code="invalid_options",
                               details={"option": "team_mode", "players": players})
        return options

    @staticmethod
    def partnership(options: Any) -> bool:
        """Whether a game with ``options`` is the pagat partnership (four players, two teams)."""
        return getattr(options, "team_mode", None) == "pagat_partnership"

    def seat_choices(self) -> list[dict[str, Any]]:
        """Two players, or four as the partnership (which the option ``team_mode`` sets)."""
        return [*super().seat_choices(),
                {"players": teams.PARTNERSHIP_PLAYERS, "label": f"{teams.PARTNERSHIP_PLAYERS} (partnership)",
                 "options": {"team_mode": "pagat_partnership"}, "teams": [list(t) for t in teams.TEAMS],
                 "help": "Partnership: players 1 and 3 are team A, players 2 and 4 team B. Each hand is two "
                         "games at once (1 v 2 and 3 v 4), entered together."}]

    def check_seats(self, players: int, overrides: Mapping[str, Any] | None = None) -> None:
        if isinstance(overrides, Mapping) and overrides.get("team_mode") == "pagat_partnership":
            if players != teams.PARTNERSHIP_PLAYERS:
                raise InvalidInput(f"team_mode pagat_partnership: four players in two teams (seats 0 and 2 "
                                   f"against 1 and 3), not {players}", code="invalid_players",
                                   details={"players": players, "seats": [teams.PARTNERSHIP_PLAYERS]})
            return
        if players == teams.PARTNERSHIP_PLAYERS:
            raise InvalidInput("gin is played by 2 players, not 4; four players play the partnership: "
                               "set the option team_mode to pagat_partnership", code="invalid_players",
                               details={"players": players, "seats": list(self.seats)})
        super().check_seats(players)

    def hand_sizes(self, options: Any, players: int) -> HandSizes:
        if self.partnership(options):  # each pair game is a two-player deal
            return super().hand_sizes(options, 2)
        return super().hand_sizes(options, players)

    def start_match(self, players: int, options: Any) -> MatchScore:
        if self.partnership(options):
            return teams.start_partnership(options)
        return super().start_match(players, options)

    def add_hand(self, match: MatchScore, result: HandResult, options: Any) -> MatchScore:
        if self.partnership(options):
            return teams.add_partnership_hand(match, result, options)
        return super().add_hand(match, result, options)

    def next_dealer(self, result: HandResult, dealer: int, players: int, options: Any) -> int:
        if self.partnership(options):  # each pair game keeps its own deal, at its own table
            return dealer
        return super().next_dealer(result, dealer, players, options)

    def table_rules(self, options: Any, players: int) -> dict[str, Any]:
        out = super().table_rules(options, players)
        if self.partnership(options):
            out.update(team_mode="pagat_partnership", teams=[list(t) for t in teams.TEAMS],
                       tables=[list(t) for t in teams.TABLES], team_target=int(options.team_target))
        return out

    def big_bonus(self, options: Any) -> int:
        return int(getattr(options, "big_gin_bonus", 0) or 0)

    def score_from_deadwood(self, deadwood: Sequence[int], ender: int | None, options: Any, *,
                            big_gin: bool = False, upcard: str | None = None) -> dict[str, Any]:
        extra: dict[str, Any] = {"upcard": upcard} if upcard is not None else {}
        return dict(gin.score_from_deadwood(list(deadwood), ender, options=options, big_gin=big_gin,
                                            **extra).as_dict())

    def entries(self, options: Any) -> dict[str, bool]:
        return {**super().entries(options), "upcard": bool(getattr(options, "oklahoma", False))}


class ColorGin(RummyVariant):
    name = "color_gin"
    label = "Color Gin"
    seats = (2,)
    deck = STANDARD
    options_class = color_gin.Options
    choice_labels = {"tie": {"undercut": "the defender undercuts", "knocker_wins_zero": "the knocker wins 0",
                             "no_score": "nobody scores"},
                     "tiebreak": {"none": "stays a tie", "total_points": "higher total of all four suits"},
                     "stock_end": {"void_at_2": "void: nobody scores", "alternate_anyway": "void, and the deal passes anyway"},
                     "auto_declare": {"best_score": "the best score", "least_deadwood": "the least deadwood",
                                      "most_open_suits": "the most open suits"},
                     "first_dealer": {"random": "drawn at random", "flip_high_chooses": "flip: highest chooses",
                                      "flip_low_deals": "flip: lowest deals"},}
    default_preset = color_gin.DEFAULT_PRESET
    rules: ClassVar[RulesModule] = color_gin
    context_scoring = True
    deadwood_entry = False
    declared_help = ("Leave empty to let the companion choose the arrangement that leaves the most open suits "
                     "unspoiled.")
    preset_words = {
        "sackson": ("Sid Sackson's rules", "each suit is scored on its own; three suits win"),
        "coop": ("Co-op", "both players aim for a 2-2 tie; the team score is all eight columns"),
        "coop_jokers": ("Co-op with jokers", "co-op, with both jokers in the stock: drawing one ends the hand"),
    }

    def hand_sizes(self, options: Any, players: int) -> HandSizes:
        return HandSizes(int(self.rules.deal_size(players, options)), None)

    def entries(self, options: Any) -> dict[str, bool]:
        return {**super().entries(options), "declared": True, "joker": bool(getattr(options, "coop_jokers", False))}

    def score_hand(self, hands: Sequence[Any], ender: int | None, options: Any, *,
                   prior: Sequence[HandResult] = (), players: int = 2, declared: Any = None,
                   joker: bool = False, upcard: str | None = None, match: MatchScore | None = None) -> dict[str, Any]:
        if upcard is not None:
            raise InvalidInput("\"upcard\" is for Oklahoma gin only", code="invalid_hand")
        before = match if match is not None else self.score_match(prior, players, options)
        kwargs: dict[str, Any] = {"options": options, "closed": before}
        if declared is not None:
            kwargs["declared"] = declared
        if joker:
            kwargs["joker"] = True
        return dict(self.rules.score_hand(list(hands), ender, **kwargs).as_dict())


class Ginski(RummyVariant):
    name = "ginski"
    label = "Ginski"
    seats = (3, 2, 4)
    deck = RUMSKI
    options_class = ginski.Options
    choice_labels = {"undercut_tie": {"first_in_turn_order_after_ender": "the first after the ender takes it",
                                      "split": "they split it", "both_full": "each scores in full"},
                     "layoffs": {"none": "no lay-offs", "onto_ender_melds": "onto the ender's melds"},
                     "stock_end": {"void_at_2": "void: nobody scores", "pass_left": "void, and the deal passes left"},
                     "after_all_pass": {"must_draw_stock": "must draw from the stock",
                                        "may_take_upcard": "may take the upcard"},
                     "first_dealer": {"random": "drawn at random", "flip_high_chooses": "flip: highest chooses",
                                      "flip_low_deals": "flip: lowest deals"},}
    default_preset = ginski.DEFAULT_PRESET
    rules: ClassVar[RulesModule] = ginski
    gin_word = "Ginski"
    big_word = "Big Ginski"
    declared_help = "Leave empty to let the companion choose the arrangement that leaves the least deadwood."
    preset_words = {
        "ginski": ("Three players (as written)", "ten cards each, first to 100"),
        "ginski_2p": ("Two players", "twelve cards each"),
        "ginski_4p": ("Four players", "ten cards each"),
    }

    def big_bonus(self, options: Any) -> int:
        return int(getattr(options, "big_ginski_bonus", 0) or 0)

    def score_from_deadwood(self, deadwood: Sequence[int], ender: int | None, options: Any, *,
                            big_gin: bool = False, upcard: str | None = None) -> dict[str, Any]:
        if upcard is not None:
            raise InvalidInput("\"upcard\" is for Oklahoma gin only", code="invalid_hand")
        return dict(ginski.score_from_deadwood(list(deadwood), ender, options=options, big_gin=big_gin).as_dict())


__all__ = ["RummyVariant", "GinRummy", "ColorGin", "Ginski"]
