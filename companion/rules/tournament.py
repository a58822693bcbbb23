"""An outing's records: a tournament of pair matches played at separate tables, as the
table keeps it and the rules of the game it is played in read it (seed 004's outing of
Gin Rummy: :mod:`companion.games.gin.outing`, which the table reaches through the
Variant, :meth:`companion.games.base.Variant.team_rules`).

>>> o = Outing(("Ann", "Bob"), (0, 1), None, (PairMatch(1, (0, 1)),))
>>> o.round, o.matches[0].results
(1, ())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.base import HandResult


@dataclass(frozen=True)
class PairMatch:
    """One pair match of the outing: its ``round`` (from 1), the two ``players``
    (indexes into the outing's players; the first sits at seat 0) and its hands."""

    round: int
    players: tuple[int, int]
    results: tuple[HandResult, ...] = ()


@dataclass(frozen=True)
class Outing:
    """An outing: player names, each player's side (0 or 1), the options every pair
    match uses (its game's), and the matches so far."""

    players: tuple[str, ...]
    sides: tuple[int, ...]
    options: Any
    matches: tuple[PairMatch, ...]

    @property
    def round(self) -> int:
        return max((m.round for m in self.matches), default=0)


__all__ = ["PairMatch", "Outing"]
