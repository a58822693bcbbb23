"""A game's score sheet as CSV (``GET /api/v1/games/{id}/export.csv``)."""

from __future__ import annotations

import csv
import io
from typing import Any


def _cell(points: Any) -> str:
    if isinstance(points, dict):
        return " ".join(f"{k}:{v}" for k, v in points.items())
    return str(points)


_BONUS_WORDS = {"game": "game bonus", "box": "boxes", "shutout": "shutout bonus"}


def score_sheet_csv(game: dict[str, Any]) -> str:
    """A game's score sheet as CSV: one row per hand, the running totals, then (rummy
    games) hands won, every match bonus (game bonus, boxes, shutout), the suits taken
    (Color Gin), the final score and the winner.

    >>> print(score_sheet_csv({"players": ["A", "B"], "hands": [{"n": 1, "ender": 0,
    ...     "result": {"kind": "gin", "winner": 0, "points": [130, 0]}}], "scores": [130, 0],
    ...     "final": [255, 0], "finished": True, "winner": 0, "match": {"hands_won": [1, 0],
    ...     "bonuses": [{"seat": 0, "kind": "game", "points": 100},
    ...                 {"seat": 0, "kind": "box", "points": 25, "boxes": 1}]}}).strip())
    hand,ender,kind,winner,A,B
    1,A,gin,A,130,0
    total,,,,130,0
    hands won,,,,1,0
    game bonus,,,,100,0
    boxes,,,,25,0
    final,,,,255,0
    winner,,,,A,
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
    match = game.get("match")
    if not isinstance(match, dict):
        return buf.getvalue()
    won = match.get("hands_won")
    if isinstance(won, list) and any(won):
        w.writerow(["hands won", "", "", "", *[str(x) for x in won]])
    kinds: dict[str, list[int]] = {}
    for b in match.get("bonuses") or []:
        seat = b.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(players) and isinstance(b.get("points"), int):
            row = kinds.setdefault(_BONUS_WORDS.get(str(b.get("kind")), str(b.get("kind")).replace("_", " ")),
                                   [0] * len(players))
            row[seat] += b["points"]
    for label, row in kinds.items():
        w.writerow([label, "", "", "", *[str(x) for x in row]])
    extra = match.get("extra") or {}
    taken = extra.get("suit_winner") if isinstance(extra, dict) else None
    if isinstance(taken, dict) and any(v is not None for v in taken.values()):
        w.writerow(["suits taken", "", "", "", *[" ".join(s for s, v in taken.items() if v == seat)
                                                 for seat in range(len(players))]])
    final = game.get("final")
    if game.get("finished") and isinstance(final, list):
        w.writerow(["final", "", "", "", *[_cell(x) for x in final]])
        win = game.get("winner")
        w.writerow(["winner", "", "", "", *[players[s] if s == win else "" for s in range(len(players))]])
    return buf.getvalue()
