"""How a game's events move its state on: one :class:`Track` per way a game is kept.

The fold (:mod:`companion.table.fold`) is a loop over a track's :meth:`Track.apply`,
then :meth:`Track.settle`; a checkpoint is a track's :meth:`Track.snapshot` and
:meth:`Track.restore`. Which track a game takes is chosen once, when it is created
(:func:`track_for`): a dealt game (the companion holds the cards) takes
:class:`DealtTrack`; any other takes the track of what its Variant gives the table,
:class:`MovesTrack` for an :class:`~companion.games.seams.ActionTable` (a game entered
move by move), :class:`HandsTrack` for a :class:`~companion.games.seams.HandScoring` (a
game scored hand by hand). Nothing here asks which game it is: what differs between
games is the Variant's to say.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from companion.errors import Conflict, IllegalAction, NotFound
from companion.games import Variant
from companion.games.seams import ActionTable, HandScoring
from companion.rules.base import HandResult, MatchScore
from companion.store import StoredEvent
from companion.table.dealt import DealtGame
from companion.table.state import GameState, HandEntry, add_tally, tally_of


class NeedsRefold(Exception):
    """:func:`~companion.table.fold.step` cannot apply an undo: the state before the
    undone event is gone."""


class Track:
    """How one kind of game keeps its state (see the module notes). A track holds no
    state of its own: the game's is in the :class:`GameState` it is given."""

    def start(self, g: GameState, payload: dict[str, Any]) -> None:
        """Set ``g`` up right after ``game_created`` (its ``payload``)."""

    def apply(self, g: GameState, ev: StoredEvent) -> int | None:
        """Apply one standing event to ``g`` in place; returns the first hand to score
        again (a correction), else None."""
        return None

    def settle(self, g: GameState, dirty: int | None) -> None:
        """After a whole fold: what follows from every event applied (the match, the dealer)."""

    def stepped(self, g: GameState, ev: StoredEvent, dirty: int | None) -> None:
        """After one more event (``ev``, whose :meth:`apply` returned ``dirty``): the same
        as :meth:`settle`, done by that event alone where the track can."""
        self.settle(g, dirty)

    def undo(self) -> None:
        """An ``undo`` or ``redo`` came: raise :class:`NeedsRefold` (the state before the
        undone event is folded again), or refuse."""
        raise NeedsRefold()

    def snapshot(self, g: GameState) -> dict[str, Any]:
        """What a checkpoint keeps of ``g`` beyond its first event and its stacks."""
        return {}

    def restore(self, g: GameState, state: dict[str, Any]) -> None:
        """``g`` (just :meth:`start`-ed) brought to what :meth:`snapshot` kept."""


def track_for(v: Variant, payload: dict[str, Any]) -> Track:
    """The track of a new game of ``v`` (``payload``: its ``game_created``)."""
    if payload.get("mode") == "dealt":
        return DEALT
    moves = v.action_table()
    if moves is not None:
        return MovesTrack(moves)
    scoring = v.hand_scoring()
    if scoring is None:  # pragma: no cover - a game with neither is refused by the registry's tests
        raise TypeError(f"{v.name} is neither scored by hands nor played by actions")
    return HandsTrack(scoring)


# -- a dealt game ---------------------------------------------------------------------------


class DealtTrack(Track):
    """A dealt game: seats claimed and freed, hints, and each seat's action on the engine
    the Variant deals (:class:`~companion.table.dealt.DealtGame`)."""

    def start(self, g: GameState, payload: dict[str, Any]) -> None:
        g.dealt = DealtGame.create(g.rules, payload, g.options)
        self._sync(g)

    @staticmethod
    def dealt(g: GameState) -> DealtGame:
        """``g``'s dealt game (made by :meth:`start`; a bug, TypeError, in a game without one)."""
        if g.dealt is None:
            raise TypeError(f"game {g.id} is not dealt")
        return g.dealt

    @staticmethod
    def _sync(g: GameState) -> None:
        """The parts of ``g`` the dealt game decides (what the score sheet and the board read)."""
        d = DealtTrack.dealt(g)
        v = d.variant
        g.dealer = d.dealer
        g.engine = v.dealt_table(d.engine)
        g.match = v.dealt_match(d.engine)

    def apply(self, g: GameState, ev: StoredEvent) -> int | None:
        d = self.dealt(g)
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
            return None
        if ev.type == "hint":  # a seat asked for a hint: counted in the game's record
            new = d.clone()
            seat = int(p["seat"])
            new.hints[seat] = new.hints.get(seat, 0) + 1
            new.log.append({"seq": ev.seq, "type": ev.type, "payload": p})
            g.dealt = new
            return None
        if ev.type != "play":
            raise IllegalAction(f"a dealt game is played through its seats' actions (POST .../actions with "
                                f"an action from GET .../view), not with {ev.type!r}", code="dealt_game")
        before = d.hands_over()
        new, effects = d.after(int(p["seat"]), p["action"])
        new.log.append({"seq": ev.seq, "type": ev.type, "payload": p})
        g.effects = effects
        g.dealt = new
        # the hands scored on the score sheet (none in a game whose table keeps its own)
        for r in new.variant.dealt_results(new.engine)[before:]:
            n = len(g.hands) + 1
            g.hands.append(HandEntry(n, ev.seq, r.ender, {"dealt": True}, r.as_dict()))
            new.ended_at.append(ev.seq)
        self._sync(g)
        return None

    def undo(self) -> None:
        raise Conflict("a dealt game cannot undo: every card seen stays seen (play on, or "
                       "start a new game)", code="dealt_no_undo")

    def snapshot(self, g: GameState) -> dict[str, Any]:
        return {"dealt": self.dealt(g).log}

    def restore(self, g: GameState, state: dict[str, Any]) -> None:
        for e in state["dealt"]:
            self.apply(g, StoredEvent(int(e["seq"]), g.id, str(e["type"]), dict(e["payload"]), None, 0.0))


DEALT = DealtTrack()


# -- a game entered move by move --------------------------------------------------------------


class MovesTrack(Track):
    """A game entered move by move into the table game its Variant's
    :class:`~companion.games.seams.ActionTable` makes (which moves on in place, and leaves
    itself unchanged when it refuses a move)."""

    def __init__(self, moves: ActionTable) -> None:
        self.moves = moves

    def start(self, g: GameState, payload: dict[str, Any]) -> None:
        g.engine = self.moves.new_game(g.players, dict(payload.get("options") or {}))
        self.settle(g, None)

    def apply(self, g: GameState, ev: StoredEvent) -> int | None:
        if ev.type == "action":
            self.play(g, ev.payload["action"])
        return None

    def play(self, g: GameState, action: dict[str, Any]) -> None:
        """Apply one action to ``g``'s table game in place, keeping what it did."""
        g.effects = self.moves.apply_action(g.table_game, action)
        g.actions.append(action)
        g.plays.append(self.moves.play_line(len(g.actions), self.moves.hand_number(g.table_game), action, g.effects))

    def settle(self, g: GameState, dirty: int | None) -> None:
        g.dealer = self.moves.table_dealer(g.table_game, g.created_dealer)

    def snapshot(self, g: GameState) -> dict[str, Any]:
        return {"actions": g.actions}

    def restore(self, g: GameState, state: dict[str, Any]) -> None:
        for action in state["actions"]:
            self.play(g, action)
        self.settle(g, None)


# -- a game scored hand by hand --------------------------------------------------------------


def hand_result(d: dict[str, Any]) -> HandResult:
    """A stored result back as the engine's :class:`HandResult` (keys it does not know are
    kept out, so a log written by another version still folds)."""
    return HandResult.from_dict(d)


def entry_of(payload: dict[str, Any]) -> dict[str, Any]:
    """What a hand's entry keeps of a ``hand`` event's payload (its input, not its result)."""
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


class HandsTrack(Track):
    """A game scored hand by hand by its Variant's :class:`~companion.games.seams.HandScoring`:
    ``hand`` and ``hand_corrected`` events, the match folded from their results."""

    def __init__(self, scoring: HandScoring) -> None:
        self.scoring = scoring

    def start(self, g: GameState, payload: dict[str, Any]) -> None:
        self.settle(g, None)

    def apply(self, g: GameState, ev: StoredEvent) -> int | None:
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

    def settle(self, g: GameState, dirty: int | None) -> None:
        """Fold every hand into the match, from the first; in a game whose scoring depends on
        the hands before (Color Gin's closed suits), the hands after a corrected one (``dirty``)
        are scored again. A new hand at the end takes :meth:`extend` instead."""
        v = self.scoring
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

    def stepped(self, g: GameState, ev: StoredEvent, dirty: int | None) -> None:
        if ev.type == "hand" and dirty is None:  # one hand more: the match moves on by it alone
            self.extend(g, g.hands[-1])
            return
        self.settle(g, dirty)

    def extend(self, g: GameState, h: HandEntry) -> None:
        """``g`` one new last hand ``h`` further (already in ``g.hands``): the match, the deal
        and the summary's tally move on by that hand alone, so a scored hand costs the same in
        a long game as in a short one. Parts of ``g`` shared with the state before are replaced,
        never changed in place."""
        v = self.scoring
        r = hand_result(h.result)
        g.match = v.add_hand(g.match_score, r, g.options)
        partnership = g.rules.team_play(g.options)
        g.tally = add_tally(g.tally, h.result, len(g.players), partnership)
        if partnership is not None:
            dealt, g.table_dealers = partnership.deal_step(g.options, g.table_dealers, h.entry, h.result)
            g.hand_dealers = [*g.hand_dealers, dealt]
            g.dealer = g.table_dealers[0]
            return
        g.dealer = v.next_dealer(r, g.dealer, len(g.players), g.options)

    def snapshot(self, g: GameState) -> dict[str, Any]:
        return {"hands": [[h.n, h.seq, h.ender, h.entry, h.result, h.corrected] for h in g.hands]}

    def restore(self, g: GameState, state: dict[str, Any]) -> None:
        g.hands = [HandEntry(int(n), int(seq), ender, dict(entry), dict(result), bool(corr))
                   for n, seq, ender, entry, result, corr in state["hands"]]
        self.settle(g, None)


__all__ = ["DEALT", "DealtTrack", "HandsTrack", "MovesTrack", "NeedsRefold", "Track", "entry_of", "hand_result",
           "rescore", "track_for"]
