"""Ginski (seed 003): three-player gin rummy with the 70-card Rumski deck.

Cards are ``R B G Y P`` 1..13 and the wilds ``W1``..``W5`` (see :mod:`companion.cards`);
a card counts its number, a wild 20, and a meld holds at most one wild. A player whose
deadwood is 13 or less ends the round; the ender scores the sum of every opponent's
deadwood minus their own; a Ginski (all ten kept cards melded) scores 25 plus that
sum and a Big Ginski (all eleven, no discard) 31 plus it. An opponent with less
deadwood than the ender undercuts: it scores 25 plus the deadwood of all its
opponents, its own not subtracted. The first to 100 wins (RULES.md section 4).

The module surface is the one of :mod:`companion.rules.base`. Seats are numbered in
turn order: play passes from seat ``i`` to seat ``i + 1``. Kinds: ``"gin"`` is a
Ginski, ``"big_gin"`` a Big Ginski.

The seed's first example, 15 + 20 - 8 = 27:

>>> r = score_hand(["R1 R2 R3 B5 B6 B7 G9 G10 G11 Y8",
...                 "R4 B4 G4 P10 P11 P12 Y1 G2 P5 R7",
...                 "Y4 Y5 Y6 Y7 G6 G7 G8 P13 B1 R6"], ender=0)
>>> r.kind, r.deadwood, r.points
('knock', [8, 15, 20], [27, 0, 0])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from companion.errors import refusal
from companion import cards as C
from companion import melds as M
from companion.rules.base import HandResult, MatchScore
from companion.rules.declare import Declared, read_declared
from companion.games.options import check_record, option_field, preset_options, resolve_options, with_overrides
from companion.rules.common import check_result, read_seat_hands

VARIANT: Final = "ginski"
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

    def __post_init__(self) -> None:
        check_record(self, VARIANT)
        for name in ("deal", "deal_two_players", "target"):
            if getattr(self, name) < 1:
                raise ValueError(f"ginski option {name} must be at least 1")
        per = self.deal_two_players if self.players == 2 else self.deal
        if self.players * per + 3 > C.popcount(DECK):
            raise ValueError(
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
        raise ValueError(f"Ginski is for 2 to 4 players, not {players}")
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
    dw = M.deadwood_of_mask(kept, "ginski")
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
    return [m.names() for m in M.best_arrangement(kept, "ginski").melds]


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
    return M.check_meld(list(meld.cards) + list(cards), M.GINSKI, dict(meld.wilds))


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
        res = M.best_layoffs(masks[seat], melds, M.GINSKI)
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
        raise ValueError(
            f"ender must be a seat 0..{opts.players - 1} (or None for a void hand), got {ender!r}"
        )
    masks = _read_hands(hands, opts, ender)
    n = opts.players
    if ender is None and declared is not None:
        raise ValueError("declared: a void hand (the stock ran out) has no ender to declare")
    if ender is None:
        arrs = [M.best_arrangement(m, "ginski") for m in masks]
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
            own_arr = read_declared(declared, own, M.GINSKI)
        except ValueError as exc:
            raise ValueError(f"seat {ender}: {exc}") from None
        own_dw = own_arr.value
    else:
        own_dw = M.deadwood_of_mask(own, "ginski")
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
        for arr in ([own_arr] if own_arr is not None else M.arrangements(own, "ginski", limit=64)):
            out = _layoffs(masks, ender, arr)
            total = sum(out[0]) - own_dw
            if best is None or total > best[0]:
                best = (total, out)
        assert best is not None
        dws, laid, arrs = best[1]
    else:
        arrs = [M.best_arrangement(m, "ginski") for m in masks]
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
        raise ValueError("deadwood must be a list with one count per seat")
    if len(deadwood) != n:
        raise ValueError(f"this Ginski game has {n} players: expected {n} deadwood counts, got {len(deadwood)}")
    dws: list[int] = []
    for seat, d in enumerate(deadwood):
        if isinstance(d, bool) or not isinstance(d, int) or d < 0:
            raise refusal(f"seat {seat}: deadwood must be a whole number >= 0, got {d!r}", field="deadwood", seat=seat)
        dws.append(d)
    notes = ["scored from deadwood counts only: cards and lay-offs are not checked"]
    empty: list[list[str]] = [[] for _ in range(n)]
    if ender is None:
        if big_gin:
            raise ValueError("a void hand (stock ran out) has no Big Ginski")
        return HandResult(
            variant=VARIANT, kind="void", ender=None, winner=None, points=[0] * n,
            deadwood=dws, layoffs=empty, melds=[[] for _ in range(n)], deadwood_cards=empty,
            extra={"undercutter": None, "undercutters": [], "entry": "deadwood"},
            notes=notes + ["the stock ran out: a void hand, nobody scores"],
        )
    if isinstance(ender, bool) or not isinstance(ender, int) or not 0 <= ender < n:
        raise ValueError(f"ender must be a seat 0..{n - 1} (or None for a void hand), got {ender!r}")
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
    """Fold the round results, in order, into the match.

    The game ends after the first round that leaves someone at ``target`` or more
    and alone at the top; a tie for the top at or above the target plays on until a
    round breaks it. A result after the end raises ``ValueError``.

    >>> win = HandResult("ginski", "gin", 0, 0, [60, 0, 0], [0, 20, 30])
    >>> m = score_match([win, win], 3, Options())
    >>> m.totals, m.finished, m.winner
    ([120, 0, 0], True, 0)
    """
    deal_size(players, options)
    totals = [0] * players
    hands_won = [0] * players
    finished = False
    winner: int | None = None
    for i, res in enumerate(results):
        if finished:
            raise ValueError(f"round {i + 1} comes after the end of the game")
        check_result(res, i + 1, players, VARIANT, "Ginski", "round")
        for seat, p in enumerate(res.points):
            if isinstance(p, bool) or not isinstance(p, int):
                raise ValueError(f"round {i + 1}: Ginski points are whole numbers per seat")
            totals[seat] += p
        if res.winner is not None:
            hands_won[res.winner] += 1
        top = max(totals)
        if top >= options.target and totals.count(top) == 1:
            finished, winner = True, totals.index(top)
    return MatchScore(
        variant=VARIANT,
        players=players,
        totals=totals,
        hands_won=hands_won,
        finished=finished,
        winner=winner,
        final=list(totals),
        bonuses=[],
        hands=len(results),
        extra={},
    )


__all__ = [
    "Options", "PRESETS", "DEFAULT_PRESET", "DECK", "PLAYERS", "make_options", "deal_size",
    "next_dealer", "end_kind", "best_declaration", "score_hand", "score_from_deadwood", "score_match",
]
