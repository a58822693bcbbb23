"""Ginski's options and presets: what a game may change (target, bonuses, lay-offs, the stock's end...), the
presets ``ginski`` (the default, three players), ``ginski_2p`` and ``ginski_4p``, the deal
size, who deals next, how a kept hand may end and the default declaration.
:mod:`companion.games.ginski.rules` scores rounds and matches with them and offers every name
here too.

>>> make_options("ginski_2p").players, deal_size(4, make_options("ginski_4p"))
(2, 10)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from companion.errors import IllegalAction
from companion import cards as C
from companion import melds as M
from companion.rules.base import HandResult, MatchScore
from companion.games.options import bot_level_field, check_record, option_field, preset_options, resolve_options, with_overrides

VARIANT: Final = "ginski"
MELD_RULES: Final = M.RUMSKI  # how its cards meld (the Variant carries it)
DECK: Final = C.RUMSKI_DECK
PLAYERS: Final = range(2, 5)

UndercutTie = Literal["first_in_turn_order_after_ender", "split", "both_full"]
Layoffs = Literal["none", "onto_ender_melds"]
StockEnd = Literal["void_at_2", "pass_left"]
AfterAllPass = Literal["must_draw_stock", "may_take_upcard"]


@dataclass(frozen=True)
class Options:
    """Ginski options; every field carries a one-line ``help`` for the new-game screen
    and enumerated fields their ``choices``."""

    players: int = option_field(3, "number of players (3 is the game as written; 2 and 4 use the same formulas)", (2, 3, 4))
    deal: int = option_field(10, "cards dealt to each player with 3 or 4 players", minimum=1)
    deal_two_players: int = option_field(12, "cards dealt to each player in a 2-player game", minimum=1)
    end_limit: int = option_field(13, "most deadwood a player may end the round with")
    ginski_bonus: int = option_field(25, "bonus for a Ginski (every kept card melded)")
    big_ginski_bonus: int = option_field(31, "bonus for a Big Ginski (all cards melded including the one drawn, no discard)")
    undercut_bonus: int = option_field(25, "bonus for the opponent who undercuts the ender")
    undercut_on_tie: bool = option_field(False, "an opponent with deadwood equal to the ender's also undercuts")
    undercut_tie: UndercutTie = option_field(
        "first_in_turn_order_after_ender",
        "two opponents tie for the lowest deadwood below the ender: the first after the ender takes it, they split it, or both score in full",
        ("first_in_turn_order_after_ender", "split", "both_full"),
    )
    layoffs: Layoffs = option_field(
        "none", "opponents lay no cards off, or lay off onto the ender's melds (never after a Ginski)",
        ("none", "onto_ender_melds"),
    )
    target: int = option_field(100, "the first to reach this many points wins the game", minimum=1)
    stock_end: StockEnd = option_field(
        "void_at_2", "after a void hand (stock down to 2): the same dealer deals again, or the deal passes left",
        ("void_at_2", "pass_left"),
    )
    no_same_card_discard: bool = option_field(True, "a card taken from the discard pile may not be discarded (nor knocked with) in the same turn")
    first_dealer: str = option_field(
        "random", "who deals first: drawn at random, or each player flips a card and the highest chooses to deal or not, or the lowest card deals (a tie flips again)",
        ("random", "flip_high_chooses", "flip_low_deals"),
    )
    after_all_pass: AfterAllPass = option_field(
        "must_draw_stock", "when everyone passes the upcard, the first player must draw from the stock, or may take the upcard",
        ("must_draw_stock", "may_take_upcard"),
    )

    bot_level: str = bot_level_field()
    def __post_init__(self) -> None:
        check_record(self, VARIANT)
        for name in ("deal", "deal_two_players", "target"):
            if getattr(self, name) < 1:
                raise IllegalAction(f"ginski option {name} must be at least 1")
        per = self.deal_two_players if self.players == 2 else self.deal
        if self.players * per + 3 > C.popcount(DECK):
            raise IllegalAction(
                f"ginski: {self.players} hands of {per} cards leave no stock in the 70-card deck"
            )


PRESETS: Final[dict[str, Options]] = {
    "ginski": Options(),
    "ginski_2p": Options(players=2),
    "ginski_4p": Options(players=4),
}
DEFAULT_PRESET: Final = "ginski"


def make_options(preset: str | None = None, **overrides: object) -> Options:
    """The options of ``preset`` (default ``ginski``) with ``overrides`` applied.

    >>> make_options(undercut_on_tie=True).undercut_on_tie
    True
    >>> make_options(layoffs="always")
    Traceback (most recent call last):
    ...
    companion.errors.InvalidInput: ginski option layoffs must be one of none, onto_ender_melds, got 'always'
    """
    base = preset_options(PRESETS, preset, DEFAULT_PRESET, VARIANT)
    return with_overrides(base, overrides, VARIANT)


def _resolve(preset: str | None, options: Options | None, overrides: dict[str, object]) -> Options:
    return resolve_options(preset, options, overrides, cls=Options, game=VARIANT, make=make_options)


def deal_size(players: int, options: Options) -> int:
    """Cards dealt to each player: 10, or 12 in a 2-player game.

    >>> deal_size(3, Options()), deal_size(2, Options())
    (10, 12)
    """
    if players not in PLAYERS:
        raise IllegalAction(f"Ginski is for 2 to 4 players, not {players}")
    return options.deal_two_players if players == 2 else options.deal


def next_dealer(result: HandResult, dealer: int, players: int, options: Options) -> int:
    """The deal passes left; after a void hand the same dealer deals again unless
    ``stock_end`` is ``pass_left``."""
    deal_size(players, options)
    if result.kind == "void" and options.stock_end == "void_at_2":
        return dealer
    return (dealer + 1) % players


def end_kind(kept: int, options: Options, match: MatchScore | None = None, seat: int = 0) -> str | None:
    """How a player keeping the card mask ``kept`` may end the round: ``"big_gin"``
    (a Big Ginski: one card more than the deal, all melded), ``"gin"`` (a Ginski),
    ``"knock"`` (deadwood at most ``end_limit``) or None.

    >>> end_kind(C.to_mask("R1 R2 R3 B5 B6 B7 G9 G10 G11 Y8"), Options())
    'knock'
    """
    deal = deal_size(options.players, options)
    n = kept.bit_count()
    if kept & ~DECK or n not in (deal, deal + 1):
        return None
    dw = M.deadwood_of_mask(kept, MELD_RULES)
    if n == deal + 1:
        return "big_gin" if dw == 0 else None
    if dw == 0:
        return "gin"
    return "knock" if dw <= options.end_limit else None


def best_declaration(kept: int, options: Options | None = None) -> list[list[str]]:
    """The melds a player keeping ``kept`` declares by default: a least-deadwood
    arrangement (wilds written ``W1=R5``).

    >>> best_declaration(C.to_mask("R1 R2 W1 B5 B6 B7 G9 G10 G11 Y8"))
    [['R1', 'R2', 'W1=R3'], ['B5', 'B6', 'B7'], ['G9', 'G10', 'G11']]
    """
    return [m.names() for m in M.best_arrangement(kept, MELD_RULES).melds]


__all__ = [
    "VARIANT", "MELD_RULES", "DECK", "PLAYERS", "Options", "PRESETS", "DEFAULT_PRESET", "make_options", "deal_size",
    "next_dealer", "end_kind", "best_declaration",
]
