"""Board sync, the running part: the threads and adapters around the pure board view.

:class:`BoardSync` feeds sensed snapshots from the sensing pipeline (classified with the
calibration it is given), reads the expected board from the game it shows, one source
(:meth:`BoardSync.shown`): the table's Gin-Go game or a game another board owns that this
board follows (:class:`Followed`, a remote game's public state), or mirrors the sensed
board when no Gin-Go game is running; it announces a link formed or broken through
``publish``, drives the LEDs and turns button presses into table commands. Everything it
computes comes from :mod:`companion.boardview` (pure, no threads, no I/O).

Work is done when something changes, never on a clock (host CPU: an idle board costs
nothing). The LED picture is built again when it may have changed: a sensed change, a
table commit of a game played on the board, a setting (:meth:`BoardSync.picture_changed`),
the end of the Gin chase; its frame is rendered and shown then. Only an animation (a
pulse, a flash, the chase, blinking offline markers) ticks, at ``fps`` frames a second
and only while one shows; a still picture is shown once and sent again every
``refresh`` seconds without rendering (a strip or a Pico that lost power catches up).

>>> from companion.store import open_store
>>> import tempfile, pathlib
>>> sync = BoardSync(Table(open_store(pathlib.Path(tempfile.mkdtemp()))))
>>> sync.sensed("1" + "." * 51)
>>> sync.state()["sensed"][:2], sync.state()["mode"]
('1.', 'mirror')
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from companion.errors import Conflict, InvalidInput
from companion.boardview import SPACES, board_view, check_board, compare, link_news, plain_frame, scene_fields
from companion.hardware import scene as scene_mod
from companion.hardware.classify import Classifier
from companion.hardware.sensing import SensingPipeline
from companion.games.registry import find_variant
from companion.table import Table

log = logging.getLogger(__name__)

Publish = Callable[[dict[str, Any]], None]
__all__ = ["BoardSync", "Followed", "compare", "scene_fields"]


class Followed(Protocol):
    """The games this board shows but another board owns: the remote games it follows as
    the guest (:mod:`companion.mqtt.remote` is one; this module never imports it).

    ``board_games`` are the Gin-Go games followed with no log here (their owner's public
    games, as everyone sees them: no card of a hand in play); a game followed with a copy
    in the local log is the table's (:meth:`companion.table.Table.active_gingo` finds it).
    ``owner_of`` names the board that owns a game (None: this board owns it);
    ``button`` sends a board button's press on such a game to its owner, and publishes
    the owner's refusal itself (it never raises into the button thread).
    """

    def board_games(self) -> list[dict[str, Any]]: ...

    def owner_of(self, game_id: str) -> str | None: ...

    def button(self, game_id: str, name: str) -> None: ...


class Shown(NamedTuple):
    """The game the board shows (None: mirror mode), and whether another board owns it
    with no log here (a followed game: its ``seq`` is its owner's log's)."""

    game: dict[str, Any] | None
    followed: bool = False


class BoardSync:
    """Sensors + expected board -> board view, link news and LED frames.

    ``sensors`` is a sensor backend (or None: no sensors at all, shown as offline);
    ``reopen`` opens the configured backend again (tried every ``reopen_every`` seconds
    while ``sensors`` is None, so a Pico plugged in later comes online); ``leds`` an LED
    backend (or None); ``publish`` receives live messages; ``classifier`` turns readings
    into chips (built from the calibration file by :mod:`companion.commands.assemble`; None: the
    default thresholds).
    """

    def __init__(
        self,
        table: Table,
        sensors: Any = None,
        leds: Any = None,
        *,
        layout: Any = None,
        fps: float = 25.0,
        refresh: float = 2.0,
        publish: Publish | None = None,
        colors: Any = None,
        palette: Any = None,
        gin_seconds: float = 5.0,
        reopen: Callable[[], Any] | None = None,
        reopen_every: float = 5.0,
        shutdown: Callable[[], str | None] | None = None,
        classifier: Classifier | None = None,
    ) -> None:
        self.table = table
        table.dealing.board_gate = self._disagrees  # dealt Gin-Go waits for the chips before the next turn
        self.classifier = classifier
        self.shutdown = shutdown
        self.sensors = sensors
        self.leds = leds
        self.layout = layout
        self.fps = fps
        if not 0.1 <= refresh <= 60:
            raise ValueError(f"the LED refresh must be 0.1 to 60 seconds, got {refresh!r}")
        self.refresh = refresh
        self.gin_seconds = gin_seconds
        self.reopen = reopen
        self.reopen_every = reopen_every
        self._reopener: threading.Thread | None = None
        self._news_thread: threading.Thread | None = None
        self._dirty = threading.Event()
        #: the LED picture may have changed: the LED thread builds it again
        self._picture_dirty = threading.Event()
        self._led_lock = threading.Lock()  # one LED writer at a time: the LED thread or a sensed change
        self._pic: _Picture | None = None
        self._shown: list[tuple[int, int, int]] | None = None
        self._pushed = 0.0
        self._sensed_cond = threading.Condition()
        self.publish: Publish = publish or (lambda msg: None)
        self._lock = threading.Lock()
        self._news_lock = threading.Lock()
        self._sensed: str | None = None
        #: the table's last seq when the sensed board last went from chips to empty
        self._emptied: int | None = None
        #: and then each followed game's seq (its owner's log's): a finished one shows until then
        self._emptied_followed: dict[str, int] = {}
        #: the games another board owns that this board follows (see :meth:`follow`)
        self.followed: Followed | None = None
        #: which was touched last, in the order of touches: the local table's board game
        #: (a commit) or a followed game (a change its owner sent); the board shows it
        self._touches = 0
        self._touched: dict[str | None, int] = {}
        self._online = False
        self._links: dict[str, list[int] | None] = {"1": None, "2": None}
        self._pipeline: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._gin_since: float | None = None
        self._gin: int | None = None
        self.colors = colors
        #: the LED palette (companion.hardware.palette.LedPalette): warning colour, resting level
        self.palette = palette
        self._unsubscribe: Callable[[], None] | None = None
        #: LED frames shown (each a new picture, an animation tick or a refresh)
        self.frames = 0
        #: pictures built (the board view read and a scene made: sensed or table changes)
        self.pictures = 0

    # -- names for /health -------------------------------------------------------------

    @property
    def sensors_name(self) -> str:
        if self.sensors is None or not self._online:
            return "offline"
        return str(getattr(self.sensors, "name", "sensors"))

    @property
    def leds_name(self) -> str:
        return "none" if self.leds is None else str(getattr(self.leds, "name", "leds"))

    def hardware_warnings(self) -> list[str]:
        """What the sensor link says is wrong now (a Pico that refuses to run, a HELLO
        that disagrees with the LED config), for ``/api/v1/health``."""
        receiver = getattr(getattr(self.sensors, "link", None), "receiver", None)  # a Pico's frames
        problems = getattr(receiver, "problems", None)
        return list(problems()) if callable(problems) else []

    @property
    def is_sim(self) -> bool:
        return self.sensors is not None and hasattr(self.sensors, "put")

    # -- state ------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The board view (``GET /api/v1/board``)."""
        return self._view(self.shown())

    def follow(self, followed: Followed) -> None:
        """Show the games ``followed`` holds too (a guest board: its remote games)."""
        self.followed = followed

    def followed_changed(self, game_id: str) -> None:
        """A followed game changed (its owner sent it): the board shows it now, as it shows
        the local game of the last commit; from any thread."""
        with self._lock:
            self._touches += 1
            self._touched[game_id] = self._touches
        self.picture_changed()  # the LED thread draws it: never on the caller's (the MQTT loop's) thread
        if self._news_thread is not None:
            self._dirty.set()  # the board view on the live channel

    def shown(self) -> Shown:
        """The game the board shows: the table's Gin-Go game
        (:meth:`~companion.table.Table.active_gingo`) or a followed one, whichever was
        touched last (a followed game never touched since start loses to the table's)."""
        local = self.table.active_gingo()
        followed = self.followed.board_games() if self.followed is not None else []
        if not followed:
            return Shown(local)
        with self._lock:
            touched = dict(self._touched)
        best = max(followed, key=lambda g: touched.get(str(g.get("id")), 0))
        if local is None or touched.get(str(best.get("id")), 0) > touched.get(None, 0):
            return Shown(best, True)
        return Shown(local)

    def _view(self, shown: Shown) -> dict[str, Any]:
        active = shown.game
        with self._lock:
            sensed = self._sensed if self._online else None
            emptied = self._emptied_followed.get(str(active.get("id"))) if active is not None and shown.followed \
                else self._emptied
        # a finished game shows until its chips are cleared off: the board went empty
        # after the game's last event (never merely because no chip was ever placed)
        cleared = active is not None and emptied is not None and emptied >= int(active.get("seq") or 0)
        view = board_view(active, sensed, cleared=cleared)
        view["sensors"] = self.sensors_name
        view["leds"] = self.leds_name
        return view

    def _disagrees(self, game: Any) -> dict[str, Any] | None:
        """The board view while the board the sensors read differs from ``game``'s (the
        game the board follows), else None; never while the sensors are offline (nothing
        to wait for)."""
        with self._lock:
            sensed = self._sensed if self._online else None
        if sensed is None:
            return None
        active = self.shown().game
        if active is None or active.get("id") != game.id:
            return None
        view = board_view(active, sensed)
        return view if view["mismatches"] else None

    def sensed(self, board: str | None) -> None:
        """A new stable sensed board (None: the sensors went offline)."""
        if board is not None:
            check_board(board, "sensed board")
        followed = self.followed.board_games() if self.followed is not None else []
        with self._lock:
            before = self._sensed if self._online else None
            self._sensed = board
            self._online = board is not None
            if board is not None and before is not None and set(board) == {"."} and set(before) != {"."}:
                self._emptied = self.table.last_seq()  # the chips were cleared off
                self._emptied_followed = {str(g.get("id")): int(g.get("seq") or 0) for g in followed}
        with self._sensed_cond:
            self._sensed_cond.notify_all()
        self._after_change()

    def _after_change(self) -> None:
        """Something changed: the news thread (when running) recomputes the board view
        and announces links one change at a time, in order; without it, do it here."""
        self._redraw()
        if self._news_thread is not None:
            self._dirty.set()
        else:
            self._announce()

    def _announce(self) -> None:
        with self._news_lock:
            view = self.state()
            news = link_news(self._links, view["links"])
            self._links = view["links"]
            for msg in news:
                if msg["formed"]:
                    self._gin_since = time.monotonic()
                    self._gin = int(msg["side"])
            if news:
                self._picture_dirty.set()  # the Gin chase starts (or a link went)
        self.publish({"type": "board", "board": view})
        for msg in news:
            self.publish(msg)
        if view.get("sensed") is not None and not view.get("mismatches"):
            self.table.dealing.board_agreed()  # a dealt Gin-Go game waiting for the chips plays on

    def _news_loop(self) -> None:
        while True:
            self._dirty.wait()  # stop() sets it too: no timeout, no wake-up while nothing happens
            self._dirty.clear()
            if self._stop.is_set():
                return
            try:
                self._announce()
            except Exception:  # a listener bug must not stop the announcements
                log.exception("board news failed")

    def put_sim(self, space: int, side: int | None) -> dict[str, Any]:
        """Put (side 1 or 2) or lift (None) a chip on the simulated board."""
        if not self.is_sim:
            raise Conflict("the board is not simulated: move the real chip", code="not_simulated")
        if isinstance(space, bool) or not isinstance(space, int) or not 0 <= space < SPACES:
            raise InvalidInput(f"space must be 0..{SPACES - 1}, got {space!r}")
        if side not in (1, 2, None):
            raise InvalidInput(f"side must be 1, 2 or null, got {side!r}")
        self.sensors.put(space, side)
        if self._pipeline is None:  # no sensing thread: the simulated board is read directly
            with self._lock:
                base = list(self._sensed or "." * SPACES)
                base[space] = "." if side is None else str(side)
            self.sensed("".join(base))
        return {"space": space, "side": side}

    def wait_sensed(self, board_predicate: Callable[[str | None], bool], timeout: float = 2.0) -> bool:
        """Wait until the sensed board satisfies ``board_predicate`` (tests, tools):
        woken by each sensed change, not by a clock."""

        def holds() -> bool:
            with self._lock:
                b = self._sensed if self._online else None
            return board_predicate(b)

        with self._sensed_cond:
            return self._sensed_cond.wait_for(holds, timeout)

    # -- running -------------------------------------------------------------------------

    def start(self) -> None:
        """Start sensing, table listening and the LED thread."""
        self._stop.clear()
        self._picture_dirty.set()
        self._news_thread = threading.Thread(target=self._news_loop, name="gingo-board-news", daemon=True)
        self._news_thread.start()
        self._unsubscribe = self.table.subscribe(self._on_table)
        if self.sensors is not None:
            self._start_pipeline()
        elif self.reopen is not None:  # configured sensors that could not start: keep trying
            self._reopener = threading.Thread(target=self._reopen_loop, name="gingo-sensors-retry", daemon=True)
            self._reopener.start()
        if self.leds is not None:
            self._thread = threading.Thread(target=self._led_loop, name="gingo-leds", daemon=True)
            self._thread.start()

    def _start_pipeline(self) -> None:
        self._pipeline = SensingPipeline(
            self.sensors,
            self.classifier,
            on_change=lambda ch: self.sensed(ch.board),
            on_status=self._on_status,
        )
        self._pipeline.start()

    def _reopen_loop(self) -> None:
        """Try to open the configured sensors every ``reopen_every`` seconds until they start."""
        assert self.reopen is not None
        while not self._stop.wait(self.reopen_every):
            try:
                backend = self.reopen()
            except Exception as exc:
                log.info("sensors still unavailable: %s", exc)
                continue
            if self._stop.is_set():
                backend.close()
                return
            self.sensors = backend
            self._start_pipeline()
            self.publish({"type": "sensors", "online": False, "found": str(getattr(backend, "name", "sensors"))})
            return

    def stop(self) -> None:
        self._stop.set()
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._reopener is not None:
            self._reopener.join(timeout=2.0)
        self._dirty.set()
        self._picture_dirty.set()
        if self._news_thread is not None:
            self._news_thread.join(timeout=2.0)
            self._news_thread = None
        if self._pipeline is not None:
            self._pipeline.stop()
        elif self.sensors is not None:
            self.sensors.close()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        if self.leds is not None:
            try:
                self.leds.close()
            except Exception:
                pass

    def _on_status(self, online: bool) -> None:
        pipeline = self._pipeline
        if not online:
            self.sensed(None)
        elif pipeline is not None:
            self.sensed(pipeline.snapshot())
        self.publish({"type": "sensors", "online": online})

    def _on_table(self, ev: Any, msg: dict[str, Any]) -> None:
        """A table commit: the LED picture of a game played on the board may have changed
        (the live channel carries the event itself; the board news follow the sensors)."""
        game = msg.get("game")
        if isinstance(game, dict) and _on_board(game):
            with self._lock:
                self._touches += 1
                self._touched[None] = self._touches
            self.picture_changed()

    def picture_changed(self) -> None:
        """The LED picture may have changed (a table commit, a setting such as the colours):
        the LED thread builds and shows it again."""
        self._picture_dirty.set()

    # -- buttons -------------------------------------------------------------------------

    def button(self, name: str) -> None:
        """A board button: ``undo`` undoes the last event of the active Gin-Go game,
        ``next_hand`` deals the next hand, ``confirm`` tells the phones the board is
        set; ``shutdown`` (a long hold) tells the phones and powers the Pi off through
        the ``shutdown`` callback, which returns an error text or None. Errors are
        published, never raised into the button thread. On a game another board owns
        (:class:`Followed`), ``undo`` and ``next_hand`` go to that board, as the same
        request from a phone here would (docs/remote.md)."""
        if name == "shutdown":
            self.publish({"type": "shutdown", "board": None})
            failed = self.shutdown() if self.shutdown is not None else (
                "shutting down is not set up on this board: unplug it, or run 'sudo poweroff'")
            if failed:
                self.publish({"type": "button", "name": name, "error": failed})
            return
        shown = self.shown()
        active = shown.game
        try:
            if name == "confirm":
                self.publish({"type": "confirm", "board": self._view(shown)})
            elif active is not None and name in ("undo", "next_hand") and self.followed is not None \
                    and self.followed.owner_of(str(active["id"])) is not None:
                self.followed.button(str(active["id"]), name)
            elif active is None:
                self.publish({"type": "button", "name": name, "error": "no Gin-Go game is running"})
            elif name == "undo":
                self.table.undo(active["id"])
            elif name == "next_hand":
                self.table.action(active["id"], {"type": "new_hand"})
            else:
                self.publish({"type": "button", "name": name, "error": f"unknown button {name!r}"})
        except ValueError as exc:
            self.publish({"type": "button", "name": name, "error": str(exc)})

    # -- LEDs ----------------------------------------------------------------------------

    def frame(self, t: float) -> list[tuple[int, int, int]]:
        """The LED frame for time ``t`` (the hardware scene renderer when installed)."""
        return self._picture().render(t)

    def _picture(self) -> _Picture:
        """The picture the LEDs show now: the board view and the game read once, the
        scene built from them, whether it animates and until when it holds."""
        self.pictures += 1
        shown = self.shown()
        active = shown.game
        view = self._view(shown)
        count = getattr(self.leds, "count", 60)
        until = None
        if self._gin_since is not None:
            ends = self._gin_since + self.gin_seconds
            until = ends if ends > time.monotonic() else None
        if self.layout is not None:
            try:
                scene = self.scene_input(view, active)
                return _Picture(scene, self.layout, scene_mod.animates(scene), until,
                                plain_frame(view, self.layout, count))
            except Exception as exc:  # a scene bug must not stop the service
                log.warning("scene render failed (%s); showing the plain board", exc)
        return _Picture(None, self.layout, False, None, plain_frame(view, self.layout, count))

    def scene_input(self, view: dict[str, Any], active: dict[str, Any] | None) -> scene_mod.SceneInput:
        """The LED scene's input for ``view`` of the ``active`` game: links, chips to place
        and bump, the Gin chase, the suit rows and the side to play."""
        fields = scene_fields(view, self._gin_side(), active)
        if self.colors:
            fields["colors"] = dict(self.colors)
        if self.palette is not None:
            fields["warning"] = self.palette.warning
            fields["steady"] = self.palette.steady
        return scene_mod.SceneInput(**fields)

    def _gin_side(self) -> int | None:
        """The side whose link formed in the last ``gin_seconds`` (the LED chase)."""
        if self._gin_since is None or time.monotonic() - self._gin_since >= self.gin_seconds:
            return None
        return self._gin

    def _redraw(self) -> None:
        """A sensed change: build the picture and show it at once, on the caller's thread
        (the sensing thread: no hand-over to another thread between a chip and its LED)."""
        if self._thread is None or self._stop.is_set():
            return
        try:
            self._draw(rebuild=True)
        except Exception as exc:
            log.warning("LED frame failed: %s", exc)
            self._picture_dirty.set()  # the LED thread tries again

    def _draw(self, rebuild: bool) -> _Picture:
        """Show the picture's frame for now if it differs from the one shown (or the
        refresh is due); build the picture first when asked, or when the chase ended."""
        with self._led_lock:
            now = time.monotonic()
            pic = self._pic
            if rebuild or pic is None or (pic.until is not None and now >= pic.until):
                pic = self._pic = self._picture()
            frame = pic.render(now)
            if frame != self._shown or now - self._pushed >= self.refresh:
                self.leds.set_pixels(frame)
                self.leds.show()
                self.frames += 1
                self._shown, self._pushed = frame, now
            return pic

    def _led_loop(self) -> None:
        """Tick only while the picture animates; otherwise sleep until it changes or the
        refresh is due."""
        period = 1.0 / max(1.0, self.fps)
        while not self._stop.is_set():
            start = time.monotonic()
            rebuild = self._picture_dirty.is_set()
            if rebuild:  # cleared only once seen: a change after this check wakes the next wait
                self._picture_dirty.clear()
            try:
                pic = self._draw(rebuild)
            except Exception as exc:
                log.warning("LED frame failed: %s", exc)
                with self._led_lock:
                    self._pic, self._shown = None, None
                self._stop.wait(0.5)
                continue
            if pic.animated:
                wait = period - (time.monotonic() - start)
            else:
                wait = self._pushed + self.refresh - time.monotonic()
            if pic.until is not None:
                wait = min(wait, pic.until - time.monotonic())
            self._picture_dirty.wait(max(0.0, wait))


def _on_board(game: dict[str, Any]) -> bool:
    """True for a game (its summary line) played on the board: Gin-Go."""
    try:
        return bool(find_variant(game.get("variant")).on_board)
    except Exception:  # an unknown variant: not on the board
        return False


class _Picture:
    """What the LEDs show until something changes: a scene (None: the plain board)."""

    __slots__ = ("scene", "layout", "animated", "until", "plain")

    def __init__(self, scene: scene_mod.SceneInput | None, layout: Any, animated: bool, until: float | None,
                 plain: list[tuple[int, int, int]]) -> None:
        self.scene, self.layout, self.animated, self.until, self.plain = scene, layout, animated, until, plain

    def render(self, t: float) -> list[tuple[int, int, int]]:
        if self.scene is not None:
            try:
                return list(scene_mod.render_scene(self.scene, t, self.layout))
            except Exception as exc:  # a scene bug must not stop the service
                log.warning("scene render failed (%s); showing the plain board", exc)
        return self.plain
