"""The players' statistics kept up to date game by game, instead of counted again from
every game after each write.

A :class:`StatsBook` holds what each game adds to each player (per player and game
kind: the sums, the finished games in the order they were played for the streaks, and
the head-to-head against each opponent). :meth:`StatsBook.update` takes the games'
summary lines as they are now, finds the games whose line changed (a hand scored, an
undo, a correction, a game deleted or imported), takes the old line's part out and puts
the new one in; only the players of those games are counted again when asked. The
answers are those of :func:`companion.stats.player_stats` over the same lines (a test
compares both over random writes, undos and corrections).

>>> book = StatsBook()
>>> a = {"id": "a", "variant": "gin", "players": ["Ana", "Ben"], "finished": True, "winner": 0,
...      "created": 10.0, "hands_played": 1,
...      "tally": {"points": [30, 0], "won": [1, 0], "gins": [1, 0], "big_gins": [0, 0], "undercuts": [0, 0]}}
>>> [(p.name, p.wins) for p in book.update([a])]
[('Ana', 1), ('Ben', 0)]
>>> b = dict(a, id="b", winner=1, created=20.0)
>>> ana = book.update([a, b])[0]
>>> ana.wins, ana.variants[0].current_streak, ana.variants[0].best_streak, book.recounted
(1, 0, 1, 1)
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.stats import (
    TALLY_KEYS, HeadToHead, PlayerStats, SidesOf, VariantStats, _ints, _side_of, _winners, person, when,
)

Order = tuple[float, str, int]  # (when played, game id, seat): the order the games count in


@dataclass
class _Seat:
    """What one seat of one game adds to its player."""

    order: Order
    key: str
    name: str
    variant: str
    hands: int
    cols: list[int] | None  # points, hands won, gins, big gins, undercuts (rummy)
    side_won: int | None  # hands the seat's side won (Gin-Go)
    won: bool | None  # None: the game is not finished
    rivals: list[tuple[int, str, str, bool]]  # (seat, key, name, they won) of each opponent


Sides = tuple["Mapping[str, Sequence[int]] | None", list["str | None"]]


def _seats(ln: Mapping[str, Any], sides_of: SidesOf | None, cache: dict[Any, Any]) -> list[_Seat]:
    """Each seat's part of one counted summary line (as :func:`player_stats` counts it);
    ``cache`` keeps the names' spellings and the games' sides between calls."""
    raw_names = ln["players"]
    n = len(raw_names)
    names, keys = [], []
    for raw in raw_names:
        got = cache.get(raw) if isinstance(raw, str) else None
        if got is None:
            shown = " ".join(str(raw).split())
            got = (shown, person(shown))
            if isinstance(raw, str):
                cache[raw] = got
        names.append(got[0])
        keys.append(got[1])
    variant = str(ln.get("variant"))
    sc = cache.get((variant, n))
    if sc is None:
        sides = sides_of(variant, n) if sides_of is not None else None
        sc = cache[(variant, n)] = (sides, [_side_of(s, sides) for s in range(n)])
    sides, seat_side = sc
    finished = bool(ln.get("finished"))
    winners = _winners(ln, n, sides) if finished else set()
    tally = ln.get("tally")
    raw_hands = ln.get("hands_played")
    hands = raw_hands if type(raw_hands) is int else 0
    cols = [_ints(tally.get(k), n) for k in TALLY_KEYS] if isinstance(tally, Mapping) else None
    side_won = _ints(ln.get("scores"), 2) if sides is not None and cols is None else None
    t, gid = when(ln), str(ln.get("id"))
    out = []
    for seat in range(n):
        sw = None
        if side_won is not None:
            side = seat_side[seat]
            sw = side_won[int(side) - 1] if side in ("1", "2") else 0
        mine = seat_side[seat]
        rivals = [] if not finished else [
            (o, keys[o], names[o], o in winners) for o in range(n)
            if o != seat and keys[o] != keys[seat] and not (mine is not None and seat_side[o] == mine)]
        out.append(_Seat((t, gid, seat), keys[seat], names[seat], variant, hands,
                         [c[seat] for c in cols] if cols is not None else None, sw,
                         (seat in winners) if finished else None, rivals))
    return out


@dataclass
class _Rival:
    games: int = 0
    wins: int = 0
    losses: int = 0
    spelled: list[tuple[Order, int, str]] = field(default_factory=list)  # the latest spelling counts


@dataclass
class _Bucket:
    """One player in one game kind: sums, and the finished games in order with the winning
    run after each (so a game added at the end costs one step, one in the middle a recount
    from there)."""

    sat: int = 0
    sums: list[int] = field(default_factory=lambda: [0] * 8)  # hands, scored, points, won, gins, big, under, games
    wins: int = 0
    done: list[Order] = field(default_factory=list)
    won: list[bool] = field(default_factory=list)
    runs: list[int] = field(default_factory=list)
    bests: list[int] = field(default_factory=list)
    rivals: dict[str, _Rival] = field(default_factory=dict)

    def restreak(self, i: int) -> None:
        del self.runs[i:], self.bests[i:]
        run = self.runs[-1] if self.runs else 0
        best = self.bests[-1] if self.bests else 0
        for w in self.won[i:]:
            run = run + 1 if w else 0
            best = max(best, run)
            self.runs.append(run)
            self.bests.append(best)


@dataclass
class _Person:
    spelled: list[tuple[Order, str]] = field(default_factory=list)
    buckets: dict[str, _Bucket] = field(default_factory=dict)


class StatsBook:
    """The statistics of :func:`companion.stats.player_stats`, kept per game. ``sides_of``
    as there. ``recounted``: the games taken in again by the last :meth:`update`."""

    def __init__(self, sides_of: SidesOf | None = None) -> None:
        self.sides_of = sides_of
        self._lines: dict[str, Mapping[str, Any]] = {}
        self._parts: dict[str, list[_Seat]] = {}
        self._people: dict[str, _Person] = {}
        self._shown: dict[str, PlayerStats] = {}  # kept answers of the players not touched since
        self._cache: dict[Any, Any] = {}  # names as written -> (shown, person); (variant, seats) -> sides
        self.recounted = 0
        self.lock = threading.Lock()  # one update at a time (the API serves from threads)

    def update(self, lines: Iterable[Mapping[str, Any]]) -> list[PlayerStats]:
        """The statistics over ``lines`` (every game's summary line as it is now)."""
        # the lines counted (companion.stats.counted), in one pass: what is unchanged since
        # the last update is the same line object (or an equal one) and costs a look-up
        keep = [ln for ln in lines if isinstance(ln.get("players"), list) and not ln.get("damaged")]
        ids = {ln.get("id") for ln in keep}
        seen: set[str] = set()
        changed: list[tuple[str, Mapping[str, Any]]] = []
        kept = self._lines
        for ln in keep:
            src = ln.get("imported_from")
            if src and src in ids:
                continue
            gid = str(ln.get("id"))
            seen.add(gid)
            old = kept.get(gid)
            if old is ln:
                continue
            if old is not None and old == ln:
                kept[gid] = ln
                continue
            changed.append((gid, ln))
        touched: set[str] = set()
        self.recounted = len(changed)
        for gid in [g for g in kept if g not in seen]:
            self._take_out(gid, touched)
        for gid, ln in changed:
            if gid in kept:
                self._take_out(gid, touched)
            self._put_in(gid, ln, touched)
        for key in touched:
            self._shown.pop(key, None)
            if key in self._people:
                self._shown[key] = self._answer(self._people[key])
        return sorted(self._shown.values(), key=lambda p: (-p.played, -p.last_played, person(p.name)))

    # -- one game in, one game out ---------------------------------------------------------

    def _put_in(self, gid: str, ln: Mapping[str, Any], touched: set[str]) -> None:
        parts = _seats(ln, self.sides_of, self._cache)
        self._lines[gid], self._parts[gid] = ln, parts
        for s in parts:
            p = self._people.setdefault(s.key, _Person())
            touched.add(s.key)
            bisect.insort(p.spelled, (s.order, s.name))
            b = p.buckets.setdefault(s.variant, _Bucket())
            self._count(b, s, 1)

    def _take_out(self, gid: str, touched: set[str]) -> None:
        parts = self._parts.pop(gid)
        del self._lines[gid]
        for s in parts:
            p = self._people[s.key]
            touched.add(s.key)
            del p.spelled[bisect.bisect_left(p.spelled, (s.order, s.name))]
            b = p.buckets[s.variant]
            self._count(b, s, -1)
            if not b.sat:
                del p.buckets[s.variant]
            if not p.spelled:
                del self._people[s.key]

    @staticmethod
    def _count(b: _Bucket, s: _Seat, sign: int) -> None:
        b.sat += sign
        sums = b.sums
        sums[0] += sign * s.hands
        if s.cols is not None:
            sums[1] += sign * s.hands
            for i, v in enumerate(s.cols):
                sums[2 + i] += sign * v
        elif s.side_won is not None:
            sums[3] += sign * s.side_won
        if s.won is None:
            return
        sums[7] += sign
        b.wins += sign * s.won
        i = bisect.bisect_left(b.done, s.order)
        if sign > 0:
            b.done.insert(i, s.order)
            b.won.insert(i, s.won)
        else:
            del b.done[i], b.won[i]
        b.restreak(i)
        for seat, okey, oname, lost in s.rivals:
            r = b.rivals.setdefault(okey, _Rival())
            r.games += sign
            r.wins += sign * s.won
            r.losses += sign * lost
            if sign > 0:
                bisect.insort(r.spelled, (s.order, seat, oname))
            else:
                del r.spelled[bisect.bisect_left(r.spelled, (s.order, seat, oname))]
            if not r.games:
                del b.rivals[okey]

    # -- the answer for one player ----------------------------------------------------------

    @staticmethod
    def _answer(p: _Person) -> PlayerStats:
        last = p.spelled[-1]
        out = PlayerStats(last[1], played=len(p.spelled), last_played=max(0.0, last[0][0]))
        for variant, b in p.buckets.items():
            s = b.sums
            v = VariantStats(variant, games=s[7], wins=b.wins, current_streak=b.runs[-1] if b.runs else 0,
                             best_streak=b.bests[-1] if b.bests else 0, hands=s[0], hands_won=s[3], points=s[2],
                             gins=s[4], big_gins=s[5], undercuts=s[6], scored_hands=s[1])
            v.head_to_head = sorted((HeadToHead(r.spelled[-1][2], r.games, r.wins, r.losses) for r in b.rivals.values()),
                                    key=lambda x: (-x.games, person(x.opponent)))
            out.variants.append(v)
            out.games += v.games
            out.wins += v.wins
        out.variants.sort(key=lambda v: (-v.games, -v.hands, v.variant))
        return out


def same(a: Sequence[PlayerStats], b: Sequence[PlayerStats]) -> bool:
    """Whether two answers say the same (as the API shows them)."""
    return [p.as_dict() for p in a] == [p.as_dict() for p in b]


__all__ = ["StatsBook", "same"]
