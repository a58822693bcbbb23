"""Gin Rummy: the classic two-player game, and the pagat partnership for four (two
teams, each hand two pair games entered together; its teams are :meth:`GinRummy.sides`).

>>> from companion.games import find_variant
>>> find_variant("gin").sides(4)
{'0': [0, 2], '1': [1, 3]}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from companion.errors import InvalidInput
from companion.games.deck import STANDARD, HandSizes
from companion.games.seams import TeamPlay, TeamRules
from companion.games.gin import partnership as team_play
from companion.games.rummy import RulesModule, RummyVariant
from companion.games.gin import rules as gin
from companion.games.gin import teams
from companion.rules.base import HandResult, MatchScore

if TYPE_CHECKING:  # the bots load when first asked for, not with the registry
    from companion.play.policy import Policy
    from companion.play.sharp import SharpMixin


class GinRummy(RummyVariant):
    name = "gin"
    label = "Gin Rummy"
    seats = (2,)
    deck = STANDARD
    options_class = gin.Options
    default_preset = gin.DEFAULT_PRESET
    rules: ClassVar[RulesModule] = gin
    meld_rules = gin.MELD_RULES
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

    hosts_outings = True
    team_plays = {"partnership": {"team_mode": "pagat_partnership"}, "outing": {"team_mode": "pair_tournament"}}
    bonus_words = {"gin": ("gin bonus", "gin_bonus"), "big_gin": ("big gin bonus", "big_gin_bonus"),
                   "undercut": ("undercut bonus", "undercut_bonus")}

    def seat_policy(self) -> Policy:
        """The normal bot: :mod:`companion.play.strong` (knock timing, live outs, safe discards)."""
        from companion.play.strong import STRONG

        return STRONG

    def strong_policy(self) -> Policy:
        """The strong bot: :mod:`companion.play.sharp`'s gin bot (reads the opponent, samples before a knock)."""
        from companion.play.sharp import SHARP_GIN

        return SHARP_GIN

    def knock_reader(self) -> SharpMixin:
        from companion.play.sharp import SHARP_GIN

        return SHARP_GIN

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

    def sides(self, players: int) -> dict[str, list[int]] | None:
        """The partnership's two teams (four players: its ``winner`` is a team), else None."""
        if players != len(teams.TABLES) * 2:
            return None
        return {str(t): list(seats) for t, seats in enumerate(teams.TEAMS)}

    def team_play(self, options: Any) -> TeamPlay | None:
        """The partnership (:mod:`companion.games.gin.partnership`) for its options."""
        if not self.partnership(options):
            return None
        return team_play

    def team_rules(self) -> TeamRules:
        """Seed 004's outing and the quick team scores: :mod:`companion.games.gin.team_rules`."""
        from companion.games.gin import team_rules

        return team_rules

    def stock_showdown(self, options: Any) -> bool:
        return bool(getattr(options, "stock_end", None) == "showdown_at_2")

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


__all__ = ["GinRummy"]
