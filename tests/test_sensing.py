"""Classifier, debouncer, calibration and the sensing pipeline, with noise injected."""

from __future__ import annotations

import doctest
import io
import json
import random
import threading
import time
from pathlib import Path

import pytest

import companion.hardware.calibration as calibration_mod
import companion.hardware.classify as classify_mod
import companion.hardware.debounce as debounce_mod
import companion.hardware.framing as framing_mod
import companion.hardware.sensing as sensing_mod
import companion.hardware.sensors as sensors_mod
import companion.hardware.sensors.adc as adc_mod
import companion.hardware.sensors.serial as serial_mod
import companion.hardware.sensors.sim as sim_mod
from companion.cli import main
from companion.hardware.calibration import (
    CalibrationError, calibration_path, compute_calibration, load_calibration, save_calibration,
)
from companion.hardware.classify import Classifier, SpaceThresholds
from companion.hardware.debounce import Debouncer
from companion.hardware.framing import READINGS, Frame, FrameSplitter, encode_frame, pack_readings, unpack_readings
from companion.hardware.sensing import BoardChange, SensingPipeline
from companion.hardware.sensors import Readings, open_sensor_backend
from companion.hardware.sensors.sim import SimSensors

EMPTY = "." * 52
LEVEL = {".": 32768, "1": 45000, "2": 20000}


def board_with(**chips: str) -> str:
    b = list(EMPTY)
    for key, side in chips.items():
        b[int(key[1:])] = side
    return "".join(b)


def readings_for(board: str, rng: random.Random, noise: int = 300) -> tuple[int, ...]:
    return tuple(LEVEL[c] + rng.randint(-noise, noise) for c in board)


@pytest.mark.parametrize(
    "module", [framing_mod, classify_mod, debounce_mod, sensing_mod, calibration_mod, sensors_mod, sim_mod, serial_mod, adc_mod]
)
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


# ---- classifier ----

def test_default_thresholds_and_hysteresis() -> None:
    t = SpaceThresholds()
    assert [t.classify(v, 0) for v in (40000, 39999, 35500, 35501, 30000, 29999, 25000, 25001)] == [
        1, 0, 0, 0, 0, 0, 2, 0,
    ]
    assert [t.classify(v, 1) for v in (39999, 35501, 35500)] == [1, 1, 0]
    assert [t.classify(v, 2) for v in (25001, 29999, 30000)] == [2, 2, 0]


def test_threshold_validation_names_the_rule() -> None:
    with pytest.raises(ValueError, match="low_enter < empty_low <= empty_high < high_enter"):
        SpaceThresholds(low_enter=31000)
    with pytest.raises(ValueError, match="u16"):
        SpaceThresholds(high_enter=70000)
    with pytest.raises(ValueError, match="high_side"):
        SpaceThresholds(high_side=3)
    with pytest.raises(ValueError, match="52 spaces"):
        Classifier([SpaceThresholds()] * 3)
    with pytest.raises(ValueError, match="52 readings"):
        Classifier().classify([1, 2])


def test_inverted_polarity_build() -> None:
    c = Classifier([SpaceThresholds(high_side=2)] * 52)
    assert c.classify([45000, 20000] + [32768] * 50)[:2] == "21"


# ---- debouncer ----

def test_debounce_needs_both_scans_and_time() -> None:
    d = Debouncer(scans=5, settle=0.05)
    for n in range(6):
        d.feed(EMPTY, n * 0.01)
    assert d.stable == EMPTY
    chip = board_with(s3="1")
    # fast scans: 5 agreeing scans within 20 ms are not enough
    assert [d.feed(chip, 0.10 + n * 0.005) for n in range(5)] == [None] * 5
    assert d.feed(chip, 0.149) is None
    assert d.feed(chip, 0.150) == [3]
    # slow scans: 50 ms pass after 2 scans, still 5 scans needed
    lifted = EMPTY
    assert [d.feed(lifted, 1.0 + n * 0.1) for n in range(4)] == [None] * 4
    assert d.feed(lifted, 1.4) == [3]


def test_debounce_rejects_bad_settings() -> None:
    with pytest.raises(ValueError, match="scans"):
        Debouncer(scans=0)
    with pytest.raises(ValueError, match="settle"):
        Debouncer(settle=-1)


def run_pipeline(boards_and_readings: list[tuple[int, tuple[int, ...]]], **kw: object) -> tuple[list[BoardChange], SensingPipeline]:
    changes: list[BoardChange] = []
    pipe = SensingPipeline(SimSensors(), on_change=changes.append, **kw)  # type: ignore[arg-type]
    for seq, values in boards_and_readings:
        pipe.step(Readings(seq & 0xFFFF, values, seq * 0.01))
    return changes, pipe


# ---- noise injection ----

def test_jitter_near_thresholds_never_changes_a_space() -> None:
    rng = random.Random(11)
    scans = []
    truth = board_with(s0="1", s1="2")
    for seq in range(2000):
        values = list(readings_for(truth, rng))
        if seq >= 20:  # after the board is known, readings wander through the hysteresis bands
            values[0] = rng.randint(35600, 44000)   # a side-1 chip with a weak, wobbly magnet
            values[1] = rng.randint(21000, 29900)   # a side-2 chip likewise
            values[2] = rng.randint(35000, 39900)   # empty space jittering over empty_high
            values[3] = rng.randint(25100, 30500)   # empty space jittering under empty_low
        scans.append((seq, tuple(values)))
    changes, pipe = run_pipeline(scans)
    assert [c.changed for c in changes] == [[0, 1]]
    assert pipe.snapshot() == truth


def test_flapping_chip_is_accepted_only_when_it_rests() -> None:
    rng = random.Random(5)
    scans = []
    seq = 0
    for _ in range(10):
        scans.append((seq, readings_for(EMPTY, rng)))
        seq += 1
    state = EMPTY
    for _ in range(300):  # a chip dropped, picked up, slid: never 5 scans the same
        state = board_with(s9="1") if state == EMPTY else EMPTY
        for _ in range(rng.randint(1, 4)):
            scans.append((seq, readings_for(state, rng)))
            seq += 1
    assert len(run_pipeline(scans)[0]) == 0
    for _ in range(6):  # it rests on the space
        scans.append((seq, readings_for(board_with(s9="1"), rng)))
        seq += 1
    changes, pipe = run_pipeline(scans)
    assert [(c.changed, c.board) for c in changes] == [([9], board_with(s9="1"))]


def corrupt_stream(frames: list[bytes], rng: random.Random) -> bytes:
    """Flip bits, drop bytes, truncate frames and interleave two frames' bytes."""
    out = bytearray()
    i = 0
    while i < len(frames):
        f = bytearray(frames[i])
        r = rng.random()
        if r < 0.08:
            f[rng.randrange(1, len(f) - 1)] ^= 1 << rng.randrange(8)          # bit flip
        elif r < 0.16:
            del f[rng.randrange(1, len(f) - 1)]                             # a dropped byte
        elif r < 0.22:
            f = f[: rng.randrange(2, len(f) - 1)]                           # truncated (no end)
        elif r < 0.28 and i + 1 < len(frames):
            g = frames[i + 1]
            cut_f, cut_g = rng.randrange(2, len(f) - 2), rng.randrange(2, len(g) - 2)
            f = f[:cut_f] + g[1:cut_g] + f[cut_f:-1] + g[cut_g:]          # interleaved
            i += 1
        out += f
        i += 1
    return bytes(out)


@pytest.mark.parametrize("seed", [2024, 7, 99, 12345])
def test_corrupt_truncated_interleaved_frames_never_move_a_chip(seed: int) -> None:
    rng = random.Random(seed)
    truth_at: dict[int, str] = {}
    frames: list[bytes] = []
    plan = [EMPTY] * 60 + [board_with(s4="1")] * 60 + [board_with(s4="1", s40="2")] * 60 + [board_with(s40="2")] * 60
    for seq, board in enumerate(plan):
        truth_at[seq] = board
        frames.append(encode_frame(READINGS, seq, pack_readings(readings_for(board, rng))))
    # one extra hazard: a stale frame replayed with a wrong CRC, e.g. from a buffer glitch
    stream = corrupt_stream(frames, rng)
    splitter = FrameSplitter()
    changes: list[BoardChange] = []
    pipe = SensingPipeline(SimSensors(), on_change=changes.append)
    good = bad = 0
    pos = 0
    while pos < len(stream):
        n = rng.randint(1, 80)
        for item in splitter.feed(stream[pos : pos + n]):
            if isinstance(item, Frame):
                good += 1
                values = unpack_readings(item.payload)
                assert tuple(values) == tuple(unpack_readings(pack_readings(values)))
                pipe.step(Readings(item.seq, values, item.seq * 0.01))
            else:
                bad += 1
        pos += n
    assert bad > 20 and good > 150
    # every accepted board was the true board at that moment, and the three real changes came through
    for c in changes:
        assert c.board == truth_at[c.seq]
    assert [c.changed for c in changes] == [[4], [40], [4]]


# ---- pipeline with the sim backend on its thread ----

#: seconds a behaviour may take on a loaded machine (a deadline, not a figure: the thread
#: normally answers in milliseconds)
WAIT = 10.0


def test_pipeline_thread_with_sim_offline_and_back() -> None:
    sim = SimSensors(rate=400, seed=3)
    changes: list[BoardChange] = []
    statuses: list[bool] = []
    got = threading.Event()
    pipe = SensingPipeline(sim, on_change=lambda c: (changes.append(c), got.set()), on_status=statuses.append)
    pipe.start()
    try:
        deadline = time.monotonic() + WAIT
        while pipe.snapshot() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pipe.snapshot() == EMPTY and statuses == [True]
        sim.put(20, 2)
        assert got.wait(WAIT)
        assert changes[-1].changed == [20] and pipe.snapshot() == board_with(s20="2")
        sim.set_online(False)
        deadline = time.monotonic() + WAIT
        while statuses[-1] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert statuses == [True, False] and pipe.snapshot() is None
        sim.put(20, None)   # lifted while the link was down
        sim.set_online(True)
        deadline = time.monotonic() + WAIT
        while len(statuses) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)
        assert statuses == [True, False, True]
        assert changes[-1].changed == [20] and pipe.snapshot() == EMPTY
    finally:
        pipe.stop()


def test_sim_rejects_bad_input_and_keeps_state() -> None:
    sim = SimSensors()
    sim.put(1, 1)
    with pytest.raises(ValueError, match="space 52"):
        sim.put(52, 1)
    with pytest.raises(ValueError, match="side 3"):
        sim.put(1, 3)
    with pytest.raises(ValueError, match="52 characters"):
        sim.set_board("12")
    r = sim.read(1.0)
    assert r is not None and r.values[1] > 40000
    with pytest.raises(ValueError, match="unknown sensor backend 'x'"):
        open_sensor_backend("x")


# ---- calibration ----

def sim_scans(sim: SimSensors, board: str, n: int) -> list[tuple[int, ...]]:
    sim.set_board(board)
    out = []
    while len(out) < n:
        r = sim.read(1.0)
        assert r is not None
        out.append(r.values)
    return out


def test_calibration_fixes_sensors_the_defaults_misread() -> None:
    sim = SimSensors(rate=10000, spread=7000, noise=200, seed=21)
    empty = sim_scans(sim, EMPTY, 30)
    shifted = max(range(52), key=lambda s: empty[0][s])       # the sensor reading highest when empty
    sample = [0, 19, 32, 51]
    ones = sim_scans(sim, "".join("1" if s in sample else "." for s in range(52)), 30)
    twos = sim_scans(sim, "".join("2" if s in sample else "." for s in range(52)), 30)
    cal = compute_calibration(
        empty, {1: {s: [x[s] for x in ones] for s in sample}, 2: {s: [x[s] for x in twos] for s in sample}}
    )
    assert 11000 < cal.deltas[1] < 13500 and -13500 < cal.deltas[2] < -11500
    # with defaults the shifted space's side-2 chip is not seen (it reads above 25000)
    check = sim_scans(sim, "2" * 52, 10)
    assert Classifier().classify(check[-1])[shifted] != "2"
    assert Classifier(cal.thresholds).classify(check[-1]) == "2" * 52
    assert Classifier(cal.thresholds).classify(sim_scans(sim, "1" * 52, 1)[0]) == "1" * 52
    assert Classifier(cal.thresholds).classify(sim_scans(sim, EMPTY, 1)[0]) == EMPTY


def test_calibration_errors_name_the_problem() -> None:
    empty = [[32768] * 52] * 5
    ok2 = {0: [20000] * 5}
    with pytest.raises(CalibrationError, match="both read above empty"):
        compute_calibration(empty, {1: {0: [45000] * 5}, 2: {0: [44000] * 5}})
    with pytest.raises(CalibrationError, match=r"less than 2000 on spaces \[0\]"):
        compute_calibration(empty, {1: {0: [33000] * 5}, 2: ok2})
    with pytest.raises(CalibrationError, match="upside down"):
        compute_calibration(empty, {1: {0: [45000] * 5, 1: [20000] * 5}, 2: ok2})
    noisy = [[32768] * 52 for _ in range(5)]
    noisy[2][7] = 39000
    with pytest.raises(CalibrationError, match=r"spaces \[7\] are too noisy"):
        compute_calibration(noisy, {1: {0: [45000] * 5}, 2: ok2})
    with pytest.raises(CalibrationError, match="52 readings"):
        compute_calibration([[1, 2]], {1: {}, 2: {}})
    with pytest.raises(CalibrationError, match="side 1 and side 2"):
        compute_calibration(empty, {1: {0: [45000]}})


def test_calibration_file_round_trip_and_bad_files(tmp_path: Path) -> None:
    empty = [[32768 + s for s in range(52)]] * 3
    cal = compute_calibration(empty, {1: {5: [44000] * 3}, 2: {5: [21000] * 3}}, created="now")
    assert load_calibration(tmp_path) is None
    path = save_calibration(cal, tmp_path)
    assert path == calibration_path(tmp_path)
    assert load_calibration(tmp_path) == cal
    path.write_text("{not json")
    with pytest.raises(CalibrationError, match="not valid JSON"):
        load_calibration(tmp_path)
    data = cal.to_json()
    data["version"] = 9
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="version 9"):
        load_calibration(tmp_path)
    data = cal.to_json()
    data["thresholds"][3]["high_enter"] = 1
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="malformed"):
        load_calibration(tmp_path)


@pytest.mark.parametrize("deltas", [None, [], "x", 5])
def test_calibration_with_deltas_not_an_object_is_malformed(tmp_path: Path, deltas: object) -> None:
    # used to escape as AttributeError ("'NoneType' object has no attribute 'items'"): a traceback
    cal = compute_calibration([[32768] * 52] * 5, {1: {0: [45000] * 5}, 2: {0: [20000] * 5}})
    data = cal.to_json()
    data["deltas"] = deltas
    calibration_path(tmp_path).write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="malformed"):
        load_calibration(tmp_path)


# ---- the calibrate command, scripted ----

def test_calibrate_command_with_sim_and_scripted_stdin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 5))
    assert main(["calibrate", "--sim", "--data", str(tmp_path), "--samples", "10"]) == 0
    out = capsys.readouterr().out
    assert "Step 1 of 4" in out and "row 13 column 4 (space 51)" in out and "Saved" in out
    cal = load_calibration(tmp_path)
    assert cal is not None
    # the sim spreads baselines by +-1500: the stored thresholds follow each space
    bases = [t.high_enter - round(0.6 * cal.deltas[1]) for t in cal.thresholds]
    assert max(bases) - min(bases) > 1000


def test_calibrate_command_stops_cleanly_at_end_of_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n"))
    assert main(["calibrate", "--sim", "--data", str(tmp_path), "--samples", "5"]) == 2
    assert "calibration cancelled" in capsys.readouterr().err
    assert not calibration_path(tmp_path).exists()
    assert main(["calibrate", "--sim", "--data", str(tmp_path), "--spaces", "3,99"]) == 2
    assert "--spaces" in capsys.readouterr().err


@pytest.mark.parametrize("seconds", ["nan", "inf", "-1"])
def test_sensors_command_refuses_seconds_that_never_run_out(
    seconds: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # --seconds nan passed the "< 0" check and then read the board forever
    assert main(["sensors", "--sim", "--seconds", seconds]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gingo sensors: error: --seconds must be") and err.count("\n") == 1


def test_calibrate_refuses_a_read_only_data_folder_before_the_walk_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # a read-only folder used to fail only at the very end, after every step was done
    import companion.paths as paths_mod

    def refuse(*_a: object, **_k: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(paths_mod.tempfile, "TemporaryFile", refuse)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 5))
    assert main(["calibrate", "--sim", "--data", str(tmp_path), "--samples", "5"]) == 2
    captured = capsys.readouterr()
    assert "Step 1" not in captured.out
    assert captured.err == (f"gingo calibrate: error: cannot write in the data directory {tmp_path}: "
                            "Permission denied; pass --data DIR or set GINGO_DATA to a writable folder\n")


@pytest.mark.parametrize("settle", [float("nan"), float("inf"), -0.001])
def test_debounce_settle_time_must_be_finite(settle: float) -> None:
    # NaN or inf passed the "< 0" check; then no board change was ever accepted
    with pytest.raises(ValueError, match="settle time must be a finite number"):
        Debouncer(scans=3, settle=settle)


# ---- the adc backend: real gpiozero MCP3208 devices on mock SPI chips ----

from gpiozero.pins.mock import MockFactory, MockSPIDevice  # noqa: E402

from companion.hardware.sensors.adc import DEFAULT_PINS, DEFAULT_SELECT, AdcSensors, scale_to_u16  # noqa: E402

SELECT = DEFAULT_SELECT
CLOCK, MOSI, MISO = DEFAULT_PINS["clock"], DEFAULT_PINS["mosi"], DEFAULT_PINS["miso"]


class MockMCP3208(MockSPIDevice):
    """The chip's side of the wire: after the start bit, mode bit and 3 channel bits,
    it clocks out a null bit and the 12-bit level of that channel (MSB first)."""

    def __init__(self, levels: list[int], **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.levels = levels
        self.requests: list[int] = []

    def on_bit(self) -> None:
        bits = self.rx_buf
        if 1 in bits and len(bits) == bits.index(1) + 5:
            start = bits.index(1)
            assert bits[start + 1] == 1, "the backend must read single-ended"
            channel = bits[start + 2] << 2 | bits[start + 3] << 1 | bits[start + 4]
            self.requests.append(channel)
            self.tx_word(self.levels[channel], 14)  # a don't-care bit, the null bit, 12 data bits


@pytest.fixture
def adc_board(monkeypatch: pytest.MonkeyPatch) -> tuple[MockFactory, list[MockMCP3208]]:
    from gpiozero import Device

    factory = MockFactory()
    # gpiozero's software SPI builds some inner devices on the default factory: give each
    # test its own, so pins a failed start-up left reserved cannot leak into the next test
    monkeypatch.setattr(Device, "pin_factory", factory)
    chips = [
        MockMCP3208([2048] * 8, clock_pin=CLOCK, mosi_pin=MOSI, miso_pin=MISO, select_pin=sel, pin_factory=factory)
        for sel in SELECT
    ]
    yield factory, chips
    for c in chips:
        c.close()
    factory.close()


def test_adc_backend_maps_chip_channels_to_spaces(adc_board: tuple[MockFactory, list[MockMCP3208]]) -> None:
    factory, chips = adc_board
    for i, chip in enumerate(chips):
        chip.levels = [i * 500 + c * 10 for c in range(8)]
    adc = AdcSensors(pin_factory=factory, rate=1000)
    try:
        r = adc.read(2.0)
        assert r is not None and r.seq == 0 and adc.online
        assert list(r.values) == [scale_to_u16((s // 8) * 500 + (s % 8) * 10, 12) for s in range(52)]
        assert chips[6].requests == [0, 1, 2, 3]  # the last chip holds spaces 48..51
    finally:
        adc.close()


def test_adc_backend_custom_map_and_pipeline(adc_board: tuple[MockFactory, list[MockMCP3208]]) -> None:
    factory, chips = adc_board
    channels = [[s % 7, s // 7] for s in range(52)]  # spread over the chips instead
    adc = AdcSensors(pin_factory=factory, channels=channels, rate=1000)
    changes: list[BoardChange] = []
    pipe = SensingPipeline(adc, debouncer=Debouncer(scans=3, settle=0.0), on_change=changes.append)
    try:
        for _ in range(3):
            pipe.step(adc.read(1.0))  # type: ignore[arg-type]
        assert pipe.snapshot() == EMPTY
        chips[10 % 7].levels[10 // 7] = 2900   # a side 1 magnet on space 10 (2900/4095 of 3.3 V)
        for _ in range(3):
            pipe.step(adc.read(1.0))  # type: ignore[arg-type]
        assert [c.changed for c in changes] == [[10]] and pipe.snapshot() == board_with(s10="1")
    finally:
        adc.close()


def test_adc_backend_rejects_bad_settings(adc_board: tuple[MockFactory, list[MockMCP3208]]) -> None:
    factory, _ = adc_board
    with pytest.raises(ValueError, match="MCP3999"):
        AdcSensors(chip="MCP3999", pin_factory=factory)
    with pytest.raises(ValueError, match="space 3 is \\[9, 0\\]"):
        AdcSensors(channels=[[0, 0]] * 3 + [[9, 0]] + [[0, 0]] * 48, pin_factory=factory)
    with pytest.raises(ValueError, match="same \\[chip, channel\\]"):
        AdcSensors(channels=[[0, 0]] * 52, pin_factory=factory)
    with pytest.raises(ValueError, match="52"):
        AdcSensors(channels=[[0, 0]], pin_factory=factory)


def test_adc_backend_that_cannot_start_says_what_to_do(adc_board: tuple[MockFactory, list[MockMCP3208]]) -> None:
    from companion.hardware.sensors import SensorBackendError

    from gpiozero import LED

    factory, _ = adc_board
    busy = LED(SELECT[0], pin_factory=factory)  # another program's device holds chip 0's select
    try:
        with pytest.raises(SensorBackendError, match="cannot open the MCP3208 ADC chips.*GPIOPinInUse.*gingo doctor"):
            AdcSensors(pin_factory=factory)
    finally:
        busy.close()
    with pytest.raises(ValueError, match="select of chip 6 must be a BCM GPIO number 0..27, got 99"):
        AdcSensors(select=(*SELECT[:6], 99), pin_factory=factory)


def test_adc_pins_from_a_pin_map(tmp_path: Path, adc_board: tuple[MockFactory, list[MockMCP3208]]) -> None:
    from companion.hardware.sensors.adc import load_adc_pins

    factory, chips = adc_board
    pinmap = tmp_path / "pinmap.toml"
    pinmap.write_text(f'[pi.adc]\nchip = "MCP3208"\nclock = {CLOCK}\nmosi = {MOSI}\nmiso = {MISO}\n'
                      f'select = {list(SELECT)}\nrate = 500\n')
    options = load_adc_pins(pinmap)
    assert options["select"] == list(SELECT)
    chips[0].levels[3] = 4095
    adc = AdcSensors(pin_factory=factory, **options)
    try:
        r = adc.read(1.0)
        assert r is not None and r.values[3] == 65535
    finally:
        adc.close()
    pinmap.write_text("[pi.adc]\nspeed = 3\n")
    with pytest.raises(ValueError, match="unknown key\\(s\\) speed in \\[pi.adc\\]"):
        load_adc_pins(pinmap)
    pinmap.write_text("[pi.leds]\nspi = 10\n")
    with pytest.raises(ValueError, match="no \\[pi.adc\\] table"):
        load_adc_pins(pinmap)


class _FakeSpiDev:
    """Stands in for the spidev module's SpiDev under gpiozero's own hardware SPI class
    (no /dev/spidev here); records which bus.device was opened."""

    opened: list[tuple[int, int]] = []

    def __init__(self) -> None:
        self.max_speed_hz = 0
        self.mode = 0
        self.bits_per_word = 8
        self.lsbfirst = False
        self.cshigh = False

    def open(self, bus: int, device: int) -> None:
        self.opened.append((bus, device))

    def xfer2(self, data: list[int]) -> list[int]:
        return [0, 0x08, 0x00]  # MCP3208: 2048

    def close(self) -> None:
        pass


@pytest.fixture
def pi_spi_factory(monkeypatch: pytest.MonkeyPatch) -> MockFactory:
    """A MockFactory whose SPI choice is a real Pi's with SPI enabled: pin sets that are
    SPI0's (clock 11, MOSI 10, MISO 9, select 8 or 7) get gpiozero's LocalPiHardwareSPI
    (its pin reservation and conflict rules, on a stand-in spidev); any other set gets
    gpiozero's software SPI. Plain MockFactory always takes the software path, which is
    why the old default pins passed the tests and failed on a Pi."""
    import gpiozero.pins.local as local
    from gpiozero import Device

    class PiSpiFactory(MockFactory):
        def _get_spi_class(self, shared: bool, hardware: bool) -> type:
            if hardware:
                return local.LocalPiHardwareSPIShared if shared else local.LocalPiHardwareSPI
            cls: type = super()._get_spi_class(shared, hardware)
            return cls

    _FakeSpiDev.opened = []
    monkeypatch.setattr(local, "SpiDev", _FakeSpiDev)
    factory = PiSpiFactory()
    monkeypatch.setattr(Device, "pin_factory", factory)
    yield factory
    factory.close()


def test_old_adc_pins_fail_under_gpiozeros_real_reservation(pi_spi_factory: MockFactory) -> None:
    """The defect as a Pi shows it: select 8 takes hardware SPI, select 5 then cannot
    claim GPIO11 for software SPI."""
    from gpiozero import MCP3208
    from gpiozero.exc import GPIOPinInUse

    first = MCP3208(channel=0, clock_pin=11, mosi_pin=10, miso_pin=9, select_pin=8, pin_factory=pi_spi_factory)
    try:
        assert _FakeSpiDev.opened == [(0, 0)]  # the hardware path was taken
        assert first.raw_value == 2048
        with pytest.raises(GPIOPinInUse, match="GPIO11"):
            MCP3208(channel=0, clock_pin=11, mosi_pin=10, miso_pin=9, select_pin=5, pin_factory=pi_spi_factory)
    finally:
        first.close()
    with pytest.raises(ValueError, match="software SPI, which cannot share those pins"):
        AdcSensors(clock=11, mosi=10, miso=9, select=(8, 7, 5, 6, 12, 13, 19), pin_factory=pi_spi_factory)


def test_default_adc_pins_construct_and_read_under_gpiozeros_real_reservation(pi_spi_factory: MockFactory) -> None:
    chips = [
        MockMCP3208([1000 + 100 * i + c for c in range(8)], clock_pin=CLOCK, mosi_pin=MOSI, miso_pin=MISO,
                    select_pin=sel, pin_factory=pi_spi_factory)
        for i, sel in enumerate(SELECT)
    ]
    adc = AdcSensors(rate=1000)  # no pin_factory: gpiozero's default, as the service builds it
    try:
        r = adc.read(2.0)
        assert r is not None
        assert list(r.values) == [scale_to_u16(1000 + 100 * (s // 8) + s % 8, 12) for s in range(52)]
        assert _FakeSpiDev.opened == []  # SPI0 is left to the LED strip
        # and the LED strip's SPI0 can still be opened by gpiozero beside the ADC chips
        from gpiozero import MCP3208

        other = MCP3208(channel=0, clock_pin=11, mosi_pin=10, miso_pin=9, select_pin=8, pin_factory=pi_spi_factory)
        other.close()
    finally:
        adc.close()
        for c in chips:
            c.close()
    used = {CLOCK, MOSI, MISO, *SELECT}
    assert not used & {7, 8, 9, 10, 11, 18, 17, 27, 22, 23, 2, 3, 14, 15}  # SPI0, LEDs, buttons, I2C, UART


def test_gingo_sensors_plain_text_on_the_sim(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sensors", "--sim", "--seconds", "0.3", "--data", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["sensors online (sim)"]
    assert "default thresholds" in captured.err


def test_describe_names_rows_and_columns() -> None:
    from companion.commands.sensors import describe

    text = describe(BoardChange(board_with(s6="2"), [6, 7], 42))
    assert text == "seq 42: row 2 col 3 (space 6): side 2 chip; row 2 col 4 (space 7): empty"
