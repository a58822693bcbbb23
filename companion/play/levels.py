"""The bots' levels: ``options.bot_level`` = ``easy``, ``normal`` or ``strong``, for every
game's bots, and the one way a rummy bot plays a dealt seat (:func:`seat_action`).

Which bot plays at which level is the game's to say, not this module's: each Variant
gives its bot per level (:meth:`companion.games.base.Variant.bot`; a rummy game's policy
is :meth:`companion.games.rummy.RummyVariant.bot_policy`), so nothing here names a game.
What they give today:

=========  ================================================================================
level      the bot that plays
=========  ================================================================================
easy       the first bots: :data:`companion.play.bot.BASIC` in the rummy games (the least
           deadwood after each discard, nothing more), the first Gin-Go bot
           (:func:`companion.games.gingo.play.bot.bot_move`)
normal     the bots that played every seat before levels (gin: :mod:`companion.play.strong`;
           Color Gin: :mod:`companion.games.color_gin.bot`; Ginski:
           :mod:`companion.games.ginski.bot`; Gin-Go: :func:`companion.games.gingo.play.strong.strong_move`)
strong     gin: :mod:`companion.play.sharp` (reads what the opponent took, threw and let go
           by; samples the unseen cards before it knocks); Gin-Go:
           :func:`companion.games.gingo.play.search.search_move` (the normal bot's draws and
           discards weighed by playing the hand out over deals the seat could be facing);
           Color Gin and Ginski: the normal bots (no stronger one has been measured yet;
           the sharp Color Gin bot lost to the normal one: docs/play.md)
=========  ================================================================================

The strong level applies to a bot that plays against at least one person. A table of
bots only (a demonstration: nobody's opponent) plays the normal level whatever its
options say (:func:`table_level`): the strong Gin-Go bot plays out a dozen deals per
decision, and a whole match of it inside one request would hold the table for tens of
seconds (minutes on a Pi Zero 2 W).

A rummy bot plays on :func:`companion.play.knowledge.seat_game`: a copy of the game in
which every card its seat cannot see is dealt again from what the seat knows, so its
choice depends on nothing else; every bot is deterministic for what its seat knows (a
Gin-Go bot for the generator it is given).

>>> from companion.play.bot import BASIC
>>> from companion.games import rummy_game
>>> g = rummy_game("gin", seed=11)
>>> seat_action(g, BASIC) in g.legal_actions()
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.options import BOT_LEVEL_HELP, BOT_LEVEL_WORDS, BOT_LEVELS
from companion.play.knowledge import seat_game
from companion.play.policy import Policy, play_turn
from companion.play.rummy_actions import Action

if TYPE_CHECKING:
    from companion.play.rummy import RummyGame

LEVELS = BOT_LEVELS
DEFAULT_LEVEL = "strong"
#: one line per level (Gin Rummy's; each game's are its Variant's ``level_words``)
LEVEL_WORDS = BOT_LEVEL_WORDS
HELP = BOT_LEVEL_HELP


def level_of(options: Any) -> str:
    """The bots' level a game's options ask for (``strong``, the default, when they do not say)."""
    level = getattr(options, "bot_level", None)
    if level is None and isinstance(options, dict):
        level = options.get("bot_level")
    return level if level in LEVELS else DEFAULT_LEVEL


def check_level(level: str) -> str:
    """``level`` if it is a level, else ``ValueError`` naming the levels."""
    if level not in LEVELS:
        raise ValueError(f"bot level must be one of {', '.join(LEVELS)}, not {level!r}")
    return level


def table_level(level: str, bots_only: bool) -> str:
    """The level a table's bots play: ``level``, except that a table of bots only plays
    the normal level in place of the strong one (see the module notes).

    >>> table_level("strong", bots_only=True), table_level("strong", bots_only=False)
    ('normal', 'strong')
    >>> table_level("easy", bots_only=True)
    'easy'
    """
    check_level(level)
    return "normal" if bots_only and level == "strong" else level


def seat_action(game: RummyGame, policy: Policy) -> Action:
    """``policy``'s action for the player to move in ``game`` (the game's Variant gives the
    policy of each level), chosen on what that seat knows only
    (:func:`companion.play.knowledge.seat_game`); always a legal one."""
    view = seat_game(game, game.turn)
    return play_turn(view, policy)


__all__ = ["LEVELS", "DEFAULT_LEVEL", "LEVEL_WORDS", "HELP", "level_of", "check_level", "table_level",
           "seat_action"]
