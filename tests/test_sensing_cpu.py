"""The host-CPU fast paths (docs/sensing.md): they must give exactly what the plain
per-space code gives, and the serial link's push mode must behave like the queue."""

from __future__ import annotations

import os
import random
import time

import pytest

from companion.hardware.classify import STATE_CHARS, Classifier, SpaceThresholds
from companion.hardware.debounce import Debouncer
from companion.hardware.framing import READINGS, encode_frame, pack_readings
from companion.hardware.sensing import BoardChange, SensingPipeline
from companion.hardware.sensors import Readings
from companion.hardware.sensors.serial import SerialSensors


def _reference_classify(thresholds: list[SpaceThresholds], state: list[int], values: list[int]) -> str:
    for i, (t, v) in enumerate(zip(thresholds, values)):
        state[i] = t.classify(v, state[i])
    return "".join(STATE_CHARS[s] for s in state)


def _random_thresholds(rng: random.Random) -> list[SpaceThresholds]:
    out = []
    for _ in range(52):
        base = rng.randint(28000, 37000)
        lo = rng.randint(500, 3000)
        hi = rng.randint(500, 3000)
        out.append(SpaceThresholds(base - lo - rng.randint(500, 5000), base - lo, base + hi,
                                   base + hi + rng.randint(500, 5000), rng.choice((1, 2))))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_classifier_fast_path_equals_the_per_space_rule(seed: int) -> None:
    rng = random.Random(seed)
    thresholds = _random_thresholds(rng) if seed % 2 else [SpaceThresholds()] * 52
    fast = Classifier(thresholds)
    state = [0] * 52
    def level(space: int) -> int:  # an empty space, or a chip of either side, for this space's bands
        t = thresholds[space]
        return rng.choice(((t.empty_low + t.empty_high) // 2, t.high_enter + 3000, t.low_enter - 3000))

    levels = [level(i) for i in range(52)]
    for step in range(3000):
        if step % 40 == 0:  # move a few chips now and then
            for _ in range(rng.randint(1, 4)):
                i = rng.randrange(52)
                levels[i] = level(i)
        noise = rng.choice((50, 200, 200, 200, 3000, 9000))
        values = [max(0, min(65535, v + rng.randint(-noise, noise))) for v in levels]
        if rng.random() < 0.1:  # a reading in a keep-as-it-was band
            values[rng.randrange(52)] = rng.choice((27000, 38000))
        assert fast.classify(values) == _reference_classify(thresholds, state, values), step
    assert 0 < fast.fast_scans < 3000  # both paths were taken


class _AlwaysSlow(Debouncer):
    """The same debouncer with its fast path switched off."""

    def feed(self, board: str, t: float) -> list[int] | None:
        self._idle = False
        return super().feed(board, t)


@pytest.mark.parametrize("seed", range(6))
def test_debouncer_fast_path_equals_the_slow_path(seed: int) -> None:
    rng = random.Random(seed)
    fast, slow = Debouncer(scans=rng.randint(1, 6), settle=rng.choice((0.0, 0.02, 0.05))), None
    slow = _AlwaysSlow(fast.scans, fast.settle)
    board = list("." * 52)
    t = 0.0
    for step in range(4000):
        t += rng.choice((0.005, 0.005, 0.01, 0.001))
        shown = list(board)
        if rng.random() < 0.02:
            board[rng.randrange(52)] = rng.choice(".12")
        if rng.random() < 0.05:  # a one-scan flicker
            shown[rng.randrange(52)] = rng.choice(".12")
        b = "".join(shown if rng.random() < 0.1 else board)
        assert fast.feed(b, t) == slow.feed(b, t), step
        assert (fast.stable, fast.ready) == (slow.stable, slow.ready), step


def test_pipeline_skips_equal_scans_only_when_nothing_is_pending() -> None:
    changes: list[BoardChange] = []
    pipe = SensingPipeline(_NoBackend(), debouncer=Debouncer(scans=3, settle=0.02), on_change=changes.append)
    still = tuple([32768] * 52)
    t = 0.0
    for n in range(10):
        t += 0.01
        pipe.step(Readings(n, still, t))
    assert pipe.online and pipe.skipped > 0
    skipped = pipe.skipped
    moved = list(still)
    moved[7] = 45000
    for n in range(10, 16):  # equal scans while the change is pending are NOT skipped
        t += 0.01
        pipe.step(Readings(n, tuple(moved), t))
    assert [c.changed for c in changes] == [[7]]
    assert pipe.skipped - skipped == 6 - 3  # 3 scans to accept (the settle time passed by then)


class _NoBackend:
    name = "none"
    online = True

    def read(self, timeout: float) -> None:
        return None

    def close(self) -> None:
        pass


def test_push_mode_over_a_pty_delivers_changes_and_notices_silence() -> None:
    master, slave = os.openpty()
    path = os.ttyname(slave)
    os.close(slave)
    backend = SerialSensors(path)
    changes: list[BoardChange] = []
    status: list[bool] = []
    pipe = SensingPipeline(backend, debouncer=Debouncer(scans=3, settle=0.0),
                           on_change=changes.append, on_status=status.append)
    pipe.start()
    try:
        values = [32768] * 52
        for n in range(20):
            if n == 10:
                values[12] = 20000
            os.write(master, encode_frame(READINGS, n, pack_readings(values)))
            time.sleep(0.005)
        deadline = time.monotonic() + 3
        while len(changes) < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert changes and changes[-1].changed == [12] and changes[-1].board[12] == "2"
        assert backend.read(0.05) is None  # scans go to the pipeline, not the queue
        deadline = time.monotonic() + 3
        while status[-1:] != [False] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert status == [True, False]  # silence: offline within the link's 0.5 s
    finally:
        pipe.stop()
        os.close(master)
    assert backend.link._consumer is None  # noqa: SLF001 - the subscription is gone


def test_pipeline_tells_the_link_whether_a_change_is_pending() -> None:
    pipe = SensingPipeline(_NoBackend(), debouncer=Debouncer(scans=3, settle=0.02))
    still = tuple([32768] * 52)
    answers = [pipe._push(Readings(n, still, n * 0.01)) for n in range(6)]  # noqa: SLF001
    assert answers[:2] == [True, True] and answers[-1] is False  # settling, then nothing pending
    moved = list(still)
    moved[3] = 45000
    answers = [pipe._push(Readings(n, tuple(moved), n * 0.01)) for n in range(6, 12)]  # noqa: SLF001
    assert answers[0] is True and answers[-1] is False  # pending until accepted


def test_link_gathers_frames_when_nothing_is_pending_and_dates_them_back() -> None:
    master, slave = os.openpty()
    path = os.ttyname(slave)
    os.close(slave)
    backend = SerialSensors(path, coalesce=0.03)
    link = backend.link
    seen: list[tuple[int, float]] = []
    pending = [False]

    def consumer(r: Readings) -> bool:
        seen.append((r.seq, r.t))
        return pending[0]

    backend.subscribe(consumer)
    try:
        os.write(master, encode_frame(0x01, 0, b'{"rate": 200}'))  # the firmware's HELLO: 5 ms a frame
        still = pack_readings([32768] * 52)
        os.write(master, encode_frame(READINGS, 1, still))
        deadline = time.monotonic() + 3
        while len(seen) < 1 and time.monotonic() < deadline:
            time.sleep(0.001)
        reads = link.stats["reads"]
        # the reader now sleeps 30 ms before its next read: four frames come meanwhile
        os.write(master, b"".join(encode_frame(READINGS, n, still) for n in range(2, 6)))
        while len(seen) < 5 and time.monotonic() < deadline:
            time.sleep(0.001)
        assert [s for s, _ in seen] == [1, 2, 3, 4, 5]
        assert link.stats["reads"] - reads == 1  # one wake-up for the four
        t1, batch = seen[0][1], [t for _, t in seen[1:]]
        # read after the gathering sleep (30 ms), each dated when it should have come: the
        # scan before it plus one frame period (5 ms), never before the previous read nor
        # after this one (dating back from the read time made a change wait a frame more)
        assert batch == pytest.approx([t1 + 0.005 * k for k in range(1, 5)], abs=1e-9)
        # a change pending: every frame is read when it comes, stamped with its read time
        pending[0] = True
        os.write(master, encode_frame(READINGS, 6, still))
        while len(seen) < 6 and time.monotonic() < deadline:
            time.sleep(0.001)
        os.write(master, encode_frame(READINGS, 7, still) + encode_frame(READINGS, 8, still))
        while len(seen) < 8 and time.monotonic() < deadline:
            time.sleep(0.001)
        assert [s for s, _ in seen[5:]] == [6, 7, 8]
        assert seen[6][1] == seen[7][1]  # one read, no dating back
    finally:
        backend.close()
        os.close(master)


def test_link_refuses_a_coalesce_window_out_of_range() -> None:
    with pytest.raises(ValueError, match="coalesce must be between 0 and 0.1 seconds"):
        SerialSensors("loop://", coalesce=0.5)
