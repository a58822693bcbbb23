"""Color Gin: scored suit by suit, each hand in the light of the suits closed before it.

>>> from companion.games import find_variant
>>> find_variant("color_gin").context_scoring
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from companion.errors import InvalidInput
from companion.games.deck import STANDARD, HandSizes
from companion.games.options import BOT_LEVEL_WORDS, same_as_normal
from companion.games.rummy import RulesModule, RummyVariant
from companion.games.color_gin import rules as color_gin
from companion.rules.base import HandResult, MatchScore

if TYPE_CHECKING:  # the bots load when first asked for, not with the registry
    from companion.play.policy import Policy
    from companion.play.sharp import SharpMixin


class ColorGin(RummyVariant):
    name = "color_gin"
    label = "Color Gin"
    seats = (2,)
    bonus_words = {"gin": ("gin bonus", "gin_bonus"), "undercut": ("undercut bonus", "undercut_bonus")}
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
    meld_rules = color_gin.MELD_RULES
    context_scoring = True
    deadwood_entry = False
    level_words = {**BOT_LEVEL_WORDS, "strong": same_as_normal("Color Gin")}

    def seat_policy(self) -> Policy:
        """The normal bot, at the strong level too (the sharp Color Gin bot lost to it):
        :mod:`companion.games.color_gin.bot` (knocks and discards weighed by the suits they score in)."""
        from companion.games.color_gin.bot import COLOR_GIN

        return COLOR_GIN

    def knock_reader(self) -> SharpMixin:
        """A hint weighs the undercut risk with the sharp Color Gin bot's sampling."""
        from companion.games.color_gin.sharp import SHARP_COLOR_GIN

        return SHARP_COLOR_GIN
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


__all__ = ["ColorGin"]
