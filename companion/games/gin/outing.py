"""Seed 004's outing for more than two (``team_mode = "pair_tournament"``).

Seed 004: "It can be adapted for any larger even number by dividing players into two
equal sides, and holding separate but simultaneous games between pairs of players
... As the games evolve and finish, the winners of one pair plays the winners of the
others and keep running scores for the outing for a grand total at the end. The
losers play the losers. Play is until a set time or total score is reached."

* Players split into two equal sides (side 0 and side 1). Round 1 pairs the side-0
  players, in order, with the side-1 players, in order.
* Each pair match is an ordinary Gin Rummy match (the outing's gin options), its hand
  results kept with the outing (:func:`record_hand`); it ends as any gin match ends.
* Once every match of a round has ended, the next round (:func:`next_round`) pairs
  the winners in the order of their matches (winner of match 1 with the winner of
  match 2, ...) and the losers the same way; when a round had an odd number of
  matches, the last winner plays the last loser.
* Running totals: a player's total is the sum of their match scores (a finished
  match counts its final score with game bonus, shutout and boxes; a match still
  running counts its points so far); a side's total is the sum of its players'.
* The outing ends when a side's total reaches ``outing_target`` (0: no target) or
  ``outing_minutes`` have passed (0: no time limit; the caller says how long it has
  run, the rules keep no clock). :func:`standings` says so and ranks everyone.

Every refusal is a ``ValueError`` naming the rule; the outing is immutable, so a
refused entry changes nothing.

>>> o = new_outing(["Ann", "Bob", "Cy", "Di"], [0, 0, 1, 1])
>>> [(m.players, m.round) for m in o.matches]
[((0, 2), 1), ((1, 3), 1)]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from companion.errors import IllegalAction
from companion.games.gin import rules as gin
from companion.rules.base import HandResult, MatchScore
from companion.rules.tournament import Outing, PairMatch  # the outing's records; offered here too

RULE = "team_mode pair_tournament"


def _err(text: str) -> IllegalAction:
    return IllegalAction(f"{RULE}: {text}")


def new_outing(players: Sequence[str], sides: Sequence[int] | None = None,
               options: gin.Options | None = None) -> Outing:
    """A new outing and its first round. ``sides``: 0 or 1 per player, as many of
    each (None: the first half of the players is side 0)."""
    opts = options if options is not None else gin.make_options(team_mode="pair_tournament")
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise _err("players must be a list of names")
    names = tuple(players)
    if len(names) < 2 or len(names) % 2 or len(names) > 64:
        raise _err(f"an even number of players from 2 to 64 in two equal sides, not {len(names)}")
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise _err(f"every player needs a name, got {name!r}")
    if len({n.strip().casefold() for n in names}) != len(names):
        raise _err("two players have the same name")
    if sides is None:
        side_list = tuple(0 if i < len(names) // 2 else 1 for i in range(len(names)))
    else:
        if isinstance(sides, (str, bytes)) or not isinstance(sides, Sequence) or len(sides) != len(names):
            raise _err(f"give a side (0 or 1) for each of the {len(names)} players")
        if any(isinstance(s, bool) or s not in (0, 1) for s in sides):
            raise _err("each side is 0 or 1")
        side_list = tuple(int(s) for s in sides)
        if side_list.count(0) != side_list.count(1):
            raise _err(f"the two sides must be equal: {side_list.count(0)} against {side_list.count(1)}")
    a = [i for i, s in enumerate(side_list) if s == 0]
    b = [i for i, s in enumerate(side_list) if s == 1]
    matches = tuple(PairMatch(1, (x, y)) for x, y in zip(a, b))
    return Outing(tuple(n.strip() for n in names), side_list, opts, matches)


def match_score(outing: Outing, index: int) -> MatchScore:
    """The gin match score of match ``index``."""
    return gin.score_match(list(outing.matches[index].results), 2, outing.options)


def _check_index(outing: Outing, index: int) -> None:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(outing.matches):
        raise _err(f"there is no match {index!r} (matches 0..{len(outing.matches) - 1})")


def record_hand(outing: Outing, index: int, result: HandResult) -> Outing:
    """The outing with ``result`` (a gin hand of the match's two players, seat 0 being
    its first player) added to match ``index``. Refused when the match has ended or
    the result is not a Gin Rummy hand."""
    _check_index(outing, index)
    m = outing.matches[index]
    if m.round != outing.round:
        raise _err(f"match {index} belongs to round {m.round}; round {outing.round} is being played")
    if not isinstance(result, HandResult) or result.variant != gin.VARIANT:
        raise _err("each hand of a pair match is a Gin Rummy hand result")
    if match_score(outing, index).finished:
        raise _err(f"match {index} ({outing.players[m.players[0]]} v "
                   f"{outing.players[m.players[1]]}) has ended")
    results = m.results + (result,)
    gin.score_match(list(results), 2, outing.options)  # refuses a malformed result
    matches = list(outing.matches)
    matches[index] = dataclasses.replace(m, results=results)
    return dataclasses.replace(outing, matches=tuple(matches))


def _winner_loser(outing: Outing, index: int) -> tuple[int, int]:
    m = outing.matches[index]
    score = match_score(outing, index)
    assert score.winner is not None
    w = m.players[score.winner]
    return w, m.players[1 - score.winner]


def next_round(outing: Outing, elapsed_minutes: float | None = None) -> Outing:
    """The outing with its next round paired: winners play winners, losers play
    losers (see the module notes). Refused while a match of the round is still
    running, or once the outing is over."""
    current = [i for i, m in enumerate(outing.matches) if m.round == outing.round]
    running = [i for i in current if not match_score(outing, i).finished]
    if running:
        raise _err(f"round {outing.round} is still being played (match {running[0]} has not ended)")
    if standings(outing, elapsed_minutes)["over"]:
        raise _err("the outing is over (its target score or time is reached)")
    winners, losers = [], []
    for i in current:
        w, lo = _winner_loser(outing, i)
        winners.append(w)
        losers.append(lo)
    pairs: list[tuple[int, int]] = []
    for group in (winners, losers):
        for k in range(0, len(group) - 1, 2):
            pairs.append((group[k], group[k + 1]))
    if len(winners) % 2:
        pairs.append((winners[-1], losers[-1]))
    r = outing.round + 1
    return dataclasses.replace(outing, matches=outing.matches + tuple(PairMatch(r, p) for p in pairs))


def standings(outing: Outing, elapsed_minutes: float | None = None) -> dict[str, Any]:
    """Running totals per player and side, ranked, and whether the outing is over."""
    totals = [0] * len(outing.players)
    won = [0] * len(outing.players)
    played = [0] * len(outing.players)
    matches = []
    for i, m in enumerate(outing.matches):
        score = match_score(outing, i)
        pts = score.final if score.finished else list(score.totals)
        for seat, p in enumerate(m.players):
            totals[p] += int(pts[seat])  # type: ignore[call-overload]
            if score.finished:
                played[p] += 1
        if score.finished and score.winner is not None:
            won[m.players[score.winner]] += 1
        matches.append({
            "index": i, "round": m.round,
            "players": [outing.players[p] for p in m.players],
            "hands": len(m.results), "finished": score.finished,
            "winner": None if score.winner is None else outing.players[m.players[score.winner]],
            "score": pts,
        })
    side_totals = [sum(t for t, s in zip(totals, outing.sides) if s == side) for side in (0, 1)]
    opts = outing.options
    by_score = opts.outing_target > 0 and max(side_totals) >= opts.outing_target
    by_time = opts.outing_minutes > 0 and elapsed_minutes is not None \
        and elapsed_minutes >= opts.outing_minutes
    order = sorted(range(len(outing.players)), key=lambda p: (-totals[p], outing.players[p]))
    return {
        "round": outing.round,
        "players": [{"name": outing.players[p], "side": outing.sides[p], "total": totals[p],
                     "matches_won": won[p], "matches_played": played[p]} for p in order],
        "sides": [{"side": s, "total": side_totals[s]} for s in (0, 1)],
        "leading_side": None if side_totals[0] == side_totals[1] else
        (0 if side_totals[0] > side_totals[1] else 1),
        "matches": matches,
        "over": bool(by_score or by_time),
        "ended_by": "target" if by_score else "time" if by_time else None,
    }


__all__ = ["RULE", "PairMatch", "Outing", "new_outing", "record_hand", "match_score", "next_round",
           "standings"]
