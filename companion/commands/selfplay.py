"""``gingo selfplay``: bots play whole matches; every invariant is checked after every
action, and a summary table is printed.

Examples::

    gingo selfplay --variant gin --games 200 --seed 1
    gingo selfplay --variant ginski --players 3 --games 50 --json
    gingo selfplay --variant gingo --games 20

Game ``i`` is played from seed ``S + i``, so any game can be replayed alone. An
invariant violation (a card in two places, a score that is not the sum of the hands,
a match that never ends) stops the run with exit status 1 and names the seed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from companion.games import VARIANTS as _REGISTRY

VARIANTS = tuple(_REGISTRY)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default=VARIANTS[0], choices=VARIANTS,
                        help=f"which game the bots play (default {VARIANTS[0]})")
    parser.add_argument("--games", type=int, default=100, help="matches to play (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first match (default 1)")
    parser.add_argument("--players", type=int, default=None,
                        help="number of players (default: the game's own)")
    parser.add_argument("--preset", default=None,
                        help="rule preset of the variant (rummy games; default the game's own)")
    parser.add_argument("--no-check", dest="check", action="store_false",
                        help="skip the invariant checks (for timing the engine alone)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _player(variant: str, players: int | None, preset: str | None,
            check: bool) -> Callable[[int], dict[str, Any]]:
    from companion.games import find_variant

    v = find_variant(variant)
    n = v.selfplay_players(players, preset)  # bad settings fail here, before the first game
    return lambda seed: v.selfplay(seed, n, check=check, preset=preset)


def summarise(variant: str, results: list[dict[str, Any]], seconds: float,
              checked: bool) -> dict[str, Any]:
    """The summary table's numbers from the per-game results."""
    wins: dict[str, int] = {}
    no_winner = 0
    hands = 0
    for r in results:
        h = r.get("hands", 0)
        hands += len(h) if isinstance(h, list) else int(h)
        w = r.get("winner")
        if w is None:
            no_winner += 1
        else:
            wins[str(w)] = wins.get(str(w), 0) + 1
    games = len(results)
    players = results[0].get("players") if results else None
    return {
        "variant": variant,
        "players": players,
        "games": games,
        "hands": hands,
        "hands_per_game": round(hands / games, 2) if games else 0.0,
        "wins": dict(sorted(wins.items())),
        "no_winner": no_winner,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else None,
        "invariants_checked": checked,
    }


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise ValueError("--games must be at least 1")
    play = _player(args.variant, args.players, args.preset, args.check)
    results: list[dict[str, Any]] = []
    start = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        try:
            results.append(play(seed))
        except AssertionError as exc:
            print(f"gingo selfplay: invariant broken in {args.variant} game with seed "
                  f"{seed}: {exc}", file=sys.stderr)
            return 1
    summary = summarise(args.variant, results, time.perf_counter() - start, args.check)
    summary["first_seed"] = args.seed
    if args.json:
        print(json.dumps(summary))
        return 0
    side = "side" if _REGISTRY[args.variant].seat_word == "side" else "seat"
    rows = [
        ("variant", f"{summary['variant']} ({summary['players']} players)"),
        ("games", f"{summary['games']} (seeds {args.seed}..{args.seed + args.games - 1})"),
        ("hands", str(summary["hands"])),
        ("hands per game", f"{summary['hands_per_game']:.2f}"),
    ]
    for seat, n in summary["wins"].items():
        rows.append((f"wins, {side} {seat}", f"{n} ({100 * n / summary['games']:.0f}%)"))
    rows.append(("no winner", str(summary["no_winner"])))
    rows.append(("games per second", f"{summary['games_per_second']}"))
    rows.append(("invariants", "checked after every action" if args.check else "not checked"))
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    return 0

