"""Gin-Go self-play sweep: bots play whole games from many seeds, 2 and 4 players.

    .venv/bin/python benchmarks/gingo_sweep.py [--games 300] [--seed 0] [--check]

Every game must end: won by a link (``finished``), or stopped by the hand cap of
:func:`selfplay_game` (``hand cap``, reported apart). A game that raises, or a position
where the bot finds no legal action, is counted as ``crashed`` with its seed, and the
script exits with status 1. The table shows games per second over the whole sweep and
the median and p99 milliseconds per game.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.gingo.play import selfplay_game  # noqa: E402


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]


def sweep(players: int, games: int, seed: int, check: bool) -> dict[str, object]:
    ms: list[float] = []
    finished = capped = 0
    crashed: list[tuple[int, str]] = []
    start = time.perf_counter()
    for s in range(seed, seed + games):
        t0 = time.perf_counter()
        try:
            r = selfplay_game(s, players=players, check=check)
        except Exception as exc:  # noqa: BLE001 - a sweep reports every failure with its seed
            crashed.append((s, f"{type(exc).__name__}: {exc}"))
            continue
        finally:
            ms.append((time.perf_counter() - t0) * 1000)
        if r["winner"] is None:
            capped += 1
        else:
            finished += 1
    total = time.perf_counter() - start
    return {"rate": games / total, "median": statistics.median(ms), "p99": p99(ms),
            "finished": finished, "capped": capped, "crashed": crashed}


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="games per player count (default 300)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--check", action="store_true", help="check every invariant after every action")
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}; {args.games} games per row, "
          f"seeds {args.seed}..{args.seed + args.games - 1}, invariant checks {'on' if args.check else 'off'}")
    head = (f"{'players':>7}{'games':>7}{'finished':>10}{'hand cap':>10}{'crashed':>9}"
            f"{'games/s':>9}{'ms/game median':>16}{'ms/game p99':>13}")
    print(head)
    print("-" * len(head))
    failures: list[str] = []
    for players in (2, 4):
        r = sweep(players, args.games, args.seed, args.check)
        crashed = r["crashed"]
        assert isinstance(crashed, list)
        print(f"{players:>7}{args.games:>7}{r['finished']:>10}{r['capped']:>10}{len(crashed):>9}"
              f"{r['rate']:>9.1f}{r['median']:>16.1f}{r['p99']:>13.1f}")
        failures += [f"{players} players, seed {s}: {why}" for s, why in crashed]
    for f in failures:
        print("CRASH", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
