"""Sensor backends: where the raw Hall readings of the 52 spaces come from.

One backend per module, as gpiozero does for pins: :mod:`.serial` (the Pico firmware
over USB), :mod:`.adc` (MCP3008/MCP3208 chips read through gpiozero) and :mod:`.sim`
(in memory, driven by the service or a test). Each yields :class:`Readings`: one scan
of 52 raw u16 readings in space order (``space = (row-1)*4 + (col-1)``).

>>> backend = open_sensor_backend("sim", seed=1, rate=1000)
>>> backend.put(0, 1)
>>> r = backend.read(timeout=1.0)
>>> len(r.values), r.values[0] > 40000, 30000 < r.values[1] < 35500
(52, True, True)
>>> backend.close()
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any
from companion.errors import BackendError

SPACES = 52

#: backend kind -> (module, class name)
BACKENDS: dict[str, tuple[str, str]] = {
    "sim": ("companion.hardware.sensors.sim", "SimSensors"),
    "serial": ("companion.hardware.sensors.serial", "SerialSensors"),
    "adc": ("companion.hardware.sensors.adc", "AdcSensors"),
}


class SensorBackendError(BackendError):
    """A backend that cannot start; the message says what to do about it."""


@dataclass(frozen=True, slots=True)
class Readings:
    """One scan: ``values`` are 52 raw u16 readings in space order.

    ``seq`` is the sender's frame counter (0..65535, wrapping) and ``t`` the
    ``time.monotonic()`` at which the scan arrived.
    """

    seq: int
    values: tuple[int, ...]
    t: float

    def __post_init__(self) -> None:
        if len(self.values) != SPACES:
            raise ValueError(f"a scan has {SPACES} readings, got {len(self.values)}")


class SensorBackend(ABC):
    """The interface every sensor backend implements."""

    #: short name shown in /api/v1/health and `gingo doctor`
    name: str = "?"

    @abstractmethod
    def read(self, timeout: float) -> Readings | None:
        """The next scan, or None if none arrived within ``timeout`` seconds."""

    @property
    @abstractmethod
    def online(self) -> bool:
        """True while scans are arriving."""

    @abstractmethod
    def close(self) -> None:
        """Release the device; further reads return None."""

    def __enter__(self) -> SensorBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_sensor_backend(kind: str, **config: Any) -> SensorBackend:
    """Open the backend named ``kind`` ("sim", "serial" or "adc") with its settings.

    Raises :class:`SensorBackendError` if the backend cannot start, and ``ValueError``
    for an unknown kind.
    """
    try:
        module_name, class_name = BACKENDS[kind]
    except KeyError:
        raise ValueError(
            f"unknown sensor backend {kind!r}; choose one of {', '.join(sorted(BACKENDS))}"
        ) from None
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise SensorBackendError(
            f"sensor backend {kind!r} cannot load ({exc}); reinstall the package or choose 'sim'"
        ) from None
    cls = getattr(module, class_name)
    backend: SensorBackend = cls(**config)
    return backend
