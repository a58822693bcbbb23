"""Meld solver benchmark: median and p99 microseconds per call on seeded hands, side
by side with OpenSpiel's C++ gin rummy solver when it is installed.

    .venv/bin/python benchmarks/solver.py [--hands N] [--seed S]
    .venv/bin/pip install open_spiel    # optional: adds the OpenSpiel columns

Each side gets its native input: ours a card bitmask, OpenSpiel a list of card ints
(both number a card ``suit * 13 + rank - 1``). The two are timed on the same hands,
one call each in turn, so a busy machine slows both alike; every call is timed on its
own with perf_counter_ns after a warm-up pass over the same hands (tables and caches
built). ``ratio`` is our median over OpenSpiel's.

* 10-card minimum deadwood: ``min_deadwood(mask)`` against
  ``GinRummyUtils.min_deadwood(list)``.
* 11-card best discard: ``best_discard_mask(mask)`` (the least deadwood after one
  discard and every discard reaching it) against OpenSpiel's exact answer, its
  ``min_deadwood`` of the ten cards left by each of the eleven discards. Its own
  11-card ``min_deadwood`` is shown below the table: one call, but it melds all
  eleven cards first and then drops the highest unmatched card, which is not always
  the least deadwood (the count of hands where it differs is printed).
* The public ``min_deadwood`` with a list of card ints, against the same call with
  the mask (``ratio`` = list over mask).

``ratio`` divides the medians; ``loop ratio`` divides plain loops over the same hands
with no timer around each call (the timer's own cost, printed, is in every median).
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

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


def _stats(times: list[int]) -> tuple[float, float]:
    times.sort()
    return times[len(times) // 2] / 1000, times[min(len(times) - 1, int(len(times) * 0.99))] / 1000


def measure(f: Callable[[Any], object], hands: Sequence[Any]) -> tuple[float, float]:
    """(median, p99) microseconds of ``f`` per hand."""
    for h in hands:
        f(h)
    pc = time.perf_counter_ns
    times = []
    for h in hands:
        t = pc()
        f(h)
        times.append(pc() - t)
    return _stats(times)


def measure_pair(f: Callable[[Any], object], xs: Sequence[Any],
                 g: Callable[[Any], object], ys: Sequence[Any]
                 ) -> tuple[tuple[float, float], tuple[float, float]]:
    """(median, p99) of ``f`` on ``xs`` and of ``g`` on ``ys``, timed in turn."""
    for x, y in zip(xs, ys):
        f(x)
        g(y)
    pc = time.perf_counter_ns
    tf = []
    tg = []
    for x, y in zip(xs, ys):
        t = pc()
        f(x)
        t1 = pc()
        g(y)
        t2 = pc()
        tf.append(t1 - t)
        tg.append(t2 - t1)
    return _stats(tf), _stats(tg)


def loop_mean(f: Callable[[Any], object], xs: Sequence[Any], rounds: int = 3) -> float:
    """Microseconds per call of ``f`` over ``xs`` in a plain loop (no per-call timer),
    the best of ``rounds``."""
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for x in xs:
            f(x)
        best = min(best, time.perf_counter() - t)
    return best / len(xs) * 1e6


def open_spiel_utils() -> Any:
    """OpenSpiel's gin rummy utilities (13 ranks, 4 suits, 10 cards), or None."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    n = a.hands
    md = M.min_deadwood
    bd = M.best_discard_mask
    os_utils = open_spiel_utils()
    print(f"machine: {platform.machine()} {platform.processor() or ''} "
          f"python {platform.python_version()} ({platform.python_implementation()})")
    if os_utils is None:
        print("OpenSpiel is not installed (pip install open_spiel): our figures only")
    cases: list[tuple[str, Callable[[Any], object], list[int], str]] = [
        ("10-card min deadwood, random", md, random_hands(rng, n, 10), "min"),
        ("10-card min deadwood, meld-dense", md, dense_hands(rng, n, 10), "min"),
        ("11-card best discard, random", bd, random_hands(rng, n, 11), "discard"),
        ("11-card best discard, meld-dense", bd, dense_hands(rng, n, 11), "discard"),
    ]
    head = f"{'case':36} {'hands':>6} {'median us':>10} {'p99 us':>8}"
    if os_utils is not None:
        head += f" {'OpenSpiel med':>13} {'p99':>8} {'ratio':>6} {'loop ratio':>10}"
    print(head)
    single: list[tuple[str, float, float, int]] = []
    for name, f, hands, kind in cases:
        if os_utils is None:
            med, p99 = measure(f, hands)
            print(f"{name:36} {len(hands):>6} {med:>10.2f} {p99:>8.2f}")
            continue
        lists = [C.mask_cards(h) for h in hands]
        os_min = os_utils.min_deadwood
        if kind == "min":
            g: Callable[[Any], object] = os_min
        else:
            def g(cards: list[int], os_min: Any = os_min) -> object:
                return min(os_min(cards[:i] + cards[i + 1:]) for i in range(len(cards)))
        for h, cards in zip(hands[:500], lists):  # both answer the same
            ours = f(h)
            want = ours[0] if isinstance(ours, tuple) else ours
            if want != g(cards):
                raise SystemExit(f"{name}: we and OpenSpiel differ on {C.mask_names(h)}")
        (med, p99), (omed, op99) = measure_pair(f, hands, g, lists)
        loop = loop_mean(f, hands) / loop_mean(g, lists)
        print(f"{name:36} {len(hands):>6} {med:>10.2f} {p99:>8.2f} {omed:>13.2f} "
              f"{op99:>8.2f} {med / omed:>6.2f} {loop:>10.2f}")
        if kind == "discard":
            differ = sum(1 for h, cards in zip(hands, lists) if bd(h)[0] != os_min(cards))
            smed, sp99 = measure(os_min, lists)
            single.append((name, smed, sp99, differ))
    for name, smed, sp99, differ in single:
        print(f"  OpenSpiel's one-call 11-card min_deadwood, {name.split(', ')[1]}: "
              f"median {smed:.2f} us, p99 {sp99:.2f} us; not the least deadwood after "
              f"the best discard on {differ} of {n} hands")
    tmed, _ = measure(lambda h: None, hands10 := random_hands(rng, n, 10))
    print(f"  (timing one call costs about {tmed:.2f} us itself, counted in every median "
          "above; 'loop ratio' is the ratio of plain loops over the hands, no timer per call)")
    # the public entry point: a list of card ints against the mask
    lists10 = [C.mask_cards(h) for h in hands10]
    (lmed, lp99), (mmed, mp99) = measure_pair(md, lists10, md, hands10)
    lloop = loop_mean(md, lists10) / loop_mean(md, hands10)
    print(f"{'min_deadwood(list of ints), random':36} {n:>6} {lmed:>10.2f} {lp99:>8.2f}"
          f"   mask: {mmed:.2f} (p99 {mp99:.2f}); list/mask {lmed / mmed:.2f}, "
          f"loop {lloop:.2f}")
    gingo_hands = random_hands(rng, max(n // 40, 200), 28, jokers=2)
    med, p99 = measure(lambda h: md(h, "gingo"), gingo_hands)
    print(f"{'30 cards with two jokers (Gin-Go)':36} {len(gingo_hands):>6} {med:>10.2f} "
          f"{p99:>8.2f}")


if __name__ == "__main__":
    main()
