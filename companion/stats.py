"""Players across games: who played, who won, streaks, head-to-head and hand averages.

Pure functions over the games' summary lines (the ``games`` table of the event log keeps
one line per game, so years of history are read without replaying a single event). A
rummy game's line carries a per-seat ``tally`` of its hands (:func:`hand_tally`, written
with every hand); a Gin-Go line carries the hands each side won (``scores``).

A player is a name: the same name (ignoring case and spaces around it) in two games is
the same person, shown as it was last written. What counts:

* **games, wins, streaks, head-to-head**: finished games only, oldest first;
* **hands, hands won, points, gins, big gins, undercuts**: every scored hand, also of
  games still in play;
* a game imported from a file while the game it was exported from is still here
  (``imported_from`` names it) counts once;
* deleted games are not in the lines the table hands over.

>>> lines = [
...     {"id": "a", "variant": "gin", "players": ["Ana", "Ben"], "finished": True, "winner": 0,
...      "created": 10.0, "hands_played": 2,
...      "tally": {"points": [52, 25], "won": [1, 1], "gins": [1, 1], "big_gins": [0, 0], "undercuts": [0, 0]}},
...     {"id": "b", "variant": "gin", "players": ["Ben", "ana "], "finished": True, "winner": 1,
...      "created": 20.0, "hands_played": 1,
...      "tally": {"points": [0, 30], "won": [0, 1], "gins": [0, 0], "big_gins": [0, 0], "undercuts": [0, 1]}},
... ]
>>> ana = player_stats(lines)[0]
>>> ana.name, ana.games, ana.wins
('ana', 2, 2)
>>> gin = ana.variants[0]
>>> gin.current_streak, gin.best_streak, gin.hands, gin.average_hand(), gin.gins, gin.undercuts
(2, 2, 3, 27.3, 1, 1)
>>> [(h.opponent, h.games, h.wins, h.losses) for h in gin.head_to_head]
[('Ben', 2, 2, 0)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: what a rummy hand adds to its seats' tally
TALLY_KEYS = ("points", "won", "gins", "big_gins", "undercuts")

SidesOf = Callable[[str, int], "Mapping[str, Sequence[int]] | None"]


def hand_points(points: Any) -> int:
    """A seat's points for one hand (Color Gin's per-suit dict summed).

    >>> hand_points(25), hand_points({"S": 10, "H": 0, "D": 4, "C": 0}), hand_points(None)
    (25, 14, 0)
    """
    if isinstance(points, bool):
        return 0
    if isinstance(points, int):
        return points
    if isinstance(points, Mapping):
        return sum(v for v in points.values() if isinstance(v, int) and not isinstance(v, bool))
    return 0


def hand_tally(results: Iterable[Mapping[str, Any]], seats: int) -> dict[str, list[int]]:
    """Per seat: points scored, hands won, gins (big gins included), big gins and
    undercuts, from scored hands' results (``kind``, ``ender``, ``winner``, ``points``).

    >>> hand_tally([{"kind": "gin", "ender": 0, "winner": 0, "points": [45, 0]},
    ...             {"kind": "undercut", "ender": 0, "winner": 1, "points": [0, 27]}], 2)
    {'points': [45, 27], 'won': [1, 1], 'gins': [1, 0], 'big_gins': [0, 0], 'undercuts': [0, 1]}
    """
    out = {k: [0] * seats for k in TALLY_KEYS}
    for r in results:
        add_to_tally(out, r, seats)
    return out


def add_to_tally(out: dict[str, list[int]], r: Mapping[str, Any], seats: int) -> None:
    """Add one scored hand's result to a tally made by :func:`hand_tally`, in place.

    >>> t = hand_tally([], 2)
    >>> add_to_tally(t, {"kind": "gin", "ender": 1, "winner": 1, "points": [0, 30]}, 2)
    >>> t["points"], t["gins"]
    ([0, 30], [0, 1])
    """
    pts = r.get("points")
    if isinstance(pts, list):
        for s, p in enumerate(pts[:seats]):
            out["points"][s] += hand_points(p)
    winner, ender, kind = _seat(r.get("winner"), seats), _seat(r.get("ender"), seats), r.get("kind")
    if winner is not None:
        out["won"][winner] += 1
        if kind == "undercut":
            out["undercuts"][winner] += 1
    if kind in ("gin", "big_gin") and ender is not None:
        out["gins"][ender] += 1
        if kind == "big_gin":
            out["big_gins"][ender] += 1


def _seat(x: Any, seats: int) -> int | None:
    """``x`` when it is a seat number 0..seats-1, else None."""
    return x if isinstance(x, int) and not isinstance(x, bool) and 0 <= x < seats else None


def person(name: str) -> str:
    """The key that makes two spellings one person: ``person(" Ana ") == person("ana")``."""
    return " ".join(name.split()).casefold()


@dataclass
class HeadToHead:
    """Finished games against one opponent: how many, won, and won by the opponent."""

    opponent: str
    games: int = 0
    wins: int = 0
    losses: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"opponent": self.opponent, "games": self.games, "wins": self.wins, "losses": self.losses}


@dataclass
class VariantStats:
    """One player in one game (variant)."""

    variant: str
    games: int = 0
    wins: int = 0
    current_streak: int = 0
    best_streak: int = 0
    hands: int = 0
    hands_won: int = 0
    points: int = 0
    gins: int = 0
    big_gins: int = 0
    undercuts: int = 0
    scored_hands: int = 0  # hands with points counted (rummy games)
    head_to_head: list[HeadToHead] = field(default_factory=list)

    def average_hand(self) -> float | None:
        """Points per scored hand, one decimal (None: no rummy hands)."""
        return round(self.points / self.scored_hands, 1) if self.scored_hands else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "games": self.games, "wins": self.wins, "losses": self.games - self.wins,
            "current_streak": self.current_streak, "best_streak": self.best_streak, "hands": self.hands,
            "hands_won": self.hands_won, "points": self.points, "average_hand": self.average_hand(),
            "gins": self.gins, "big_gins": self.big_gins, "undercuts": self.undercuts,
            "head_to_head": [x.as_dict() for x in self.head_to_head],
        }


@dataclass
class PlayerStats:
    """One person over every game."""

    name: str
    games: int = 0
    wins: int = 0
    played: int = 0  # games sat in, finished or not
    last_played: float = 0.0
    variants: list[VariantStats] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "games": self.games, "wins": self.wins, "losses": self.games - self.wins,
                "played": self.played, "last_played": self.last_played,
                "variants": [v.as_dict() for v in self.variants]}


def _winners(line: Mapping[str, Any], n: int, sides: Mapping[str, Sequence[int]] | None) -> set[int]:
    w = line.get("winner")
    if isinstance(w, bool) or not isinstance(w, int):
        return set()
    if sides is not None:
        return {s for s in sides.get(str(w), ()) if 0 <= s < n}
    return {w} if 0 <= w < n else set()


def _side_of(seat: int, sides: Mapping[str, Sequence[int]] | None) -> str | None:
    if sides is None:
        return None
    return next((k for k, seats in sides.items() if seat in seats), None)


def counted(lines: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The lines stats count: not damaged, and an imported copy of a game still here once."""
    keep = [ln for ln in lines if isinstance(ln.get("players"), list) and not ln.get("damaged")]
    ids = {ln.get("id") for ln in keep}
    return [ln for ln in keep if not (ln.get("imported_from") and ln.get("imported_from") in ids)]


def when(line: Mapping[str, Any]) -> float:
    """When a game was played: its original date (kept through export and import)."""
    t = line.get("played_at") or line.get("created") or 0.0
    return float(t) if isinstance(t, (int, float)) and not isinstance(t, bool) else 0.0


def _ints(vals: Any, n: int) -> list[int]:
    """``vals`` as ``n`` whole numbers (anything else counts 0)."""
    if type(vals) is list and len(vals) == n and all(type(x) is int for x in vals):
        return vals
    out = [0] * n
    if isinstance(vals, list):
        for i, x in enumerate(vals[:n]):
            out[i] = x if isinstance(x, int) and not isinstance(x, bool) else 0
    return out


def player_stats(lines: Iterable[Mapping[str, Any]], sides_of: SidesOf | None = None) -> list[PlayerStats]:
    """Every person in ``lines`` (summary lines, any order), most games first.
    ``sides_of(variant, players)`` gives the seats of each side of a game played by sides
    (Gin-Go: its ``winner`` and ``scores`` are sides), or None. One pass over the lines
    in the order the games were played (a few microseconds a line)."""
    dated = sorted(((when(ln), str(ln.get("id")), ln) for ln in counted(lines)), key=lambda x: (x[0], x[1]))
    people: dict[str, PlayerStats] = {}
    per: dict[tuple[str, str], VariantStats] = {}
    h2h: dict[tuple[str, str, str], HeadToHead] = {}
    streak: dict[tuple[str, str], int] = {}
    spelled: dict[str, tuple[str, str]] = {}  # a name as written -> (shown, person)
    side_cache: dict[tuple[str, int], tuple[Mapping[str, Sequence[int]] | None, list[str | None]]] = {}
    for t, _, ln in dated:
        raw_names = ln["players"]
        n = len(raw_names)
        names, keys = [], []
        for raw in raw_names:
            got = spelled.get(raw) if isinstance(raw, str) else None
            if got is None:
                shown = " ".join(str(raw).split())
                got = (shown, person(shown))
                if isinstance(raw, str):
                    spelled[raw] = got
            names.append(got[0])
            keys.append(got[1])
        variant = str(ln.get("variant"))
        sc = side_cache.get((variant, n))
        if sc is None:
            sides = sides_of(variant, n) if sides_of is not None else None
            sc = side_cache[(variant, n)] = (sides, [_side_of(s, sides) for s in range(n)])
        sides, seat_side = sc
        finished = bool(ln.get("finished"))
        winners = _winners(ln, n, sides) if finished else set()
        tally = ln.get("tally")
        if not isinstance(tally, Mapping):
            tally = None
        raw_hands = ln.get("hands_played")
        hands = raw_hands if type(raw_hands) is int else 0
        cols = [_ints(tally.get(k), n) for k in TALLY_KEYS] if tally is not None else None
        side_won: list[int] | None = None
        if sides is not None and cols is None:
            side_won = _ints(ln.get("scores"), 2)
        for seat in range(n):
            key, name = keys[seat], names[seat]
            p = people.get(key)
            if p is None:
                p = people[key] = PlayerStats(name)
            p.name = name  # the latest spelling
            p.played += 1
            if t > p.last_played:
                p.last_played = t
            v = per.get((key, variant))
            if v is None:
                v = per[(key, variant)] = VariantStats(variant)
                p.variants.append(v)
            v.hands += hands
            if cols is not None:
                v.scored_hands += hands
                v.points += cols[0][seat]
                v.hands_won += cols[1][seat]
                v.gins += cols[2][seat]
                v.big_gins += cols[3][seat]
                v.undercuts += cols[4][seat]
            elif side_won is not None:
                side = seat_side[seat]
                if side in ("1", "2"):
                    v.hands_won += side_won[int(side) - 1]
            if not finished:
                continue
            won_game = seat in winners
            p.games += 1
            v.games += 1
            p.wins += won_game
            v.wins += won_game
            run = streak.get((key, variant), 0) + 1 if won_game else 0
            streak[(key, variant)] = run
            v.current_streak = run
            if run > v.best_streak:
                v.best_streak = run
            mine = seat_side[seat]
            for other in range(n):
                okey = keys[other]
                if other == seat or okey == key or (mine is not None and seat_side[other] == mine):
                    continue
                hh = h2h.get((key, variant, okey))
                if hh is None:
                    hh = h2h[(key, variant, okey)] = HeadToHead(names[other])
                    v.head_to_head.append(hh)
                hh.opponent = names[other]
                hh.games += 1
                hh.wins += won_game
                hh.losses += other in winners
    out = sorted(people.values(), key=lambda p: (-p.played, -p.last_played, person(p.name)))
    for p in out:
        p.variants.sort(key=lambda v: (-v.games, -v.hands, v.variant))
        for v in p.variants:
            v.head_to_head.sort(key=lambda x: (-x.games, person(x.opponent)))
    return out


def roster(found: Sequence[PlayerStats]) -> list[dict[str, Any]]:
    """Everyone in ``found`` (:func:`player_stats`), the most recent first: what the
    new-game form offers to pick.

    >>> lines = [{"id": "a", "variant": "gin", "players": ["Ana", "Ben"], "created": 5.0},
    ...          {"id": "b", "variant": "gingo", "players": ["Cy", "ana"], "created": 9.0}]
    >>> roster(player_stats(lines))[0]
    {'name': 'ana', 'played': 2, 'games': 0, 'wins': 0, 'last_played': 9.0, 'variants': ['gin', 'gingo']}
    """
    ordered = sorted(found, key=lambda p: (-p.last_played, person(p.name)))
    return [{"name": p.name, "played": p.played, "games": p.games, "wins": p.wins, "last_played": p.last_played,
             "variants": sorted(v.variant for v in p.variants)} for p in ordered]


__all__ = ["HeadToHead", "PlayerStats", "TALLY_KEYS", "VariantStats", "counted", "hand_points", "hand_tally",
           "person", "player_stats", "roster", "when"]
