"""Ginski: three or more players with the 70-card Rumski deck and its wilds.

>>> from companion.games import find_variant
>>> find_variant("ginski").seats
(3, 2, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from companion.errors import InvalidInput
from companion.games.deck import RUMSKI
from companion.games.options import BOT_LEVEL_WORDS, same_as_normal
from companion.games.rummy import RulesModule, RummyVariant
from companion.games.ginski import rules as ginski

if TYPE_CHECKING:  # the bots load when first asked for, not with the registry
    from companion.play.policy import Policy


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
    meld_rules = ginski.MELD_RULES
    gin_word = "Ginski"
    bonus_words = {"gin": ("Ginski bonus", "ginski_bonus"), "big_gin": ("Big Ginski bonus", "big_ginski_bonus"),
                   "undercut": ("undercut bonus", "undercut_bonus")}
    undercut_takes_others = True
    big_word = "Big Ginski"
    level_words = {**BOT_LEVEL_WORDS, "strong": same_as_normal("Ginski")}
    declared_help = "Leave empty to let the companion choose the arrangement that leaves the least deadwood."
    preset_words = {
        "ginski": ("Three players (as written)", "ten cards each, first to 100"),
        "ginski_2p": ("Two players", "twelve cards each"),
        "ginski_4p": ("Four players", "ten cards each"),
    }

    def seat_policy(self) -> Policy:
        """The normal bot, at the strong level too: :mod:`companion.games.ginski.bot` (ends the
        round whenever allowed; draws and discards for the chance to end it next turn). The
        searching bot, :mod:`companion.games.ginski.search`, did not beat it (docs/play.md:
        49.6% per seat over 300 matches), so it does not play a level."""
        from companion.games.ginski.bot import GINSKI

        return GINSKI

    def big_bonus(self, options: Any) -> int:
        return int(getattr(options, "big_ginski_bonus", 0) or 0)

    def score_from_deadwood(self, deadwood: Sequence[int], ender: int | None, options: Any, *,
                            big_gin: bool = False, upcard: str | None = None) -> dict[str, Any]:
        if upcard is not None:
            raise InvalidInput("\"upcard\" is for Oklahoma gin only", code="invalid_hand")
        return dict(ginski.score_from_deadwood(list(deadwood), ender, options=options, big_gin=big_gin).as_dict())


__all__ = ["Ginski"]
