"""Checkpoints: a game's folded state as JSON, so a start-up replays only the tail.

A checkpoint is derived data: :func:`restore` plus the events after it gives the same
state as :func:`~companion.table.fold.fold_game` over every event (a test checks this),
and a checkpoint that cannot be read is ignored (the game is folded from its events).

A rummy checkpoint holds the scored hands (the match is folded from their results); a
Gin-Go checkpoint holds the actions still standing (the engine plays them again, which
skips the undone ones and the decoding of every event); a dealt game's checkpoint holds
its seat and play events (the deal is replayed from the key in its first event).
"""

from __future__ import annotations

from typing import Any

from companion.store import StoredEvent
from companion.table.fold import new_state
from companion.table.state import GameState

FORMAT = 1
#: a game writes a checkpoint every this many events (and after an undo)
EVERY = 50


def snapshot(g: GameState) -> dict[str, Any]:
    """The checkpoint of ``g`` as a JSON-able dict."""
    d: dict[str, Any] = {
        "format": FORMAT,
        "created": {"seq": g.created_seq, "time": g.created, "payload": g.created_payload},
        "version": g.version, "last_seq": g.last_seq, "deleted": g.deleted,
        "standing": [[seq, typ] for seq, typ in g.standing],
        "undone": [[seq, typ, n] for seq, typ, n in g.undone],
    }
    d.update(g.track.snapshot(g))
    return d


def restore(game_id: str, state: dict[str, Any]) -> GameState:
    """The game a checkpoint holds (raises ``ValueError``/``KeyError``/``TypeError`` when
    it is not one this version can read)."""
    if state.get("format") != FORMAT:
        raise ValueError(f"checkpoint format {state.get('format')!r}")
    c = state["created"]
    g = new_state(StoredEvent(int(c["seq"]), game_id, "game_created", dict(c["payload"]), None, float(c["time"])))
    g.version = int(state["version"])
    g.last_seq = int(state["last_seq"])
    g.deleted = bool(state["deleted"])
    g.standing = [(int(seq), str(typ)) for seq, typ in state["standing"]]
    g.undone = [(int(seq), str(typ), None if n is None else int(n)) for seq, typ, n in state.get("undone", [])]
    g.track.restore(g, state)
    return g
