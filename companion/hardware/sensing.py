"""The sensing pipeline: backend -> classifier -> debouncer -> board changes.

:class:`SensingPipeline` reads scans from a :class:`~companion.hardware.sensors.SensorBackend`
on a daemon thread (or synchronously with :meth:`SensingPipeline.step` in tests), keeps
the stable board and calls ``on_change`` for every accepted change and ``on_status``
when the sensors go offline or come back. It never invents a move: while the backend
is offline :meth:`SensingPipeline.snapshot` is None.

>>> from companion.hardware.sensors.sim import SimSensors
>>> from companion.hardware.sensors import Readings
>>> p = SensingPipeline(SimSensors(seed=0))
>>> board = [32768] * 52
>>> board[5] = 45000
>>> changes = [p.step(Readings(n, tuple(board), n * 0.01)) for n in range(7)]
>>> [c for c in changes if c]
[BoardChange(board='.....1..............................................', changed=[5], seq=5)]
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from companion.hardware.classify import Classifier
from companion.hardware.debounce import Debouncer
from companion.hardware.sensors import Readings, SensorBackend

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class BoardChange:
    """An accepted change: the new ``board`` (52 chars ``. 1 2``), the ``changed``
    spaces and the ``seq`` of the scan that completed the debounce."""

    board: str
    changed: list[int]
    seq: int


class SensingPipeline:
    """Turn a backend's scans into stable snapshots and change events."""

    def __init__(
        self,
        backend: SensorBackend,
        classifier: Classifier | None = None,
        debouncer: Debouncer | None = None,
        on_change: Callable[[BoardChange], None] | None = None,
        on_status: Callable[[bool], None] | None = None,
    ) -> None:
        self.backend = backend
        self.classifier = classifier or Classifier()
        self.debouncer = debouncer or Debouncer()
        self.on_change = on_change
        self.on_status = on_status
        self._lock = threading.Lock()
        self._online = False
        self._reported: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_values: tuple[int, ...] | None = None
        self._pushed = False
        #: scans skipped because they equalled the previous one while nothing was pending
        self.skipped = 0

    @property
    def online(self) -> bool:
        """True while the backend delivers scans and the board is known."""
        return self._online

    def snapshot(self) -> str | None:
        """The stable board (52 chars ``. 1 2``), or None while offline or not yet settled."""
        with self._lock:
            return self.debouncer.stable if self._online else None

    def step(self, readings: Readings) -> BoardChange | None:
        """Process one scan; return the accepted change, if any (callbacks fire too).

        After start-up or an outage the pipeline goes online only once every space has
        held its state for the debounce window; it then reports, as one change, every
        space that differs from the last board it reported.

        A scan equal to the previous one, or within every space's noise band (each
        reading inside the interval that keeps its space's state, the classifier's
        hysteresis), while the board is online and no space has a change pending,
        cannot change anything and is skipped: one comparison, no classifying, no
        debouncing, no lock (see docs/sensing.md, host CPU).
        """
        values = readings.values
        if self._online and self.debouncer.idle and (
                values == self._last_values or self.classifier.keeps(values)):
            self.skipped += 1
            return None
        self._last_values = values
        with self._lock:
            board = self.classifier.classify(readings.values)
            changed = self.debouncer.feed(board, readings.t)
            stable = self.debouncer.stable
            ready = self.debouncer.ready
        if stable is None:
            return None
        if not self._online:
            if not ready:
                return None
            before = self._reported
            self._reported = stable
            self._set_online(True)
            if before is None:
                changed = [i for i, c in enumerate(stable) if c != "."]
            else:
                changed = [i for i, (a, b) in enumerate(zip(before, stable)) if a != b]
            if not changed:
                return None
        elif changed is None:
            return None
        self._reported = stable
        change = BoardChange(stable, changed, readings.seq)
        if self.on_change is not None:
            self.on_change(change)
        return change

    def check_backend(self) -> None:
        """Go offline if the backend reports offline (called when no scan arrived)."""
        if self._online and not self.backend.online:
            with self._lock:
                self.debouncer.restart()
                self._last_values = None
            self._set_online(False)

    def _set_online(self, online: bool) -> None:
        self._online = online
        log.info("sensors %s", "online" if online else "offline")
        if self.on_status is not None:
            self.on_status(online)

    def start(self) -> None:
        """Process scans until :meth:`stop`.

        A backend that can push scans (``subscribe``, the serial link) hands each scan
        to :meth:`step` on its own reader thread, and this pipeline's thread only
        watches for an outage ten times a second: one thread wake per scan instead of
        two (host CPU, docs/sensing.md). Other backends are read on this thread.
        """
        if self._thread is not None:
            return
        self._stop.clear()
        subscribe = getattr(self.backend, "subscribe", None)
        self._pushed = bool(callable(subscribe) and subscribe(self._push))
        if self._pushed and getattr(self.backend, "reports_outages", False):
            return  # the backend tells of outages itself (the simulator): no thread at all
        target = self._watch if self._pushed else self._run
        self._thread = threading.Thread(target=target, name="gingo-sensing", daemon=True)
        self._thread.start()

    def _push(self, readings: Readings | None) -> bool:
        """Process a pushed scan; False tells the link nothing is pending (it may then
        gather a few frames per wake-up), True that a change is being debounced.
        None: the backend's status changed (an outage): check it."""
        if self._stop.is_set():
            return True
        try:
            if readings is None:
                self.check_backend()
                return True
            self.step(readings)
        except Exception:  # a callback bug must not kill sensing
            log.exception("sensing pipeline step failed; continuing")
            return True
        return not (self._online and self.debouncer.idle)

    def _watch(self) -> None:
        while not self._stop.wait(0.1):
            try:
                self.check_backend()
            except Exception:
                log.exception("sensing pipeline status check failed; continuing")

    def stop(self, close_backend: bool = True) -> None:
        """Stop the thread (and close the backend unless told not to)."""
        self._stop.set()
        if self._pushed:
            self._pushed = False
            subscribe = getattr(self.backend, "subscribe", None)
            if callable(subscribe):
                subscribe(None)
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        if close_backend:
            self.backend.close()

    def run_for(self, *, frames: int | None = None, seconds: float | None = None) -> None:
        """Process scans on the calling thread until ``frames`` scans or ``seconds`` pass."""
        deadline = None if seconds is None else time.monotonic() + seconds
        count = 0
        while not self._stop.is_set():
            if frames is not None and count >= frames:
                return
            if deadline is not None and time.monotonic() >= deadline:
                return
            wait = 0.1 if deadline is None else max(0.0, min(0.1, deadline - time.monotonic()))
            readings = self.backend.read(wait)
            if readings is None:
                self.check_backend()
                continue
            count += 1
            self.step(readings)
            if not self.backend.online:
                self.check_backend()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                readings = self.backend.read(0.1)
                if readings is None:
                    self.check_backend()
                else:
                    self.step(readings)
            except Exception:  # a callback or backend bug must not kill sensing
                log.exception("sensing pipeline step failed; continuing")
                self._stop.wait(0.1)
