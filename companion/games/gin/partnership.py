"""The pagat partnership as a table game: a Gin Rummy game of four players with the
option ``team_mode = pagat_partnership`` (seats 0 and 2 are team A, 1 and 3 team B).

Each hand is one entry holding both pair games ("tables"): table 1 is seat 0 against
seat 1, table 2 seat 2 against seat 3. Each table is entered as a two-player gin hand
(its ender is a seat of the game, one of the two at that table; the cards or the
deadwood of its two players), scored by the gin engine, and the two results are
combined by :func:`companion.games.gin.teams.partnership_hand` into the team result the
match folds (:func:`companion.games.gin.teams.score_partnership`). A refused entry raises
:class:`~companion.errors.IllegalAction` with the code ``invalid_team_entry`` and a
message naming the rule; nothing is written.

The game shows team totals per seat (``scores``: each seat carries its team's total) and
per team (``teams``); ``winner`` is the winning team (0: seats 0 and 2, 1: seats 1 and 3).
The table reaches this module only through :meth:`GinRummy.team_play
<companion.games.gin.GinRummy.team_play>` (a :class:`~companion.games.seams.TeamPlay`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from companion.errors import IllegalAction, InvalidInput
from companion.games.explain import breakdown, tied_arrangements
from companion.games.gin import rules as gin
from companion.games.gin import teams
from companion.rules.base import HandResult

CODE = "invalid_team_entry"
RULE = "team_mode pagat_partnership"
#: what a table of a partnership entry may hold
TABLE_KEYS = ("seats", "ender", "hands", "deadwood", "declared", "big_gin", "upcard", "dealer")


def refuse(text: str, **details: Any) -> IllegalAction:
    return IllegalAction(f"{RULE}: {text}", code=CODE, details=details)


def is_partnership(options: Any) -> bool:
    return getattr(options, "team_mode", None) == "pagat_partnership"


def _table_name(i: int) -> str:
    a, b = teams.TABLES[i]
    return f"table {i + 1} (seat {a} v seat {b})"


def check_table(i: int, raw: Any) -> dict[str, Any]:
    """Table ``i`` of an entry, checked for its shape and seats; returns it normalised
    (``seats`` filled in, only the keys given)."""
    where = _table_name(i)
    if not isinstance(raw, dict):
        raise refuse(f"{where} must be an object with its ender and its cards or deadwood", table=i + 1)
    unknown = sorted(k for k in raw if k not in TABLE_KEYS)
    if unknown:
        raise refuse(f"{where}: unknown field {unknown[0]!r} (a table takes {', '.join(TABLE_KEYS)})", table=i + 1)
    seats = list(teams.TABLES[i])
    given = raw.get("seats", seats)
    if given != seats:
        raise refuse(f"{where}: table {i + 1} is seat {seats[0]} (team A) against seat {seats[1]} (team B), "
                     f"not {given!r}; partners sit across, seats 0 and 2 against 1 and 3",
                     table=i + 1, seats=seats)
    if "ender" not in raw:
        raise refuse(f"{where}: say who ended this pair game (\"ender\": seat {seats[0]} or {seats[1]}, "
                     "or null when the stock ran down)", table=i + 1)
    ender = raw["ender"]
    if ender is not None and (isinstance(ender, bool) or ender not in seats):
        raise refuse(f"{where}: ender {ender!r} does not play at this table (seat {seats[0]} or {seats[1]}, "
                     "or null when the stock ran down)", table=i + 1, ender=ender)
    if ("hands" in raw and raw["hands"] is not None) == ("deadwood" in raw and raw["deadwood"] is not None):
        raise refuse(f"{where}: give either \"hands\" (both players' cards) or \"deadwood\" (two numbers)",
                     table=i + 1)
    dealer = raw.get("dealer")
    if dealer is not None and (isinstance(dealer, bool) or dealer not in seats):
        raise refuse(f"{where}: dealer {dealer!r} does not play at this table (seat {seats[0]} or {seats[1]}; "
                     "leave it out for the dealer the rules give)", table=i + 1, dealer=dealer)
    out: dict[str, Any] = {"seats": seats, "ender": ender}
    for key in TABLE_KEYS[2:]:
        if raw.get(key) is not None and raw.get(key) is not False:
            out[key] = raw[key]
    if "hands" in out and (not isinstance(out["hands"], list) or len(out["hands"]) != 2):
        raise refuse(f"{where}: \"hands\" needs two lists of cards, seat {seats[0]}'s then seat {seats[1]}'s",
                     table=i + 1)
    if "deadwood" in out:
        dw = out["deadwood"]
        if not isinstance(dw, list) or len(dw) != 2 or not all(
                isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 500 for x in dw):
            raise refuse(f"{where}: \"deadwood\" needs two whole numbers from 0 to 500, seat {seats[0]}'s "
                         f"then seat {seats[1]}'s", table=i + 1)
    if "declared" in out and "hands" not in out:
        raise refuse(f"{where}: \"declared\" goes with \"hands\"", table=i + 1)
    if "big_gin" in out and "hands" in out:
        raise refuse(f"{where}: \"big_gin\" goes with \"deadwood\"; with the cards, give the ender's 11",
                     table=i + 1)
    return out


def check_entry(tables: Any, top: dict[str, Any]) -> list[dict[str, Any]]:
    """The two tables of a partnership hand, checked; ``top`` holds the fields given
    beside ``tables`` (a partnership hand takes none of them)."""
    stray = sorted(k for k, v in top.items() if v is not None and v is not False)
    if stray:
        raise refuse(f"a hand is its two pair games in \"tables\", each with its own ender and cards or "
                     f"deadwood; \"{stray[0]}\" goes inside a table", field=stray[0])
    if tables is None:
        raise refuse("enter both pair games of the hand together in \"tables\": table 1 seat 0 v seat 1, "
                     "table 2 seat 2 v seat 3", tables=0)
    if not isinstance(tables, list) or len(tables) != len(teams.TABLES):
        got = len(tables) if isinstance(tables, list) else type(tables).__name__
        raise refuse(f"a hand needs both pair games (seat 0 v seat 1 and seat 2 v seat 3) entered together, "
                     f"got {got}", tables=got)
    return [check_table(i, t) for i, t in enumerate(tables)]


def score_entry(variant: Any, options: Any, tables: list[dict[str, Any]]) -> dict[str, Any]:
    """The team result of two checked tables (as a dict), scored by ``variant`` (Gin Rummy)."""
    results = []
    for i, t in enumerate(tables):
        local = None if t["ender"] is None else t["seats"].index(t["ender"])
        try:
            if "hands" in t:
                r = variant.score_hand(t["hands"], local, options, declared=t.get("declared"),
                                       upcard=t.get("upcard"))
            else:
                r = variant.score_from_deadwood(t["deadwood"], local, options, big_gin=bool(t.get("big_gin")),
                                                upcard=t.get("upcard"))
        except (IllegalAction, InvalidInput) as exc:
            # the gin rules count this table's two players 0 and 1: say the game's seats
            seats = t["seats"]
            said = re.sub(r"\bseat ([01])\b", lambda m: f"seat {seats[int(m.group(1))]}", str(exc))
            raise refuse(f"{_table_name(i)}: {said}", table=i + 1) from None
        results.append(HandResult.from_dict(r))
    return dict(teams.partnership_hand(results[0], results[1]).as_dict())


def seats_by_table() -> list[list[int]]:
    """The seats playing at each table (each table's team A player first).

    >>> seats_by_table()
    [[0, 1], [2, 3]]
    """
    return [list(t) for t in teams.TABLES]


def first_dealers(dealer: int) -> list[int]:
    """Who deals at each table in the first hand when the game names one first
    ``dealer``: that seat at its own table, and at the other table the seat in the same
    place (the dealer's partner: seat 0 or 2 deal, or seat 1 or 3)."""
    place = next((seats.index(dealer) for seats in teams.TABLES if dealer in seats), 0)
    return [seats[place] for seats in teams.TABLES]


def deal_order(options: Any, dealer: int,
               hands: Sequence[tuple[dict[str, Any], dict[str, Any]]]) -> tuple[list[list[int]], list[int]]:
    """The dealer at each table, hand by hand: ``hands`` are (entry, result) of the
    partnership hands so far; returns the dealers of each of them and those of the next.

    Each table is its own pair game: its dealer follows the game's ``next_dealer`` rule
    on that table's result (winner, loser or alternate; the same dealer after a void
    game). A table entered with a ``dealer`` (the flip for the first deal, or a table
    that dealt otherwise) sets that table's dealer for that hand, and the rule goes on
    from there."""
    now = first_dealers(dealer)
    per_hand: list[list[int]] = []
    for entry, result in hands:
        dealt, now = deal_step(options, now, entry, result)
        per_hand.append(dealt)
    return per_hand, now


def deal_step(options: Any, now: Sequence[int], entry: dict[str, Any],
              result: dict[str, Any]) -> tuple[list[int], list[int]]:
    """One partnership hand of :func:`deal_order`: ``now`` are the tables' dealers before
    it; returns who dealt it at each table and who deals the next."""
    tables = entry.get("tables") if isinstance(entry, dict) else None
    extra = result.get("extra") if isinstance(result, dict) else None
    played = extra.get("tables") if isinstance(extra, dict) else None
    dealt = list(now)
    for i, seats in enumerate(teams.TABLES):
        given = tables[i].get("dealer") if isinstance(tables, list) and i < len(tables) and \
            isinstance(tables[i], dict) else None
        if isinstance(given, int) and not isinstance(given, bool) and given in seats:
            dealt[i] = given
    nxt = list(dealt)
    for i, seats in enumerate(teams.TABLES):
        r = played[i] if isinstance(played, list) and i < len(played) else None
        if isinstance(r, dict):
            local = gin.next_dealer(HandResult.from_dict(r), seats.index(dealt[i]), len(seats), options)
            nxt[i] = seats[local]
    return dealt, nxt


def _team(seat: int) -> int:
    return 0 if seat in teams.TEAMS[0] else 1


def team_fields(players: Sequence[str], match: Any) -> dict[str, Any]:
    """What a partnership game shows beside the hands: per seat its team's total, per
    team its seats, players and totals."""
    totals, final = list(match.totals), list(match.final)
    return {
        "team_mode": "pagat_partnership",
        "scores": [totals[_team(s)] for s in range(len(players))],
        "final": [final[_team(s)] for s in range(len(players))],
        "team_scores": totals,
        "teams": [{"team": t, "seats": list(seats), "players": [players[s] for s in seats],
                   "total": totals[t], "final": final[t], "won": match.winner == t}
                  for t, seats in enumerate(teams.TEAMS)],
        "winner": match.winner,
        "winning_seats": None if match.winner is None else list(teams.TEAMS[match.winner]),
    }


def seat_results(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each pair game of ``results`` (partnership hand results) as a result over the four
    seats: what each player scored at their own table (for the statistics' tallies)."""
    out = []
    for r in results:
        extra = r.get("extra") if isinstance(r, dict) else None
        tables = extra.get("tables") if isinstance(extra, dict) else None
        if not isinstance(tables, list):
            continue
        for i, t in enumerate(tables[:len(teams.TABLES)]):
            seats = teams.TABLES[i]
            pts = t.get("points") if isinstance(t, dict) else None
            points = [0] * 4
            if isinstance(pts, list):
                for k, p in enumerate(pts[:2]):
                    points[seats[k]] = p if isinstance(p, int) and not isinstance(p, bool) else 0

            def seat_of(x: Any) -> int | None:
                return seats[x] if isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2 else None

            out.append({"kind": t.get("kind"), "ender": seat_of(t.get("ender")), "winner": seat_of(t.get("winner")),
                        "points": points})
    return out


def previews(variant: Any, options: Any, players: Sequence[str], tables: Sequence[dict[str, Any]],
             result: dict[str, Any]) -> dict[str, Any]:
    """What a preview adds for a partnership hand, per table: ``table_breakdowns`` (the
    table winner's points in parts, as a two-player hand's ``breakdown``, or None) and
    ``table_arrangements`` (with the cards: the ender's arrangements that tie on the
    least deadwood when there are two or more, else None). Seats in both are the table's
    own (0: its team A player, 1: its team B player), as :func:`seats_by_table` seats them
    (``variant``: the game's Variant, whose words the breakdowns use)."""
    extra = result.get("extra") if isinstance(result, dict) else None
    played = extra.get("tables") if isinstance(extra, dict) else None
    breakdowns: list[dict[str, Any] | None] = []
    ties: list[list[dict[str, Any]] | None] = []
    for i, seats in enumerate(seats_by_table()):
        t = tables[i] if i < len(tables) else {}
        r = played[i] if isinstance(played, list) and i < len(played) else None
        names = [players[s] for s in seats]
        breakdowns.append(breakdown(variant, r, options, names) if isinstance(r, dict) else None)
        ender = t.get("ender")
        local = list(seats).index(ender) if isinstance(ender, int) and not isinstance(ender, bool) \
            and ender in seats else None
        ties.append(tied_arrangements(variant, {"ender": local, "hands": t["hands"]})
                    if "hands" in t and local is not None else None)
    return {"table_breakdowns": breakdowns, "table_arrangements": ties}


__all__ = ["CODE", "previews", "check_entry", "check_table", "deal_order", "deal_step", "first_dealers", "is_partnership", "score_entry",
           "seats_by_table", "team_fields", "seat_results"]
