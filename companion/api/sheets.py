"""A game's score sheet as CSV (``GET /api/v1/games/{id}/export.csv``)."""

from __future__ import annotations

import csv
import io
from typing import Any


def _cell(points: Any) -> str:
    if isinstance(points, dict):
        return " ".join(f"{k}:{v}" for k, v in points.items())
    return str(points)


def score_sheet_csv(game: dict[str, Any]) -> str:
    """A game's score sheet as CSV: one row per hand, then the totals.

    >>> print(score_sheet_csv({"players": ["A", "B"], "hands": [{"n": 1, "ender": 0,
    ...     "result": {"kind": "gin", "winner": 0, "points": [30, 0]}}], "scores": [30, 0]}).strip())
    hand,ender,kind,winner,A,B
    1,A,gin,A,30,0
    total,,,,30,0
    """
    players = list(game.get("players", []))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["hand", "ender", "kind", "winner", *players])

    def name(seat: Any) -> str:
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else ("" if seat is None else str(seat))

    for h in game.get("hands", []):
        res = h.get("result")
        if isinstance(res, dict):
            pts = res.get("points") or []
            w.writerow([h.get("n"), name(h.get("ender")), res.get("kind"), name(res.get("winner")),
                        *[_cell(p) for p in pts]])
        else:  # Gin-Go hand_end events
            w.writerow([h.get("hand"), name(h.get("went_out")), h.get("reason") or "", h.get("winner") or "",
                        *["" for _ in players]])
    scores = game.get("scores") or []
    w.writerow(["total", "", "", "", *[_cell(s) for s in scores]])
    return buf.getvalue()
