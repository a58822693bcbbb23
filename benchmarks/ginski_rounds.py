"""How Ginski rounds end when one bot plays every seat: where the points go.

    .venv/bin/python benchmarks/ginski_rounds.py [--matches N] [--seed S] [--bot normal|guard]

Plays ``--matches`` three-player matches (seeds S, S+1, ...) with the same bot in every
seat and prints, over their rounds: how each ended (a Ginski, a Big Ginski, a knock, an
undercut, a void round), the card the ender ended with (the upcard it took, the discard
the player before it had just thrown, or a card from the stock), how many draws the
round lasted, the deadwood of the ender and of the others, and the points the ender
scored. It is the measurement behind the Ginski notes of docs/play.md ("What the bots
measured"): a round is a race, and the card thrown is the likeliest way to lose it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games import rummy_game  # noqa: E402
from companion.games.ginski.bot import GINSKI  # noqa: E402
from companion.games.ginski.guard import GINSKI_GUARD  # noqa: E402
from companion.play.policy import play_turn  # noqa: E402
from companion.play.rummy_actions import Draw  # noqa: E402


def _points(p: object) -> int:
    return sum(int(v) for v in p.values()) if isinstance(p, dict) else int(str(p))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=100)
    ap.add_argument("--seed", type=int, default=150001)
    ap.add_argument("--bot", choices=("normal", "guard"), default="normal")
    args = ap.parse_args()
    policy = GINSKI if args.bot == "normal" else GINSKI_GUARD
    kinds: Counter[str] = Counter()
    last_card: Counter[str] = Counter()
    draws: list[int] = []
    ender_dw: list[int] = []
    others_dw: list[int] = []
    ender_pts: list[int] = []
    for seed in range(args.seed, args.seed + args.matches):
        game = rummy_game("ginski", players=3, seed=seed)
        done = 0
        n = 0
        how = "-"
        while not game.over:
            action = play_turn(game, policy)
            if isinstance(action, Draw):
                n += 1
                how = ("the upcard" if game.phase == "upcard" else
                       "the discard just thrown" if action.source == "discard" else "a stock card")
            game.apply(action)
            if len(game.results) > done:
                done = len(game.results)
                r = game.results[-1]
                kinds[r.kind] += 1
                draws.append(n)
                n = 0
                if r.ender is not None:
                    last_card[how] += 1
                    ender_dw.append(r.deadwood[r.ender])
                    others_dw += [d for s, d in enumerate(r.deadwood) if s != r.ender]
                    if r.winner is not None:
                        ender_pts.append(_points(r.points[r.winner]))
    rounds = len(draws)
    print(f"{args.matches} three-player matches (seeds {args.seed}-{args.seed + args.matches - 1}), "
          f"the {args.bot} bot in every seat: {rounds} rounds")
    print("rounds by kind:        " + ", ".join(f"{k} {v}" for k, v in kinds.most_common()))
    ended = sum(last_card.values())
    print("the ender's last card: " + ", ".join(f"{k} {v} ({v / ended:.0%})" for k, v in last_card.most_common()))
    print(f"draws per round:       median {statistics.median(draws)}, mean {statistics.mean(draws):.1f}")
    print(f"deadwood at the end:   ender {statistics.mean(ender_dw):.1f}, each other player "
          f"{statistics.mean(others_dw):.1f} (mean)")
    print(f"points to the winner:  mean {statistics.mean(ender_pts):.1f} a round (the match is to 100)")


if __name__ == "__main__":
    main()
