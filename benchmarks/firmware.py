"""The firmware's speed on real MicroPython in an emulated Pico (rp2040js, tests/pico).

Prints, for the default config, for avg=8 and with LEDS frames at 25 fps (60 LEDs on
the Pico): READINGS per second and the gaps between READINGS frames (median, p99,
max), all in emulated time, counted on the emulated USB wire; then garbage per pass
(gc.mem_alloc() between two HELLO answers) and the longest LEDS frame apply time, as the
firmware reports them in its HELLO. Needs GINGO_PICO_FIRMWARE and GINGO_PICO_BOOTROM
(see tests/pico/board.py); emulated timing tracks a real Pico within about 15%, but
real USB and ADC timing are only seen on a real board (firmware/README.md, bring-up).

    .venv/bin/python benchmarks/firmware.py [--seconds 2]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "pico"))

from board import EmulatedBoard, unavailable  # noqa: E402

from companion.hardware.framing import CONFIG, HELLO  # noqa: E402
from companion.hardware.sensors.serial import SerialSensors  # noqa: E402

LEDS = 60


def wait(cond: Any, timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise SystemExit("the emulated Pico did not answer in time")
        time.sleep(0.02)


def hello(s: SerialSensors) -> dict[str, Any]:
    n = s.link.stats["hellos"]
    s.link.send_frame(HELLO)
    wait(lambda: s.link.stats["hellos"] > n)
    assert s.link.receiver.hello is not None
    return s.link.receiver.hello


def window(board: EmulatedBoard, seconds: float, leds: SerialSensors | None = None) -> dict[str, Any]:
    """READINGS counted over ``seconds`` of emulated time; LEDS frames at 25 fps if asked."""
    board.tap(clear=True)
    start = board.now()
    due = start
    frame = 0
    while (now := board.now()) < start + seconds * 1e6:
        if leds is not None and now >= due:
            leds.send_leds(bytes((frame * 5 + i) & 0xFF for i in range(3 * LEDS)))
            frame += 1
            due += 40_000
        time.sleep(0.004)
    tap: dict[str, Any] = board.tap(clear=True)["tap"]
    return tap


def row(name: str, tap: dict[str, Any]) -> str:
    gaps = sorted(tap["gaps"])
    per_s = (tap["readings"] - 1) / ((tap["last"] - tap["first"]) / 1e9)
    p99 = gaps[min(len(gaps) - 1, int(0.99 * len(gaps)))]
    return f"{name:<26} {per_s:>10.1f} {statistics.median(gaps) / 1000:>11.2f} {p99 / 1000:>8.2f} {max(gaps) / 1000:>8.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="emulated seconds per measurement")
    args = ap.parse_args()
    reason = unavailable()
    if reason:
        print(f"benchmarks/firmware.py: skipped: {reason}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        board = EmulatedBoard(Path(tmp), config={"LED_PIN": 16, "LED_COUNT": LEDS})
        s = SerialSensors(board.port, wait=True)
        try:
            wait(lambda: s.link.online)
            # the emulator runs slower than real time: keep the link from taking that for a
            # silence and asking for HELLO by itself (each answer costs the Pico a little)
            s.link.offline_after = s.link.hello_every = 3600.0
            window(board, 0.3)  # past the first passes (HELLO, first collection)
            print(f"{'READINGS (emulated Pico)':<26} {'frames/s':>10} {'gap med ms':>11} {'p99 ms':>8} {'max ms':>8}")
            print(row("default (rate 220, avg 1)", window(board, args.seconds)))
            window(board, 1.1)  # the firmware walks the heap at most once a second
            hello(s)  # it walks the heap after this answer...
            window(board, 1.5)  # ...330 passes with no frame from the Pi...
            base = hello(s)  # ...and before this one: the garbage per pass between them
            s.link.send_frame(CONFIG, b'{"avg": 8}')
            wait(lambda: hello(s)["avg"] == 8)
            print(row("avg 8", window(board, args.seconds)))
            s.link.send_frame(CONFIG, b'{"avg": 1}')
            wait(lambda: hello(s)["avg"] == 1)
            print(row("LEDS at 25 fps (60 LEDs)", window(board, args.seconds, leds=s)))
            after = hello(s)
            print()
            print(f"garbage per pass (gc.mem_alloc between two HELLO answers 330 quiet passes apart): {base['garbage']} bytes")
            print(f"LEDS frame apply time, longest of {after['led_frames']} frames: {after['led_us']} us")
            print(f"frames dropped by the Pico (host not reading): {after['dropped']}")
        finally:
            s.close()
            board.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
