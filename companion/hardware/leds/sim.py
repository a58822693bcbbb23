"""The simulated LED strip: a real backend that keeps its frames in memory.

The service uses it on any machine without LEDs, and the web page draws the board
from :meth:`SimLeds.pixels`. It is thread-safe: the renderer writes while the web
server reads.

>>> from companion.hardware.leds.sim import SimLeds
>>> leds = SimLeds(count=2, brightness=0.5)
>>> leds.set_pixels([(200, 0, 0), (0, 0, 100)])
>>> leds.pixels()            # nothing shown yet
[(0, 0, 0), (0, 0, 0)]
>>> leds.show()
>>> leds.pixels(), leds.output(), leds.frame_count
([(200, 0, 0), (0, 0, 100)], [(100, 0, 0), (0, 0, 50)], 1)
"""

from __future__ import annotations

from companion.hardware.leds import DEFAULT_COUNT, Color, LedBackend


class SimLeds(LedBackend):
    """In-memory LED strip.

    :meth:`pixels` is the last shown frame as the scene asked for it (before
    brightness: what the web page draws); :meth:`output` is what a real strip would
    have been sent (after brightness). :attr:`frame_count` counts :meth:`show` calls.
    """

    name = "sim"

    def __init__(self, count: int = DEFAULT_COUNT, *, brightness: float = 1.0, brightness_cap: float = 1.0) -> None:
        super().__init__(count, brightness=brightness, brightness_cap=brightness_cap)
        self._shown: list[Color] = [(0, 0, 0)] * count
        self._output: list[Color] = [(0, 0, 0)] * count
        self.frame_count: int = 0

    def _write(self, frame: list[Color], scaled: list[Color]) -> None:
        with self._lock:
            self._shown = frame
            self._output = scaled
            self.frame_count += 1

    def pixels(self) -> list[tuple[int, int, int]]:
        """The last shown frame, one ``(r, g, b)`` per LED, before brightness."""
        with self._lock:
            return list(self._shown)

    def output(self) -> list[tuple[int, int, int]]:
        """The last shown frame after brightness, as a strip would receive it."""
        with self._lock:
            return list(self._output)
