"""The simulated board: a real sensor backend whose magnets are set in memory.

Its readings go through the same classifier and debouncer as a real board's. A chip of
side 1 reads about 45000, side 2 about 20000 and an empty space about 32768, each with a
little seeded noise.

It makes noise only when asked: :meth:`SimSensors.read` makes a scan whenever a caller
reads (tests, ``gingo sensors``, calibration), and a pipeline that subscribes
(:meth:`SimSensors.subscribe`, as the service's does) gets scans at ``rate`` only while
something settles: after a chip is put or lifted, the board set, the sensors re-plugged
or :meth:`SimSensors.stir` called, until the consumer has nothing pending. A still
simulated board then costs nothing (host CPU).

>>> sim = SimSensors(seed=3, rate=500)
>>> sim.set_board("1" + "." * 50 + "2")
>>> r = sim.read(1.0)
>>> r.values[0] > 40000, r.values[51] < 25000, r.seq
(True, True, 0)
>>> sim.close()
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

from companion.hardware.sensors import SPACES, Readings, SensorBackend

LEVELS: dict[int | None, int] = {1: 45000, 2: 20000, None: 32768}
SIDE_CHARS: dict[str, int | None] = {".": None, "1": 1, "2": 2}


class SimSensors(SensorBackend):
    """In-memory sensors producing scans at ``rate`` per second.

    ``noise`` is the peak deviation in raw units (uniform, seeded by ``seed``);
    ``spread`` gives each space a fixed offset within +-spread, as real sensors differ
    (what calibration is for).
    """

    name = "sim"

    def __init__(
        self, *, rate: float = 100.0, noise: int = 300, spread: int = 0, seed: int | None = 0
    ) -> None:
        if rate <= 0:
            raise ValueError(f"sim scan rate must be positive, got {rate}")
        if not 0 <= noise <= 5000:
            raise ValueError(f"sim noise {noise} is outside 0..5000 raw units")
        self._period = 1.0 / rate
        self._noise = noise
        if not 0 <= spread <= 8000:
            raise ValueError(f"sim spread {spread} is outside 0..8000 raw units")
        self._rng = random.Random(seed)
        self._offsets = [self._rng.randint(-spread, spread) for _ in range(SPACES)]
        self._sides: list[int | None] = [None] * SPACES
        self._online = True
        self._closed = False
        self._seq = 0
        self._next = time.monotonic()
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._consumer: Callable[[Readings | None], bool | None] | None = None
        self._pusher: threading.Thread | None = None
        self._stir_until = 0.0
        self._busy = False  # the subscriber said a change is pending: scans go on
        #: scans pushed to a subscriber (each one asked for by a change or a stir)
        self.pushed = 0

    #: seconds of scans pushed after each change (the debounce needs 5 scans and 50 ms)
    STIR = 0.15

    def put(self, space: int, side: int | None) -> None:
        """Put a chip of ``side`` (1 or 2) on ``space``, or lift it (None)."""
        if not isinstance(space, int) or not 0 <= space < SPACES:
            raise ValueError(f"space {space!r} is outside 0..{SPACES - 1}")
        if side not in (1, 2, None):
            raise ValueError(f"side {side!r} must be 1, 2 or None (no chip)")
        with self._cond:
            self._sides[space] = side
            self._stir(self.STIR)

    def set_board(self, board: str) -> None:
        """Set every space from 52 characters ``.``, ``1``, ``2`` in space order."""
        if len(board) != SPACES or any(c not in SIDE_CHARS for c in board):
            raise ValueError(f"a board is {SPACES} characters of '.', '1', '2'; got {board!r}")
        with self._cond:
            self._sides = [SIDE_CHARS[c] for c in board]
            self._stir(self.STIR)

    def set_online(self, online: bool) -> None:
        """Simulate unplugging (False: no scans arrive) and re-plugging."""
        with self._cond:
            self._online = bool(online)
            self._stir(self.STIR)
            self._status = True  # a subscriber hears of it at once (None: check the backend)
            self._cond.notify_all()

    def stir(self, seconds: float = 1.0) -> None:
        """Push noisy scans of the board as it is for ``seconds`` (a subscriber only:
        :meth:`read` always makes one). Tests of the noise bar and the simulated-board
        page ask for noise this way; a still board makes none."""
        if not 0 <= seconds <= 600:
            raise ValueError(f"stir for 0 to 600 seconds, got {seconds!r}")
        with self._cond:
            self._stir(seconds)

    def _stir(self, seconds: float) -> None:
        """(holding the lock) scans until ``seconds`` from now at least, and until the
        subscriber has answered a scan taken since: a pushing thread that wakes after
        the window has passed (a loaded machine; a service starting up, whose main
        thread holds the interpreter) still takes the scan that shows the change, which
        the subscriber then keeps going until it settles. Without it such a late wake
        found the window gone and slept on: a chip never seen, or sensors never online."""
        self._stir_until = max(self._stir_until, time.monotonic() + seconds)
        self._busy = True
        self._cond.notify_all()

    def subscribe(self, consumer: Callable[[Readings | None], bool | None] | None) -> bool:
        """Push scans to ``consumer`` on the simulator's own thread (None: stop pushing).

        Scans come at ``rate`` while the board settles: for :attr:`STIR` seconds after each
        change and for as long as ``consumer`` returns anything but ``False`` (a change
        is pending), then they stop until the next change. ``consumer(None)`` says the
        sensors went offline (:meth:`set_online`). Returns True (the pipeline needs no
        thread of its own and no clock to notice an outage)."""
        with self._cond:
            self._consumer = consumer
            if consumer is not None:
                self._stir(self.STIR)
                if self._pusher is None or not self._pusher.is_alive():
                    self._pusher = threading.Thread(target=self._push_loop, name="gingo-sim-sensors", daemon=True)
                    self._pusher.start()
            self._cond.notify_all()
        return True

    #: a subscriber hears of outages from the simulator itself (no watching thread needed)
    reports_outages = True
    _status = False

    def _push_loop(self) -> None:
        while True:
            with self._cond:
                while True:
                    if self._closed or self._consumer is None:
                        self._pusher = None
                        return
                    now = time.monotonic()
                    if self._status:
                        self._status = False
                        consumer, readings = self._consumer, None
                        break
                    if self._online and (self._busy or now < self._stir_until):
                        if now >= self._next:
                            consumer, readings = self._consumer, self._scan(now)
                            break
                        self._cond.wait(self._next - now)
                    else:
                        self._cond.wait()  # a still board: sleep until something changes
            try:
                pending = consumer(readings)
            except Exception:  # the consumer logs its own bugs; a scan is never worth a crash
                pending = True
            if readings is not None:
                self.pushed += 1
                with self._cond:  # scans go on while a change is pending, however late this thread wakes
                    self._busy = pending is not False

    @property
    def online(self) -> bool:
        return self._online and not self._closed

    def read(self, timeout: float) -> Readings | None:
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            now = time.monotonic()
            with self._lock:
                if self._closed:
                    return None
                if self._online and now >= self._next:
                    return self._scan(now)
            if now >= deadline:
                return None
            wait = min(deadline, self._next if self._online else deadline) - now
            with self._cond:
                self._cond.wait(max(0.0, wait))

    def _scan(self, now: float) -> Readings:
        """(holding the lock) the next scan, taken at ``now``."""
        self._next = max(self._next + self._period, now - self._period)
        values = tuple(
            min(0xFFFF, max(0, self._sample(side) + off))
            for side, off in zip(self._sides, self._offsets)
        )
        seq = self._seq
        self._seq = (self._seq + 1) & 0xFFFF
        return Readings(seq, values, now)

    def _sample(self, side: int | None) -> int:
        return LEVELS[side] + self._rng.randint(-self._noise, self._noise)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
