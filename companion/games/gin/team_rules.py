"""Gin Rummy's team play at separate tables, as the table and the API reach it through
the Variant (:meth:`GinRummy.team_rules <companion.games.gin.GinRummy.team_rules>`, a
:class:`~companion.games.seams.TeamRules`): seed 004's outing of pair matches
(:mod:`companion.games.gin.outing`, whose rules the table's outings fold), and the quick
scores the phone asks for with nothing stored (``POST /api/v1/teams/partnership`` and
``/api/v1/teams/outing``), computed from the entries alone: the pagat partnership's team
score from every hand's two pair games (:mod:`companion.games.gin.teams`) and an
outing's standings from its matches' hands.

Each pair game is entered as at the table: its ender and the cards of both players
(``hands``, with the ender's ``declared`` melds if they chose them) or their
``deadwood``. A refusal is an :class:`~companion.errors.IllegalAction` naming the rule
(and where: the hand and the pair game).

>>> game = {"ender": 0, "deadwood": [0, 20], "hands": None, "declared": None, "big_gin": False}
>>> quick_partnership(["Ann", "Bob", "Cy", "Di"], None, {}, [[game, game]])["match"]["totals"]
[90, 0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import CompanionError, IllegalAction
from companion.games.gin import rules as gin
from companion.games.gin import teams
from companion.games.gin.outing import RULE, match_score, new_outing, next_round, record_hand, standings
from companion.rules.base import HandResult


def team_options(preset: str | None, overrides: Mapping[str, Any], mode: str) -> gin.Options:
    """The gin options of team play in ``mode`` (``pagat_partnership`` or ``pair_tournament``)."""
    return gin.make_options(preset, **{**overrides, "team_mode": mode})


def pair_result(entry: Mapping[str, Any], opts: gin.Options, where: str) -> HandResult:
    """One pair game's result from its entry (``ender``, and ``hands`` with ``declared``
    or ``deadwood`` with ``big_gin``); a refusal names ``where``."""
    hands, deadwood, declared = entry.get("hands"), entry.get("deadwood"), entry.get("declared")
    try:
        if (hands is None) == (deadwood is None):
            raise IllegalAction('give either "hands" (both players\' cards) or "deadwood" (two numbers)')
        if hands is not None:
            return gin.score_hand(hands, entry.get("ender"), options=opts, declared=declared)
        if declared is not None:
            raise IllegalAction('"declared" goes with "hands"')
        assert deadwood is not None
        return gin.score_from_deadwood(deadwood, entry.get("ender"), options=opts,
                                       big_gin=bool(entry.get("big_gin", False)))
    except CompanionError as exc:
        raise IllegalAction(f"{where}: {exc}") from None


def quick_partnership(players: Sequence[str], preset: str | None, options: Mapping[str, Any],
                      hands: Sequence[Sequence[Mapping[str, Any]]]) -> dict[str, Any]:
    """The pagat partnership's team score from every hand's two pair games (seat 0 v
    seat 1, then seat 2 v seat 3)."""
    opts = team_options(preset, options, "pagat_partnership")
    teams.check_partnership_seats(len(players), opts)
    scored = []
    for i, pair in enumerate(hands):
        if len(pair) != 2:
            raise IllegalAction(f"team_mode pagat_partnership: hand {i + 1} needs both pair games "
                                f"(seat 0 v 1 and seat 2 v 3) entered together, got {len(pair)}")
        t1 = pair_result(pair[0], opts, f"hand {i + 1}, seats 0 v 1")
        t2 = pair_result(pair[1], opts, f"hand {i + 1}, seats 2 v 3")
        scored.append(teams.partnership_hand(t1, t2))
    score = teams.score_partnership(scored, opts)
    return {
        "team_mode": "pagat_partnership",
        "teams": [{"team": t, "seats": list(seats), "players": [players[s] for s in seats]}
                  for t, seats in enumerate(teams.TEAMS)],
        "hands": [h.as_dict() for h in scored],
        "match": score.as_dict(),
        "team_target": opts.team_target,
    }


def quick_outing(players: Sequence[str], sides: Sequence[int] | None, preset: str | None,
                 options: Mapping[str, Any], matches: Sequence[Sequence[Mapping[str, Any]]],
                 elapsed_minutes: float | None) -> dict[str, Any]:
    """An outing's standings from the hands of its pair matches (in the order the outing
    made them, round 1 first), whether the round has finished, and the next round's pairs."""
    opts = team_options(preset, options, "pair_tournament")
    o = new_outing(players, sides, opts)
    for i, entries in enumerate(matches):
        while i >= len(o.matches):
            o = next_round(o)
        for k, entry in enumerate(entries):
            o = record_hand(o, i, pair_result(entry, opts, f"match {i}, hand {k + 1}"))
    table = standings(o, elapsed_minutes)
    current = [i for i, m in enumerate(o.matches) if m.round == o.round]
    table["round_finished"] = all(match_score(o, i).finished for i in current)
    table["next_round"] = None
    if table["round_finished"] and not table["over"]:
        nxt = next_round(o, elapsed_minutes)
        table["next_round"] = [[nxt.players[p] for p in m.players]
                               for m in nxt.matches[len(o.matches):]]
    return table


__all__ = ["RULE", "new_outing", "next_round", "match_score", "standings", "team_options", "pair_result",
           "quick_partnership", "quick_outing"]
