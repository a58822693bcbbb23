"""Copies of games another board writes (remote play, :mod:`companion.mqtt.remote`).

The host board is the only writer of a remote game. It sends its events in order, each
with the game's version after it (:func:`wire_events`); the guest board appends them to
its own log with :func:`append_copy`, where each one is checked by folding it exactly as a
local write is (the same rules engine), so the guest's copy is a game like any other and
its phones, LEDs and sensors see it as one. An ``undo`` or ``redo`` names the event it
undoes by its sequence number in the writer's log; on the wire that is the event's
version in the game, and each board turns it into its own log's number.

:func:`copy_guard` is the table write hook that keeps a copy read-only: nothing but
:func:`append_copy` may add to it (a board button on the guest, a phone that slipped
past the remote routes), so the copy can never drift from the host's game.

>>> import tempfile, pathlib
>>> from companion.store import open_store
>>> from companion.table import Table
>>> host, guest = (Table(open_store(pathlib.Path(tempfile.mkdtemp()))) for _ in range(2))
>>> g = host.create_game("gingo", players=["Ann", "Bob"], game_id="r" + "0" * 32)
>>> _ = host.action(g["id"], {"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}})
>>> _ = host.undo(g["id"])
>>> append_copy(guest, g["id"], wire_events(host, g["id"]))
3
>>> guest.game(g["id"])["version"], guest.game(g["id"])["board"] == host.game(g["id"])["board"]
(3, True)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from companion.errors import CompanionError, Conflict, InvalidInput

#: the payload keys of ``undo`` and ``redo`` that name another event of the game
REFS = ("undone", "redone")
_appending = threading.local()


def wire_events(table: Any, game_id: str, after: int = 0) -> list[dict[str, Any]]:
    """The events of ``game_id`` after version ``after``, as the host sends them:
    ``{"version", "type", "payload"}`` with sequence references turned into versions."""
    events = table.store.events(game_id, after=0)
    version_of = {ev.seq: i for i, ev in enumerate(events, 1)}
    out = []
    for i, ev in enumerate(events, 1):
        if i <= after:
            continue
        payload = dict(ev.payload)
        for key in REFS:
            if key in payload and isinstance(payload[key], int):
                payload[key] = version_of.get(payload[key], 0)
        out.append({"version": i, "type": ev.type, "payload": payload})
    return out


def version(table: Any, game_id: str) -> int:
    """This board's version of ``game_id`` (0: no copy yet)."""
    try:
        return int(table.summary(game_id)["version"])
    except CompanionError:
        return 0


def append_copy(table: Any, game_id: str, events: Iterable[Mapping[str, Any]]) -> int:
    """Append the host's ``events`` (from :func:`wire_events`) to this board's copy of
    ``game_id``, in order; events already here are skipped (a duplicate delivery), and a
    gap stops the append (the caller asks for the missing ones). Returns the version now.
    An event the rules refuse raises :class:`~companion.errors.CompanionError`."""
    have = version(table, game_id)
    for ev in sorted(events, key=lambda e: int(e.get("version", 0))):
        v = ev.get("version")
        if not isinstance(v, int) or v <= have:
            continue
        if v != have + 1:
            break
        _append_one(table, game_id, ev, have)
        have = v
    return have


def _append_one(table: Any, game_id: str, ev: Mapping[str, Any], have: int) -> None:
    etype, payload = ev.get("type"), ev.get("payload")
    if not isinstance(etype, str) or not isinstance(payload, dict):
        raise InvalidInput("a remote event needs a type and a payload object", code="invalid_remote_event")
    payload = dict(payload)
    if any(key in payload for key in REFS):
        seqs = [e.seq for e in table.store.events(game_id, after=0)]
        for key in REFS:
            if key in payload:
                ref = payload[key]
                if not isinstance(ref, int) or not 1 <= ref <= len(seqs):
                    raise InvalidInput(f"{key} names no event of this game", code="invalid_remote_event")
                payload[key] = seqs[ref - 1]

    def stage() -> Any:
        g = None if have == 0 else table.reads.state(game_id)
        if (0 if g is None else g.version) != have:
            raise Conflict("the copy moved on meanwhile", code="stale_version")
        return table.ledger.stage(g, game_id, etype, payload, None, lambda st: ({}, None))

    _appending.on = True
    try:
        table.ledger.run(game_id, None, stage, "copy")
    finally:
        _appending.on = False


def copy_guard(is_copy: Callable[[str], bool]) -> Callable[[Any, Any, str], None]:
    """A table write hook (``Table.add_write_hooks(guard=...)``) that refuses every local
    write to a game ``is_copy`` names, except :func:`append_copy`'s."""

    def guard(before: Any, after: Any, etype: str) -> None:
        gid = getattr(after, "id", None) or getattr(before, "id", None)
        if gid is not None and is_copy(gid) and not getattr(_appending, "on", False):
            raise Conflict("this game is hosted by the other board: its moves go there "
                             "(through this board's API), never into this copy directly", code="remote_copy")

    return guard


__all__ = ["append_copy", "copy_guard", "version", "wire_events"]
