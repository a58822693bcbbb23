"""Gin-Go self-play: the seat bots (:mod:`companion.games.gingo.play.strong`) play whole games, every invariant checked after every action.

>>> r = selfplay_game(4, players=4)
>>> r["winner"] in (1, 2), r["reason"] in ("gin_held", "both_linked", "capture_link", "gin_first")
(True, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from companion.games.gingo.play.play import GingoPlay
from companion.games.gingo.play.strong import strong_move as bot_move
from companion.games.gingo.rules.errors import GingoError


def selfplay_game(seed: int, players: int = 2, check: bool = True, max_hands: int = 200,
                  options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Bots play one whole game from ``seed``; with ``check`` every invariant is checked
    after every action. Returns ``{"seed", "players", "winner" (side or None), "reason"
    ("gin_held", "both_linked", "capture_link", "gin_first" or "hand_cap"), "hands",
    "actions", "seconds"}``; a game still running after ``max_hands`` hands is reported
    honestly as a draw by the cap (winner None, reason "hand_cap").

    >>> r = selfplay_game(4, players=4)
    >>> r["winner"] in (1, 2), r["reason"] in ("gin_held", "both_linked", "capture_link", "gin_first")
    (True, True)
    """
    if players not in (2, 4):
        raise GingoError(f"Gin-Go self-play is for 2 or 4 players, not {players}")
    t0 = time.perf_counter()
    names = [f"bot{i + 1}" for i in range(players)]
    play = GingoPlay(names, dict(options or {}), seed=seed)
    rng = random.Random(seed * 7919 + 1)
    actions = 0
    max_actions = max_hands * 2000
    while play.phase != "game_over":
        if play.phase == "hand_over" and play.table.hand >= max_hands:
            break
        play.perform(bot_move(play, rng))
        actions += 1
        if check:
            play.check()
        if actions > max_actions:  # pragma: no cover - a bot loop would be a bug
            raise AssertionError(f"self-play seed {seed} did not finish in {max_actions} actions")
    t = play.table
    return {
        "seed": seed, "players": players, "winner": t.winner,
        "reason": t.as_dict()["win_reason"] if t.winner is not None else "hand_cap",
        "hands": t.hand, "actions": actions, "seconds": round(time.perf_counter() - t0, 4),
    }


__all__ = ["selfplay_game"]
