"""A service that sleeps when the table sleeps (issue 23): work is done when something
changes, never on a clock. The real SimSensors, sensing pipeline, BoardSync, SimLeds,
table and store; counters and thread names show what ran while nothing happened."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.hardware.layout import default_layout
from companion.hardware.leds.sim import SimLeds
from companion.hardware.scene import SceneInput, animates, render_scene
from companion.hardware.sensing import SensingPipeline
from companion.hardware.sensors import Readings
from companion.hardware.sensors.sim import SimSensors
from companion.hardware.sync import BoardSync
from companion.store import open_store
from companion.table import Table
from tests.test_table import GINGO_ACTIONS
from tests.conftest import wait_for

LAY = default_layout()
EMPTY = "." * 52


def random_board(rng: random.Random) -> str:
    return "".join(rng.choice("....12") for _ in range(52))


def test_a_scene_that_does_not_animate_is_one_frame_forever() -> None:
    """``animates`` False: the frame at any time equals the frame at 0 (so one frame
    shows it); True for every kind of animation the scene has."""
    rng = random.Random(23)
    still = moving = 0
    for _ in range(400):
        expected = random_board(rng)
        sensed = expected if rng.random() < 0.5 else random_board(rng) if rng.random() < 0.3 else None
        if sensed is not None and rng.random() < 0.5:  # a few chips moved
            cells = list(expected)
            for s in rng.sample(range(52), rng.randint(0, 2)):
                cells[s] = rng.choice(".12")
            sensed = "".join(cells)
        pending = {s: rng.choice((1, 2)) for s in rng.sample(range(52), rng.randint(0, 2))}
        if sensed is not None and rng.random() < 0.5:  # every chip to place already there
            sensed = "".join(str(pending[i]) if i in pending else c for i, c in enumerate(sensed))
        bump = {s: rng.choice((1, 2)) for s in rng.sample(range(52), 1)} if rng.random() < 0.1 else {}
        scene = SceneInput(expected=expected, sensed=sensed, pending=pending, bump=bump,
                           gin=rng.choice((None, None, None, 1)), turn=rng.choice((None, 1, 2)),
                           links={1: [0, 4, 8]} if rng.random() < 0.2 else {})
        frames = [render_scene(scene, t, LAY) for t in (0.0, 0.1, 0.13, 0.2, 0.3, 0.5, 0.77, 1.9)]
        if animates(scene):
            moving += 1
        else:
            still += 1
            assert all(f == frames[0] for f in frames), scene
    assert still > 50 and moving > 50
    # each animation is seen as one
    board = "1" + "." * 51
    assert animates(SceneInput(expected=board, sensed=EMPTY))                      # a chip to place
    assert animates(SceneInput(expected=EMPTY, sensed=board))                      # a stray chip
    assert animates(SceneInput(expected=board, sensed=board, bump={0: 1}))         # a chip to bump
    assert animates(SceneInput(expected=board, sensed=board, gin=1, links={1: [0]}))  # the Gin chase
    assert animates(SceneInput(expected=board, sensed=None))                       # offline markers
    assert not animates(SceneInput(expected=board, sensed=board, pending={0: 1}))  # placed: steady


class Board:
    def __init__(self, tmp: Path, **kw: object) -> None:
        self.store = open_store(tmp)
        self.table = Table(self.store)
        self.sim = SimSensors(rate=400, seed=5)
        self.leds = SimLeds()
        self.sync = BoardSync(self.table, self.sim, self.leds, layout=default_layout(), fps=25, **kw)  # type: ignore[arg-type]

    def close(self) -> None:
        self.sync.stop()
        self.store.close()


@pytest.fixture()
def board(tmp_path: Path) -> Iterator[Board]:
    b = Board(tmp_path, refresh=60.0)
    b.sync.start()
    try:
        yield b
    finally:
        b.close()


def test_a_still_board_does_nothing(board: Board) -> None:
    """Once the board is known nothing runs: no scans, no pictures, no frames, and no
    thread polls the sensors or the table."""
    assert board.sync.wait_sensed(lambda b: b == EMPTY, timeout=5)
    assert wait_for(lambda: board.leds.frame_count >= 1)
    time.sleep(0.4)  # the simulator's stir after start-up ends
    scans, pictures, frames = board.sim.pushed, board.sync.pictures, board.leds.frame_count
    time.sleep(1.0)
    assert (board.sim.pushed, board.sync.pictures, board.leds.frame_count) == (scans, pictures, frames)
    names = {t.name for t in threading.enumerate()}
    assert "gingo-sensing" not in names  # the simulator reports outages itself: no watching thread
    # a chip put: scans while it settles, one new picture, the frame shows it, then quiet again
    board.sync.put_sim(0, 1)
    assert board.sync.wait_sensed(lambda b: b is not None and b[0] != ".", timeout=5)
    led = LAY.space_led(0)
    assert wait_for(lambda: board.leds.pixels()[led] != (0, 0, 0))
    assert board.sim.pushed > scans and board.sync.pictures > pictures
    time.sleep(0.4)
    scans, pictures, frames = board.sim.pushed, board.sync.pictures, board.leds.frame_count
    time.sleep(1.0)
    assert (board.sim.pushed, board.sync.pictures, board.leds.frame_count) == (scans, pictures, frames)


def test_a_table_commit_redraws_and_only_an_animation_ticks(board: Board) -> None:
    """A Gin-Go action makes chips to place: the picture is built again on the commit (no
    sensed change), the pulse ticks at the frame rate; once the chips are placed the
    frames stop."""
    assert board.sync.wait_sensed(lambda b: b == EMPTY, timeout=5)
    gid = board.table.create_game("gingo", players=["Ann", "Bob"])["id"]
    for action in GINGO_ACTIONS[:2]:
        board.table.action(gid, action)
    led = LAY.space_led(0)
    assert wait_for(lambda: board.leds.pixels()[led] != (0, 0, 0))  # the chip to place pulses
    before = board.leds.frame_count
    time.sleep(1.0)
    ticks = board.leds.frame_count - before
    assert 8 <= ticks <= 30, ticks  # 25 frames a second while the pulse shows (fewer on a loaded machine)
    for space in (0, 4, 8):
        board.sync.put_sim(space, 1)
    assert board.sync.wait_sensed(lambda b: b is not None and b[0:9] == "1...1...1", timeout=5)
    assert wait_for(lambda: board.sync.state()["mismatches"] == [])
    time.sleep(0.3)
    frames = board.leds.frame_count
    time.sleep(1.0)
    assert board.leds.frame_count == frames  # steady colours: nothing ticks
    assert board.leds.pixels()[led] != (0, 0, 0)


def test_a_still_picture_is_sent_again_every_refresh(tmp_path: Path) -> None:
    """A strip (or a Pico) that lost power catches up: the last frame is shown again every
    ``refresh`` seconds, without building the picture again."""
    b = Board(tmp_path, refresh=0.2)
    b.sync.start()
    try:
        assert b.sync.wait_sensed(lambda s: s == EMPTY, timeout=5)
        time.sleep(0.4)
        frames, pictures = b.leds.frame_count, b.sync.pictures
        time.sleep(1.0)
        assert 3 <= b.leds.frame_count - frames <= 6
        assert b.sync.pictures == pictures
    finally:
        b.close()
    with pytest.raises(ValueError, match="refresh"):
        BoardSync(b.table, refresh=0)


def test_the_simulator_goes_offline_and_back_without_a_clock(board: Board) -> None:
    assert board.sync.wait_sensed(lambda b: b == EMPTY, timeout=5)
    board.sim.set_online(False)
    assert board.sync.wait_sensed(lambda b: b is None, timeout=5)
    assert board.sync.state()["sensors"] == "offline"
    board.sim.set_online(True)
    assert board.sync.wait_sensed(lambda b: b == EMPTY, timeout=5)


def test_the_simulator_makes_noise_only_when_asked() -> None:
    """Subscribed, the simulator scans while a change settles and when stirred; the
    noisy scans of a still board take the noise-band shortcut (no classifying)."""
    sim = SimSensors(rate=500, noise=1500, seed=9)
    got: list[Readings | None] = []
    pipe = SensingPipeline(sim, on_change=lambda ch: None)
    real_push = pipe._push

    def push(r: Readings | None) -> bool:
        got.append(r)
        return real_push(r)

    sim.subscribe(push)
    try:
        assert wait_for(lambda: pipe.online)
        time.sleep(0.3)
        n = len(got)
        time.sleep(0.5)
        assert len(got) == n  # still: no scans at all
        skipped, fast = pipe.skipped, pipe.classifier.fast_scans
        sim.stir(0.5)
        time.sleep(0.8)
        stirred = len(got) - n
        assert 100 <= stirred <= 300, stirred  # 500 a second for half a second
        assert pipe.skipped - skipped >= stirred - 2  # in the noise band: skipped before classifying
        assert pipe.classifier.fast_scans == fast
        assert len({r.values for r in got[n:] if r is not None}) > stirred // 2  # really noisy
        assert pipe.snapshot() == EMPTY
    finally:
        sim.subscribe(None)
        sim.close()
    with pytest.raises(ValueError, match="stir"):
        sim.stir(-1)


@pytest.mark.live
def test_doctor_reports_what_the_running_service_costs(tmp_path: Path) -> None:
    """``gingo doctor``'s service line: the real ``gingo serve`` found in /proc and its CPU
    over a second; at rest, with nothing happening, far below the 'busy' mark."""
    import doctest
    import subprocess
    import sys

    import companion.hardware.cost as cost
    from tests.live_server import LiveServer

    assert doctest.testmod(cost).failed == 0
    srv = LiveServer(tmp_path / "data").start()
    try:
        srv.wait_until("/api/v1/board", lambda b: b["sensed"] is not None)
        assert srv.proc is not None and srv.proc.pid in cost.find_services(Path("/proc"))
        status, detail = cost.service_cost(Path("/proc"), "Raspberry Pi Zero 2 W Rev 1.0", seconds=1.0)
        assert status in ("OK", "WARN"), detail  # WARN: another gingo serve on this machine is busy
        assert f"pid {srv.proc.pid} used " in detail and "Raspberry Pi Zero 2 W shows about 1 %" in detail
        pct = float(detail.split(f"pid {srv.proc.pid} used ")[1].split(" %")[0])
        assert 0 <= pct < cost.BUSY
        # the command prints it as one line
        out = subprocess.run([sys.executable, "-m", "companion.cli", "doctor"], capture_output=True, text=True,
                             timeout=120, cwd=Path(__file__).resolve().parent.parent).stdout
        assert any(line.split()[1:2] == ["service:"] and f"pid {srv.proc.pid} used" in line
                   for line in out.splitlines()), out
    finally:
        srv.stop()


@pytest.mark.parametrize("change", ["subscribe", "put", "online"])
def test_a_late_simulator_thread_still_scans_the_change(monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    """The simulator's pushing thread may wake after a change's stir window has passed
    (a loaded machine; a service starting up). It must still scan the change, and keep
    scanning until the pipeline has settled it: sensors that never came online stopped a
    restarted server in a loaded CI run. Here the pushing thread reads a clock one second
    ahead of everybody else's, so every window it sees has passed."""
    import companion.hardware.sensors.sim as sim_module

    real = time.monotonic

    class LateClock:
        @staticmethod
        def monotonic() -> float:
            late = threading.current_thread().name == "gingo-sim-sensors"
            return real() + (1.0 if late else 0.0)

    monkeypatch.setattr(sim_module, "time", LateClock)
    sim = SimSensors(rate=500, noise=300, seed=4)
    pipe = SensingPipeline(sim, on_change=lambda ch: None)
    if change != "subscribe":
        sim.subscribe(pipe._push)
    try:
        if change == "subscribe":
            sim.subscribe(pipe._push)
            assert wait_for(lambda: pipe.online, timeout=5), "sensors never came online"
        elif change == "put":
            assert wait_for(lambda: pipe.online, timeout=5)
            sim.put(7, 2)
            assert wait_for(lambda: pipe.snapshot() == EMPTY[:7] + "2" + EMPTY[8:], timeout=5), pipe.snapshot()
        else:
            assert wait_for(lambda: pipe.online, timeout=5)
            sim.set_online(False)
            assert wait_for(lambda: not pipe.online, timeout=5)
            sim.set_online(True)
            assert wait_for(lambda: pipe.online, timeout=5), "sensors never came back"
        n = sim.pushed
        time.sleep(0.3)
        assert sim.pushed == n  # settled: the simulator sleeps again
    finally:
        sim.subscribe(None)
        sim.close()
