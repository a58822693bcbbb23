"""Export and import: a whole game as a file, and that file checked back into events.

An export is ``{"format": "gingo-export/1", "game": {...}, "events": [...]}``. On import
every event is checked again and every hand is scored again by the engines (stored
results are not trusted); the game gets a new id.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from companion.errors import InvalidInput
from companion.store import StoredEvent
from companion.store.records import public_payload
from companion.play.deal import SecretDeal
from companion.table.checks import check_created
from companion.table.dealt_transfer import UNFINISHED, check_finished, dealt_created, dealt_events
from companion.table.errors import TableError
from companion.table.fold import fold_game
from companion.table.history import effective
from companion.table.state import GameState
from companion.table.hands import hand_input, hand_payload

EXPORT_FORMAT = "gingo-export/1"
IMPORTABLE = ("game_created", "hand", "hand_corrected", "action", "undo", "redo", "seat", "play")


def export_body(g: GameState, events: Sequence[StoredEvent]) -> dict[str, Any]:
    """The export file of game ``g`` whose events are ``events``."""
    return {
        "format": EXPORT_FORMAT,
        "game": g.as_dict(),
        "events": [{"seq": e.seq, "type": e.type, "payload": public_payload(e.payload), "time": e.time}
                   for e in events if e.type != "game_deleted"],
    }


def imported_events(data: Any, gid: str, client_id: str | None, first_seq: int,
                    now: float, outing: str | None = None) -> tuple[list[StoredEvent], GameState]:
    """The events an export file becomes under the id ``gid`` (numbered from
    ``first_seq``) and the game they fold into; :class:`TableError` ``invalid_import``
    names what is wrong with the file. ``outing``: the outing the game is a pair match
    of (an outing's import links its games again; a game imported alone has none)."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise InvalidInput(f"not a game export (expected format {EXPORT_FORMAT!r})", code="invalid_import")
    raw = data.get("events")
    if not isinstance(raw, list) or not raw:
        raise InvalidInput("the export holds no events", code="invalid_import")
    for i, e in enumerate(raw):
        if not isinstance(e, dict) or not isinstance(e.get("type"), str) or not isinstance(e.get("payload"), dict):
            raise InvalidInput(f"event {i} needs a \"type\" and a \"payload\" object", code="invalid_import")
        if e["type"] not in IMPORTABLE:
            raise InvalidInput(f"event {i} has an unknown type {e['type']!r}", code="invalid_import")
        if (e["type"] == "game_created") != (i == 0):
            raise InvalidInput("an export starts with exactly one game_created event", code="invalid_import")
    dealt = raw[0]["payload"].get("mode") == "dealt"
    if dealt:  # replayed from its published seeds (companion.table.dealt_transfer)
        raw = raw[:1] + dealt_events(raw)
    elif any(e["type"] in ("seat", "play") for e in raw):
        raise InvalidInput("seat and play events belong to a dealt game (\"mode\": \"dealt\")", code="invalid_import")
    probes: list[StoredEvent] = []
    for i, e in enumerate(raw):
        payload = dict(e["payload"])
        if i == 0:
            imported_from = data["game"].get("id") if isinstance(data.get("game"), dict) else None
            payload = {k: payload.get(k) for k in ("variant", "preset", "options", "players", "dealer")}
            payload["imported_from"] = imported_from
            payload["played_at"] = _played_at(e, now)
            if outing:
                payload["outing"] = outing
            check_created(payload)
            if dealt:
                payload = dealt_created(payload, e["payload"], raw)
        probes.append(StoredEvent(first_seq + i, gid, e["type"], payload, client_id if i == 0 else None, now))
    try:
        if not dealt:  # a dealt game has no hand entries to score again: its plays are replayed
            probes = _rescored(probes)
        st = fold_game(probes)
    except SecretDeal as exc:
        if exc.hand == 0:  # a game dealt before the set-up's seed was published
            raise InvalidInput("this dealt Gin-Go game's log does not publish its set-up's seed "
                             "(hand 0; games dealt before that seed was published): its set-up cannot be replayed "
                             "here", code="invalid_import") from None
        raise InvalidInput(UNFINISHED.format(where=f" ({exc})"), code="invalid_import") from None
    except TableError as exc:
        raise InvalidInput(exc.message, code="invalid_import") from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise InvalidInput(f"the events do not replay: {exc}", code="invalid_import") from None
    check_finished(st)
    return probes, st


def _played_at(first: dict[str, Any], now: float) -> float:
    """When an exported game was first played: kept from an earlier import, else the time
    of its first event (a time in the future or not a number: the import's own time)."""
    for t in (first["payload"].get("played_at"), first.get("time")):
        if isinstance(t, (int, float)) and not isinstance(t, bool) and 0 < t <= now:
            return float(t)
    return now


def _rescored(probes: list[StoredEvent]) -> list[StoredEvent]:
    """Imported hands are scored again by the engines; stored results are not trusted."""
    out = [probes[0]]
    st = fold_game(out)
    for i, p in enumerate(probes[1:], start=1):
        if p.type == "undo" and not effective(out):
            # the live API answers 409 nothing_to_undo here; an edited file used to slip it in
            raise InvalidInput(f"event {i} is an undo with nothing left to undo", code="invalid_import")
        if p.type == "redo" and not st.undone:
            raise InvalidInput(f"event {i} is a redo with nothing undone to redo", code="invalid_import")
        if p.type in ("hand", "hand_corrected"):
            payload = dict(p.payload)
            n = payload.get("hand")
            upto = None
            if p.type == "hand_corrected":
                if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(st.hands):
                    raise InvalidInput(f"a correction names hand {n!r}, which does not exist", code="invalid_import")
                upto = n - 1
            fresh = hand_payload(st, hand_input(payload), upto=upto)
            if upto is not None:
                fresh = {"hand": n, **fresh}
            by = payload.get("by")
            if isinstance(by, str) and by:
                fresh["by"] = by[:60]
            p = dataclasses.replace(p, payload=fresh)
        out.append(p)
        st = fold_game(out)
    return out
