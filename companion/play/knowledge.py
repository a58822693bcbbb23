"""What one seat of a rummy hand knows, and a game rebuilt from that alone.

A bot of a dealt game is handed the engine, which holds every card. So that no bot
can use a card its seat has not seen, the seat bots (:mod:`companion.play.levels`) play
on :func:`seat_game`: a copy of the game in which every card the seat cannot see (the
other hands, less the cards they are known to hold, and the stock) is dealt again at
random, from a generator seeded by what the seat knows (:attr:`SeatKnowledge.digest`).
Two games that look the same from the seat give the same copy, so the bot's choice
cannot depend on the hidden cards (``tests/test_bot_levels.py`` swaps them to check).

What a seat knows (:func:`knowledge`): its own cards, the discard pile, this hand's
public moves (:attr:`companion.play.rummy.RummyGame.moves`: who took which card from
the pile, who threw which, who passed the upcard, who drew from the stock), the hand
sizes, the stock's size, the match so far and the rules. From the moves it reads, for
each seat, the cards it is known to hold (taken from the pile and not thrown since),
every card it took, threw, or let go by (a pass of the upcard, or a draw from the stock
over a discard it could have taken).

>>> from companion.games import rummy_game
>>> from companion.play.rummy import Draw, Pass
>>> g = rummy_game("gin", seed=5, dealer=0)
>>> up = g.discard[-1]
>>> g.apply(Pass())
>>> k = knowledge(g, 0)
>>> k.passed[1] == 1 << up, k.held[1]
(True, 0)
>>> seat_game(g, 0).hands[0] == g.hands[0]
True
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion import cards as C

if TYPE_CHECKING:
    from companion.play.rummy import RummyGame


@dataclass(frozen=True)
class SeatKnowledge:
    """What ``seat`` knows of the hand in play (masks are card bit masks, one per seat
    where a tuple)."""

    seat: int
    hand: int  # the seat's own cards
    unseen: int  # every card the seat has not seen: the other hands and the stock
    held: tuple[int, ...]  # cards each seat is known to hold (taken from the pile, not thrown)
    took: tuple[int, ...]  # every card each seat took from the pile this hand
    thrown: tuple[int, ...]  # every card each seat discarded this hand
    passed: tuple[int, ...]  # cards each seat let go by (an upcard passed, a discard not taken)
    sizes: tuple[int, ...]  # how many cards each seat holds
    stock: int  # cards left in the stock
    digest: int  # a number that changes with anything the seat knows, and with nothing else


def knowledge(game: RummyGame, seat: int) -> SeatKnowledge:
    """What ``seat`` knows of ``game`` now (see the module notes)."""
    n = game.players
    held, took, thrown, passed = [0] * n, [0] * n, [0] * n, [0] * n
    top: int | None = None
    for s, kind, card in game.moves:
        if kind == "take":
            held[s] |= 1 << card
            took[s] |= 1 << card
            top = None  # what lies under it: an older discard, thrown again below if needed
        elif kind == "throw":
            held[s] &= ~(1 << card)
            thrown[s] |= 1 << card
            top = card
        elif kind == "pass":
            passed[s] |= 1 << card
            top = card
        elif kind == "stock" and top is not None:
            passed[s] |= 1 << top
    # cards under the top of the pile are back on top once the top is taken: take the
    # pile as it is for what was seen, and the moves for who did what
    hand = game.hands[seat] if game.hands else 0
    seen = hand
    for c in game.discard:
        seen |= 1 << c
    unseen = game.deck & ~seen & ~game.jokers
    held[seat] = hand
    sizes = tuple(h.bit_count() for h in game.hands) if game.hands else (0,) * n
    totals = getattr(game.match, "totals", ())
    text = repr((game.variant, seat, hand, game.phase, game.turn, game.taken, game.hand_number,
                 tuple(game.discard), tuple(game.moves), sizes, len(game.stock), game.dealer,
                 len(game.results), totals))
    digest = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
    return SeatKnowledge(seat, hand, unseen, tuple(held), tuple(took), tuple(thrown), tuple(passed),
                         sizes, len(game.stock), digest)


def seat_game(game: RummyGame, seat: int, rng: random.Random | None = None,
              know: SeatKnowledge | None = None) -> RummyGame:
    """A copy of ``game`` that ``seat`` could have built: its own cards, the pile and the
    cards others are known to hold as they are; every other card dealt again at random
    (``rng``, by default seeded by the knowledge's digest) into the other hands and the
    stock. The copy's own shuffler is seeded the same way, so nothing of the real deck's
    future is in it."""
    k = know if know is not None else knowledge(game, seat)
    rng = rng if rng is not None else random.Random(k.digest)
    other = game.clone()
    other.rng = random.Random(k.digest ^ 0x5EED)
    other._hand_rng = None
    other._end_cache = {}
    other._checked = None
    if not game.hands or game.phase in ("first_dealer", "over"):
        return other
    pool = k.unseen
    for s in range(game.players):
        if s != seat:
            pool &= ~k.held[s]
    cards = C.mask_cards(pool)
    rng.shuffle(cards)
    for s in range(game.players):
        if s == seat:
            continue
        need = k.sizes[s] - k.held[s].bit_count()
        mask = k.held[s]
        for c in cards[:need]:
            mask |= 1 << c
        cards = cards[need:]
        other.hands[s] = mask
    jokers = [c for c in game.stock if game.jokers >> c & 1]
    stock = cards + jokers
    rng.shuffle(stock)
    other.stock = stock
    return other


__all__ = ["SeatKnowledge", "knowledge", "seat_game"]
