"""The strong Gin-Go bot: the normal bot's choices, each weighed by playing the hand out
over deals its seat could not tell from the real one (information-set Monte Carlo).

At the two choices of a turn that decide most (what to draw or dig, and which card to
let go), the normal bot (:mod:`companion.games.gingo.play.strong`) names a few candidates:
stock or its best digs of the spread pile, and the cards it values least; with four
players also at each meld or hit it lays, its next best ones (:data:`LAYS`,
:func:`companion.games.gingo.play.bot.lay_options`: which spaces its chips take). For each
sample the bot deals again every card its seat cannot see (the other hands and the
stock; their sizes are kept), as what the other players did in public this hand makes
likely (:mod:`companion.games.gingo.play.inference`: the cards they dug and kept stay in
their hands, hands holding what they would have laid down or dug are less likely),
plays each candidate in that same deal, then plays the rest of the hand with the normal bot in every seat, and
scores the board at the end of the hand for its side (:func:`outcome`: a won game is
worth :data:`WIN`, otherwise the opponent's distance to a link less its own). It keeps
the candidate with the best mean over the samples; the normal bot's own choice wins a
tie. Every candidate meets the same deals, so the comparison is not blurred by luck.

What it reads of the game is what its seat sees: its own cards, the table, the board,
the pile, how many cards each hand and the stock hold. The deals it samples come from a
generator seeded by the ``rng`` it is given and by what the seat sees
(:func:`seat_seed`), never by a hidden card, so two games that look the same from the
seat give the same choice (``tests/test_bot_levels.py`` swaps the hidden cards).

It plays :data:`SAMPLES` deals at most, and stops sooner when one more round of
play-outs (as long as the slowest so far) would overrun the time budget
(:func:`companion.play.sharp.budget`, the setting ``GINGO_BOT_BUDGET_MS``), after at least
:data:`MIN_SAMPLES`; below the budget it is deterministic for its generator. The budget
counts the processor time of the thread deciding (``time.thread_time``), so other work
on the machine slows the bot down but does not make it play weaker.

>>> import random
>>> from companion.games.gingo.play.play import GingoPlay
>>> p = GingoPlay(["a", "b"], {}, seed=3)
>>> p.perform(search_move(p, random.Random(1))) and p.phase
'play'
>>> search_move(p, random.Random(1)).to_dict()["type"] in ("draw", "take")
True
"""

from __future__ import annotations

import copy
import hashlib
import random
import time
from collections.abc import Sequence

from companion import cards as C
from companion.games.gingo.play.bot import lay_options
from companion.games.gingo.play.inference import fits_mask, weighted_deal
from companion.games.gingo.play.play import GingoPlay
from companion.games.gingo.play.strong import dig_options, discard_order, strong_move
from companion.play.sharp import budget
from companion.games.gingo.rules import actions as A
from companion.games.gingo.rules.state import side_of

SAMPLES = 12  # deals played out at most per decision
MIN_SAMPLES = 2  # deals played out even when the budget is spent
DISCARDS = 3  # the cards the normal bot values least, weighed against each other
DIGS = 2  # the best digs weighed against drawing from the stock
LAYS = {2: 0, 4: 2}  # by players: the next best melds (or hits) weighed against the normal bot's
WIN = 30.0  # a won game, in steps of link distance
MOVE_CAP = 120  # a play-out still running after this many moves is scored as it stands


def seat_seed(play: GingoPlay, rng: random.Random) -> int:
    """A seed from ``rng`` (not advanced) and what the player to move sees: its cards, the
    pile, the table melds, the board, the hand sizes, the stock's size and what each seat did
    in public this hand (:attr:`GingoPlay.record`)."""
    seat = play.turn
    t = play.table
    seen = repr((copy.copy(rng).random(), seat, play.stage, tuple(play.hands[seat]), tuple(play.pile),
                 t.table_cards(), t.hand, [len(h) for h in play.hands], len(play.stock),
                 t.board.mask(1), t.board.mask(2), play.keep, play.record))
    return int.from_bytes(hashlib.blake2b(seen.encode(), digest_size=8).digest(), "big")


def sample_deal(play: GingoPlay, rng: random.Random) -> GingoPlay:
    """A copy of ``play`` with every card the player to move cannot see (the other hands and
    the stock) dealt again from ``rng``, the way the evidence makes likely
    (:func:`companion.games.gingo.play.inference.weighted_deal`: the cards others are known to
    hold kept, hands that hold what their players would have laid down or dug are less
    likely); the hands keep their sizes, and the copy's own shuffler is seeded from
    ``rng`` too, so nothing of the real deck's future is in it."""
    seat = play.turn
    other = play.clone()
    st = other._st
    pool = sorted([c for s, h in enumerate(st.hands) if s != seat for c in h] + list(st.stock))
    sizes = [0 if s == seat else len(h) for s, h in enumerate(st.hands)]
    rec = st.record
    n = len(st.hands)
    if len(rec.held) == n:
        unseen = C.cards_mask(pool)
        known = [0 if s == seat else rec.held[s] & unseen for s in range(n)]
        # each hand is weighed against the table its player saw when it last threw: the
        # melds laid since (the seat's own this turn among them) say nothing of that hand
        fits = rec.fits if len(rec.fits) == n else (fits_mask(play.table),) * n
        hands, stock = weighted_deal(pool, sizes, known, rec.thrown, rec.passed, fits, rng)
    else:  # a game without a record (built by hand): uniform
        rng.shuffle(pool)
        hands = []
        for size in sizes:
            hands.append(pool[:size])
            pool = pool[size:]
        stock = pool
    for s in range(n):
        if s != seat:
            st.hands[s] = hands[s]
    st.stock = stock
    st.rng = random.Random(rng.getrandbits(64))
    other._hand_rng = None
    return other


def outcome(play: GingoPlay, side: int) -> float:
    """How good the board of ``play`` is for ``side``: :data:`WIN` for a won game (minus
    for a lost one), else the opponent's link distance less ``side``'s."""
    winner = play.table.winner
    if winner is not None:
        return WIN if winner == side else -WIN
    b = play.table.board
    return float(b.link_distance(3 - side) - b.link_distance(side))


def play_out(play: GingoPlay, first: A.Action, side: int, rng: random.Random) -> float:
    """Play ``first`` on ``play`` (a sampled copy, changed in place), then the normal bot in
    every seat to the end of the hand; the :func:`outcome` for ``side``."""
    play.perform(first, in_place=True)
    for _ in range(MOVE_CAP):
        if play.phase != "play":
            break
        play.perform(strong_move(play, rng), in_place=True)
    return outcome(play, side)


def candidates(play: GingoPlay) -> list[A.Action]:
    """The moves weighed for the player to move, the normal bot's own first; one move
    when there is nothing to weigh (set-up, melds and hits, going out)."""
    normal = strong_move(play)
    if play.phase != "play":
        return [normal]
    seat = play.turn
    if play.stage == "draw":
        out: list[A.Action] = [normal]
        for action in [A.Draw(seat)] + [a for _, a in dig_options(play)[:DIGS]]:
            if action not in out:
                out.append(action)
        return out
    if isinstance(normal, (A.Meld, A.Hit)):
        out = [normal]
        for _, lay in lay_options(play)[1:1 + LAYS.get(len(play.hands), 0)]:
            if lay not in out:
                out.append(lay)
        return out
    if not isinstance(normal, A.Discard) or len(play.hands[seat]) <= 1:
        return [normal]
    out = [normal]
    for card in discard_order(play)[:DISCARDS]:
        action = A.Discard(seat, card)
        if action not in out:
            out.append(action)
    return out


def weigh(play: GingoPlay, moves: Sequence[A.Action], rng: random.Random) -> list[float]:
    """The mean :func:`outcome` of each move over the sampled deals (see the module notes)."""
    side = side_of(play.turn)
    totals = [0.0] * len(moves)
    start = time.thread_time()
    limit = budget() / 1000.0
    done = 0
    slowest = 0.0
    for _ in range(SAMPLES):
        if done >= MIN_SAMPLES:
            spent = time.thread_time() - start
            if spent + slowest > limit:
                break  # the next round would overrun the budget
        round_start = time.thread_time()
        deal = sample_deal(play, rng)
        seed = rng.getrandbits(64)
        for i, move in enumerate(moves):
            totals[i] += play_out(deal.clone(), move, side, random.Random(seed))
        done += 1
        slowest = max(slowest, time.thread_time() - round_start)
    return [t / done for t in totals]


def search_move(play: GingoPlay, rng: random.Random | None = None) -> A.Action:
    """The strong bot's next action (typed) for whoever is to move."""
    moves = candidates(play)
    if len(moves) == 1:
        return moves[0] if play.phase == "play" else strong_move(play, rng)
    sampler = random.Random(seat_seed(play, rng if rng is not None else random.Random(0)))
    means = weigh(play, moves, sampler)
    best = max(range(len(moves)), key=lambda i: (means[i], -i))
    return moves[best]


__all__ = ["search_move", "candidates", "sample_deal", "outcome", "play_out", "seat_seed", "SAMPLES"]
