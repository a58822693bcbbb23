"""A Pico-less build: MCP3008 or MCP3208 ADC chips on the Pi's SPI, read through gpiozero.

Seven 8-channel chips cover the 52 sensors. They share the SPI clock, MOSI and MISO
lines; each chip has its own chip-select GPIO (software SPI, so any GPIO will do).
Readings are scaled to the u16 range of the protocol (a 12-bit 4095 becomes 65535), so
the same thresholds and calibration apply as with the Pico.

Settings (keyword arguments of :class:`AdcSensors`, or the ``[sensors.adc]`` table of
the config file)::

    chip = "MCP3208"                 # or "MCP3008"
    clock = 11                       # BCM GPIO of SCLK, MOSI, MISO
    mosi = 10
    miso = 9
    select = [8, 7, 5, 6, 12, 13, 19]   # chip-select GPIO of chip 0, 1, 2, ...
    # channels[space] = [chip, channel]; default: chip = space // 8, channel = space % 8
    rate = 100                       # scans per second

The same keys may sit in a ``[pi.adc]`` table of a pin map file (a copy of the
packaged ``companion/hardware/defaults/pinmap.toml``); :func:`load_adc_pins` reads them.

With gpiozero's mock pins (``GPIOZERO_PIN_FACTORY=mock``) it runs on any machine; the
tests attach mock MCP3208 chips to the mock SPI lines.
"""

from __future__ import annotations

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
        clock: int = 11,
        mosi: int = 10,
        miso: int = 9,
        select: Sequence[int] = (8, 7, 5, 6, 12, 13, 19),
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
        try:
            import gpiozero
        except ImportError as exc:  # pragma: no cover - gpiozero is a dependency
            raise SensorBackendError(f"the adc backend needs gpiozero ({exc}); reinstall the package") from None
        cls = getattr(gpiozero, class_name)
        self._devices: list[Any] = []
        try:
            # Check every pin name first: gpiozero leaves the shared SPI clock reserved
            # when a device fails half-way through its construction.
            factory = pin_factory or gpiozero.Device.ensure_pin_factory()
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
            self.close()
            raise SensorBackendError(
                f"cannot open the {chip} ADC chips ({type(exc).__name__}: {exc}); check the pins in the "
                "config, that you are in the gpio and spi groups, and run 'gingo doctor'"
            ) from None
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
