"""Sensing pipeline latency: a READINGS frame written to a pty -> stable change -> LED frame.

A writer thread plays the Pico: it writes READINGS frames to the master end of a pty at
100 frames per second and moves a chip every few frames. The companion side is the
real thing: SerialSensors on the pty's slave, the classifier, the debouncer (default 5
scans and 50 ms) and, for every accepted change, the LED scene rendered with
companion.hardware.scene.render_scene and packed as a LEDS payload.

Two figures per change:
  total     first frame showing the new chip written -> LED frame ready
            (includes the debounce window, about 50 ms at 100 frames/s)
  overhead  the frame that completed the debounce written -> LED frame ready
            (what the software adds beyond the debounce; target p99 <= 5 ms)

Then the CPU the companion spends on a streaming link, at 100, 200 and 220 READINGS frames
per second: a child process plays the Pico (so its own work is not counted) and the
companion process runs the serial reader and the sensing pipeline on their threads, as
the service does. CPU % = the companion process's CPU time / wall time, in % of one
core. Two streams: "noisy" (every reading jitters by +-300 counts, as a real sensor
does: no two frames are equal) and "still" (frames repeat, as from a board at rest
behind a firmware that averages; the pipeline skips a frame equal to the last one).
Budget: 2 % of one core here at 200 frames/s (a Pi Zero 2 W core is about 8-10 times
slower, so that is 16-20 % there).

Run: .venv/bin/python benchmarks/pipeline.py [--changes N] [--rate HZ] [--cpu-seconds S]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.hardware.framing import HELLO, READINGS, encode_frame, pack_readings  # noqa: E402
from companion.hardware.sensing import BoardChange, SensingPipeline  # noqa: E402
from companion.hardware.sensors.serial import SerialSensors  # noqa: E402

try:
    from companion.hardware.layout import default_layout
    from companion.hardware.leds.pico import encode_leds_payload
    from companion.hardware.scene import SceneInput, render_scene

    LAYOUT = default_layout()

    def render(board: str, t: float) -> bytes:
        return encode_leds_payload(render_scene(SceneInput(expected=board, sensed=board), t, LAYOUT))

    RENDERER = "companion.hardware.scene.render_scene + LEDS payload"
except ImportError:  # the scene module is not there: copy a plain frame instead
    def render(board: str, t: float) -> bytes:
        colours = {".": b"\x00\x00\x00", "1": b"\xff\x00\x00", "2": b"\x00\xff\x00"}
        return b"".join(colours[c] for c in board) + bytes(24)

    RENDERER = "plain colour copy (scene module not available)"


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def hello_frame(rate: float) -> bytes:
    """The firmware's HELLO, as it answers the companion's request: its frame rate."""
    return encode_frame(HELLO, 0xFFFF, json.dumps({"fw": "bench", "rate": rate}).encode())


def writer(fd: int, rate: float, seconds: float, noisy: bool) -> None:
    """The child: write READINGS frames to ``fd`` at ``rate`` for ``seconds``."""
    import random

    rng = random.Random(7)
    base = [32768 + rng.randint(-2000, 2000) for _ in range(52)]
    base[5], base[40] = 45000, 20000  # two chips on the board
    period = 1.0 / rate
    os.write(fd, hello_frame(rate))
    start = time.monotonic()
    n = 0
    while True:
        due = start + n * period
        if due - start >= seconds:
            return
        values = [v + rng.randint(-300, 300) for v in base] if noisy else base
        frame = encode_frame(READINGS, n & 0xFFFF, pack_readings(values))
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        os.write(fd, frame)
        n += 1


def cpu_run(rate: float, seconds: float, noisy: bool, coalesce: float = 0.04) -> tuple[float, int, int]:
    """(CPU % of one core, frames read, frames the pipeline skipped) for one stream."""
    import subprocess

    master, slave = os.openpty()
    path = os.ttyname(slave)
    os.close(slave)
    backend = SerialSensors(path, coalesce=coalesce)
    pipe = SensingPipeline(backend)
    pipe.start()
    time.sleep(0.3)  # the reader is up and idle
    child = subprocess.Popen(
        [sys.executable, __file__, "--writer", str(master), str(rate), str(seconds), "noisy" if noisy else "still"],
        pass_fds=(master,),
    )
    time.sleep(1.0)  # settle: the board becomes known, caches warm up
    frames0, skipped0 = backend.link.stats["readings"], pipe.skipped
    cpu0, wall0 = time.process_time(), time.monotonic()
    time.sleep(max(0.5, seconds - 2.0))
    cpu1, wall1 = time.process_time(), time.monotonic()
    frames, skipped = backend.link.stats["readings"] - frames0, pipe.skipped - skipped0
    child.wait(timeout=seconds + 10)
    pipe.stop()
    os.close(master)
    return 100.0 * (cpu1 - cpu0) / (wall1 - wall0), frames, skipped


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--writer":
        writer(int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5] == "noisy")
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--changes", type=int, default=100, help="chip moves to time (default 100)")
    ap.add_argument("--rate", type=float, default=100.0, help="READINGS frames per second (default 100)")
    ap.add_argument("--hold", type=int, default=12, help="frames between chip moves (default 12)")
    ap.add_argument("--cpu-seconds", type=float, default=8.0, help="length of each CPU run (default 8)")
    ap.add_argument("--cpu-runs", type=int, default=3, help="runs per stream; median and max shown (default 3)")
    ap.add_argument("--cpu-only", action="store_true", help="skip the latency part")
    ap.add_argument("--coalesce", type=float, default=0.04,
                    help="seconds the reader gathers frames while the board is still (0: off; default 0.04, as the service)")
    args = ap.parse_args()
    status = 0 if args.cpu_only else latency(args)
    print()
    print(f"companion CPU while the link streams (process CPU time / wall time, % of one core; "
          f"{args.cpu_seconds:g} s runs, the Pico played by a child process)")
    print(f"{'frames/s':>8} {'stream':<6} {'CPU % p50':>9} {'CPU % max':>9} {'frames':>7} {'skipped':>8}")
    for rate in (100.0, 200.0, 220.0):  # 220: the firmware's default
        for noisy in (True, False):
            runs = [cpu_run(rate, args.cpu_seconds, noisy, args.coalesce) for _ in range(max(1, args.cpu_runs))]
            cpus = [r[0] for r in runs]
            frames, skipped = sum(r[1] for r in runs), sum(r[2] for r in runs)
            print(f"{rate:8.0f} {'noisy' if noisy else 'still':<6} {statistics.median(cpus):9.2f} {max(cpus):9.2f} "
                  f"{frames:7d} {skipped:8d}")
    print(f"machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return status


def latency(args: argparse.Namespace) -> int:

    master, slave = os.openpty()
    path = os.ttyname(slave)
    os.close(slave)
    backend = SerialSensors(path, coalesce=args.coalesce)
    written: dict[int, float] = {}          # seq -> time written
    first_new: dict[int, float] = {}        # change number -> time its first frame was written
    done: list[tuple[int, float, int]] = []  # (change number, LED frame ready time, completing seq)

    moves: dict[int, list[tuple[int, int]]] = {}  # space -> [(first seq, change number)]

    def on_change(change: BoardChange) -> None:
        render(change.board, time.monotonic())
        ready = time.monotonic()
        # under load two moves can settle in the same scan: count each moved space
        for space in change.changed:
            started = [c for first, c in moves.get(space, []) if first <= change.seq]
            if started:
                done.append((started[-1], ready, change.seq))

    pipe = SensingPipeline(backend, on_change=on_change)
    pipe.start()
    os.write(master, hello_frame(args.rate))
    values = [32768] * 52
    period = 1.0 / args.rate
    total_frames = (args.changes + 2) * args.hold  # a quiet tail lets the last change settle
    seq = 0
    change_no = -1
    start = time.monotonic()
    for n in range(total_frames):
        if n % args.hold == 0 and 0 < n <= args.changes * args.hold:
            change_no += 1
            space = (change_no * 7) % 52
            values[space] = 45000 if values[space] == 32768 else 32768
            moves.setdefault(space, []).append((seq, change_no))
        due = start + n * period
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        frame = encode_frame(READINGS, seq & 0xFFFF, pack_readings(values))
        now = time.monotonic()
        os.write(master, frame)
        written[seq & 0xFFFF] = now
        if n % args.hold == 0 and 0 < n <= args.changes * args.hold:
            first_new[change_no] = now
        seq += 1
    time.sleep(0.3)
    pipe.stop()
    os.close(master)

    results = [(c, t, s) for c, t, s in done if c >= 0 and c in first_new]
    total = [(t - first_new[c]) * 1000 for c, t, s in results]
    overhead = [(t - written[s]) * 1000 for c, t, s in results]
    stats = backend.link.stats
    print(f"pipeline latency, {len(results)} of {args.changes} changes at {args.rate:g} frames/s; "
          f"debounce 5 scans and 50 ms; renderer: {RENDERER}")
    print(f"bad frames: crc {stats['crc']}, cobs {stats['cobs']}, length {stats['length']}, "
          f"type {stats['type']}; gaps {stats['gaps']}")
    print(f"machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (other work inflates p99)")
    print(f"{'measure':<10} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name, xs in (("total", total), ("overhead", overhead)):
        if xs:
            print(f"{name:<10} {statistics.median(xs):8.2f} {pct(xs, 99):8.2f} {max(xs):8.2f}")
    return 0 if len(results) == args.changes else 1


if __name__ == "__main__":
    sys.exit(main())
