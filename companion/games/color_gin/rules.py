"""Color Gin (Sid Sackson, as retold by seed 001): four scores per player, one per suit.

A hand ends with gin or a knock like gin rummy, but the points go into each suit the
ender's *declared* arrangement leaves unspoiled: a run spoils its suit, a three-card
set the suit it lacks, a four-card set nothing, and every deadwood card its own suit.
A suit closes for everyone once a player reaches the target (default 100) in it; the
first to reach it wins the suit, and three suits win the game.

The module surface is the one of :mod:`companion.rules.base`. Seats are 0 and 1. The
options and presets live in :mod:`companion.games.color_gin.options`, spoiling and the
declared arrangement in :mod:`companion.games.color_gin.declare`; this module scores
hands and matches and offers every public name of both. ``score_hand`` takes, besides the common arguments:

* ``declared``: the ender's melds as lists of card names; spoiling and the ender's
  deadwood come from it. Without it the engine declares for the ender (see
  :func:`choose_arrangement`);
* ``closed``: the suits already closed, as letters (``"SH"`` or ``["S", "H"]``) or a
  :class:`~companion.rules.base.MatchScore`; a knock or gin is refused when every
  suit the declared hand leaves unspoiled is closed;
* ``joker``: co-op joker variant only (``coop_jokers``): the ender drew a joker and
  discarded it, so the hand ends whatever its deadwood (a knock above the limit is
  accepted) and even if nothing can score.

>>> r = score_hand(["QH QS QC 10D JD QD 3D 4D 5D 6D", "7S 8S 9S KH KS KC KD 5S 5H 8C"],
...                ender=0)
>>> r.kind, r.points[0], r.extra["spoiled"]
('gin', {'S': 38, 'H': 38, 'D': 0, 'C': 38}, ['D'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion.errors import IllegalAction, refusal
from companion import cards as C
from companion import melds as M
from companion.rules.base import HandResult, MatchScore
from companion.rules.common import check_result, read_seat_hands
from companion.games.color_gin.options import (  # the options live there; offered here too
    DECK, DEFAULT_PRESET, HAND_SIZE, MELD_RULES, PLAYERS, PRESETS, SUIT_LETTERS, VARIANT, AutoDeclare, Options, StockEnd,
    Tiebreak, TieRule, _check_players, _resolve, deal_size, deck, make_options, next_dealer,
)
from companion.games.color_gin.declare import (  # the declarations live there; offered here too
    Declaration, _declare, _read_declared, all_arrangements,
    choose_arrangement, closed_mask, end_kind, spoiled_suits, suit_letters,
)


# ---------------------------------------------------------------------------
# Scoring one hand


def _read_hands(hands: Sequence[object], allow_empty: bool) -> list[int]:
    def count_error(seat: int, n: int) -> str | None:
        if n == HAND_SIZE or (allow_empty and n == 0):
            return None
        return ("Color Gin hands are scored with 10 each "
                "(the ender's 10 after the discard; there is no big gin)")

    return read_seat_hands(
        hands, 2, DECK, players_text="Color Gin has 2 players",
        not_in_deck="is not a Color Gin card "
                    "(52 standard cards; a co-op joker is discarded when drawn, never held)",
        count_error=count_error,
    )


def _points_row(amount: int, scoring_suits: int) -> dict[str, int]:
    return {SUIT_LETTERS[s]: (amount if scoring_suits >> s & 1 else 0) for s in range(4)}


def _zero_row() -> dict[str, int]:
    return {s: 0 for s in SUIT_LETTERS}


def score_hand(
    hands: Sequence[object],
    ender: int | None,
    preset: str | None = None,
    *,
    options: Options | None = None,
    declared: Sequence[Iterable[str | int]] | None = None,
    closed: str | Iterable[str] | MatchScore | None = None,
    joker: bool = False,
    **overrides: object,
) -> HandResult:
    """Score one Color Gin hand.

    ``hands``: both players' 10 cards in seat order (the ender's after the discard),
    each as card names, card ints or a card bitmask.
    ``ender``: the seat that knocked or went gin, or None when the stock ran out (a
    void hand: nobody scores). ``points`` per seat are a dict suit -> points before
    suit closing; ``extra["spoiled"]`` lists the suits the ender's hand spoils.

    >>> r = score_hand(["AS 2S 3S 9H 9D 9C KC QC JC 4D", "5S 6S 7S 8H 8D 8C 2H 3C 4C 10S"], 0)
    >>> r.kind, r.winner, r.deadwood, r.points[0]
    ('knock', 0, [4, 19], {'S': 0, 'H': 15, 'D': 0, 'C': 0})
    """
    opts = _resolve(preset, options, overrides)
    if ender is None:
        if declared is not None or joker:
            raise IllegalAction("a void hand (stock ran out) has no ender to declare or draw a joker")
        return _void(hands)
    if isinstance(ender, bool) or not isinstance(ender, int) or ender not in (0, 1):
        raise IllegalAction(f"ender must be seat 0 or 1 (or None for a void hand), got {ender!r}")
    if joker and not opts.coop_jokers:
        raise IllegalAction("joker=True needs the co-op joker variant (coop_jokers)")
    masks = _read_hands(hands, allow_empty=False)
    closed_m = closed_mask(closed)
    own = masks[ender]
    other = 1 - ender
    if declared is not None:
        d = _declare(_read_declared(declared, own), closed_m)
        if d.arrangement.value > opts.knock_limit and not joker:
            raise refusal(
                f"seat {ender} may not knock: the declared deadwood is {d.arrangement.value}, "
                f"above the knock limit {opts.knock_limit}", field="hands", seat=ender)
        if not d.open_unspoiled and not joker:
            raise refusal(
                f"seat {ender} may not knock or go gin: the declared melds leave no suit both "
                f"unspoiled and open (spoiled {''.join(suit_letters(d.spoiled)) or 'none'}, "
                f"closed {''.join(suit_letters(closed_m)) or 'none'})", field="declared")
    else:
        chosen = choose_arrangement(own, opts, closed_m, forced=joker, defender=masks[1 - ender])
        if chosen is None:
            least = M.deadwood_of_mask(own, MELD_RULES)
            if least > opts.knock_limit:
                raise refusal(
                    f"seat {ender} may not knock: least deadwood {least} is above the knock "
                    f"limit {opts.knock_limit}", field="hands", seat=ender)
            raise refusal(
                f"seat {ender} may not knock or go gin: every arrangement within the limit "
                f"leaves no suit both unspoiled and open (closed {''.join(suit_letters(closed_m))})",
                field="hands", seat=ender)
        d = chosen
    arr = d.arrangement
    gin = arr.value == 0
    notes: list[str] = []
    if joker:
        notes.append("co-op joker: the ender had to end the hand")
    layoffs: list[list[str]] = [[], []]
    if gin:
        opp_arr = M.best_arrangement(masks[other], MELD_RULES)
        opp_dw = opp_arr.value
    else:
        lay = M.best_layoffs(masks[other], arr.melds, MELD_RULES)
        opp_arr = lay.arrangement
        opp_dw = lay.deadwood
        layoffs[other] = [C.card_name(c) for c in sorted(lay.cards)]
    own_dw = arr.value
    winner: int | None
    if gin:
        kind, winner, amount = "gin", ender, opts.gin_bonus + opp_dw
    elif own_dw < opp_dw:
        kind, winner, amount = "knock", ender, opp_dw - own_dw
    elif own_dw > opp_dw:
        kind, winner, amount = "undercut", other, own_dw - opp_dw + opts.undercut_bonus
    elif opts.tie == "undercut":
        kind, winner, amount = "undercut", other, opts.undercut_bonus
        notes.append("equal deadwood: the defender undercuts (tie=undercut)")
    elif opts.tie == "knocker_wins_zero":
        kind, winner, amount = "knock", ender, 0
        notes.append("equal deadwood: the knocker wins and scores 0 (tie=knocker_wins_zero)")
    else:
        kind, winner, amount = "knock", None, 0
        notes.append("equal deadwood: nobody scores (tie=no_score)")
    unspoiled = 0xF & ~d.spoiled
    points = [_zero_row(), _zero_row()]
    if winner is not None:
        points[winner] = _points_row(amount, unspoiled)
    ordered = [arr, opp_arr] if ender == 0 else [opp_arr, arr]
    deadwood = [own_dw, opp_dw] if ender == 0 else [opp_dw, own_dw]
    return HandResult(
        variant=VARIANT,
        kind=kind,  # type: ignore[arg-type]
        ender=ender,
        winner=winner,
        points=points,
        deadwood=deadwood,
        layoffs=layoffs,
        melds=[[m.names() for m in a.melds] for a in ordered],
        deadwood_cards=[a.deadwood_names for a in ordered],
        extra={
            "spoiled": suit_letters(d.spoiled),
            "amount": amount if winner is not None else 0,
            "scoring_suits": suit_letters(unspoiled & ~closed_m),
            "joker": joker,
        },
        notes=notes,
    )


def _void(hands: Sequence[object]) -> HandResult:
    masks = _read_hands(hands, allow_empty=True)
    arrs = [M.best_arrangement(m, MELD_RULES) if m else None for m in masks]
    return HandResult(
        variant=VARIANT,
        kind="void",
        ender=None,
        winner=None,
        points=[_zero_row(), _zero_row()],
        deadwood=[a.value if a else 0 for a in arrs],
        layoffs=[[], []],
        melds=[[m.names() for m in a.melds] if a else [] for a in arrs],
        deadwood_cards=[a.deadwood_names if a else [] for a in arrs],
        extra={"spoiled": []},
        notes=["the stock ran out: a void hand, nobody scores"],
    )


# ---------------------------------------------------------------------------
# Scoring the match


def score_match(results: Sequence[HandResult], players: int, options: Options) -> MatchScore:
    """Fold the hand results, in order, into the match (:func:`add_hand` on each).

    Points go only into suits still open when the hand is scored; a suit closes for
    everyone once someone reaches ``target`` in it (the overshoot stays) and is won by
    whoever got there. The game ends when a player holds three suits, when all four
    are closed, or after ``void_cap`` void hands in a row. A result after the end
    raises ``ValueError``.

    >>> r = score_hand(["QH QS QC 10D JD QD 3D 4D 5D 6D", "7S 8S 9S KH KS KC KD 5S 5H 8C"], 0)
    >>> m = score_match([r] * 3, 2, Options())
    >>> m.totals[0], m.extra["closed"], m.finished, m.winner
    ({'S': 114, 'H': 114, 'D': 0, 'C': 114}, ['S', 'H', 'C'], True, 0)
    """
    m = start_match(players, options)
    for r in results:
        m = add_hand(m, r, options)
    return m


def start_match(players: int, options: Options) -> MatchScore:
    """The match before its first hand: every suit open."""
    _check_players(players)
    return _scored(players, [_zero_row(), _zero_row()], {s: None for s in SUIT_LETTERS}, [0, 0], 0, False, None,
                   0, options)


def add_hand(match: MatchScore, res: HandResult, options: Options) -> MatchScore:
    """The match one hand further (``match`` is left as it was).

    >>> r = score_hand(["QH QS QC 10D JD QD 3D 4D 5D 6D", "7S 8S 9S KH KS KC KD 5S 5H 8C"], 0)
    >>> add_hand(start_match(2, Options()), r, Options()).totals[0]
    {'S': 38, 'H': 38, 'D': 0, 'C': 38}
    """
    i, players = match.hands, match.players
    extra = match.extra
    end_reason = extra.get("end_reason")
    if match.finished:
        raise IllegalAction(f"hand {i + 1} comes after the end of the game ({end_reason})")
    check_result(res, i + 1, players, VARIANT, "Color Gin")
    totals: list[dict[str, int]] = [dict(t) for t in match.totals]  # type: ignore[arg-type]
    suit_winner: dict[str, int | None] = dict(extra["suit_winner"])  # type: ignore[call-overload]
    hands_won = list(match.hands_won)
    void_streak = int(extra["void_streak"])  # type: ignore[call-overload]
    finished = False
    if res.kind == "void":
        void_streak += 1
        if options.void_cap and void_streak >= options.void_cap:
            finished, end_reason = True, "void_cap"
        return _scored(players, totals, suit_winner, hands_won, void_streak, finished, end_reason, i + 1, options)
    void_streak = 0
    if res.winner is not None:
        hands_won[res.winner] += 1
    for seat in range(players):
        row = res.points[seat]
        if not isinstance(row, dict):
            raise IllegalAction(f"hand {i + 1}: Color Gin points are a dict suit -> points per seat")
        for s in SUIT_LETTERS:
            if suit_winner[s] is None:
                totals[seat][s] += int(row.get(s, 0))
    for s in SUIT_LETTERS:
        if suit_winner[s] is not None:
            continue
        reached = [seat for seat in range(players) if totals[seat][s] >= options.target]
        if reached:
            # one seat scores per hand, so at most one seat reaches a suit at once;
            # should both, the higher column takes it, then the lower seat
            suit_winner[s] = max(reached, key=lambda seat: (totals[seat][s], -seat))
    won = [sum(1 for s in SUIT_LETTERS if suit_winner[s] == seat) for seat in range(players)]
    if max(won) >= 3:
        finished, end_reason = True, "three_suits"
    elif all(suit_winner[s] is not None for s in SUIT_LETTERS):
        finished, end_reason = True, "all_closed"
    return _scored(players, totals, suit_winner, hands_won, void_streak, finished, end_reason, i + 1, options)


def _scored(players: int, totals: list[dict[str, int]], suit_winner: dict[str, int | None], hands_won: list[int],
            void_streak: int, finished: bool, end_reason: object, hands: int, options: Options) -> MatchScore:
    """The match score from its running parts (the winner once it is over)."""
    won = [sum(1 for s in SUIT_LETTERS if suit_winner[s] == seat) for seat in range(players)]
    sums = [sum(t.values()) for t in totals]
    winner: int | None = None
    extra: dict[str, object] = {
        "suit_winner": dict(suit_winner),
        "closed": [s for s in SUIT_LETTERS if suit_winner[s] is not None],
        "suits_won": won,
        "void_streak": void_streak,
        "end_reason": end_reason,
    }
    if finished:
        if won[0] != won[1]:
            winner = 0 if won[0] > won[1] else 1
        elif options.tiebreak == "total_points" and sums[0] != sums[1]:
            winner = 0 if sums[0] > sums[1] else 1
            extra["tiebreak"] = "total_points"
        if options.coop:
            success = won[0] == won[1] == 2
            extra["coop_success"] = success
            extra["team_score"] = sum(sums) if success else 0
            winner = None
    return MatchScore(
        variant=VARIANT,
        players=players,
        totals=totals,
        hands_won=hands_won,
        finished=finished,
        winner=winner,
        final=sums,
        bonuses=[],
        hands=hands,
        extra=extra,
    )


__all__ = [
    "Options", "PRESETS", "DEFAULT_PRESET", "DECK", "MELD_RULES", "PLAYERS", "make_options", "deck",
    "deal_size", "next_dealer", "score_hand", "score_match", "start_match", "add_hand", "end_kind",
    "choose_arrangement", "all_arrangements", "spoiled_suits", "suit_letters",
    "closed_mask", "Declaration",
]