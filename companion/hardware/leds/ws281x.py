"""LEDs driven by ``rpi_ws281x`` (PWM/PCM/SPI with DMA): Raspberry Pi 4 and older.

``rpi_ws281x`` does not support the Pi 5; on one this backend refuses to start and
says to use ``leds_dev`` or ``spi``. The library registers an exit handler when a
strip is created; if ``begin()`` then fails, that handler segfaults the interpreter
at exit, so this backend unregisters it before reporting the failure.

On a Pi 4 (needs root or ``/dev/gpiomem`` access)::

    from companion.hardware.leds.ws281x import Ws281xLeds
    leds = Ws281xLeds(count=60, pin=18, brightness=0.5)
    leds.set_pixels([(255, 0, 0)] * 60)
    leds.show()
    leds.close()

A backend that cannot start says why and what to do:

>>> Ws281xLeds(count=4, pin=4, proc_root="/nonexistent")
Traceback (most recent call last):
...
companion.hardware.leds.LedBackendError: rpi_ws281x cannot drive GPIO4; use GPIO18 (or 12) for PWM, 13/19 for PWM1, 21 for PCM or 10 for SPI
"""

from __future__ import annotations

import atexit
import importlib
from pathlib import Path
from typing import Any

from companion.hardware.leds import DEFAULT_COUNT, Color, LedBackend, LedBackendError
from companion.hardware.leds.pimodel import is_pi5, read_pi_model

#: GPIO -> PWM channel (10 is SPI MOSI, 21 is PCM: both channel 0 for the library).
PIN_CHANNEL: dict[int, int] = {12: 0, 18: 0, 13: 1, 19: 1, 10: 0, 21: 0}


class Ws281xLeds(LedBackend):
    """WS2812/SK6812 strip through ``rpi_ws281x`` on ``pin`` (default GPIO18, PWM0)."""

    name = "ws281x"

    def __init__(
        self,
        count: int = DEFAULT_COUNT,
        *,
        pin: int = 18,
        freq_hz: int = 800_000,
        dma: int = 10,
        channel: int | None = None,
        invert: bool = False,
        brightness: float = 1.0,
        brightness_cap: float = 1.0,
        proc_root: str | Path = "/",
    ) -> None:
        super().__init__(count, brightness=brightness, brightness_cap=brightness_cap)
        self._strip: Any = None
        model = read_pi_model(proc_root)
        if is_pi5(model):
            raise LedBackendError(
                f"rpi_ws281x does not support the {model}; "
                "set leds.backend = 'leds_dev' (kernel driver) or 'spi' in the config"
            )
        if pin not in PIN_CHANNEL:
            raise LedBackendError(
                f"rpi_ws281x cannot drive GPIO{pin}; use GPIO18 (or 12) for PWM, 13/19 for PWM1, 21 for PCM or 10 for SPI"
            )
        try:
            module = importlib.import_module("rpi_ws281x")
        except ImportError:
            raise LedBackendError(
                "the rpi_ws281x library is not installed (it only installs on a Raspberry Pi): "
                "run 'pip install rpi-ws281x' on the Pi, or set leds.backend = 'spi'"
            ) from None
        strip = module.PixelStrip(count, pin, freq_hz, dma, invert, 255, PIN_CHANNEL[pin] if channel is None else channel)
        try:
            strip.begin()
        except RuntimeError as exc:
            unregister_exit_handler(strip)
            raise LedBackendError(
                f"rpi_ws281x could not start on GPIO{pin} ({exc}); it needs root or /dev/gpiomem access, "
                "audio off for PWM pins (dtparam=audio=off) and SPI on for GPIO10; or set leds.backend = 'spi'"
            ) from None
        self._strip = strip

    def _write(self, frame: list[Color], scaled: list[Color]) -> None:
        strip = self._strip
        for i, (r, g, b) in enumerate(scaled):
            strip.setPixelColorRGB(i, r, g, b)
        try:
            strip.show()
        except RuntimeError as exc:
            raise LedBackendError(f"rpi_ws281x could not show a frame ({exc})") from None

    def _close(self) -> None:
        strip = self._strip
        if strip is None:
            return
        try:
            for i in range(self.count):
                strip.setPixelColorRGB(i, 0, 0, 0)
            strip.show()
        except RuntimeError:
            pass
        cleanup = getattr(strip, "_cleanup", None)
        if cleanup is not None:
            atexit.unregister(cleanup)
            cleanup()
        self._strip = None


def unregister_exit_handler(strip: Any) -> None:
    """Remove the exit handler rpi_ws281x registered for ``strip`` (the segfault trap)."""
    cleanup = getattr(strip, "_cleanup", None)
    if cleanup is not None:
        atexit.unregister(cleanup)
