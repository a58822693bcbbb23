"""Gin Rummy's options and presets: what a game may change (knock limit, bonuses, target, dealing...), the
presets ``gin_002``, ``gin_004`` (the default), ``pagat`` and ``modern``, the knock
limit, how a kept hand may end and the deal size. :mod:`companion.games.gin.rules` scores
hands and matches with them and offers every name here too.

>>> make_options("pagat").box_bonus, knock_limit(make_options("gin_004"))
(20, 10)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Final

from companion.errors import IllegalAction
from companion import cards as C
from companion import melds as M
from companion.rules.base import MatchScore
from companion.games.options import bot_level_field, check_record, preset_options, resolve_options, with_overrides

VARIANT: Final = "gin"
MELD_RULES: Final = M.STANDARD  # how its cards meld (the Variant carries it)
DECK: Final = C.STANDARD_DECK
PLAYERS: Final = range(2, 3)
HAND_SIZE: Final = 10

_RULES: Final = M.STANDARD


@dataclass(frozen=True)
class Options:
    """Every Gin Rummy rule the engine can vary. Build one with :func:`make_options`."""

    knock_limit: int = field(default=10, metadata={
        "help": "Most deadwood a player may hold and still knock."})
    knock_compare: str = field(default="le", metadata={
        "help": "Knock with deadwood up to the limit, or only below it (the short rules "
                "of seed 002).",
        "choices": ("le", "lt")})
    undercut_on_tie: bool = field(default=True, metadata={
        "help": "Equal deadwood after a knock counts as an undercut by the defender."})
    gin_bonus: int = field(default=25, metadata={
        "help": "Bonus for going gin, on top of the opponent's deadwood."})
    undercut_bonus: int = field(default=25, metadata={
        "help": "Bonus for undercutting a knocker, on top of the difference."})
    big_gin_bonus: int = field(default=0, metadata={
        "help": "Bonus for big gin (all 11 cards melded, no discard); 0 = no big gin, "
                "the player discards and goes gin."})
    gin_can_be_undercut: bool = field(default=False, metadata={
        "help": "A defender with 0 deadwood undercuts a gin (needs 'equal deadwood is an undercut')."})
    layoff_after_gin: bool = field(default=False, metadata={
        "help": "The defender may lay off onto the melds of a player who went gin."})
    stock_end: str = field(default="void_at_2", metadata={
        "help": "When two stock cards remain: void (no score, the same dealer deals "
                "again), or a showdown (the lower deadwood scores the difference).",
        "choices": ("void_at_2", "showdown_at_2")})
    last_discard_rescue: bool = field(default=False, metadata={
        "help": "Facing a two-card stock, a player may take the last discard only to "
                "knock or go gin with it."})
    game_target: int = field(default=100, metadata={
        "help": "Points that end the match (boxes do not count toward it).", "min": 1})
    game_bonus: int = field(default=100, metadata={
        "help": "Bonus for the player who reaches the target."})
    shutout: str = field(default="double_total", metadata={
        "help": "When the loser won no hand: double the winner's total with the game "
                "bonus, double the game bonus only, double the hand points, or nothing.",
        "choices": ("none", "double_total", "double_game_bonus", "double_points")})
    box_bonus: int = field(default=25, metadata={
        "help": "Bonus per hand won, added at the end of the match after any doubling."})
    next_dealer: str = field(default="winner", metadata={
        "help": "Who deals the next hand: the hand's winner, its loser, or the players "
                "in turn. After a void hand the same dealer deals again.",
        "choices": ("winner", "loser", "alternate")})
    oklahoma: bool = field(default=False, metadata={
        "help": "Oklahoma Gin: the upcard's value is the knock limit; an ace upcard "
                "means gin only."})
    oklahoma_spades_double: bool = field(default=False, metadata={
        "help": "Oklahoma: a hand whose upcard is a spade scores double."})
    no_same_card_discard: bool = field(default=True, metadata={
        "help": "A card taken from the discard pile may not be discarded (nor knocked "
                "with) in the same turn."})
    first_dealer: str = field(default="random", metadata={
        "help": "Who deals the first hand: drawn at random; or each player flips a card "
                "and the highest chooses to deal or not (seed 004); or the lowest card "
                "deals. A tie flips again.",
        "choices": ("random", "flip_high_chooses", "flip_low_deals")})
    team_mode: str = field(default="none", metadata={
        "help": "Team play: none (two players); a partnership of four, partners "
                "sitting across against the other two, two pair games per hand, the team "
                "with more points scores the difference (both won: the sum); or seed "
                "004's outing: two sides, pair matches, winners play winners.",
        "choices": ("none", "pagat_partnership", "pair_tournament")})
    team_target: int = field(default=125, metadata={
        "help": "Partnership: the team total that wins (pagat: 125)."})
    outing_target: int = field(default=0, metadata={
        "help": "Pair tournament: the outing ends once a side's total reaches this "
                "(0 = no target score)."})
    outing_minutes: int = field(default=0, metadata={
        "help": "Pair tournament: the outing ends after this many minutes "
                "(0 = no time limit)."})
    upcard: str | None = field(default=None, metadata={
        "help": "Oklahoma: this hand's upcard (set per hand, e.g. '7D').",
        "per_hand": True})
    bot_level: str = bot_level_field()

    def __post_init__(self) -> None:
        check_record(self, VARIANT)  # an upcard is written back by name ("♦7" is "7D")


_PRESETS_BASE: Final = Options()

PRESETS: Final[dict[str, Options]] = {
    "gin_002": dataclasses.replace(
        _PRESETS_BASE, knock_compare="lt", stock_end="showdown_at_2", game_bonus=0,
        shutout="none", box_bonus=0),
    "gin_004": dataclasses.replace(_PRESETS_BASE, first_dealer="flip_high_chooses"),
    "pagat": dataclasses.replace(
        _PRESETS_BASE, gin_bonus=20, undercut_bonus=10, shutout="double_game_bonus",
        box_bonus=20, first_dealer="flip_low_deals"),
    "modern": dataclasses.replace(
        _PRESETS_BASE, big_gin_bonus=31, shutout="double_points", next_dealer="alternate"),
}
ALIASES: Final[dict[str, str]] = {"gin_pagat": "pagat", "gin_modern": "modern"}
DEFAULT_PRESET: Final = "gin_004"

def make_options(preset: str | None = None, **overrides: Any) -> Options:
    """The options of ``preset`` (default ``gin_004``) with ``overrides`` applied.

    >>> make_options("gin_pagat").gin_bonus
    20
    >>> make_options("gin_002", undercut_on_tie=False).knock_compare
    'lt'
    >>> make_options(knock_limt=9)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.errors.InvalidInput: unknown gin option 'knock_limt' (one of knock_limit, knock_compare, ...)
    """
    return with_overrides(preset_options(PRESETS, preset, DEFAULT_PRESET, VARIANT, ALIASES), overrides, VARIANT)


def _resolve(preset: str | None, options: Options | None, overrides: dict[str, Any]) -> Options:
    return resolve_options(preset, options, overrides, cls=Options, game=VARIANT, make=make_options)


# ---------------------------------------------------------------------------
# Ending a hand


def knock_limit(options: Options) -> int:
    """The most deadwood a knocker may hold under ``options`` (0: gin only).

    With ``knock_compare='lt'`` a limit of 10 means 9 or less. In Oklahoma the
    upcard's value is the limit and an ace upcard means gin only.

    >>> knock_limit(make_options("gin_002")), knock_limit(make_options())
    (9, 10)
    >>> knock_limit(make_options(oklahoma=True, upcard="AS"))
    0
    """
    if options.oklahoma:
        if options.upcard is None:
            raise IllegalAction("Oklahoma gin needs the hand's upcard (option upcard)")
        up = C.parse_card(options.upcard)
        if C.rank(up) == 1:
            return 0
        limit = C.gin_value(up)
    else:
        limit = options.knock_limit
    return limit - 1 if options.knock_compare == "lt" else limit


def end_kind(kept: int, options: Options, match: MatchScore | None = None,
             seat: int = 0) -> str | None:
    """How a player keeping the cards ``kept`` (a mask) may end the hand, if at all.

    10 cards: ``"gin"`` with no deadwood, ``"knock"`` within the knock limit;
    11 cards: ``"big_gin"`` when the preset has big gin and all 11 meld.

    >>> end_kind(C.to_mask("AS 2S 3S 4S 9D 9H 9C KH QH JH"), make_options())
    'gin'
    >>> end_kind(C.to_mask("AS 2S 3S 10C 9D 9H 9C KH QH JH"), make_options())
    'knock'
    >>> end_kind(C.to_mask("AS 2S 3S 10C 9D 9H 9C KH QH JH"), make_options("gin_002"))
    """
    n = kept.bit_count()
    if kept < 0 or kept & ~DECK or n not in (HAND_SIZE, HAND_SIZE + 1):
        return None
    dw = M.deadwood_of_mask(kept, MELD_RULES)
    if n == HAND_SIZE + 1:
        return "big_gin" if options.big_gin_bonus > 0 and dw == 0 else None
    if dw == 0:
        return "gin"
    return "knock" if dw <= knock_limit(options) else None


def deal_size(players: int, options: Options) -> int:
    """Cards dealt to each player: always 10 in Gin Rummy.

    >>> deal_size(2, make_options())
    10
    """
    if players not in PLAYERS:
        raise IllegalAction(f"Gin Rummy is for 2 players, not {players}")
    return HAND_SIZE


__all__ = ["VARIANT", "MELD_RULES", "DECK", "PLAYERS", "HAND_SIZE", "Options", "PRESETS", "ALIASES",
           "DEFAULT_PRESET", "make_options", "knock_limit", "end_kind", "deal_size"]
