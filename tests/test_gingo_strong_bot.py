"""The Gin-Go seat bot (companion.games.gingo.play.strong): legal whole games on fixed seeds,
clearly better than a random player, and a discard chosen for the board."""

from __future__ import annotations

import doctest
import random

import pytest

from companion import cards as C
from companion.games.gingo import play as gingo
from companion.games.gingo.play import bot, strong
from companion.games.gingo.play.bot import legal_moves
from companion.games.gingo.play.play import GingoPlay
from companion.games.gingo.rules import actions as A
from companion.games.gingo.rules.state import side_of
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


def _board(side1: list[int], side2: list[int] | None = None) -> str:
    return "".join("1" if s in side1 else "2" if s in (side2 or []) else "." for s in range(52))


def _column(col: int, but: tuple[int, ...] = ()) -> list[int]:
    """The spaces of board column ``col`` (1-4), but those rows (1-13)."""
    return [(r - 1) * 4 + col - 1 for r in range(1, 14) if r not in but]


def _dealt(hands: list[str], board: str, draw: str) -> GingoPlay:
    """Seat 0 (side 1, suit rows SHDC: spades in column 1) to play on ``board``, having drawn ``draw``."""
    hs = [h.split() for h in hands]
    used = {c for h in hs for c in h} | {"2D", draw}
    rest = [C.card_name(c) for c in range(54) if C.card_name(c) not in used]
    p = GingoPlay.from_deal(["N", "E"], {"deal": 3}, suit_rows={"1": "SHDC", "2": "SHDC"}, hands=hs, pile=["2D"],
                            stock=rest + [draw], dealer=1, board=board)
    p.perform(A.Draw(0))
    return p


def test_forfeits_are_chosen_together_for_the_link() -> None:
    # side 1 holds column 1 but rows 5 and 9: the 5S or the 5H (a diagonal step) closes row 5,
    # only the 9S row 9; each chip alone shortens the link by one, so ranked one by one they tie
    p = _dealt(["2C 3C", "AH"], _board(_column(1, but=(5, 9))), "KD")
    game = p.table
    cards = C.parse_cards("9S 5S 5H")
    alone = {c: bot._chip_value(game, 1, [c]) for c in cards}
    assert len(set(alone.values())) == 1
    assert sorted(cards, key=lambda c: alone[c])[:1] == C.parse_cards("9S")  # the first bot's choice
    skip = strong.choose_forfeits(game, 1, cards, 1)
    assert skip in (tuple(C.parse_cards("5S")), tuple(C.parse_cards("5H")))
    b = game.board.copy()
    b.place(1, [game.space(1, c) for c in cards if c not in skip])
    assert b.link(1) is not None
    assert strong.choose_forfeits(game, 1, cards, 0) == ()


def test_going_out_short_of_chips_forfeits_exactly_the_shortfall() -> None:
    # side 1 holds every space but row 7 (side 2's): 48 chips, 2 left; E's three 7s need 3
    board = "".join("2" if 24 <= s < 28 else "1" for s in range(52))
    p = _dealt(["2S 3S 4S", "7H 7D 7C 9S JD"], board, "KC")
    move = strong.strong_move(p)
    assert isinstance(move, A.Meld)
    p.perform(move)
    out = strong.strong_move(p)
    assert isinstance(out, A.Discard) and out.card == C.parse_card("KC") and len(out.skip) == 1
    assert out.skip[0] in C.parse_cards("7H 7D 7C")
    p.perform(out)
    assert p.table.winner == 1 and p.table.board.link(1) is not None
