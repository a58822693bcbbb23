"""Ginski (seed 003): three-player gin rummy with the 70-card Rumski deck.

Cards are ``R B G Y P`` 1..13 and the wilds ``W1``..``W5`` (see :mod:`companion.cards`);
a card counts its number, a wild 20, and a meld holds at most one wild. A player whose
deadwood is 13 or less ends the round; the ender scores the sum of every opponent's
deadwood minus their own; a Ginski (all ten kept cards melded) scores 25 plus that
sum and a Big Ginski (all eleven, no discard) 31 plus it. An opponent with less
deadwood than the ender undercuts: it scores 25 plus the deadwood of all its
opponents, its own not subtracted. The first to 100 wins, alone at the top.

The module surface is the one of :mod:`companion.rules.base`. Seats are numbered in
turn order: play passes from seat ``i`` to seat ``i + 1``. Kinds: ``"gin"`` is a
Ginski, ``"big_gin"`` a Big Ginski. The options, presets and deal live in
:mod:`companion.games.ginski.options`; this module scores rounds and matches and offers
every name of it.

The seed's first example, 15 + 20 - 8 = 27:

>>> r = score_hand(["R1 R2 R3 B5 B6 B7 G9 G10 G11 Y8",
...                 "R4 B4 G4 P10 P11 P12 Y1 G2 P5 R7",
...                 "Y4 Y5 Y6 Y7 G6 G7 G8 P13 B1 R6"], ender=0)
>>> r.kind, r.deadwood, r.points
('knock', [8, 15, 20], [27, 0, 0])
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.errors import IllegalAction, refusal
from companion import cards as C
from companion import melds as M
from companion.rules.base import HandResult, MatchScore
from companion.rules.declare import Declared, read_declared
from companion.rules.common import check_result, read_seat_hands
from companion.games.ginski.options import (  # the options live there; offered here too
    DECK, DEFAULT_PRESET, MELD_RULES, PLAYERS, PRESETS, VARIANT, AfterAllPass, Layoffs, Options, StockEnd, UndercutTie,
    _resolve, best_declaration, deal_size, end_kind, make_options, next_dealer,
)


# ---------------------------------------------------------------------------
# Scoring one hand


def _read_hands(hands: Sequence[object], options: Options, ender: int | None) -> list[int]:
    n = options.players
    deal = deal_size(n, options)

    def count_error(seat: int, count: int) -> str | None:
        if ender is None:
            ok = count == deal or count == 0
        elif seat == ender:
            ok = count in (deal, deal + 1)
        else:
            ok = count == deal
        if ok:
            return None
        what = (
            f"{deal} kept after the discard, or {deal + 1} for a Big Ginski"
            if seat == ender else f"{deal}"
        )
        return f"expected {what}"

    return read_seat_hands(
        hands, n, DECK, players_text=f"this Ginski game has {n} players",
        not_in_deck="is not a Rumski card "
                    "(Ginski uses colours R B G Y P with ranks 1-13 and wilds W1-W5)",
        count_error=count_error,
    )


def _extend(meld: M.Meld, cards: Sequence[int]) -> M.Meld:
    return M.check_meld(list(meld.cards) + list(cards), MELD_RULES, dict(meld.wilds))


def _layoffs(
    masks: list[int], ender: int, arr: M.Arrangement
) -> tuple[list[int], list[list[int]], list[M.Arrangement]]:
    """Opponents lay off onto the ender's melds in turn order after the ender; each
    sees the melds as the earlier ones left them. Wilds are not laid off."""
    n = len(masks)
    melds = list(arr.melds)
    dws = [0] * n
    laid: list[list[int]] = [[] for _ in range(n)]
    arrs: list[M.Arrangement] = [arr] * n
    for k in range(1, n):
        seat = (ender + k) % n
        res = M.best_layoffs(masks[seat], melds, MELD_RULES)
        for i, cards in res.laid:
            melds[i] = _extend(melds[i], cards)
        dws[seat] = res.deadwood
        laid[seat] = sorted(res.cards)
        arrs[seat] = res.arrangement
    dws[ender] = arr.value
    return dws, laid, arrs


def _award(
    dws: list[int], ender: int, big: bool, opts: Options, notes: list[str]
) -> tuple[str, int | None, list[int], list[int]]:
    """Who scores what, from every seat's deadwood (after lay-offs): the arithmetic of
    the round, shared by card entry and deadwood-only entry."""
    n = len(dws)
    own_dw = dws[ender]
    others = [(ender + k) % n for k in range(1, n)]
    opp_sum = sum(dws[s] for s in others)
    points = [0] * n
    undercutters: list[int] = []
    if own_dw == 0:
        kind = "big_gin" if big else "gin"
        winner: int | None = ender
        points[ender] = (opts.big_ginski_bonus if big else opts.ginski_bonus) + opp_sum
    else:
        low = min(dws[s] for s in others)
        if low < own_dw or (low == own_dw and opts.undercut_on_tie):
            undercutters = [s for s in others if dws[s] == low]  # in turn order
            award = opts.undercut_bonus + sum(dws) - low
            kind = "undercut"
            winner = undercutters[0]
            if len(undercutters) == 1 or opts.undercut_tie == "first_in_turn_order_after_ender":
                points[winner] = award
                if len(undercutters) > 1:
                    notes.append("undercutters tie: the first after the ender takes it")
                    undercutters = undercutters[:1]
            elif opts.undercut_tie == "split":
                for s in undercutters:
                    points[s] = award // len(undercutters)
                notes.append(f"undercutters tie: {award} split, rounded down")
            else:
                for s in undercutters:
                    points[s] = award
                notes.append("undercutters tie: each scores in full")
        else:
            kind, winner = "knock", ender
            points[ender] = opp_sum - own_dw
    return kind, winner, points, undercutters


def score_hand(
    hands: Sequence[object],
    ender: int | None,
    preset: str | None = None,
    *,
    options: Options | None = None,
    declared: Declared | None = None,
    **overrides: object,
) -> HandResult:
    """Score one Ginski round.

    ``hands``: every player's cards in seat order (names, ints or a bitmask): the
    ender's 10 kept after the face-down discard, or 11 for a Big Ginski; the others'
    10 (12 and 13 in a 2-player game). ``ender``: the seat that ended the round, or
    None when the stock ran out (a void hand). ``extra["undercutter"]`` is the seat
    that undercut the ender, or None. ``declared``: the ender's melds as lists of
    cards (a wild written ``W1=R5``, the card it stands for), the rest deadwood; a meld
    that is not legal or deadwood above ``end_limit`` is refused. Without it the
    ender's least-deadwood arrangement is used.

    The seed's undercut: ender 9, the other 20, the undercutter 5 scores 25 + 29:

    >>> hands = ["R1 R2 R3 B5 B6 B7 G9 G10 G11 Y9", "Y4 Y5 Y6 Y7 G6 G7 G8 P13 B1 R6",
    ...          "P9 P10 P11 P12 R4 B4 G4 Y1 G2 B2"]
    >>> r = score_hand(hands, ender=0)
    >>> r.kind, r.winner, r.deadwood, r.points, r.extra["undercutter"]
    ('undercut', 2, [9, 20, 5], [0, 0, 54], 2)
    """
    opts = _resolve(preset, options, overrides)
    if ender is not None and (
        isinstance(ender, bool) or not isinstance(ender, int) or not 0 <= ender < opts.players
    ):
        raise IllegalAction(
            f"ender must be a seat 0..{opts.players - 1} (or None for a void hand), got {ender!r}"
        )
    masks = _read_hands(hands, opts, ender)
    n = opts.players
    if ender is None and declared is not None:
        raise IllegalAction("declared: a void hand (the stock ran out) has no ender to declare")
    if ender is None:
        arrs = [M.best_arrangement(m, MELD_RULES) for m in masks]
        return HandResult(
            variant=VARIANT, kind="void", ender=None, winner=None, points=[0] * n,
            deadwood=[a.value if m else 0 for a, m in zip(arrs, masks)],
            layoffs=[[] for _ in range(n)],
            melds=[[x.names() for x in a.melds] for a in arrs],
            deadwood_cards=[a.deadwood_names for a in arrs],
            extra={"undercutter": None, "undercutters": []},
            notes=["the stock ran out: a void hand, nobody scores"],
        )
    deal = deal_size(n, opts)
    own = masks[ender]
    own_arr: M.Arrangement | None = None
    if declared is not None:
        try:
            own_arr = read_declared(declared, own, MELD_RULES)
        except ValueError as exc:
            raise IllegalAction(f"seat {ender}: {exc}") from None
        own_dw = own_arr.value
    else:
        own_dw = M.deadwood_of_mask(own, MELD_RULES)
    big = own.bit_count() == deal + 1
    if big and own_dw:
        raise refusal(
            f"seat {ender} holds {deal + 1} cards, which is only a Big Ginski, but {own_dw} "
            f"points of them are unmelded; give the {deal} cards kept after the discard", field="hands", seat=ender)
    if own_dw > opts.end_limit:
        raise refusal(
            f"seat {ender} may not end the round: deadwood {own_dw} is above the limit "
            f"{opts.end_limit}" + (" (the declared melds leave "
                                   f"{' '.join(own_arr.deadwood_names)} unmatched)" if own_arr else ""),
            field="hands", seat=ender)
    notes: list[str] = []
    if own_arr is not None:
        notes.append(f"seat {ender} declared its melds")
    if own_dw and opts.layoffs == "onto_ender_melds":
        best: tuple[int, tuple[list[int], list[list[int]], list[M.Arrangement]]] | None = None
        for arr in ([own_arr] if own_arr is not None else M.arrangements(own, MELD_RULES, limit=64)):
            out = _layoffs(masks, ender, arr)
            total = sum(out[0]) - own_dw
            if best is None or total > best[0]:
                best = (total, out)
        assert best is not None
        dws, laid, arrs = best[1]
    else:
        arrs = [M.best_arrangement(m, MELD_RULES) for m in masks]
        if own_arr is not None:
            arrs[ender] = own_arr
        dws = [a.value for a in arrs]
        laid = [[] for _ in range(n)]
    kind, winner, points, undercutters = _award(dws, ender, big, opts, notes)
    return HandResult(
        variant=VARIANT,
        kind=kind,  # type: ignore[arg-type]
        ender=ender,
        winner=winner,
        points=points,
        deadwood=dws,
        layoffs=[[C.card_name(c) for c in cs] for cs in laid],
        melds=[[x.names() for x in a.melds] for a in arrs],
        deadwood_cards=[a.deadwood_names for a in arrs],
        extra={"undercutter": undercutters[0] if undercutters else None, "undercutters": undercutters},
        notes=notes,
    )


def score_from_deadwood(
    deadwood: Sequence[int],
    ender: int | None,
    preset: str | None = None,
    *,
    options: Options | None = None,
    big_gin: bool = False,
    **overrides: object,
) -> HandResult:
    """Score a round from each seat's deadwood alone (quick entry, no cards).

    ``deadwood``: one count per seat, in seat order, after any lay-offs; ``ender`` as in
    :func:`score_hand`; ``big_gin``: the ender's 0 was a Big Ginski (eleven cards melded).
    The same rules as :func:`score_hand`, but nothing checks the counts against cards.

    >>> r = score_from_deadwood([9, 20, 5], 0)
    >>> r.kind, r.points, r.extra["undercutter"]
    ('undercut', [0, 0, 54], 2)
    """
    opts = _resolve(preset, options, overrides)
    n = opts.players
    if isinstance(deadwood, (str, bytes)) or not isinstance(deadwood, Sequence):
        raise IllegalAction("deadwood must be a list with one count per seat")
    if len(deadwood) != n:
        raise IllegalAction(f"this Ginski game has {n} players: expected {n} deadwood counts, got {len(deadwood)}")
    dws: list[int] = []
    for seat, d in enumerate(deadwood):
        if isinstance(d, bool) or not isinstance(d, int) or d < 0:
            raise refusal(f"seat {seat}: deadwood must be a whole number >= 0, got {d!r}", field="deadwood", seat=seat)
        dws.append(d)
    notes = ["scored from deadwood counts only: cards and lay-offs are not checked"]
    empty: list[list[str]] = [[] for _ in range(n)]
    if ender is None:
        if big_gin:
            raise IllegalAction("a void hand (stock ran out) has no Big Ginski")
        return HandResult(
            variant=VARIANT, kind="void", ender=None, winner=None, points=[0] * n,
            deadwood=dws, layoffs=empty, melds=[[] for _ in range(n)], deadwood_cards=empty,
            extra={"undercutter": None, "undercutters": [], "entry": "deadwood"},
            notes=notes + ["the stock ran out: a void hand, nobody scores"],
        )
    if isinstance(ender, bool) or not isinstance(ender, int) or not 0 <= ender < n:
        raise IllegalAction(f"ender must be a seat 0..{n - 1} (or None for a void hand), got {ender!r}")
    if dws[ender] > opts.end_limit:
        raise refusal(
            f"seat {ender} may not end the round: deadwood {dws[ender]} is above the limit "
            f"{opts.end_limit}", field="deadwood", seat=ender)
    if big_gin and dws[ender]:
        raise refusal(f"a Big Ginski melds every card: seat {ender}'s deadwood must be 0", field="hands", seat=ender)
    kind, winner, points, undercutters = _award(dws, ender, big_gin, opts, notes)
    return HandResult(
        variant=VARIANT, kind=kind, ender=ender, winner=winner,  # type: ignore[arg-type]
        points=points, deadwood=dws, layoffs=empty, melds=[[] for _ in range(n)],
        deadwood_cards=[[] for _ in range(n)],
        extra={"undercutter": undercutters[0] if undercutters else None,
               "undercutters": undercutters, "entry": "deadwood"},
        notes=notes,
    )


# ---------------------------------------------------------------------------
# Scoring the match


def score_match(results: Sequence[HandResult], players: int, options: Options) -> MatchScore:
    """Fold the round results, in order, into the match (:func:`add_hand` on each).

    The game ends after the first round that leaves someone at ``target`` or more
    and alone at the top; a tie for the top at or above the target plays on until a
    round breaks it. A result after the end raises ``ValueError``.

    >>> win = HandResult("ginski", "gin", 0, 0, [60, 0, 0], [0, 20, 30])
    >>> m = score_match([win, win], 3, Options())
    >>> m.totals, m.finished, m.winner
    ([120, 0, 0], True, 0)
    """
    m = start_match(players, options)
    for r in results:
        m = add_hand(m, r, options)
    return m


def start_match(players: int, options: Options) -> MatchScore:
    """The match before its first round."""
    deal_size(players, options)
    return MatchScore(variant=VARIANT, players=players, totals=[0] * players, hands_won=[0] * players,
                      finished=False, winner=None, final=[0] * players, bonuses=[], hands=0, extra={})


def add_hand(match: MatchScore, res: HandResult, options: Options) -> MatchScore:
    """The match one round further (``match`` is left as it was).

    >>> win = HandResult("ginski", "gin", 0, 0, [60, 0, 0], [0, 20, 30])
    >>> add_hand(start_match(3, Options()), win, Options()).totals
    [60, 0, 0]
    """
    i, players = match.hands, match.players
    if match.finished:
        raise IllegalAction(f"round {i + 1} comes after the end of the game")
    check_result(res, i + 1, players, VARIANT, "Ginski", "round")
    totals = [int(t) for t in match.totals]  # type: ignore[arg-type]
    for seat, p in enumerate(res.points):
        if isinstance(p, bool) or not isinstance(p, int):
            raise IllegalAction(f"round {i + 1}: Ginski points are whole numbers per seat")
        totals[seat] += p
    hands_won = list(match.hands_won)
    if res.winner is not None:
        hands_won[res.winner] += 1
    finished, winner = False, None
    top = max(totals)
    if top >= options.target and totals.count(top) == 1:
        finished, winner = True, totals.index(top)
    return MatchScore(variant=VARIANT, players=players, totals=totals, hands_won=hands_won, finished=finished,
                      winner=winner, final=list(totals), bonuses=[], hands=i + 1, extra={})


__all__ = [
    "Options", "PRESETS", "DEFAULT_PRESET", "DECK", "MELD_RULES", "PLAYERS", "make_options", "deal_size",
    "next_dealer", "end_kind", "best_declaration", "score_hand", "score_from_deadwood", "score_match", "start_match", "add_hand",
]