"""Fake ``machine``, ``rp2`` and ``micropython`` modules to run firmware/ under CPython.

:class:`Hardware` models the sensor board: four CD74HC4067 muxes whose select lines
and enable lines are real (fake) ``machine.Pin`` objects, and whose outputs meet at the
ADC inputs. ``ADC.read_u16`` returns what the selected, enabled mux channel carries, so
a firmware that switches the lines wrongly reads the wrong sensor, just as on the board.
:func:`load_firmware` imports firmware/main.py with these fakes in place.
"""

from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path
from typing import Any

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
FLOATING = 1234  # what an ADC reads with no mux driving it (an obviously wrong value)


class Hardware:
    """The board the fake machine module talks to."""

    def __init__(self, select_pins: tuple[int, ...] = (2, 3, 4, 5),
                 enable_pins: tuple[int, ...] | None = (6, 7, 8, 9),
                 adc_pins: tuple[int, ...] = (26, 26, 26, 26)) -> None:
        self.select_pins = select_pins
        self.enable_pins = enable_pins
        self.adc_pins = adc_pins
        self.levels: dict[tuple[int, int], int] = {}   # (mux, channel) -> reading
        self.pins: dict[int, FakePin] = {}
        self.adc_reads = 0
        self.wdt: FakeWDT | None = None
        self.kbd_intr: int | None = None
        self.state_machines: list[FakeStateMachine] = []
        self.conflicts = 0
        self.grounded: set[int] = set()   # input pins held low (e.g. the safe-mode jumper)

    def pin_value(self, pin: int) -> int:
        p = self.pins.get(pin)
        return 0 if p is None else p._value

    def read_adc(self, adc_pin: int) -> int:
        self.adc_reads += 1
        channel = sum(self.pin_value(p) << bit for bit, p in enumerate(self.select_pins))
        driving = []
        for mux, pin in enumerate(self.adc_pins):
            if pin != adc_pin:
                continue
            if self.enable_pins is None or self.pin_value(self.enable_pins[mux]) == 0:
                driving.append(mux)
        if len(driving) != 1:
            if len(driving) > 1:
                self.conflicts += 1  # two muxes fighting over one line
            return FLOATING
        return self.levels.get((driving[0], channel), FLOATING)


class FakePin:
    OUT = 1
    IN = 0
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, hw: Hardware, pin_id: int, mode: int = 0, pull: int | None = None,
                 value: int | None = None) -> None:
        self.hw = hw
        self.id = pin_id
        self.mode = mode
        self.pull = pull
        self._value = 0 if value is None else int(value)
        hw.pins[pin_id] = self

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            if self.mode == self.IN:
                return 0 if self.id in self.hw.grounded else (1 if self.pull == self.PULL_UP else 0)
            return self._value
        self._value = 1 if v else 0
        return None


class FakeADC:
    def __init__(self, hw: Hardware, pin: FakePin) -> None:
        if pin.id not in (26, 27, 28, 29):
            raise ValueError(f"GP{pin.id} has no ADC")
        self.hw = hw
        self.pin = pin.id

    def read_u16(self) -> int:
        return self.hw.read_adc(self.pin)


class FakeWDT:
    def __init__(self, timeout: int) -> None:
        self.timeout = timeout
        self.feeds = 0

    def feed(self) -> None:
        self.feeds += 1


class FakeStateMachine:
    def __init__(self, hw: Hardware, sm_id: int, program: Any, freq: int, sideset_base: FakePin) -> None:
        self.id, self.program, self.freq, self.pin = sm_id, program, freq, sideset_base.id
        self.active_state = 0
        self.words: list[list[int]] = []   # each put(): the 32-bit words after the shift
        hw.state_machines.append(self)

    def active(self, on: int) -> None:
        self.active_state = on

    def put(self, value: Any, shift: int = 0) -> None:
        values = [value] if isinstance(value, int) else list(value)
        self.words.append([(v << shift) & 0xFFFFFFFF for v in values])


def make_modules(hw: Hardware) -> dict[str, types.ModuleType]:
    machine = types.ModuleType("machine")

    class Pin(FakePin):
        def __init__(self, pin_id: int, mode: int = 0, pull: int | None = None, *,
                     value: int | None = None) -> None:
            super().__init__(hw, pin_id, mode, pull, value)

    machine.Pin = Pin  # type: ignore[attr-defined]
    machine.ADC = lambda pin: FakeADC(hw, pin)  # type: ignore[attr-defined]

    def wdt(timeout: int = 5000) -> FakeWDT:
        hw.wdt = FakeWDT(timeout)
        return hw.wdt

    machine.WDT = wdt  # type: ignore[attr-defined]

    rp2 = types.ModuleType("rp2")

    class PIO:
        OUT_LOW, OUT_HIGH, SHIFT_LEFT, SHIFT_RIGHT = 0, 1, 0, 1

    def asm_pio(**options: Any) -> Any:
        def wrap(fn: Any) -> Any:
            fn.pio_options = options
            return fn
        return wrap

    rp2.PIO = PIO  # type: ignore[attr-defined]
    rp2.asm_pio = asm_pio  # type: ignore[attr-defined]
    rp2.StateMachine = lambda sm_id, prog, freq, sideset_base: FakeStateMachine(  # type: ignore[attr-defined]
        hw, sm_id, prog, freq, sideset_base)

    micropython = types.ModuleType("micropython")

    def kbd_intr(ch: int) -> None:
        hw.kbd_intr = ch

    micropython.kbd_intr = kbd_intr  # type: ignore[attr-defined]
    micropython.const = lambda x: x  # type: ignore[attr-defined]
    return {"machine": machine, "rp2": rp2, "micropython": micropython}


def load_firmware(hw: Hardware, **config: Any) -> types.ModuleType:
    """Import firmware/main.py against ``hw``; ``config`` overrides config.py settings.

    The firmware's modules are removed from ``sys.modules`` again afterwards, so each
    call gets a fresh copy and nothing leaks into other tests.
    """
    names = ("machine", "rp2", "micropython", "config", "protocol", "main")
    saved = {n: sys.modules.pop(n) for n in names if n in sys.modules}
    sys.modules.update(make_modules(hw))
    sys.path.insert(0, str(FIRMWARE))
    try:
        cfg = importlib.import_module("config")
        for key, value in config.items():
            if not hasattr(cfg, key):
                raise AttributeError(f"config.py has no setting {key}")
            setattr(cfg, key, value)
        main = importlib.import_module("main")
    finally:
        sys.path.remove(str(FIRMWARE))
        for n in names:
            sys.modules.pop(n, None)
        sys.modules.update(saved)
    return main


def load_protocol() -> types.ModuleType:
    """firmware/protocol.py on its own (it needs no fakes)."""
    spec = importlib.util.spec_from_file_location("gingo_fw_protocol", FIRMWARE / "protocol.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BufferPort:
    """A port the tests feed: bytes from the Pi in, frames to the Pi collected."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.out = bytearray()

    def read_available(self) -> bytes:
        data, self.incoming = bytes(self.incoming), bytearray()
        return data

    def write(self, data: bytes) -> None:
        self.out += data


class FakeTime:
    """ticks_us / ticks_add / ticks_diff / sleep_us on a virtual clock."""

    def __init__(self) -> None:
        self.now = 0
        self.slept = 0

    def ticks_us(self) -> int:
        return self.now

    def ticks_add(self, a: int, b: int) -> int:
        return a + b

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b

    def sleep_us(self, us: int) -> None:
        self.now += us
        self.slept += us
