"""The command service: :class:`Table`, the one entry point for every command.

A command is checked by folding it onto the game (a trial replay), written to the
event log (:mod:`companion.store`) and only then answered and announced; bad input
raises :class:`~companion.table.errors.TableError` and writes nothing. Retried client ids
get their first answer back; a stale ``expected_version`` is refused with 409.

:class:`Table` is made of parts, each a class of its own module that it holds:
:attr:`Table.ledger` (:mod:`~companion.table.ledger`: the log, the lock, the folded
games, the write path: group commit, recovery from a failed commit),
:attr:`Table.reads` (:mod:`~companion.table.reads`: the game list, one game, the log's
health; the table passes these on), :attr:`Table.dealing` (:mod:`~companion.table.dealing`:
the commands of dealt games and their bots, called as ``table.dealing.play(...)``) and
:attr:`Table.outings` (:mod:`~companion.table.outings`). The commands of tracked games are
the table's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.errors import CompanionError, Conflict, InvalidInput, NotFound
from companion.games import find_variant
from companion.store import EventStore, StoredEvent
from companion.table.checks import check_players
from companion.table.errors import engine_failure
from companion.games.explain import breakdown, tied_arrangements
from companion.table.fold import step
from companion.table.history import describe
from companion.table.state import GameState
from companion.table.hands import HandInput, hand_payload
from companion.table.dealing import Dealing
from companion.table.ledger import After, Guard, Ledger, Outcome, Staged
from companion.table.reads import Reads
from companion.table.retries import fingerprint, new_id
from companion.table.outings import Outings
from companion.table.subscriptions import Subscriber
from companion.table.transfer import export_body, imported_events

__all__ = ["Outcome", "Table"]


class Table:
    """Every command on every game; thread-safe (one lock around check-and-queue, then a
    shared commit). ``store`` is the event log; on start-up the open games are folded
    from their checkpoints, the finished ones when first asked for. Its parts: the write
    path :attr:`ledger`, the reads :attr:`reads` (passed on by the methods below), the
    dealt games :attr:`dealing` and the outings :attr:`outings`."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.ledger = Ledger(store)
        self.reads = Reads(self.ledger)
        self.dealing = Dealing(self.ledger, self.reads)
        self.outings = Outings(self)  # their pair matches are games of this table

    # -- the reads and the hooks, passed on --------------------------------------------------

    def games(self, limit: int | None = None, before: str | None = None) -> list[dict[str, Any]]:
        return self.reads.games(limit, before)

    def games_page(self, limit: int | None = None, before: str | None = None) -> dict[str, Any]:
        return self.reads.games_page(limit, before)

    def all_lines(self) -> list[dict[str, Any]]:
        return self.reads.all_lines()

    def game(self, game_id: str) -> dict[str, Any]:
        return self.reads.game(game_id)

    def hands_of(self, game_id: str) -> list[Any]:
        return self.reads.hands_of(game_id)

    def summary(self, game_id: str) -> dict[str, Any]:
        return self.reads.summary(game_id)

    def events(self, game_id: str, after: int = 0) -> list[dict[str, Any]]:
        return self.reads.events(game_id, after)

    def last_seq(self) -> int:
        return self.reads.last_seq()

    def held(self, game_id: str) -> GameState | None:
        return self.reads.held(game_id)

    def storage_health(self) -> dict[str, Any]:
        return self.reads.storage_health()

    def active_gingo(self) -> dict[str, Any] | None:
        return self.reads.active_gingo()

    def expected_board(self) -> str | None:
        return self.reads.expected_board()

    def subscribe(self, fn: Subscriber) -> Callable[[], None]:
        return self.ledger.subscribe(fn)

    def add_write_hooks(self, guard: Guard | None = None, after: After | None = None) -> None:
        self.ledger.add_write_hooks(guard, after)

    # -- commands --------------------------------------------------------------------------

    def create_game(self, variant: str, *, players: Sequence[str], preset: str | None = None,
                    options: dict[str, Any] | None = None, dealer: int = 0, client_id: str | None = None,
                    rematch_of: str | None = None, outing: str | None = None,
                    game_id: str | None = None) -> dict[str, Any]:
        """Start a game; returns it (a retried ``client_id`` returns the same game).
        ``outing``: the id of the outing this game is a pair match of; ``game_id``: the id
        to give it (a remote game's 128-bit id, :mod:`companion.mqtt.remote`)."""
        return self.create_game_outcome(variant, players=players, preset=preset, options=options,
                                        dealer=dealer, client_id=client_id, rematch_of=rematch_of,
                                        outing=outing, game_id=game_id).body

    def create_game_outcome(self, variant: str, *, players: Sequence[str], preset: str | None = None,
                            options: dict[str, Any] | None = None, dealer: int = 0, client_id: str | None = None,
                            rematch_of: str | None = None, outing: str | None = None,
                            game_id: str | None = None) -> Outcome:
        gid = game_id or new_id("g", client_id)
        fp = fingerprint("create", variant=variant, players=list(players), preset=preset, options=options or {},
                         dealer=dealer, rematch_of=rematch_of, **({"outing": outing} if outing else {})) \
            if client_id else None

        def stage() -> Staged:
            names = check_players(players)
            find_variant(variant).check_seats(len(names), options if isinstance(options, dict) else None)
            if not isinstance(dealer, int) or not 0 <= dealer < len(names):
                raise InvalidInput(f"dealer must be a seat 0..{len(names) - 1}, got {dealer!r}", code="invalid_dealer")
            payload: dict[str, Any] = {"variant": variant, "preset": preset, "options": dict(options or {}),
                                       "players": names, "dealer": dealer}
            if rematch_of:
                payload["rematch_of"] = rematch_of
            if outing:
                payload["outing"] = outing
            return self.ledger.stage(None, gid, "game_created", payload, client_id, lambda st: ({}, None), fp)

        return self.ledger.run(gid, client_id, stage, "create", fp)

    def score_hand(self, game_id: str, entry: HandInput, *, client_id: str | None = None,
                   expected_version: int | None = None, by: str | None = None) -> dict[str, Any]:
        """Score the end of a hand; returns ``{"result": breakdown, "game": game}``.
        ``by``: the name of the phone that entered it (kept with the hand)."""
        return self.score_hand_outcome(game_id, entry, client_id=client_id, expected_version=expected_version,
                                       by=by).body

    def score_hand_outcome(self, game_id: str, entry: HandInput, *, client_id: str | None = None,
                           expected_version: int | None = None, by: str | None = None) -> Outcome:
        def stage() -> Staged:
            g = self.reads.writable(game_id)
            self.ledger.check_version(g, expected_version)
            if g.finished:
                raise Conflict("the match is over: start a rematch or correct a hand", code="finished")
            payload = _signed(hand_payload(g, entry), by)
            return self.ledger.stage(g, g.id, "hand", payload, client_id, lambda st: ({"result": payload["result"]}, "game"),
                               fp)

        fp = fingerprint("hand", entry=entry) if client_id else None
        return self.ledger.run(game_id, client_id, stage, "hand", fp)

    def preview_hand(self, game_id: str, entry: HandInput, *, expected_version: int | None = None) -> dict[str, Any]:
        """Score a hand without writing anything: ``{"result", "game", "preview",
        "breakdown"}`` (``breakdown``: the winner's points in parts, see :mod:`.explain`).
        With an ``expected_version`` the game has moved on from, the answer also lists the
        ``changes`` since (as a stale write's 409 would), so a phone can show them first."""
        with self.ledger.lock:
            g = self.reads.state(game_id)
            changes = self._changes(g, expected_version)
            if g.finished:
                raise Conflict("the match is over: start a rematch or correct a hand", code="finished", details={"changes": changes} if changes is not None else None)
            payload = hand_payload(g, entry)
            return self._previewed(g, "hand", payload, payload["result"], changes)

    def preview_correction(self, game_id: str, n: int, entry: HandInput, *,
                           expected_version: int | None = None) -> dict[str, Any]:
        """Score a correction of hand ``n`` without writing anything (a finished match too):
        ``{"result", "game", "preview", "breakdown"}``; ``game`` is the match re-scored,
        which may be unfinished again (or end earlier: then the hands after are refused)."""
        with self.ledger.lock:
            g = self.reads.state(game_id)
            changes = self._changes(g, expected_version)
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(g.hands):
                raise NotFound(f"hand {n} does not exist (the game has {len(g.hands)} hands)")
            payload = {"hand": n, **hand_payload(g, entry, upto=n - 1)}
            return self._previewed(g, "hand_corrected", payload, None, changes)

    def _changes(self, g: GameState, expected: int | None) -> list[dict[str, Any]] | None:
        if expected is None or int(expected) == g.version or not 0 < int(expected) < g.version:
            return None
        return describe(self.ledger.events_now(g.id), after=int(expected))

    def _previewed(self, g: GameState, etype: str, payload: dict[str, Any],
                   result: dict[str, Any] | None, changes: list[dict[str, Any]] | None) -> dict[str, Any]:
        probe = StoredEvent(self.store.next_seq(), g.id, etype, payload, None, 0.0)
        try:
            st = step(g, probe)
        except CompanionError:  # a refusal: its message names the rule
            raise
        except Exception as exc:  # anything else is a bug (a ValueError too): 500, logged
            raise engine_failure(exc)
        if result is None:
            result = st.hands[int(payload["hand"]) - 1].result
        out = {"result": result, "game": st.as_dict(), "preview": True,
               "breakdown": breakdown(g.rules, result, g.options, g.players)}
        v = g.rules.hand_scoring()
        if "hands" in payload and v is not None and v.entries(g.options).get("declared"):
            out["arrangements"] = tied_arrangements(g.rules, payload)
        teams = g.rules.team_play(g.options)
        if isinstance(payload.get("tables"), list) and teams is not None:  # a partnership hand: each table
            out.update(teams.previews(g.rules, g.options, g.players, payload["tables"], result))
        if changes is not None:
            out["changes"] = changes
            out["version"] = g.version
        return out

    def correct_hand(self, game_id: str, n: int, entry: HandInput, *, client_id: str | None = None,
                     expected_version: int | None = None, by: str | None = None) -> dict[str, Any]:
        """Replace hand ``n`` (1-based) with new input; the match is re-scored (a finished
        match too: it may be unfinished again)."""
        return self.correct_hand_outcome(game_id, n, entry, client_id=client_id,
                                         expected_version=expected_version, by=by).body

    def correct_hand_outcome(self, game_id: str, n: int, entry: HandInput, *, client_id: str | None = None,
                             expected_version: int | None = None, by: str | None = None) -> Outcome:
        def stage() -> Staged:
            g = self.reads.writable(game_id)
            self.ledger.check_version(g, expected_version)
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(g.hands):
                raise NotFound(f"hand {n} does not exist (the game has {len(g.hands)} hands)")
            payload = _signed({"hand": n, **hand_payload(g, entry, upto=n - 1)}, by)
            return self.ledger.stage(g, g.id, "hand_corrected", payload, client_id,
                               lambda st: ({"result": st.hands[n - 1].result}, "game"), fp)

        fp = fingerprint("correct", n=n, entry=entry) if client_id else None
        return self.ledger.run(game_id, client_id, stage, "correct", fp)

    def undo(self, game_id: str, *, client_id: str | None = None,
             expected_version: int | None = None, by: str | None = None) -> dict[str, Any]:
        """Undo the latest event still standing, as a new ``undo`` event."""
        return self.undo_outcome(game_id, client_id=client_id, expected_version=expected_version, by=by).body

    def undo_outcome(self, game_id: str, *, client_id: str | None = None,
                     expected_version: int | None = None, by: str | None = None) -> Outcome:
        def stage() -> Staged:
            g = self.reads.writable(game_id)
            self.ledger.check_version(g, expected_version)
            if not g.standing:
                raise Conflict("there is nothing to undo in this game", code="nothing_to_undo")
            seq, typ = g.standing[-1]
            undone = next((ev for ev in self.ledger.events_now(g.id) if ev.seq == seq), None)
            shown = undone.as_dict() if undone is not None else {"seq": seq, "type": typ}
            return self.ledger.stage(g, g.id, "undo", _signed({"undone": seq, "undone_type": typ}, by), client_id,
                               lambda st: ({"undone": shown}, "game"), fp)

        fp = fingerprint("undo") if client_id else None
        return self.ledger.run(game_id, client_id, stage, "undo", fp)

    def redo(self, game_id: str, *, client_id: str | None = None,
             expected_version: int | None = None, by: str | None = None) -> dict[str, Any]:
        """Bring back the latest event undone (as a new ``redo`` event, so the log keeps
        everything); only until a new entry is made. Returns ``{"redone", "game"}``."""
        return self.redo_outcome(game_id, client_id=client_id, expected_version=expected_version, by=by).body

    def redo_outcome(self, game_id: str, *, client_id: str | None = None,
                     expected_version: int | None = None, by: str | None = None) -> Outcome:
        def stage() -> Staged:
            g = self.reads.writable(game_id)
            self.ledger.check_version(g, expected_version)
            if not g.undone:
                raise Conflict("there is nothing to redo in this game (an entry made after "
                                 "an undo ends what can be redone)", code="nothing_to_redo")
            seq, typ, _ = g.undone[-1]
            redone = next((ev for ev in self.ledger.events_now(g.id) if ev.seq == seq), None)
            shown = redone.as_dict() if redone is not None else {"seq": seq, "type": typ}
            return self.ledger.stage(g, g.id, "redo", _signed({"redone": seq, "redone_type": typ}, by), client_id,
                               lambda st: ({"redone": shown}, "game"), fp)

        fp = fingerprint("redo") if client_id else None
        return self.ledger.run(game_id, client_id, stage, "redo", fp)

    def action(self, game_id: str, action: dict[str, Any], *, client_id: str | None = None,
               expected_version: int | None = None) -> dict[str, Any]:
        """Apply a Gin-Go action; returns ``{"events": [...], "game": game}``."""
        return self.action_outcome(game_id, action, client_id=client_id, expected_version=expected_version).body

    def action_outcome(self, game_id: str, action: dict[str, Any], *, client_id: str | None = None,
                       expected_version: int | None = None) -> Outcome:
        def stage() -> Staged:
            g = self.reads.writable(game_id)
            self.ledger.check_version(g, expected_version)
            if g.rules.action_table() is None:
                raise InvalidInput(f"{g.variant} hands are scored with POST .../hands, not actions",
                                   code="wrong_variant")
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                raise InvalidInput("an action is an object with a \"type\"", code="invalid_action")
            return self.ledger.stage(g, g.id, "action", {"action": action}, client_id,
                               lambda st: ({"events": list(st.effects)}, "game"), fp)

        fp = fingerprint("action", action=action) if client_id else None
        return self.ledger.run(game_id, client_id, stage, "action", fp)

    def delete_game(self, game_id: str, *, client_id: str | None = None) -> dict[str, Any]:
        """Remove a game from the list (its events stay in the log)."""
        def stage() -> Staged:
            g = self.reads.state(game_id)
            seq = self.store.next_seq()
            return self.ledger.stage(g, g.id, "game_deleted", {}, client_id, lambda st: ({"deleted": g.id, "seq": seq}, None),
                               fp)

        fp = fingerprint("delete") if client_id else None
        out = self.ledger.run(game_id, client_id, stage, "delete", fp).body
        return {"deleted": out.get("deleted", game_id), "seq": out.get("seq")}

    def rematch(self, game_id: str, *, client_id: str | None = None) -> dict[str, Any]:
        """A new game with the same variant, rules and players; the deal moves on one seat
        (in Gin-Go from the dealer of the last hand played, so the rotation carries on). A
        dealt game's rematch is dealt too, with the same bots and the phones in their seats."""
        with self.ledger.lock:
            g = self.reads.state(game_id)
            first = g.created_payload
            # a game entered move by move: its table game's dealer (the created one until its
            # set-up names one); a game scored by hands: the one chosen when it was created
            moves = g.rules.action_table()
            last = (g.created_dealer if moves is None or g.engine is None
                    else moves.table_dealer(g.engine, g.created_dealer))
            dealt = g.dealt
        if dealt is not None:  # dealt again: the same bots, the phones keep their seats
            out = self.dealing.create_dealt(g.variant, players=g.players, preset=g.preset,
                                    options=dict(first.get("options") or {}), dealer=(last + 1) % len(g.players),
                                    bots=sorted(dealt.bots), skip_board=dealt.skip_board, seats=dict(dealt.seats),
                                    rematch_of=g.id, client_id=client_id)
            return dict(out.body)
        return self.create_game(
            g.variant, players=g.players, preset=g.preset, options=dict(first.get("options") or {}),
            dealer=(last + 1) % len(g.players), client_id=client_id,
            rematch_of=g.id,
        )

    # -- export and import -------------------------------------------------------------------

    def export(self, game_id: str) -> dict[str, Any]:
        """The whole game, re-importable with :meth:`import_game`."""
        with self.ledger.lock:
            g = self.reads.state(game_id)
            return export_body(g, [ev for ev in self.ledger.events_now(g.id) if not ev.damage])

    def import_game(self, data: dict[str, Any], *, client_id: str | None = None,
                    outing: str | None = None) -> dict[str, Any]:
        """Re-create an exported game under a new id (every event is re-checked);
        ``outing``: the outing it is a pair match of (an outing's import)."""
        gid = new_id("g", client_id)

        def stage() -> Staged:
            self.ledger.recover()
            now = self.store.now()
            probes, st = imported_events(data, gid, client_id, self.store.next_seq(), now, outing)
            return self.ledger.stage_game(gid, client_id, probes, st, now, fp)

        body = {k: v for k, v in data.items() if k != "client_id"} if isinstance(data, dict) else data
        fp = fingerprint("import", data=body, **({"outing": outing} if outing else {})) if client_id else None
        out = self.ledger.run(gid, client_id, stage, "import", fp)
        self.ledger.drop_committed(gid)
        return out.body


def _signed(payload: dict[str, Any], by: str | None) -> dict[str, Any]:
    """The payload with the name of the phone that wrote it (what another phone is told)."""
    if by:
        payload["by"] = str(by)[:60]
    return payload

