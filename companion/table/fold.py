"""The fold: a game's state is a pure function of its events.

:func:`fold_game` folds one game's events (the first is ``game_created``) into a
:class:`GameState`; the table checks each new event by folding it before it is written,
and a restart, an undo or a correction two hands back all come out of this code.
:func:`step` is the same fold one event further. The state is
:class:`~companion.table.state.GameState`; which events still stand after undos and
redos is :mod:`companion.table.history`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from companion.errors import Conflict, IllegalAction, InvalidInput, NotFound
from companion.games import Variant, find_variant
from companion.games.base import HandScoring
from companion.store import StoredEvent
from companion.table.history import stacks
from companion.rules.base import HandResult, MatchScore
from companion.table.state import GameState, HandEntry, add_tally, tally_of


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
    elif (moves := v.action_table()) is not None:
        g.engine = moves.new_game(g.players, dict(p.get("options") or {}))
        g.dealer = engine_dealer(g)
    else:
        refold_match(g, scoring_of(v), None)
    return g


def scoring_of(v: Variant) -> HandScoring:
    """How ``v`` scores a hand: the table asks the game, never which game it is."""
    scoring = v.hand_scoring()
    if scoring is None:  # pragma: no cover - a game with neither is refused by the registry's tests
        raise TypeError(f"{v.name} is neither scored by hands nor played by actions")
    return scoring


def engine_dealer(g: GameState) -> int:
    """A Gin-Go game's dealer: the one chosen when it was created until the set-up names
    the dealer of the first hand, then the dealer of the hand in play (or just played)."""
    return g.created_dealer if g.engine.phase == "setup" else int(g.engine.dealer)


def apply_action(g: GameState, action: dict[str, Any]) -> None:
    """Apply one Gin-Go action to ``g``'s engine in place, keeping what it did."""
    g.effects = g.engine.apply(action)
    g.actions.append(action)
    moves = g.rules.action_table()
    assert moves is not None  # a game with an engine is tracked by its moves
    g.plays.append(moves.play_line(len(g.actions), int(g.engine.hand), action, g.effects))


def _sync_dealt(g: GameState) -> None:
    """The parts of ``g`` the dealt game decides (what the score sheet and the board read)."""
    d = g.dealt
    g.dealer = d.dealer
    if d.by_moves:
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
    if ev.type == "hint":  # a seat asked for a hint: counted in the game's record
        new = d.clone()
        seat = int(p["seat"])
        new.hints[seat] = new.hints.get(seat, 0) + 1
        new.log.append({"seq": ev.seq, "type": ev.type, "payload": p})
        g.dealt = new
        return
    if ev.type != "play":
        raise IllegalAction(f"a dealt game is played through its seats' actions (POST .../actions with "
                         f"an action from GET .../view), not with {ev.type!r}", code="dealt_game")
    before = d.hands_over()
    new, effects = d.after(int(p["seat"]), p["action"])
    new.log.append({"seq": ev.seq, "type": ev.type, "payload": p})
    g.effects = effects
    g.dealt = new
    if not new.by_moves:
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
            raise Conflict("a dealt game cannot undo: every card seen stays seen (play on, or "
                             "start a new game)", code="dealt_no_undo")
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
    v = scoring_of(g.rules)
    if ev.type == "hand" and dirty is None:  # one hand more: the match moves on by it alone
        extend_match(new, v, new.hands[-1])
        return new
    refold_match(new, v, dirty)
    return new


def hand_result(d: dict[str, Any]) -> HandResult:
    """A stored result back as the engine's :class:`HandResult` (keys it does not know are
    kept out, so a log written by another version still folds)."""
    return HandResult.from_dict(d)


def rescore(g: GameState, v: HandScoring, payload: dict[str, Any], prior: Sequence[HandResult] = (),
            match: MatchScore | None = None) -> dict[str, Any]:
    """Score one hand's input again, in the match context of the hands before it: ``match``
    (the match before the hand) or else ``prior`` (their results); only a game whose
    scoring depends on them (:attr:`HandScoring.context_scoring`) reads either."""
    if "hands" not in payload:
        return dict(payload["result"])
    return v.score_hand(payload["hands"], payload.get("ender"), g.options, prior=prior, players=len(g.players),
                        declared=payload.get("declared"), joker=bool(payload.get("joker")),
                        upcard=payload.get("upcard"), match=match)


def refold_match(g: GameState, v: HandScoring, dirty: int | None) -> None:
    """Fold every hand into the match, from the first; in a game whose scoring depends on
    the hands before (Color Gin's closed suits), the hands after a corrected one (``dirty``)
    are scored again. A new hand at the end takes :func:`extend_match` instead."""
    results = [hand_result(h.result) for h in g.hands]
    if dirty is not None and v.context_scoring:
        for i in range(dirty + 1, len(g.hands)):
            h = g.hands[i]
            payload = {"ender": h.ender, **h.entry, "result": h.result}
            h = g.hands[i] = dataclasses.replace(h, result=rescore(g, v, payload, results[:i]))
            results[i] = hand_result(h.result)
    g.match = v.score_match(results, len(g.players), g.options)
    partnership = g.rules.team_play(g.options)
    g.tally = tally_of(g.hands, len(g.players), partnership)
    if partnership is not None:
        # each table deals as its own pair game (a team result names no seat to deal)
        g.hand_dealers, g.table_dealers = partnership.deal_order(
            g.options, g.created_dealer, [(h.entry, h.result) for h in g.hands])
        g.dealer = g.table_dealers[0]
        return
    dealer = g.created_dealer
    for r in results:
        dealer = v.next_dealer(r, dealer, len(g.players), g.options)
    g.dealer = dealer


def extend_match(g: GameState, v: HandScoring, h: HandEntry) -> None:
    """``g`` one new last hand ``h`` further (already in ``g.hands``): the match, the deal
    and the summary's tally move on by that hand alone, so a scored hand costs the same in
    a long game as in a short one. Parts of ``g`` shared with the state before are replaced,
    never changed in place."""
    r = hand_result(h.result)
    g.match = v.add_hand(g.match, r, g.options)
    partnership = g.rules.team_play(g.options)
    g.tally = add_tally(g.tally, h.result, len(g.players), partnership)
    if partnership is not None:
        dealt, g.table_dealers = partnership.deal_step(g.options, g.table_dealers, h.entry, h.result)
        g.hand_dealers = [*g.hand_dealers, dealt]
        g.dealer = g.table_dealers[0]
        return
    g.dealer = v.next_dealer(r, g.dealer, len(g.players), g.options)


def fold_game(events: Sequence[StoredEvent]) -> GameState:
    """Fold one game's events (the first is ``game_created``) into its state.

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
        d = _apply(g, ev)
        g.standing.append((ev.seq, ev.type))
        if d is not None:
            dirty = d if dirty is None else min(dirty, d)
    if g.dealt is not None:
        return g
    if g.engine is not None:
        g.dealer = engine_dealer(g)
        return g
    refold_match(g, scoring_of(g.rules), dirty)
    return g


def entry_of(payload: dict[str, Any]) -> dict[str, Any]:
    if "tables" in payload:  # a partnership hand: its two pair games
        out = {"tables": payload["tables"]}
        if payload.get("by") is not None:
            out["by"] = payload["by"]
        return out
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

