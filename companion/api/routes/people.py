"""Players across games: ``/api/v1/players``, ``/api/v1/stats`` and ``/api/v1/history``.

Everything is computed on the companion from the games' summary lines (the event log's
``games`` table, one line per game, see :mod:`companion.stats`): no event is replayed
per request, so years of history answer quickly. Reads, open on the LAN like the games.
"""


import functools
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Optional

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from companion import stats
from companion.stats_book import StatsBook
from companion.api import models as M
from companion.api.deps import TableDep
from companion.api.routes import ERRORS, json_response
from companion.errors import UnknownVariant
from companion.games import VARIANTS, find_variant
from companion.table import Table

router = APIRouter(tags=["players"])


# The numbers change only when the log does: computed once per log position (per table),
# so a phone that opens the statistics again, or a second phone, costs nothing.
_cache: weakref.WeakKeyDictionary[Table, dict[tuple[int, str | None], Any]] = weakref.WeakKeyDictionary()
_cache_lock = threading.Lock()


def held(table: Table, what: str | None, make: Callable[[list[dict[str, Any]]], Any]) -> Any:
    """``make(lines)`` for the log as it stands, computed once per log position."""
    seq = table.last_seq()
    key = (seq, what)
    with _cache_lock:
        kept = _cache.setdefault(table, {})
        if key in kept:
            return kept[key]
    out = make(table.all_lines())
    with _cache_lock:
        kept = {k: v for k, v in _cache.get(table, {}).items() if k[0] == seq}  # older positions are done
        kept[key] = out
        _cache[table] = kept
    return out


# The statistics are kept game by game (companion.stats_book): after a write only the
# games whose line changed are counted again, not the whole history.
_books: weakref.WeakKeyDictionary[Table, dict[str | None, StatsBook]] = weakref.WeakKeyDictionary()


def computed(table: Table, variant: str | None) -> tuple[list[stats.PlayerStats], int, int]:
    """(players, games counted, finished games) of ``variant`` (None: every game)."""
    def make(lines: list[dict[str, Any]]) -> tuple[list[stats.PlayerStats], int, int]:
        counted = stats.counted(lines)
        if variant is not None:
            lines = [ln for ln in lines if ln.get("variant") == variant]
        with _cache_lock:
            book = _books.setdefault(table, {}).setdefault(variant, StatsBook(sides_of))
        with book.lock:
            found = book.update(lines)
        return found, len(counted), sum(1 for ln in counted if ln.get("finished"))
    return held(table, "stats:" + (variant or ""), make)  # type: ignore[no-any-return]


def finished_games(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The finished games, the most recent first (by the date they were played)."""
    done = [ln for ln in lines if ln.get("finished") and not ln.get("damaged")]
    done.sort(key=lambda ln: (stats.when(ln), str(ln.get("id"))), reverse=True)
    return done


@functools.lru_cache(maxsize=32)
def sides_of(variant: str, players: int) -> Mapping[str, Sequence[int]] | None:
    """The seats of each side of a game played by sides (Gin-Go; the Gin Rummy
    partnership, whose ``winner`` is a team), else None."""
    try:
        v = find_variant(variant)
    except UnknownVariant:
        return None
    return v.sides(players)


@router.get("/api/v1/players", response_model=M.PlayerList, responses=ERRORS)
def list_players(table: TableDep) -> JSONResponse:
    """Everyone who has played on this companion, most recent first, with the games they
    finished and won: the new-game form offers these names to pick."""
    found, _, _ = computed(table, None)
    bots = held(table, "bot names", bot_names)
    return json_response({"players": [p for p in stats.roster(found) if stats.person(p["name"]) not in bots]})


def bot_names(lines: list[dict[str, Any]]) -> frozenset[str]:
    """The names (as :func:`companion.stats.person` keys them) that only ever sat in a bot's
    seat of a dealt game: the new-game form does not offer them as earlier players.

    >>> sorted(bot_names([{"players": ["Ann", "Bot 1"], "bots": [1]}, {"players": ["Bot 2", "Ann"]}]))
    ['bot 1']
    """
    as_bot: set[str] = set()
    as_person: set[str] = set()
    for ln in lines:
        seats = set(ln.get("bots") or [])
        for i, name in enumerate(ln.get("players") or []):
            (as_bot if i in seats else as_person).add(stats.person(str(name)))
    return frozenset(as_bot - as_person)


@router.get("/api/v1/stats", response_model=M.StatsList, responses=ERRORS)
def player_stats(table: TableDep,
                 player: Optional[str] = Query(None, max_length=40, description="only this player (any case)"),
                 variant: Optional[str] = Query(None, max_length=20, description="only this game",
                                                json_schema_extra={"enum": list(VARIANTS)})) -> JSONResponse:
    """Per player and game: games, wins, losses, the current and best winning streak,
    head-to-head against each opponent, hands, hands won, average points per hand,
    gins, big gins and undercuts."""
    if variant is not None:
        find_variant(variant)  # an unknown game is a clear 400 naming it, not an empty answer
    out, games, finished = computed(table, variant)
    if player is not None:
        out = [p for p in out if stats.person(p.name) == stats.person(player)]
    return json_response({"players": [p.as_dict() for p in out], "games": games, "finished": finished})


@router.get("/api/v1/history", response_model=M.GameList, responses=ERRORS)
def history(table: TableDep,
            limit: int = Query(50, ge=1, le=1000, description="this many games at most"),
            before: Optional[str] = Query(None, max_length=40, description="games finished before this one"),
            player: Optional[str] = Query(None, max_length=40, description="only games this player sat in")
            ) -> JSONResponse:
    """Every finished game, the most recent first (by the date it was played, kept through
    export and import); ``next_before`` pages further back."""
    done: list[dict[str, Any]] = held(table, "history", finished_games)
    if player is not None:
        key = stats.person(player)
        done = [ln for ln in done if any(stats.person(str(p)) == key for p in ln.get("players", []))]
    start = 0
    if before is not None:
        start = next((i + 1 for i, ln in enumerate(done) if ln.get("id") == before), len(done))
    page = done[start:start + limit]
    more = start + limit < len(done)
    return json_response({"games": page, "total": len(done), "next_before": page[-1]["id"] if more and page else None})
