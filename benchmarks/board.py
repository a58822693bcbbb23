"""Gin-Go board benchmark: median and p95 microseconds per operation on seeded random boards.

    .venv/bin/python benchmarks/board.py [--boards N] [--seed S]

Each random board has each space empty, side 1 or side 2 with chances drawn per board
(so both sparse and crowded boards appear). Timed per call with perf_counter_ns:

* place+link: ``board.place(side, 3 spaces)`` on a copy of the board, which bumps and
  updates both sides' links (a meld's worth of chips);
* lift+link: ``board.lift(space)`` of one chip;
* link (scratch): ``link_from_scratch(mask)``, the pure BFS;
* distance: ``link_distance_from_scratch(mask)`` (bit-mask cost levels);
* distance path: ``distance_path_from_scratch(mask)`` (0-1 BFS with a path).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.board import (  # noqa: E402
    Board,
    distance_path_from_scratch,
    link_distance_from_scratch,
    link_from_scratch,
)


def random_boards(rng: random.Random, n: int, adjacency: str) -> list[Board]:
    out = []
    for _ in range(n):
        p1, p2 = rng.uniform(0.1, 0.5), rng.uniform(0.1, 0.45)
        m = [0, 0, 0]
        for s in range(52):
            x = rng.random()
            side = 1 if x < p1 else 2 if x < p1 + p2 else 0
            if side:
                m[side] |= 1 << s
        out.append(Board.from_masks(m[1], m[2], chip_cap=None, adjacency=adjacency))
    return out


def timed(calls: Sequence[Callable[[], object]]) -> tuple[float, float]:
    pc = time.perf_counter_ns
    times = []
    for f in calls:
        t = pc()
        f()
        times.append(pc() - t)
    times.sort()
    return statistics.median(times) / 1000, times[int(len(times) * 0.95)] / 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {args.boards} boards, seed {args.seed}")
    print(f"{'adjacency':<10}{'operation':<16}{'median µs':>11}{'p95 µs':>10}")
    for adjacency in ("king8", "ortho4"):
        rng = random.Random(args.seed)
        boards = random_boards(rng, args.boards, adjacency)
        copies = [b.copy() for b in boards]
        moves = [(rng.choice((1, 2)), rng.sample(range(52), 3)) for _ in boards]
        lifts = [rng.randrange(52) for _ in boards]
        place_calls = [partial(b.place, side, sp) for b, (side, sp) in zip(copies, moves)]
        lift_copies = [b.copy() for b in boards]
        lift_calls = [partial(b.lift, s) for b, s in zip(lift_copies, lifts)]
        masks = [b.mask(1) for b in boards]
        results = [
            ("place+link", timed(place_calls)),
            ("lift+link", timed(lift_calls)),
            ("link (scratch)", timed([partial(link_from_scratch, m, adjacency) for m in masks])),
            ("distance", timed([partial(link_distance_from_scratch, m, adjacency) for m in masks])),
            ("distance path", timed([partial(distance_path_from_scratch, m, adjacency) for m in masks])),
        ]
        for name, (med, p95) in results:
            print(f"{adjacency:<10}{name:<16}{med:>11.1f}{p95:>10.1f}")


if __name__ == "__main__":
    main()
