"""LEDs driven from the SPI MOSI pin (GPIO10) through ``spidev``: works on every Pi.

Each WS2812 data bit becomes three SPI bits at 2.4 MHz (0.42 µs each): a 0 is
``100`` (0.42 µs high), a 1 is ``110`` (0.83 µs high), inside the WS2812B timing
windows. After the frame, 84 zero bytes (280 µs low) latch it. Enable SPI with
``dtparam=spi=on`` in ``/boot/firmware/config.txt``; so that the SPI clock stays
steady, also pin the core clock: ``core_freq_min=500`` on a Pi 4, ``core_freq=250``
on a Pi 3.

>>> encode_ws2812([(255, 0, 0)]).hex(" ")   # GRB order: G=0x00, R=0xff, B=0x00
'92 49 24 db 6d b6 92 49 24'

Any object with a ``writebytes2(data)`` method can stand in for the device:

>>> class Capture:
...     def __init__(self): self.data = b""
...     def writebytes2(self, data): self.data += bytes(data)
...     def close(self): pass
>>> dev = Capture()
>>> leds = SpiLeds(count=1, spi=dev)
>>> leds.set_pixels([(0, 0, 255)]); leds.show()
>>> dev.data[:9].hex(" "), len(dev.data)
('92 49 24 92 49 24 db 6d b6', 93)
"""

from __future__ import annotations

import importlib
from typing import Any

from companion.hardware.leds import DEFAULT_COUNT, Color, LedBackend, LedBackendError

SPEED_HZ = 2_400_000
RESET_BYTES = 84
ORDERS: tuple[str, ...] = ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR")


def _encode_byte(value: int) -> bytes:
    bits = 0
    for i in range(7, -1, -1):
        bits = (bits << 3) | (0b110 if (value >> i) & 1 else 0b100)
    return bits.to_bytes(3, "big")


#: byte value -> its 3 SPI bytes
ENCODED: tuple[bytes, ...] = tuple(_encode_byte(v) for v in range(256))


def encode_ws2812(frame: list[Color], order: str = "GRB") -> bytes:
    """SPI bytes for ``frame`` (no latch), colour channels sent in ``order``.

    >>> encode_ws2812([(0, 0, 0)], "RGB") == bytes.fromhex("924924") * 3
    True
    """
    if order not in ORDERS:
        raise ValueError(f"colour order must be one of {', '.join(ORDERS)}, got {order!r}")
    idx = tuple("RGB".index(ch) for ch in order)
    out = bytearray()
    for color in frame:
        for k in idx:
            out += ENCODED[color[k]]
    return bytes(out)


def spi_frame(frame: list[Color], order: str = "GRB") -> bytes:
    """Encoded frame followed by the latch (``RESET_BYTES`` zero bytes)."""
    return encode_ws2812(frame, order) + bytes(RESET_BYTES)


class SpiLeds(LedBackend):
    """Strip on SPI ``bus``.``device`` (``/dev/spidev0.0`` by default).

    ``spi`` may be any object with ``writebytes2`` (and optionally ``close``); when it
    is ``None`` the real ``spidev`` device is opened.
    """

    name = "spi"

    def __init__(
        self,
        count: int = DEFAULT_COUNT,
        *,
        bus: int = 0,
        device: int = 0,
        speed_hz: int = SPEED_HZ,
        order: str = "GRB",
        spi: Any = None,
        brightness: float = 1.0,
        brightness_cap: float = 1.0,
    ) -> None:
        super().__init__(count, brightness=brightness, brightness_cap=brightness_cap)
        if order not in ORDERS:
            raise LedBackendError(f"leds.spi.order must be one of {', '.join(ORDERS)}, got {order!r}")
        self.order = order
        if spi is None:
            spi = _open_spidev(bus, device, speed_hz)
        self._spi: Any = spi

    def _write(self, frame: list[Color], scaled: list[Color]) -> None:
        try:
            self._spi.writebytes2(spi_frame(scaled, self.order))
        except OSError as exc:
            raise LedBackendError(f"SPI write failed: {exc.strerror or exc}") from None

    def _close(self) -> None:
        try:
            self._spi.writebytes2(spi_frame([(0, 0, 0)] * self.count, self.order))
        except OSError:
            pass
        close = getattr(self._spi, "close", None)
        if close is not None:
            close()


def _open_spidev(bus: int, device: int, speed_hz: int) -> Any:
    try:
        spidev = importlib.import_module("spidev")
    except ImportError:
        raise LedBackendError("the spidev library is not installed: run 'pip install spidev' on the Pi") from None
    dev = spidev.SpiDev()
    path = f"/dev/spidev{bus}.{device}"
    try:
        dev.open(bus, device)
    except FileNotFoundError:
        raise LedBackendError(
            f"{path} does not exist: add 'dtparam=spi=on' to /boot/firmware/config.txt (or use raspi-config) and reboot"
        ) from None
    except PermissionError:
        raise LedBackendError(f"no permission to open {path}: add your user to the spi group and log in again") from None
    except OSError as exc:
        raise LedBackendError(f"cannot open {path}: {exc.strerror or exc}") from None
    dev.max_speed_hz = speed_hz
    dev.mode = 0
    return dev
