"""The link-wise Gin-Go bot: the strong bot's draws and board-minded discards
(:mod:`companion.play.gingo.strong`), with its melds, hits and forfeits chosen for the
links, and the cards an opponent dug from the pile kept in mind.

* **Melds and hits** (:func:`lay_value`) are weighed together: the chips they place
  (:func:`~companion.play.gingo.bot._chip_value`: its own link distance shortened, the
  opponent's lengthened, a link completed or broken), the cards shed, and the capture
  they avoid: a card laid down whose space in the opponent's coordinates lies on the
  opponent's shortest path can no longer be captured onto it.
* **Forfeits** (:func:`choose_forfeits`): going out short of chips, the bot tries every
  choice of the cards whose chips are forfeited (exactly the shortfall) and keeps the
  one whose placed chips leave the best board, rather than ranking the chips one by one.
* **Dug cards** (:meth:`~companion.play.gingo.play.GingoPlay.dug_by`): the cards an
  opponent took from the pile and still holds are public; a discard that would meld
  with them (:func:`feeds`) is a card the opponent may dig at once, so the bot keeps it.

>>> from companion.play.gingo.play import GingoPlay
>>> p = GingoPlay(["a", "b"], {}, seed=3)
>>> link_move(p).to_dict()["type"] in ("setup", "choose_deal")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from math import comb
from typing import Any

from companion import board as B
from companion import cards as C
from companion.play.gingo.bot import _chip_value, _meld, bot_move
from companion.play.gingo.candidates import candidate_hits, candidate_melds
from companion.play.gingo.play import GingoPlay
from companion.play.gingo.strong import _near, choose_draw, keep_value
from companion.rules.gingo import actions as A
from companion.rules.gingo.engine import GingoGame
from companion.rules.gingo.state import side_of

SHED = 1.0  # one card out of the hand (closer to going out, one card fewer to be captured)
LAID_SAFE = 0.8  # a card laid down whose space (their coordinates) is on the opponent's shortest path
FEEDS = 1.5  # a discard that melds with cards an opponent is known to hold
NEAR_DUG = 0.4  # a discard next to a card an opponent is known to hold
ENDS = 40.0  # a lay that leaves one card (the discard goes out) while a link would decide the hand
ROBUST = 1.5  # one chip fewer whose loss alone would lengthen the bot's near-complete link
BUMPS = 2.0  # a card whose chip would bump one the opponent's near-complete link cannot do without
EXPOSED = 2.0  # a card whose capture would bump a chip the bot's near-complete link cannot do without
NEAR = 2  # ... counted when the link needs at most this many more chips
FORFEIT_CHOICES = 400  # at most this many forfeit choices tried (else one chip at a time)


def critical_chips(mask: int, adjacency: str) -> list[int]:
    """The chips of ``mask`` each needed, on its own, for its shortest link distance:
    one bump on any of them lengthens it (they lie on every shortest path, so those
    of one such path are all there is to try)."""
    d = B.link_distance_from_scratch(mask, adjacency)
    path = B.distance_path_from_scratch(mask, adjacency)
    return [x for x in path if mask >> x & 1 and B.link_distance_from_scratch(mask & ~(1 << x), adjacency) > d]


def critical(mask: int, adjacency: str) -> int:
    """How many :func:`critical_chips` ``mask`` has."""
    return len(critical_chips(mask, adjacency))


def robustness(game: GingoGame, side: int, chips: Sequence[int]) -> float:
    """Critical chips (:func:`critical`) of ``side``'s link that placing ``chips`` removes,
    when the link is then at most :data:`NEAR` chips away (0 otherwise)."""
    b = game.board
    after = b.copy()
    after.place(side, list(dict.fromkeys(game.space(side, c) for c in chips)))
    if after.link_distance(side) > NEAR:
        return 0.0
    return float(critical(b.mask(side), b.adjacency) - critical(after.mask(side), b.adjacency))


def exposed(game: GingoGame, side: int) -> set[int]:
    """The chips ``side``'s near-complete link cannot do without (:func:`critical_chips`):
    a card held whose space in the opponent's coordinates is one of them would bump it
    if the opponent went out and captured it."""
    b = game.board
    if b.link_distance(side) > NEAR:
        return set()
    return set(critical_chips(b.mask(side), b.adjacency))


def going_out(game: GingoGame, side: int, chips: Sequence[int]) -> float:
    """Going out right after placing ``chips`` (the hand ends): +1 when ``side`` then
    holds a link (it wins, whatever the capture), -1 when only the opponent does (it
    wins unless the capture breaks it), 0 when neither does."""
    b = game.board.copy()
    b.place(side, list(dict.fromkeys(game.space(side, c) for c in chips)))
    if b.link_distance(side) == 0:
        return 1.0
    return -1.0 if b.link_distance(3 - side) == 0 else 0.0


def lay_value(game: GingoGame, side: int, cards: Sequence[int], des: dict[int, int], left: int = 2) -> float:
    """What laying ``cards`` (a meld, or a hit onto one) is worth to ``side`` with
    ``left`` cards left in the hand after it; negative when its chips cannot all be
    placed (the supply is short), or when it leaves one card (the discard then goes
    out) and the hand would end with only the opponent linked."""
    placed = [des.get(c, c) for c in cards]
    chips = _chip_value(game, side, placed)
    if chips < 0:
        return -1.0
    opp = 3 - side
    b = game.board
    path = {x for x in b.distance_path(opp) if b.owner(x) != opp} | exposed(game, side)
    safe = sum(1 for c in cards if c < 52 and game.space(opp, c) in path)
    value = chips + SHED * len(cards) + LAID_SAFE * safe + ROBUST * robustness(game, side, placed)
    if left == 1:
        value += ENDS * going_out(game, side, placed)
    return value


def lays(play: GingoPlay) -> list[tuple[float, A.Action]]:
    """Every meld and hit the player to move may lay now, each with its :func:`lay_value`
    (a turn always keeps a card to discard, never only the card dug this turn)."""
    seat, keep, game = play.turn, play.keep, play.table
    hand = play.hands[seat]
    side = side_of(seat)
    out: list[tuple[float, A.Action]] = []

    def keeps_a_discard(cards: Sequence[int]) -> bool:
        left = [c for c in hand if c not in cards]
        return bool(left) and not (keep is not None and left == [keep])

    for cards, des in candidate_melds(hand, game):
        if keeps_a_discard(cards):
            v = lay_value(game, side, cards, des, len(hand) - len(cards))
            if v >= 0:
                out.append((v, _meld(seat, cards, des)))
    for mid, c, des in candidate_hits(hand, game):
        if not keeps_a_discard([c]) or (c in C.JOKERS and len(hand) > 3):  # jokers kept for melds a while
            continue
        v = lay_value(game, side, [c], des, len(hand) - 1)
        if v >= 0:
            out.append((v, A.Hit(seat, mid, (c,), tuple(des.items()))))
    return out


def choose_forfeits(game: GingoGame, side: int, chips: Sequence[int], short: int) -> tuple[int, ...]:
    """The ``short`` cards among ``chips`` whose chips ``side`` forfeits: the choice
    whose placed chips leave the best board (:func:`_chip_value` of the rest)."""
    if short <= 0:
        return ()
    new = [c for c in dict.fromkeys(chips) if game.board.owner(game.space(side, c)) != side]
    if comb(len(new), short) > FORFEIT_CHOICES:  # rank the chips one by one instead
        return tuple(sorted(new, key=lambda c: _chip_value(game, side, [c]))[:short])
    best: tuple[float, tuple[int, ...]] | None = None
    for skip in combinations(new, short):
        v = _chip_value(game, side, [c for c in chips if c not in skip])
        if best is None or v > best[0]:
            best = (v, skip)
    assert best is not None
    return best[1]


def out_move(play: GingoPlay, card: int) -> A.Discard:
    """The discard of ``card``; when it is the last card, going out with the captured
    jokers laid where they help most and the forfeits of :func:`choose_forfeits`."""
    seat = play.turn
    if play.hands[seat] != [card]:
        return A.Discard(seat, card)
    game, side = play.table, side_of(seat)
    caps = play.captured_by(seat)
    laid = game.captured_lays(seat, caps)
    chips = [c for c in caps if c < 52] + [x.card for x in laid]
    return A.Discard(seat, card, laid or None, choose_forfeits(game, side, chips, game.shortfall(side, chips)))


def feeds(card: int, dug: Sequence[int]) -> float:
    """How much discarding ``card`` may feed an opponent known to hold ``dug``: a meld
    it makes with them counts :data:`FEEDS`, else each card next to it :data:`NEAR_DUG`."""
    if card >= 52 or not dug:
        return 0.0
    same = [c for c in dug if c < 52 and C.rank(c) == C.rank(card) and c != card]
    suited = {C.rank(c) for c in dug if c < 52 and C.suit(c) == C.suit(card)}
    r = C.rank(card)
    run = any({r + a, r + b} <= suited for a, b in ((-2, -1), (-1, 1), (1, 2)))
    if len(same) >= 2 or run:
        return FEEDS
    return NEAR_DUG * sum(1 for c in dug if _near(card, c))


def choose_discard(play: GingoPlay) -> int:
    """The strong bot's discard (:func:`~companion.play.gingo.strong.keep_value`), less
    willing to let go a card an opponent's dug cards would meld."""
    seat = play.turn
    hand = play.hands[seat]
    choices = [c for c in hand if c != play.keep] or list(hand)
    dead = play.table.table_cards()
    side = side_of(seat)
    dug = [c for s in range(len(play.players)) if side_of(s) != side for c in play.dug_by(s)]
    b = play.table.board
    targets: set[int] = set()
    if b.link_distance(3 - side) <= NEAR:  # the opponent's link is near: keep the cards that bump it
        targets = set(critical_chips(b.mask(3 - side), b.adjacency))

    mine = exposed(play.table, side)

    def value(c: int) -> float:
        if c >= 52:
            return keep_value(play, seat, c, dead)
        bumps = BUMPS if play.table.space(side, c) in targets else 0.0
        risk = EXPOSED if play.table.space(3 - side, c) in mine else 0.0
        return keep_value(play, seat, c, dead) + feeds(c, dug) + bumps - risk

    return min(choices, key=lambda c: (value(c), c))


def link_move(play: GingoPlay, rng: random.Random | None = None) -> A.Action:
    """The link-wise bot's next action (typed) for whoever is to move."""
    if play.phase != "play":
        return bot_move(play, rng)
    if play.stage == "draw":
        return choose_draw(play)
    options = lays(play)
    if options:
        return max(options, key=lambda o: o[0])[1]
    hand = play.hands[play.turn]
    return out_move(play, hand[0] if len(hand) == 1 else choose_discard(play))


def link_action(play: GingoPlay, rng: random.Random | None = None) -> dict[str, Any]:
    """:func:`link_move` as JSON."""
    return link_move(play, rng).to_dict()


__all__ = ["link_move", "link_action", "lays", "lay_value", "choose_forfeits", "out_move", "feeds", "choose_discard"]
