"""JSON answers written with orjson: the same compact UTF-8 JSON as Starlette's
``JSONResponse``, about ten times cheaper to render (a scored hand's answer is a few KB;
on the Pi's cores the standard library's encoder was a visible part of every write).

Keys that are not text (a seat number) are written as text, as :func:`json.dumps` does.
A value orjson refuses that the standard library takes (a whole number beyond 64 bits)
is written by the standard library instead, so no answer changes.
A float that is not a number (which Starlette refused with a 500) is written as null.

>>> JsonResponse({"seat": {1: "Ann"}, "name": "Zoë"}).body.decode("utf-8")
'{"seat":{"1":"Ann"},"name":"Zoë"}'
>>> dumps_text({"big": 2**70})
'{"big":1180591620717411303424}'
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from fastapi.responses import JSONResponse

from companion.table.state import ShownHands

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS


def _subclass(value: Any) -> Any:
    """What orjson is handed for a subclass of a built-in type: a game's hands
    (:class:`~companion.table.state.ShownHands`) as each hand's JSON, kept with the hand,
    so an answer carrying a long game's hands does not encode them all again; any other
    subclass as its plain type."""
    if isinstance(value, ShownHands):
        return orjson.Fragment(value.encoded(dumps_bytes))
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def dumps_bytes(value: Any) -> bytes:
    """Compact UTF-8 JSON of ``value``; what orjson refuses goes to the standard library,
    which writes it or raises its own error (a lone surrogate cannot be UTF-8)."""
    try:
        return orjson.dumps(value, default=_subclass, option=_OPTIONS)
    except orjson.JSONEncodeError:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


def dumps_text(value: Any) -> str:
    """:func:`dumps_bytes` as text (the live channel sends text frames)."""
    return dumps_bytes(value).decode("utf-8")


class JsonResponse(JSONResponse):
    """``JSONResponse`` rendered by :func:`dumps_bytes`."""

    def render(self, content: Any) -> bytes:
        return dumps_bytes(content)
