"""Our gin bots against a bot we did not write, hand by hand: RLCard's gin-rummy rule agent.

    .venv/bin/pip install '.[bench]'   # rlcard (an optional benchmark extra, never the service's)
    nice .venv/bin/python benchmarks/outside.py --deals 250 --seed 1 --pairs sharp:rlcard,normal:rlcard

Each deal (``rummy_game(variant, seed=s, dealer=0)``, the first hand only, the match at
0-0) is played twice, policy A in seat 0 and then in seat 1, so both policies get the
same cards and only their play differs ("duplicate deals with seats swapped"): 250
deals are 500 hands per pairing. The table shows the hands A won and B won (a void
hand, the stock run down to two, is decided by nobody), A's share of the decided hands
with its 95% Wilson interval, the points A and B scored per hand, and A's margin per
hand with a 95% interval (the mean of the deals' margins over both seatings, plus or
minus 1.96 standard errors: a deal's two hands are paired, so the luck of the cards
cancels in them).

The outside bot is ``rlcard.models.gin_rummy_rule_models.GinRummyNoviceRuleAgent``
(RLCard 1.2.0, PyPI): it goes gin or knocks whenever it can, discards the card whose
loss leaves the least deadwood, and otherwise (the draw) picks one of its legal actions
at random (numpy's generator, seeded here per hand for replay). It is asked only with
what its seat may know: its own cards (``obs[0]``) and the legal actions, encoded as
RLCard's gin-rummy environment encodes them (a card's id is ``suit * 13 + rank`` with
suits S H D C and ranks A..K, as ours; actions 2 draw, 3 pick up the discard, 5 gin,
6 + card discard, 58 + card knock). Our upcard phase is RLCard's first draw: "pass" is
its draw from the stock. The engine declares the knocker's melds (least deadwood).
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import _rummy_policy  # noqa: E402
from companion.games import rummy_game  # noqa: E402

def policy(name: str) -> Any:
    return _rummy_policy(name)


def _total(p: Any) -> int:
    if isinstance(p, dict):
        return sum(int(v) for v in p.values())
    return int(p)


def hand(variant: str, seed: int, a: Any, b: Any, a_seat: int, times: list[float]) -> tuple[int | None, int, int]:
    """One hand: (the winner, 0 for A and 1 for B or None, A's points, B's points)."""
    game = rummy_game(variant, seed=seed, dealer=0)
    rng = random.Random(seed * 7919 + a_seat)
    for _ in range(2000):
        if game.results:
            break
        mover = game.turn
        if mover == a_seat:
            t0 = time.process_time()
            act = a(game, rng)
            times.append(time.process_time() - t0)
        else:
            act = b(game, rng)
        game.apply(act)
    r = game.results[0]
    pa, pb = _total(r.points[a_seat]), _total(r.points[1 - a_seat])
    if r.winner is None:
        return None, pa, pb
    return (0 if r.winner == a_seat else 1), pa, pb


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (mid - half, mid + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=250, help="deals per pairing (each played twice)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="gin", choices=["gin"])
    ap.add_argument("--pairs", default="sharp:rlcard,normal:rlcard")
    args = ap.parse_args()
    print(f"machine: {platform.machine()} python {platform.python_version()}; {args.variant}, deals "
          f"{args.seed}..{args.seed + args.deals - 1}, each played twice with the seats swapped")
    print(f"{'A:B':<16} {'hands':>5} {'A won':>6} {'B won':>6} {'void':>5} {'A rate':>7} {'95% CI':>13} "
          f"{'A pts':>6} {'B pts':>6} {'margin':>7} {'95% CI':>15} {'ms med':>7} {'ms p99':>7}")
    for pair in args.pairs.split(","):
        an, bn = pair.split(":")
        a, b = policy(an), policy(bn)
        won = [0, 0]
        void = 0
        pts = [0, 0]
        margins: list[float] = []
        times: list[float] = []
        for s in range(args.seed, args.seed + args.deals):
            deal = 0.0
            for seat in (0, 1):
                w, pa, pb = hand(args.variant, s, a, b, seat, times)
                if w is None:
                    void += 1
                else:
                    won[w] += 1
                pts[0] += pa
                pts[1] += pb
                deal += pa - pb
            margins.append(deal / 2)
        n = 2 * args.deals
        decided = won[0] + won[1]
        lo, hi = wilson(won[0], decided)
        mean = statistics.fmean(margins)
        half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else float("nan")
        print(f"{pair:<16} {n:>5} {won[0]:>6} {won[1]:>6} {void:>5} {won[0] / max(1, decided):>7.3f} "
              f"{f'{lo:.3f}-{hi:.3f}':>13} {pts[0] / n:>6.2f} {pts[1] / n:>6.2f} {mean:>7.2f} "
              f"{f'{mean - half:.2f}..{mean + half:.2f}':>15} {1000 * percentile(times, 0.5):>7.2f} "
              f"{1000 * percentile(times, 0.99):>7.1f}", flush=True)


if __name__ == "__main__":
    main()
