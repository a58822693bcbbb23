"""The simulated board: a real sensor backend whose magnets are set in memory.

Its readings go through the same classifier and debouncer as a real board's. A chip of
side 1 reads about 45000, side 2 about 20000 and an empty space about 32768, each with a
little seeded noise.

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

    def put(self, space: int, side: int | None) -> None:
        """Put a chip of ``side`` (1 or 2) on ``space``, or lift it (None)."""
        if not isinstance(space, int) or not 0 <= space < SPACES:
            raise ValueError(f"space {space!r} is outside 0..{SPACES - 1}")
        if side not in (1, 2, None):
            raise ValueError(f"side {side!r} must be 1, 2 or None (no chip)")
        with self._lock:
            self._sides[space] = side

    def set_board(self, board: str) -> None:
        """Set every space from 52 characters ``.``, ``1``, ``2`` in space order."""
        if len(board) != SPACES or any(c not in SIDE_CHARS for c in board):
            raise ValueError(f"a board is {SPACES} characters of '.', '1', '2'; got {board!r}")
        with self._lock:
            self._sides = [SIDE_CHARS[c] for c in board]

    def set_online(self, online: bool) -> None:
        """Simulate unplugging (False: no scans arrive) and re-plugging."""
        with self._cond:
            self._online = bool(online)
            self._cond.notify_all()

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
                ready = self._online and now >= self._next
                if ready:
                    self._next = max(self._next + self._period, now - self._period)
                    values = tuple(
                        min(0xFFFF, max(0, self._sample(side) + off))
                        for side, off in zip(self._sides, self._offsets)
                    )
                    seq = self._seq
                    self._seq = (self._seq + 1) & 0xFFFF
                    return Readings(seq, values, now)
            if now >= deadline:
                return None
            wait = min(deadline, self._next if self._online else deadline) - now
            with self._cond:
                self._cond.wait(max(0.0, wait))

    def _sample(self, side: int | None) -> int:
        return LEVELS[side] + self._rng.randint(-self._noise, self._noise)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
