"""The serial sensor link on real pty pairs: frames, bad frames, PING, unplug and re-plug."""

from __future__ import annotations

import os
import select
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.hardware.framing import (
    HELLO, LEDS, PING, PONG, READINGS, Frame, FrameSplitter, encode_frame, pack_readings,
)
from companion.hardware.sensing import BoardChange, SensingPipeline
from companion.hardware.sensors import SensorBackendError, open_sensor_backend
from companion.hardware.sensors.serial import SerialLink, SerialSensors, resolve_port
from tests.conftest import wait_for

EMPTY = [32768] * 52


class Pty:
    """The Pico's end of a pty pair; pyserial opens ``link`` (a by-id style symlink)."""

    def __init__(self, link: Path) -> None:
        self.link = link
        self.master = -1
        self.plug()

    def plug(self) -> None:
        master, slave = os.openpty()
        name = os.ttyname(slave)
        os.close(slave)
        self.master = master
        tmp = self.link.with_suffix(".new")
        if tmp.exists() or tmp.is_symlink():
            tmp.unlink()
        tmp.symlink_to(name)
        os.replace(tmp, self.link)

    def unplug(self) -> None:
        """Close the Pico's end; like udev, remove the by-id link (a stale /dev/pts
        number could be reused by another pty meanwhile)."""
        self.link.unlink(missing_ok=True)
        os.close(self.master)
        self.master = -1

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def read_frames(self, timeout: float = 1.0, want: int = 1, skip_hello: bool = False) -> list[Frame]:
        """Frames the companion sent to the Pico (``skip_hello``: leave out HELLO requests,
        which the companion repeats until the firmware answers)."""
        import select

        splitter = FrameSplitter()
        frames: list[Frame] = []
        deadline = time.monotonic() + timeout
        while len(frames) < want and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                for item in splitter.feed(os.read(self.master, 4096)):
                    assert isinstance(item, Frame), item
                    if not (skip_hello and item.type == HELLO):
                        frames.append(item)
        return frames

    def close(self) -> None:
        if self.master >= 0:
            self.unplug()


@pytest.fixture
def pty(tmp_path: Path) -> Iterator[Pty]:
    p = Pty(tmp_path / "usb-Gingo_Pico-if00")
    yield p
    p.close()


def readings_frame(seq: int, values: list[int] = EMPTY) -> bytes:
    return encode_frame(READINGS, seq, pack_readings(values))


def feed_until(pty: Pty, values: list[int], cond: Callable[[], bool], seq: int = 0, timeout: float = 3.0) -> int:
    """Play the Pico: a READINGS frame every 10 ms until ``cond()``; return the next seq."""
    deadline = time.monotonic() + timeout
    while not cond() and time.monotonic() < deadline:
        pty.write(readings_frame(seq & 0xFFFF, values))
        seq += 1
        time.sleep(0.01)
    assert cond(), "condition not met while feeding frames"
    return seq


def test_reads_frames_and_sends_hello_request(pty: Pty) -> None:
    s = SerialSensors(str(pty.link))
    try:
        hello = pty.read_frames(want=1)
        assert [(f.type, f.payload) for f in hello] == [(HELLO, b"")]
        pty.write(encode_frame(HELLO, 0, b'{"fw": "1.0.0", "board": "t1", "spaces": 52}'))
        values = list(range(1000, 1052))
        pty.write(readings_frame(1, values))
        r = s.read(2.0)
        assert r is not None and r.seq == 1 and list(r.values) == values
        assert s.online
        assert wait_for(lambda: s.link.receiver.hello is not None)
        assert s.link.receiver.hello == {"fw": "1.0.0", "board": "t1", "spaces": 52}
    finally:
        s.close()


def test_answers_ping_and_sends_leds(pty: Pty) -> None:
    s = SerialSensors(str(pty.link))
    try:
        pty.read_frames(want=1)  # the HELLO request
        pty.write(encode_frame(PING, 5))
        frames = pty.read_frames(want=1, skip_hello=True)
        assert [f.type for f in frames] == [PONG]
        assert s.send_leds(bytes([255, 0, 0, 0, 255, 0]))
        frames = pty.read_frames(want=1, skip_hello=True)
        assert frames[0].type == LEDS and frames[0].payload == bytes([255, 0, 0, 0, 255, 0])
        # the companion's own seq counts up by one per frame sent (HELLO requests included)
        assert s.link.send_frame(PING)
        later = pty.read_frames(want=1, skip_hello=True)[0]
        assert later.type == PING and later.seq > frames[0].seq
        with pytest.raises(ValueError, match="triples"):
            s.send_leds(b"\x01\x02")
    finally:
        s.close()


def test_bad_frames_are_counted_by_kind_and_skipped(pty: Pty) -> None:
    s = SerialSensors(str(pty.link))
    try:
        good = readings_frame(1)
        bad_crc = bytearray(good)
        bad_crc[20] ^= 0x01 if bad_crc[20] not in (0, 1) else 0x02
        truncated = good[: len(good) // 2]  # cut off: merges with the next delimiter
        short = encode_frame(READINGS, 2, b"\x01\x02\x03")
        unknown = encode_frame(0x42, 3)
        junk = b"\x00\x09junk\x00"
        pty.write(bytes(bad_crc) + truncated + b"\x00" + short + unknown + junk + readings_frame(4))
        r = s.read(2.0)
        assert r is not None and r.seq == 4
        assert s.read(0.1) is None
        st = s.link.stats
        assert st["crc"] >= 1 and st["type"] == 1 and st["cobs"] >= 1 and st["length"] >= 1
        assert st["readings"] == 1
    finally:
        s.close()


def test_sequence_gaps_and_duplicates(pty: Pty) -> None:
    s = SerialSensors(str(pty.link))
    try:
        pty.write(readings_frame(65534) + readings_frame(65535) + readings_frame(2) + readings_frame(2))
        got = [s.read(1.0) for _ in range(3)]
        assert [r.seq for r in got if r] == [65534, 65535, 2]
        assert s.read(0.1) is None
        assert s.link.stats["gaps"] == 2       # 0 and 1 missing across the wrap
        assert s.link.stats["duplicates"] == 1
    finally:
        s.close()


def test_unplug_goes_offline_and_replug_recovers(pty: Pty) -> None:
    statuses: list[bool] = []
    changes: list[BoardChange] = []
    backend = SerialSensors(str(pty.link), backoff=0.02, backoff_max=0.1)
    pipe = SensingPipeline(backend, on_change=changes.append, on_status=statuses.append)
    pipe.start()
    try:
        board = list(EMPTY)
        board[7] = 45000
        feed_until(pty, board, lambda: pipe.snapshot() is not None)
        assert pipe.snapshot() == "." * 7 + "1" + "." * 44
        pty.unplug()
        t0 = time.monotonic()
        assert wait_for(lambda: statuses == [True, False], timeout=2.0)
        assert time.monotonic() - t0 < 1.5  # an unplug is noticed at once (not after 500 ms of silence)
        assert pipe.snapshot() is None
        pty.plug()
        assert wait_for(lambda: backend.link.connected, timeout=2.0)
        assert pty.read_frames(want=1)[0].type == HELLO  # asks the firmware who it is again
        board[7] = 32768
        board[8] = 20000
        feed_until(pty, board, lambda: pipe.snapshot() == "." * 8 + "2" + "." * 43)
        assert statuses == [True, False, True]
        assert changes[-1].changed == [7, 8]
        assert backend.link.stats["disconnects"] == 1 and backend.link.stats["connects"] == 2
    finally:
        pipe.stop()


def test_silence_goes_offline_after_500_ms(pty: Pty) -> None:
    statuses: list[tuple[bool, float]] = []
    backend = SerialSensors(str(pty.link))
    pipe = SensingPipeline(backend, on_status=lambda up: statuses.append((up, time.monotonic())))
    pipe.start()
    try:
        seq = feed_until(pty, EMPTY, lambda: bool(statuses))
        last = time.monotonic()
        assert wait_for(lambda: len(statuses) == 2, timeout=2.0)
        assert [up for up, _ in statuses] == [True, False]
        assert 0.45 <= statuses[1][1] - last < 1.5  # 500 ms, plus polling and a busy CI machine
        assert backend.link.connected and not backend.online
        pty.write(b"\x00\x13garbage that is not a frame\x00" + readings_frame(seq))
        time.sleep(0.05)
        assert len(statuses) == 2  # bad bytes and one scan do not bring back a board yet
    finally:
        pipe.stop()


def test_missing_port_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(SensorBackendError, match="by-id"):
        open_sensor_backend("serial", port=str(tmp_path / "nothing"))
    with pytest.raises(SensorBackendError, match="no USB serial device 2e8a:0005"):
        resolve_port("usb:2e8a:0005")
    with pytest.raises(ValueError, match="usb:VID:PID"):
        resolve_port("usb:pico")


def test_wait_mode_connects_when_device_appears(tmp_path: Path) -> None:
    link_path = tmp_path / "late-pico"
    s = SerialSensors(str(link_path), wait=True, backoff=0.02, backoff_max=0.05)
    try:
        assert not s.online and s.read(0.05) is None
        pty = Pty(link_path)
        try:
            assert wait_for(lambda: s.link.connected)
            pty.write(readings_frame(0))
            assert s.read(1.0) is not None
        finally:
            pty.close()
    finally:
        s.close()


def test_shared_link_is_one_port() -> None:
    a = SerialLink.shared("loop://")
    b = SerialLink.shared("loop://")
    try:
        assert a is b
    finally:
        a.release()
        assert not a._stop.is_set()
        b.release()
        assert a._stop.is_set()


def test_gingo_sensors_json_lines(pty: Pty, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json
    import threading

    from companion.cli import main

    board = list(EMPTY)

    def pico() -> None:
        seq = 0
        wait_for(lambda: bool(SerialLink._registry), timeout=2.0)  # the command opened the port
        time.sleep(0.05)
        for phase in range(3):
            if phase == 1:
                board[12] = 45000
            if phase == 2:
                board[12], board[13] = 32768, 20000
            for _ in range(20):
                try:
                    pty.write(readings_frame(seq, board))
                except OSError:
                    return
                seq += 1
                time.sleep(0.01)

    writer = threading.Thread(target=pico)
    writer.start()
    try:
        rc = main(["sensors", "--port", str(pty.link), "--json", "--seconds", "2.0", "--data", str(tmp_path)])
    finally:
        writer.join()
    assert rc == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["status"] == "online" and lines[0]["port"] == str(pty.link)
    changes = [x for x in lines if "board" in x]
    assert [(c["changed"], c["board"][12:14]) for c in changes] == [([12], "1."), ([12, 13], ".2")]
    assert all(set(c) == {"board", "changed", "seq"} and len(c["board"]) == 52 for c in changes)
    assert lines[-1]["status"] == "offline" and lines[-1]["stats"]["readings"] == 60


def test_gingo_sensors_bad_port_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["sensors", "--port", str(tmp_path / "none"), "--json", "--frames", "1", "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot open the sensor link" in err[0] and "by-id" in err[0]


def test_gingo_sensors_takes_the_port_from_the_config_file(
    pty: Pty, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json
    import threading

    from companion.cli import main

    cfg = tmp_path / "gingo.toml"
    cfg.write_text(f'[sensors]\nbackend = "serial"\nport = "{pty.link}"\n')
    board = list(EMPTY)
    board[50] = 20000

    def pico() -> None:
        wait_for(lambda: bool(SerialLink._registry), timeout=2.0)
        time.sleep(0.05)
        for seq in range(20):
            pty.write(readings_frame(seq, board))
            time.sleep(0.01)

    writer = threading.Thread(target=pico)
    writer.start()
    try:
        rc = main(["sensors", "--config", str(cfg), "--json", "--frames", "20", "--data", str(tmp_path)])
    finally:
        writer.join()
    assert rc == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["status"] == "online"
    # settled after 5 scans (frames 0..4) and 50 ms: frame 5 at exactly 10 ms apart, 4 if the
    # writer ran late, later if frames arrive bunched
    assert lines[1]["board"] == "." * 50 + "2." and lines[1]["changed"] == [50] and 4 <= lines[1]["seq"] <= 19


def test_usb_id_is_looked_up_among_the_ports(pty: Pty, monkeypatch: pytest.MonkeyPatch) -> None:
    import serial.tools.list_ports
    from serial.tools.list_ports_common import ListPortInfo

    info = ListPortInfo(str(pty.link), skip_link_detection=True)
    info.vid, info.pid = 0x2E8A, 0x0005
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [info])
    assert resolve_port("usb:2e8a:0005") == str(pty.link)
    s = SerialSensors("usb:2E8A:0005")
    try:
        pty.write(readings_frame(3))
        r = s.read(2.0)
        assert r is not None and r.seq == 3
    finally:
        s.close()


def test_hello_is_asked_again_until_answered_and_after_silence(pty: Pty) -> None:
    """A Pico still booting, or one that reset while the port stayed open, is asked again."""
    s = SerialSensors(str(pty.link), hello_every=0.1, offline_after=0.3)
    try:
        asked = pty.read_frames(timeout=2.0, want=3)
        assert [(f.type, f.payload) for f in asked] == [(HELLO, b"")] * 3
        pty.write(encode_frame(HELLO, 0, b'{"fw": "1.1.0", "board": "t", "spaces": 52}'))
        assert wait_for(lambda: s.link.receiver.hello is not None)
        requests = s.link.stats["hello_requests"]
        seq = feed_until(pty, EMPTY, lambda: s.link.stats["readings"] >= 30, seq=1)  # 0.3 s of scans
        assert s.link.stats["hello_requests"] == requests  # answered and talking: no more asking
        # silence (the Pico reset under an open port): asked again, until it answers
        assert pty.read_frames(timeout=2.0, want=2)[-1].type == HELLO
        assert s.link.stats["hello_requests"] >= requests + 2
        pty.write(encode_frame(HELLO, 0, b'{"fw": "1.1.0", "board": "t", "spaces": 52}'))
        feed_until(pty, EMPTY, lambda: s.online, seq=seq)
    finally:
        s.close()


def test_a_pico_that_stops_reading_fails_sends_and_recovers(pty: Pty) -> None:
    """The Pico's end takes nothing: sends fail after the write timeout instead of hanging
    the caller, are counted, and the next frames arrive whole once it reads again."""
    s = SerialSensors(str(pty.link))
    try:
        pty.read_frames(want=1)  # the HELLO request
        colors = bytes(range(180))
        sent = 0
        started = time.monotonic()
        while s.send_leds(colors):  # the pty's buffers (about 68 KB) fill up
            sent += 1
            assert sent < 2000, "the pty never filled"
        assert time.monotonic() - started < 10
        assert s.link.stats["write_failures"] == 1
        drained = 0
        while select.select([pty.master], [], [], 0.1)[0]:
            drained += len(os.read(pty.master, 65536))
        assert drained >= sent * 180
        assert s.send_leds(colors[::-1])
        frames = pty.read_frames(want=1)
        assert [(f.type, f.payload) for f in frames] == [(LEDS, colors[::-1])]
    finally:
        s.close()


def test_a_write_that_completes_late_is_not_a_failure(pty: Pty, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sender descheduled for longer than the write timeout (a loaded Pi, a CI machine)
    still wrote the whole frame: it must not be reported failed (pyserial 3.5's own
    write raised its timeout after a complete write; the emulated-Pico test met it)."""
    s = SerialSensors(str(pty.link))
    try:
        pty.read_frames(want=1)
        assert s.link._serial is not None  # noqa: SLF001
        fd = s.link._serial.fileno()  # noqa: SLF001
        real_write = os.write

        def late_write(to: int, data: bytes) -> int:
            n = real_write(to, data)
            if to == fd:
                time.sleep(0.7)  # the thread loses the CPU after the write
            return n

        monkeypatch.setattr(os, "write", late_write)
        assert s.send_leds(bytes([1, 2, 3]))
        monkeypatch.setattr(os, "write", real_write)
        assert s.link.stats["write_failures"] == 0
        frames = pty.read_frames(want=1, skip_hello=True)
        assert [(f.type, f.payload) for f in frames] == [(LEDS, bytes([1, 2, 3]))]
    finally:
        s.close()


# ---- one program on the port ----


def test_a_second_program_on_the_port_is_told_the_companion_holds_it(pty: Pty, tmp_path: Path) -> None:
    """The companion opens the port exclusively; a second `gingo` (the doctor, the
    self-test...) and mpremote are refused, naming the program that holds it."""
    import subprocess
    import sys

    import serial

    holder = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "sensors", "--port", str(pty.link), "--json", "--seconds", "30",
         "--data", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        from companion.hardware.sensors.link import port_holder

        assert wait_for(lambda: port_holder(os.path.realpath(pty.link)) is not None, timeout=20.0), \
            holder.stderr.read() if holder.poll() is not None else "no lock"  # it has the port
        with pytest.raises(SensorBackendError) as err:
            SerialSensors(str(pty.link))
        text = str(err.value)
        assert f"in use by the companion (pid {holder.pid}: " in text and "sudo systemctl stop gingo" in text, text
        # mpremote opens with pyserial's exclusive=True: the same lock refuses it
        with pytest.raises(serial.SerialException, match="exclusively lock"):
            serial.Serial(str(pty.link), exclusive=True)
    finally:
        holder.terminate()
        holder.wait(10)
    # released: the next program opens it
    s = SerialSensors(str(pty.link))
    s.close()


def test_tioexcl_refuses_a_second_open_by_an_ordinary_user(pty: Pty) -> None:
    """TIOCEXCL: an open() by a user other than root (mpremote run by the builder while
    the service runs) fails with EBUSY. Root may open anyway, hence the flock too."""
    import subprocess

    if os.getuid() != 0:
        pytest.skip("needs root to run the probe as another user")
    probe = ["/bin/sh", "-c", 'if exec 3<>"$1"; then echo opened; fi', "probe"]
    s = SerialSensors(str(pty.link))
    device = os.path.realpath(pty.link)
    try:
        os.chmod(device, 0o666)
        out = subprocess.run([*probe, device], user=65534, capture_output=True, text=True, timeout=30, cwd="/")
        assert "opened" not in out.stdout and "busy" in out.stderr, out
    finally:
        s.close()
    # closed: TIOCNXCL lets the next program in
    out = subprocess.run([*probe, device], user=65534, capture_output=True, text=True, timeout=30, cwd="/")
    assert out.stdout.strip() == "opened", out


def test_the_hello_is_checked_against_the_led_config_and_errors_are_kept(pty: Pty) -> None:
    import json

    from companion.hardware.framing import ERROR

    s = SerialSensors(str(pty.link))
    try:
        s.link.receiver.expect_leds = ("pico", 60)
        pty.write(encode_frame(HELLO, 0, json.dumps({"fw": "1.0.0", "leds": 0, "rate": 220}).encode()))
        assert wait_for(lambda: s.link.receiver.hello is not None)
        problems = s.link.receiver.problems()
        assert len(problems) == 1 and "drives no LEDs" in problems[0] and "LED_PIN = 16" in problems[0]
        pty.write(encode_frame(HELLO, 1, json.dumps({"fw": "1.0.0", "leds": 60, "rate": 220}).encode()))
        assert wait_for(lambda: s.link.receiver.problems() == [])
        why = "firmware: unsupported chip: RP2350; this firmware knows the RP2040's registers only"
        pty.write(encode_frame(ERROR, 2, why.encode()))
        assert wait_for(lambda: bool(s.link.receiver.problems()))
        assert s.link.receiver.problems() == [f"the Pico on {pty.link} reports: {why}"]
        pty.write(readings_frame(3))  # a firmware that scans again: the error has passed
        assert wait_for(lambda: s.link.receiver.problems() == [])
    finally:
        s.close()


def test_calibration_counts_only_scans_that_arrive_after_enter(pty: Pty) -> None:
    """The link keeps the last scans while a person reads a calibration prompt; those show
    the board before Enter was pressed (in a full run they held the last checkerboard and
    the check failed), so the walk takes only the scans that come after."""
    import threading

    from companion.commands.calibrate import SKIP_SCANS, Walk

    s = SerialSensors(str(pty.link))
    try:
        pty.read_frames(want=1)
        pty.write(encode_frame(HELLO, 0, b'{"fw": "1.0.0", "board": "t1", "spaces": 52}'))
        before, after = [45000] * 52, [20000] * 52
        for seq in range(1, 41):  # the board before Enter, waiting in the link's queue
            pty.write(readings_frame(seq, before))
        assert wait_for(lambda: s.link.stats["readings"] == 40)
        got: list[list[tuple[int, ...]]] = []
        walk = Walk(s, samples=5, place=None)
        reader = threading.Thread(target=lambda: got.append(walk.collect()))
        reader.start()
        time.sleep(0.05)
        for seq in range(41, 41 + SKIP_SCANS + 5):
            pty.write(readings_frame(seq, after))
            time.sleep(0.005)
        reader.join(10)
        assert got and len(got[0]) == 5
        assert all(list(scan) == after for scan in got[0]), "a scan from before Enter was counted"
    finally:
        s.close()
