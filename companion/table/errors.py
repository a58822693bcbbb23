"""The table's refusals: :class:`TableError` is the root of :mod:`companion.errors`
(kept under this name for callers written before the tree), and what to do when an
engine breaks."""

from __future__ import annotations

import logging

from companion.errors import TableError as TableError  # re-exported: callers import it from here

log = logging.getLogger("companion.table")


def engine_failure(exc: Exception) -> Exception:
    """A rules engine broke on this input (a bug there, not the player's mistake): log it
    and let it through, so the API answers 500 ``internal_error``; nothing was written."""
    log.error("rules engine failed: %r", exc, exc_info=exc)
    return exc
