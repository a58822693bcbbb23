"""The fold: a game's state is a pure function of its events.

:func:`fold_game` folds one game's events (the first is ``game_created``) into a
:class:`GameState`; the table checks each new event by folding it before it is written,
and a restart, an undo or a correction two hands back all come out of this code.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from companion.store import StoredEvent
from companion.table.engines import CONTEXT_VARIANTS, make_options, options_dict, rules_module
from companion.table.errors import TableError


@dataclass
class HandEntry:
    """One scored hand as the game shows it."""

    n: int
    seq: int
    ender: int | None
    entry: dict[str, Any]
    result: dict[str, Any]
    corrected: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"n": self.n, "seq": self.seq, "ender": self.ender, "corrected": self.corrected,
                **self.entry, "result": self.result}


@dataclass
class GameState:
    """A game folded from its events (see :func:`fold_game`)."""

    id: str
    variant: str
    preset: str | None
    overrides: dict[str, Any]
    players: list[str]
    dealer: int
    created: float
    options: Any
    created_dealer: int = 0
    version: int = 0
    last_seq: int = 0
    deleted: bool = False
    rematch_of: str | None = None
    hands: list[HandEntry] = field(default_factory=list)
    match: Any = None
    engine: Any = None  # GingoGame
    actions: list[dict[str, Any]] = field(default_factory=list)
    effects: list[list[dict[str, Any]]] = field(default_factory=list)
    events: list[StoredEvent] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        if self.variant == "gingo":
            return bool(self.engine is not None and self.engine.as_dict().get("phase") == "game_over")
        return bool(self.match is not None and self.match.finished)

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "variant": self.variant,
            "preset": self.preset,
            "options": options_dict(self.options),
            "players": list(self.players),
            "dealer": self.dealer,
            "version": self.version,
            "seq": self.last_seq,
            "created": self.created,
            "rematch_of": self.rematch_of,
        }
        if self.variant == "gingo":
            st = self.engine.as_dict()
            winner = st.get("winner")
            d.update(
                scores=[sum(1 for h in st.get("hands", []) if h.get("winner") == side) for side in (1, 2)],
                hands=st.get("hands", []),
                finished=st.get("phase") == "game_over",
                winner=winner,
                board=st.get("board"),
                links=st.get("links"),
                link_distance=st.get("link_distance"),
                state=st,
                actions=len(self.actions),
            )
        else:
            m = self.match
            d.update(
                scores=m.totals,
                final=m.final,
                hands=[h.as_dict() for h in self.hands],
                finished=m.finished,
                winner=m.winner,
                match=m.as_dict(),
            )
        return d



def hand_result(d: dict[str, Any]) -> Any:
    """A stored result back as the engine's HandResult (keys it does not know are kept out,
    so a log written by another version still folds)."""
    from companion.rules.base import HandResult

    known = {f.name for f in dataclasses.fields(HandResult)}
    return HandResult(**{k: v for k, v in d.items() if k in known})


def rescore(g: GameState, mod: ModuleType, payload: dict[str, Any], prior: list[Any]) -> dict[str, Any]:
    """Score one hand's input again, in the match context of the hands before it."""
    if "hands" not in payload:
        return dict(payload["result"])
    closed = mod.score_match(prior, len(g.players), g.options) if g.variant == "color_gin" else None
    return score_cards(g.variant, mod, payload, g.options, closed)


def score_cards(variant: str, mod: ModuleType, payload: dict[str, Any], options: Any, closed: Any) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"options": options}
    if variant == "color_gin":
        kwargs["closed"] = closed
        if payload.get("declared") is not None:
            kwargs["declared"] = payload["declared"]
        if payload.get("joker"):
            kwargs["joker"] = True
    if payload.get("upcard") is not None:
        kwargs["upcard"] = payload["upcard"]
    result = mod.score_hand(payload["hands"], payload.get("ender"), **kwargs).as_dict()
    return dict(result)


def refold_match(g: GameState, dirty: int | None) -> None:
    """Fold the hands into the match; Color Gin hands after a corrected one are
    re-scored, because which suits are closed depends on the hands before them."""
    mod = rules_module(g.variant)
    results = [hand_result(h.result) for h in g.hands]
    if dirty is not None and g.variant in CONTEXT_VARIANTS:
        for i in range(dirty + 1, len(g.hands)):
            h = g.hands[i]
            payload = {"ender": h.ender, **h.entry, "result": h.result}
            h.result = rescore(g, mod, payload, results[:i])
            results[i] = hand_result(h.result)
    g.match = mod.score_match(results, len(g.players), g.options)
    dealer = g.created_dealer
    if hasattr(mod, "next_dealer"):
        for r in results:
            dealer = mod.next_dealer(r, dealer, len(g.players), g.options)
    g.dealer = dealer


def effective(events: Sequence[StoredEvent]) -> list[StoredEvent]:
    """The events after undos: each ``undo`` cancels the latest one still standing."""
    stack: list[StoredEvent] = []
    for ev in events[1:]:
        if ev.type == "undo":
            if stack:
                stack.pop()
        elif ev.type != "game_deleted":
            stack.append(ev)
    return stack


def fold_game(events: Sequence[StoredEvent]) -> GameState:
    """Fold one game's events (the first is ``game_created``) into its state.

    Raises ``ValueError`` (from the engines) when the events do not form a legal game;
    the table checks each new event this way before it is written.
    """
    if not events or events[0].type != "game_created":
        raise TableError("invalid_log", "a game's events must start with game_created")
    first = events[0]
    p = first.payload
    variant = str(p["variant"])
    g = GameState(
        id=first.game_id,
        variant=variant,
        preset=p.get("preset"),
        overrides=dict(p.get("options") or {}),
        players=list(p["players"]),
        dealer=int(p.get("dealer", 0)),
        created=first.time,
        options=make_options(variant, p.get("preset"), dict(p.get("options") or {}), len(p["players"])),
        rematch_of=p.get("rematch_of"),
    )
    g.created_dealer = g.dealer
    g.events = list(events)
    g.version = len(events)
    g.last_seq = events[-1].seq
    g.deleted = any(ev.type == "game_deleted" for ev in events)
    if variant == "gingo":
        mod = rules_module("gingo")
        g.engine = mod.new_game(g.players, dict(p.get("options") or {}))
        for ev in effective(events):
            if ev.type == "action":
                g.effects.append(g.engine.apply(ev.payload["action"]))
                g.actions.append(ev.payload["action"])
        st = g.engine.as_dict()
        g.dealer = int(st.get("dealer", g.dealer))
        return g
    dirty: int | None = None
    for ev in effective(events):
        if ev.type == "hand":
            g.hands.append(HandEntry(len(g.hands) + 1, ev.seq, ev.payload.get("ender"),
                                     entry_of(ev.payload), ev.payload["result"]))
        elif ev.type == "hand_corrected":
            n = int(ev.payload["hand"])
            if not 1 <= n <= len(g.hands):
                raise TableError("not_found", f"hand {n} does not exist (the game has {len(g.hands)} hands)", 404)
            g.hands[n - 1] = HandEntry(n, ev.seq, ev.payload.get("ender"), entry_of(ev.payload),
                                       ev.payload["result"], corrected=True)
            dirty = n - 1 if dirty is None else min(dirty, n - 1)
    refold_match(g, dirty)
    return g


def entry_of(payload: dict[str, Any]) -> dict[str, Any]:
    if "hands" in payload:
        out = {"hands": payload["hands"]}
        for key in ("declared", "joker", "upcard"):
            if payload.get(key) is not None:
                out[key] = payload[key]
        return out
    out = {"deadwood": payload["deadwood"]}
    for key in ("big_gin", "upcard"):
        if payload.get(key) is not None:
            out[key] = payload[key]
    return out

