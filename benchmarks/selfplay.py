"""Self-play benchmark: games per second per rummy variant, with and without the
invariant checks.

    .venv/bin/python benchmarks/selfplay.py [--games N] [--rounds R] [--seed S]

Each round plays ``--games`` whole matches (seeds ``S .. S+N-1``) with bots on both
sides; the table shows the median games per second over the rounds, the median
milliseconds per match and the hands per match. Variants whose rule module is not
installed are listed as missing.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games import VARIANTS, rummy_variant  # noqa: E402
from companion.play.rummy_selfplay import selfplay_match  # noqa: E402

CASES = [("gin", None), ("color_gin", None), ("ginski", 3), ("ginski", 2)]


def bench(variant: str, players: int | None, games: int, rounds: int, seed: int,
          check: bool) -> tuple[float, float, float]:
    """(median games/s, median ms per match, hands per match)."""
    rates = []
    per_match: list[float] = []
    hands = 0
    game = rummy_variant(variant)  # the seat bot, rules and meld rules, as the game gives them
    policy = game.seat_policy()
    for _ in range(rounds):
        start = time.perf_counter()
        hands = 0
        for s in range(seed, seed + games):
            t0 = time.perf_counter()
            r = selfplay_match(s, variant, players=players, check=check, policy=policy, rules=game.rules,
                               meld_rules=game.meld_rules)
            per_match.append((time.perf_counter() - t0) * 1000)
            hands += r["hands"]
        rates.append(games / (time.perf_counter() - start))
    return statistics.median(rates), statistics.median(per_match), hands / games


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}; "
          f"{args.games} matches x {args.rounds} rounds, seeds from {args.seed}")
    head = (f"{'variant':<12}{'players':>8}{'checks':>8}{'games/s (median)':>18}"
            f"{'ms/match (median)':>19}{'hands/match':>13}")
    print(head)
    print("-" * len(head))
    for variant, players in CASES:
        if variant not in VARIANTS:
            print(f"{variant:<12}{'':>8}{'':>8}{'not installed':>18}")
            continue
        for check in (True, False):
            rate, ms, hands = bench(variant, players, args.games, args.rounds, args.seed, check)
            shown = players if players is not None else 2
            print(f"{variant:<12}{shown:>8}{('on' if check else 'off'):>8}{rate:>18.1f}"
                  f"{ms:>19.1f}{hands:>13.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
