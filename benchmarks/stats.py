"""Statistics benchmark: the players' statistics after each write, counted again from every
game (companion.stats.player_stats, as before issue 14's incremental book) and kept game by
game (companion.stats_book.StatsBook), on a household's long history (the 100,000-event
log of benchmarks/store.py: about 19,000 games).

Each write is a real one on the real Table (a scored hand in a match in play, an undo, a
correction of an old game's first hand); after it, the games' summary lines are read
(``Table.all_lines``, timed apart) and the statistics computed both ways, in this process,
as CPU time. Both answers are compared after every write (they must be equal).

Run: ``.venv/bin/python benchmarks/stats.py`` (``--history DIR`` makes the history there,
or uses the one made there before, by this script or benchmarks/store.py; ``--writes N``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.store import make_history, pct  # noqa: E402
from companion import stats  # noqa: E402
from companion.api.routes.people import sides_of  # noqa: E402
from companion.errors import IllegalAction  # noqa: E402
from companion.stats_book import StatsBook, same  # noqa: E402
from companion.store import open_store  # noqa: E402
from companion.table import HandInput, Table  # noqa: E402


def cpu_ms(fn: Callable[[], Any]) -> tuple[float, Any]:
    c0 = time.process_time()
    out = fn()
    return (time.process_time() - c0) * 1000, out


def history(args: argparse.Namespace, tmp: Path) -> Path:
    hist: Path = args.history or tmp / "history"
    hist.mkdir(parents=True, exist_ok=True)
    if not (hist / "events.sqlite3").exists():
        t0 = time.perf_counter()
        n = make_history(hist, args.events)
        (hist / "events.count").write_text(str(n))
        print(f"(made a {n}-event history in {time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return hist


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=100_000, help="events in the history it makes (default 100000)")
    ap.add_argument("--history", type=Path, help="make the history in this folder, or use the one made there before")
    ap.add_argument("--writes", type=int, default=40, help="writes to time (default 40)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "copy"
        data.mkdir()
        hist = history(args, Path(tmp))
        for f in hist.glob("events.sqlite3*"):  # the writes go to a copy: the history stays as made
            (data / f.name).write_bytes(f.read_bytes())
        table = Table(open_store(data))
        table.all_lines()  # lines stored before they carried a tally are renewed once, here
        rng = random.Random(5)
        book = StatsBook(sides_of)
        first, _ = cpu_ms(lambda: book.update(table.all_lines()))
        old = [ln["id"] for ln in table.all_lines() if ln.get("variant") == "gin" and ln.get("hands_played")][:200]
        gid = table.create_game("gin", players=["Ann", "Bob"], options={"game_target": 100000})["id"]
        read, full, kept = [], [], []
        for i in range(args.writes):
            roll = i % 4
            if roll == 3:
                table.undo(gid)
            elif roll == 2:
                for _ in range(20):  # a correction that leaves the old match as it ended
                    try:
                        table.correct_hand(rng.choice(old), 1, HandInput(0, deadwood=[rng.randint(1, 4), 20]))
                        break
                    except IllegalAction:
                        continue
            else:
                table.score_hand(gid, HandInput(0, deadwood=[rng.randint(0, 5), 20]))
            ms, lines = cpu_ms(table.all_lines)
            read.append(ms)
            ms, a = cpu_ms(lambda: stats.player_stats(lines, sides_of))
            full.append(ms)
            ms, b = cpu_ms(lambda: book.update(lines))
            kept.append(ms)
            assert same(a, b), f"write {i}: the kept statistics differ from those counted again"
        n = len(lines)
        table.store.close()
    rows = [
        (f"read every game's summary line ({n:,} games)", read),
        ("statistics counted again from every game", full),
        ("statistics kept game by game (StatsBook)", kept),
    ]
    w = max(len(r[0]) for r in rows)
    print(f"after each of {args.writes} writes (scored hands, undos, corrections of old games), CPU time:")
    print(f"{'measure':<{w}}  {'median':>9}  {'p99':>9}")
    print("-" * (w + 22))
    for name, vals in rows:
        print(f"{name:<{w}}  {pct(vals, 50):>6.1f} ms  {pct(vals, 99):>6.1f} ms")
    print(f"(the book's first fill, every game: {first:.0f} ms; the answers were equal after every write)")
    print(f"(load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; the machine is shared)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
