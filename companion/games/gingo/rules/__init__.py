"""Gin-Go table play: what a physical game tells the companion, as JSON actions.

A :class:`GingoGame` holds the board (chips of both sides), the melds on the table,
who deals, and the end-of-hand resolution. It is driven by typed actions
(:mod:`~companion.games.gingo.rules.actions`, like python-chess's ``Move``) through
:meth:`GingoGame.perform`, which returns typed events (:mod:`~companion.games.gingo.rules.events`);
:meth:`GingoGame.apply` is the JSON edge: one action dict in, event dicts out. Full play
(:mod:`companion.games.gingo.play`) drives the same engine with the same actions.
An illegal action raises :class:`GingoError` (a ``ValueError`` with a ``code`` and
``details``) whose message names the rule broken, and leaves the game exactly as it was.
Replaying the same actions on a new game (``new_game(players, options)``) gives the same
state, so a service can store the actions as its event log and fold them.

The package holds one module per part (imports point down): ``errors`` <- ``options``
<- ``reading`` (card names at the API edge, bare jokers bound) <- ``actions`` <- ``melds`` (melds and the joker rules) <- ``events`` <- ``chips`` (chips and
forfeits) <- ``jokers`` (captured jokers) <- ``state`` (the table state, links, the end of a
hand) <- ``engine``.

Seats, sides and cards
======================

* Seats are ``0 .. n-1`` clockwise (``n`` = 2 or 4). Seat ``s`` plays for side
  ``1 if s % 2 == 0 else 2``; in the 4-player game partners (0 and 2, 1 and 3) sit
  opposite and share one colour, one board end and one coordinate frame.
* Cards are written as :func:`companion.cards.parse_card` reads them (``"10H"``,
  ``"TH"``, ``"♥10"``). Jokers are ``"JK1"`` and ``"JK2"``; a bare ``"JK"`` means the
  lowest joker not already on the table this hand.
* ``designations`` map a joker to the card it stands for: ``{"JK1": "8H"}``.
* Melds on the table have ids ``1, 2, 3 ...`` (ints, never reused within a game).

Actions (``game.apply(action)``)
================================

Every action is a dict with a ``"type"``; unknown keys are rejected.

``{"type": "setup", "dealer": 0, "reveal": ["5H", "JK1", "2S", "KC", "9D"], "format": "secrecy", "secret": {"1": "SHDC", "2": "CDHS"}}``
    Suit-row set-up, once per game, before the first meld. ``dealer`` (default 0) is the
    seat dealing the first hand. ``reveal`` lists the cards turned up until all four
    suits showed; the suit order is read from it. With no joker before the fourth suit
    the format is ``normal`` and ``format`` must be left out (or be ``"normal"``). A joker
    first lets the dealer choose ``"normal" | "suit_for_suit" | "secrecy"``; a second
    joker lets the opponent choose (the event says who chose); with ``format`` left out
    the option ``suit_rows`` is used. ``secret`` (secrecy only) gives each side's own
    order, left to right as that side sees it.
    Or directly: ``{"type": "setup", "dealer": 0, "suit_rows": {"1": "SHDC", "2": "SHDC"}}``
    (format ``"direct"``). Either form may add ``"board": "<52 chars . 1 2>"``, the chips
    already on the board when an unfinished game is resumed from its recording form (a side
    linked there counts as having called Gin).
    Events: ``{"type": "setup", "format", "order", "chooser": null | "dealer" | "opponent",
    "chooser_seat", "suit_rows": {"1", "2"}, "dealer"}``.

``{"type": "meld", "seat": 0, "cards": ["JK1", "7H", "9H"], "designations": {"JK1": "8H"}}``
    A new meld from ``seat``'s hand (3+ cards; run of one suit in sequence, ace low or
    high, never round the corner; or a set of one rank). At most one joker per meld
    (``max_jokers_per_meld = "fewer_than_naturals"``: fewer jokers than naturals).
    A joker's designation may not be a card already in a meld on the table.
    ``"skip": ["8H"]`` names cards whose chips are forfeited, only when the side's chip
    supply runs short and exactly as many as it cannot cover: the player chooses which
    spaces to fill, the rest is forfeited (a :class:`GingoChipShortfall` otherwise, with
    ``details`` side, supply, need, short and cards).
    Events: ``{"type": "meld", "seat", "side", "meld": <meld dict>}``, then
    ``{"type": "chips", "side", "spaces": [every space filled], "placed": [spaces that got a
    new chip], "bumped": [spaces taken from the other side], "forfeited": [cards]}``,
    then for each side whose link changed ``{"type": "link", "side", "formed": bool,
    "path": [spaces] | null}``; a link formed is followed by
    ``{"type": "gin_called", "side", "seat"}``.

``{"type": "hit", "seat": 1, "meld": 3, "cards": ["5H"], "designations": {}}``
    Lay cards off onto meld 3 (anyone's). Runs grow at either end (not past an ace that
    ends the run); sets take suits not yet shown; a joker may not join a closed set (all
    four suits shown); a natural may go onto the place its joker stands for (the joker
    stays; a set then holds 5 cards). Events: ``hit`` (with the updated meld), ``chips``,
    ``link``/``gin_called`` as for ``meld``.

``{"type": "go_out", "seat": 0, "captured": {"1": ["KS", "JK2"]}, "jokers": {"JK2": {"meld": 3, "as": "6S"}}}``
    ``seat`` emptied their hand with a discard. ``captured`` gives the cards still held by
    every other seat (keys are seat numbers as strings or ints; in the 4-player game both
    opponents *and* the partner; a seat holding nothing may be left out). Chips go on the
    going-out side's coordinates for every captured natural card. ``jokers`` lays captured
    jokers onto melds that take them (chip on the designated card); a captured joker not
    listed is dead; a joker may not stand for another captured card. ``skip`` as for a
    meld. Then the hand is resolved:
    1. both sides linked: the side that went out wins (``"both_linked"``);
    2. one side linked: it wins (``"gin_held"`` when it called Gin before the capture and
       still holds it; ``"capture_link"`` when the capture completed the link of the
       side that went out);
    3. no link: the hand ends, the chips stay, the deal passes clockwise.
    Events: ``{"type": "capture", "seat", "side", "cards": {"1": [...]}, "jokers_laid":
    [{"joker", "meld", "as"}], "jokers_dead": [...]}``, ``chips``, ``link``...,
    then ``{"type": "hand_end", "hand": n, "went_out": seat, "winner": side | null,
    "reason": str | null}`` and, when someone won, ``{"type": "game_over", "winner": side,
    "players": [names of the side's seats]}``.

``{"type": "pass", "seat": n}``
    Seat ``n``'s turn ended without a meld or a hit (the player drew and discarded,
    which the companion does not see): the turn goes to the next seat clockwise. Event
    ``{"type": "pass", "seat": n, "turn": next seat}``.

``{"type": "stock_exhausted"}``
    The stock ran out: the table melds become the new stock (they can no longer be hit;
    the chips stay). The second time in one hand (``second_exhaustion =
    "end_hand_no_capture"``, the only choice) the hand ends with no capture; it is
    resolved as above without a side that went out: one linked side wins, and when both
    are linked the side that called Gin first wins (``"gin_first"``). Events:
    ``{"type": "stock_exhausted", "count": 1 | 2}`` and, the second time, ``hand_end``.

``{"type": "new_hand"}``
    After a hand ended with no winner: the next dealer clockwise deals. Melds are
    cleared, chips stay. Event ``{"type": "new_hand", "hand": n, "dealer": seat}``.

State (``game.as_dict()``)
==========================

``{"variant": "gingo", "players": [...], "options": {...}, "phase": "setup" | "play" |
"hand_over" | "game_over", "hand": n, "dealer": seat, "setup_format": str | null,
"suit_rows": {"1": "SHDC", "2": ...},
"board": "<52 chars . 1 2 in space order>", "supply": {"1": n, "2": n},
"links": {"1": [spaces] | null, "2": ...}, "link_distance": {"1": n, "2": n},
"gin": {"1": bool, "2": bool}, "melds": [meld dicts], "exhaustions": n,
"winner": side | null, "win_reason": str | null, "hands": [hand_end events],
"actions": number applied, "turn": seat | null}``; ``supply`` is null per side with
``chip_cap = "unlimited"``; ``turn`` is the seat to play next as the table sees it (left
of the dealer when a hand starts, then the seat after the last meld, hit or pass; null
when no hand is in play).

A meld dict: ``{"id": 3, "seat": 0, "side": 1, "kind": "run" | "set", "cards": ["4H",
"JK1", "6H", "7H", "5H"] (in the order laid), "designations": {"JK1": "5H"},
"stands_for": ["4H", "5H", "6H", "7H"] (table order), "closed": bool}``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from companion.games.gingo.rules.errors import GingoChipShortfall, GingoError, GingoInputError
from companion.games.gingo.rules.options import Options, check_deal, default_deal, make_options

if TYPE_CHECKING:
    from companion.games.gingo.rules.actions import (
        ANY_JOKER, Action, Discard, Draw, GoOut, Hit, JokerLay, Meld, NewHand, Setup, StockExhausted, Take,
        action_from_dict,
    )
    from companion.games.gingo.rules.engine import GingoGame, new_game
    from companion.games.gingo.rules.events import Event
    from companion.games.gingo.rules.melds import TableMeld

#: names loaded with their module on first use (start-up on a slow core: the registry needs
#: only the options until a Gin-Go game is folded or played)
_LAZY = {
    **dict.fromkeys(("ANY_JOKER", "Action", "Discard", "Draw", "GoOut", "Hit", "JokerLay", "Meld", "NewHand",
                     "Setup", "StockExhausted", "Take", "action_from_dict"), "actions"),
    "GingoGame": "engine", "new_game": "engine", "Event": "events", "TableMeld": "melds",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = ["GingoError", "GingoInputError", "GingoChipShortfall", "Options", "make_options", "check_deal", "default_deal", "TableMeld",
           "GingoGame", "new_game", "Action", "Event", "Setup", "Meld", "Hit", "GoOut", "JokerLay",
           "StockExhausted", "NewHand", "Draw", "Take", "Discard", "ANY_JOKER", "action_from_dict"]
