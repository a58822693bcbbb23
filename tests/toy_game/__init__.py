"""Lowball, a toy game that exists to prove the seam (issue 24, deliverable 6): one
package with its Variant, registered by one line, and the table, the API, the export and
the import take it with no other file touched.

A hand is entered as each player's deadwood count; the lowest count wins the hand and
scores the sum of the differences to the others. The first to ``target`` points wins.

>>> toy = Lowball()
>>> toy.score_from_deadwood([3, 10], None, toy.make_options(None, {}, 2))["points"]
[7, 0]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import InvalidInput
from companion.games.base import STANDARD, HandSizes, Variant
from companion.games.options import check_record, option_field
from companion.rules.base import HandResult, MatchScore


@dataclass(frozen=True)
class Options:
    target: int = option_field(30, "points that win the match", minimum=1)

    def __post_init__(self) -> None:
        check_record(self, "Lowball")


class Lowball(Variant):
    name = "lowball"
    label = "Lowball"
    seats = (2, 3)
    play_style = "hands"
    deck = STANDARD
    options_class = Options
    option_labels = {"target": "Target score"}
    context_scoring = False
    kind_words = {"lowest": "lowest count"}

    def _build_options(self, preset: str | None, overrides: dict[str, Any], players: int) -> Options:
        return Options(**overrides)

    def hand_sizes(self, options: Any, players: int) -> HandSizes:
        return HandSizes(7, None)

    def hand_scoring(self) -> Lowball:
        return self

    def entries(self, options: Any) -> dict[str, bool]:
        # each player's deadwood count, and nothing else: no cards, nobody ends the hand
        return {"cards": False, "deadwood": True, "ender": False}

    def score_hand(self, hands: Sequence[Any], ender: int | None, options: Any, *,
                   prior: Sequence[HandResult] = (), players: int = 2, declared: Any = None,
                   joker: bool = False, upcard: str | None = None,
                   match: MatchScore | None = None) -> dict[str, Any]:
        raise InvalidInput("Lowball takes each player's deadwood count, not the cards", code="unsupported")

    def score_from_deadwood(self, deadwood: Sequence[int], ender: int | None, options: Any, *,
                            big_gin: bool = False, upcard: str | None = None) -> dict[str, Any]:
        low = min(deadwood)
        winner = list(deadwood).index(low)
        points = [0] * len(deadwood)
        points[winner] = sum(d - low for d in deadwood)
        return HandResult(self.name, "lowest", ender, winner, points, list(deadwood)).as_dict()

    def score_match(self, results: Sequence[HandResult], players: int, options: Any) -> MatchScore:
        m = MatchScore(self.name, players, [0] * players, [0] * players, False, None, [0] * players)
        for r in results:
            m = self.add_hand(m, r, options)
        return m

    def add_hand(self, match: MatchScore, result: HandResult, options: Any) -> MatchScore:
        if match.finished:
            raise InvalidInput("the match is over", code="finished")
        totals = [t + p for t, p in zip(match.totals, result.points)]  # type: ignore[operator]
        won = list(match.hands_won)
        if result.winner is not None:
            won[result.winner] += 1
        best = max(totals)
        done = best >= options.target
        return MatchScore(self.name, match.players, totals, won, done, totals.index(best) if done else None,
                          list(totals), hands=match.hands + 1)

    def next_dealer(self, result: HandResult, dealer: int, players: int, options: Any) -> int:
        return (dealer + 1) % players

    def selfplay(self, seed: int, players: int | None = None, *, check: bool = True,
                 preset: str | None = None) -> dict[str, Any]:
        rng = random.Random(seed)
        n = players or self.seats[0]
        options = self.make_options(preset, {}, n)
        results: list[HandResult] = []
        match = self.score_match([], n, options)
        while not match.finished:
            r = HandResult.from_dict(self.score_from_deadwood([rng.randrange(40) for _ in range(n)], None, options))
            results.append(r)
            match = self.add_hand(match, r, options)
        return {"hands": len(results), "winner": match.winner, "final": match.final}
