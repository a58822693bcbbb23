"""LEDs driven from the SPI MOSI pin (GPIO10) through ``spidev``: works on every Pi.

Encoding: one SPI **nibble per LED bit**, so one SPI byte carries exactly two LED bits
and every LED bit starts and ends inside one nibble. A 0 is ``1000``, a 1 is ``1100``;
every nibble ends low. The Pi's SPI controller may pause between bytes (one idle clock
per byte in the kernel driver, longer gaps with DMA on a Pi 4: rpi_ws281x issue #499,
raspberrypi/linux issue #3570). During a pause MOSI stays low, so a pause can only
lengthen a low phase; the LED decodes a bit from the length of its *high* phase, which
a pause never touches. (The old 3-bits-per-LED-bit encoding split an LED bit across a
byte boundary: a pause inside a high phase turned a 0 into a 1.)

Clock arithmetic (``SPEED_HZ`` = 2.85 MHz requested). The kernel's spi-bcm2835 driver
divides the core clock by an even divider rounded up (``cdiv = DIV_ROUND_UP(core, hz)``,
then ``+1`` if odd), so the clock you get depends on the core clock:

======================== ========= ========== ============ ============ ===========
core clock               divider   SPI clock  SPI bit (t)  T0H = t      T1H = 2t
======================== ========= ========== ============ ============ ===========
250 MHz (Pi 3, Zero 2 W)  88       2.841 MHz  352 ns       352 ns       704 ns
500 MHz (Pi 4)           176       2.841 MHz  352 ns       352 ns       704 ns
400 MHz (unpinned Pi 3)  142       2.817 MHz  355 ns       355 ns       710 ns
200 MHz (Pi 5's RP1)      72       2.778 MHz  360 ns       360 ns       720 ns
======================== ========= ========== ============ ============ ===========

The windows both parts accept: T0H 250..380 ns (WS2812B 400±150, WS2812B-V5
220..380) and T1H 650..950 ns (WS2812B 800±150, WS2812B-V5 580..1000). Every row above
is inside both. Low phases: T0L = 3t ≈ 1.06 µs and T1L = 2t ≈ 0.70 µs before any pause
(WS2812B-V5 asks 580 ns..1 µs, the older WS2812B 700..1000 / 300..600 ns); a pause adds
to them, which the LEDs tolerate as long as the line stays low for less than the reset
time (50 µs on the WS2812B, 280 µs on the V5). A 60-LED frame is 720 bytes (≈ 2 ms).

Before the first LED bit goes one zero byte, so the line is low and settled before the
first rising edge (MOSI may idle high between transfers on some controllers); after the
frame, ``RESET_BYTES`` zero bytes (≥ 320 µs low) latch it.

Enable SPI with ``dtparam=spi=on`` in ``/boot/firmware/config.txt`` on Raspberry Pi OS
(Debian's own kernel ignores it: see docs/install.md, SPI on Debian's kernel). The core clock
must not change while a frame goes out: ``core_freq_min=500`` on a Pi 4 (and Pi 400,
CM4), ``core_freq=250`` on a Pi 3 and a Zero 2 W; a Pi 5's SPI (on RP1) has its own
fixed clock. ``hardware/pi/install.sh`` adds these lines for the Pi it runs on.

>>> encode_ws2812([(255, 0, 0)]).hex(" ")   # GRB order: G=0x00, R=0xff, B=0x00
'88 88 88 88 cc cc cc cc 88 88 88 88'

Any object with a ``writebytes2(data)`` method can stand in for the device:

>>> class Capture:
...     def __init__(self): self.data = b""
...     def writebytes2(self, data): self.data += bytes(data)
...     def close(self): pass
>>> dev = Capture()
>>> leds = SpiLeds(count=1, spi=dev)
>>> leds.set_pixels([(0, 0, 255)]); leds.show()
>>> dev.data[:13].hex(" "), len(dev.data) == 1 + 12 + RESET_BYTES
('00 88 88 88 88 88 88 88 88 cc cc cc cc', True)
"""

from __future__ import annotations

import importlib
from typing import Any

from companion.hardware.leds import DEFAULT_COUNT, Color, LedBackend, LedBackendError

SPEED_HZ = 2_850_000
#: SPI nibbles for an LED bit of 0 and of 1 (high for 1 or 2 SPI bits, then low)
NIBBLE_0 = 0b1000
NIBBLE_1 = 0b1100
#: requested clocks that keep T0H in 325..380 ns and T1H twice that on every core
#: clock in the table above (checked in the tests with the kernel's divider rule)
SPEED_RANGE = (2_700_000, 3_000_000)
#: zero bytes after the frame: 120 bytes = 960 SPI bits = 320 µs at 3.0 MHz (> 280 µs)
RESET_BYTES = 120
#: zero bytes before the first LED bit
LEAD_BYTES = 1
ORDERS: tuple[str, ...] = ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR")


def _encode_byte(value: int) -> bytes:
    """The four SPI bytes of one colour byte, most significant LED bit first."""
    out = bytearray()
    for i in (7, 5, 3, 1):
        hi = NIBBLE_1 if (value >> i) & 1 else NIBBLE_0
        lo = NIBBLE_1 if (value >> (i - 1)) & 1 else NIBBLE_0
        out.append((hi << 4) | lo)
    return bytes(out)


#: byte value -> its 4 SPI bytes
ENCODED: tuple[bytes, ...] = tuple(_encode_byte(v) for v in range(256))


def encode_ws2812(frame: list[Color], order: str = "GRB") -> bytes:
    """SPI bytes for ``frame`` (no lead byte, no latch), channels sent in ``order``.

    >>> encode_ws2812([(0, 0, 0)], "RGB") == bytes.fromhex("88888888") * 3
    True
    """
    if order not in ORDERS:
        raise ValueError(f"colour order must be one of {', '.join(ORDERS)}, got {order!r}")
    idx = tuple("RGB".index(ch) for ch in order)
    table = ENCODED
    return b"".join(table[color[k]] for color in frame for k in idx)


def spi_frame(frame: list[Color], order: str = "GRB") -> bytes:
    """What goes to the SPI device: ``LEAD_BYTES`` zeros, the encoded frame, then the
    latch (``RESET_BYTES`` zeros)."""
    return bytes(LEAD_BYTES) + encode_ws2812(frame, order) + bytes(RESET_BYTES)


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
        if not SPEED_RANGE[0] <= speed_hz <= SPEED_RANGE[1]:
            raise LedBackendError(
                f"leds.spi.speed_hz {speed_hz} gives LED pulses outside the WS2812B timing; use {SPEED_HZ} "
                "(2700000 to 3000000 works: one SPI nibble per LED bit, see docs/hardware.md)"
            )
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
            f"{path} does not exist: add 'dtparam=spi=on' to /boot/firmware/config.txt (or use raspi-config) and reboot; "
            "that is Raspberry Pi OS: Debian's own kernel ignores dtparam=spi=on, SPI0 is off in its device trees "
            "(docs/install.md, SPI on Debian's kernel)"
        ) from None
    except PermissionError:
        raise LedBackendError(f"no permission to open {path}: add your user to the spi group and log in again") from None
    except OSError as exc:
        raise LedBackendError(f"cannot open {path}: {exc.strerror or exc}") from None
    dev.max_speed_hz = speed_hz
    dev.mode = 0
    return dev
