"""Color Gin's options and presets: what a game may change (target, co-op, jokers, void cap, tie-break...), the
presets ``sackson`` (the default), ``coop`` and ``coop_jokers``, the deck, the deal size
and who deals next. :mod:`companion.games.color_gin.rules` scores hands and matches with them
and offers every name here too.

>>> make_options("coop_jokers").coop, deal_size(2, make_options())
(True, 10)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from companion.errors import IllegalAction
from companion import cards as C
from companion import melds as M
from companion.rules.base import HandResult
from companion.games.options import bot_level_field, check_record, option_field, preset_options, resolve_options, with_overrides

VARIANT: Final = "color_gin"
SUIT_LETTERS: Final = C.SUITS  # "SHDC"
MELD_RULES: Final = M.STANDARD  # how its cards meld (the Variant carries it)
DECK: Final = C.STANDARD_DECK
PLAYERS: Final = range(2, 3)
HAND_SIZE: Final = 10

TieRule = Literal["undercut", "knocker_wins_zero", "no_score"]
Tiebreak = Literal["none", "total_points"]
StockEnd = Literal["void_at_2", "alternate_anyway"]
AutoDeclare = Literal["best_score", "least_deadwood", "most_open_suits"]


@dataclass(frozen=True)
class Options:
    """Color Gin options; every field carries a one-line ``help`` for the new-game
    screen and enumerated fields their ``choices``."""

    target: int = option_field(100, "points in a suit that close it; the first to reach it wins the suit",
                               minimum=1)
    knock_limit: int = option_field(10, "most deadwood a player may knock with")
    gin_bonus: int = option_field(20, "bonus for gin, added to the opponent's deadwood")
    undercut_bonus: int = option_field(10, "bonus to the defender who has less deadwood than the knocker")
    tie: TieRule = option_field(
        "undercut",
        "equal deadwood after a knock: the defender undercuts (0 + bonus), the knocker wins 0, or nobody scores",
        ("undercut", "knocker_wins_zero", "no_score"),
    )
    tiebreak: Tiebreak = option_field(
        "none",
        "a 2-2 game: stays a tie, or goes to the higher total over all four suits",
        ("none", "total_points"),
    )
    stock_end: StockEnd = option_field(
        "void_at_2",
        "after a void hand (stock down to 2): the same dealer deals again, or the deal alternates anyway",
        ("void_at_2", "alternate_anyway"),
    )
    void_cap: int = option_field(3, "this many void hands in a row end the game as it stands (0: no cap)")
    auto_declare: AutoDeclare = option_field(
        "best_score",
        "arrangement the engine declares for an ender who declares none: the one that scores the ender most, "
        "least deadwood first, or most open unspoiled suits first",
        ("best_score", "least_deadwood", "most_open_suits"),
    )
    no_same_card_discard: bool = option_field(True, "a card taken from the discard pile may not be discarded (nor knocked with) in the same turn")
    first_dealer: str = option_field(
        "random", "who deals first: drawn at random, or each player flips a card and the highest chooses to deal or not, or the lowest card deals (a tie flips again)",
        ("random", "flip_high_chooses", "flip_low_deals"),
    )
    coop: bool = option_field(False, "co-op variant: both players aim for a 2-2 tie; the team score is all eight columns added up")
    coop_jokers: bool = option_field(False, "co-op with jokers shuffled in: drawing one forces gin or a knock, even above the limit; the joker is the discard")

    bot_level: str = bot_level_field()
    def __post_init__(self) -> None:
        check_record(self, VARIANT)
        if self.target < 1:
            raise IllegalAction("color_gin option target must be at least 1")
        if self.coop_jokers and not self.coop:
            raise IllegalAction("color_gin option coop_jokers needs coop (the joker rule belongs to the co-op variant)")


PRESETS: Final[dict[str, Options]] = {
    "sackson": Options(),
    "coop": Options(coop=True),
    "coop_jokers": Options(coop=True, coop_jokers=True),
}
DEFAULT_PRESET: Final = "sackson"


def make_options(preset: str | None = None, **overrides: object) -> Options:
    """The options of ``preset`` (default ``sackson``) with ``overrides`` applied.

    >>> make_options(target=150).target
    150
    >>> make_options("cutthroat")
    Traceback (most recent call last):
    ...
    companion.errors.InvalidInput: unknown color_gin preset 'cutthroat' (one of sackson, coop, coop_jokers)
    """
    base = preset_options(PRESETS, preset, DEFAULT_PRESET, VARIANT)
    return with_overrides(base, overrides, VARIANT)


def _resolve(preset: str | None, options: Options | None, overrides: dict[str, object]) -> Options:
    """``options`` (with ``overrides`` on top) or the preset's options."""
    return resolve_options(preset, options, overrides, cls=Options, game=VARIANT, make=make_options)


def deck(options: Options) -> int:
    """The cards shuffled for a deal: the 52-card deck, plus both jokers with
    ``coop_jokers``."""
    return DECK | C.JOKER_MASK if options.coop_jokers else DECK


def deal_size(players: int, options: Options) -> int:
    """Cards dealt to each player: always 10."""
    _check_players(players)
    return HAND_SIZE


def next_dealer(result: HandResult, dealer: int, players: int, options: Options) -> int:
    """The deal alternates; after a void hand the same dealer deals again unless
    ``stock_end`` is ``alternate_anyway``."""
    _check_players(players)
    if result.kind == "void" and options.stock_end == "void_at_2":
        return dealer
    return (dealer + 1) % players


def _check_players(players: int) -> None:
    if players not in PLAYERS:
        raise IllegalAction(f"Color Gin is a game for 2 players, not {players}")


__all__ = [
    "VARIANT", "MELD_RULES", "SUIT_LETTERS", "DECK", "PLAYERS", "HAND_SIZE", "Options", "PRESETS", "DEFAULT_PRESET",
    "make_options", "deck", "deal_size", "next_dealer",
]
