"""Team play for Gin Rummy (``team_mode``): the pagat partnership and the seed 004
outing. Pure scoring: hands and matches come in as ordinary gin results.

``team_mode = "pagat_partnership"`` (the partnership game pagat.com describes): four players in two teams,
partners seats 0 and 2 against seats 1 and 3. Each hand is two simultaneous pair
games, seat 0 against seat 1 and seat 2 against seat 3, entered together. If both
team-mates win, their team scores the sum; if the wins are split, the team with more
points scores the difference (equal: nobody). A void game counts 0. The first team to
``team_target`` (125) wins; game bonus, shutout and boxes follow the preset, counted
per team (:func:`score_partnership`).

>>> from companion.games.gin import rules as gin
>>> g1 = gin.score_from_deadwood([4, 30], 0)   # seat 0 (team A) wins 26
>>> g2 = gin.score_from_deadwood([10, 3], 0)   # seat 3 (team B) undercuts: 32
>>> h = partnership_hand(g1, g2)
>>> h.points, h.winner
([0, 6], 1)

``team_mode = "pair_tournament"`` (seed 004: "dividing players into two equal
sides, and holding separate but simultaneous games between pairs ... the winners of
one pair plays the winners of the others ... The losers play the losers. Play is
until a set time or total score is reached"): see :mod:`companion.games.gin.outing`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

from companion.errors import IllegalAction
from companion.games.gin import rules as gin
from companion.rules.base import HandResult, MatchScore

TEAM_MODES: Final = ("none", "pagat_partnership", "pair_tournament")
PARTNERSHIP_PLAYERS: Final = 4
#: the two pair games of a partnership hand: (team A seat, team B seat)
TABLES: Final = ((0, 1), (2, 3))
TEAMS: Final = ((0, 2), (1, 3))


def _seat_points(result: HandResult, table: int) -> tuple[int, int]:
    """(team A's points, team B's points) in the pair game at ``table``."""
    if result.variant != gin.VARIANT:
        raise IllegalAction(f"partnership: table {table + 1} is a {result.variant} result, not Gin Rummy")
    pts = result.points
    if len(pts) != 2 or not all(isinstance(p, int) and not isinstance(p, bool) for p in pts):
        raise IllegalAction(f"partnership: table {table + 1} needs one number of points per player")
    return int(pts[0]), int(pts[1])  # type: ignore[arg-type]


def partnership_hand(table1: HandResult, table2: HandResult) -> HandResult:
    """One partnership hand from its two pair games (seat 0 v 1, seat 2 v 3), as a
    two-"seat" gin result: seat 0 is team A (seats 0 and 2), seat 1 team B (1 and 3).
    Both won by one team: that team scores the sum; split: the higher scores the
    difference; equal or both void: nobody."""
    a1, b1 = _seat_points(table1, 0)
    a2, b2 = _seat_points(table2, 1)
    a, b = a1 + a2, b1 + b2
    points = [max(a - b, 0), max(b - a, 0)]
    winner = 0 if a > b else 1 if b > a else None
    wins = [r.winner for r in (table1, table2)]
    if None not in wins and wins[0] == wins[1]:
        how = "both team-mates won: the team scores the sum"
    elif None not in wins:
        how = "split wins: the higher team scores the difference"
    else:
        how = "a void game counts 0: the higher team scores the difference"
    kind = "void" if winner is None and a == b == 0 else "knock"
    return HandResult(
        gin.VARIANT, kind, None, winner, points, [a, b],  # type: ignore[arg-type]
        extra={"team_mode": "pagat_partnership",
               "tables": [table1.as_dict(), table2.as_dict()],
               "team_points": [a, b]},
        notes=[how])


def partnership_options(options: gin.Options) -> gin.Options:
    """The gin options a partnership's team score is folded with: the target is
    ``team_target`` (boxes and bonuses as the preset says)."""
    return dataclasses.replace(options, game_target=options.team_target)


def score_partnership(hands: Sequence[HandResult], options: gin.Options) -> MatchScore:
    """Fold partnership hands (from :func:`partnership_hand`) into the team score:
    ``totals``, ``final`` and ``winner`` are per team (0 = seats 0 and 2, 1 = seats 1
    and 3)."""
    m = start_partnership(options)
    for h in hands:
        m = add_partnership_hand(m, h, options)
    return m


def start_partnership(options: gin.Options) -> MatchScore:
    """The team score before the first partnership hand."""
    return _teamed(gin.start_match(2, partnership_options(options)))


def add_partnership_hand(match: MatchScore, hand: HandResult, options: gin.Options) -> MatchScore:
    """The team score one partnership hand further (``match`` is left as it was)."""
    if hand.extra.get("team_mode") != "pagat_partnership":
        raise IllegalAction(f"partnership: hand {match.hands + 1} is not a partnership hand "
                         "(enter both pair games together)")
    return _teamed(gin.add_hand(match, hand, partnership_options(options)))


def _teamed(m: MatchScore) -> MatchScore:
    return dataclasses.replace(m, extra={**m.extra, "team_mode": "pagat_partnership",
                                         "teams": [list(t) for t in TEAMS]})


def check_partnership_seats(players: int, options: gin.Options) -> None:
    """A partnership is four players: refuse anything else, naming the rule."""
    if options.team_mode == "pagat_partnership" and players != PARTNERSHIP_PLAYERS:
        raise IllegalAction(f"team_mode pagat_partnership: four players in two teams "
                         f"(seats 0 and 2 against 1 and 3), not {players}")


__all__ = ["TEAM_MODES", "TABLES", "TEAMS", "partnership_hand", "partnership_options",
           "score_partnership", "start_partnership", "add_partnership_hand",
           "check_partnership_seats"]
