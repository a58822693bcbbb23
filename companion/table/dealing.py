"""The commands of dealt games: create one, claim and free seats, a seat's view, a seat's
action, and the bots that play their seats (see :mod:`companion.table.dealt`).

Every change is an event written through the same path as a tracked game's (trial fold,
group commit, answer after the commit), so a dealt game survives a restart or a crash
exactly like a tracked one. A seat's action checks that the caller holds the seat whose
turn it is; the rules refuse anything else by name and nothing is written. When an
action ends a hand, its event also publishes that hand's seed and the next hand's
commitment (``"revealed"`` and ``"next"``), so the log alone proves every deal.

Bots act after each human action until a human must act: at once in the same request
when ``bot_delay`` is 0 (tests), else on a thread that waits ``bot_delay`` seconds before
each bot move (the page shows them one by one).

:class:`Dealing` is given the table's :class:`~companion.table.ledger.Ledger` (it writes
through it) and :class:`~companion.table.reads.Reads` (it answers with the game); the
table holds it as :attr:`Table.dealing <companion.table.service.Table.dealing>`.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from collections.abc import Sequence
from typing import Any

from companion.errors import CompanionError, Conflict, IllegalAction, InvalidInput, NotFound, StaleVersion
from companion.games import find_variant
from companion.play.deal import SEED_BYTES, commitment, hand_seed
from companion.play.levels import level_of, table_level
from companion.store.records import SECRET
from companion.table.checks import check_players
from companion.table.dealt import DealtGame, check_bots
from companion.table.errors import engine_failure
from companion.table.state import GameState
from companion.table.ledger import Ledger, Outcome, Staged
from companion.table.reads import Reads
from companion.table.retries import fingerprint, new_id

log = logging.getLogger("companion.table")

#: at most this many bot moves in a row (a whole match is far fewer between two humans)
BOT_LIMIT = 20000


def published(before: DealtGame, after: DealtGame) -> dict[str, Any]:
    """What a play event publishes about the deals: the seeds of the hands it ended (and of
    Gin-Go's set-up once done), ``"revealed"``, and the next hand's commitment, ``"next"``."""
    out: dict[str, Any] = {}
    fresh = [k for k in after.revealed() if k not in set(before.revealed())]
    seeds = {k: after.seed_of(k) for k in fresh}
    if fresh:
        out["revealed"] = [{"hand": k, "seed": seed.hex()} for k, seed in seeds.items() if seed is not None]
    if after.hands_over() > before.hands_over() and not after.finished:
        k = after.hands_over() + 1
        seed = after.seed_of(k)
        if seed is not None:
            out["next"] = {"hand": k, "commitment": commitment(seed)}
    return out


class Dealing:
    """Dealt-game commands, written through ``ledger`` and read through ``reads``."""

    #: seconds a bot waits before each move (0: the bots move inside the human's request)
    bot_delay: float = 0.0
    #: seconds a table of bots only waits after a hand ends (with a bot delay), so the phones
    #: watching it show the hand-over panel before the next hand is played
    hand_pause: float = 8.0
    #: games whose board must agree before the next turn (set by the board sync), see waiting_for_board
    board_gate: Any = None
    #: a remote dealt game's other board (set by remote play, companion.mqtt.agreement):
    #: ``remote_wait(game, own_wait)`` answers the wait with the boards named
    remote_wait: Any = None

    def __init__(self, ledger: Ledger, reads: Reads) -> None:
        self.ledger = ledger
        self.reads = reads
        self.library = ledger.library
        self._lock = ledger.lock
        self._bot_threads: set[str] = set()  # games whose bots play on a thread now

    @staticmethod
    def new_key() -> bytes:
        """A new match key: 32 bytes from the operating system's random source (tests may
        replace this with a seeded source to replay a deal)."""
        return secrets.token_bytes(SEED_BYTES)

    # -- creating --------------------------------------------------------------------------

    def create_dealt(self, variant: str, *, players: Sequence[str], preset: str | None = None,
                     options: dict[str, Any] | None = None, dealer: int = 0, bots: Sequence[int] = (),
                     skip_board: bool = False, seats: dict[int, str] | None = None, rematch_of: str | None = None,
                     client_id: str | None = None, game_id: str | None = None) -> Outcome:
        """Start a dealt game: the companion shuffles with a fresh secret key and deals.
        ``seats``: phones that hold seats from the start (a rematch), seat -> token id;
        ``game_id``: the id to give it (a remote game's 128-bit id, :mod:`companion.mqtt.remote`)."""
        gid = game_id or new_id("g", client_id)
        fp = fingerprint("create_dealt", variant=variant, players=list(players), preset=preset,
                         options=options or {}, dealer=dealer, bots=list(bots), skip_board=skip_board,
                         seats=sorted((seats or {}).items()), rematch_of=rematch_of) \
            if client_id else None

        def stage() -> Staged:
            names = check_players(players)
            find_variant(variant).check_seats(len(names))
            if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < len(names):
                raise InvalidInput(f"dealer must be a seat 0..{len(names) - 1}, got {dealer!r}", code="invalid_dealer")
            try:
                bots_list = check_bots(list(bots), len(names))
            except IllegalAction as exc:
                raise InvalidInput(str(exc), code="invalid_bots") from None
            key = self.new_key()
            # a set-up before the first hand (Gin-Go's reveal of the suits) is shuffled from hand 0's seed
            first = find_variant(variant).setup_hand
            payload: dict[str, Any] = {
                "variant": variant, "preset": preset, "options": dict(options or {}), "players": names,
                "dealer": dealer, "mode": "dealt", "bots": bots_list, "skip_board": bool(skip_board),
                "next": {"hand": 1, "commitment": commitment(hand_seed(key, 1))},
                "commitments": [{"hand": k, "commitment": commitment(hand_seed(key, k))} for k in range(first, 2)],
                SECRET: {"key": key.hex()},
            }
            held = {str(s): h for s, h in sorted((seats or {}).items()) if s not in set(bots_list)}
            if held:
                payload["seats"] = held
            if rematch_of:
                payload["rematch_of"] = rematch_of
            return self.ledger.stage(None, gid, "game_created", payload, client_id, lambda st: ({}, None), fp)

        out = self.ledger.run(gid, client_id, stage, "create_dealt", fp)
        self.after_dealt(str(out.body.get("id", gid)))
        return out

    # -- seats -------------------------------------------------------------------------------

    def _dealt(self, game_id: str) -> tuple[GameState, DealtGame]:
        g = self.reads.writable(game_id)
        if g.dealt is None:
            raise InvalidInput(f"game {game_id} is tracked at a real table, not dealt by the companion "
                               "(create one with \"mode\": \"dealt\")", code="not_dealt")
        return g, g.dealt

    def is_dealt(self, game_id: str) -> bool:
        with self._lock:
            return self.reads.state(game_id).dealt is not None

    @staticmethod
    def seat_of(d: DealtGame, holder: str | None) -> int | None:
        if holder is None:
            return None
        return next((s for s, h in sorted(d.seats.items()) if h == holder), None)

    def claim_seat(self, game_id: str, seat: int, holder: str, *, client_id: str | None = None) -> dict[str, Any]:
        """Seat ``seat`` for the token ``holder``; 409 when a bot or another token holds it."""
        def stage() -> Staged | None:
            g, d = self._dealt(game_id)
            n = len(d.names)
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                raise NotFound(f"seat {seat} does not exist: seats are 0..{n - 1}", details={"seat": seat})
            if seat in d.bots:
                raise Conflict(f"seat {seat} is played by a bot", code="seat_taken", details={"seat": seat})
            held = d.seats.get(seat)
            if held == holder:
                return None
            if held is not None:
                raise Conflict(f"seat {seat} is taken by another phone (the host can free it)", code="seat_taken",
                               details={"seat": seat})
            mine = self.seat_of(d, holder)
            if mine is not None:
                raise Conflict(f"you hold seat {mine} already: one seat per phone", code="seat_taken",
                               details={"seat": seat, "held": mine})
            return self.ledger.stage(g, g.id, "seat", {"seat": seat, "holder": holder}, None, lambda st: ({}, None))

        with self._lock:
            staged = stage()
        if staged is not None:
            self.ledger.finish(staged)
        return self.view(game_id, holder)

    def free_seat(self, game_id: str, seat: int) -> dict[str, Any]:
        """The host frees ``seat`` (a phone that left); its cards stay with the seat."""
        with self._lock:
            g, d = self._dealt(game_id)
            n = len(d.names)
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                raise NotFound(f"seat {seat} does not exist: seats are 0..{n - 1}", details={"seat": seat})
            if seat in d.bots:
                raise Conflict(f"seat {seat} is played by a bot: there is no phone to free", code="seat_bot",
                               details={"seat": seat})
            if seat not in d.seats:
                raise Conflict(f"seat {seat} is not held by a phone: it is free already", code="seat_free",
                               details={"seat": seat})
            staged = self.ledger.stage(g, g.id, "seat", {"seat": seat, "holder": None}, None, lambda st: ({}, None))
        self.ledger.finish(staged)
        return self.reads.game(game_id)

    def view(self, game_id: str, holder: str | None) -> dict[str, Any]:
        """What ``holder`` may see: its seat, its cards and legal actions, the table, the version."""
        with self._lock:
            g = self.reads.state(game_id)
            if g.dealt is None:
                raise InvalidInput(f"game {game_id} is not dealt by the companion: it has no private view",
                                   code="not_dealt")
            out: dict[str, Any] = g.dealt.view(self.seat_of(g.dealt, holder))
            out["waiting_for_board"] = self.waiting_for_board(g)
            out["version"] = g.version
            out["game_id"] = g.id
            return out

    def seats_held(self, holder: str) -> list[str]:
        """The open dealt games where ``holder`` holds a seat."""
        with self._lock:
            return [gid for gid, g in self.library.open.items()
                    if g.dealt is not None and self.seat_of(g.dealt, holder) is not None]

    # -- playing -------------------------------------------------------------------------------

    def play(self, game_id: str, holder: str, action: Any, *, client_id: str | None = None,
             expected_version: int | None = None) -> dict[str, Any]:
        """``holder``'s seat plays ``action``; then the bots play until a human must act."""
        out = self._play(game_id, holder, None, action, client_id, expected_version)
        self.after_dealt(game_id)
        body = dict(out.body)
        body["view"] = self.view(game_id, holder)
        body["game"] = self.reads.game(game_id)
        return body

    def _play(self, game_id: str, holder: str | None, bot_seat: int | None, action: Any, client_id: str | None,
              expected_version: int | None) -> Outcome:
        fp = fingerprint("play", action=action) if client_id else None

        def stage() -> Staged:
            g, d = self._dealt(game_id)
            self.ledger.check_version(g, expected_version)
            seat = bot_seat if bot_seat is not None else self.seat_of(d, holder)
            if seat is None:
                raise IllegalAction("you hold no seat in this game: claim one with POST "
                                    f"/api/v1/games/{game_id}/seats/{{n}}", code="no_seat")
            wait = self.waiting_for_board(g)
            if wait is not None:
                raise Conflict(wait["message"] + " (the LEDs show each one; or play with skip_board)",
                               code="board_pending",
                               details={k: wait[k] for k in ("pending", "bumps", "unexpected", "board") if k in wait})
            try:
                new, _ = d.after(seat, action)
            except CompanionError as exc:  # a refusal of the rules or of the play: it names the rule
                raise IllegalAction(str(exc), details={"seat": seat}) from None
            except Exception as exc:  # anything else is a bug (a ValueError too): 500, logged
                raise engine_failure(exc)
            payload: dict[str, Any] = {"seat": seat, "action": action,
                                       "by": "bot" if bot_seat is not None else holder}
            payload.update(published(d, new))
            return self.ledger.stage(g, g.id, "play", payload, client_id,
                               lambda st: ({"events": list(st.effects)}, "game"), fp)

        return self.ledger.run(game_id, client_id, stage, "play", fp)

    def hint(self, game_id: str, holder: str | None) -> dict[str, Any]:
        """The strong bot's choice for ``holder``'s seat on its turn, with a reason in words
        (``{"seat", "action", "text", "hints_used", "version"}``); the hint is counted in the game's
        record (a ``hint`` event naming the seat, never the hint itself)."""
        answer: dict[str, Any] = {}

        def stage() -> Staged:
            g, d = self._dealt(game_id)
            seat = self.seat_of(d, holder)
            if seat is None:
                raise IllegalAction("you hold no seat in this game: a hint is for your own hand (claim a seat "
                                    f"with POST /api/v1/games/{game_id}/seats/{{n}})", code="no_seat")
            try:
                answer.update(d.hint(seat))
            except ValueError as exc:
                raise Conflict(str(exc), code="not_your_turn", details={"seat": seat}) from None
            answer["seat"] = seat
            answer["hints_used"] = d.hints.get(seat, 0) + 1
            return self.ledger.stage(g, g.id, "hint", {"seat": seat, "by": holder}, None, lambda st: ({}, "game"))

        self.ledger.run(game_id, None, stage, "hint")
        with self._lock:
            answer["version"] = self.reads.state(game_id).version
        return answer

    # -- the board ------------------------------------------------------------------------

    def waiting_for_board(self, g: GameState) -> dict[str, Any] | None:
        """What a dealt Gin-Go game waits for on the board before the next turn (every space
        still wrong, named: :meth:`~companion.games.base.Variant.board_wait`), or None; a
        remote game's host adds the guest board's chips (``remote_wait``)."""
        gate, remote = self.board_gate, self.remote_wait
        if (gate is None and remote is None) or g.dealt is None or not g.dealt.on_board:
            return None
        if not g.dealt.variant.dealt_turn_starts(g.dealt.engine):  # a turn under way finishes first
            return None
        view = gate(g) if gate is not None else None
        own = g.rules.board_wait(view, g.table_game) if view else None
        return remote(g, own) if remote is not None else own

    def board_agreed(self) -> None:
        """The board changed: dealt Gin-Go games whose bots waited for it move on."""
        with self._lock:
            gids = [gid for gid, g in self.library.open.items()
                    if g.dealt is not None and g.dealt.on_board]
        for gid in gids:
            self.after_dealt(gid)

    # -- bots ------------------------------------------------------------------------------

    def _bot_move(self, game_id: str) -> tuple[int, Any, int] | None:
        """The next bot move (seat, action, version), or None when no bot is to move."""
        with self._lock:
            g = self.library.get(game_id)
            if g is None or g.dealt is None or g.finished or g.damage is not None or g.deleted:
                return None
            d = g.dealt
            seat = d.to_move()
            if seat is None or seat not in d.bots or self.waiting_for_board(g) is not None:
                return None
            e = d.engine
            # a table of bots only is a demonstration: the normal level, so no request
            # plays a bots-only match of the strong search (companion.play.levels)
            level = table_level(level_of(e.options), bots_only=len(d.bots) == len(d.names))
            action = d.variant.dealt_bot_action(e, level, random.Random(g.version))
            return seat, action, g.version

    def run_bots(self, game_id: str, delay: float = 0.0) -> int:
        """Bots play in ``game_id`` until a human must act (or the game ends); the moves made."""
        made = 0
        for _ in range(BOT_LIMIT):
            move = self._bot_move(game_id)
            if move is None:
                return made
            if delay > 0:
                time.sleep(delay)
            seat, action, version = move
            before = self._hands_over(game_id)
            try:
                self._play(game_id, None, seat, action, None, version)
            except StaleVersion:
                continue  # someone else moved meanwhile: look again
            except (IllegalAction, Conflict) as exc:
                if exc.code == "board_pending":
                    return made
                log.error("bot in seat %d of game %s chose an illegal move %r: %s", seat, game_id, action, exc)
                return made
            made += 1
            if delay > 0 and self.hand_pause > 0 and self._bots_only(game_id) and self._hands_over(game_id) > before:
                time.sleep(self.hand_pause)  # the hand-over panel on the phones that watch
        return made

    def _hands_over(self, game_id: str) -> int:
        with self._lock:
            g = self.library.get(game_id)
            return g.dealt.hands_over() if g is not None and g.dealt is not None else 0

    def _bots_only(self, game_id: str) -> bool:
        with self._lock:
            g = self.library.get(game_id)
            return g is not None and g.dealt is not None and len(g.dealt.bots) == len(g.dealt.names)

    def after_dealt(self, game_id: str) -> None:
        """After a change to a dealt game: let the bots move (now, or on a thread with a delay)."""
        if self.bot_delay <= 0:
            self.run_bots(game_id)
            return
        running = self._bot_threads
        with self._lock:
            if game_id in running:
                return
            running.add(game_id)

        def work() -> None:
            try:
                self.run_bots(game_id, self.bot_delay)
            except Exception:
                log.exception("the bots of game %s stopped", game_id)
            finally:
                with self._lock:
                    running.discard(game_id)
            if self._bot_move(game_id) is not None:  # a human moved while the thread was finishing
                self.after_dealt(game_id)

        threading.Thread(target=work, name=f"bots-{game_id}", daemon=True).start()

    def resume_bots(self) -> None:
        """At start-up: the bots of every open dealt game whose turn it is move on."""
        with self._lock:
            gids = [gid for gid, g in self.library.open.items() if g.dealt is not None]
        for gid in gids:
            self.after_dealt(gid)


__all__ = ["Dealing", "BOT_LIMIT"]
