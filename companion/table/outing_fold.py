"""An outing's record folded from its stored steps (pure: no I/O).

The steps (payloads are JSON; see :mod:`companion.store.outings` for the table):

* ``outing_created`` ``{"players", "sides", "preset", "options", "games": [round 1's
  game ids], "created"}`` (``created``: when the outing began, which its time limit counts
  from; an imported outing keeps the first one's), ``"imported_from"``? (the exported id)
* ``round_paired`` ``{"round", "games": [ids], "by"}`` (``by``: ``"auto"`` when the
  companion paired it as the round's last match ended, else the phone that asked)
* ``outing_ended`` ``{"ended_by": "target" | "time" | "host", "auto", "by"}`` (``auto``:
  written by the companion when the target or the time ended it)
* ``undo`` ``{"undone": seq, "undone_type", "by", "games_deleted": [ids]}``: cancels
  the latest step still standing (a round's games, which had no hands, are deleted with it)
* ``outing_deleted`` ``{"games": "keep" | "delete", "games_deleted": [ids]}``

Every step a client sent carries the fingerprint of its request under ``"_request"``
(see :mod:`companion.table.retries`), so a retried ``client_id`` is told from a reused one.

>>> from companion.store.outings import OutingEvent as E
>>> steps = [E(1, "o1", "outing_created", {"players": ["A", "B", "C", "D"], "sides": [0, 0, 1, 1],
...          "preset": None, "options": {}, "games": ["g1", "g2"], "created": 5.0}, None, 5.0),
...          E(2, "o1", "round_paired", {"round": 2, "games": ["g3", "g4"], "by": "auto"}, None, 9.0),
...          E(3, "o1", "undo", {"undone": 2, "undone_type": "round_paired"}, None, 9.5)]
>>> rec = fold_outing(steps)
>>> rec.rounds, rec.version, rec.paused
([['g1', 'g2']], 3, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.store.outings import OutingEvent

STEP_TYPES = ("outing_created", "round_paired", "outing_ended", "undo", "outing_deleted")
#: what each step is called in an error message
STEP_NAMES = {"outing_created": "starting the outing", "round_paired": "pairing a round",
              "outing_ended": "ending the outing", "undo": "an undo", "outing_deleted": "deleting the outing"}


@dataclass
class OutingRecord:
    """What an outing's steps add up to."""

    id: str
    created: float
    players: list[str]
    sides: list[int]
    preset: str | None
    options: dict[str, Any]
    rounds: list[list[str]] = field(default_factory=list)
    #: the standing end: ``{"ended_by", "auto", "by", "seq", "time"}``, or None
    ended: dict[str, Any] | None = None
    deleted: bool = False
    #: the number of steps (an outing's version, as a game's is its number of events)
    version: int = 0
    #: (seq, type) of each step still standing, oldest first (an undo cancels the last)
    standing: list[tuple[int, str]] = field(default_factory=list)
    #: the last step undid a pairing: the companion does not pair that round again by itself
    paused: bool = False
    imported_from: str | None = None
    last_seq: int = 0
    #: every game the outing ever linked (deleted ones too)
    every_game: list[str] = field(default_factory=list)

    def games(self) -> list[str]:
        """The games of its rounds, round by round."""
        return [gid for r in self.rounds for gid in r]

    def round_of(self, game_id: str) -> int | None:
        """The round (from 1) game ``game_id`` is a match of, if any."""
        for r, gids in enumerate(self.rounds, start=1):
            if game_id in gids:
                return r
        return None


def _apply(rec: OutingRecord, ev: OutingEvent) -> None:
    p = ev.payload
    if ev.type == "round_paired":
        rec.rounds.append([str(g) for g in p.get("games") or []])
    elif ev.type == "outing_ended":
        rec.ended = {"ended_by": str(p.get("ended_by") or "host"), "auto": bool(p.get("auto")), "by": p.get("by"),
                     "seq": ev.seq, "time": ev.time}


def fold_outing(events: Sequence[OutingEvent]) -> OutingRecord | None:
    """The record of one outing's steps (None when they do not start with its creation).
    A step that does not fit (an undo of a step that is not the last standing one, an
    unknown type) raises ``ValueError`` naming it."""
    if not events or events[0].type != "outing_created":
        return None
    first = events[0]
    p = first.payload
    created = p.get("created")
    rec = OutingRecord(
        id=first.outing_id, created=float(created) if isinstance(created, (int, float)) else first.time,
        players=[str(x) for x in p.get("players") or []], sides=[int(x) for x in p.get("sides") or []],
        preset=p.get("preset") if isinstance(p.get("preset"), str) else None,
        options=dict(p.get("options") or {}), imported_from=p.get("imported_from"))
    stack: list[OutingEvent] = []
    for ev in events:
        rec.version += 1
        rec.last_seq = ev.seq
        rec.paused = False
        linked = ev.payload.get("games") if ev.type in ("outing_created", "round_paired") else None
        for gid in linked if isinstance(linked, list) else []:
            if gid not in rec.every_game:
                rec.every_game.append(str(gid))
        if ev.type == "undo":
            if len(stack) <= 1 or stack[-1].seq != ev.payload.get("undone"):
                raise ValueError(f"step {ev.seq} undoes step {ev.payload.get('undone')!r}, which is not the last "
                                 "one standing")
            gone = stack.pop()
            rec.paused = gone.type == "round_paired" and ev.payload.get("by") != "auto"
        elif ev.type == "outing_deleted":
            rec.deleted = True
        elif ev.type in STEP_TYPES:
            if ev.type == "outing_created" and stack:
                raise ValueError(f"step {ev.seq} starts the outing a second time")
            stack.append(ev)
        else:
            raise ValueError(f"step {ev.seq} has an unknown type {ev.type!r}")
    rec.rounds = [[str(g) for g in p.get("games") or []]]
    rec.ended = None
    for ev in stack[1:]:
        _apply(rec, ev)
    rec.standing = [(ev.seq, ev.type) for ev in stack]
    return rec


def describe_steps(events: Sequence[OutingEvent], after: int = 0) -> list[dict[str, Any]]:
    """What each step after version ``after`` did, for a stale write's 409 and the page."""
    out = []
    for n, ev in enumerate(events, start=1):
        if n <= after:
            continue
        p = ev.payload
        what = STEP_NAMES.get(ev.type, ev.type)
        if ev.type == "round_paired":
            what = f"round {p.get('round')} paired"
        elif ev.type == "outing_ended":
            what = f"the outing ended ({p.get('ended_by')})"
        elif ev.type == "undo":
            what = f"undo of {STEP_NAMES.get(str(p.get('undone_type')), p.get('undone_type'))}"
        out.append({"version": n, "type": ev.type, "what": what, "by": p.get("by"), "time": ev.time})
    return out


__all__ = ["OutingRecord", "STEP_TYPES", "describe_steps", "fold_outing"]
