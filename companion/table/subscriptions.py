"""Subscriptions: who hears about each committed event (the live channel, the board)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from companion.store import StoredEvent

_log = logging.getLogger(__name__)

Subscriber = Callable[[StoredEvent, dict[str, Any]], None]


class Subscribers:
    """The listeners of one table; each hears ``(event, message)`` after a commit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: list[Subscriber] = []

    def add(self, fn: Subscriber) -> Callable[[], None]:
        """Add ``fn``; returns the function that removes it again."""
        with self._lock:
            self._subs.append(fn)

        def unsubscribe() -> None:
            with self._lock:
                if fn in self._subs:
                    self._subs.remove(fn)

        return unsubscribe

    def notify(self, ev: StoredEvent, game_dict: dict[str, Any] | None) -> None:
        """Tell every listener about ``ev`` (``game_dict``: the game after it, or None)."""
        msg = {"type": "event", "seq": ev.seq, "event": ev.as_dict(), "game": game_dict}
        with self._lock:
            subs = list(self._subs)
        for fn in subs:
            try:
                fn(ev, msg)
            except Exception:  # a broken listener must not undo a committed command; say so instead
                _log.exception("a table listener failed (the command itself is committed)")
