"""Checks a new game's input passes, whether it is created or imported."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.errors import InvalidInput
from companion.table.errors import TableError

MAX_PLAYER_NAME = 40


def check_players(players: Iterable[Any]) -> list[str]:
    """The player names, stripped; refuses anything but 2+ non-empty names of at most 40 characters.

    >>> check_players([" Ann", "Bob"])
    ['Ann', 'Bob']
    """
    if isinstance(players, (str, bytes)) or not isinstance(players, (list, tuple)):
        raise InvalidInput("\"players\" is a list of names", code="invalid_players")
    names: list[str] = []
    for p in players:
        if not isinstance(p, str) or not p.strip():
            raise InvalidInput(f"a player name must be non-empty text, got {p!r}", code="invalid_players")
        if len(p) > MAX_PLAYER_NAME:
            raise InvalidInput(f"player name {p[:20]!r}... is longer than {MAX_PLAYER_NAME} characters", code="invalid_players")
        names.append(p.strip())
    if len(names) < 2:
        raise InvalidInput("a game needs at least 2 players", code="invalid_players")
    return names


def check_created(payload: dict[str, Any]) -> None:
    """An imported game_created payload passes the checks a new game passes (players,
    dealer, preset); an edited file used to slip a blank name or dealer -1 through."""
    players: Any = payload.get("players")
    try:
        payload["players"] = check_players(players)
    except TableError as exc:
        raise InvalidInput(f"event 0: {exc.message}", code="invalid_import") from None
    n = len(payload["players"])
    dealer = 0 if payload.get("dealer") is None else payload["dealer"]
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise InvalidInput(f"event 0: dealer must be a seat 0..{n - 1}, got {dealer!r}", code="invalid_import")
    payload["dealer"] = dealer
    preset = payload.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise InvalidInput(f"event 0: preset must be a preset name or null, got {preset!r}", code="invalid_import")


def range_text(r: Any) -> str:
    """``range(2, 5)`` as "2 to 4", two or three values as "2 or 4"."""
    vals = list(r)
    return " or ".join(str(v) for v in vals) if len(vals) <= 3 else f"{vals[0]} to {vals[-1]}"
