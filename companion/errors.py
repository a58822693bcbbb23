"""Every error the companion raises on purpose, as one tree.

Each class has a stable machine ``code`` (what clients branch on; the words of a
message may change, a code does not) and structured ``details`` (plain JSON data, e.g.
a chip shortfall carries the side, its supply, the chips needed and the cards). The
HTTP status of each kind is decided in one place, :mod:`companion.api.errors`; nothing
here knows about HTTP.

::

    CompanionError
     +-- InvalidInput        the request itself is wrong (shape, type, range, unknown name)
     |    +-- UnknownVariant
     |    +-- InvalidAction  a Gin-Go action that cannot be read (shape, type, card name)
     +-- IllegalAction       well formed, but the rules or the game's state refuse it
     |    +-- ChipShortfall  a Gin-Go play needs more chips than the side has left
     +-- NotFound            no game, hand or token by that name
     +-- Conflict            the game moved on (stale version, finished, nothing to undo,
     |    +-- StaleVersion   a client id reused)
     +-- Unauthorized        no token, a revoked one, a wrong pairing code
     +-- RateLimited         too many requests in a while: wait ``retry_after`` seconds
     +-- StorageError        the event log cannot do what was asked
     |    +-- StorageFull    the disk is full (nothing was written)
     |    +-- StorageDamaged the data folder is damaged
     |    +-- StorageBusy    another service holds the data folder
     +-- BackendError        a hardware backend (LEDs, sensors) cannot work
     +-- ConfigError         a setting or configuration file is wrong

The split between :class:`InvalidInput` and :class:`IllegalAction` is python-chess's
(``InvalidMoveError`` vs ``IllegalMoveError``): "I cannot read this" vs "I read it and
the rules say no". Input-facing classes are also ``ValueError``, so code written before
this tree (``except ValueError``) keeps working; :class:`BackendError` is a
``RuntimeError`` for the same reason.

>>> err = ChipShortfall(side=1, supply=2, need=3, cards=["7H", "8H", "9H"])
>>> err.code, err.details["need"], isinstance(err, IllegalAction), isinstance(err, ValueError)
('illegal', 3, True, True)
>>> err.to_dict()["details"]["reason"]
'chip_shortfall'
>>> StaleVersion(version=4, expected=3).to_dict()["code"]
'stale_version'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class CompanionError(Exception):
    """The root of the tree: a ``message`` for people, a ``code`` and ``details`` for programs.

    ``code`` defaults to the class's; an instance may narrow it (``InvalidInput("...",
    code="invalid_hand")``) so the codes of API contract v1 stay what they were.

    >>> e = Conflict("the match is over", code="finished")
    >>> e.code, e.message, e.details
    ('finished', 'the match is over', {})
    """

    code: str = "error"

    def __init__(self, message: object = "", *, code: str | None = None,
                 details: Mapping[str, Any] | None = None) -> None:
        text = str(message)
        super().__init__(text)
        self.message = text
        if code is not None:
            self.code = code  # an instance may narrow its class's code
        self.details: dict[str, Any] = dict(details or {})

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, Any]:
        """The error as API contract v1 sends it (inside ``{"error": ...}``)."""
        return {"code": self.code, "message": self.message, "details": dict(self.details)}


#: The name callers used before the tree (``except TableError``); raise a class of the tree.
TableError = CompanionError


class InvalidInput(CompanionError, ValueError):
    """The input cannot be used as given: wrong shape or type, out of range, an unknown name."""

    code: str = "invalid"


class UnknownVariant(InvalidInput):
    """No game of that name; ``details["choices"]`` lists the games there are."""

    code: str = "unknown_variant"

    def __init__(self, name: object, choices: Sequence[str]) -> None:
        super().__init__(f"unknown variant {name!r}; choose one of {', '.join(choices)}",
                         details={"variant": str(name), "choices": list(choices)})


class InvalidAction(InvalidInput):
    """A game action that cannot be read: not an object, an unknown ``type``, a field it
    does not take or of the wrong shape, a card name that is no card (python-chess's
    ``InvalidMoveError``). A well-formed action the rules refuse is an
    :class:`IllegalAction` instead."""

    code: str = "invalid_action"


class IllegalAction(CompanionError, ValueError):
    """Well-formed input that the rules (or the game as it stands) do not allow."""

    code: str = "illegal"


class ChipShortfall(IllegalAction):
    """A Gin-Go play needs more chips than the side has left in its supply.

    ``details``: ``reason`` ("chip_shortfall"), ``side`` (1 or 2), ``supply`` (chips
    left), ``need`` (spaces the play would fill), ``cards`` (the cards whose spaces need a
    chip: the player names up to ``need - supply`` of them in ``skip`` to forfeit those).
    """

    def __init__(self, message: str | None = None, *, side: int, supply: int, need: int,
                 cards: Sequence[str] = (), what: str = "this play") -> None:
        text = message or (f"{what}: side {side} has {supply} chips left but this play needs {need}; name the "
                           "cards whose chips are forfeited in 'skip' (chip cap: each side owns a fixed number of "
                           "chips, and the spaces its supply cannot cover are forfeited)")
        super().__init__(text, details={"reason": "chip_shortfall", "side": side, "supply": supply,
                                        "need": need, "short": max(0, need - supply), "cards": list(cards)})


class NotFound(CompanionError, LookupError, ValueError):
    """No game, hand, token or path by that name."""

    code: str = "not_found"


class Conflict(CompanionError, ValueError):
    """The request is fine but the game has moved on: it is finished, there is nothing to
    undo, or a client id was already used for something else."""

    code: str = "conflict"


class StaleVersion(Conflict):
    """The client started from an older version of the game (``expected_version``)."""

    code: str = "stale_version"

    def __init__(self, message: object = None, *, version: int = 0, expected: int = 0) -> None:
        super().__init__(message or f"the game is at version {version}, not {expected}: reload it and try again",
                         details={"version": version, "expected": expected})


class Unauthorized(CompanionError, ValueError):
    """No token, an unknown or revoked one, or a wrong pairing or host code."""

    code: str = "unauthorized"


class RateLimited(CompanionError):
    """Too many requests in a while (a remote board over the host's limit): nothing was
    written; ``details["retry_after"]`` is the whole seconds to wait.

    >>> e = RateLimited("wait", retry_after=3)
    >>> e.code, e.details
    ('rate_limited', {'retry_after': 3})
    """

    code: str = "rate_limited"

    def __init__(self, message: object = "", *, retry_after: int, code: str | None = None) -> None:
        super().__init__(message, code=code, details={"retry_after": int(retry_after)})


class StorageError(CompanionError, ValueError):
    """The event log could not do what was asked; nothing was written."""

    code: str = "storage"


class StorageFull(StorageError):
    """The disk is full: nothing was written; the same ``client_id`` may be sent again later."""

    code: str = "storage_full"


class StorageDamaged(StorageError):
    """Part of the data folder cannot be read (``details`` says which game or file)."""

    code: str = "storage_damaged"


class StorageBusy(StorageError):
    """Another service already uses the data folder."""

    code: str = "storage_busy"


class BackendError(CompanionError, RuntimeError):
    """A hardware backend (LED strip, sensor link) cannot start or stopped working."""

    code: str = "backend"


class ConfigError(CompanionError, ValueError):
    """A setting, option file or configuration value is wrong (the message names it)."""

    code: str = "config"


def refusal(message: str, *, field: str | None = None, seat: int | None = None) -> IllegalAction:
    """A rules engine's refusal naming the input it is about: ``field`` (``hands``,
    ``deadwood``, ``declared``, ``upcard``...) and ``seat``, so a page shows the message
    next to that field without reading the words.

    >>> refusal("seat 1 may not knock with 58 deadwood", field="hands", seat=1).details
    {'field': 'hands', 'seat': 1}
    """
    details: dict[str, Any] = {}
    if field is not None:
        details["field"] = field
    if seat is not None:
        details["seat"] = seat
    return IllegalAction(message, details=details)


__all__ = [
    "CompanionError", "TableError", "InvalidInput", "UnknownVariant", "InvalidAction", "IllegalAction",
    "ChipShortfall",
    "NotFound", "Conflict", "StaleVersion", "Unauthorized", "RateLimited", "StorageError", "StorageFull",
    "StorageDamaged", "StorageBusy", "BackendError", "ConfigError", "refusal",
]
