"""The fold: a game's state is a pure function of its events.

:func:`fold_game` folds one game's events (the first is ``game_created``) into a
:class:`GameState`; the table checks each new event by folding it before it is written,
and a restart, an undo or a correction two hands back all come out of this code.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import NotFound
from companion.games import GinGo, RummyVariant, Variant, find_variant
from companion.games.options import options_dict
from companion.stats import hand_tally
from companion.store import StoredEvent
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
    effects: list[dict[str, Any]] = field(default_factory=list)  # what the latest action did
    #: Gin-Go: one line per standing action, what it did on the board (see GinGo.play_line)
    plays: list[dict[str, Any]] = field(default_factory=list)
    created_payload: dict[str, Any] = field(default_factory=dict)
    created_seq: int = 0
    #: (seq, type) of the events still standing (not undone), oldest first
    standing: list[tuple[int, str]] = field(default_factory=list)
    #: (seq, type, hand) of the events undone since the last new entry, the next to redo last
    undone: list[tuple[int, str, int | None]] = field(default_factory=list)
    #: set when the game's log has unreadable rows: what was lost (the game is read-only)
    damage: dict[str, Any] | None = None
    #: a dealt game's play (the companion holds the cards), see companion.table.dealt
    dealt: Any = None

    @property
    def rules(self) -> Variant:
        """The game this is (from the registry)."""
        return find_variant(self.variant)

    @property
    def finished(self) -> bool:
        if self.dealt is not None:
            return bool(self.dealt.finished)
        if self.engine is not None:
            return bool(self.engine.as_dict().get("phase") == "game_over")
        return bool(self.match is not None and self.match.finished)

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "variant": self.variant,
            "preset": self.preset,
            "preset_label": self.rules.preset_label(self.preset),
            "options": options_dict(self.options),
            "players": list(self.players),
            "dealer": self.dealer,
            "version": self.version,
            "seq": self.last_seq,
            "created": self.created,
            "rematch_of": self.rematch_of,
            "rules": self.rules.table_rules(self.options, len(self.players)),
            "undo": self._undoable(),
            "redo": None if not self.undone else {"seq": self.undone[-1][0], "type": self.undone[-1][1],
                                                  "hand": self.undone[-1][2]},
        }
        if self.damage is not None:
            d["damaged"] = dict(self.damage)
        if self.dealt is not None:
            d.update(mode="dealt", bots=sorted(self.dealt.bots), dealt=self.dealt.public())
        v = self.rules
        if isinstance(v, GinGo):
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
                turn=st.get("turn"),
                plays=list(self.plays),
                actions=len(self.actions),
                frames=v.frames(self.engine),
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

    def _undoable(self) -> dict[str, Any] | None:
        """What an undo would take back: the latest event still standing (and its hand)."""
        if not self.standing or self.dealt is not None:  # a dealt game never undoes
            return None
        seq, typ = self.standing[-1]
        hand = next((h.n for h in self.hands if h.seq == seq), None)
        return {"seq": seq, "type": typ, "hand": hand}

    def summary(self) -> dict[str, Any]:
        """The game in a few hundred bytes: what the game list and the live channel carry
        (``GET /api/v1/games/{id}`` gives the whole game)."""
        d: dict[str, Any] = {
            "id": self.id, "variant": self.variant, "preset": self.preset, "players": list(self.players),
            "dealer": self.dealer, "version": self.version, "seq": self.last_seq, "created": self.created,
            "rematch_of": self.rematch_of, "finished": self.finished, "summary": True,
        }
        # what the history and the statistics read (companion.stats): the original date of
        # an imported game and where it came from
        if self.created_payload.get("imported_from"):
            d["imported_from"] = self.created_payload["imported_from"]
        played = self.created_payload.get("played_at")
        if isinstance(played, (int, float)) and not isinstance(played, bool):
            d["played_at"] = played
        if self.deleted:
            d["deleted"] = True
        if self.damage is not None:
            d["damaged"] = dict(self.damage)
        if self.dealt is not None:
            d.update(mode="dealt", bots=sorted(self.dealt.bots), to_move=self.dealt.to_move())
        if self.engine is not None:
            st = self.engine.as_dict()
            d.update(scores=[sum(1 for h in st.get("hands", []) if h.get("winner") == side) for side in (1, 2)],
                     winner=st.get("winner"), hands_played=len(st.get("hands", [])), phase=st.get("phase"),
                     hand=st.get("hand"), board=st.get("board"), links=st.get("links"),
                     link_distance=st.get("link_distance"), actions=len(self.actions))
        else:
            m = self.match
            d.update(scores=m.totals, final=m.final, winner=m.winner, hands_played=len(self.hands),
                     tally=hand_tally((h.result for h in self.hands), len(self.players)))
        return d


def new_state(first: StoredEvent) -> GameState:
    """The state right after ``game_created`` (raises on options the engine refuses)."""
    if first.type != "game_created":
        raise TableError("invalid_log", "a game's events must start with game_created")
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
        rematch_of=p.get("rematch_of"),
        created_payload=p,
        created_seq=first.seq,
        version=1,
        last_seq=first.seq,
    )
    g.created_dealer = g.dealer
    if p.get("mode") == "dealt":
        from companion.table.dealt import DealtGame

        g.dealt = DealtGame.create(v, p, g.options)
        _sync_dealt(g)
    elif isinstance(v, GinGo):
        g.engine = v.new_game(g.players, dict(p.get("options") or {}))
        g.dealer = engine_dealer(g)
    elif isinstance(v, RummyVariant):
        refold_match(g, v, None)
    else:  # pragma: no cover - every game is one or the other
        raise TableError(f"{v.name} is neither scored by hands nor played by actions")
    return g


def engine_dealer(g: GameState) -> int:
    """A Gin-Go game's dealer: the one chosen when it was created until the set-up names
    the dealer of the first hand, then the dealer of the hand in play (or just played)."""
    return g.created_dealer if g.engine.phase == "setup" else int(g.engine.dealer)


def apply_action(g: GameState, action: dict[str, Any]) -> None:
    """Apply one Gin-Go action to ``g``'s engine in place, keeping what it did."""
    g.effects = g.engine.apply(action)
    g.actions.append(action)
    g.plays.append(GinGo.play_line(len(g.actions), int(g.engine.hand), action, g.effects))


def _sync_dealt(g: GameState) -> None:
    """The parts of ``g`` the dealt game decides (what the score sheet and the board read)."""
    d = g.dealt
    g.dealer = d.dealer
    if d.gingo:
        g.engine = d.engine.table
    else:
        g.match = d.engine.match


def _apply_dealt(g: GameState, ev: StoredEvent) -> None:
    """One event of a dealt game (a seat claimed or freed, or a seat's action)."""
    d = g.dealt
    p = ev.payload
    if ev.type == "seat":
        new = d.clone()
        seat, holder = int(p["seat"]), p.get("holder")
        if holder is None:
            new.seats.pop(seat, None)
        else:
            new.seats[seat] = str(holder)
        new.log.append({"seq": ev.seq, "type": ev.type, "payload": p})
        g.dealt = new
        return
    if ev.type != "play":
        raise TableError("dealt_game", f"a dealt game is played through its seats' actions (POST .../actions with "
                         f"an action from GET .../view), not with {ev.type!r}", 422)
    before = d.hands_over()
    new, effects = d.after(int(p["seat"]), p["action"])
    new.log.append({"seq": ev.seq, "type": ev.type, "payload": p})
    g.effects = effects
    g.dealt = new
    if not new.gingo:
        for r in new.engine.results[before:]:
            n = len(g.hands) + 1
            g.hands.append(HandEntry(n, ev.seq, r.ender, {"dealt": True}, r.as_dict()))
            new.ended_at.append(ev.seq)
    _sync_dealt(g)


def _apply(g: GameState, ev: StoredEvent) -> int | None:
    """Apply one standing event to ``g`` in place; returns the first hand to re-score."""
    if g.dealt is not None:
        _apply_dealt(g, ev)
        return None
    if g.engine is not None:
        if ev.type == "action":
            apply_action(g, ev.payload["action"])
        return None
    if ev.type == "hand":
        g.hands.append(HandEntry(len(g.hands) + 1, ev.seq, ev.payload.get("ender"),
                                 entry_of(ev.payload), ev.payload["result"]))
        return None
    if ev.type == "hand_corrected":
        n = int(ev.payload["hand"])
        if not 1 <= n <= len(g.hands):
            raise NotFound(f"hand {n} does not exist (the game has {len(g.hands)} hands)",
                           details={"hand": n, "hands": len(g.hands)})
        g.hands[n - 1] = HandEntry(n, ev.seq, ev.payload.get("ender"), entry_of(ev.payload),
                                   ev.payload["result"], corrected=True)
        return n - 1
    return None


class NeedsRefold(Exception):
    """:func:`step` cannot apply an undo: the state before the undone event is gone."""


def step(g: GameState, ev: StoredEvent) -> GameState:
    """The state after one more event, without folding the whole game again; ``g`` is
    left as it was, except a Gin-Go engine, which moves on in place (it leaves itself
    unchanged when it refuses an action). Equal to :func:`fold_game` over all events.
    An ``undo`` or a ``redo`` raises :class:`NeedsRefold`."""
    if ev.type in ("undo", "redo"):
        if g.dealt is not None:
            raise TableError("dealt_no_undo", "a dealt game cannot undo: every card seen stays seen (play on, or "
                             "start a new game)", 409)
        raise NeedsRefold()
    new = dataclasses.replace(g, hands=list(g.hands), actions=list(g.actions), plays=list(g.plays),
                              standing=list(g.standing), version=g.version + 1, last_seq=ev.seq)
    if ev.type == "game_deleted":
        new.deleted = True
        return new
    new.undone = []  # a new entry: what was undone before it can no longer be redone
    dirty = _apply(new, ev)
    new.standing.append((ev.seq, ev.type))
    if new.dealt is not None:
        return new
    if new.engine is not None:
        new.dealer = engine_dealer(new)
        return new
    v = g.rules
    assert isinstance(v, RummyVariant)
    if dirty is not None and v.context_scoring:
        new.hands[dirty + 1:] = [dataclasses.replace(h) for h in new.hands[dirty + 1:]]
    refold_match(new, v, dirty)
    return new


def hand_result(d: dict[str, Any]) -> Any:
    """A stored result back as the engine's HandResult (keys it does not know are kept out,
    so a log written by another version still folds)."""
    from companion.rules.base import HandResult

    known = {f.name for f in dataclasses.fields(HandResult)}
    return HandResult(**{k: v for k, v in d.items() if k in known})


def rescore(g: GameState, v: RummyVariant, payload: dict[str, Any], prior: list[Any]) -> dict[str, Any]:
    """Score one hand's input again, in the match context of the hands before it."""
    if "hands" not in payload:
        return dict(payload["result"])
    return v.score_hand(payload["hands"], payload.get("ender"), g.options, prior=prior, players=len(g.players),
                        declared=payload.get("declared"), joker=bool(payload.get("joker")),
                        upcard=payload.get("upcard"))


def refold_match(g: GameState, v: RummyVariant, dirty: int | None) -> None:
    """Fold the hands into the match; in a game whose scoring depends on the hands before
    (Color Gin's closed suits), the hands after a corrected one are re-scored."""
    results = [hand_result(h.result) for h in g.hands]
    if dirty is not None and v.context_scoring:
        for i in range(dirty + 1, len(g.hands)):
            h = g.hands[i]
            payload = {"ender": h.ender, **h.entry, "result": h.result}
            h.result = rescore(g, v, payload, results[:i])
            results[i] = hand_result(h.result)
    g.match = v.score_match(results, len(g.players), g.options)
    dealer = g.created_dealer
    for r in results:
        dealer = v.next_dealer(r, dealer, len(g.players), g.options)
    g.dealer = dealer


def effective(events: Sequence[StoredEvent]) -> list[StoredEvent]:
    """The events after undos: each ``undo`` cancels the latest one still standing, each
    ``redo`` brings back the latest one undone (until a new entry is made)."""
    return stacks(events)[0]


def stacks(events: Sequence[StoredEvent]) -> tuple[list[StoredEvent], list[tuple[StoredEvent, int | None]]]:
    """The events still standing, and those undone that a ``redo`` can bring back (each
    with its hand number, the next to redo last)."""
    stack: list[StoredEvent] = []
    undone: list[tuple[StoredEvent, int | None]] = []
    for ev in events[1:]:
        if ev.type == "undo":
            if stack:
                top = stack.pop()
                undone.append((top, _hand_number(top, stack)))
        elif ev.type == "redo":
            if undone:
                stack.append(undone.pop()[0])
        elif ev.type != "game_deleted":
            stack.append(ev)
            undone = []
    return stack, undone


def _hand_number(ev: StoredEvent, before: Sequence[StoredEvent]) -> int | None:
    """The hand an event is about: a correction names it, a new hand comes after those standing."""
    if ev.type == "hand_corrected":
        n = ev.payload.get("hand")
        return n if isinstance(n, int) else None
    if ev.type == "hand":
        return 1 + sum(1 for e in before if e.type == "hand")
    return None


def describe(events: Sequence[StoredEvent], after: int = 0) -> list[dict[str, Any]]:
    """What each event after the first ``after`` did, in players' terms: ``{"seq", "type",
    "hand", "by"}`` (an undo or a redo also names, as ``of``, the type of the event it took
    back or brought back). One pass over the game's events."""
    out: list[dict[str, Any]] = []
    stack: list[StoredEvent] = []
    undone: list[tuple[StoredEvent, int | None]] = []
    for i, ev in enumerate(events):
        d: dict[str, Any] = {"seq": ev.seq, "type": ev.type, "by": ev.payload.get("by"), "hand": None}
        if i == 0 or ev.type == "game_deleted":
            pass
        elif ev.type == "undo":
            if stack:
                top = stack.pop()
                n = _hand_number(top, stack)
                undone.append((top, n))
                d.update(hand=n, of=top.type)
        elif ev.type == "redo":
            if undone:
                top, n = undone.pop()
                stack.append(top)
                d.update(hand=n, of=top.type)
        else:
            d["hand"] = _hand_number(ev, stack)
            stack.append(ev)
            undone = []
        if i >= after:
            out.append(d)
    return out


def fold_game(events: Sequence[StoredEvent]) -> GameState:
    """Fold one game's events (the first is ``game_created``) into its state.

    Raises ``ValueError`` (from the engines) when the events do not form a legal game;
    the table checks each new event this way before it is written.
    """
    if not events or events[0].type != "game_created":
        raise TableError("invalid_log", "a game's events must start with game_created")
    g = new_state(events[0])
    g.version = len(events)
    g.last_seq = events[-1].seq
    g.deleted = any(ev.type == "game_deleted" for ev in events)
    dirty: int | None = None
    standing, undone = stacks(events)
    g.undone = [(ev.seq, ev.type, n) for ev, n in undone]
    for ev in standing:
        d = _apply(g, ev)
        g.standing.append((ev.seq, ev.type))
        if d is not None:
            dirty = d if dirty is None else min(dirty, d)
    if g.dealt is not None:
        return g
    if g.engine is not None:
        g.dealer = engine_dealer(g)
        return g
    v = g.rules
    assert isinstance(v, RummyVariant)
    refold_match(g, v, dirty)
    return g


def entry_of(payload: dict[str, Any]) -> dict[str, Any]:
    if "hands" in payload:
        out = {"hands": payload["hands"]}
        for key in ("declared", "joker", "upcard", "by"):
            if payload.get(key) is not None:
                out[key] = payload[key]
        return out
    out = {"deadwood": payload["deadwood"]}
    for key in ("big_gin", "upcard", "by"):
        if payload.get(key) is not None:
            out[key] = payload[key]
    return out

