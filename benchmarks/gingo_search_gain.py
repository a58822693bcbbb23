"""What the strong Gin-Go bot's search can gain at a decision, and how much of it it gets.

    .venv/bin/python benchmarks/gingo_search_gain.py [--players 4] [--games N] [--seed S]
        [--deals 54] [--every 3] [--digs 2] [--discards 3] [--lays 2] [--only draw|lay|throw]

Plays ``--games`` games (seeds S, S+1, ...; at most 8 hands each) with the normal bot in
every seat. At every ``--every``-th decision where the strong bot
(:mod:`companion.games.gingo.play.search`) has more than one move to weigh, it plays
each of its candidates out over ``--deals`` deals the seat could be facing (the search's
own :func:`~companion.games.gingo.play.search.sample_deal` and
:func:`~companion.games.gingo.play.search.play_out`, every candidate on the same deals),
many more than the 150 ms budget allows. It then splits the deals into blocks of ``n``
(3, 9, 27: the search's ~9 deals and what three times quicker play-outs would give),
lets each block choose the way the search does (the best mean, the normal bot's move on
a tie) and scores that choice on the other deals, which it did not see: the mean
:func:`~companion.games.gingo.play.search.outcome` (a won game 30) of the choice less
that of the normal bot's move. Printed per kind of decision (``draw``: the draw or dig;
``lay``: which meld or hit to lay; ``throw``: which card to throw): how many decisions, candidates per decision, the standard
deviation of the difference between a candidate and the normal bot's move over one deal,
the gain of the choice from ``n`` deals (with its standard error over the decisions),
and the in-sample best (the best candidate's mean over all the deals, an overestimate of
what any number of deals could find among these candidates). Scores are in steps of link
distance, for the side of the player deciding.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.gingo.play import search as S  # noqa: E402
from companion.games.gingo.play.play import GingoPlay  # noqa: E402
from companion.games.gingo.play.strong import strong_move  # noqa: E402
from companion.games.gingo.rules import actions as A  # noqa: E402
from companion.games.gingo.rules.state import side_of  # noqa: E402

BLOCKS = (3, 9, 27)


def collect(players: int, games: int, seed: int, deals: int, every: int, only: str) -> list[tuple[str, list[list[float]]]]:
    """(stage, outcome rows: one a deal, one column a candidate, the normal bot's first)."""
    out: list[tuple[str, list[list[float]]]] = []
    k = 0
    for s in range(seed, seed + games):
        play = GingoPlay([str(i) for i in range(players)], {}, seed=s)
        rng = random.Random(s)
        while play.phase != "game_over" and play.table.hand < 8:
            if play.phase == "play":
                moves = S.candidates(play)
                stage = "draw" if play.stage == "draw" else "lay" if isinstance(moves[0], (A.Meld, A.Hit)) else "throw"
                if len(moves) > 1 and (not only or stage == only):
                    k += 1
                    if k % every == 0:
                        sampler = random.Random(s * 100_003 + k)
                        side = side_of(play.turn)
                        rows = []
                        for _ in range(deals):
                            deal = S.sample_deal(play, sampler)
                            one = sampler.getrandbits(64)
                            rows.append([S.play_out(deal.clone(), m, side, random.Random(one)) for m in moves])
                        out.append((stage, rows))
            play.perform(strong_move(play, rng))
    return out


def gain(rows: list[list[float]], n: int) -> float | None:
    """The mean gain over the normal bot's move of the choices of the blocks of ``n`` deals,
    each scored on the deals outside its block (None when there are too few deals)."""
    blocks = len(rows) // n
    if blocks < 1 or len(rows) - n < 1:
        return None
    got = []
    for b in range(blocks):
        seen = rows[b * n:(b + 1) * n]
        rest = rows[:b * n] + rows[(b + 1) * n:]
        means = [sum(r[i] for r in seen) / n for i in range(len(rows[0]))]
        pick = max(range(len(means)), key=lambda i: (means[i], -i))
        got.append(sum(r[pick] - r[0] for r in rest) / len(rest))
    return statistics.mean(got)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4, choices=(2, 4))
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=150001)
    ap.add_argument("--deals", type=int, default=54)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--digs", type=int, default=S.DIGS)
    ap.add_argument("--discards", type=int, default=S.DISCARDS)
    ap.add_argument("--lays", type=int, default=S.LAYS[4])
    ap.add_argument("--only", choices=("draw", "lay", "throw"), default=None)
    args = ap.parse_args()
    S.DIGS, S.DISCARDS = args.digs, args.discards
    S.LAYS = {2: args.lays, 4: args.lays}
    found = collect(args.players, args.games, args.seed, args.deals, args.every, args.only or "")
    print(f"{args.players} players, games {args.seed} to {args.seed + args.games - 1}, {args.deals} deals a "
          f"decision, digs {args.digs}, discards {args.discards}, lays {args.lays}; steps of link distance (a won game {S.WIN:g})")
    head = " ".join(f"{f'gain {n}':>13}" for n in BLOCKS)
    print(f"{'stage':<6} {'decisions':>9} {'moves':>6} {'sd diff':>8} {head} {'best in-sample':>15}")
    for stage in ("draw", "lay", "throw"):
        got = [rows for st, rows in found if st == stage]
        if not got:
            continue
        moves = statistics.mean(len(r[0]) for r in got)
        sd = statistics.mean(statistics.stdev([r[i] - r[0] for r in rows]) for rows in got
                             for i in range(1, len(rows[0])))
        cells = []
        for n in BLOCKS:
            g = [x for x in (gain(rows, n) for rows in got) if x is not None]
            se = statistics.stdev(g) / len(g) ** 0.5 if len(g) > 1 else float("nan")
            cells.append(f"{f'{statistics.mean(g):+.2f} ({se:.2f})':>13}")
        best = statistics.mean(max(sum(r[i] - r[0] for r in rows) / len(rows) for i in range(len(rows[0])))
                               for rows in got)
        print(f"{stage:<6} {len(got):>9} {moves:>6.2f} {sd:>8.1f} {' '.join(cells)} {best:>15.2f}", flush=True)


if __name__ == "__main__":
    main()
