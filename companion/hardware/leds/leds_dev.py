"""LEDs through the Raspberry Pi 5 kernel driver ``ws2812-pio`` (``/dev/leds0``).

Add this line to ``/boot/firmware/config.txt`` and reboot (GPIO18, 60 LEDs)::

    dtoverlay=ws2812-pio,gpio=18,num_leds=60

The driver takes 4 bytes per LED, R G B W, in LED index order (W is ignored on RGB
strips) and sends them to the strip in its own order (G R B); a single-byte write sets
its global brightness. What it does with that byte (drivers/misc/ws2812-pio-rp1.c in
the Raspberry Pi kernel, ``ws2812_apply_gamma``): any brightness but 0 scales every
channel by it *and* passes it through a gamma table (exponent 2.2), so a full channel
at our 0.6 (153) came out as 99 (39 %), mid colours far darker, unlike the other
backends; brightness **0** turns that
processing off and the values go to the strip as written. So this backend writes 0
once at start and scales the colours itself, linearly, exactly as ``spi``, ``ws281x``
and ``pico`` do (the power cap included).

It accepts one frame per ``open()`` and cannot seek, so every frame is written through
a fresh open; a frame shorter than ``num_leds`` would be shown 50 ms late, so every
write is the whole strip. The service's user needs write access: ``install.sh``
installs the udev rule ``KERNEL=="leds[0-9]*", GROUP="gpio", MODE="0660"``
(docs/hardware.md).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "leds0")
>>> _ = open(path, "wb").close()
>>> leds = LedsDevLeds(count=2, path=path)
>>> leds.set_pixels([(255, 0, 0), (0, 0, 10)])
>>> leds.show()
>>> open(path, "rb").read().hex(" ")
'ff 00 00 00 00 00 0a 00'
>>> leds.brightness = 0.5; leds.show()        # scaled here, linearly
>>> open(path, "rb").read().hex(" ")
'80 00 00 00 00 00 05 00'
>>> leds.close()
"""

from __future__ import annotations

import os

from companion.hardware.leds import DEFAULT_COUNT, Color, LedBackend, LedBackendError

OVERLAY_LINE = "dtoverlay=ws2812-pio,gpio=18,num_leds=60"
UDEV_RULE = 'KERNEL=="leds[0-9]*", GROUP="gpio", MODE="0660"'
#: the driver's brightness byte that turns its scaling and gamma off
DRIVER_RAW = b"\x00"


def encode_rgbw(frame: list[Color]) -> bytes:
    """4 bytes per LED, R G B 0.

    >>> encode_rgbw([(1, 2, 3)]).hex()
    '01020300'
    """
    return bytes([v for r, g, b in frame for v in (r, g, b, 0)])


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
        self._put(DRIVER_RAW)  # driver processing off: scaling happens here

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
                f"no permission to write {self.path}: run hardware/pi/install.sh again (it installs the udev rule "
                f"{UDEV_RULE} in /etc/udev/rules.d/99-gingo-leds.rules), then reboot"
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
