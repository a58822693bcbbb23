"""LEDs through the Raspberry Pi 5 kernel driver ``ws2812-pio`` (``/dev/leds0``).

Add this line to ``/boot/firmware/config.txt`` and reboot (GPIO18, 60 LEDs)::

    dtoverlay=ws2812-pio,gpio=18,num_leds=60

The driver takes 4 bytes per LED, R G B W, in LED index order (W is ignored on RGB
strips) and converts to the strip's own order itself; a single-byte write sets its
global brightness. It accepts one frame per ``open()`` and cannot seek, so every
frame is written through a fresh open. This backend sets the driver's brightness to
full once at start and scales the colours itself (the power cap). Give the
service's user write access with the udev rule in docs/hardware.md.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "leds0")
>>> _ = open(path, "wb").close()
>>> leds = LedsDevLeds(count=2, path=path)
>>> leds.set_pixels([(255, 0, 0), (0, 0, 9)])
>>> leds.show()
>>> open(path, "rb").read().hex(" ")
'ff 00 00 00 00 00 09 00'
>>> leds.close()
"""

from __future__ import annotations

import os

from companion.hardware.leds import DEFAULT_COUNT, Color, LedBackend, LedBackendError

OVERLAY_LINE = "dtoverlay=ws2812-pio,gpio=18,num_leds=60"


def encode_rgbw(frame: list[Color]) -> bytes:
    """4 bytes per LED, R G B 0.

    >>> encode_rgbw([(1, 2, 3)]).hex()
    '01020300'
    """
    out = bytearray()
    for r, g, b in frame:
        out += bytes((r, g, b, 0))
    return bytes(out)


class LedsDevLeds(LedBackend):
    """Strip behind the kernel's ``/dev/leds<n>`` character device."""

    name = "leds_dev"

    def __init__(
        self,
        count: int = DEFAULT_COUNT,
        *,
        path: str = "/dev/leds0",
        brightness: float = 1.0,
        brightness_cap: float = 1.0,
    ) -> None:
        super().__init__(count, brightness=brightness, brightness_cap=brightness_cap)
        self.path = path
        self._put(b"\xff")  # driver brightness to full: scaling happens here

    def _put(self, data: bytes) -> None:
        """One write through a fresh open (the driver takes one write per open)."""
        try:
            fd = os.open(self.path, os.O_WRONLY)
        except FileNotFoundError:
            raise LedBackendError(
                f"{self.path} does not exist: on a Pi 5 add '{OVERLAY_LINE}' to /boot/firmware/config.txt "
                "and reboot; on older Pis use leds.backend = 'ws281x' or 'spi'"
            ) from None
        except PermissionError:
            raise LedBackendError(
                f"no permission to write {self.path}: add the udev rule from docs/hardware.md (or run as root)"
            ) from None
        except OSError as exc:
            raise LedBackendError(f"cannot open {self.path}: {exc.strerror}") from None
        try:
            written = os.write(fd, data)
        except OSError as exc:
            raise LedBackendError(
                f"writing {self.path} failed: {exc.strerror}; is num_leds in the overlay at least {self.count}?"
            ) from None
        finally:
            os.close(fd)
        if written != len(data):
            raise LedBackendError(f"{self.path} took {written} of {len(data)} bytes; is num_leds in the overlay {self.count}?")

    def _write(self, frame: list[Color], scaled: list[Color]) -> None:
        self._put(encode_rgbw(scaled))

    def _close(self) -> None:
        try:
            self._put(bytes(4 * self.count))  # dark on exit
        except LedBackendError:
            pass
