"""gingo selftest: the walk on the simulated board, a board with faults, and the
one-line errors for a missing device."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion.cli import main
from companion.hardware.layout import load_layout
from companion.hardware.leds.sim import SimLeds
from companion.hardware.selftest import neighbours, run_selftest, sim_hand
from companion.hardware.sensors import Readings, SensorBackend
from companion.hardware.sensors.sim import SimSensors


class _RecordingLeds(SimLeds):
    """A simulated strip that remembers which LED each frame lit, and in what colour."""

    def __init__(self) -> None:
        super().__init__()
        self.lit: list[tuple[int, tuple[int, int, int]]] = []

    def _write(self, frame: list[tuple[int, int, int]], scaled: list[tuple[int, int, int]]) -> None:
        super()._write(frame, scaled)
        on = [(i, c) for i, c in enumerate(frame) if c != (0, 0, 0)]
        if on:
            assert len(on) == 1, "one space at a time"
            self.lit.append(on[0])


def test_sim_board_passes_and_every_space_is_lit_in_each_colour() -> None:
    sim = SimSensors(rate=2000, seed=3)
    leds, layout = _RecordingLeds(), load_layout(None)
    lines: list[str] = []
    try:
        report = run_selftest(sim, leds=leds, layout=layout, colors={1: (9, 0, 0), 2: (0, 9, 0)},
                              hand=sim_hand(sim), say=lines.append, samples=3, space_timeout=2.0)
    finally:
        sim.close()
    want = [(layout.space_led(s), (9, 0, 0)) for s in range(52)] + [(layout.space_led(s), (0, 9, 0)) for s in range(52)]
    assert leds.lit == want
    assert report.passed and report.fix == []
    assert all(r.move(1) is not None and r.move(1) > 10000 for r in report.spaces)  # type: ignore[operator]
    assert all(r.move(2) is not None and r.move(2) < -10000 for r in report.spaces)  # type: ignore[operator]
    text = report.lines()
    assert text[-1].startswith("PASS")
    assert report.magnet_map() == ["row %2d  # # # #" % r for r in range(13, 0, -1)]
    assert leds.pixels() == [(0, 0, 0)] * leds.count  # dark at the end


class _FaultyBoard(SensorBackend):
    """A board model with three faults: space 9's sensor is dead, space 20's side 1
    magnet is weak, and a chip on space 30 pulls space 31 out of its empty band."""

    name = "model"

    def __init__(self) -> None:
        self.chips: dict[int, int] = {}
        self.seq = 0
        self.lock = threading.Lock()

    def put(self, space: int, side: int | None) -> None:
        with self.lock:
            if side is None:
                self.chips.pop(space, None)
            else:
                self.chips[space] = side

    @property
    def online(self) -> bool:
        return True

    def read(self, timeout: float) -> Readings | None:
        values = [32768 + (s % 5) * 40 for s in range(52)]
        with self.lock:
            for s, side in self.chips.items():
                if s == 9:
                    continue
                move = 12000 if side == 1 else -12000
                if s == 20 and side == 1:
                    move = 7800  # 1.08x the 7232 the default threshold needs from 32768
                values[s] += move
                for n in neighbours(s):
                    values[n] += -4000 if (s, n) == (30, 31) else (300 if side == 1 else -300)
        self.seq += 1
        return Readings(self.seq & 0xFFFF, tuple(values), 0.0)

    def close(self) -> None:
        pass


def test_a_faulty_board_lists_the_spaces_to_fix_with_reasons() -> None:
    board = _FaultyBoard()
    said: list[str] = []
    report = run_selftest(board, hand=sim_hand(board), say=said.append, samples=2, space_timeout=0.3)
    assert report.fix == [9, 20, 30]
    text = "\n".join(report.lines())
    assert "FIX 3 space(s): 9, 20, 30" in text
    assert "row 3 column 2 (space 9): a side 1 chip was never seen" in text
    assert "row 6 column 1 (space 20): weak side 1: the chip moves the reading by +7800, 1.08x" in text
    assert "row 8 column 3 (space 30): a side 1 chip here moves space 31 to 28" in text
    assert any("no chip seen on row 3 column 2 (space 9)" in line for line in said)
    grid = report.magnet_map()
    assert grid[13 - 3] == "row  3  # ? # #"   # space 9 never seen
    assert grid[13 - 6] == "row  6  w # # #"   # space 20 weak


def test_command_on_the_sim(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["selftest", "--sim", "--samples", "2", "--data", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "thresholds: the defaults (no calibration yet)" in out
    assert out.rstrip().splitlines()[-1].startswith("PASS: all 52 spaces")
    assert "weak-magnet map" in out


def test_command_with_a_missing_serial_device_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["selftest", "--port", str(tmp_path / "ttyACM9"), "--data", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert err[0].startswith("gingo selftest: error: cannot open the sensor link") and "Traceback" not in err[0]


def test_command_with_a_missing_led_device_warns_once_and_goes_on(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    cfg = tmp_path / "gingo.toml"
    cfg.write_text(f'[leds]\nbackend = "leds_dev"\n[leds.leds_dev]\npath = "{tmp_path / "leds0"}"\n'
                   '[sensors]\nbackend = "sim"\n')
    assert main(["selftest", "--config", str(cfg), "--samples", "2", "--data", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    warn = captured.err.strip().splitlines()
    assert len(warn) == 1 and "does not exist" in warn[0] and "the LEDs stay dark" in warn[0]
    assert "PASS" in captured.out
