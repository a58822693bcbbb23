"""``gingo calibrate``: walk a person through sensor calibration and store the thresholds.

Steps: the empty board; chips of side 1 on a few named spaces; chips of side 2 on the
same spaces; then a check of every space with both colours (two checkerboards). The
thresholds go to ``calibration.json`` in the data directory, where ``gingo serve`` and
``gingo sensors`` find them. Prompts go to stdout; press Enter (or answer) on stdin.
With ``--sim`` the program places the simulated chips itself: a dry run of the walk.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from companion.cli import CommandError
from companion.hardware.calibration import (
    Calibration,
    CalibrationError,
    compute_calibration,
    save_calibration,
)
from companion.hardware.classify import SPACES, Classifier
from companion.commands.sensors import add_source, open_backend
from companion.hardware.sensors import SensorBackend
from companion.hardware.sensors.sim import SimSensors
from companion.paths import data_dir
from companion.commands.settings import from_args

#: spread over the board: row 1 col 1, row 5 col 4, row 9 col 1, row 13 col 4
DEFAULT_SAMPLE_SPACES = (0, 19, 32, 51)
SKIP_SCANS = 5  # scans dropped after Enter while hands leave the board
STALE_SCANS_MAX = 1000  # a bound on the scans waiting from before Enter (the link keeps 64)


def space_name(space: int) -> str:
    """``"row 2 column 3"`` for space 6 (rows from side 1's edge, columns from its left)."""
    return f"row {space // 4 + 1} column {space % 4 + 1}"


def checkerboard(first: str) -> str:
    """52 chars: ``first`` where row+column is even, the other side elsewhere."""
    other = "2" if first == "1" else "1"
    return "".join(first if (s // 4 + s % 4) % 2 == 0 else other for s in range(SPACES))


def draw(board: str) -> str:
    lines = ["          col 1 2 3 4"]
    for row in range(13):
        cells = " ".join(board[row * 4 : row * 4 + 4])
        lines.append(f"  row {row + 1:2d}      {cells}")
    return "\n".join(lines)


def configure(parser: argparse.ArgumentParser) -> None:
    add_source(parser, "dry run on the simulated board (chips placed for you)")
    parser.add_argument("--samples", type=int, default=40, help="scans averaged per step (default 40)")
    parser.add_argument("--spaces", metavar="N,N,...",
                        help="spaces (0..51) for the chip samples (default 0,19,32,51)")


class Walk:
    """The dialogue: prompts on stdout, Enter or an answer on stdin."""

    def __init__(self, backend: SensorBackend, samples: int, place: Callable[[str], None] | None) -> None:
        self.backend = backend
        self.samples = samples
        self.place = place  # the sim: put the chips where the person was asked to

    def ask(self, prompt: str) -> str:
        print(prompt, flush=True)
        try:
            return input("> ").strip()
        except EOFError:
            raise CommandError("calibration cancelled (end of input); nothing was saved") from None

    def step(self, prompt: str, board: str) -> list[tuple[int, ...]]:
        self.ask(prompt + "\nPress Enter when ready.")
        if self.place is not None:
            self.place(board)
        return self.collect()

    def collect(self) -> list[tuple[int, ...]]:
        # the link keeps the last scans while the person reads the prompt: they show the
        # board as it was before Enter, so they are dropped here (a scan's time is its place
        # on the Pico's scan clock, not when it came, so it cannot tell them apart)
        for _ in range(STALE_SCANS_MAX):
            if self.backend.read(0.0) is None:
                break
        wanted = SKIP_SCANS + self.samples
        deadline = time.monotonic() + 2.0 + wanted * 0.05
        scans: list[tuple[int, ...]] = []
        while len(scans) < wanted and time.monotonic() < deadline:
            r = self.backend.read(max(0.0, deadline - time.monotonic()))
            if r is not None:
                scans.append(r.values)
        if len(scans) < wanted:
            raise CommandError(
                f"got only {len(scans)} of {wanted} scans from the sensors; check the link "
                "with 'gingo sensors --port ...' and try again"
            )
        print(f"  read {self.samples} scans", flush=True)
        return scans[SKIP_SCANS:]


def check(calibration: Calibration, scans: Sequence[Sequence[int]], expected: str) -> list[str]:
    """Problems found when the check scans are classified with the new thresholds."""
    classifier = Classifier(calibration.thresholds)
    wrong: dict[int, tuple[str, int]] = {}
    for scan in scans:
        board = classifier.classify(scan)
        for space, (got, want) in enumerate(zip(board, expected)):
            if got != want and space not in wrong:
                wrong[space] = (got, scan[space])
    problems = []
    for space, (got, value) in sorted(wrong.items()):
        t = calibration.thresholds[space]
        read = "empty" if got == "." else f"side {got}"
        problems.append(
            f"{space_name(space)} (space {space}): expected side {expected[space]}, read {read} "
            f"(reading {value}; chip thresholds {t.low_enter} and {t.high_enter})"
        )
    return problems


def parse_spaces(text: str | None) -> list[int]:
    if text is None:
        return list(DEFAULT_SAMPLE_SPACES)
    try:
        spaces = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise CommandError(f"--spaces {text!r}: give space numbers 0..51 separated by commas") from None
    if not spaces or any(not 0 <= s < SPACES for s in spaces) or len(set(spaces)) != len(spaces):
        raise CommandError(f"--spaces {text!r}: give distinct space numbers 0..51 separated by commas")
    return spaces


def run(args: argparse.Namespace) -> int:
    if args.samples < 5:
        raise CommandError("--samples must be at least 5")
    spaces = parse_spaces(args.spaces)
    # a dry run on the simulator never overwrites the real board's calibration
    settings = from_args(args)
    folder = data_dir(settings.data, writable=True) if (args.data or not args.sim) else None
    if args.sim and folder is not None:
        print("Note: --sim with --data saves the simulator's thresholds into that folder.")
    backend, _name = open_backend(args, settings, rate=200, spread=1500, noise=300, seed=7)
    place = backend.set_board if isinstance(backend, SimSensors) else None
    walk = Walk(backend, args.samples, place)
    try:
        return _walk(walk, spaces, folder)
    finally:
        backend.close()


def _walk(walk: Walk, spaces: list[int], folder: Path | None) -> int:
    names = "\n".join(f"  - {space_name(s)} (space {s})" for s in spaces)
    print("Sensor calibration. Rows count from side 1's edge, columns from side 1's left.", flush=True)
    empty = walk.step("Step 1 of 4: take every chip off the board and keep magnets away.", "." * SPACES)
    with_1 = "".join("1" if s in spaces else "." for s in range(SPACES))
    scans1 = walk.step(f"Step 2 of 4: put a SIDE 1 chip on each of these spaces:\n{names}", with_1)
    with_2 = with_1.replace("1", "2")
    scans2 = walk.step(f"Step 3 of 4: replace those chips with SIDE 2 chips, same spaces:\n{names}", with_2)
    samples = {
        1: {s: [scan[s] for scan in scans1] for s in spaces},
        2: {s: [scan[s] for scan in scans2] for s in spaces},
    }
    try:
        calibration = compute_calibration(empty, samples, created=time.strftime("%Y-%m-%dT%H:%M:%S%z"))
    except CalibrationError as exc:
        print(f"Calibration failed: {exc}. Nothing was saved.", flush=True)
        return 1
    print(
        f"Side 1 chips move the reading by {calibration.deltas[1]:+d}, side 2 by {calibration.deltas[2]:+d}; "
        f"empty-board noise up to {max(calibration.noise)}.",
        flush=True,
    )
    problems: list[str] = []
    for n, first in enumerate(("1", "2")):
        pattern = checkerboard(first)
        scans = walk.step(
            f"Step 4 of 4 ({'a' if n == 0 else 'b'}): put chips as drawn (1 = side 1, 2 = side 2) "
            f"on EVERY space:\n{draw(pattern)}",
            pattern,
        )
        problems += check(calibration, scans, pattern)
    if problems:
        print("The check found spaces that read wrong:\n" + "\n".join(f"  - {p}" for p in problems), flush=True)
        answer = walk.ask("Save these thresholds anyway? Type 'yes' to save, Enter to stop.")
        if answer.lower() not in ("y", "yes"):
            print("Nothing was saved. Check the wiring of those spaces and run 'gingo calibrate' again.")
            return 1
    if folder is None:
        print("Every space checked. Dry run on the simulator: nothing saved (pass --data DIR to keep it).")
        return 0
    path = save_calibration(calibration, folder)
    print(f"Every space checked. Saved {path}.", flush=True)
    return 0
