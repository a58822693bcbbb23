"""Helpers for the bot tests: whole matches of one policy against another, every action
checked legal, on fixed seeds (deterministic: the random player draws from its own
seeded generator)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from companion.games import find_variant, rummy_game, rummy_variant
from companion.play import rummy_selfplay
from companion.play.rummy import Action, RummyGame

RummyPolicy = Callable[[RummyGame], Action]


def seat_bot(game: RummyGame) -> Action:
    """The seat bot's action in ``game``, as its Variant gives it (``bot_action``: the
    game's ``seat_policy`` on the whole game)."""
    action: Action = find_variant(game.variant).bot_action(game)
    return action


def selfplay_match(seed: int, variant: str = "gin", **kwargs: Any) -> dict[str, Any]:
    """:func:`companion.play.rummy_selfplay.selfplay_match` with the game's seat bot,
    rules and meld rules, as its Variant gives them."""
    game = rummy_variant(variant)
    return rummy_selfplay.selfplay_match(seed, variant, policy=game.seat_policy(), rules=game.rules,
                                         meld_rules=game.meld_rules, **kwargs)


def random_player(seed: int) -> RummyPolicy:
    """A player choosing uniformly among the legal actions, from ``seed``."""
    rng = random.Random(seed)
    return lambda game: rng.choice(game.legal_actions())


def rummy_match(variant: str, seed: int, bot: RummyPolicy, bot_seat: int, other: RummyPolicy,
                players: int | None = None, cap: int = 40_000) -> tuple[RummyGame, int | None]:
    """Play one match, ``bot`` in ``bot_seat`` and ``other`` in every other seat; every
    action the bot chooses must be legal. Returns the game and the winning seat."""
    game = rummy_game(variant, players=players, seed=seed)
    steps = 0
    while not game.over:
        if game.turn == bot_seat:
            action = bot(game)
            legal = game.legal_actions()
            assert action in legal or getattr(action, "undeclared", lambda: action)() in legal, \
                (variant, seed, game.phase, action)
        else:
            action = other(game)
        game.apply(action)
        steps += 1
        assert steps < cap, f"{variant} seed {seed}: no end after {cap} actions"
    game.check()
    return game, game.match.winner


def tally(results: list[tuple[Any, int | None]], seats: list[int]) -> tuple[int, int]:
    """(the bot's wins, the other side's wins) over ``results`` with the bot in ``seats``."""
    wins = sum(1 for (_g, w), s in zip(results, seats) if w == s)
    losses = sum(1 for (_g, w), s in zip(results, seats) if w is not None and w != s)
    return wins, losses
