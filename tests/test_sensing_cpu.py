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
from companion.hardware.sensors.receive import FrameReceiver
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
    assert backend.link.receiver._consumer is None  # noqa: SLF001 - the subscription is gone


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
        # a change pending: every frame is read when it comes, dated on the same scan clock
        pending[0] = True
        os.write(master, encode_frame(READINGS, 6, still))
        while len(seen) < 6 and time.monotonic() < deadline:
            time.sleep(0.001)
        os.write(master, encode_frame(READINGS, 7, still) + encode_frame(READINGS, 8, still))
        while len(seen) < 8 and time.monotonic() < deadline:
            time.sleep(0.001)
        assert [s for s, _ in seen[5:]] == [6, 7, 8]
        t6, t7, t8 = (t for _, t in seen[5:])
        assert batch[-1] < t6 <= t7 <= t8 <= t7 + 0.005 + 1e-9  # never more than a period a scan
    finally:
        backend.close()
        os.close(master)


def test_link_refuses_a_coalesce_window_out_of_range() -> None:
    with pytest.raises(ValueError, match="coalesce must be between 0 and 0.1 seconds"):
        SerialSensors("loop://", coalesce=0.5)


class _Receiver(FrameReceiver):
    """The link's receiver fed by hand (each read's bytes with its time), with what it
    handed on kept."""

    def __init__(self) -> None:
        super().__init__("test", lambda type_: True)
        self.scans: list[Readings] = []
        self.set_consumer(self.scans.append)


def test_scans_read_at_once_are_dated_on_the_firmware_scan_clock() -> None:
    rx = _Receiver()
    still = pack_readings([32768] * 52)
    rng = random.Random(5)
    lags = [0.004, 0.003, 0.0004] + [rng.uniform(0.0005, 0.004) for _ in range(40)]
    for n, lag in enumerate(lags):
        now = 1.0 + n * 0.005 + lag  # scan n comes at n * 5 ms and is read ``lag`` later
        rx.feed(encode_frame(READINGS, n, still), now)
    dates = [r.t for r in rx.scans]
    assert all(t <= 1.0 + n * 0.005 + lag + 0.0025 for n, (t, lag) in enumerate(zip(dates, lags)))
    # the clock is set by the first read (4 ms late), kept by the second (1 ms earlier than it
    # says: less than half a period), set back by the third (3.6 ms earlier): from then on
    # every scan is dated exactly 5 ms after the one before, whatever its own read's lag
    assert [t - (1.0 + n * 0.005) for n, t in enumerate(dates)][2:] == pytest.approx([0.0004] * 41, abs=1e-9)
    assert dates[1] - dates[0] == pytest.approx(0.005, abs=1e-9)


def test_other_frames_a_duplicate_and_slips_on_the_scan_clock() -> None:
    rx = _Receiver()
    still = pack_readings([32768] * 52)
    rx.feed(encode_frame(0x01, 0, b'{"rate": 100}'), 1.0)  # HELLO: 10 ms a scan
    rx.feed(encode_frame(READINGS, 1, still), 1.001)
    rx.feed(encode_frame(0x03, 2, b""), 1.004)  # a PING shares the seq counter
    rx.feed(encode_frame(READINGS, 3, still) + encode_frame(READINGS, 3, still), 1.0125)
    rx.feed(encode_frame(READINGS, 4, still), 1.0215)
    assert [r.seq for r in rx.scans] == [1, 3, 4]
    assert [r.t for r in rx.scans] == pytest.approx([1.001, 1.011, 1.021], abs=1e-9)
    rx.feed(encode_frame(READINGS, 5, still), 1.4)  # read 0.37 s after its place: a slip
    assert rx.scans[-1].t == 1.4
    rx.feed(encode_frame(READINGS, 205, still), 3.5)  # two seconds of scans lost
    assert rx.scans[-1].t == 3.5  # the clock starts again from the read
    rx.feed(encode_frame(0x01, 206, b'{"rate": 200}'), 3.6)  # a HELLO: the Pico restarted
    rx.feed(encode_frame(READINGS, 0, still), 3.601)
    assert rx.scans[-1].t == 3.601


@pytest.mark.parametrize("seed", range(3))
def test_a_chip_is_accepted_on_the_tenth_scan_however_the_bytes_come(seed: int) -> None:
    """5 scans and 50 ms at 200 scans/s: the 10th scan after the first showing the chip,
    for every change, however the scans reach the reader: read 0.1 to 3 ms after they
    come, gathered while the board is still, or held up to 12 ms by the kernel's tty
    worker and handed on several at once. Dated by read times it was the 10th or the
    11th by the luck of two wake-ups."""
    rng = random.Random(seed)
    rx = _Receiver()
    rx.set_consumer(None)
    changes: list[BoardChange] = []
    pipe = SensingPipeline(_NoBackend(), debouncer=Debouncer(scans=5, settle=0.05), on_change=changes.append)
    rx.set_consumer(pipe._push)  # noqa: SLF001
    rx.feed(encode_frame(0x01, 0, b'{"rate": 200}'), 0.0)
    values = [32768] * 52
    scans: list[tuple[int, float, bytes]] = []  # (seq, when the reader can have it, frame)
    firsts: list[int] = []
    seq, held_until = 1, 0.0
    for change in range(41):  # the first: the board at rest going online
        space = change % 52
        for k in range(40):  # 200 ms a change: the board at rest, then the chip shows from scan 10
            if k == 10 and change:
                values[space] = 45000 if values[space] == 32768 else 32768
                firsts.append(seq)
            sent = 1.0 + seq * 0.005
            if rng.random() < 0.1:
                held_until = sent + rng.uniform(0.002, 0.012)  # the tty worker waits for a CPU
            scans.append((seq, max(sent, held_until), encode_frame(READINGS, seq, pack_readings(values))))
            seq += 1
    i = 0
    while i < len(scans):  # each read takes every scan handed on by then
        now = scans[i][1] + rng.uniform(0.0001, 0.003)
        if i % 40 < 10 and rng.random() < 0.5:
            now += 0.04  # gathering while nothing is pending
        j = i
        while j < len(scans) and scans[j][1] <= now:
            j += 1
        rx.feed(b"".join(frame for _, _, frame in scans[i:j]), now)
        i = j
    accepted = [c.seq for c in changes]  # (an empty board going online reports no change)
    assert accepted == [f + 10 for f in firsts]
