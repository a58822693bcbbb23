"""Importing a dealt game's export: the game replayed from the seeds its log published.

An export never carries a dealt game's secret key (:func:`companion.store.records.public_payload`),
so an imported dealt game is replayed from what the log made public: every hand's seed,
published when the hand ended (and Gin-Go's set-up seed, hand 0, once the set-up was
done). Each published seed is checked against the commitment shown before its hand; then
every action is checked again by the rules as it is replayed on the deal that seed gives.

A game still being played cannot be imported: the hand in play was shuffled from a seed
that is still secret, and the export rightly does not hold it, so nobody can deal it
again. The import is refused with a clear error (``invalid_import``); the game goes on on
the companion that dealt it, and can be exported once it is over. Seat events are left
out: seats belong to the phones paired with the companion that dealt the game.
"""

from __future__ import annotations

import hashlib
from typing import Any

from companion.errors import InvalidInput

#: what the first event of an imported dealt game keeps beyond what every game keeps
CREATED_KEYS = ("mode", "bots", "skip_board", "next", "commitments")
#: what an imported play event keeps
PLAY_KEYS = ("seat", "action", "by", "revealed", "next")

UNFINISHED = ("this dealt game is still being played{where}: the hand in play was shuffled from a seed that is "
              "still secret and not in the export, so it cannot go on here. Finish it on the companion that "
              "dealt it, then export it again")


def _hand(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput(f"{where}: a hand number is 0 or more, got {value!r}", code="invalid_import")
    return value


def _hex(value: Any, where: str) -> str:
    if not isinstance(value, str) or len(value) != 64 or any(ch not in "0123456789abcdef" for ch in value):
        raise InvalidInput(f"{where}: expected 64 lowercase hex digits, got {value!r}", code="invalid_import")
    return value


def published_seeds(raw: list[dict[str, Any]]) -> dict[str, str]:
    """The seeds the events publish, by hand number (as text, the payload's JSON keys),
    each checked against the commitment the log showed before that hand."""
    promised: dict[int, str] = {}
    seeds: dict[int, str] = {}
    for i, e in enumerate(raw):
        p = e["payload"]
        found = list(p.get("commitments") or []) if i == 0 else []
        if isinstance(p.get("next"), dict):
            found.append(p["next"])
        for c in found:
            if not isinstance(c, dict):
                raise InvalidInput(f"event {i}: a commitment is {{\"hand\", \"commitment\"}}", code="invalid_import")
            promised[_hand(c.get("hand"), f"event {i}")] = _hex(c.get("commitment"), f"event {i}, commitment")
        for r in (p.get("revealed") or []) if i > 0 else []:
            if not isinstance(r, dict):
                raise InvalidInput(f"event {i}: a revealed seed is {{\"hand\", \"seed\"}}", code="invalid_import")
            k = _hand(r.get("hand"), f"event {i}")
            seed = _hex(r.get("seed"), f"event {i}, seed of hand {k}")
            if seeds.get(k, seed) != seed:
                raise InvalidInput(f"event {i}: hand {k}'s seed is published twice, differently", code="invalid_import")
            if k in promised and hashlib.sha256(bytes.fromhex(seed)).hexdigest() != promised[k]:
                raise InvalidInput(f"event {i}: hand {k}'s published seed does not match the "
                                 "commitment shown before the hand: the file was changed", code="invalid_import")
            seeds[k] = seed
    return {str(k): v for k, v in sorted(seeds.items())}


def dealt_created(payload: dict[str, Any], first: dict[str, Any], raw: list[dict[str, Any]]) -> dict[str, Any]:
    """The imported first event of a dealt game: ``payload`` (what every imported game keeps)
    with the dealt game's own keys from the file's ``first`` payload and its published seeds."""
    out = dict(payload)
    out.update({k: first[k] for k in CREATED_KEYS if k in first})
    out["seeds"] = published_seeds(raw)
    return out


def dealt_events(raw: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events after the first that an imported dealt game keeps: its plays (seat events
    stay behind); anything else is refused by name."""
    out = []
    for i, e in enumerate(raw[1:], start=1):
        if e["type"] == "seat":
            continue
        if e["type"] != "play":
            raise InvalidInput(f"event {i}: a dealt game holds seat and play events, not {e['type']!r}", code="invalid_import")
        out.append({**e, "payload": {k: e["payload"][k] for k in PLAY_KEYS if k in e["payload"]}})
    return out


def check_finished(game: Any) -> None:
    """An imported dealt game must be over (see the module notes)."""
    d = getattr(game, "dealt", None)
    if d is not None and not d.finished:
        raise InvalidInput(UNFINISHED.format(where=f" (hand {d.hands_over() + 1})"), code="invalid_import")


__all__ = ["published_seeds", "dealt_created", "dealt_events", "check_finished", "UNFINISHED"]
