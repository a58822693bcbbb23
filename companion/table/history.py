"""Undo and redo over a game's events: which events still stand (:func:`effective`,
:func:`stacks`) and what each event did in players' terms (:func:`describe`, the
``changes`` of a stale-version answer). Pure functions of the event list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.store import StoredEvent


def effective(events: Sequence[StoredEvent]) -> list[StoredEvent]:
    """The events after undos: each ``undo`` cancels the latest one still standing, each
    ``redo`` brings back the latest one undone (until a new entry is made)."""
    return stacks(events)[0]


def stacks(events: Sequence[StoredEvent]) -> tuple[list[StoredEvent], list[tuple[StoredEvent, int | None]]]:
    """The events still standing, and those undone that a ``redo`` can bring back (each
    with its hand number, the next to redo last)."""
    stack: list[StoredEvent] = []
    undone: list[tuple[StoredEvent, int | None]] = []
    for ev in events[1:]:
        if ev.type == "undo":
            if stack:
                top = stack.pop()
                undone.append((top, _hand_number(top, stack)))
        elif ev.type == "redo":
            if undone:
                stack.append(undone.pop()[0])
        elif ev.type != "game_deleted":
            stack.append(ev)
            undone = []
    return stack, undone


def _hand_number(ev: StoredEvent, before: Sequence[StoredEvent]) -> int | None:
    """The hand an event is about: a correction names it, a new hand comes after those standing."""
    if ev.type == "hand_corrected":
        n = ev.payload.get("hand")
        return n if isinstance(n, int) else None
    if ev.type == "hand":
        return 1 + sum(1 for e in before if e.type == "hand")
    return None


def describe(events: Sequence[StoredEvent], after: int = 0) -> list[dict[str, Any]]:
    """What each event after the first ``after`` did, in players' terms: ``{"seq", "type",
    "hand", "by"}`` (an undo or a redo also names, as ``of``, the type of the event it took
    back or brought back). One pass over the game's events."""
    out: list[dict[str, Any]] = []
    stack: list[StoredEvent] = []
    undone: list[tuple[StoredEvent, int | None]] = []
    for i, ev in enumerate(events):
        d: dict[str, Any] = {"seq": ev.seq, "type": ev.type, "by": ev.payload.get("by"), "hand": None}
        if i == 0 or ev.type == "game_deleted":
            pass
        elif ev.type == "undo":
            if stack:
                top = stack.pop()
                n = _hand_number(top, stack)
                undone.append((top, n))
                d.update(hand=n, of=top.type)
        elif ev.type == "redo":
            if undone:
                top, n = undone.pop()
                stack.append(top)
                d.update(hand=n, of=top.type)
        else:
            d["hand"] = _hand_number(ev, stack)
            stack.append(ev)
            undone = []
        if i >= after:
            out.append(d)
    return out
