"""Board sync: what the sensors see against what the Gin-Go game expects.

:func:`compare` is the pure part: given the expected board and the sensed one (52
characters ``.``, ``1``, ``2`` in space order, or None while the sensors are offline) it
lists *every* disagreement at once: chips still to place (``pending``), opposing chips
still to bump (``bumps``) and chips where none belong (``unexpected``). Links are always
checked on the sensed board, so what the players see is what counts.

:class:`BoardSync` is the running part: it feeds sensed snapshots from the sensing
pipeline, reads the expected board from the table (or mirrors the sensed board when
no Gin-Go game is running), announces a link formed or broken through ``publish``,
drives the LEDs at ``fps`` frames a second on a thread (re-sending frames even when
nothing changes) and turns button presses into table commands.

>>> view = compare("11" + "." * 50, "1." + "2" + "." * 49)
>>> view["mismatches"], view["pending"], view["unexpected"], view["bumps"]
([1, 2], [1], [2], [])
>>> compare(None, None)["sensed"] is None
True
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.board import Board
from companion.hardware import scene as scene_mod
from companion.hardware.sensing import SensingPipeline
from companion.table import Table, TableError

log = logging.getLogger(__name__)

SPACES = 52
Publish = Callable[[dict[str, Any]], None]
_CHARS = frozenset(".12")


def check_board(board: str, what: str = "board") -> str:
    """``board`` if it is 52 characters of ``.``, ``1``, ``2``; else ``ValueError``."""
    if not isinstance(board, str) or len(board) != SPACES or not set(board) <= _CHARS:
        raise ValueError(f"a {what} is {SPACES} characters of '.', '1', '2' in space order; got {board!r}")
    return board


def links_of(board: str | None, adjacency: str = "king8") -> tuple[dict[str, list[int] | None], dict[str, int | None]]:
    """Each side's A-to-K link on ``board`` (a list of spaces or None) and how many
    more chips it needs at least (0 when linked). All None when the board is unknown."""
    empty: dict[str, list[int] | None] = {"1": None, "2": None}
    nodist: dict[str, int | None] = {"1": None, "2": None}
    if board is None:
        return empty, nodist
    b = Board.from_string52(board, chip_cap=None, adjacency=adjacency)
    links: dict[str, list[int] | None] = {}
    dist: dict[str, int | None] = {}
    for side in (1, 2):
        path = b.link(side)
        links[str(side)] = None if path is None else [int(s) for s in path]
        d = b.link_distance(side)
        dist[str(side)] = None if d is None else int(d)
    return links, dist


def compare(expected: str | None, sensed: str | None, adjacency: str = "king8") -> dict[str, Any]:
    """Every difference between the expected and the sensed board, at once.

    With ``expected`` None (mirror mode) the sensed board is what is expected. With
    ``sensed`` None (sensors offline) nothing is compared and nothing is guessed.
    """
    if sensed is not None:
        check_board(sensed, "sensed board")
    if expected is not None:
        check_board(expected, "expected board")
    mirror = expected is None
    exp = sensed if mirror else expected
    pending: list[int] = []
    bumps: list[int] = []
    unexpected: list[int] = []
    if exp is not None and sensed is not None:
        for i, (e, s) in enumerate(zip(exp, sensed)):
            if e == s:
                continue
            if s == ".":
                pending.append(i)
            elif e == ".":
                unexpected.append(i)
            else:
                bumps.append(i)
    links, dist = links_of(sensed, adjacency)
    return {
        "expected": exp,
        "sensed": sensed,
        "mode": "mirror" if mirror else "game",
        "online": sensed is not None,
        "mismatches": sorted(pending + bumps + unexpected),
        "pending": pending,
        "bumps": bumps,
        "unexpected": unexpected,
        "links": links,
        "link_distance": dist,
    }


def link_news(before: dict[str, list[int] | None], after: dict[str, list[int] | None]) -> list[dict[str, Any]]:
    """Live messages for each side whose link appeared or went.

    >>> link_news({"1": None, "2": None}, {"1": [0, 4], "2": None})
    [{'type': 'link', 'side': 1, 'formed': True, 'path': [0, 4]}]
    """
    out = []
    for side in ("1", "2"):
        had, has = before.get(side) is not None, after.get(side) is not None
        if had != has:
            out.append({"type": "link", "side": int(side), "formed": has, "path": after.get(side)})
    return out


class BoardSync:
    """Sensors + expected board -> board view, link news and LED frames.

    ``sensors`` is a sensor backend (or None: no sensors at all, shown as offline);
    ``reopen`` opens the configured backend again (tried every ``reopen_every`` seconds
    while ``sensors`` is None, so a Pico plugged in later comes online); ``leds`` an LED
    backend (or None); ``publish`` receives live messages.
    """

    def __init__(
        self,
        table: Table,
        sensors: Any = None,
        leds: Any = None,
        *,
        layout: Any = None,
        fps: float = 25.0,
        publish: Publish | None = None,
        colors: Any = None,
        gin_seconds: float = 5.0,
        reopen: Callable[[], Any] | None = None,
        reopen_every: float = 5.0,
        shutdown: Callable[[], str | None] | None = None,
    ) -> None:
        self.table = table
        self.shutdown = shutdown
        self.sensors = sensors
        self.leds = leds
        self.layout = layout
        self.fps = fps
        self.gin_seconds = gin_seconds
        self.reopen = reopen
        self.reopen_every = reopen_every
        self._reopener: threading.Thread | None = None
        self._news_thread: threading.Thread | None = None
        self._dirty = threading.Event()
        self.publish: Publish = publish or (lambda msg: None)
        self._lock = threading.Lock()
        self._news_lock = threading.Lock()
        self._sensed: str | None = None
        self._online = False
        self._links: dict[str, list[int] | None] = {"1": None, "2": None}
        self._pipeline: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._gin_since: float | None = None
        self._gin: int | None = None
        self.colors = colors
        self._unsubscribe: Callable[[], None] | None = None
        self.frames = 0

    # -- names for /health -------------------------------------------------------------

    @property
    def sensors_name(self) -> str:
        if self.sensors is None or not self._online:
            return "offline"
        return str(getattr(self.sensors, "name", "sensors"))

    @property
    def leds_name(self) -> str:
        return "none" if self.leds is None else str(getattr(self.leds, "name", "leds"))

    @property
    def is_sim(self) -> bool:
        return self.sensors is not None and hasattr(self.sensors, "put")

    # -- state ------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The board view (``GET /api/v1/board``)."""
        with self._lock:
            sensed = self._sensed if self._online else None
        active = self.table.active_gingo()
        adjacency = "king8" if active is None else str(active["options"].get("adjacency", "king8"))
        view = compare(None if active is None else str(active["board"]), sensed, adjacency)
        view["game"] = None if active is None else active["id"]
        view["sensors"] = self.sensors_name
        view["leds"] = self.leds_name
        return view

    def sensed(self, board: str | None) -> None:
        """A new stable sensed board (None: the sensors went offline)."""
        if board is not None:
            check_board(board, "sensed board")
        with self._lock:
            self._sensed = board
            self._online = board is not None
        self._after_change()

    def _after_change(self) -> None:
        """Something changed: the news thread (when running) recomputes the board view
        and announces links one change at a time, in order; without it, do it here."""
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
        self.publish({"type": "board", "board": view})
        for msg in news:
            self.publish(msg)

    def _news_loop(self) -> None:
        while not self._stop.is_set():
            if not self._dirty.wait(0.5):
                continue
            self._dirty.clear()
            try:
                self._announce()
            except Exception:  # a listener bug must not stop the announcements
                log.exception("board news failed")

    def put_sim(self, space: int, side: int | None) -> dict[str, Any]:
        """Put (side 1 or 2) or lift (None) a chip on the simulated board."""
        if not self.is_sim:
            raise TableError("not_simulated", "the board is not simulated: move the real chip", 409)
        if isinstance(space, bool) or not isinstance(space, int) or not 0 <= space < SPACES:
            raise TableError("invalid", f"space must be 0..{SPACES - 1}, got {space!r}")
        if side not in (1, 2, None):
            raise TableError("invalid", f"side must be 1, 2 or null, got {side!r}")
        self.sensors.put(space, side)
        if self._pipeline is None:  # no sensing thread: the simulated board is read directly
            with self._lock:
                base = list(self._sensed or "." * SPACES)
                base[space] = "." if side is None else str(side)
            self.sensed("".join(base))
        return {"space": space, "side": side}

    def wait_sensed(self, board_predicate: Callable[[str | None], bool], timeout: float = 2.0) -> bool:
        """Wait until the sensed board satisfies ``board_predicate`` (tests, tools)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                b = self._sensed if self._online else None
            if board_predicate(b):
                return True
            time.sleep(0.01)
        return False

    # -- running -------------------------------------------------------------------------

    def start(self) -> None:
        """Start sensing, table listening and the LED thread."""
        self._stop.clear()
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
        game = msg.get("game")
        if isinstance(game, dict) and (game.get("rules") or {}).get("on_board"):  # a game played on the board
            self._after_change()

    # -- buttons -------------------------------------------------------------------------

    def button(self, name: str) -> None:
        """A board button: ``undo`` undoes the last event of the active Gin-Go game,
        ``next_hand`` deals the next hand, ``confirm`` tells the phones the board is
        set; ``shutdown`` (a long hold) tells the phones and powers the Pi off through
        the ``shutdown`` callback, which returns an error text or None. Errors are
        published, never raised into the button thread."""
        if name == "shutdown":
            self.publish({"type": "shutdown", "board": None})
            failed = self.shutdown() if self.shutdown is not None else (
                "shutting down is not set up on this board: unplug it, or run 'sudo poweroff'")
            if failed:
                self.publish({"type": "button", "name": name, "error": failed})
            return
        active = self.table.active_gingo()
        try:
            if name == "confirm":
                self.publish({"type": "confirm", "board": self.state()})
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
        view = self.state()
        if self.layout is not None:
            try:
                return list(scene_mod.render_scene(_scene_input(scene_mod, view, self._gin_side(), self.colors),
                                                   t, self.layout))
            except Exception as exc:  # a scene bug must not stop the service
                log.warning("scene render failed (%s); showing the plain board", exc)
        return _plain_frame(view, self.layout, getattr(self.leds, "count", 60))

    def _gin_side(self) -> int | None:
        """The side whose link formed in the last ``gin_seconds`` (the LED chase)."""
        if self._gin_since is None or time.monotonic() - self._gin_since > self.gin_seconds:
            return None
        return self._gin

    def _led_loop(self) -> None:
        period = 1.0 / max(1.0, self.fps)
        nxt = time.monotonic()
        while not self._stop.is_set():
            try:
                self.leds.set_pixels(self.frame(time.monotonic()))
                self.leds.show()
                self.frames += 1
            except Exception as exc:
                log.warning("LED frame failed: %s", exc)
                self._stop.wait(0.5)
            nxt += period
            self._stop.wait(max(0.0, nxt - time.monotonic()))
            nxt = max(nxt, time.monotonic() - period)


def scene_fields(view: dict[str, Any], gin: int | None = None,
                 game: dict[str, Any] | None = None) -> dict[str, Any]:
    """The :class:`companion.hardware.scene.SceneInput` fields for a board view.

    >>> f = scene_fields(compare("1" + "." * 51, "2" + "." * 51))
    >>> f["bump"], f["pending"]
    ({0: 2}, {})
    """
    exp = view["expected"] or view["sensed"] or "." * SPACES
    sensed = view["sensed"]
    pending = {s: int(exp[s]) for s in view["pending"]}
    bump = {s: int(sensed[s]) for s in view["bumps"]} if sensed is not None else {}
    links = {int(k): v for k, v in view["links"].items()}
    out: dict[str, Any] = {"expected": exp, "sensed": sensed, "links": links, "pending": pending,
                           "bump": bump, "gin": gin}
    state = (game or {}).get("state") or {}
    rows = state.get("suit_rows")
    if isinstance(rows, dict):
        out["suit_rows"] = {int(k): str(v) for k, v in rows.items() if str(k) in ("1", "2") and isinstance(v, str)
                            and len(v) == 4}
    return out


def _scene_input(scene_mod: Any, view: dict[str, Any], gin: int | None, colors: Any) -> Any:
    fields = scene_fields(view, gin)
    if colors:
        fields["colors"] = dict(colors)
    return scene_mod.SceneInput(**fields)


_COLOURS = {"1": (200, 0, 0), "2": (0, 160, 0)}


def _plain_frame(view: dict[str, Any], layout: Any, count: int) -> list[tuple[int, int, int]]:
    """Steady side colours for the sensed chips, white for a mismatch (no scene module)."""
    out = [(0, 0, 0)] * count
    board = view.get("sensed") or ""
    bad = set(view.get("mismatches") or ())
    for space, ch in enumerate(board):
        led = layout.space_led(space) if layout is not None else space
        if led >= count:
            continue
        if space in bad:
            out[led] = (120, 120, 120)
        elif ch in _COLOURS:
            out[led] = _COLOURS[ch]
    return out
