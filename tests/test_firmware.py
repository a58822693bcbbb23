"""The Pico firmware under CPython with a fake machine module; its frames read by the companion."""

from __future__ import annotations

import json
import os
import random
import select
import sys
import threading
import time
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fake_machine as fm  # noqa: E402
from test_framing import VECTORS, Vector  # noqa: E402

from companion.hardware import framing  # noqa: E402
from companion.hardware.framing import Frame, FrameSplitter, encode_frame, unpack_readings  # noqa: E402
from companion.hardware.sensing import BoardChange, SensingPipeline  # noqa: E402
from companion.hardware.sensors.serial import SerialSensors  # noqa: E402

proto = fm.load_protocol()


def frames_of(data: bytes) -> list[Frame]:
    out = list(FrameSplitter().feed(bytes(data)))
    assert all(isinstance(f, Frame) for f in out), out
    return out  # type: ignore[return-value]


# ---- protocol: same bytes as docs/protocol.md ----

@pytest.mark.parametrize("v", VECTORS, ids=lambda v: v.name)
def test_firmware_encodes_and_decodes_the_doc_vectors(v: Vector) -> None:
    assert proto.encode_frame(v.type, v.seq, v.payload) == v.wire
    assert proto.decode_body(v.wire[1:-1]) == (v.type, v.seq, v.payload)
    assert proto.Splitter().feed(v.wire) == [(v.type, v.seq, v.payload)]


def test_table_crc_matches_binascii() -> None:
    assert proto.crc32_table(b"123456789") == 0xCBF43926
    for v in VECTORS:
        assert proto.crc32_table(v.wire) == zlib.crc32(v.wire)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=600))
def test_cobs_agrees_with_the_companion(data: bytes) -> None:
    assert bytes(proto.cobs_encode(data)) == framing.cobs_encode(data)
    assert bytes(proto.cobs_decode(framing.cobs_encode(data))) == data


def test_firmware_drops_bad_frames() -> None:
    s = proto.Splitter()
    good = encode_frame(framing.PING, 1)
    bad = bytearray(good)
    bad[4] ^= 0x10
    assert s.feed(bytes(bad) + b"\x00\x07abc\x00" + bytes(3000) + b"\x05" * 2000 + b"\x00" + good) == [
        (framing.PING, 1, b"")
    ]
    assert s.dropped == 3


# ---- scanning ----

def board_levels(hw: fm.Hardware, space_map: tuple[tuple[int, int], ...], rng: random.Random) -> list[int]:
    expected = []
    for mux, channel in space_map:
        level = rng.randrange(2000, 64000)
        hw.levels[(mux, channel)] = level
        expected.append(level)
    return expected


def test_scan_reads_every_space_through_the_right_mux_channel() -> None:
    hw = fm.Hardware()
    main = fm.load_firmware(hw)
    expected = board_levels(hw, main.config.SPACE_MAP, random.Random(1))
    port = fm.BufferPort()
    fw = main.Firmware(port)
    fw.step()
    (frame,) = frames_of(port.out)
    assert frame.type == framing.READINGS and frame.seq == 0
    assert list(unpack_readings(frame.payload)) == expected
    assert hw.conflicts == 0 and hw.adc_reads == 52
    assert all(hw.pin_value(p) == 1 for p in hw.enable_pins or ())  # all muxes released after the scan


def test_scan_with_one_adc_per_mux_and_a_custom_map() -> None:
    hw = fm.Hardware(enable_pins=None, adc_pins=(26, 27, 28, 29))
    space_map = tuple((s // 13, 12 - s % 13) for s in range(52))  # mux per 13 spaces, wired backwards
    main = fm.load_firmware(hw, MUX_ENABLE_PINS=None, MUX_ADC_PINS=(26, 27, 28, 29), SPACE_MAP=space_map, AVERAGE=4)
    expected = board_levels(hw, space_map, random.Random(2))
    port = fm.BufferPort()
    main.Firmware(port).step()
    (frame,) = frames_of(port.out)
    assert list(unpack_readings(frame.payload)) == expected
    assert hw.adc_reads == 52 * 4


def test_bad_space_map_is_refused() -> None:
    hw = fm.Hardware()
    main = fm.load_firmware(hw, SPACE_MAP=((0, 0),) * 10)
    with pytest.raises(ValueError, match="SPACE_MAP must list 52"):
        main.Firmware(fm.BufferPort())


# ---- commands ----

def test_ping_hello_config_and_garbage() -> None:
    hw = fm.Hardware()
    main = fm.load_firmware(hw, BOARD_ID="test-board")
    port = fm.BufferPort()
    fw = main.Firmware(port)
    port.incoming += b"\x03\x03\x03garbage\x00" + encode_frame(framing.PING, 0) + encode_frame(framing.HELLO, 1)
    port.incoming += encode_frame(framing.CONFIG, 2, b'{"rate": 250, "avg": 3}')
    port.incoming += encode_frame(framing.CONFIG, 3, b'{"rate": 5000}')
    port.incoming += encode_frame(framing.CONFIG, 4, b'{"speed": 1}')
    fw.step()
    frames = frames_of(port.out)
    assert [f.type for f in frames] == [framing.PONG, framing.HELLO, framing.ERROR, framing.ERROR, framing.READINGS]
    assert [f.seq for f in frames] == [0, 1, 2, 3, 4]
    assert json.loads(frames[1].payload) == {"fw": "1.0.0", "board": "test-board", "spaces": 52}
    assert b"rate must be an integer 50..500" in frames[2].payload
    assert b"unknown CONFIG keys: speed" in frames[3].payload
    assert (fw.rate, fw.average) == (250, 3) and hw.adc_reads == 52 * 3
    assert fw.stats["dropped"] == 1


def test_leds_frames_drive_the_pio_strip() -> None:
    hw = fm.Hardware()
    main = fm.load_firmware(hw, LED_PIN=15, LED_COUNT=4)
    port = fm.BufferPort()
    fw = main.Firmware(port)
    (sm,) = hw.state_machines
    assert sm.pin == 15 and sm.active_state == 1 and sm.freq == 8_000_000
    assert sm.program.pio_options["pull_thresh"] == 24
    port.incoming += encode_frame(framing.LEDS, 0, bytes([255, 0, 0, 0, 255, 0, 1, 2, 3]))
    fw.poll()
    # G, R, B in the top 24 bits; the fourth LED, absent from the frame, goes dark
    assert sm.words == [[0x00FF0000, 0xFF000000, 0x02010300, 0]]
    port.incoming += encode_frame(framing.LEDS, 1, bytes(4))[:-1] + b"\x00"  # 4 bytes: not RGB triples
    fw.poll()
    assert len(sm.words) == 1


def test_leds_ignored_without_a_strip() -> None:
    hw = fm.Hardware()
    main = fm.load_firmware(hw)
    port = fm.BufferPort()
    fw = main.Firmware(port)
    port.incoming += encode_frame(framing.LEDS, 0, bytes(6))
    fw.poll()
    assert hw.state_machines == [] and port.out == b""


def test_main_loop_rate_watchdog_and_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    hw = fm.Hardware()
    main = fm.load_firmware(hw, SCAN_RATE=200)
    clock = fm.FakeTime()
    monkeypatch.setattr(main, "time", clock)
    port = fm.BufferPort()
    main.run(port, loops=50)
    assert hw.kbd_intr == -1
    assert hw.wdt is not None and hw.wdt.feeds == 50 and hw.wdt.timeout == 2000
    frames = frames_of(port.out)
    assert frames[0].type == framing.HELLO
    assert [f.seq for f in frames[1:]] == list(range(1, 51))
    assert clock.now == 50 * 5000  # 200 frames per second on the virtual clock: >= 100 required


def test_safe_mode_jumper_leaves_the_repl_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    hw = fm.Hardware()
    hw.grounded.add(22)
    main = fm.load_firmware(hw)
    monkeypatch.setattr(main, "time", fm.FakeTime())
    port = fm.BufferPort()
    assert main.run(port, loops=5) is None
    assert hw.kbd_intr == 3 and hw.wdt is None and port.out == b""


def test_main_loop_reports_errors_and_keeps_going(monkeypatch: pytest.MonkeyPatch) -> None:
    hw = fm.Hardware()
    main = fm.load_firmware(hw)
    monkeypatch.setattr(main, "time", fm.FakeTime())

    class FlakyPort(fm.BufferPort):
        calls = 0

        def read_available(self) -> bytes:
            self.calls += 1
            if self.calls == 2:
                raise OSError("usb hiccup")
            return super().read_available()

    port = FlakyPort()
    main.run(port, loops=3)
    types = [f.type for f in frames_of(port.out)]
    assert types == [framing.HELLO, framing.READINGS, framing.ERROR, framing.READINGS]


# ---- end to end: firmware on one end of a pty, the companion's reader on the other ----

class PtyPort:
    def __init__(self, fd: int) -> None:
        self.fd = fd

    def read_available(self) -> bytes:
        if select.select([self.fd], [], [], 0)[0]:
            return os.read(self.fd, 4096)
        return b""

    def write(self, data: bytes) -> None:
        os.write(self.fd, data)


def test_firmware_to_companion_over_a_pty(tmp_path: Path) -> None:
    hw = fm.Hardware()
    main = fm.load_firmware(hw, BOARD_ID="pty-board")
    for mux, channel in main.config.SPACE_MAP:
        hw.levels[(mux, channel)] = 32768
    master, slave = os.openpty()
    path = os.ttyname(slave)
    os.close(slave)
    fw = main.Firmware(PtyPort(master))
    stop = threading.Event()

    def pico() -> None:
        while not stop.is_set():
            fw.step()
            time.sleep(0.005)

    changes: list[BoardChange] = []
    backend = SerialSensors(path)
    pipe = SensingPipeline(backend, on_change=changes.append)
    thread = threading.Thread(target=pico, daemon=True)
    thread.start()
    pipe.start()
    try:
        deadline = time.monotonic() + 3
        while pipe.snapshot() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pipe.snapshot() == "." * 52
        assert backend.link.hello == {"fw": "1.0.0", "board": "pty-board", "spaces": 52}
        hw.levels[main.config.SPACE_MAP[33]] = 46000   # a side 1 chip lands on space 33
        deadline = time.monotonic() + 3
        while not changes and time.monotonic() < deadline:
            time.sleep(0.01)
        assert [c.changed for c in changes] == [[33]]
        assert backend.link.send_frame(framing.PING)
        deadline = time.monotonic() + 2
        while backend.link.stats["pongs"] == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        st = backend.link.stats
        assert st["pongs"] == 1 and st["crc"] == st["cobs"] == st["length"] == st["type"] == 0
        assert st["gaps"] == 0
    finally:
        pipe.stop()
        stop.set()
        thread.join(2)
        os.close(master)
