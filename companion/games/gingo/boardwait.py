"""What a dealt Gin-Go game waits for on the board, in words a player can act on.

When a bot or a phone player melds, hits or goes out, the LEDs pulse the spaces where
that side's chips go and flash the chips to bump; the next turn waits until the sensors
agree (:meth:`companion.table.dealing.Dealing.waiting_for_board`, which asks the
Variant: :meth:`companion.games.gingo.GinGo.board_wait`). :func:`board_wait` turns the board view's disagreements into the answer a refused turn carries: every space
still wrong, by name (``r3c2``, row and column as side 1 sees the board), by number, and
by the card it stands for in the frame of the side whose chip belongs there.

>>> view = {"expected": "1" + "." * 50 + "2", "sensed": "." * 50 + "22",
...         "pending": [0], "bumps": [], "unexpected": [50]}
>>> w = board_wait(view, {"1": {"AS": 0}, "2": {"KC": 51}})
>>> w["pending"], w["unexpected"]
([{'space': 0, 'name': 'r1c1', 'side': 1, 'card': 'AS'}], [{'space': 50, 'name': 'r13c3', 'side': 2}])
>>> w["message"]
"the board does not match the game yet: place side 1's chip on r1c1 (space 0, AS in side 1's frame); lift side 2's chip off r13c3 (space 50): no chip belongs there"
"""

from __future__ import annotations

from typing import Any

from companion.board import space_name

Frames = dict[str, dict[str, int]] | None


def _card_at(frames: Frames, side: int, space: int) -> str | None:
    """The card ``space`` stands for in ``side``'s frame (None before the suit rows are set)."""
    frame = (frames or {}).get(str(side)) or {}
    return next((card for card, s in frame.items() if s == space), None)


def board_wait(view: dict[str, Any], frames: Frames) -> dict[str, Any]:
    """The spaces a board ``view`` (:func:`companion.boardview.board_view`) still has wrong,
    each named, and one sentence saying what to do about every one of them."""
    expected = str(view.get("expected") or "")
    sensed = str(view.get("sensed") or "")
    out: dict[str, Any] = {"pending": [], "bumps": [], "unexpected": []}
    steps: list[str] = []
    for s in view.get("pending") or ():
        side = int(expected[s])
        card = _card_at(frames, side, s)
        out["pending"].append({"space": s, "name": space_name(s), "side": side, "card": card})
        where = f"space {s}" + (f", {card} in side {side}'s frame" if card else "")
        steps.append(f"place side {side}'s chip on {space_name(s)} ({where})")
    for s in view.get("bumps") or ():
        side, owner = int(sensed[s]), int(expected[s])
        card = _card_at(frames, owner, s)
        out["bumps"].append({"space": s, "name": space_name(s), "side": side, "to": owner, "card": card})
        steps.append(f"bump side {side}'s chip off {space_name(s)} (space {s}) and put side {owner}'s there")
    for s in view.get("unexpected") or ():
        side = int(sensed[s])
        out["unexpected"].append({"space": s, "name": space_name(s), "side": side})
        steps.append(f"lift side {side}'s chip off {space_name(s)} (space {s}): no chip belongs there")
    out["message"] = "the board does not match the game yet: " + "; ".join(steps)
    return out


__all__ = ["board_wait"]
