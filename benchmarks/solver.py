"""Meld solver benchmark: median and p95 microseconds per call on seeded hands.

    .venv/bin/python benchmarks/solver.py [--hands N] [--seed S]

Hands are converted to bitmasks before timing; each call is timed on its own with
perf_counter_ns after a warm-up pass over the same hands (tables and caches built).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import cards as C  # noqa: E402
from companion import melds as M  # noqa: E402


def random_hands(rng: random.Random, n: int, size: int, jokers: int = 0) -> list[int]:
    out = []
    for _ in range(n):
        m = C.cards_mask(rng.sample(range(52), size))
        for j in range(jokers):
            m |= 1 << (52 + j)
        out.append(m)
    return out


def dense_hands(rng: random.Random, n: int, size: int) -> list[int]:
    """Meld-dense: cards from five or six neighbouring ranks of all four suits."""
    out = []
    for _ in range(n):
        lo = rng.randint(0, 7)
        pool = [13 * s + r for s in range(4) for r in range(lo, lo + rng.choice((5, 6)))]
        out.append(C.cards_mask(rng.sample(pool, size)))
    return out


def measure(f: Callable[[int], object], hands: list[int]) -> tuple[float, float]:
    for h in hands:
        f(h)
    pc = time.perf_counter_ns
    times = []
    for h in hands:
        t = pc()
        f(h)
        times.append(pc() - t)
    times.sort()
    return statistics.median(times) / 1000, times[int(len(times) * 0.95)] / 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    n = a.hands
    md = M.min_deadwood

    def bd(h: int) -> object:
        return M.best_discard_mask(h)

    def gingo(h: int) -> object:
        return md(h, "gingo")

    rows = [
        ("10-card min deadwood, random", md, random_hands(rng, n, 10), "median <= 1"),
        ("10-card min deadwood, meld-dense", md, dense_hands(rng, n, 10), ""),
        ("11-card best discard, random", bd, random_hands(rng, n, 11), "median <= 5"),
        ("11-card best discard, meld-dense", bd, dense_hands(rng, n, 11), ""),
        ("30 cards with two jokers (Gin-Go)", gingo,
         random_hands(rng, max(n // 40, 200), 28, jokers=2), "p95 <= 5000"),
    ]
    print(f"machine: {platform.machine()} {platform.processor() or ''} "
          f"python {platform.python_version()} ({platform.python_implementation()})")
    print(f"{'case':38} {'hands':>6} {'median us':>10} {'p95 us':>10}  target (us)")
    for name, f, hands, target in rows:
        med, p95 = measure(f, hands)
        print(f"{name:38} {len(hands):>6} {med:>10.2f} {p95:>10.2f}  {target}")


if __name__ == "__main__":
    main()
