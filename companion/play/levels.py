"""The bots' levels: ``options.bot_level`` = ``easy``, ``normal`` or ``strong``, for every
game's bots, and the one entry the dealt games call (:func:`seat_action`).

=========  ================================================================================
level      the bot that plays
=========  ================================================================================
easy       the first bots: :func:`companion.play.bot.basic_action` in the rummy games (the
           least deadwood after each discard, nothing more), the first Gin-Go bot
           (:func:`companion.play.gingo.bot.bot_move`)
normal     the bots that played every seat before levels (:func:`companion.play.bot.seat_policy`,
           :func:`companion.play.gingo.strong.strong_move`)
strong     gin: :mod:`companion.play.sharp` (reads what the opponent took, threw and let go
           by; samples the unseen cards before it knocks); Gin-Go:
           :func:`companion.play.gingo.search.search_move` (the normal bot's draws and
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

>>> from companion.play.rummy import RummyGame
>>> g = RummyGame("gin", seed=11)
>>> all(seat_action(g, level) in g.legal_actions() for level in LEVELS)
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from companion.games.options import BOT_LEVEL_HELP, BOT_LEVEL_WORDS, BOT_LEVELS
from companion.play.bot import BASIC, seat_policy
from companion.play.knowledge import seat_game
from companion.play.policy import Policy, play_turn
from companion.play.rummy_actions import Action

if TYPE_CHECKING:
    from companion.play.gingo.play import GingoPlay
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


def rummy_policy(variant: str, level: str) -> Policy:
    """The policy of a ``variant`` bot (``gin``, ``color_gin``, ``ginski``) at ``level``."""
    check_level(level)
    if level == "easy":
        return BASIC
    if level == "strong" and variant == "gin":
        from companion.play.sharp import sharp_policy

        return sharp_policy(variant)
    return seat_policy(variant)


def seat_action(game: RummyGame, level: str = DEFAULT_LEVEL) -> Action:
    """The ``level`` bot's action for the player to move in ``game``, chosen on what that
    seat knows only (:func:`companion.play.knowledge.seat_game`); always a legal one."""
    policy = rummy_policy(game.variant, level)
    view = seat_game(game, game.turn)
    return play_turn(view, policy)


def gingo_move(play: GingoPlay, level: str = DEFAULT_LEVEL, rng: random.Random | None = None) -> Any:
    """The ``level`` Gin-Go bot's next action (typed) for whoever is to move."""
    check_level(level)
    if level == "easy":
        from companion.play.gingo.bot import bot_move

        return bot_move(play, rng)
    if level == "strong":
        from companion.play.gingo.search import search_move

        return search_move(play, rng)
    from companion.play.gingo.strong import strong_move

    return strong_move(play, rng)


def gingo_action(play: GingoPlay, level: str = DEFAULT_LEVEL, rng: random.Random | None = None) -> dict[str, Any]:
    """:func:`gingo_move` as JSON."""
    out: dict[str, Any] = gingo_move(play, level, rng).to_dict()
    return out


__all__ = ["LEVELS", "DEFAULT_LEVEL", "LEVEL_WORDS", "HELP", "level_of", "check_level", "table_level", "rummy_policy",
           "seat_action", "gingo_move", "gingo_action"]
