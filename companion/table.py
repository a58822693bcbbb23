"""The table: the one entry point for every command (phones, buttons, tests).

A command is checked through the rules engines, written to the event log
(:mod:`companion.store`) and only then applied; the state of every game is a pure fold
over its events (:func:`fold_game`), so a restart, an undo or a correction to a hand two
rounds back all come out of the same code. Bad input raises :class:`TableError` (a
``ValueError`` with a ``code`` and an HTTP-style ``status``) and writes nothing.

Event types (payloads are JSON):

* ``game_created`` ``{"variant", "preset", "options", "players", "dealer", "rematch_of"?}``
* ``hand`` ``{"ender", "hands" | "deadwood", "result"}`` (rummy variants; the result is
  the engine's :class:`~companion.rules.base.HandResult` as a dict)
* ``hand_corrected`` ``{"hand": n (1-based), "ender", "hands" | "deadwood", "result"}``
* ``action`` ``{"action": {...}}`` (Gin-Go, see :mod:`companion.rules.gingo`)
* ``undo`` ``{"undone": seq}``: cancels the latest event not yet undone
* ``game_deleted`` ``{}``

>>> import tempfile, pathlib
>>> from companion.store import open_store
>>> table = Table(open_store(pathlib.Path(tempfile.mkdtemp())))
>>> g = table.create_game("gingo", players=["Ann", "Bob"], client_id="new-1")
>>> g["variant"], g["version"], g["players"]
('gingo', 1, ['Ann', 'Bob'])
>>> out = table.action(g["id"], {"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}})
>>> table.game(g["id"])["version"]
2
>>> table.undo(g["id"])["game"]["version"]
3
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import logging
import threading
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from companion.store import EventStore, NewEvent, StoredEvent

log = logging.getLogger(__name__)

RUMMY_VARIANTS: tuple[str, ...] = ("gin", "color_gin", "ginski")
#: variants whose hand score depends on the hands before it (closed suits)
CONTEXT_VARIANTS: frozenset[str] = frozenset({"color_gin"})
VARIANTS: tuple[str, ...] = RUMMY_VARIANTS + ("gingo",)
EXPORT_FORMAT = "gingo-export/1"
MAX_PLAYER_NAME = 40

Subscriber = Callable[[StoredEvent, dict[str, Any]], None]


class TableError(ValueError):
    """A command the table refused; nothing was written.

    ``code`` is a short machine word (``not_found``, ``invalid``, ``stale_version``...),
    ``status`` the HTTP status the API answers with.
    """

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


_MODULES: dict[str, ModuleType] = {}


def rules_module(variant: str) -> ModuleType:
    """The rules module of a variant (imported on first use).

    >>> rules_module("gingo").__name__
    'companion.rules.gingo'
    """
    mod = _MODULES.get(variant)
    if mod is not None:
        return mod
    if variant not in VARIANTS:
        raise TableError("unknown_variant", f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    try:
        mod = _MODULES[variant] = importlib.import_module(f"companion.rules.{variant}")
    except ImportError as exc:
        raise TableError("unavailable", f"the {variant} rules are not installed ({exc})", 501) from None
    return mod


# ---------------------------------------------------------------------------------
# The fold


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
            "options": _options_dict(self.options),
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


def _options_dict(options: Any) -> dict[str, Any]:
    if dataclasses.is_dataclass(options) and not isinstance(options, type):
        return dataclasses.asdict(options)
    if isinstance(options, dict):
        return dict(options)
    return {}


def _make_options(variant: str, preset: str | None, overrides: dict[str, Any], players: int) -> Any:
    mod = rules_module(variant)
    try:
        if variant == "gingo":
            if preset is not None:
                raise ValueError(f"Gin-Go has no presets (got preset {preset!r}); set options instead")
            return mod.make_options(players, overrides)
        fields = {f.name for f in dataclasses.fields(mod.Options)}
        if "players" in fields and "players" not in overrides:
            overrides = {**overrides, "players": players}
        return mod.make_options(preset, **overrides)
    except TypeError as exc:
        raise TableError("invalid_options", f"{variant} options: {exc}") from None
    except TableError:
        raise
    except ValueError as exc:
        raise TableError("invalid_options", f"{variant} options: {exc}") from None


def _hand_result(d: dict[str, Any]) -> Any:
    """A stored result back as the engine's HandResult (keys it does not know are kept out,
    so a log written by another version still folds)."""
    from companion.rules.base import HandResult

    known = {f.name for f in dataclasses.fields(HandResult)}
    return HandResult(**{k: v for k, v in d.items() if k in known})


def _rescore(g: GameState, mod: ModuleType, payload: dict[str, Any], prior: list[Any]) -> dict[str, Any]:
    """Score one hand's input again, in the match context of the hands before it."""
    if "hands" not in payload:
        return dict(payload["result"])
    closed = mod.score_match(prior, len(g.players), g.options) if g.variant == "color_gin" else None
    return _score_cards(g.variant, mod, payload, g.options, closed)


def _score_cards(variant: str, mod: ModuleType, payload: dict[str, Any], options: Any, closed: Any) -> dict[str, Any]:
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


def _refold_match(g: GameState, dirty: int | None) -> None:
    """Fold the hands into the match; Color Gin hands after a corrected one are
    re-scored, because which suits are closed depends on the hands before them."""
    mod = rules_module(g.variant)
    results = [_hand_result(h.result) for h in g.hands]
    if dirty is not None and g.variant in CONTEXT_VARIANTS:
        for i in range(dirty + 1, len(g.hands)):
            h = g.hands[i]
            payload = {"ender": h.ender, **h.entry, "result": h.result}
            h.result = _rescore(g, mod, payload, results[:i])
            results[i] = _hand_result(h.result)
    g.match = mod.score_match(results, len(g.players), g.options)
    dealer = g.created_dealer
    if hasattr(mod, "next_dealer"):
        for r in results:
            dealer = mod.next_dealer(r, dealer, len(g.players), g.options)
    g.dealer = dealer


def _effective(events: Sequence[StoredEvent]) -> list[StoredEvent]:
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
        options=_make_options(variant, p.get("preset"), dict(p.get("options") or {}), len(p["players"])),
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
        for ev in _effective(events):
            if ev.type == "action":
                g.effects.append(g.engine.apply(ev.payload["action"]))
                g.actions.append(ev.payload["action"])
        st = g.engine.as_dict()
        g.dealer = int(st.get("dealer", g.dealer))
        return g
    dirty: int | None = None
    for ev in _effective(events):
        if ev.type == "hand":
            g.hands.append(HandEntry(len(g.hands) + 1, ev.seq, ev.payload.get("ender"),
                                     _entry_of(ev.payload), ev.payload["result"]))
        elif ev.type == "hand_corrected":
            n = int(ev.payload["hand"])
            if not 1 <= n <= len(g.hands):
                raise TableError("not_found", f"hand {n} does not exist (the game has {len(g.hands)} hands)", 404)
            g.hands[n - 1] = HandEntry(n, ev.seq, ev.payload.get("ender"), _entry_of(ev.payload),
                                       ev.payload["result"], corrected=True)
            dirty = n - 1 if dirty is None else min(dirty, n - 1)
    _refold_match(g, dirty)
    return g


def _entry_of(payload: dict[str, Any]) -> dict[str, Any]:
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


# ---------------------------------------------------------------------------------
# Deadwood-only entry


def score_deadwood(variant: str, deadwood: Sequence[int], ender: int | None, options: Any, *,
                   big_gin: bool = False, upcard: str | None = None) -> dict[str, Any]:
    """Score a hand from deadwood counts only (no cards), with the variant engine's
    ``score_from_deadwood`` (gin and Ginski have one; Color Gin needs the cards, since
    the spoiled suits come from them). Every option of the game applies.

    >>> opts = rules_module("gin").make_options("gin_004")
    >>> r = score_deadwood("gin", [4, 20], 0, opts)
    >>> r["kind"], r["points"]
    ('knock', [16, 0])
    >>> score_deadwood("gin", [9, 6], 0, opts)["points"]
    [0, 28]
    """
    mod = rules_module(variant)
    scorer = getattr(mod, "score_from_deadwood", None)
    if scorer is None:
        raise TableError(
            "unsupported",
            f"deadwood-only entry is not available for {variant}: enter each player's cards (\"hands\")",
        )
    overrides: dict[str, Any] = {"upcard": upcard} if upcard is not None else {}
    try:
        res = scorer(list(deadwood), ender, options=options, big_gin=big_gin, **overrides)
    except (ValueError, TypeError) as exc:
        raise TableError("invalid_hand", str(exc), 422) from None
    return dict(res.as_dict())


# ---------------------------------------------------------------------------------
# The table


@dataclass(frozen=True)
class HandInput:
    """The end of a rummy hand as a player enters it.

    ``ender``: the seat that knocked or went gin (None: a void hand); ``hands``: each
    player's cards in seat order, or ``deadwood``: one number per seat (quick entry);
    Color Gin only: ``declared`` (the ender's melds) and ``joker`` (co-op jokers);
    ``big_gin``: with ``deadwood``, the ender melded all eleven cards; ``upcard``: the
    hand's upcard, for Oklahoma gin.
    """

    ender: int | None
    hands: list[list[str]] | None = None
    deadwood: list[int] | None = None
    declared: list[list[str]] | None = None
    joker: bool = False
    big_gin: bool = False
    upcard: str | None = None


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
        self._subs: list[Subscriber] = []
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
        with self._lock:
            self._subs.append(fn)

        def unsubscribe() -> None:
            with self._lock:
                if fn in self._subs:
                    self._subs.remove(fn)

        return unsubscribe

    def _notify(self, ev: StoredEvent, game: GameState | None, game_dict: dict[str, Any] | None = None) -> None:
        if game_dict is None and game is not None:
            game_dict = game.as_dict()
        msg = {"type": "event", "seq": ev.seq, "event": ev.as_dict(), "game": game_dict}
        for fn in list(self._subs):
            try:
                fn(ev, msg)
            except Exception:  # a broken listener must not undo a committed command
                pass

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
                if g.variant == "gingo" and not g.deleted and not g.finished:
                    if best is None or g.last_seq > best.last_seq:
                        best = g
            return None if best is None else best.as_dict()

    def expected_board(self) -> str | None:
        """The board the active Gin-Go game expects, or None (mirror mode)."""
        g = self.active_gingo()
        return None if g is None else str(g["board"])

    # -- the write path ------------------------------------------------------------------

    def _replayed(self, game_id: str, client_id: str | None) -> Outcome | None:
        if not client_id:
            return None
        prev = self.store.find_client(game_id, client_id)
        if prev is None:
            return None
        return Outcome(prev.result if isinstance(prev.result, dict) else {"result": prev.result}, None, True)

    @staticmethod
    def _check_version(g: GameState, expected: int | None) -> None:
        if expected is not None and int(expected) != g.version:
            raise TableError(
                "stale_version",
                f"the game is at version {g.version}, not {expected}: reload it and try again",
                409,
            )

    def _commit(self, g: GameState, etype: str, payload: dict[str, Any], client_id: str | None,
                make_body: Callable[[GameState], dict[str, Any]]) -> Outcome:
        """Fold the new event onto the game first (validation), then write and notify."""
        now = self.store.now()
        probe = StoredEvent(self.store.last_seq() + 1, g.id, etype, payload, client_id, now)
        fast = etype == "action" and g.engine is not None
        try:
            new_state = self._step_engine(g, probe) if fast else fold_game([*g.events, probe])
        except TableError:
            raise
        except (ValueError, KeyError, TypeError) as exc:
            if fast and not isinstance(exc, ValueError):  # only a refusal is promised to change nothing
                self._games[g.id] = fold_game(g.events)
            raise TableError("illegal", str(exc), 422) from None
        except Exception as exc:
            if fast:
                self._games[g.id] = fold_game(g.events)
            raise _engine_failure(exc) from None
        try:
            body = make_body(new_state)
            ev = self.store.append(g.id, etype, payload, client_id=client_id, result=body, at=now)
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
            again = self._replayed(gid, client_id)
            if again is not None:
                return again
            names = _check_players(players)
            mod = rules_module(variant)
            allowed = getattr(mod, "PLAYERS", None)
            if allowed is not None and len(names) not in allowed:
                raise TableError("invalid_players",
                                 f"{variant} is played by {_range_text(allowed)} players, not {len(names)}")
            if variant == "gingo" and len(names) not in (2, 4):
                raise TableError("invalid_players", f"gingo is played by 2 or 4 players, not {len(names)}")
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
            except (ValueError, KeyError, TypeError) as exc:
                raise TableError("invalid_options", str(exc)) from None
            except Exception as exc:
                raise _engine_failure(exc) from None
            ev = self.store.append(gid, "game_created", payload, client_id=client_id, result=state.as_dict(), at=now)
            state = fold_game([ev])
            self._games[gid] = state
            self._notify(ev, state)
            return Outcome(state.as_dict(), ev)

    def _hand_payload(self, g: GameState, entry: HandInput, upto: int | None = None) -> dict[str, Any]:
        """Check and score one hand's input; ``upto`` = hands before it (corrections)."""
        if g.variant not in RUMMY_VARIANTS:
            raise TableError("wrong_variant", f"{g.variant} hands are played with actions, not scored hands")
        n = len(g.players)
        ender = entry.ender
        if ender is not None and (not isinstance(ender, int) or isinstance(ender, bool) or not 0 <= ender < n):
            raise TableError("invalid_hand", f"ender must be a seat 0..{n - 1} (or null for a void hand), got {ender!r}")
        if (entry.hands is None) == (entry.deadwood is None):
            raise TableError("invalid_hand", "give either \"hands\" (each player's cards) or \"deadwood\" (numbers)")
        if entry.big_gin and entry.hands is not None:
            raise TableError("invalid_hand", "\"big_gin\" goes with \"deadwood\"; with the cards, "
                             "give the ender's 11 cards for a big gin")
        if entry.upcard is not None and g.variant != "gin":
            raise TableError("invalid_hand", "\"upcard\" is for Oklahoma gin only")
        if entry.upcard is not None and not getattr(g.options, "oklahoma", False):
            # it used to be accepted and silently ignored
            raise TableError("invalid_hand", "\"upcard\" is for Oklahoma gin only, and this game's "
                             "option oklahoma is off: leave the upcard out")
        if g.variant != "color_gin" and (entry.declared is not None or entry.joker):
            raise TableError("invalid_hand", "\"declared\" and \"joker\" are Color Gin entries only")
        mod = rules_module(g.variant)
        if entry.hands is not None:
            hands = entry.hands
            if not isinstance(hands, list) or len(hands) != n:
                got = len(hands) if isinstance(hands, list) else type(hands).__name__
                raise TableError("invalid_hand", f"\"hands\" needs one list of cards per player ({n}), got {got}")
            payload: dict[str, Any] = {"ender": ender, "hands": hands}
            if entry.declared is not None:
                payload["declared"] = entry.declared
            if entry.joker:
                payload["joker"] = True
            if entry.upcard is not None:
                payload["upcard"] = entry.upcard
            prior = [_hand_result(h.result) for h in g.hands[: len(g.hands) if upto is None else upto]]
            try:
                payload["result"] = _rescore(g, mod, {**payload, "result": None}, prior)
            except TableError:
                raise
            except (ValueError, TypeError, KeyError) as exc:
                raise TableError("invalid_hand", str(exc), 422) from None
            except Exception as exc:
                raise _engine_failure(exc) from None
            return payload
        deadwood = entry.deadwood
        if not isinstance(deadwood, list) or len(deadwood) != n or not all(
            isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 500 for x in deadwood
        ):
            raise TableError("invalid_hand", f"\"deadwood\" needs {n} whole numbers from 0 to 500")
        out: dict[str, Any] = {"ender": ender, "deadwood": deadwood}
        if entry.big_gin:
            out["big_gin"] = True
        if entry.upcard is not None:
            out["upcard"] = entry.upcard
        out["result"] = score_deadwood(g.variant, deadwood, ender, g.options,
                                       big_gin=entry.big_gin, upcard=entry.upcard)
        return out

    def score_hand(self, game_id: str, entry: HandInput, *, client_id: str | None = None,
                   expected_version: int | None = None) -> dict[str, Any]:
        """Score the end of a hand; returns ``{"result": breakdown, "game": game}``."""
        return self.score_hand_outcome(game_id, entry, client_id=client_id, expected_version=expected_version).body

    def score_hand_outcome(self, game_id: str, entry: HandInput, *, client_id: str | None = None,
                           expected_version: int | None = None) -> Outcome:
        with self._lock:
            again = self._replayed(game_id, client_id)
            if again is not None:
                return again
            g = self._get(game_id)
            self._check_version(g, expected_version)
            if g.finished:
                raise TableError("finished", "the match is over: start a rematch or correct a hand", 409)
            payload = self._hand_payload(g, entry)
            return self._commit(g, "hand", payload, client_id,
                                lambda st: {"result": payload["result"], "game": st.as_dict()})

    def preview_hand(self, game_id: str, entry: HandInput) -> dict[str, Any]:
        """Score a hand without writing anything: ``{"result", "game", "preview"}``."""
        with self._lock:
            g = self._get(game_id)
            if g.finished:
                raise TableError("finished", "the match is over: start a rematch or correct a hand", 409)
            payload = self._hand_payload(g, entry)
            probe = StoredEvent(self.store.last_seq() + 1, g.id, "hand", payload, None, 0.0)
            try:
                st = fold_game([*g.events, probe])
            except TableError:
                raise
            except (ValueError, KeyError, TypeError) as exc:
                raise TableError("illegal", str(exc), 422) from None
            return {"result": payload["result"], "game": st.as_dict(), "preview": True}

    def correct_hand(self, game_id: str, n: int, entry: HandInput, *, client_id: str | None = None,
                     expected_version: int | None = None) -> dict[str, Any]:
        """Replace hand ``n`` (1-based) with new input; the match is re-scored."""
        return self.correct_hand_outcome(game_id, n, entry, client_id=client_id,
                                         expected_version=expected_version).body

    def correct_hand_outcome(self, game_id: str, n: int, entry: HandInput, *, client_id: str | None = None,
                             expected_version: int | None = None) -> Outcome:
        with self._lock:
            again = self._replayed(game_id, client_id)
            if again is not None:
                return again
            g = self._get(game_id)
            self._check_version(g, expected_version)
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(g.hands):
                raise TableError("not_found", f"hand {n} does not exist (the game has {len(g.hands)} hands)", 404)
            payload = {"hand": n, **self._hand_payload(g, entry, upto=n - 1)}
            return self._commit(g, "hand_corrected", payload, client_id,
                                lambda st: {"result": st.hands[n - 1].result, "game": st.as_dict()})

    def undo(self, game_id: str, *, client_id: str | None = None,
             expected_version: int | None = None) -> dict[str, Any]:
        """Undo the latest event still standing, as a new ``undo`` event."""
        return self.undo_outcome(game_id, client_id=client_id, expected_version=expected_version).body

    def undo_outcome(self, game_id: str, *, client_id: str | None = None,
                     expected_version: int | None = None) -> Outcome:
        with self._lock:
            again = self._replayed(game_id, client_id)
            if again is not None:
                return again
            g = self._get(game_id)
            self._check_version(g, expected_version)
            standing = _effective(g.events)
            if not standing:
                raise TableError("nothing_to_undo", "there is nothing to undo in this game", 409)
            undone = standing[-1]
            return self._commit(g, "undo", {"undone": undone.seq, "undone_type": undone.type}, client_id,
                                lambda st: {"undone": undone.as_dict(), "game": st.as_dict()})

    def action(self, game_id: str, action: dict[str, Any], *, client_id: str | None = None,
               expected_version: int | None = None) -> dict[str, Any]:
        """Apply a Gin-Go action; returns ``{"events": [...], "game": game}``."""
        return self.action_outcome(game_id, action, client_id=client_id, expected_version=expected_version).body

    def action_outcome(self, game_id: str, action: dict[str, Any], *, client_id: str | None = None,
                       expected_version: int | None = None) -> Outcome:
        with self._lock:
            again = self._replayed(game_id, client_id)
            if again is not None:
                return again
            g = self._get(game_id)
            self._check_version(g, expected_version)
            if g.variant != "gingo":
                raise TableError("wrong_variant", f"{g.variant} hands are scored with POST .../hands, not actions")
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                raise TableError("invalid_action", "an action is an object with a \"type\"")
            return self._commit(g, "action", {"action": action}, client_id,
                                lambda st: {"events": st.effects[-1] if st.effects else [], "game": st.as_dict()})

    def delete_game(self, game_id: str, *, client_id: str | None = None) -> dict[str, Any]:
        """Remove a game from the list (its events stay in the log)."""
        with self._lock:
            again = self._replayed(game_id, client_id)
            if again is not None:
                return again.body
            g = self._get(game_id)
            ev = self.store.append(g.id, "game_deleted", {}, client_id=client_id,
                                   result={"deleted": g.id})
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

    def _rescored(self, probes: list[StoredEvent]) -> list[StoredEvent]:
        """Imported hands are scored again by the engines; stored results are not trusted."""
        out = [probes[0]]
        st = fold_game(out)
        for i, p in enumerate(probes[1:], start=1):
            if p.type == "undo" and not _effective(out):
                # the live API answers 409 nothing_to_undo here; an edited file used to slip it in
                raise TableError("invalid_import", f"event {i} is an undo with nothing left to undo")
            if p.type in ("hand", "hand_corrected"):
                payload = dict(p.payload)
                n = payload.get("hand")
                upto = None
                if p.type == "hand_corrected":
                    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(st.hands):
                        raise TableError("invalid_import", f"a correction names hand {n!r}, which does not exist")
                    upto = n - 1
                fresh = self._hand_payload(st, _hand_input(payload), upto=upto)
                if upto is not None:
                    fresh = {"hand": n, **fresh}
                p = dataclasses.replace(p, payload=fresh)
            out.append(p)
            st = fold_game(out)
        return out

    def export(self, game_id: str) -> dict[str, Any]:
        """The whole game, re-importable with :meth:`import_game`."""
        with self._lock:
            g = self._get(game_id)
            return {
                "format": EXPORT_FORMAT,
                "game": g.as_dict(),
                "events": [{"seq": e.seq, "type": e.type, "payload": e.payload, "time": e.time}
                           for e in g.events if e.type != "game_deleted"],
            }

    def import_game(self, data: dict[str, Any], *, client_id: str | None = None) -> dict[str, Any]:
        """Re-create an exported game under a new id (every event is re-checked)."""
        with self._lock:
            gid = _game_id(client_id)
            again = self._replayed(gid, client_id)
            if again is not None:
                return again.body
            if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
                raise TableError("invalid_import", f"not a game export (expected format {EXPORT_FORMAT!r})")
            raw = data.get("events")
            if not isinstance(raw, list) or not raw:
                raise TableError("invalid_import", "the export holds no events")
            now = self.store.now()
            first_seq = self.store.last_seq() + 1
            probes: list[StoredEvent] = []
            for i, e in enumerate(raw):
                if not isinstance(e, dict) or not isinstance(e.get("type"), str) or not isinstance(e.get("payload"), dict):
                    raise TableError("invalid_import", f"event {i} needs a \"type\" and a \"payload\" object")
                if e["type"] not in ("game_created", "hand", "hand_corrected", "action", "undo"):
                    raise TableError("invalid_import", f"event {i} has an unknown type {e['type']!r}")
                if (e["type"] == "game_created") != (i == 0):
                    raise TableError("invalid_import", "an export starts with exactly one game_created event")
                payload = dict(e["payload"])
                if i == 0:
                    imported_from = data["game"].get("id") if isinstance(data.get("game"), dict) else None
                    payload = {k: payload.get(k) for k in ("variant", "preset", "options", "players", "dealer")}
                    payload["imported_from"] = imported_from
                    _check_created(payload)
                probes.append(StoredEvent(first_seq + i, gid, e["type"], payload, client_id if i == 0 else None, now))
            try:
                probes = self._rescored(probes)
                st = fold_game(probes)
            except TableError as exc:
                raise TableError("invalid_import", exc.message) from None
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise TableError("invalid_import", f"the events do not replay: {exc}") from None
            new = [NewEvent(gid, p.type, p.payload, p.client_id, st.as_dict() if i == 0 else None)
                   for i, p in enumerate(probes)]
            stored = self.store.append_many(new, at=now)
            st = fold_game(stored)
            self._games[gid] = st
            for ev in stored:
                self._notify(ev, st)
            return st.as_dict()


def _engine_failure(exc: Exception) -> TableError:
    """A rules engine broke on this input (a bug there): refuse it, write nothing, log it."""
    log.error("rules engine failed: %r", exc, exc_info=exc)
    return TableError("engine_error", f"the rules engine could not handle this input ({type(exc).__name__}: {exc}); "
                      "nothing was written", 422)


def _hand_input(payload: dict[str, Any]) -> HandInput:
    return HandInput(ender=payload.get("ender"), hands=payload.get("hands"), deadwood=payload.get("deadwood"),
                     declared=payload.get("declared"), joker=bool(payload.get("joker", False)),
                     big_gin=bool(payload.get("big_gin", False)), upcard=payload.get("upcard"))


def _game_id(client_id: str | None) -> str:
    if client_id:
        return "g" + hashlib.sha256(client_id.encode("utf-8")).hexdigest()[:11]
    return "g" + uuid.uuid4().hex[:11]


def _check_created(payload: dict[str, Any]) -> None:
    """An imported game_created payload passes the checks a new game passes (players,
    dealer, preset); an edited file used to slip a blank name or dealer -1 through."""
    players: Any = payload.get("players")
    try:
        payload["players"] = _check_players(players)
    except TableError as exc:
        raise TableError("invalid_import", f"event 0: {exc.message}") from None
    n = len(payload["players"])
    dealer = 0 if payload.get("dealer") is None else payload["dealer"]
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise TableError("invalid_import", f"event 0: dealer must be a seat 0..{n - 1}, got {dealer!r}")
    payload["dealer"] = dealer
    preset = payload.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise TableError("invalid_import", f"event 0: preset must be a preset name or null, got {preset!r}")


def _check_players(players: Iterable[Any]) -> list[str]:
    if isinstance(players, (str, bytes)) or not isinstance(players, (list, tuple)):
        raise TableError("invalid_players", "\"players\" is a list of names")
    names: list[str] = []
    for p in players:
        if not isinstance(p, str) or not p.strip():
            raise TableError("invalid_players", f"a player name must be non-empty text, got {p!r}")
        if len(p) > MAX_PLAYER_NAME:
            raise TableError("invalid_players", f"player name {p[:20]!r}... is longer than {MAX_PLAYER_NAME} characters")
        names.append(p.strip())
    if len(names) < 2:
        raise TableError("invalid_players", "a game needs at least 2 players")
    return names


def _range_text(r: Any) -> str:
    vals = list(r)
    return " or ".join(str(v) for v in vals) if len(vals) <= 3 else f"{vals[0]} to {vals[-1]}"
