"""A Pico-less build: MCP3008 or MCP3208 ADC chips on the Pi, read through gpiozero.

Seven 8-channel chips cover the 52 sensors. They share a clock, MOSI and MISO line;
each chip has its own chip-select GPIO.

**Why the default pins stay off SPI0.** gpiozero gives a chip the kernel's hardware SPI
when its pins are SPI0's (clock GPIO11, MOSI 10, MISO 9) *and* its select is GPIO8 or
GPIO7 (``spi_port_device`` in ``gpiozero/pins/pi.py``); any other select gets software
SPI, whose bus claims GPIO11/10/9 as ordinary pins. Hardware SPI reserves those pins
for itself, so the two kinds cannot share them and the third chip failed with
``GPIOPinInUse: GPIO11`` on a real Pi (mock pins always take the software path, so the
old tests never saw it). Seven chips cannot all be hardware (SPI0 has two selects), so
every chip uses gpiozero's software SPI on pins of their own, and SPI0 stays free for
the LED strip: the ``spi`` LED backend on GPIO10, the same route as the Pico build,
with DMA, on any Pi.

Software SPI is slow: a scan of 52 channels is 52 three-byte transfers bit-banged in
Python (37 ms a scan with gpiozero's mock pins on the development machine; expect
tens of scans a second at most on a Pi 4, fewer on a Zero 2 W). The backend scans as
fast as it can up to ``rate``; ``docs/bringup.md`` measures the real rate. The Pico
build is the one to choose when you can.

Settings (keyword arguments of :class:`AdcSensors`, or the ``[sensors.adc]`` table of
the config file)::

    chip = "MCP3208"                 # or "MCP3008"
    clock = 5                        # BCM GPIO of SCLK, MOSI, MISO
    mosi = 6
    miso = 13
    select = [12, 16, 19, 20, 21, 24, 25]   # chip-select GPIO of chip 0, 1, 2, ...
    # channels[space] = [chip, channel]; default: chip = space // 8, channel = space % 8
    rate = 100                       # scans per second (at most)

These pins avoid SPI0 (GPIO7-11), the buttons (17, 27, 22, 23), the LED data pins
(18, 10), I2C (2, 3) and the UART (14, 15). Mixing SPI0's pins with a select that
is not GPIO8/7 is refused with a message that says why. The same keys may sit in a
``[pi.adc]`` table of a pin map file (a copy of the packaged
``companion/hardware/defaults/pinmap.toml``); :func:`load_adc_pins` reads them.

With gpiozero's mock pins (``GPIOZERO_PIN_FACTORY=mock``) it runs on any machine; the
tests attach mock MCP3208 chips to the mock SPI lines, and check the defaults against
gpiozero's own pin reservation with its hardware SPI class in play.
"""

from __future__ import annotations

import gc
import logging
import os
import threading
import time
import tomllib
from collections.abc import Sequence
from typing import Any

from companion.hardware.sensors import SPACES, Readings, SensorBackend, SensorBackendError

log = logging.getLogger(__name__)

CHIPS: dict[str, tuple[str, int, int]] = {
    # name -> (gpiozero class, channels, bits)
    "MCP3008": ("MCP3008", 8, 10),
    "MCP3208": ("MCP3208", 8, 12),
}


def scale_to_u16(raw: int, bits: int) -> int:
    """Stretch an n-bit reading over 0..65535 (full scale maps to full scale).

    >>> scale_to_u16(4095, 12), scale_to_u16(2048, 12), scale_to_u16(1023, 10), scale_to_u16(0, 12)
    (65535, 32776, 65535, 0)
    """
    shift = 16 - bits
    return (raw << shift) | (raw >> (bits - shift))


DEFAULT_PINS: dict[str, int] = {"clock": 5, "mosi": 6, "miso": 13}
DEFAULT_SELECT: tuple[int, ...] = (12, 16, 19, 20, 21, 24, 25)
#: SPI0's pins as gpiozero knows them (gpiozero/pins/data.py, SPI_HARDWARE_PINS)
SPI0_PINS = (11, 10, 9)  # clock, MOSI, MISO
SPI0_SELECT = (8, 7)


def check_pins(clock: int, mosi: int, miso: int, select: Sequence[int]) -> None:
    """Refuse pin sets gpiozero cannot build (``ValueError`` saying why and what to do).

    >>> check_pins(11, 10, 9, [8, 7, 5])
    Traceback (most recent call last):
    ...
    ValueError: ADC pins: clock 11, MOSI 10 and MISO 9 are SPI0's, so gpiozero gives the chips on select 8 and 7 the kernel's hardware SPI and the others (select 5) software SPI, which cannot share those pins (GPIOPinInUse); keep the defaults (clock 5, MOSI 6, MISO 13, selects 12, 16, 19, 20, 21, 24, 25) so SPI0 stays free for the LEDs
    >>> check_pins(5, 6, 13, [12, 16, 12])
    Traceback (most recent call last):
    ...
    ValueError: ADC pins: GPIO12 is used twice (select of chip 2 and select of chip 0); every pin must be different
    """
    seen: dict[int, str] = {}
    for name, pin in (("clock", clock), ("MOSI", mosi), ("MISO", miso),
                      *((f"select of chip {i}", p) for i, p in enumerate(select))):
        if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 27:
            raise ValueError(f"ADC pins: {name} must be a BCM GPIO number 0..27, got {pin!r}")
        if pin in seen:
            raise ValueError(f"ADC pins: GPIO{pin} is used twice ({name} and {seen[pin]}); every pin must be different")
        seen[pin] = name
    if (clock, mosi, miso) == SPI0_PINS:
        hard = [p for p in select if p in SPI0_SELECT]
        soft = [p for p in select if p not in SPI0_SELECT]
        if hard and soft:
            raise ValueError(
                f"ADC pins: clock 11, MOSI 10 and MISO 9 are SPI0's, so gpiozero gives the chips on select "
                f"{' and '.join(map(str, hard))} the kernel's hardware SPI and the others (select "
                f"{', '.join(map(str, soft))}) software SPI, which cannot share those pins (GPIOPinInUse); "
                f"keep the defaults (clock {DEFAULT_PINS['clock']}, MOSI {DEFAULT_PINS['mosi']}, MISO "
                f"{DEFAULT_PINS['miso']}, selects {', '.join(map(str, DEFAULT_SELECT))}) so SPI0 stays free for the LEDs"
            )


ADC_KEYS = ("chip", "clock", "mosi", "miso", "select", "channels", "rate")


def load_adc_pins(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The ``[pi.adc]`` table of a pin map file as :class:`AdcSensors` keyword arguments.

    Raises ``ValueError`` naming the file and key when the table is missing or has an
    unknown key.
    """
    with open(path, "rb") as fh:
        try:
            data = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise ValueError(f"{path}: not valid TOML ({exc})") from None
    table = data.get("pi", {}).get("adc")
    if not isinstance(table, dict):
        raise ValueError(f"{path} has no [pi.adc] table; add one with the ADC chips' pins (docs/sensing.md)")
    unknown = sorted(set(table) - set(ADC_KEYS))
    if unknown:
        raise ValueError(f"{path}: unknown key(s) {', '.join(unknown)} in [pi.adc]; known: {', '.join(ADC_KEYS)}")
    return dict(table)


def default_channels(per_chip: int = 8) -> list[tuple[int, int]]:
    """Space ``s`` on chip ``s // 8``, channel ``s % 8``."""
    return [(s // per_chip, s % per_chip) for s in range(SPACES)]


class AdcSensors(SensorBackend):
    """Sensor backend reading MCP3x08 chips through gpiozero."""

    name = "adc"

    def __init__(
        self,
        *,
        chip: str = "MCP3208",
        clock: int = DEFAULT_PINS["clock"],
        mosi: int = DEFAULT_PINS["mosi"],
        miso: int = DEFAULT_PINS["miso"],
        select: Sequence[int] = DEFAULT_SELECT,
        channels: Sequence[Sequence[int]] | None = None,
        rate: float = 100.0,
        pin_factory: Any = None,
    ) -> None:
        if chip not in CHIPS:
            raise ValueError(f"ADC chip {chip!r} is not supported; use one of {', '.join(CHIPS)}")
        class_name, per_chip, self.bits = CHIPS[chip]
        if rate <= 0:
            raise ValueError(f"ADC scan rate must be positive, got {rate}")
        mapping = [tuple(c) for c in channels] if channels is not None else default_channels(per_chip)
        if len(mapping) != SPACES:
            raise ValueError(f"ADC channels must list {SPACES} [chip, channel] pairs, got {len(mapping)}")
        for space, pair in enumerate(mapping):
            if len(pair) != 2 or not 0 <= pair[0] < len(select) or not 0 <= pair[1] < per_chip:
                raise ValueError(
                    f"ADC channel for space {space} is {list(pair)}: chip must be 0..{len(select) - 1} "
                    f"(one per select pin) and channel 0..{per_chip - 1}"
                )
        if len(set(mapping)) != SPACES:
            raise ValueError("ADC channels list the same [chip, channel] for two spaces")
        check_pins(clock, mosi, miso, select)
        try:
            import gpiozero
        except ImportError as exc:  # pragma: no cover - gpiozero is a dependency
            raise SensorBackendError(f"the adc backend needs gpiozero ({exc}); reinstall the package") from None
        cls = getattr(gpiozero, class_name)
        self._devices: list[Any] = []
        failure: str | None = None
        try:
            # Check every pin name first: gpiozero leaves the shared SPI clock reserved
            # when a device fails half-way through its construction.
            factory = pin_factory or gpiozero.Device.ensure_pin_factory() or gpiozero.Device.pin_factory
            for pin in (clock, mosi, miso, *select):
                factory.pin(pin)
            for chip_index, channel in mapping:
                self._devices.append(
                    cls(
                        channel=channel,
                        clock_pin=clock,
                        mosi_pin=mosi,
                        miso_pin=miso,
                        select_pin=select[chip_index],
                        pin_factory=pin_factory,
                    )
                )
        except Exception as exc:  # gpiozero raises many kinds (pins busy, no SPI, no pin factory)
            failure = f"{type(exc).__name__}: {exc}"
        if failure is not None:
            # outside the except block, so the traceback (and the half-built device in
            # it) is gone; collecting releases that device's pins for the next attempt
            self.close()
            gc.collect()
            raise SensorBackendError(
                f"cannot open the {chip} ADC chips ({failure}); check the pins in the "
                "config, that you are in the gpio and spi groups, and run 'gingo doctor'"
            )
        self._period = 1.0 / rate
        self._next = time.monotonic()
        self._seq = 0
        self._online = True
        self._closed = False
        self._lock = threading.Lock()
        self.errors = 0

    @property
    def online(self) -> bool:
        return self._online and not self._closed

    def read(self, timeout: float) -> Readings | None:
        with self._lock:
            if self._closed:
                return None
            now = time.monotonic()
            wait = self._next - now
            if wait > timeout:
                time.sleep(max(0.0, timeout))
                return None
            if wait > 0:
                time.sleep(wait)
            self._next = max(self._next + self._period, time.monotonic() - self._period)
            try:
                values = tuple(scale_to_u16(int(d.raw_value), self.bits) for d in self._devices)
            except Exception as exc:  # a read error means no scan, never a made-up one
                self.errors += 1
                if self._online:
                    log.warning("adc sensors: read failed (%s); reporting offline", exc)
                self._online = False
                return None
            self._online = True
            seq = self._seq
            self._seq = (self._seq + 1) & 0xFFFF
            return Readings(seq, values, time.monotonic())

    def close(self) -> None:
        self._closed = True
        for d in getattr(self, "_devices", []):
            try:
                d.close()
            except Exception:  # noqa: BLE001 - closing must not fail
                pass
        self._devices = []
