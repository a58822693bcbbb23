"""LED strip backends behind one small interface.

One backend per module, as gpiozero keeps one pin factory per module:

========== ====================================================================
``sim``      in memory; the service and the web page read the last frame
``ws281x``   ``rpi_ws281x`` on GPIO 18 (PWM) or 10 (SPI); Raspberry Pi 4 and older
``leds_dev`` the Pi 5 kernel driver (``ws2812-pio`` overlay), ``/dev/leds0``
``spi``      WS2812 bits encoded on the SPI MOSI pin through ``spidev``; any Pi
``pico``     LEDS frames (type 0x10) to the Pico, which drives the strip
========== ====================================================================

Every backend takes the whole frame with :meth:`LedBackend.set_pixels`, scales it by
:attr:`LedBackend.brightness` and sends it with :meth:`LedBackend.show`. Brightness is
capped by :attr:`LedBackend.brightness_cap` (see :mod:`companion.hardware.power`), so
a frame of full white can never draw more current than the supply gives.

>>> leds = open_led_backend("sim", count=3)
>>> leds.set_pixels([(255, 0, 0), (0, 255, 0), (0, 0, 0)])
>>> leds.show()
>>> leds.pixels()
[(255, 0, 0), (0, 255, 0), (0, 0, 0)]
>>> leds.close()

A backend that cannot start raises :class:`LedBackendError` saying why and what to
do; :func:`open_led_backend_or_sim` turns that into a warning and a simulated strip,
so the service keeps running.
"""

from __future__ import annotations

import importlib
import inspect
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any
from companion.errors import BackendError

Color = tuple[int, int, int]

#: Backend name -> "module:Class" (imported only when chosen).
BACKENDS: dict[str, str] = {
    "sim": "companion.hardware.leds.sim:SimLeds",
    "ws281x": "companion.hardware.leds.ws281x:Ws281xLeds",
    "leds_dev": "companion.hardware.leds.leds_dev:LedsDevLeds",
    "spi": "companion.hardware.leds.spi:SpiLeds",
    "pico": "companion.hardware.leds.pico:PicoLeds",
}

DEFAULT_COUNT = 60

__all__ = [
    "BACKENDS",
    "Color",
    "LedBackend",
    "LedBackendError",
    "open_led_backend",
    "open_led_backend_or_sim",
    "scale_frame",
    "validate_frame",
]


class LedBackendError(BackendError):
    """A backend cannot start or cannot write; the message says why and what to do."""


def validate_frame(colors: Sequence[Color], count: int) -> list[Color]:
    """Check a frame and return it as a list of ``(r, g, b)`` tuples of ints.

    >>> validate_frame([(1, 2, 3)], 1)
    [(1, 2, 3)]
    >>> validate_frame([(1, 2, 300)], 1)
    Traceback (most recent call last):
    ...
    ValueError: LED 0: colour (1, 2, 300) must be three integers 0..255
    """
    if len(colors) != count:
        raise ValueError(f"a frame must have one colour per LED: got {len(colors)} colours for {count} LEDs")
    out: list[Color] = []
    for i, c in enumerate(colors):
        if (
            not isinstance(c, (tuple, list))
            or len(c) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in c)
        ):
            raise ValueError(f"LED {i}: colour {c!r} must be three integers 0..255")
        out.append((int(c[0]), int(c[1]), int(c[2])))
    return out


def scale_frame(colors: Sequence[Color], brightness: float) -> list[Color]:
    """Scale every channel by ``brightness`` (0..1), rounding to the nearest int.

    >>> scale_frame([(255, 128, 0)], 0.5)
    [(128, 64, 0)]
    """
    return [(round(r * brightness), round(g * brightness), round(b * brightness)) for r, g, b in colors]


class LedBackend(ABC):
    """The interface every LED backend implements.

    Subclasses implement :meth:`_write` (send one already scaled frame) and may
    override :meth:`_close`. The base class keeps the frame, validates input, applies
    brightness and makes :meth:`close` idempotent. A failed call leaves the frame and
    brightness as they were.
    """

    name: str = "abstract"

    def __init__(self, count: int = DEFAULT_COUNT, *, brightness: float = 1.0, brightness_cap: float = 1.0) -> None:
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise ValueError(f"LED count must be a positive integer, got {count!r}")
        if not 0.0 <= float(brightness_cap) <= 1.0:
            raise ValueError(f"brightness cap must be between 0 and 1, got {brightness_cap!r}")
        self.count: int = count
        self._cap = float(brightness_cap)
        self._brightness = 0.0
        self._frame: list[Color] = [(0, 0, 0)] * count
        self._closed = False
        self._lock = threading.Lock()
        self.brightness = brightness

    # -- brightness -----------------------------------------------------------------
    @property
    def brightness_cap(self) -> float:
        """Highest brightness the power budget allows (0..1)."""
        return self._cap

    @property
    def brightness(self) -> float:
        """Global brightness 0..1; values above :attr:`brightness_cap` are held at the cap."""
        return self._brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= float(value) <= 1.0:
            raise ValueError(f"brightness must be a number between 0 and 1, got {value!r}")
        self._brightness = min(float(value), self._cap)

    # -- frame ------------------------------------------------------------------------
    def set_pixels(self, colors: Sequence[Color]) -> None:
        """Set the next frame: one ``(r, g, b)`` per LED, in LED index order."""
        self._check_open()
        frame = validate_frame(colors, self.count)
        with self._lock:
            self._frame = frame

    def show(self) -> None:
        """Send the current frame to the LEDs, scaled by :attr:`brightness`."""
        self._check_open()
        with self._lock:
            frame = list(self._frame)
            level = self._brightness
        self._write(frame, scale_frame(frame, level))

    def close(self) -> None:
        """Release the hardware. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self._close()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> LedBackend:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} count={self.count} brightness={self._brightness:.2f}>"

    # -- for subclasses -------------------------------------------------------------
    @abstractmethod
    def _write(self, frame: list[Color], scaled: list[Color]) -> None:
        """Send ``scaled`` (``frame`` after brightness) to the hardware."""

    def _close(self) -> None:
        """Release resources (default: nothing)."""

    def _check_open(self) -> None:
        if self._closed:
            raise LedBackendError(f"the {self.name} LED backend is closed; open a new one")


def _backend_class(kind: str) -> type[LedBackend]:
    if kind not in BACKENDS:
        raise LedBackendError(f"unknown LED backend {kind!r}; choose one of {', '.join(sorted(BACKENDS))}")
    module_name, cls_name = BACKENDS[kind].split(":")
    module = importlib.import_module(module_name)
    cls: type[LedBackend] = getattr(module, cls_name)
    return cls


def open_led_backend(kind: str, **config: Any) -> LedBackend:
    """Open the LED backend ``kind`` with backend options ``config``.

    Raises :class:`LedBackendError` (why, and what to do) if it cannot start.

    >>> leds = open_led_backend("sim", count=2, brightness=0.5)
    >>> leds.name, leds.count, leds.brightness
    ('sim', 2, 0.5)
    >>> open_led_backend("neon")
    Traceback (most recent call last):
    ...
    companion.hardware.leds.LedBackendError: unknown LED backend 'neon'; choose one of leds_dev, pico, sim, spi, ws281x
    """
    cls = _backend_class(kind)
    try:
        inspect.signature(cls).bind(**config)
    except TypeError as exc:
        raise LedBackendError(f"bad option for the {kind} LED backend: {exc}") from None
    return cls(**config)


def open_led_backend_or_sim(kind: str, warn: Callable[[str], None], **config: Any) -> LedBackend:
    """Like :func:`open_led_backend`, but fall back to ``sim`` with a warning.

    Only ``count``, ``brightness`` and ``brightness_cap`` are carried over to the
    simulated strip; backend-specific options are dropped.

    >>> msgs = []
    >>> leds = open_led_backend_or_sim("neon", msgs.append, count=4)
    >>> leds.name, leds.count
    ('sim', 4)
    >>> msgs[0].startswith("LEDs: unknown LED backend 'neon'")
    True
    """
    try:
        return open_led_backend(kind, **config)
    except Exception as exc:  # any failure of a driver must not stop the service
        warn(f"LEDs: {exc}; using the simulated strip instead")
    sim = _backend_class("sim")  # by name, as every backend: the backends import this module

    keep = {k: config[k] for k in ("count", "brightness", "brightness_cap") if k in config}
    try:
        return sim(**keep)
    except ValueError as exc:
        warn(f"LEDs: {exc}; using a default simulated strip")
        return sim()
