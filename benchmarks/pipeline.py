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

Run: .venv/bin/python benchmarks/pipeline.py [--changes N] [--rate HZ]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.hardware.framing import READINGS, encode_frame, pack_readings  # noqa: E402
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--changes", type=int, default=100, help="chip moves to time (default 100)")
    ap.add_argument("--rate", type=float, default=100.0, help="READINGS frames per second (default 100)")
    ap.add_argument("--hold", type=int, default=12, help="frames between chip moves (default 12)")
    args = ap.parse_args()

    master, slave = os.openpty()
    path = os.ttyname(slave)
    os.close(slave)
    backend = SerialSensors(path)
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
