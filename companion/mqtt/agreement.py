"""Remote play: both boards' chips agree with the game before the next move.

Each board's own sensors check its own chips. The guest says where it is (its version,
and whether its chips match) in a *report*; the host keeps the last report and refuses a
move with 409 ``boards_disagree`` until both boards match the game (PicoChess's rule of
arming only when both boards agree), except while the guest is offline: then the host
plays on. :class:`Agreement` is that rule for one board, a part of
:class:`~companion.mqtt.remote.RemotePlay` (``play``).

A remote **dealt** Gin-Go game has no copy on the guest, so no version of the guest's to
compare: the guest reports the chips its sensors read (``sensed``, 52 characters, public
at the table anyway), and the host compares them with the game's board itself
(:meth:`Agreement.dealt_wait`): the next turn waits, as for the host's own chips, with 409
``board_pending`` naming the guest's board and every space still wrong on it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from companion.boardview import board_view, check_board
from companion.errors import CompanionError, Conflict
from companion.games import VARIANTS
from companion.mqtt.wire import RemoteGame, prefix, sealed
from companion.table.state import GameState

log = logging.getLogger("companion.mqtt.remote")



def on_board(variant: Any) -> bool:
    """Whether a game of ``variant`` is played on the board (its chips are compared).

    >>> on_board("gingo"), on_board("gin"), on_board(None)
    (True, False, False)
    """
    game = VARIANTS.get(variant) if isinstance(variant, str) else None
    return bool(game is not None and game.on_board)

class Agreement:
    """The both-boards rule of one board (see the module docstring)."""

    def __init__(self, play: Any) -> None:
        self.play = play
        self.reports: dict[str, dict[str, Any]] = {}  # host: game id -> the guest's last report
        #: host: each hosted game's (version, board) after its last commit, and the board
        #: this board's sensors read last (None: offline); what the write guard compares
        self.boards: dict[str, tuple[int, str]] = {}
        self.sensed: str | None = None
        #: host: the chips the guest's sensors read last, per remote dealt game (None: offline)
        self.peer_sensed: dict[str, str | None] = {}
        self._asked: dict[str, float] = {}  # host: when it last asked a guest for its report
        self._reported: dict[str, Any] = {}  # guest: what it last said, per game
        self._dirty: asyncio.Event | None = None

    def start(self) -> None:
        """Follow this board's sensors, and learn each hosted game's board."""
        play = self.play
        for g in play.games.values():
            if g.role == "host" and not g.dealt:
                self.learn(g.id)
        sync = play.sync
        if sync is not None:
            previous = sync.publish
            self.sensed = sync.state().get("sensed")

            def fan(msg: dict[str, Any]) -> None:
                previous(msg)
                if msg.get("type") == "board":
                    view = msg.get("board") or {}
                    self.sensed = view.get("sensed")
                    play.call(self.report_soon)

            sync.publish = fan
        self._dirty = asyncio.Event()

    def learn(self, gid: str) -> None:
        """Read a hosted game's version and board from the table (at start, at creation)."""
        try:
            summary = self.play.table.summary(gid)
        except CompanionError:
            return
        if summary.get("board") is not None:
            self.boards.setdefault(gid, (int(summary["version"]), str(summary["board"])))

    def committed(self, gid: str, game: dict[str, Any]) -> None:
        """A commit on a hosted game: its version and board now."""
        if isinstance(game.get("version"), int):
            self.boards[gid] = (game["version"], str(game.get("board")))

    def describe(self, gid: str) -> dict[str, Any]:
        """Host: what the guest last said, and whether this board's chips match."""
        report = self.reports.get(gid) or {}
        known = self.boards.get(gid)
        return {"peer_version": report.get("version"), "peer_agrees": report.get("agree"),
                "own_agrees": None if self.sensed is None or known is None else known[1] == self.sensed}

    def note(self, gid: str, report: Any) -> bool:
        """Host: keep a guest's report ``{version, agree}``; False when it has another shape."""
        if isinstance(report, dict) and isinstance(report.get("version"), int) and \
                not isinstance(report.get("version"), bool) and report.get("agree") in (True, False, None):
            self.reports[gid] = {"version": report["version"], "agree": report["agree"]}
            return True
        return False

    # -- a remote dealt Gin-Go game: the guest's chips ------------------------------------------

    def note_sensed(self, gid: str, sensed: Any) -> bool:
        """Host: keep the chips a guest's board reads in dealt game ``gid`` (None: its
        sensors are offline); False when ``sensed`` is not a board. When they changed, the
        phones here look again and bots waiting for the board move on."""
        if sensed is not None:
            try:
                check_board(sensed, "sensed board")
            except ValueError:
                return False
        if self.peer_sensed.get(gid, "?") != sensed:
            self.peer_sensed[gid] = sensed
            self.board_changed(gid)
        return True

    def board_changed(self, gid: str | None = None) -> None:
        """Host: what a dealt game waits for may have changed (the guest's chips, or the
        guest came or went): tell this board's phones, and let waiting bots move."""
        play = self.play
        play.announce({"type": "remote", "game": gid, "peer_board": True})
        if play._loop is not None:
            play.spawn(asyncio.to_thread(play.table.dealing.board_agreed), "gingo-remote-board-agreed")

    def dealt_wait(self, g: GameState, own: dict[str, Any] | None) -> dict[str, Any] | None:
        """Host (the table's ``remote_wait``, under its lock): what a dealt turn of a game on
        the board waits for, with the board named. This board's own chips first (``own``,
        from its sensors); then the guest's, from its last report, while it is online with
        its sensors on, compared with the chips the game's Variant says the board should
        show (:meth:`~companion.games.base.Variant.board_position`)."""
        play = self.play
        r = play.games.get(g.id)
        if r is None or r.role != "host" or not r.dealt:
            return own
        if own is not None:
            return {**own, "board": play.board_id}
        sensed = self.peer_sensed.get(r.id)
        if sensed is None or r.guest is None or play.presence.get(r.guest) != "online" \
                or play.link.status != "online":
            return None  # a guest away, or without sensors, holds nobody up
        position = g.rules.board_position(g.table_game)
        if position is None:  # pragma: no cover - only a game on the board is dealt on it
            return None
        view = board_view({**position, "id": r.id}, sensed)
        if not view["mismatches"]:
            return None
        wait = g.rules.board_wait(view, g.table_game)  # the guest's chips, in the game's words
        wait["board"] = r.guest
        wait["message"] = wait["message"].replace("the board does not", f"the other board ({r.guest}) does not", 1)
        return wait

    # -- the host's write guard ---------------------------------------------------------------

    def guard(self, before: Any, after: Any, etype: str) -> None:
        """Host only: a move waits until both boards' chips show the game (each board's own
        sensors check its own chips); while the guest is offline the host plays on."""
        play = self.play
        gid = getattr(before, "id", None)
        g = play.games.get(gid) if isinstance(gid, str) else None
        if g is None or not isinstance(gid, str) or g.role != "host" or g.dealt or etype == "game_deleted" \
                or not on_board(getattr(before, "variant", None)):  # only a game on the board has chips to compare
            return
        mine = self.host_agrees(gid, before.version)
        if mine is False:
            raise Conflict("the chips on this board differ from the game: move them as the "
                           "LEDs show first", code="boards_disagree")
        if g.guest is None or play.presence.get(g.guest) != "online" or play.link.status != "online":
            return
        report = self.reports.get(gid)
        if report is None or report["version"] != before.version or report["agree"] is False:
            if report is None or report["version"] != before.version:
                play.call(self.ask_report, g)  # a report lost on the way: ask for it again
            raise Conflict("the other board has not caught up or its chips differ from the "
                           "game: its LEDs show what to move", code="boards_disagree",
                           details={"peer": g.guest, "peer_report": report, "version": before.version})

    def ask_report(self, g: RemoteGame) -> None:
        """Host: ask the guest to say again where it is (at most once a second per game)."""
        now = time.monotonic()
        if now - self._asked.get(g.id, 0.0) < 1.0 or g.guest is None:
            return
        self._asked[g.id] = now
        guest = g.guest

        async def go() -> None:
            client = self.play.link.client
            if client is not None:
                topic = f"{prefix(g.id)}/to/{guest}"
                await client.publish(topic, sealed(g.secret, topic, {"kind": "report_please"}), qos=1)

        self.play.spawn(go())

    def host_agrees(self, gid: str, version: int) -> bool | None:
        """The host's own chips against ``gid`` at ``version`` (from the last commit's board
        and the last sensed board: a trial under the table's lock must not read the game,
        whose engine may already hold the move being tried). None: no sensors to check."""
        sensed = self.sensed
        if sensed is None or self.play.sync is None:
            return None
        known = self.boards.get(gid)
        return known is not None and known[0] == version and known[1] == sensed

    def own_agreement(self, gid: str) -> bool | None:
        """True: this board's sensed chips match ``gid``; False: they differ; None: no
        sensors online, or the board follows another game (nothing to check)."""
        sync = self.play.sync
        if sync is None:
            return None
        view = sync.state()
        if view.get("sensed") is None or view.get("game") != gid:
            return None
        return not view.get("mismatches")

    # -- the guest's reports -------------------------------------------------------------------

    def forget(self, gid: str | None = None) -> None:
        """Guest: say again where this board is (for ``gid``, or every game) at the next report."""
        if gid is None:
            self._reported.clear()
        else:
            self._reported.pop(gid, None)

    def report_soon(self) -> None:
        """Guest: say where this board is (its version, whether its chips match) once the
        reporter gets to it; many calls before then make one report."""
        if self._dirty is not None:
            self._dirty.set()

    async def reporter(self) -> None:
        assert self._dirty is not None
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            for g in [g for g in self.play.games.values() if g.role == "guest"]:
                try:
                    await self._report(g)
                except Exception as exc:
                    log.info("remote: report for %s not sent (%s)", g.id, exc)

    async def _report(self, g: RemoteGame) -> None:
        client = self.play.link.client
        if client is None:
            return
        if g.dealt:  # no copy here: the chips this board reads, which the host compares itself
            game = self.play.dealt.mirrors.get(g.id) or {}
            if not on_board(game.get("variant")) or self._reported.get(g.id) == ("sensed", self.sensed):
                return
            self._reported[g.id] = ("sensed", self.sensed)
            await self.play.request(client, g, {"kind": "report", "sensed": self.sensed})
            # this board's phones look again: their view, asked of the host on the same topic,
            # comes after the report (MQTT keeps one client's order on a topic)
            self.play.announce({"type": "remote", "game": g.id, "reported": True})
            return
        v = await self.play.version(g.id)
        agree = await asyncio.to_thread(self.own_agreement, g.id)
        if self._reported.get(g.id) == (v, agree):
            return
        self._reported[g.id] = (v, agree)
        await self.play.request(client, g, {"kind": "report", "version": v, "agree": agree})


__all__ = ["Agreement"]
