"""Self-play: bots play whole rummy matches, every invariant checked after every action."""

from __future__ import annotations

from typing import Any

from companion.play.policy import Policy, play_turn
from companion.play.rummy import MAX_HANDS, RummyGame


def selfplay_match(seed: int, variant: str, players: int | None = None,
                   check: bool = True, preset: str | None = None,
                   options: Any = None, *, policy: Policy, rules: Any,
                   meld_rules: Any = None) -> dict[str, Any]:
    """``policy`` plays every seat of one whole match of the game called ``variant``
    (played by its ``rules`` module and ``meld_rules``, as its Variant gives them) from
    ``seed`` (the game's Variant gives its seat bot:
    :meth:`companion.games.rummy.RummyVariant.selfplay`); with ``check`` every invariant
    is checked after every action (``AssertionError`` on a violation). Returns a summary.

    >>> from companion.games import rummy_variant
    >>> from companion.play.bot import BASIC
    >>> r = selfplay_match(1, "gin", policy=BASIC, rules=rummy_variant("gin").rules)
    >>> r["finished"], r["winner"] in (0, 1), r["hands"] == sum(r["kinds"].values())
    (True, True, True)
    """
    game = RummyGame(variant, players=players, seed=seed, preset=preset, options=options, rules=rules,
                      meld_rules=meld_rules)
    if check:
        game.check()
    limit = MAX_HANDS * 400
    steps = 0
    while not game.over:
        action = play_turn(game, policy)
        game.apply(action)
        steps += 1
        if check:
            game.check()
        if steps > limit:
            raise AssertionError(f"seed {seed}: more than {limit} actions without an end")
    kinds: dict[str, int] = {}
    for r in game.results:
        kinds[r.kind] = kinds.get(r.kind, 0) + 1
    return {
        "variant": variant,
        "seed": seed,
        "players": game.players,
        "hands": len(game.results),
        "actions": game.actions,
        "finished": game.match.finished,
        "winner": game.match.winner,
        "final": list(game.match.final),
        "totals": game.match.totals,
        "kinds": kinds,
    }


__all__ = ["selfplay_match"]
