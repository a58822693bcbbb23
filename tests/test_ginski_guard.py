"""The guarding Ginski bot (:mod:`companion.games.ginski.guard`; it plays no level: it
has not beaten the normal bot, docs/play.md): it decides from its seat's knowledge only
(every card it cannot see dealt again, the same decision, asked on the real game and on
the seat's copy), it is deterministic for a seed, its feed count is right on hands
built by hand, and it does throw other cards than the normal bot."""

from __future__ import annotations

import random

from companion import cards as C
from companion.games import rummy_game
from companion.games.ginski import guard
from companion.play.knowledge import knowledge
from companion.play.levels import seat_action
from companion.play.policy import play_turn
from companion.play.rummy import Discard, RummyGame

from tests.test_ginski_search import NORMAL, discards, hidden_swapped

GUARD = guard.GINSKI_GUARD


def test_the_guard_decides_from_its_seats_knowledge_only() -> None:
    rng = random.Random(7)
    checked = 0
    for players in (2, 3, 4):
        for game in discards(61 + players, players, limit=6):
            mine = play_turn(game, GUARD)
            seat_mine = seat_action(game, GUARD)
            other = hidden_swapped(game, rng)
            assert other.hands[game.turn] == game.hands[game.turn]
            assert other.hands != game.hands or other.stock != game.stock
            assert play_turn(other, GUARD) == mine
            assert seat_action(other, GUARD) == seat_mine
            checked += 1
    assert checked >= 12  # a match can be over in fewer than six discards


def test_the_guard_is_deterministic_for_a_seed() -> None:
    def run() -> list[object]:
        out: list[object] = []
        for seed in (14, 15, 16):  # whole matches (a Ginski match is a few rounds)
            game = rummy_game("ginski", players=3, seed=seed)
            for _ in range(400):
                if game.over:
                    break
                action = seat_action(game, GUARD if game.turn == 1 else NORMAL)
                out.append(action)
                game.apply(action)
        return out

    first = run()
    assert len(first) > 20 and run() == first


def test_a_card_that_ends_the_next_hand_feeds_it_and_a_lone_card_does_not() -> None:
    # two runs and a set of three 9s less one: Y9 ends it (deadwood R1 = 1 after B13 goes)
    hand = C.to_mask("R2 R3 R4 B5 B6 B7 G9 P9 R1 B13")
    limit = 13
    assert guard.feeds([(hand, 1.0)], C.to_mask("Y9").bit_length() - 1, limit) == 1.0
    # a card melding with nothing there: taking it cannot end the round
    assert guard.feeds([(hand, 1.0)], C.to_mask("Y12").bit_length() - 1, limit) == 0.0
    # weighed: one hand of weight 3 fed, one of weight 1 not
    far = C.to_mask("R2 R5 R8 B11 B13 G3 G7 P10 P12 Y1")
    assert guard.feeds([(hand, 3.0), (far, 1.0)], C.to_mask("Y9").bit_length() - 1, limit) == 0.75


def test_the_next_hands_keep_what_the_next_player_is_known_to_hold() -> None:
    checked = 0
    for game in discards(71, 3, limit=30):
        k = knowledge(game, game.turn)
        nxt = (game.turn + 1) % 3
        hands = guard.next_hands(game, k, random.Random(1), 20)
        assert hands
        for hand, w in hands:
            assert w > 0
            assert hand & k.held[nxt] == k.held[nxt]
            assert hand.bit_count() == k.sizes[nxt]
            assert not hand & game.hands[game.turn]  # never a card the bot holds
            if k.thrown[nxt]:  # it threw, so it could not end the round: more than the limit
                assert guard.deadwood(hand) > game.hand_options.end_limit
        checked += bool(k.held[nxt])
    assert checked >= 1


def test_the_guard_throws_other_cards_than_the_normal_bot() -> None:
    differ = same = 0
    for seed in range(81, 89):
        for game in discards(seed, 3, limit=10):
            mine = play_turn(game, GUARD)
            if mine == play_turn(game, NORMAL):
                same += 1
            else:
                differ += 1
                assert isinstance(mine, Discard)
    assert differ >= 1 and same >= 1, (differ, same)
