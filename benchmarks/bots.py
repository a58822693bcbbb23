"""How well the bots play: win rates of one policy against another, per variant.

    .venv/bin/python benchmarks/bots.py [--games N] [--seed S] [--pairs bot:random,bot:bot]

Each pair ``A:B`` plays ``--games`` whole matches per variant with policy A in one seat
(in Gin-Go, one side: in four-player Gin-Go, both partners) and policy B in every other.
The matches are duplicates: each seed is played once with A in every seat (twice in the
two-sided games, three times in three-player Ginski), so both policies get the same
deals and the same seats and only their play differs. (A first version gave each seed
one match with A's seat alternating with the seed; its bot:bot control came out 0.37 in
Color Gin, deal luck that the duplicate format cancels.) Policies:

* ``bot``: the companion's seat bot, the one the game's Variant gives (``bot_action``:
  for the rummy games its ``seat_policy``, the strong bot for gin, the Color Gin bot for
  Color Gin, the Ginski bot for Ginski; ``companion.games.gingo.play.bot_move`` for Gin-Go,
  which is ``companion.games.gingo.play.strong.strong_move``);
* ``easy``, ``normal``, ``sharp``: the levels of ``options.bot_level`` as dealt games play
  them (the Variant's ``bot(level)``; ``sharp`` is the strong level);
* ``basic``: ``companion.play.bot.basic_action``, the first rummy bot (the baseline the
  new rummy bots are measured against);
* ``strong``: :mod:`companion.play.strong` (knock timing, live outs, safe discards);
* ``suits``: :mod:`companion.games.color_gin.bot` (the strong bot weighing knocks and
  discards by the Color Gin suits they score in);
* ``ginski``: :mod:`companion.games.ginski.bot` (ends the round whenever allowed, and
  draws and discards for the chance that the next draw lets it end the round);
* ``ginsearch``: :mod:`companion.games.ginski.search` (the Ginski bot's best discards
  weighed by playing the round out over deals the seat could be facing), on the seat's
  knowledge as a dealt game plays it;
* ``ginfer``: ``ginsearch`` on deals weighed by what the others threw and let go by
  (:mod:`companion.play.rummy_inference`); ``ginfern`` the same, playing the rounds out
  with the normal Ginski bot in every seat;
* ``ginguard``: :mod:`companion.games.ginski.guard` (the normal Ginski bot, its discards
  weighed against the chance that the next player ends the round by taking them);
* ``ginclair``, ``ginknown``: yardsticks, not bots (they see what a player may not):
  the normal Ginski bot's four best discards, and the discard pile against the stock,
  weighed by playing the round out with the normal bot in every seat; ``ginclair`` on
  the real deal (it knows every hand and the stock's order: what the best choice of
  discard and draw is worth when the future is known), ``ginknown`` on the real hands
  with the stock shuffled again for each of 6 deals (what knowing the other hands,
  the most any inference could tell, is worth to such a search);
* ``first``: ``companion.games.gingo.play.bot.bot_move``, the first Gin-Go bot (the baseline);
* ``gostrong``: :func:`companion.games.gingo.play.strong.strong_move`, the Gin-Go bot that
  discards for the board;
* ``gosearch``: :func:`companion.games.gingo.play.search.search_move`, the Gin-Go bot that
  weighs the normal bot's draws and discards by playing the hand out over sampled deals;
* ``random``: a uniformly random legal action (every rummy action of
  ``RummyGame.legal_actions()``; for Gin-Go every move ``legal_moves`` finds).

The table shows A's wins, B's wins, draws (a Gin-Go game still running after the hand
cap, a rummy match the action cap stopped, or a match that ended level, as a Color Gin
2-2), A's win rate over the decided matches with its 95% Wilson interval, the share A
would win if the policies were equal (1/players for Ginski), A's rate against one B
seat (``A/seat``: A's wins over A's wins plus B's wins shared among the B seats, the
same as the win rate with two players; 0.5 means equal) with its 95% interval (the
ends of the win rate's interval, turned the same way), the median seconds per match
and A's time per decision (median and p99 in milliseconds of CPU time, every call of
policy A; CPU time so that a loaded machine does not inflate it; the seconds per match
are wall-clock time).
``bot:bot`` is the control: the bots are deterministic for a seed, so duplicates make it
exactly the fair share unless something other than the seat decides a match (a
seat-dependent random choice, or a bug in the pairing). The per-decision times are the
figure to keep small (a Raspberry Pi Zero 2 W is several times slower than a desktop
core); the win rates are the targets.
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import statistics
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import cards as C  # noqa: E402
from companion import melds as M  # noqa: E402
from companion.games import find_variant, rummy_game  # noqa: E402
from companion.play.bot import basic_action  # noqa: E402
from companion.games.color_gin.bot import choose_action as suits_action  # noqa: E402
from companion.games.ginski.bot import choose_action as ginski_action  # noqa: E402
from companion.games.gingo.play import bot_move as seat_gingo_move  # noqa: E402
from companion.games.gingo.play.bot import bot_move, legal_moves  # noqa: E402
from companion.games.gingo.play.play import GingoPlay  # noqa: E402
from companion.games.gingo.play.search import search_move  # noqa: E402
from companion.games.gingo.play.strong import strong_move  # noqa: E402
from companion.play.rummy import ChooseDeal, Discard, Draw, Knock, Pass, RummyGame  # noqa: E402
from companion.play.rummy_actions import Action  # noqa: E402
from companion.play.policy import play_turn  # noqa: E402
from companion.play.strong import choose_action as strong_action  # noqa: E402
from companion.games.gingo.rules.state import side_of  # noqa: E402

# (label, variant, players)
CASES = [("gin", "gin", 2), ("color_gin", "color_gin", 2), ("ginski 3", "ginski", 3),
         ("gingo 2", "gingo", 2), ("gingo 4 (teams)", "gingo", 4)]
ACTION_CAP = 40_000  # a rummy match of random players that has not ended by then is a draw
GINGO_HANDS = 60

Policy = Callable[[Any, random.Random], Any]
# the levels of options.bot_level, as dealt games play them (on the seat's knowledge only);
# the strong level is "sharp" here ("strong" is companion.play.strong, the normal gin bot)
LEVEL_NAMES = {"easy": "easy", "normal": "normal", "sharp": "strong"}
RUMMY = {"gin", "color_gin", "ginski"}
# the variants a policy plays (bot and random play every one); other rows are skipped
PLAYS = {"basic": RUMMY, "strong": RUMMY, "suits": {"color_gin"}, "ginski": {"ginski"}, "ginsearch": {"ginski"},
         "ginfer": {"ginski"}, "ginfern": {"ginski"}, "ginguard": {"ginski"},
         "ginclair": {"ginski"}, "ginknown": {"ginski"},
         "first": {"gingo"}, "gostrong": {"gingo"}, "gosearch": {"gingo"}, "rlcard": {"gin"}}


def _rummy_policy(name: str) -> Policy:
    if name == "bot":
        return lambda game, rng: find_variant(game.variant).bot_action(game)
    if name == "basic":
        return lambda game, rng: basic_action(game)
    if name == "strong":
        return lambda game, rng: strong_action(game)
    if name == "suits":
        return lambda game, rng: suits_action(game)
    if name == "ginski":
        return lambda game, rng: ginski_action(game)
    if name == "ginsearch":
        from companion.games.ginski.search import GINSKI_SEARCH
        from companion.play.levels import seat_action
        return lambda game, rng: seat_action(game, GINSKI_SEARCH)
    if name == "ginfer":
        from companion.games.ginski.search import GINSKI_INFER
        from companion.play.levels import seat_action
        return lambda game, rng: seat_action(game, GINSKI_INFER)
    if name == "ginfern":
        from companion.games.ginski.search import GINSKI_INFER_NORMAL
        from companion.play.levels import seat_action
        return lambda game, rng: seat_action(game, GINSKI_INFER_NORMAL)
    if name == "ginguard":
        from companion.games.ginski.guard import GINSKI_GUARD
        from companion.play.levels import seat_action
        return lambda game, rng: seat_action(game, GINSKI_GUARD)
    if name in ("ginclair", "ginknown"):
        return lambda game, rng: play_turn(game, ginski_yardstick(name == "ginknown"))
    if name == "random":
        return lambda game, rng: rng.choice(game.legal_actions())
    if name in LEVEL_NAMES:
        level = LEVEL_NAMES[name]
        return lambda game, rng: find_variant(game.variant).bot(level)(game, rng)
    if name == "rlcard":
        return rlcard_policy()
    raise SystemExit(f"unknown rummy policy {name!r}: bot, basic, strong, suits, ginski, ginsearch, ginfer, ginfern, "
                     "ginguard, ginclair, ginknown, random, easy, normal, sharp or rlcard")


def ginski_yardstick(known_hands: bool) -> Any:
    """The ``ginclair`` (``known_hands`` False) or ``ginknown`` policy: a Ginski search
    that sees the real deal (see the module notes); a benchmark yardstick, never a bot."""
    from companion.games.ginski.bot import GINSKI
    from companion.games.ginski.search import GinskiSearch, play_out

    class Yardstick(GinskiSearch):
        discards = 4
        weigh_draws = True
        playout = GINSKI

        def weigh(self, game: RummyGame, moves: Any, start: float | None = None) -> list[float]:
            if not known_hands:
                return [play_out(game.clone(), m, game.turn, self.playout) for m in moves]
            rng = random.Random(repr((game.seed, game.hand_number, game.moves)))
            totals = [0.0] * len(moves)
            for _ in range(6):
                deal = game.clone()
                stock = list(deal.stock)
                rng.shuffle(stock)
                deal.stock = stock
                deal.rng = random.Random(rng.random())
                for i, m in enumerate(moves):
                    totals[i] += play_out(deal.clone(), m, game.turn, self.playout)
            return totals

    return Yardstick()


# RLCard's gin-rummy action ids (rlcard/games/gin_rummy/utils/action_event.py)
DRAW, PICK_UP, GIN, DISCARD, KNOCK = 2, 3, 5, 6, 58


def rlcard_state(game: RummyGame) -> tuple[dict[str, Any], dict[int, Action]]:
    """RLCard's state for the player to move (its own cards and its legal actions only),
    and what each RLCard action id is in our engine."""
    import numpy as np

    seat = game.turn
    hand = game.hands[seat]
    obs = np.zeros((5, 52), dtype=int)
    for c in C.iter_cards(hand):
        obs[0][c] = 1
    legal: dict[int, Action] = {}
    for a in game.legal_actions():
        if isinstance(a, Draw) and a.source == "discard":
            legal[PICK_UP] = a
        elif isinstance(a, Draw) or isinstance(a, Pass):
            legal[DRAW] = a
        elif isinstance(a, Discard):
            legal[DISCARD + a.card] = a
        elif isinstance(a, Knock):
            if M.deadwood_of_mask(hand & ~(1 << a.card), game.meld_rules) == 0:
                legal[GIN] = a  # RLCard's gin names no card: any discard that goes gin
            else:
                legal[KNOCK + a.card] = a
    if GIN in legal:  # when gin is open RLCard offers it alone
        legal = {GIN: legal[GIN]}
    if game.phase == "discard" and game.must_end:
        legal = {k: v for k, v in legal.items() if k == GIN or k >= KNOCK}
    state = {"obs": obs, "legal_actions": OrderedDict((k, None) for k in sorted(legal)),
             "raw_legal_actions": sorted(legal)}
    return state, legal


def rlcard_policy() -> Any:
    """RLCard's gin-rummy rule agent (``GinRummyNoviceRuleAgent``, PyPI ``rlcard``, the
    ``bench`` extra) as a seat policy ``(game, rng) -> action``, asked with its own cards
    and legal actions only (see ``benchmarks/outside.py``)."""
    try:
        from rlcard.models.gin_rummy_rule_models import GinRummyNoviceRuleAgent
    except ImportError:
        raise SystemExit("rlcard is not installed: .venv/bin/pip install '.[bench]'") from None
    import numpy as np

    agent = GinRummyNoviceRuleAgent()

    def act(game: RummyGame, rng: random.Random) -> Action:
        if game.phase == "first_dealer":
            return ChooseDeal(False)
        state, legal = rlcard_state(game)
        if len(legal) == 1:
            return next(iter(legal.values()))
        np.random.seed(rng.randrange(1 << 30))
        choice = int(agent.step(state))
        return legal[choice]

    return act


def _gingo_policy(name: str) -> Policy:
    if name == "bot":
        return lambda play, rng: seat_gingo_move(play, rng)
    if name == "first":
        return lambda play, rng: bot_move(play, rng)
    if name == "gostrong":
        return lambda play, rng: strong_move(play, rng)
    if name == "gosearch":
        return lambda play, rng: search_move(play, rng)
    if name in LEVEL_NAMES:
        bot = find_variant("gingo").bot(LEVEL_NAMES[name])
        return lambda play, rng: bot(play, rng)
    if name == "random":
        def pick(play: GingoPlay, rng: random.Random) -> Any:
            moves = legal_moves(play)
            return rng.choice(moves) if moves else bot_move(play, rng)
        return pick
    raise SystemExit(f"unknown Gin-Go policy {name!r}: bot, first, gostrong, gosearch, random, easy, normal or sharp")


def rummy_match(variant: str, players: int, seed: int, a: Policy, b: Policy, a_seat: int) -> int | None:
    """The winner of one match: 0 when policy A's seat won, 1 when another seat did,
    None for a draw (the action cap)."""
    game = rummy_game(variant, players=players, seed=seed)
    rng = random.Random(seed * 31 + 7)
    steps = 0
    while not game.over:
        policy = a if game.turn == a_seat else b
        game.apply(policy(game, rng))
        steps += 1
        if steps > ACTION_CAP:
            return None
    if game.match.winner is None:
        return None  # a tied match (Color Gin's can tie on points)
    return 0 if game.match.winner == a_seat else 1


def gingo_match(players: int, seed: int, a: Policy, b: Policy, a_side: int) -> int | None:
    play = GingoPlay([f"p{i + 1}" for i in range(players)], {}, seed=seed)
    rng = random.Random(seed * 31 + 7)
    while play.phase != "game_over":
        if play.phase == "hand_over" and play.table.hand >= GINGO_HANDS:
            return None
        policy = a if side_of(play.turn) == a_side else b
        play.perform(policy(play, rng))
    winner = play.table.winner
    if winner is None:
        return None
    return 0 if winner == a_side else 1


def timed(policy: Policy, times: list[float]) -> Policy:
    """``policy``, adding the CPU seconds of each call to ``times`` (the process's own
    time, so other programs on a shared machine do not inflate it)."""
    def call(state: Any, rng: random.Random) -> Any:
        t0 = time.process_time()
        out = policy(state, rng)
        times.append(time.process_time() - t0)
        return out
    return call


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` (nearest rank)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def run(case: tuple[str, str, int], pair: tuple[str, str], games: int, seed: int,
        progress: bool = False) -> dict[str, Any]:
    _label, variant, players = case
    decisions: list[float] = []
    wins = [0, 0]
    draws = 0
    seconds: list[float] = []
    seats = 2 if variant == "gingo" else players
    for i in range(games):
        s = seed + i // seats
        t0 = time.perf_counter()
        if variant == "gingo":
            a, b = timed(_gingo_policy(pair[0]), decisions), _gingo_policy(pair[1])
            r = gingo_match(players, s, a, b, a_side=1 + i % seats)
        else:
            a, b = timed(_rummy_policy(pair[0]), decisions), _rummy_policy(pair[1])
            r = rummy_match(variant, players, s, a, b, a_seat=i % seats)
        seconds.append(time.perf_counter() - t0)
        if r is None:
            draws += 1
        else:
            wins[r] += 1
        if progress:  # a run stopped early still says what it measured so far
            print(f"  {i + 1} matches (seed {s}): A {wins[0]}, B {wins[1]}, draws {draws}; A's ms per decision "
                  f"median {1000 * percentile(decisions, 0.5):.1f}, p99 {1000 * percentile(decisions, 0.99):.1f}",
                  file=sys.stderr, flush=True)
    fair = 1 / players if variant != "gingo" else 0.5
    return {"wins": wins, "draws": draws, "fair": fair, "median_s": statistics.median(seconds),
            "seats": players if variant != "gingo" else 2,
            "decision_ms": (1000 * percentile(decisions, 0.5), 1000 * percentile(decisions, 0.99))}


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of k successes in n trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (mid - half, mid + half)


def seat_share(rate: float, others: int) -> float:
    """A's share against one other seat when A wins ``rate`` of the matches against
    ``others`` seats of B (B's wins shared among them): ``rate`` itself with two
    players, 0.5 when A wins the fair ``1 / (others + 1)``. It grows with ``rate``, so
    the ends of ``rate``'s interval give the ends of this share's.

    >>> seat_share(0.6, 1), round(seat_share(1 / 3, 2), 3), round(seat_share(3 / 7, 2), 3)
    (0.6, 0.5, 0.6)
    """
    per_seat = (1 - rate) / others
    return rate / (rate + per_seat) if rate + per_seat else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pairs", default="bot:random,bot:bot")
    ap.add_argument("--only", default="", help="comma-separated case labels to run (default: all)")
    ap.add_argument("--progress", action="store_true", help="print the running tally after each match (stderr)")
    args = ap.parse_args()
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    only = {o.strip() for o in args.only.split(",") if o.strip()}
    unknown = only - {case[0] for case in CASES}
    if unknown:
        ap.error(f"no case labelled {', '.join(map(repr, sorted(unknown)))}; the cases are "
                 + ", ".join(repr(case[0]) for case in CASES))
    print(f"machine: {platform.machine()} {platform.processor() or ''} python {platform.python_version()}; "
          f"{args.games} matches per row (duplicates: each seed played with A in every seat)")
    print(f"{'variant':<16} {'A:B':<12} {'A wins':>7} {'B wins':>7} {'draws':>6} {'A rate':>7} "
          f"{'95% CI':>14} {'fair':>5} {'A/seat':>6} {'A/seat CI':>14} {'s/match':>8} {'ms med':>7} {'ms p99':>7}")
    for case in CASES:
        if only and case[0] not in only:
            continue
        for pair in pairs:
            if any(case[1] not in PLAYS.get(name, {case[1]}) for name in pair):
                continue
            r = run(case, (pair[0], pair[1]), args.games, args.seed, args.progress)
            decided = r["wins"][0] + r["wins"][1]
            rate = r["wins"][0] / decided if decided else float("nan")
            lo, hi = wilson(r["wins"][0], decided)
            others = r["seats"] - 1
            vs_seat = seat_share(rate, others) if decided else float("nan")
            seat_lo, seat_hi = seat_share(lo, others), seat_share(hi, others)
            med, p99 = r["decision_ms"]
            print(f"{case[0]:<16} {pair[0] + ':' + pair[1]:<12} {r['wins'][0]:>7} {r['wins'][1]:>7} "
                  f"{r['draws']:>6} {rate:>7.3f} {f'{lo:.3f}-{hi:.3f}':>14} {r['fair']:>5.2f} "
                  f"{vs_seat:>6.3f} {f'{seat_lo:.3f}-{seat_hi:.3f}':>14} {r['median_s']:>8.3f} {med:>7.2f} "
                  f"{p99:>7.1f}", flush=True)


if __name__ == "__main__":
    main()
