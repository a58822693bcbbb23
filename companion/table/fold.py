"""The fold: a game's state is a pure function of its events.

:func:`fold_game` folds one game's events (the first is ``game_created``) into a
:class:`GameState`; the table checks each new event by folding it before it is written,
and a restart, an undo or a correction two hands back all come out of this code.
:func:`step` is the same fold one event further. Both are a loop over the game's
:class:`~companion.table.tracking.Track` (chosen when the game is created, from what its
Variant gives the table), so nothing here asks which game it is. The state is
:class:`~companion.table.state.GameState`; which events still stand after undos and
redos is :mod:`companion.table.history`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from companion.errors import InvalidInput
from companion.games import find_variant
from companion.store import StoredEvent
from companion.table.history import stacks
from companion.table.state import GameState
from companion.table.tracking import NeedsRefold, track_for


def new_state(first: StoredEvent) -> GameState:
    """The state right after ``game_created`` (raises on options the engine refuses)."""
    if first.type != "game_created":
        raise InvalidInput("a game's events must start with game_created", code="invalid_log")
    p = first.payload
    v = find_variant(p["variant"])
    g = GameState(
        id=first.game_id,
        variant=v.name,
        preset=p.get("preset"),
        overrides=dict(p.get("options") or {}),
        players=list(p["players"]),
        dealer=int(p.get("dealer", 0)),
        created=first.time,
        options=v.make_options(p.get("preset"), dict(p.get("options") or {}), len(p["players"])),
        track=track_for(v, p),
        rematch_of=p.get("rematch_of"),
        created_payload=p,
        created_seq=first.seq,
        version=1,
        last_seq=first.seq,
    )
    g.created_dealer = g.dealer
    g.track.start(g, p)
    return g


def step(g: GameState, ev: StoredEvent) -> GameState:
    """The state after one more event, without folding the whole game again; ``g`` is
    left as it was, except a game entered move by move, whose table game moves on in place
    (it leaves itself unchanged when it refuses an action). Equal to :func:`fold_game`
    over all events. An ``undo`` or a ``redo`` raises :class:`NeedsRefold` (or is refused,
    in a game that never undoes)."""
    if ev.type in ("undo", "redo"):
        g.track.undo()
    new = dataclasses.replace(g, hands=list(g.hands), actions=list(g.actions), plays=list(g.plays),
                              standing=list(g.standing), version=g.version + 1, last_seq=ev.seq)
    if ev.type == "game_deleted":
        new.deleted = True
        return new
    new.undone = []  # a new entry: what was undone before it can no longer be redone
    dirty = new.track.apply(new, ev)
    new.standing.append((ev.seq, ev.type))
    new.track.stepped(new, ev, dirty)
    return new


def fold_game(events: Sequence[StoredEvent]) -> GameState:
    """Fold one game's events (the first is ``game_created``) into its state: each
    standing event applied by the game's track, then what follows from them all.

    Raises ``ValueError`` (from the engines) when the events do not form a legal game;
    the table checks each new event this way before it is written.
    """
    if not events or events[0].type != "game_created":
        raise InvalidInput("a game's events must start with game_created", code="invalid_log")
    g = new_state(events[0])
    g.version = len(events)
    g.last_seq = events[-1].seq
    g.deleted = any(ev.type == "game_deleted" for ev in events)
    dirty: int | None = None
    standing, undone = stacks(events)
    g.undone = [(ev.seq, ev.type, n) for ev, n in undone]
    for ev in standing:
        d = g.track.apply(g, ev)
        g.standing.append((ev.seq, ev.type))
        if d is not None:
            dirty = d if dirty is None else min(dirty, d)
    g.track.settle(g, dirty)
    return g


__all__ = ["NeedsRefold", "fold_game", "new_state", "step"]
