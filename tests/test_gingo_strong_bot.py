"""The Gin-Go seat bot (companion.play.gingo.strong): legal whole games on fixed seeds,
clearly better than a random player, and a discard chosen for the board."""

from __future__ import annotations

import doctest
import random

import pytest

from companion import cards as C
from companion.play import gingo
from companion.play.gingo import strong
from companion.play.gingo.bot import legal_moves
from companion.play.gingo.play import GingoPlay
from companion.rules.gingo import actions as A
from companion.rules.gingo.state import side_of
from tests.test_gingo_play import arranged

HAND_CAP = 60


def _game(players: int, seed: int, bot_side: int) -> int | None:
    """One game, the strong bot playing ``bot_side`` and a random legal player the other;
    every bot move is checked legal by the engine (perform refuses an illegal one). The
    winning side, or None at the hand cap."""
    play = GingoPlay([f"p{i}" for i in range(players)], {}, seed=seed)
    rng = random.Random(seed)
    while play.phase != "game_over":
        if play.phase == "hand_over" and play.table.hand >= HAND_CAP:
            return None
        if side_of(play.turn) == bot_side:
            move = strong.strong_move(play, rng)
        else:
            moves = legal_moves(play)
            move = rng.choice(moves) if moves else strong.strong_move(play, rng)
        play.perform(move)
        play.check()
    return play.table.winner


def test_doctests_pass() -> None:
    failures, tried = doctest.testmod(strong)
    assert tried and not failures


def test_plays_legal_whole_games_and_beats_the_random_player() -> None:
    wins = losses = 0
    for players, seed in ((2, 1), (2, 2), (4, 3)):
        for side in (1, 2):
            winner = _game(players, seed, side)
            wins += winner == side
            losses += winner is not None and winner != side
    assert wins >= 5 and losses == 0, (wins, losses)


def test_the_gin_go_seat_bot_is_this_one() -> None:
    p = GingoPlay(["a", "b"], {}, seed=6)
    rng_a, rng_b = random.Random(1), random.Random(1)
    for _ in range(40):
        if p.phase == "game_over":
            break
        move = gingo.bot_move(p, rng_a)
        assert move == strong.strong_move(p, rng_b)
        p.perform(move)


def test_discard_keeps_cards_that_could_meld_and_lets_go_a_lone_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # E (seat 1, first to play) holds 5H 6H KC and draws the 8H
    p = arranged(["2S 3S 9C", "5H 6H KC"], "9D", "8H", options={"deal": 3})
    assert p.turn == 1
    p.perform(A.Draw(1))
    assert sorted(p.hands[1]) == sorted(C.parse_cards("5H 6H 8H KC"))
    dead = p.table.table_cards()
    value = {c: strong.keep_value(p, 1, c, dead) for c in p.hands[1]}
    board_weight = strong.OWN_PATH + strong.CAPTURE
    # the board's weights aside, the meld hopes decide: 5H-6H, 6H-8H; the KC has none
    for name in ("OWN_PATH", "CAPTURE"):
        monkeypatch.setattr(strong, name, 0.0)
    hopes = {c: strong.keep_value(p, 1, c, dead) for c in p.hands[1]}
    assert hopes[C.parse_card("KC")] == 0.0 < min(v for c, v in hopes.items() if c != C.parse_card("KC"))
    assert strong.strong_move(p, random.Random(0)) == A.Discard(1, C.parse_card("KC"))
    # with them, each card's value moves by its board standing only
    for c, v in value.items():
        assert abs(v - hopes[c]) <= board_weight + 1e-9
