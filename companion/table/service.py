"""The command service: :class:`Table`, the one entry point for every command.

A command is checked by folding it onto the game (a trial replay), written to the
event log (:mod:`companion.store`) and only then applied and announced; bad input raises
:class:`~companion.table.errors.TableError` and writes nothing. Retried client ids get
their first answer back; a stale ``expected_version`` is refused with 409.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import IllegalAction, InvalidInput, StaleVersion
from companion.store import EventStore, NewEvent, StoredEvent
from companion.table.checks import check_players, range_text
from companion.games import find_variant
from companion.table.errors import TableError, engine_failure
from companion.table.fold import GameState, effective, fold_game
from companion.table.hands import HandInput, hand_payload
from companion.table.retries import fingerprint, first_answer, stamp
from companion.table.subscriptions import Subscriber, Subscribers
from companion.table.transfer import export_body, imported_events

log = logging.getLogger("companion.table")


@dataclass(frozen=True)
class Outcome:
    """What a write command returns: the API's response body and the event written
    (None for a retried client id, whose first answer is returned again)."""

    body: dict[str, Any]
    event: StoredEvent | None
    replayed: bool = False


class Table:
    """Every command on every game; thread-safe (one lock around validate-write-fold).

    ``store`` is the event log. On start-up every game is folded from the log.
    """

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._lock = threading.RLock()
        self._games: dict[str, GameState] = {}
        self._subs = Subscribers()
        self.replay_errors: list[str] = []
        self._load()

    # -- start-up ---------------------------------------------------------------------

    def _load(self) -> None:
        by_game: dict[str, list[StoredEvent]] = {}
        for ev in self.store.iter_events():
            by_game.setdefault(ev.game_id, []).append(ev)
        for gid, evs in by_game.items():
            try:
                self._games[gid] = fold_game(evs)
            except Exception as exc:  # one bad game must not stop the others
                log.exception("game %s does not replay", gid)
                self.replay_errors.append(f"game {gid}: {exc}")

    # -- subscribers -------------------------------------------------------------------

    def subscribe(self, fn: Subscriber) -> Callable[[], None]:
        """Call ``fn(event, message)`` after each commit; returns an unsubscribe function."""
        return self._subs.add(fn)

    def _notify(self, ev: StoredEvent, game: GameState | None, game_dict: dict[str, Any] | None = None) -> None:
        if game_dict is None and game is not None:
            game_dict = game.as_dict()
        self._subs.notify(ev, game_dict)

    # -- reads -------------------------------------------------------------------------

    def games(self) -> list[dict[str, Any]]:
        with self._lock:
            return [g.as_dict() for g in self._games.values() if not g.deleted]

    def _get(self, game_id: str) -> GameState:
        g = self._games.get(game_id)
        if g is None or g.deleted:
            raise TableError("not_found", f"no game with id {game_id!r}", 404)
        return g

    def game(self, game_id: str) -> dict[str, Any]:
        with self._lock:
            return self._get(game_id).as_dict()

    def events(self, game_id: str, after: int = 0) -> list[dict[str, Any]]:
        with self._lock:
            self._get(game_id)
        return [e.as_dict() for e in self.store.events(game_id, after=after)]

    def last_seq(self) -> int:
        return self.store.last_seq()

    def active_gingo(self) -> dict[str, Any] | None:
        """The Gin-Go game the board follows: the latest-touched one not finished."""
        with self._lock:
            best: GameState | None = None
            for g in self._games.values():
                if g.rules.on_board and not g.deleted and not g.finished:
                    if best is None or g.last_seq > best.last_seq:
                        best = g
            return None if best is None else best.as_dict()

    def expected_board(self) -> str | None:
        """The board the active Gin-Go game expects, or None (mirror mode)."""
        g = self.active_gingo()
        return None if g is None else str(g["board"])

    # -- the write path ------------------------------------------------------------------

    def _replayed(self, game_id: str, client_id: str | None, op: str = "", fp: str | None = None) -> Outcome | None:
        """The first answer for a retried ``client_id``; 409 ``client_id_reused`` when it
        was used for another request (``op`` and its fingerprint ``fp``, see retries)."""
        if not client_id:
            return None
        prev = self.store.find_client(game_id, client_id)
        if prev is None:
            return None
        return Outcome(first_answer(prev.result, prev.type, op, fp, client_id), None, True)

    @staticmethod
    def _check_version(g: GameState, expected: int | None) -> None:
        if expected is not None and int(expected) != g.version:
            raise StaleVersion(version=g.version, expected=int(expected))

    def _commit(self, g: GameState, etype: str, payload: dict[str, Any], client_id: str | None,
                make_body: Callable[[GameState], dict[str, Any]], fp: str | None = None) -> Outcome:
        """Fold the new event onto the game first (validation), then write and notify."""
        now = self.store.now()
        probe = StoredEvent(self.store.last_seq() + 1, g.id, etype, payload, client_id, now)
        fast = etype == "action" and g.engine is not None
        try:
            new_state = self._step_engine(g, probe) if fast else fold_game([*g.events, probe])
        except TableError:
            raise
        except ValueError as exc:  # an engine's refusal: its message names the rule
            raise IllegalAction(str(exc)) from None
        except Exception as exc:
            if fast:  # only a refusal is promised to leave the engine unchanged
                self._games[g.id] = fold_game(g.events)
            raise engine_failure(exc)
        try:
            body = make_body(new_state)
            ev = self.store.append(g.id, etype, payload, client_id=client_id, result=stamp(body, fp), at=now)
        except BaseException:
            if fast:  # the engine moved on in place: put the game back as its log says
                self._games[g.id] = fold_game(g.events)
            raise
        new_state.events[-1] = ev
        self._games[g.id] = new_state
        self._notify(ev, new_state, body.get("game") if isinstance(body.get("game"), dict) else None)
        return Outcome(body, ev)

    @staticmethod
    def _step_engine(g: GameState, probe: StoredEvent) -> GameState:
        """A Gin-Go action applied to the running engine (it leaves itself unchanged when
        it refuses one), instead of replaying the whole game: same state as the fold."""
        action = probe.payload["action"]
        effects = g.engine.apply(action)
        st = dataclasses.replace(
            g, events=[*g.events, probe], version=g.version + 1, last_seq=probe.seq,
            actions=[*g.actions, action], effects=[*g.effects, effects],
        )
        st.dealer = int(st.engine.as_dict().get("dealer", st.dealer))
        return st

    # -- commands --------------------------------------------------------------------------

    def create_game(
        self,
        variant: str,
        *,
        players: Sequence[str],
        preset: str | None = None,
        options: dict[str, Any] | None = None,
        dealer: int = 0,
        client_id: str | None = None,
        rematch_of: str | None = None,
    ) -> dict[str, Any]:
        """Start a game; returns it (a retried ``client_id`` returns the same game)."""
        return self.create_game_outcome(variant, players=players, preset=preset, options=options,
                                        dealer=dealer, client_id=client_id, rematch_of=rematch_of).body

    def create_game_outcome(
        self,
        variant: str,
        *,
        players: Sequence[str],
        preset: str | None = None,
        options: dict[str, Any] | None = None,
        dealer: int = 0,
        client_id: str | None = None,
        rematch_of: str | None = None,
    ) -> Outcome:
        with self._lock:
            gid = _game_id(client_id)
            fp = fingerprint("create", variant=variant, players=list(players), preset=preset, options=options or {},
                             dealer=dealer, rematch_of=rematch_of) if client_id else None
            again = self._replayed(gid, client_id, "create", fp)
            if again is not None:
                return again
            names = check_players(players)
            find_variant(variant).check_seats(len(names))
            if not isinstance(dealer, int) or not 0 <= dealer < len(names):
                raise TableError("invalid_dealer", f"dealer must be a seat 0..{len(names) - 1}, got {dealer!r}")
            payload: dict[str, Any] = {"variant": variant, "preset": preset, "options": dict(options or {}),
                                       "players": names, "dealer": dealer}
            if rematch_of:
                payload["rematch_of"] = rematch_of
            now = self.store.now()
            probe = StoredEvent(self.store.last_seq() + 1, gid, "game_created", payload, client_id, now)
            try:
                state = fold_game([probe])
            except TableError:
                raise
            except ValueError as exc:
                raise InvalidInput(str(exc), code="invalid_options") from None
            except Exception as exc:
                raise engine_failure(exc)
            ev = self.store.append(gid, "game_created", payload, client_id=client_id,
                                   result=stamp(state.as_dict(), fp), at=now)
            state = fold_game([ev])
            self._games[gid] = state
            self._notify(ev, state)
            return Outcome(state.as_dict(), ev)

    def score_hand(self, game_id: str, entry: HandInput, *, client_id: str | None = None,
                   expected_version: int | None = None) -> dict[str, Any]:
        """Score the end of a hand; returns ``{"result": breakdown, "game": game}``."""
        return self.score_hand_outcome(game_id, entry, client_id=client_id, expected_version=expected_version).body

    def score_hand_outcome(self, game_id: str, entry: HandInput, *, client_id: str | None = None,
                           expected_version: int | None = None) -> Outcome:
        with self._lock:
            fp = fingerprint("hand", entry=entry) if client_id else None
            again = self._replayed(game_id, client_id, "hand", fp)
            if again is not None:
                return again
            g = self._get(game_id)
            self._check_version(g, expected_version)
            if g.finished:
                raise TableError("finished", "the match is over: start a rematch or correct a hand", 409)
            payload = hand_payload(g, entry)
            return self._commit(g, "hand", payload, client_id,
                                lambda st: {"result": payload["result"], "game": st.as_dict()}, fp)

    def preview_hand(self, game_id: str, entry: HandInput) -> dict[str, Any]:
        """Score a hand without writing anything: ``{"result", "game", "preview"}``."""
        with self._lock:
            g = self._get(game_id)
            if g.finished:
                raise TableError("finished", "the match is over: start a rematch or correct a hand", 409)
            payload = hand_payload(g, entry)
            probe = StoredEvent(self.store.last_seq() + 1, g.id, "hand", payload, None, 0.0)
            try:
                st = fold_game([*g.events, probe])
            except TableError:
                raise
            except ValueError as exc:
                raise IllegalAction(str(exc)) from None
            except Exception as exc:
                raise engine_failure(exc)
            return {"result": payload["result"], "game": st.as_dict(), "preview": True}

    def correct_hand(self, game_id: str, n: int, entry: HandInput, *, client_id: str | None = None,
                     expected_version: int | None = None) -> dict[str, Any]:
        """Replace hand ``n`` (1-based) with new input; the match is re-scored."""
        return self.correct_hand_outcome(game_id, n, entry, client_id=client_id,
                                         expected_version=expected_version).body

    def correct_hand_outcome(self, game_id: str, n: int, entry: HandInput, *, client_id: str | None = None,
                             expected_version: int | None = None) -> Outcome:
        with self._lock:
            fp = fingerprint("correct", n=n, entry=entry) if client_id else None
            again = self._replayed(game_id, client_id, "correct", fp)
            if again is not None:
                return again
            g = self._get(game_id)
            self._check_version(g, expected_version)
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(g.hands):
                raise TableError("not_found", f"hand {n} does not exist (the game has {len(g.hands)} hands)", 404)
            payload = {"hand": n, **hand_payload(g, entry, upto=n - 1)}
            return self._commit(g, "hand_corrected", payload, client_id,
                                lambda st: {"result": st.hands[n - 1].result, "game": st.as_dict()}, fp)

    def undo(self, game_id: str, *, client_id: str | None = None,
             expected_version: int | None = None) -> dict[str, Any]:
        """Undo the latest event still standing, as a new ``undo`` event."""
        return self.undo_outcome(game_id, client_id=client_id, expected_version=expected_version).body

    def undo_outcome(self, game_id: str, *, client_id: str | None = None,
                     expected_version: int | None = None) -> Outcome:
        with self._lock:
            fp = fingerprint("undo") if client_id else None
            again = self._replayed(game_id, client_id, "undo", fp)
            if again is not None:
                return again
            g = self._get(game_id)
            self._check_version(g, expected_version)
            standing = effective(g.events)
            if not standing:
                raise TableError("nothing_to_undo", "there is nothing to undo in this game", 409)
            undone = standing[-1]
            return self._commit(g, "undo", {"undone": undone.seq, "undone_type": undone.type}, client_id,
                                lambda st: {"undone": undone.as_dict(), "game": st.as_dict()}, fp)

    def action(self, game_id: str, action: dict[str, Any], *, client_id: str | None = None,
               expected_version: int | None = None) -> dict[str, Any]:
        """Apply a Gin-Go action; returns ``{"events": [...], "game": game}``."""
        return self.action_outcome(game_id, action, client_id=client_id, expected_version=expected_version).body

    def action_outcome(self, game_id: str, action: dict[str, Any], *, client_id: str | None = None,
                       expected_version: int | None = None) -> Outcome:
        with self._lock:
            fp = fingerprint("action", action=action) if client_id else None
            again = self._replayed(game_id, client_id, "action", fp)
            if again is not None:
                return again
            g = self._get(game_id)
            self._check_version(g, expected_version)
            if g.rules.play_style != "actions":
                raise InvalidInput(f"{g.variant} hands are scored with POST .../hands, not actions",
                                   code="wrong_variant")
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                raise TableError("invalid_action", "an action is an object with a \"type\"")
            return self._commit(g, "action", {"action": action}, client_id,
                                lambda st: {"events": st.effects[-1] if st.effects else [], "game": st.as_dict()},
                                fp)

    def delete_game(self, game_id: str, *, client_id: str | None = None) -> dict[str, Any]:
        """Remove a game from the list (its events stay in the log)."""
        with self._lock:
            fp = fingerprint("delete") if client_id else None
            again = self._replayed(game_id, client_id, "delete", fp)
            if again is not None:
                return again.body
            g = self._get(game_id)
            ev = self.store.append(g.id, "game_deleted", {}, client_id=client_id,
                                   result=stamp({"deleted": g.id}, fp))
            st = fold_game([*g.events, ev])
            self._games[g.id] = st
            self._notify(ev, None)
            return {"deleted": g.id, "seq": ev.seq}

    def rematch(self, game_id: str, *, client_id: str | None = None) -> dict[str, Any]:
        """A new game with the same variant, rules and players; the deal moves on one seat."""
        with self._lock:
            g = self._get(game_id)
            first = g.events[0].payload
            return self.create_game(
                g.variant, players=g.players, preset=g.preset, options=dict(first.get("options") or {}),
                dealer=(int(first.get("dealer", 0)) + 1) % len(g.players), client_id=client_id,
                rematch_of=g.id,
            )

    # -- export and import -------------------------------------------------------------------

    def export(self, game_id: str) -> dict[str, Any]:
        """The whole game, re-importable with :meth:`import_game`."""
        with self._lock:
            g = self._get(game_id)
            return export_body(g, g.events)

    def import_game(self, data: dict[str, Any], *, client_id: str | None = None) -> dict[str, Any]:
        """Re-create an exported game under a new id (every event is re-checked)."""
        with self._lock:
            gid = _game_id(client_id)
            body = {k: v for k, v in data.items() if k != "client_id"} if isinstance(data, dict) else data
            fp = fingerprint("import", data=body) if client_id else None
            again = self._replayed(gid, client_id, "import", fp)
            if again is not None:
                return again.body
            now = self.store.now()
            probes, st = imported_events(data, gid, client_id, self.store.last_seq() + 1, now)
            new = [NewEvent(gid, p.type, p.payload, p.client_id, stamp(st.as_dict(), fp) if i == 0 else None)
                   for i, p in enumerate(probes)]
            stored = self.store.append_many(new, at=now)
            st = fold_game(stored)
            self._games[gid] = st
            for ev in stored:
                self._notify(ev, st)
            return st.as_dict()


def _game_id(client_id: str | None) -> str:
    if client_id:
        return "g" + hashlib.sha256(client_id.encode("utf-8")).hexdigest()[:11]
    return "g" + uuid.uuid4().hex[:11]
