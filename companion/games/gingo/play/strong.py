"""The stronger Gin-Go bot: the first bot's melds, hits and digs, with a discard chosen
for the board rather than for points.

Gin-Go scores no points: a card matters for the melds it may still make and for the
chips it would put on the board. Whoever goes out captures every card still held and
puts chips on *their* coordinates of those cards; a discard goes on the spread pile,
where the next player may dig it only to meld it at once. So the bot lets go of the card
it values least (:func:`keep_value`):

* **meld hopes**: the cards it holds that the card could meld with: a suit neighbour
  counts 1, one two ranks away 0.6 (nothing if the card between is in a meld on the
  table), a card of the same rank half a point for each suit of that rank still free;
* **its own link**: a card whose space (in the bot's coordinates) lies on its shortest
  path to a link and is not yet its own is worth keeping to meld;
* **capture risk**: a card whose space in the opponent's coordinates lies on *their*
  shortest path helps them if they go out while the bot still holds it (a discard
  may be dug by them too, but only to meld it at once: the smaller risk).

Its draw (:func:`choose_draw`) weighs digs as the first bot does (the chips the meld or
the lay-offs place, less the cards taken) but deeper in the spread pile
(:data:`DIG_DEPTH` cards down instead of five). Going out short of chips, it forfeits the
choice of chips (exactly the shortfall) whose placed rest leaves the best board
(:func:`choose_forfeits`: every choice is tried, so two chips that only link together are
both placed), where the first bot ranked the chips one by one. Everything else (set-up,
melds and hits that build or break links, captured jokers) is
:func:`companion.games.gingo.play.bot.bot_move`'s.

>>> from companion.games.gingo.play.play import GingoPlay
>>> p = GingoPlay(["a", "b"], {}, seed=3)
>>> strong_move(p).to_dict()["type"] in ("setup", "choose_deal")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from math import comb
from typing import Any

from companion import cards as C
from companion.games.gingo.play.bot import _chip_value, _layoff_take, _meld, bot_move, discard_move
from companion.games.gingo.play.candidates import candidate_hits, candidate_melds
from companion.games.gingo.play.inference import NEAR
from companion.games.gingo.play.play import GingoPlay
from companion.games.gingo.rules import actions as A
from companion.games.gingo.rules.engine import GingoGame
from companion.games.gingo.rules.state import side_of

HOPE = 1.0  # one card the discard could meld with
OWN_PATH = 0.7  # the card's space is on the bot's shortest path
CAPTURE = 1.1  # the card's space (their coordinates) is on the opponent's shortest path
DIG_DEPTH = 12  # how deep in the pile a dig is weighed
DIG_COST = 0.5  # points one card taken but not melded costs
DIG_AT = 1.0  # dig when the best dig scores more than this
FORFEIT_CHOICES = 400  # at most this many forfeit choices tried (else the chips are ranked one by one)


def _near(a: int, b: int) -> bool:
    """``a`` and ``b`` could be in one meld (same rank, or same suit within two ranks)."""
    if a >= 52 or b >= 52 or a == b:
        return False
    return C.rank(a) == C.rank(b) or (C.suit(a) == C.suit(b) and abs(C.rank(a) - C.rank(b)) <= 2)


def keep_value(play: GingoPlay, seat: int, card: int, dead: int) -> float:
    """How much ``seat`` loses by discarding ``card`` (see the module notes); ``dead``:
    the cards that can no longer meld with it."""
    if card >= 52:
        return 100.0  # a joker: keep it
    game = play.table
    hand = play.hands[seat]
    side = side_of(seat)
    opp = 3 - side
    hope = 0.0
    for other in hand:
        if other == card or other >= 52 or not _near(card, other):
            continue
        if C.rank(other) == C.rank(card):
            free = sum(1 for s in range(4) if not dead >> (s * 13 + C.rank(card) - 1) & 1
                       and s * 13 + C.rank(card) - 1 not in (card, other))
            hope += HOPE * (free / 2)
        else:
            lo, hi = sorted((C.rank(card), C.rank(other)))
            gap = [C.suit(card) * 13 + r - 1 for r in range(lo + 1, hi)]
            if any(dead >> g & 1 for g in gap):
                continue
            hope += HOPE * (1.0 if hi - lo == 1 else 0.6)
    b = game.board
    own = game.space(side, card)
    theirs = game.space(opp, card)
    value = hope
    if b.owner(own) != side and own in b.distance_path(side):
        value += OWN_PATH
    if b.owner(theirs) != opp and theirs in b.distance_path(opp):
        value -= CAPTURE  # holding it risks their capture
    return value


def _dead_cards(play: GingoPlay) -> int:
    """Cards that can no longer be drawn or dug to meld: those in melds on the table."""
    return play.table.table_cards()


def discard_order(play: GingoPlay) -> list[int]:
    """The cards the player to move may let go (never the one it must keep), the one it
    values least (:func:`keep_value`) first."""
    seat = play.turn
    hand = play.hands[seat]
    keep = play.keep
    choices = [c for c in hand if c != keep] or list(hand)
    dead = _dead_cards(play)
    return sorted(choices, key=lambda c: (keep_value(play, seat, c, dead), c))


def choose_discard(play: GingoPlay) -> int:
    """The card the player to move lets go (never the one it must keep)."""
    return discard_order(play)[0]


def dig_options(play: GingoPlay) -> list[tuple[float, A.Action]]:
    """Every dig of the pile worth weighing (the dug card melds at once, or two cards or
    more lay off), scored by the chips it places less the cards taken, best first."""
    seat = play.turn
    side = side_of(seat)
    hand = play.hands[seat]
    game = play.table
    pile = play.pile
    found: list[tuple[float, int, A.Action]] = []
    held = C.cards_mask(hand)
    for idx in range(len(pile) - 1, max(-1, len(pile) - 1 - DIG_DEPTH), -1):
        card = pile[idx]
        taken = pile[idx:]
        if card < 52:
            # a meld holding the card holds two more within two ranks of it or of its
            # rank (or jokers): without them, no meld to look for
            mask = held | C.cards_mask(taken)
            if (mask & NEAR[card]).bit_count() + (mask >> 52).bit_count() < 2:
                continue
        trial = hand + taken
        for cards, des in candidate_melds(trial, game):
            if card not in cards or len(cards) >= len(trial):
                continue
            cv = _chip_value(game, side, [des.get(c, c) for c in cards])
            if cv < 0:
                continue
            score = cv + len(cards) - DIG_COST * len(taken)
            found.append((score, len(found), A.Take(seat, card, meld=_meld(seat, cards, des))))
    # a lay-off dig starts with a taken card that fits the table as it is (whether a
    # natural card fits does not depend on the other cards): skip the depths with none
    window = [c for c in pile[max(0, len(pile) - DIG_DEPTH):] if c < 52]
    fits = {c for _, c, des in candidate_hits(window, game) if not des}
    for idx in range(len(pile) - 2, max(-1, len(pile) - 1 - DIG_DEPTH), -1):
        if not any(c in fits for c in pile[idx:]):
            continue
        lay = _layoff_take(play, idx)
        if lay is None:
            continue
        take, laid = lay
        score = _chip_value(game, side, laid) + len(laid) - DIG_COST * (len(pile) - idx - len(laid))
        found.append((score, len(found), take))
    found.sort(key=lambda f: (-f[0], f[1]))  # the first found wins a tie, as before
    return [(score, action) for score, _, action in found]


def choose_draw(play: GingoPlay) -> A.Action:
    """Draw from the stock, or dig the pile where the dug card melds at once (or two
    cards or more lay off), scored by the chips it places less the cards taken."""
    options = dig_options(play)
    if options and options[0][0] > DIG_AT:
        return options[0][1]
    return A.Draw(play.turn)


def choose_forfeits(game: GingoGame, side: int, chips: Sequence[int], short: int) -> tuple[int, ...]:
    """The ``short`` cards among ``chips`` whose chips ``side`` forfeits: of every choice,
    the one whose placed chips leave the best board (:func:`_chip_value` of the rest)."""
    if short <= 0:
        return ()
    new = [c for c in dict.fromkeys(chips) if game.board.owner(game.space(side, c)) != side]
    if comb(len(new), short) > FORFEIT_CHOICES:
        return tuple(sorted(new, key=lambda c: _chip_value(game, side, [c]))[:short])
    best: tuple[float, tuple[int, ...]] | None = None
    for skip in combinations(new, short):
        v = _chip_value(game, side, [c for c in chips if c not in skip])
        if best is None or v > best[0]:
            best = (v, skip)
    assert best is not None
    return best[1]


def going_out(play: GingoPlay, card: int) -> A.Discard:
    """The discard of the last card: captured jokers laid where they help most (as the
    first bot lays them), the forfeits of :func:`choose_forfeits` when the supply is short."""
    seat = play.turn
    game, side = play.table, side_of(seat)
    caps = play.captured_by(seat)
    laid = game.captured_lays(seat, caps)
    chips = [c for c in caps if c < 52] + [x.card for x in laid]
    return A.Discard(seat, card, laid or None, choose_forfeits(game, side, chips, game.shortfall(side, chips)))


def strong_move(play: GingoPlay, rng: random.Random | None = None) -> A.Action:
    """The strong bot's next action (typed) for whoever is to move."""
    if play.phase == "play" and play.stage == "draw":
        return choose_draw(play)
    move = bot_move(play, rng)
    if isinstance(move, A.Discard) and play.phase == "play":
        if len(play.hands[play.turn]) > 1:
            return discard_move(play, choose_discard(play))
        return going_out(play, move.card)
    return move


def strong_action(play: GingoPlay, rng: random.Random | None = None) -> dict[str, Any]:
    """:func:`strong_move` as JSON."""
    return strong_move(play, rng).to_dict()


__all__ = ["strong_move", "strong_action", "choose_discard", "discard_order", "dig_options", "choose_draw", "keep_value", "choose_forfeits", "going_out"]
