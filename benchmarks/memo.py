"""Memory of the wild-card meld search over a long service life.

    .venv/bin/python benchmarks/memo.py [--matches N] [--every K] [--unbounded]

The search for hands with wild cards (Ginski's wilds, Gin-Go's jokers) remembers each
suit pattern it has solved (``companion.melds.wild``), and the seat bots ask it about
every hand they might hold after a draw. A companion that runs for years sees ever
more patterns, so the memo and the run searches' caches start afresh once they hold
``MEMO_LIMIT`` entries. This plays three-player Ginski matches of the seat bot against
itself (the heaviest user of the search) and prints, every K matches: the memo's
entries, the run searches' cached entries, how often they started afresh, the process's
resident memory now and at its peak, and the median seconds per match so far.
``--unbounded`` lifts the limit, to show what it saves.
"""

from __future__ import annotations

import argparse
import platform
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bots  # noqa: E402  (benchmarks/bots.py: the matches the bot benchmark plays)

from companion import melds as M  # noqa: E402
from companion.melds import wild  # noqa: E402


def rss_mb() -> float:
    """Resident memory now (Linux /proc), else the peak."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        return pages * resource.getpagesize() / 2**20
    except (OSError, IndexError, ValueError):
        return peak_mb()


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=200, help="Ginski matches to play (default 200)")
    ap.add_argument("--every", type=int, default=50, help="a row every K matches (default 50)")
    ap.add_argument("--unbounded", action="store_true", help="no limit on the memo (the old behaviour)")
    args = ap.parse_args()
    if args.matches < 1 or args.every < 1:
        ap.error("--matches and --every must be at least 1")
    if args.unbounded:
        wild.MEMO_LIMIT = 1 << 62
    search = wild._run_wild(M.RUMSKI)
    policy = bots._rummy_policy("bot")
    print(f"# {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}; "
          f"MEMO_LIMIT {'none' if args.unbounded else wild.MEMO_LIMIT}")
    print(f"{'matches':>8} {'memo':>8} {'searches':>9} {'restarts':>9} {'RSS MB':>7} {'peak MB':>8} {'s/match':>8}")
    seconds = []
    for n in range(1, args.matches + 1):
        t = time.perf_counter()
        bots.rummy_match("ginski", 3, n, policy, policy, 0)
        seconds.append(time.perf_counter() - t)
        if n % args.every == 0 or n == args.matches:
            searched = wild._RunWild._f.cache_info().currsize + wild._RunWild._f_dup.cache_info().currsize
            print(f"{n:>8} {len(search.memo):>8} {searched:>9} {search.restarts:>9} {rss_mb():>7.1f} {peak_mb():>8.1f} "
                  f"{statistics.median(seconds):>8.3f}", flush=True)


if __name__ == "__main__":
    main()
