"""Retried writes: a ``client_id`` answers the request it was first used for, and only that.

A phone retries a write with the same ``client_id`` after a lost connection; the table
answers with the first answer and writes nothing. The same ``client_id`` sent with a
*different* request (another endpoint, another body) is a mistake or a forgery, and gets
409 ``client_id_reused``, never the other request's answer. To tell them apart, each
write stores a fingerprint of its request (the operation and everything the client sent)
with its first answer, under :data:`KEY`; answers stored before fingerprints existed are
told apart by their event type.

>>> fp = fingerprint("hand", ender=0, deadwood=[3, 20], expected_version=None)
>>> body = first_answer(stamp({"result": 1}, fp), "hand", "hand", fp, "c1")
>>> body
{'result': 1}
>>> first_answer(stamp({"result": 1}, fp), "hand", "hand", fingerprint("hand", ender=1), "c1")
Traceback (most recent call last):
...
companion.errors.Conflict: client_id 'c1' was already used in this game for another request (a hand): a retry must repeat the same request; send a new client_id for a new one
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import uuid
from typing import Any

from companion.errors import Conflict

KEY = "_request"
#: The event type each operation writes first (for answers stored without a fingerprint).
EVENT_TYPES = {"create": "game_created", "import": "game_created", "hand": "hand",
               "correct": "hand_corrected", "undo": "undo", "action": "action", "delete": "game_deleted"}
_WHAT = {"game_created": "a new game", "hand": "a hand", "hand_corrected": "a corrected hand",
         "undo": "an undo", "action": "a Gin-Go action", "game_deleted": "deleting the game"}


def new_id(prefix: str, client_id: str | None) -> str:
    """The id of a new game (``"g"``) or outing (``"o"``): from its ``client_id``, so a
    retried create lands on the one first made, else at random.

    >>> new_id("g", "phone-1") == new_id("g", "phone-1"), new_id("o", None)[0], len(new_id("g", None))
    (True, 'o', 12)
    """
    if client_id:
        return prefix + hashlib.sha256(client_id.encode("utf-8")).hexdigest()[:11]
    return prefix + uuid.uuid4().hex[:11]


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return repr(value)


def fingerprint(op: str, **inputs: Any) -> str:
    """A short digest of an operation and what the client sent with it."""
    text = json.dumps([op, inputs], sort_keys=True, separators=(",", ":"), default=_plain, ensure_ascii=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def stamp(result: dict[str, Any], fp: str | None) -> dict[str, Any]:
    """The answer as it is stored: with the request's fingerprint."""
    return result if fp is None else {**result, KEY: fp}


def first_answer(stored: Any, stored_type: str, op: str, fp: str | None, client_id: str) -> dict[str, Any]:
    """The first answer for a retried ``client_id`` (without the fingerprint), or
    TableError 409 ``client_id_reused`` when it was used for another request."""
    body = stored if isinstance(stored, dict) else {"result": stored}
    seen = body.get(KEY)
    if fp is not None:
        other = (seen != fp) if isinstance(seen, str) else (EVENT_TYPES.get(op) not in (None, stored_type))
        if other:
            raise Conflict(f"client_id {client_id[:100]!r} was already used in this game for another request "
                           f"({_WHAT.get(stored_type, stored_type)}): a retry must repeat the same request; "
                           "send a new client_id for a new one", code="client_id_reused",
                           details={"client_id": client_id[:100], "used_for": stored_type})
    return {k: v for k, v in body.items() if k != KEY}
