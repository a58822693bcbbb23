"""Gin Rummy: hand scoring (the options and presets are in
:mod:`companion.games.gin.options`, the match score and the next dealer in
:mod:`companion.games.gin.match`; both offered here too).

Four presets: ``gin_002`` (seed 002, the short summary),
``gin_004`` (seed 004, CARDominoes; the default), ``pagat`` and ``modern``
(``gin_pagat`` and ``gin_modern`` are accepted as the same names). Oklahoma Gin is an
option on any preset (``oklahoma=True`` and the hand's ``upcard``).

A hand ends one of three ways, and :func:`score_hand` takes them all:

* ``ender`` is a seat index: that player knocked or went gin (10 cards kept after
  the face-down discard), or went big gin (11 cards, no discard);
* ``ender`` is None: the stock ran down to two cards with nobody ending the hand;
  the preset's ``stock_end`` says whether that is a void hand (no score) or a
  showdown (the lower deadwood scores the difference).

>>> r = score_hand(["5H 6H 7H 9C 9D 9S KS KH KD 2C",
...                 "AS 2S 3S 4D 5D 6D 8C 8H 10S QC"], ender=0)
>>> r.kind, r.winner, r.points, r.deadwood
('knock', 0, [26, 0], [2, 28])
>>> m = score_match([r], 2, make_options())
>>> m.totals, m.finished
([26, 0], False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from companion.errors import IllegalAction, refusal
from companion import cards as C
from companion import melds as M
from companion.rules.base import HandKind, HandResult
from companion.rules.declare import Declared, read_declared
from companion.games.gin.options import (  # the options live there; offered here too
    _RULES, ALIASES, DECK, DEFAULT_PRESET, HAND_SIZE, MELD_RULES, PLAYERS, PRESETS,
    VARIANT, Options, _resolve, deal_size, end_kind, knock_limit, make_options,
)
from companion.games.gin.match import add_hand, next_dealer, score_match, start_match  # the match; offered here too


def _hand_masks(hands: Sequence[Any]) -> list[int]:
    if isinstance(hands, (str, bytes, int)) or not isinstance(hands, Sequence) or len(hands) != 2:
        raise IllegalAction("give the cards of both players, in seat order (2 hands)")
    masks = []
    seen = 0
    for seat, h in enumerate(hands):
        try:
            m = M._hand_mask(h, _RULES)
        except ValueError as exc:
            raise refusal(f"seat {seat}: {exc}", field="hands", seat=seat) from None
        dup = m & seen
        if dup:
            raise refusal(
                f"seat {seat}: {', '.join(C.mask_names(dup))} is already in another hand", field="hands", seat=seat)
        seen |= m
        masks.append(m)
    return masks


def _names(cards: Iterable[int]) -> list[str]:
    return [C.card_name(c) for c in cards]


def best_declaration(kept: int, options: Options | None = None) -> list[list[str]]:
    """The melds a player keeping ``kept`` (a mask) declares by default, as seen from
    their own seat (the defender's cards unknown): the least deadwood, and among
    arrangements that tie, the one whose melds the fewest unseen cards could extend.

    >>> best_declaration(C.to_mask("7S 7H 7D 7C 8C 9C 2H 3H 4H KD"))
    [['7S', '7H', '7D'], ['2H', '3H', '4H'], ['7C', '8C', '9C']]
    """
    arrs = M._arrangements_mask(kept, _RULES, limit=32)
    if len(arrs) == 1:
        return [m.names() for m in arrs[0].melds]
    unseen = DECK & ~kept
    best = min(arrs, key=lambda a: sum(_open_ends(m, unseen) for m in a.melds))
    return [m.names() for m in best.melds]


def _open_ends(meld: M.Meld, unseen: int) -> int:
    """How many ``unseen`` cards could be laid off straight onto ``meld``."""
    cards = meld.stands_for()
    if meld.kind == "set":
        r = C.rank(cards[0]) - 1
        return sum(1 for s in range(4) if unseen >> (13 * s + r) & 1)
    su = C.suit(cards[0])
    ranks = [C.rank(c) for c in cards]
    lo, hi = min(ranks), max(ranks)
    ends = [r for r in (lo - 1, hi + 1) if 1 <= r <= 13]
    return sum(1 for r in ends if unseen >> (13 * su + r - 1) & 1)


def _choose_knocker_arrangement(knocker: int, defender: int) -> tuple[M.Arrangement, M.LayoffResult]:
    """Among the knocker's least-deadwood arrangements, the one that leaves the
    defender the most deadwood after lay-offs (the knocker declares it)."""
    best: tuple[M.Arrangement, M.LayoffResult] | None = None
    for arr in M._arrangements_mask(knocker, _RULES, limit=64):
        lay = M.best_layoffs(defender, arr.melds, _RULES)
        if best is None or lay.deadwood > best[1].deadwood:
            best = (arr, lay)
    assert best is not None
    return best


def _no_knock(ender: int, kdw: int, limit: int, opts: Options) -> str:
    """The message for an ender whose deadwood is over the knock limit."""
    if limit <= 0:
        why = "only gin may end this Oklahoma hand (ace upcard)" if opts.oklahoma \
            else "only gin may end the hand"
        return f"seat {ender} may not knock: {kdw} deadwood; {why}"
    shown = limit + 1 if opts.knock_compare == "lt" else limit
    rule = (f"deadwood must be less than {shown}" if opts.knock_compare == "lt"
            else f"deadwood must be {shown} or less")
    if opts.oklahoma:
        rule += f", the value of the upcard {opts.upcard}"
    return f"seat {ender} may not knock with {kdw} deadwood: {rule}"


def _outcome(ender: int, kdw: int, ddw: int, big: bool, opts: Options,
             notes: list[str]) -> tuple[HandKind, int | None, list[int]]:
    """Kind, winner and points of a hand the ender ended with ``kdw`` deadwood against
    the defender's ``ddw`` (after any lay-offs)."""
    defender = 1 - ender
    points = [0, 0]
    kind: HandKind
    winner: int | None
    if kdw == 0:
        if opts.gin_can_be_undercut and opts.undercut_on_tie and ddw == 0:
            kind, winner = "undercut", defender
            points[defender] = opts.undercut_bonus
        else:
            kind, winner = ("big_gin" if big else "gin"), ender
            points[ender] = (opts.big_gin_bonus if big else opts.gin_bonus) + ddw
    elif kdw < ddw:
        kind, winner = "knock", ender
        points[ender] = ddw - kdw
    elif ddw < kdw or opts.undercut_on_tie:
        kind, winner = "undercut", defender
        points[defender] = opts.undercut_bonus + kdw - ddw
    else:
        kind, winner = "knock", None
        notes.append("equal deadwood and no undercut on a tie: nobody scores")
    if opts.oklahoma and opts.oklahoma_spades_double and opts.upcard is not None \
            and C.suit(C.parse_card(opts.upcard)) == 0:
        points = [p * 2 for p in points]
        notes.append("spade upcard: points doubled")
    return kind, winner, points


def _showdown_points(d0: int, d1: int, opts: Options,
                     notes: list[str]) -> tuple[int | None, list[int]]:
    points = [0, 0]
    if d0 == d1:
        notes.append("equal deadwood: nobody scores")
        return None, points
    winner = 0 if d0 < d1 else 1
    points[winner] = abs(d0 - d1) + (opts.gin_bonus if min(d0, d1) == 0 else 0)
    return winner, points


def score_hand(hands: Sequence[Any], ender: int | None, preset: str | None = None, *,
               options: Options | None = None, declared: Declared | None = None,
               **overrides: Any) -> HandResult:
    """Score one hand of Gin Rummy.

    ``hands`` holds both players' cards in seat order (card strings, ints or masks):
    10 each, or 11 for the ender of a big gin. ``ender`` is the seat that knocked or
    went gin, or None when the stock ran down to two cards (void or showdown, per
    ``stock_end``). The knocker's arrangement is the least-deadwood one that leaves
    the defender the most deadwood; the defender's lay-offs (chained along runs) and
    own melds are chosen together to minimise the defender's deadwood.

    ``declared``: the ender's melds as lists of cards (the knocker may declare any legal
    arrangement within the knock limit); the rest of the hand is
    deadwood, and the defender lays off onto these melds. A meld that is not legal, a
    card not in the hand, or declared deadwood above the knock limit is refused.

    Raises ``ValueError`` for a bad card, a card in both hands, a wrong hand size, or
    an ender who may not knock under the preset.

    >>> r = score_hand(["AS 2S 3S 4S 9D 9H 9C KH QH JH", "5C 6C 8D 8S 2D 2H 3C 4D 10S JS"], 0)
    >>> r.kind, r.points
    ('gin', [83, 0])
    >>> score_hand(["AS 2S 3S 4S 9D 9H 9C KH QH JH", "5C 6C 8D 8S 2D 2H 3C 4D 10S JS"],
    ...            1).kind
    Traceback (most recent call last):
    ...
    companion.errors.IllegalAction: seat 1 may not knock with 58 deadwood: deadwood must be 10 or less
    """
    opts = _resolve(preset, options, overrides)
    masks = _hand_masks(hands)
    notes: list[str] = []
    if ender is None and declared is not None:
        raise IllegalAction("declared: a hand that reached the stock end has no ender to declare")
    if ender is None:
        for seat, m in enumerate(masks):
            n = m.bit_count()
            if n not in (0, HAND_SIZE):
                raise refusal(
                    f"seat {seat}: {n} cards; at the stock end each hand holds 10", field="hands", seat=seat)
        if opts.stock_end == "void_at_2" or not all(masks):
            dws = [M.deadwood_of_mask(m) for m in masks]
            return HandResult(VARIANT, "void", None, None, [0, 0], dws,
                              layoffs=[[], []], melds=_melds_of(masks),
                              deadwood_cards=_dead_of(masks),
                              notes=["two cards left in the stock: void hand, same dealer"])
        return _showdown(masks, opts)
    if not isinstance(ender, int) or isinstance(ender, bool) or ender not in (0, 1):
        raise IllegalAction(f"ender must be seat 0 or 1 (or None at the stock end), got {ender!r}")
    defender = 1 - ender
    km, dm = masks[ender], masks[defender]
    if dm.bit_count() != HAND_SIZE:
        raise refusal(f"seat {defender}: {dm.bit_count()} cards; a defender holds 10", field="hands", seat=defender)
    kn = km.bit_count()
    limit = knock_limit(opts)
    darr_declared: M.Arrangement | None = None
    if declared is not None:
        try:
            darr_declared = read_declared(declared, km, _RULES)
        except ValueError as exc:
            raise IllegalAction(f"seat {ender}: {exc}") from None
        kdw = darr_declared.value
        if kn == HAND_SIZE + 1 and kdw:
            raise IllegalAction(f"seat {ender}: a big gin declares all 11 cards melded; the "
                             f"declared melds leave {kdw} deadwood")
        if kn == HAND_SIZE and kdw > limit:
            raise IllegalAction(_no_knock(ender, kdw, limit, opts) + " (the declared melds leave "
                             f"{' '.join(darr_declared.deadwood_names)} unmatched)")
        notes.append(f"seat {ender} declared its melds")
    else:
        kdw = M.deadwood_of_mask(km)
    if kn == HAND_SIZE + 1:
        if opts.big_gin_bonus <= 0:
            raise refusal(
                f"seat {ender}: 11 cards, but this preset has no big gin "
                "(give the 10 cards kept after the discard)", field="hands", seat=ender)
        if kdw:
            raise refusal(
                f"seat {ender}: 11 cards are a big gin only when all 11 meld "
                f"({kdw} deadwood; give the 10 cards kept after the discard)", field="hands", seat=ender)
    elif kn != HAND_SIZE:
        raise refusal(f"seat {ender}: {kn} cards; the ender holds 10 after the discard "
                         "(11 for a big gin)", field="hands", seat=ender)
    elif kdw > limit:
        raise refusal(_no_knock(ender, kdw, limit, opts), field="upcard" if opts.oklahoma else "hands", seat=ender)
    layoffs: list[list[str]] = [[], []]
    if kdw == 0 and not opts.layoff_after_gin:
        karr = darr_declared or M._arrangements_mask(km, _RULES, limit=1)[0]
        darr = M._arrangements_mask(dm, _RULES, limit=1)[0]
        ddw = darr.value
        notes.append("no lay-offs after gin")
    else:
        if darr_declared is not None:
            karr, lay = darr_declared, M.best_layoffs(dm, darr_declared.melds, _RULES)
        else:
            karr, lay = _choose_knocker_arrangement(km, dm)
        darr, ddw = lay.arrangement, lay.deadwood
        layoffs[defender] = _names(lay.cards)
    kind, winner, points = _outcome(ender, kdw, ddw, kn == HAND_SIZE + 1, opts, notes)
    arrs = [karr, darr] if ender == 0 else [darr, karr]
    dws = [kdw, ddw] if ender == 0 else [ddw, kdw]
    return HandResult(
        VARIANT, kind, ender, winner, points, dws, layoffs=layoffs,
        melds=[[m.names() for m in a.melds] for a in arrs],
        deadwood_cards=[a.deadwood_names for a in arrs],
        extra={"knock_limit": limit}, notes=notes)


def _melds_of(masks: list[int]) -> list[list[list[str]]]:
    return [[m.names() for m in M._arrangements_mask(x, _RULES, 1)[0].melds] if x else []
            for x in masks]


def _dead_of(masks: list[int]) -> list[list[str]]:
    return [M._arrangements_mask(x, _RULES, 1)[0].deadwood_names if x else [] for x in masks]


def _showdown(masks: list[int], opts: Options) -> HandResult:
    arrs = [M._arrangements_mask(m, _RULES, limit=1)[0] for m in masks]
    d0, d1 = arrs[0].value, arrs[1].value
    notes = ["two cards left in the stock: showdown, no lay-offs, no undercut"]
    winner, points = _showdown_points(d0, d1, opts, notes)
    return HandResult(VARIANT, "showdown", None, winner, points, [d0, d1],
                      layoffs=[[], []], melds=[[m.names() for m in a.melds] for a in arrs],
                      deadwood_cards=[a.deadwood_names for a in arrs], notes=notes)


def score_from_deadwood(deadwood: Sequence[int], ender: int | None,
                        preset: str | None = None, *, options: Options | None = None,
                        big_gin: bool = False, **overrides: Any) -> HandResult:
    """Score a hand from deadwood counts only (quick entry, no cards): ``deadwood`` per
    seat, the defender's **after** lay-offs. Every option applies as in
    :func:`score_hand`; ``big_gin`` marks a 0 from all eleven cards melded. With
    ``ender`` None the hand reached the two-card stock (void or showdown).

    >>> score_from_deadwood([4, 30], 0).points, score_from_deadwood([4, 4], 0, "pagat").points
    ([26, 0], [0, 10])
    >>> score_from_deadwood([10, 30], 0, "gin_002")
    Traceback (most recent call last):
    ...
    companion.errors.IllegalAction: seat 0 may not knock with 10 deadwood: deadwood must be less than 10
    """
    opts = _resolve(preset, options, overrides)
    if isinstance(deadwood, (str, bytes)) or len(deadwood) != 2:
        raise IllegalAction("give one deadwood count per seat (2 numbers)")
    for seat, d in enumerate(deadwood):
        if not isinstance(d, int) or isinstance(d, bool) or not 0 <= d <= 98:
            raise refusal(f"seat {seat}: deadwood {d!r} is not a count from 0 to 98", field="deadwood", seat=seat)
    d0, d1 = int(deadwood[0]), int(deadwood[1])
    notes = ["scored from deadwood counts: lay-offs are not checked"]
    if ender is None:
        if big_gin:
            raise IllegalAction("a big gin has an ender")
        if opts.stock_end == "void_at_2":
            return HandResult(VARIANT, "void", None, None, [0, 0], [d0, d1],
                              layoffs=[[], []], melds=[[], []], deadwood_cards=[[], []],
                              extra={"entry": "deadwood"},
                              notes=notes + ["two cards left in the stock: void hand"])
        winner, points = _showdown_points(d0, d1, opts, notes)
        return HandResult(VARIANT, "showdown", None, winner, points, [d0, d1],
                          layoffs=[[], []], melds=[[], []], deadwood_cards=[[], []],
                          extra={"entry": "deadwood"}, notes=notes)
    if not isinstance(ender, int) or isinstance(ender, bool) or ender not in (0, 1):
        raise IllegalAction(f"ender must be seat 0 or 1 (or None at the stock end), got {ender!r}")
    kdw, ddw = (d0, d1) if ender == 0 else (d1, d0)
    limit = knock_limit(opts)
    if big_gin and (opts.big_gin_bonus <= 0 or kdw):
        raise refusal(f"seat {ender}: a big gin needs 0 deadwood and a preset with big gin", field="hands", seat=ender)
    if kdw > limit:
        raise refusal(_no_knock(ender, kdw, limit, opts), field="upcard" if opts.oklahoma else "hands", seat=ender)
    kind, winner, points = _outcome(ender, kdw, ddw, big_gin, opts, notes)
    return HandResult(VARIANT, kind, ender, winner, points, [d0, d1], layoffs=[[], []],
                      melds=[[], []], deadwood_cards=[[], []],
                      extra={"knock_limit": limit, "entry": "deadwood"}, notes=notes)


__all__ = [
    "VARIANT", "MELD_RULES", "DECK", "PLAYERS", "HAND_SIZE", "Options", "PRESETS",
    "ALIASES", "DEFAULT_PRESET", "make_options", "knock_limit", "end_kind", "deal_size",
    "score_hand", "score_from_deadwood", "score_match", "start_match", "add_hand", "next_dealer", "best_declaration",
]
