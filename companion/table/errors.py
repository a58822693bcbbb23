"""The table's refusal: :class:`TableError` (a ``ValueError`` with a code and an HTTP status)."""

from __future__ import annotations

import logging

log = logging.getLogger("companion.table")


class TableError(ValueError):
    """A command the table refused; nothing was written.

    ``code`` is a short machine word (``not_found``, ``invalid``, ``stale_version``...),
    ``status`` the HTTP status the API answers with.
    """

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def engine_failure(exc: Exception) -> TableError:
    """A rules engine broke on this input (a bug there): refuse it, write nothing, log it."""
    log.error("rules engine failed: %r", exc, exc_info=exc)
    return TableError("engine_error", f"the rules engine could not handle this input ({type(exc).__name__}: {exc}); "
                      "nothing was written", 422)

