"""Gin-Go options: what a game may change, with defaults, choices and help text.

>>> make_options(2).deal, make_options(4).deal
(9, 7)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from companion import melds as M
from companion.errors import InvalidInput
from companion.games.options import bot_level_field, check_overrides, option_field, specs_of
from companion.games.gingo.rules.errors import GingoError

FORMATS: Final = ("normal", "suit_for_suit", "secrecy")


def _opt(default: Any, help_text: str, choices: tuple[Any, ...]) -> Any:
    return option_field(default, help_text, choices)


@dataclass(frozen=True)
class Options:
    """Every Gin-Go option, with the defaults in force.

    ``deal`` of 0 means the default for the number of players (9 for two, 7 for four).

    >>> make_options(2, {"deal": 7}).deal
    7
    >>> make_options(4, {}).deal
    7
    """

    players: int = _opt(2, "two players, or four as two teams of partners sitting opposite", (2, 4))
    deal: int = _opt(0, "cards dealt to each player: odd, 1-15 for two players, 1-9 for four (0: 9 or 7)",
                     (0, 1, 3, 5, 7, 9, 11, 13, 15))
    jokers: bool = _opt(True, "play with the two jokers as wild cards", (True, False))
    max_jokers_per_meld: int | str = _opt(
        1, "jokers allowed in one meld: one, or fewer than the natural cards", (1, "fewer_than_naturals"))
    rank_axis: str = _opt("opposed", "opposed: each side counts A to K from its own end; shared: both from side 1's end",
                          ("opposed", "shared"))
    suit_rows: str = _opt("normal", "set-up format used when the player entitled to choose does not say",
                          FORMATS)
    adjacency: str = _opt("king8", "link steps: king8 (sideways, straight and diagonal) or ortho4 (no diagonals)",
                          ("king8", "ortho4"))
    chip_cap: int | str = _opt(50, "chips per side: 50 (short supply forfeits chips) or unlimited",
                               (50, "unlimited"))
    second_exhaustion: str = _opt(
        "end_hand_no_capture", "when the stock runs out a second time in one hand, the hand ends with no capture",
        ("end_hand_no_capture",))
    first_dealer: str = _opt(
        "given", "who deals the first hand: given (named at the set-up, seat 0 if not), flip_high_chooses (each "
        "player flips a card, the highest chooses to deal or not, a tie flips again) or flip_low_deals",
        ("given", "flip_high_chooses", "flip_low_deals"))
    bot_level: str = bot_level_field()

    @property
    def meld_rules(self) -> M.MeldRules:
        return M.JOKERS_FEWER if self.max_jokers_per_meld == "fewer_than_naturals" else M.JOKERS

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def default_deal(players: int) -> int:
    return 9 if players == 2 else 7


def check_deal(players: int, deal: int, jokers: bool = True) -> None:
    """Raise :class:`GingoError` unless ``deal`` is a legal deal size (two players deal an
    odd number from 1 to 15, four players from 1 to 9, and some stock must be left).

    >>> check_deal(2, 15)
    >>> check_deal(4, 11)
    Traceback (most recent call last):
    ...
    companion.games.gingo.rules.errors.GingoError: deal size 11 not allowed: four players deal an odd number of cards from 1 to 9
    """
    top = 15 if players == 2 else 9
    who = "two players" if players == 2 else "four players"
    if isinstance(deal, bool) or not isinstance(deal, int) or deal < 1 or deal > top or deal % 2 == 0:
        raise GingoError(
            f"deal size {deal} not allowed: {who} deal an odd number of cards from 1 to {top}")
    deck = 54 if jokers else 52
    if deck - players * deal - 1 < 1:
        raise GingoError(f"deal size {deal} leaves no stock for {players} players")


def make_options(players: int, options: Mapping[str, Any] | None = None) -> Options:
    """Options for a game of ``players`` from a JSON dict. Unknown names or values an
    option does not take are refused by :func:`companion.games.options.check_overrides`
    (:class:`~companion.errors.InvalidInput`, code ``invalid_options``); a deal size the
    rules do not allow, or a player count other than 2 or 4, is a :class:`GingoError`.

    >>> make_options(2, {"chip_cap": "unlimited"}).chip_cap
    'unlimited'
    >>> make_options(2, {"colour": "red"})
    Traceback (most recent call last):
    ...
    companion.errors.InvalidInput: unknown Gin-Go option 'colour' (one of players, deal, jokers, max_jokers_per_meld, rank_axis, suit_rows, adjacency, chip_cap, second_exhaustion, first_dealer, bot_level)
    """
    if options is not None and not isinstance(options, Mapping):
        raise InvalidInput(f"Gin-Go options are a mapping of option names to values, not {options!r}",
                           code="invalid_options")
    raw = dict(options or {})
    if players not in (2, 4):
        raise GingoError(f"Gin-Go is played by 2 players or 4 (two teams), not {players}")
    deal_given = raw.pop("deal", None)  # its rule (odd, in range, stock left) names more than its choices
    opts = check_overrides(specs_of(Options), raw, "Gin-Go")
    if opts.get("players", players) != players:
        raise GingoError(f"option players = {opts['players']} but {players} players were named")
    opts["players"] = players
    deal = deal_given or default_deal(players)
    check_deal(players, deal, bool(opts.get("jokers", True)))
    opts["deal"] = deal
    return Options(**opts)


__all__ = ["Options", "make_options", "check_deal", "default_deal", "FORMATS"]
