"""Gin Rummy's match: hand results folded into the match score (the game target, the
game, shutout and box bonuses) and who deals the next hand. :mod:`companion.games.gin.rules`
scores the hands and offers both functions here too.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.errors import IllegalAction
from companion.rules.base import HandResult, MatchScore
from companion.games.gin.options import PLAYERS, VARIANT, Options


def score_match(results: Sequence[HandResult], players: int, options: Options) -> MatchScore:
    """Fold hand results into the match score (:func:`add_hand` on each, from :func:`start_match`).

    The first player whose running total reaches ``game_target`` ends the match and
    gets ``game_bonus``; a shutout doubles per ``shutout``; every player then gets
    ``box_bonus`` per hand won. Hands after the match ended raise ``ValueError``.

    >>> from companion.games.gin.rules import make_options, score_hand
    >>> opts = make_options()
    >>> win = score_hand(["AS 2S 3S 4S 9D 9H 9C KH QH JH",
    ...                   "5C 6C 8D 8S 2D 2H 3C 4D 10S JS"], 0, options=opts)
    >>> m = score_match([win, win], 2, opts)
    >>> m.finished, m.winner, m.final
    (True, 0, [582, 0])
    """
    m = start_match(players, options)
    for r in results:
        m = add_hand(m, r, options)
    return m


def start_match(players: int, options: Options) -> MatchScore:
    """The match before its first hand."""
    if players not in PLAYERS:
        raise IllegalAction(f"Gin Rummy is for 2 players, not {players}")
    return MatchScore(VARIANT, players, [0, 0], [0, 0], False, None, [0, 0], [], hands=0, extra={})


def add_hand(match: MatchScore, r: HandResult, options: Options) -> MatchScore:
    """The match one hand further (``match`` is left as it was): the running totals and
    hands won move on, and the bonuses are worked out again once it ends. A hand after
    the end raises ``ValueError``.

    >>> from companion.games.gin.rules import make_options, score_hand
    >>> opts = make_options()
    >>> win = score_hand(["AS 2S 3S 4S 9D 9H 9C KH QH JH",
    ...                   "5C 6C 8D 8S 2D 2H 3C 4D 10S JS"], 0, options=opts)
    >>> m = add_hand(start_match(2, opts), win, opts)
    >>> m.totals, m.hands, m.finished
    ([83, 0], 1, False)
    """
    i = match.hands
    if match.finished:
        raise IllegalAction(f"hand {i + 1} comes after the match ended at hand {i}")
    if r.variant != VARIANT:
        raise IllegalAction(f"hand {i + 1} is a {r.variant} result, not Gin Rummy")
    pts = r.points
    if len(pts) != 2 or not all(isinstance(p, int) for p in pts):
        raise IllegalAction(f"hand {i + 1}: points must be one number per seat")
    totals = [int(match.totals[s]) + int(pts[s]) for s in (0, 1)]  # type: ignore[arg-type]
    won = list(match.hands_won)
    if r.winner is not None:
        won[r.winner] += 1
    finished = False
    winner: int | None = None
    leaders = [s for s in (0, 1) if totals[s] >= options.game_target]
    if leaders:
        finished = True
        winner = max(leaders, key=lambda s: totals[s]) if len(leaders) == 1 or \
            totals[0] != totals[1] else r.winner
    final = list(totals)
    bonuses: list[dict[str, object]] = []
    if finished and winner is not None:
        loser = 1 - winner
        game = options.game_bonus
        shut = won[loser] == 0 and options.shutout != "none"
        if shut and options.shutout == "double_points":
            bonuses.append({"seat": winner, "kind": "shutout", "points": totals[winner]})
            final[winner] += totals[winner]
        if game:
            bonuses.append({"seat": winner, "kind": "game", "points": game})
            final[winner] += game
        if shut and options.shutout == "double_game_bonus" and game:
            bonuses.append({"seat": winner, "kind": "shutout", "points": game})
            final[winner] += game
        if shut and options.shutout == "double_total":
            bonuses.append({"seat": winner, "kind": "shutout", "points": final[winner]})
            final[winner] *= 2
        if options.box_bonus:
            for s in (0, 1):
                if won[s]:
                    pts_box = won[s] * options.box_bonus
                    bonuses.append({"seat": s, "kind": "box", "points": pts_box,
                                    "boxes": won[s]})
                    final[s] += pts_box
    extra: dict[str, object] = {}
    if finished and winner is not None:
        extra["margin"] = final[winner] - final[1 - winner]
    return MatchScore(VARIANT, 2, totals, won, finished, winner, final, bonuses,
                      hands=i + 1, extra=extra)


def next_dealer(result: HandResult, dealer: int, players: int, options: Options) -> int:
    """Who deals the hand after ``result``: the same dealer after a hand nobody won
    (void, or a tie), else per ``next_dealer``.

    >>> from companion.games.gin.rules import make_options, score_hand
    >>> r = score_hand(["AS 2S 3S 4S 9D 9H 9C KH QH JH", "5C 6C 8D 8S 2D 2H 3C 4D 10S JS"], 0)
    >>> next_dealer(r, 1, 2, make_options()), next_dealer(r, 1, 2, make_options("modern"))
    (0, 0)
    """
    if result.winner is None:
        return dealer
    if options.next_dealer == "winner":
        return result.winner
    if options.next_dealer == "loser":
        return (result.winner + 1) % players
    return (dealer + 1) % players
