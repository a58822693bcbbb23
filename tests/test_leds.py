"""LED backends, layout, power budget and the board drawing."""

from __future__ import annotations

import atexit
import doctest
import importlib
import os
import select
import sys
import time
import types
from pathlib import Path
from typing import Any

import pytest

from companion.hardware import layout as layout_mod
from companion.hardware.layout import (
    SLOT_NAMES,
    LayoutError,
    LedLayout,
    default_layout,
    load_layout,
    parse_layout,
    wiring_targets,
)
from companion.hardware.leds import LedBackendError, open_led_backend, open_led_backend_or_sim
from companion.hardware.leds.leds_dev import LedsDevLeds
from companion.hardware.leds.pico import LEDS_FRAME, PicoLeds
from companion.hardware.leds.sim import SimLeds
from companion.hardware.leds.spi import (
    ENCODED,
    LEAD_BYTES,
    RESET_BYTES,
    SPEED_HZ,
    SPEED_RANGE,
    SpiLeds,
    encode_ws2812,
    spi_frame,
)
from companion.hardware.leds.ws281x import Ws281xLeds
from companion.hardware.power import PowerBudgetError, brightness_cap, frame_current_ma

REPO = Path(__file__).resolve().parents[1]

MODULES = [
    "companion.hardware.leds",
    "companion.hardware.leds.sim",
    "companion.hardware.leds.spi",
    "companion.hardware.leds.pico",
    "companion.hardware.leds.leds_dev",
    "companion.hardware.leds.ws281x",
    "companion.hardware.leds.pimodel",
    "companion.hardware.layout",
    "companion.hardware.power",
    "companion.hardware.drawing",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0


# ---- the common interface ----------------------------------------------------------


def test_frame_is_validated_and_state_kept_on_error() -> None:
    leds = SimLeds(count=3)
    leds.set_pixels([(1, 2, 3)] * 3)
    with pytest.raises(ValueError, match="one colour per LED: got 2 colours for 3 LEDs"):
        leds.set_pixels([(0, 0, 0)] * 2)
    with pytest.raises(ValueError, match=r"LED 1: colour \(0, 256, 0\)"):
        leds.set_pixels([(0, 0, 0), (0, 256, 0), (0, 0, 0)])
    with pytest.raises(ValueError, match="LED 2"):
        leds.set_pixels([(0, 0, 0), (0, 0, 0), (0.5, 0, 0)])  # type: ignore[list-item]
    leds.show()
    assert leds.pixels() == [(1, 2, 3)] * 3


def test_brightness_is_capped_and_applied() -> None:
    leds = SimLeds(count=2, brightness=1.0, brightness_cap=0.5)
    assert leds.brightness == 0.5
    leds.brightness = 0.25
    assert leds.brightness == 0.25
    for bad in (-0.1, 1.5, "x", True):
        with pytest.raises(ValueError, match="brightness must be a number between 0 and 1"):
            leds.brightness = bad  # type: ignore[assignment]
    assert leds.brightness == 0.25
    leds.set_pixels([(200, 100, 3), (0, 0, 0)])
    leds.show()
    assert leds.output() == [(50, 25, 1), (0, 0, 0)]
    assert leds.pixels() == [(200, 100, 3), (0, 0, 0)]
    with pytest.raises(ValueError, match="brightness cap"):
        SimLeds(count=1, brightness_cap=1.2)
    with pytest.raises(ValueError, match="LED count"):
        SimLeds(count=0)


def test_closed_backend_refuses_and_close_is_idempotent() -> None:
    with SimLeds(count=1) as leds:
        leds.show()
    assert leds.closed
    leds.close()
    with pytest.raises(LedBackendError, match="closed"):
        leds.show()
    with pytest.raises(LedBackendError, match="closed"):
        leds.set_pixels([(0, 0, 0)])


def test_sim_counts_frames_and_copies() -> None:
    leds = SimLeds(count=2)
    assert leds.frame_count == 0 and leds.pixels() == [(0, 0, 0)] * 2
    leds.set_pixels([(9, 9, 9), (1, 1, 1)])
    assert leds.pixels() == [(0, 0, 0)] * 2  # not shown yet
    leds.show()
    leds.show()
    assert leds.frame_count == 2
    got = leds.pixels()
    got[0] = (7, 7, 7)
    assert leds.pixels()[0] == (9, 9, 9)


def test_factory_errors_and_fallback(tmp_path: Path) -> None:
    with pytest.raises(LedBackendError, match="unknown LED backend 'neon'; choose one of"):
        open_led_backend("neon")
    with pytest.raises(LedBackendError, match="bad option for the sim LED backend"):
        open_led_backend("sim", colour="red")
    warnings: list[str] = []
    missing = tmp_path / "leds0"
    leds = open_led_backend_or_sim("leds_dev", warnings.append, count=7, brightness=0.3, path=str(missing))
    assert isinstance(leds, SimLeds)
    assert (leds.count, leds.brightness) == (7, 0.3)
    assert len(warnings) == 1
    assert str(missing) in warnings[0] and "dtoverlay=ws2812-pio" in warnings[0] and "simulated" in warnings[0]
    ok = open_led_backend_or_sim("sim", warnings.append, count=2)
    assert ok.count == 2 and len(warnings) == 1


# ---- ws281x ----------------------------------------------------------------------


def _fake_ws281x(begin_error: str | None) -> types.ModuleType:
    mod = types.ModuleType("rpi_ws281x")
    created: list[Any] = []

    class PixelStrip:
        def __init__(self, num: int, pin: int, freq_hz: int, dma: int, invert: bool, brightness: int, channel: int):
            self.args = (num, pin, freq_hz, dma, invert, brightness, channel)
            self.pixels = [(0, 0, 0)] * num
            self.shown: list[list[tuple[int, int, int]]] = []
            self.cleaned = 0
            atexit.register(self._cleanup)  # what the real library does
            created.append(self)

        def _cleanup(self) -> None:
            self.cleaned += 1

        def begin(self) -> None:
            if begin_error:
                raise RuntimeError(begin_error)

        def setPixelColorRGB(self, i: int, r: int, g: int, b: int) -> None:  # noqa: N802
            self.pixels[i] = (r, g, b)

        def show(self) -> None:
            self.shown.append(list(self.pixels))

    mod.PixelStrip = PixelStrip  # type: ignore[attr-defined]
    mod.created = created  # type: ignore[attr-defined]
    return mod


def _proc(tmp_path: Path, model: str) -> Path:
    (tmp_path / "proc/device-tree").mkdir(parents=True)
    (tmp_path / "proc/device-tree/model").write_bytes(model.encode() + b"\x00")
    return tmp_path


def test_ws281x_failed_begin_raises_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _fake_ws281x("ws2811_init failed with code -5 (mmap() failed)")
    monkeypatch.setitem(sys.modules, "rpi_ws281x", fake)
    with pytest.raises(LedBackendError, match=r"could not start on GPIO18 \(ws2811_init failed.*needs root"):
        Ws281xLeds(count=4, proc_root=_proc(tmp_path, "Raspberry Pi 4 Model B Rev 1.4"))
    assert len(fake.created) == 1


EXIT_TRAP_SCRIPT = """
import atexit, os, sys, types
mod = types.ModuleType("rpi_ws281x")
class PixelStrip:
    def __init__(self, *args):
        atexit.register(self._cleanup)   # as the real library does
    def _cleanup(self):
        print("CLEANUP RAN", flush=True)  # the real one segfaults here after a failed begin()
        os._exit(139)
    def begin(self):
        raise RuntimeError("ws2811_init failed with code -3 (Hardware revision is not supported)")
mod.PixelStrip = PixelStrip
sys.modules["rpi_ws281x"] = mod
from companion.hardware.leds import LedBackendError
from companion.hardware.leds.ws281x import Ws281xLeds
try:
    Ws281xLeds(count=4, proc_root=sys.argv[1])
except LedBackendError as exc:
    print("refused:", exc)
"""


def test_ws281x_failed_begin_leaves_no_exit_handler(tmp_path: Path) -> None:
    import subprocess

    proc = subprocess.run(
        [sys.executable, "-c", EXIT_TRAP_SCRIPT, str(tmp_path)],
        capture_output=True, text=True, timeout=60, cwd=REPO,
    )
    assert "refused: rpi_ws281x could not start" in proc.stdout
    assert "CLEANUP RAN" not in proc.stdout
    assert proc.returncode == 0, proc.stderr


def test_ws281x_drives_strip_and_cleans_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _fake_ws281x(None)
    monkeypatch.setitem(sys.modules, "rpi_ws281x", fake)
    leds = Ws281xLeds(count=2, pin=13, brightness=0.5, proc_root=_proc(tmp_path, "Raspberry Pi 3 Model B Plus"))
    strip = fake.created[0]
    assert strip.args == (2, 13, 800_000, 10, False, 255, 1)
    leds.set_pixels([(255, 0, 10), (0, 0, 0)])
    leds.show()
    assert strip.shown[-1] == [(128, 0, 5), (0, 0, 0)]
    leds.close()
    assert strip.shown[-1] == [(0, 0, 0), (0, 0, 0)]
    assert strip.cleaned == 1


def test_ws281x_refuses_pi5_and_bad_pins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _fake_ws281x(None)
    monkeypatch.setitem(sys.modules, "rpi_ws281x", fake)
    with pytest.raises(LedBackendError, match="does not support the Raspberry Pi 5 Model B.*'leds_dev'.*'spi'"):
        Ws281xLeds(count=2, proc_root=_proc(tmp_path, "Raspberry Pi 5 Model B Rev 1.0"))
    assert fake.created == []
    with pytest.raises(LedBackendError, match="cannot drive GPIO4"):
        Ws281xLeds(count=2, pin=4, proc_root=tmp_path / "elsewhere")


def test_ws281x_pi5_detected_from_cpuinfo(tmp_path: Path) -> None:
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/cpuinfo").write_text("processor\t: 0\nModel\t\t: Raspberry Pi 5 Model B Rev 1.1\n")
    with pytest.raises(LedBackendError, match="Raspberry Pi 5"):
        Ws281xLeds(count=2, proc_root=tmp_path)


def test_ws281x_not_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rpi_ws281x", None)  # import raises ImportError
    with pytest.raises(LedBackendError, match="rpi_ws281x library is not installed"):
        Ws281xLeds(count=2, proc_root=tmp_path)


# ---- leds_dev --------------------------------------------------------------------


def test_leds_dev_writes_rgbw_frames(tmp_path: Path) -> None:
    dev = tmp_path / "leds0"
    dev.write_bytes(b"")
    leds = LedsDevLeds(count=3, path=str(dev), brightness=0.5)
    leds.set_pixels([(255, 0, 0), (0, 255, 0), (0, 0, 100)])
    leds.show()
    assert dev.read_bytes() == bytes([128, 0, 0, 0, 0, 128, 0, 0, 0, 0, 50, 0])
    leds.set_pixels([(2, 4, 6)] * 3)
    leds.show()
    assert dev.read_bytes() == bytes([1, 2, 3, 0]) * 3  # overwritten, not appended
    leds.close()
    assert dev.read_bytes() == bytes(12)  # dark on close


class _OneFramePerOpen:
    """Stands in for ``os`` in leds_dev: emulates the ws2812-pio driver, which takes one
    write per open() (a second write fails with ENOSPC) and cannot seek."""

    O_WRONLY = os.O_WRONLY

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.open_fds: dict[int, int] = {}  # fd -> writes so far
        self._next = 100

    def open(self, path: str, flags: int) -> int:
        self._next += 1
        self.open_fds[self._next] = 0
        return self._next

    def write(self, fd: int, data: bytes) -> int:
        import errno

        if self.open_fds[fd]:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.open_fds[fd] += 1
        self.writes.append(bytes(data))
        return len(data)

    def lseek(self, fd: int, pos: int, how: int) -> int:
        import errno

        raise OSError(errno.ESPIPE, "Illegal seek")

    def close(self, fd: int) -> None:
        del self.open_fds[fd]


def test_leds_dev_writes_one_frame_per_open(monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.hardware.leds.leds_dev as leds_dev_mod

    fake = _OneFramePerOpen()
    monkeypatch.setattr(leds_dev_mod, "os", fake)
    leds = LedsDevLeds(count=2, path="/dev/leds0")
    leds.set_pixels([(1, 2, 3), (4, 5, 6)])
    leds.show()
    leds.show()
    leds.close()
    assert fake.writes == [b"\x00", bytes([1, 2, 3, 0, 4, 5, 6, 0]), bytes([1, 2, 3, 0, 4, 5, 6, 0]), bytes(8)]
    assert fake.open_fds == {}  # every open was closed


def test_leds_dev_missing_and_forbidden(tmp_path: Path) -> None:
    with pytest.raises(LedBackendError, match=r"dtoverlay=ws2812-pio,gpio=18,num_leds=60.*config.txt"):
        LedsDevLeds(count=60, path=str(tmp_path / "nope"))
    if os.geteuid() != 0:
        dev = tmp_path / "leds0"
        dev.write_bytes(b"")
        dev.chmod(0o444)
        with pytest.raises(LedBackendError, match="no permission.*udev rule"):
            LedsDevLeds(count=2, path=str(dev))


# ---- spi -------------------------------------------------------------------------


def _waveform(data: bytes, bit_ns: float, gaps: list[float] | None = None, hold: bool = False,
              ) -> list[tuple[int, float]]:
    """The MOSI line as (level, duration ns) runs; ``gaps[i]`` ns of pause after byte i
    (the pause the Pi's SPI controller may insert between bytes), during which the line
    goes low, or with ``hold`` keeps the byte's last level (both are modelled: the
    encoding must survive either)."""
    runs: list[tuple[int, float]] = []

    def add(level: int, ns: float) -> None:
        if runs and runs[-1][0] == level:
            runs[-1] = (level, runs[-1][1] + ns)
        else:
            runs.append((level, ns))

    for i, byte in enumerate(data):
        for k in range(7, -1, -1):
            add((byte >> k) & 1, bit_ns)
        if gaps is not None and gaps[i]:
            add(byte & 1 if hold else 0, gaps[i])
    return runs


# The windows of both LED parts (WS2812B: 400/800 ns +-150; WS2812B-V5: T0H 220..380,
# T1H 580..1000): what the strip accepts as a 0 and as a 1.
T0H = (250.0, 380.0)
T1H = (650.0, 950.0)


def _decode_spi(data: bytes, bit_ns: float = 352.0, gaps: list[float] | None = None, hold: bool = False) -> bytes:
    """Decode SPI output as a WS2812 would: each high pulse is one LED bit, a 0 if it
    lasts T0H, a 1 if it lasts T1H; a low run must stay below the 280 us reset inside a
    frame. Independent of the encoder's tables."""
    runs = _waveform(data, bit_ns, gaps, hold)
    assert runs[0][0] == 0, "the line must start low (the lead byte)"
    bits: list[int] = []
    for level, ns in runs:
        if level:
            if T0H[0] <= ns <= T0H[1]:
                bits.append(0)
            elif T1H[0] <= ns <= T1H[1]:
                bits.append(1)
            else:
                raise AssertionError(f"high pulse of {ns:.0f} ns is neither a 0 nor a 1")
    for level, ns in runs[1:-1]:
        assert level or ns < 50_000, f"low run of {ns:.0f} ns inside a frame would latch it"
    assert runs[-1][0] == 0 and runs[-1][1] >= 280_000, "the frame must end with >= 280 us low"
    assert len(bits) % 8 == 0
    return bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))


def _bit_ns(speed_hz: int, core_hz: int) -> float:
    """SPI bit time the kernel's spi-bcm2835 gives: even divider, rounded up."""
    cdiv = -(-core_hz // speed_hz)
    cdiv += cdiv % 2
    return 1e9 * cdiv / core_hz


def test_spi_encoder_known_patterns() -> None:
    assert encode_ws2812([(0, 0, 0)]) == bytes.fromhex("88888888") * 3
    assert encode_ws2812([(0, 255, 0)]) == bytes.fromhex("cccccccc") + bytes.fromhex("88888888") * 2
    # 0x80 = 1 then seven 0s: 1100 1000 | 1000 1000 | ...
    assert encode_ws2812([(0, 0x80, 0)])[:4] == bytes.fromhex("c8888888")
    # 0x01: seven 0s then a 1
    assert encode_ws2812([(0, 0x01, 0)])[:4] == bytes.fromhex("8888888c")
    # every SPI byte ends low and holds whole LED bits: a pause between bytes is harmless
    assert all(b & 1 == 0 and b & 0x10 == 0 for enc in ENCODED for b in enc)
    frame = spi_frame([(1, 2, 3)])
    assert frame[:LEAD_BYTES] == bytes(LEAD_BYTES) and frame[-RESET_BYTES:] == bytes(RESET_BYTES)


def test_spi_encoder_round_trips_every_byte_and_order() -> None:
    frame = [(v, (v * 7) % 256, 255 - v) for v in range(256)]
    grb = _decode_spi(spi_frame(frame, "GRB"))
    assert grb == bytes(c for r, g, b in frame for c in (g, r, b))
    rgb = _decode_spi(spi_frame(frame, "RGB"))
    assert rgb == bytes(c for rgb_ in frame for c in rgb_)
    with pytest.raises(ValueError, match="colour order"):
        encode_ws2812(frame, "RGBW")


@pytest.mark.parametrize("core_mhz", [200, 250, 400, 500])
def test_spi_timing_holds_on_every_core_clock_and_with_inter_byte_gaps(core_mhz: int) -> None:
    """At the default clock, on each Pi's core clock, the pulses fall in both parts'
    windows, also when the controller pauses after every byte (1 idle clock, the
    kernel driver) or at random for up to 5 us (DMA on a Pi 4)."""
    import random

    frame = [(v, 255 - v, (v * 37) % 256) for v in range(0, 256, 4)]
    want = bytes(c for r, g, b in frame for c in (g, r, b))
    data = spi_frame(frame)
    bit = _bit_ns(SPEED_HZ, core_mhz * 1_000_000)
    assert T0H[0] <= bit <= T0H[1] and T1H[0] <= 2 * bit <= T1H[1]
    assert _decode_spi(data, bit) == want
    assert _decode_spi(data, bit, [bit] * len(data)) == want
    rng = random.Random(core_mhz)
    gaps = [rng.choice([0.0, 0.0, bit, rng.uniform(0, 5000)]) for _ in data]
    assert _decode_spi(data, bit, gaps) == want
    assert _decode_spi(data, bit, gaps, hold=True) == want


def test_the_old_three_bit_encoding_breaks_under_gaps() -> None:
    """Why the encoding changed: with 3 SPI bits per LED bit, LED bits 2 and 5 of every
    colour byte straddle a byte boundary, so a pause there splits or stretches a pulse
    (the test bed can see the defect)."""
    old = bytes.fromhex("924924")  # a colour byte of 0 in the old encoding: 100 100 10|0 ...
    data = bytes(1) + old * 3 + bytes(700)
    assert 1e9 / 2.4e6 > T0H[1]  # its 0 was 417 ns high at 2.4 MHz: too long for the V5
    assert _decode_spi(data, 330.0) == bytes(3)  # even at a clock that fits both parts...
    with pytest.raises(AssertionError):  # ...a pause that holds the level stretches a 0 to a 1
        assert _decode_spi(data, 330.0, [330.0] * len(data), hold=True) == bytes(3)
    four = bytes.fromhex("9249a4")  # 0x04: LED bit 5 is a 1 and splits as 1|10
    data = bytes(1) + four + bytes(700)
    assert _decode_spi(data, 330.0) == b"\x04"
    with pytest.raises(AssertionError):  # a pause that drops the line cuts that 1 in two
        assert _decode_spi(data, 330.0, [330.0] * len(data)) == b"\x04"


def test_spi_speed_outside_the_timing_is_refused() -> None:
    for hz in (SPEED_RANGE[0], SPEED_RANGE[1]):
        for core in (200, 250, 400, 500):
            bit = _bit_ns(hz, core * 1_000_000)
            assert T0H[0] <= bit <= T0H[1] and T1H[0] <= 2 * bit <= T1H[1], (hz, core)
    with pytest.raises(LedBackendError, match="speed_hz 2400000 gives LED pulses outside"):
        SpiLeds(count=2, spi=_FakeSpi(), speed_hz=2_400_000)


class _FakeSpi:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def writebytes2(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True


def test_spi_backend_on_a_fake_device() -> None:
    dev = _FakeSpi()
    leds = SpiLeds(count=2, spi=dev, order="RGB", brightness=0.5)
    leds.set_pixels([(255, 0, 0), (0, 0, 64)])
    leds.show()
    assert _decode_spi(dev.writes[-1]) == bytes([128, 0, 0, 0, 0, 32])
    leds.close()
    assert _decode_spi(dev.writes[-1]) == bytes(6) and dev.closed
    with pytest.raises(LedBackendError, match="order must be one of"):
        SpiLeds(count=2, spi=_FakeSpi(), order="XYZ")


def test_spi_without_spidev(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "spidev", None)
    with pytest.raises(LedBackendError, match="spidev library is not installed"):
        SpiLeds(count=2)


def test_spi_missing_device(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("spidev")

    class SpiDev:
        def open(self, bus: int, device: int) -> None:
            raise FileNotFoundError(2, "No such file or directory")

    fake.SpiDev = SpiDev  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "spidev", fake)
    with pytest.raises(LedBackendError, match=r"/dev/spidev0\.1 does not exist: add 'dtparam=spi=on'") as err:
        SpiLeds(count=2, device=1)
    # the switch is Raspberry Pi OS's: on Debian's own kernel the advice says it does nothing
    assert "Raspberry Pi OS" in str(err.value) and "Debian's own kernel ignores dtparam=spi=on" in str(err.value)
    assert "docs/install.md, SPI on Debian's kernel" in str(err.value)


# ---- pico ------------------------------------------------------------------------


class _Link:
    def __init__(self, up: bool = True) -> None:
        self.up = up
        self.sent: list[tuple[int, bytes]] = []

    def send_frame(self, type_: int, payload: bytes) -> bool:
        if not self.up:
            return False
        self.sent.append((type_, payload))
        return True


def test_pico_payload_and_dropped_frames() -> None:
    link = _Link()
    leds = PicoLeds(count=2, link=link, brightness=0.5)
    leds.set_pixels([(255, 1, 2), (10, 20, 30)])
    leds.show()
    assert link.sent == [(0x10, bytes([128, 0, 1, 5, 10, 15]))]
    link.up = False
    leds.show()
    leds.show()
    assert leds.dropped == 2 and len(link.sent) == 1
    with pytest.raises(LedBackendError, match="sensor link"):
        PicoLeds(count=2)
    with pytest.raises(LedBackendError, match="sensor link"):
        PicoLeds(count=2, link=object())


def test_pico_frames_through_the_real_serial_link_on_a_pty() -> None:
    from companion.hardware import framing
    from companion.hardware.sensors import serial as serial_mod

    assert framing.LEDS == LEDS_FRAME
    master, slave = os.openpty()
    link = serial_mod.SerialLink(os.ttyname(slave))
    try:
        leds = PicoLeds(count=3, link=link)
        leds.set_pixels([(1, 2, 3), (0, 0, 0), (255, 254, 253)])
        leds.show()
        splitter = framing.FrameSplitter()
        found: list[Any] = []
        deadline = time.monotonic() + 3.0
        while not found and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                for item in splitter.feed(os.read(master, 4096)):
                    if isinstance(item, framing.Frame) and item.type == LEDS_FRAME:
                        found.append(item)
        assert found, "no LEDS frame arrived"
        assert found[0].payload == bytes([1, 2, 3, 0, 0, 0, 255, 254, 253])
    finally:
        link.close()
        os.close(master)
        os.close(slave)


# ---- layout ----------------------------------------------------------------------


def test_default_layout_is_serpentine_with_markers() -> None:
    lay = default_layout()
    assert lay.count == 60
    assert [lay.slot_led(f"side1_{c}") for c in range(1, 5)] == [0, 1, 2, 3]
    assert [lay.space_led(s) for s in range(4)] == [7, 6, 5, 4]  # row 1 runs back
    assert [lay.space_led(s) for s in range(4, 8)] == [8, 9, 10, 11]
    assert [lay.space_led(s) for s in range(48, 52)] == [55, 54, 53, 52]
    assert [lay.slot_led(f"side2_{c}") for c in range(1, 5)] == [56, 57, 58, 59]
    # every LED is used exactly once
    assert sorted([lay.space_led(s) for s in range(52)] + [lay.slot_led(n) for n in SLOT_NAMES]) == list(range(60))
    # neighbours on the chain are neighbours on the board (no long jumps in the wiring)
    for i in range(59):
        a, b = lay.target(i), lay.target(i + 1)
        if isinstance(a, int) and isinstance(b, int):
            ra, ca, rb, cb = a // 4, a % 4, b // 4, b % 4
            assert abs(ra - rb) + abs(ca - cb) == 1


def test_packaged_layout_file_matches_default() -> None:
    packaged = REPO / "companion/hardware/defaults" / layout_mod.DEFAULT_LAYOUT
    assert packaged.is_file() and not (REPO / "hardware/led_layout.toml").exists()
    assert load_layout(str(packaged)) == default_layout()
    assert load_layout() == default_layout()


def test_layout_wiring_form_and_errors(tmp_path: Path) -> None:
    rows = parse_layout({"layout": {"wiring": "rows", "start": "right", "markers": False, "count": 54}})
    assert rows.count == 54 and rows.space_led(0) == 3 and rows.space_led(3) == 0 and rows.space_led(4) == 7
    assert not rows.has_slot("side1_1")
    with pytest.raises(KeyError):
        rows.slot_led("side1_1")
    bad = list(wiring_targets())
    bad[10] = 7  # space 7 twice, space 6 missing
    with pytest.raises(LayoutError, match="LED 11: space 7 is already lit by LED 10"):
        LedLayout(tuple(bad))
    with pytest.raises(LayoutError, match="no LED for space"):
        LedLayout(tuple(range(51)))
    with pytest.raises(LayoutError, match="unknown slot 'side3_1'"):
        LedLayout((*range(52), "side3_1"))
    with pytest.raises(LayoutError, match="space 52 is out of range"):
        LedLayout((*range(52), 52))
    with pytest.raises(LayoutError, match="unknown key layout.colour"):
        parse_layout({"layout": {"colour": 1}})
    with pytest.raises(LayoutError, match="layout.wiring must be"):
        parse_layout({"layout": {"wiring": "zigzag"}})
    with pytest.raises(LayoutError, match="layout.count must be an integer of at least 60"):
        parse_layout({"layout": {"count": 10}})
    f = tmp_path / "l.toml"
    f.write_text('[layout]\nleds = ["none", ' + ", ".join(str(s) for s in range(52)) + "]\n")
    lay = load_layout(str(f))
    assert lay.count == 53 and lay.target(0) is None and lay.space_led(0) == 1
    f.write_text("[layout\n")
    with pytest.raises(LayoutError, match="not valid TOML"):
        load_layout(str(f))
    with pytest.raises(LayoutError, match="not found"):
        load_layout(str(tmp_path / "missing.toml"))
    with pytest.raises(ValueError, match="space must be 0..51"):
        default_layout().space_led(52)


def test_default_layout_does_not_depend_on_the_working_directory(monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_layout() == default_layout()


# ---- power -----------------------------------------------------------------------


def test_power_budget() -> None:
    # 4 A * 0.8 = 3200 mA; 60 mA idle; full white 60 * 60 mA = 3600 mA
    assert brightness_cap(4.0, 60) == pytest.approx((3200 - 60) / 3600)
    assert brightness_cap(2.0, 60, other_load_amps=0.5) == pytest.approx((1600 - 500 - 60) / 3600)
    assert brightness_cap(10.0, 60) == 1.0
    with pytest.raises(PowerBudgetError, match="use a bigger 5 V supply"):
        brightness_cap(0.05, 60)
    with pytest.raises(ValueError, match="supply current must be positive"):
        brightness_cap(0, 60)
    # at the cap, a full-white frame fits the usable current
    cap = brightness_cap(3.0, 60)
    assert frame_current_ma([(255, 255, 255)] * 60, cap) == pytest.approx(3000 * 0.8)


# ---- drawing ---------------------------------------------------------------------


def test_drawing_matches_layout_and_committed_svg() -> None:
    from companion.hardware.drawing import board_svg

    svg = board_svg(default_layout())
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    for led in (0, 7, 59):
        assert f">{led}<" in svg
    committed = (REPO / "docs/img/board-wiring.svg").read_text(encoding="utf-8")
    assert committed == svg, "docs/img/board-wiring.svg is stale: run python -m companion.hardware.drawing"


def test_fallback_survives_any_driver_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("rpi_ws281x")

    class PixelStrip:
        def __init__(self, *args: Any) -> None:
            raise AttributeError("module 'rpi_ws281x' has no attribute 'ws'")  # a broken install

    fake.PixelStrip = PixelStrip  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "rpi_ws281x", fake)
    warnings: list[str] = []
    leds = open_led_backend_or_sim("ws281x", warnings.append, count=5, proc_root=str(tmp_path))
    assert leds.name == "sim" and leds.count == 5
    assert warnings == ["LEDs: module 'rpi_ws281x' has no attribute 'ws'; using the simulated strip instead"]


def test_the_pico_backend_takes_the_serial_sensor_backends_link() -> None:
    """The service and the self-test hand the serial sensor backend to open_leds: its
    link sends the LEDS frames (before, the backend itself went in, had no send_frame,
    and the service fell back to the simulated strip: a strip on the Pico never lit)."""
    from companion.hardware.config import parse_config
    from companion.hardware.sensors.serial import SerialSensors

    sensors = SerialSensors("loop://", wait=True)
    warned: list[str] = []
    try:
        cfg = parse_config({"leds": {"backend": "pico", "count": 2}, "sensors": {"backend": "serial", "port": "loop://"}})
        leds = cfg.open_leds(warned.append, sensors)
        assert leds.name == "pico" and warned == []
        sent = sensors.link.stats["write_failures"]
        leds.set_pixels([(10, 20, 30), (0, 0, 0)])
        leds.show()
        assert leds.dropped == 0 and sensors.link.stats["write_failures"] == sent  # the frame went out
    finally:
        sensors.close()
