"""The Ginski bot (companion.games.ginski.bot): legal and deterministic over whole
matches, its one-pass search exact, and where it plays differently from the basic bot
(the Ginski seat bot before it), each for a stated reason."""

from __future__ import annotations

import dataclasses
import random

import pytest

from companion import cards as C
from companion import melds as M
from companion.games.ginski import bot as ginski_bot
from companion.play import bot
from companion.play.policy import unseen_cards
from companion.play.rummy import Discard, Draw, Knock, Pass, RummyGame
from companion.games import find_variant, rummy_game
from tests.bot_matches import random_player, rummy_match, seat_bot, tally
from tests.test_rummy_play import place, set_next_stock, set_upcard


def test_the_ginski_seat_bot_is_this_one() -> None:
    assert find_variant("ginski").seat_policy() is ginski_bot.GINSKI
    g = rummy_game("ginski", seed=5)
    assert seat_bot(g) == ginski_bot.choose_action(g)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_plays_legal_whole_matches_against_the_basic_bot(players: int) -> None:
    for seat in range(players):
        g, _winner = rummy_match("ginski", 20 + seat, ginski_bot.choose_action, seat, bot.basic_action,
                                 players=players)
        assert g.results


def test_beats_two_random_players() -> None:
    results, seats = [], []
    for seed in (1, 2, 3, 4):
        for seat in (0, 1, 2):
            results.append(rummy_match("ginski", seed, ginski_bot.choose_action, seat, random_player(seed)))
            seats.append(seat)
    wins, losses = tally(results, seats)
    assert wins >= 9, (wins, losses)  # an equal player would win 4 of the 12


def _self_play(seed: int) -> tuple[list[str], list[list[int]]]:
    g = rummy_game("ginski", seed=seed)
    actions = []
    while not g.over:
        action = ginski_bot.choose_action(g)
        actions.append(str(action))
        g.apply(action)
    return actions, [r.points for r in g.results]


def test_deterministic_for_a_seed() -> None:
    first = _self_play(7)
    ginski_bot.deadwood.cache_clear()  # a cold cache changes nothing but the time
    ginski_bot.least_after_discard.cache_clear()
    assert _self_play(7) == first


def test_outlook_counts_the_draws_that_end_the_round() -> None:
    kept = C.to_mask("R1 R2 R3 B5 B6 B7 G10 G12 Y2 P4")  # 28 deadwood
    # G11 or a wild completes G10 G12 (then 2 after discarding P4); Y13 helps nothing
    p, e = ginski_bot.outlook(kept, C.to_mask("G11 W1 Y13"), 13)
    assert p == pytest.approx(2 / 3)
    assert e == pytest.approx((2 + 2 + min(28, ginski_bot.CAP)) / 3)  # Y13 leaves 28, capped


def _seat_one_to_discard(hand: str, drawn: str) -> RummyGame:
    """Seat 1 (first to play) to discard, holding ``hand`` and ``drawn`` from the stock."""
    g = rummy_game("ginski", seed=4, dealer=0)
    place(g, 1, hand)
    set_next_stock(g, drawn)
    for _ in range(3):
        g.apply(Pass())
    g.apply(Draw("stock"))
    assert g.turn == 1 and g.phase == "discard"
    return g


def test_ends_the_round_when_behind_where_the_basic_bot_waits() -> None:
    g = _seat_one_to_discard("R1 R2 R3 B5 B6 B7 G9 G10 G11 Y8", "P13")
    g.match = dataclasses.replace(g.match, totals=[40, 0, 20])  # seat 1 is last
    # the basic bot holds 8 deadwood for an undercut when behind; both opponents still
    # hold about 50 each, so ending now scores about 90 and the Ginski bot ends it
    assert bot.basic_action(g) == Discard(C.parse_card("P13"))
    action = ginski_bot.choose_action(g)
    assert isinstance(action, Knock) and action.card == C.parse_card("P13")
    result = g.apply(action)
    assert result is not None and result.ender == 1 and result.deadwood[1] == 8


def test_keeps_the_pair_a_draw_can_complete_where_the_basic_bot_drops_the_highest() -> None:
    g = _seat_one_to_discard("R1 R2 R3 B5 B6 B7 G10 G12 Y2 P4", "Y11")
    # dropping G12 leaves 27 deadwood and no draw ends the round; dropping Y11 leaves 28
    # but G11 or any wild then lets it end (G10 G11 G12, then 2 deadwood after P4)
    assert bot.basic_action(g) == Discard(C.parse_card("G12"))
    assert ginski_bot.choose_action(g) == Discard(C.parse_card("Y11"))
    unseen = unseen_cards(g, 1)
    hand = g.hands[1]
    keep_pair, _ = ginski_bot.outlook(hand & ~(1 << C.parse_card("Y11")), unseen, 13)
    keep_y11, _ = ginski_bot.outlook(hand & ~(1 << C.parse_card("G12")), unseen, 13)
    assert keep_y11 == 0 < keep_pair


def test_draws_from_the_stock_rather_than_take_a_card_that_breaks_its_outs() -> None:
    g = rummy_game("ginski", seed=4, dealer=0)
    place(g, 1, "R1 R2 R3 B5 B6 B7 G9 G10 Y12 P12")  # 43 deadwood
    set_upcard(g, "Y1")
    # Y1 for a 12 lowers the deadwood (43 to 32) but ends nothing and breaks the 12s;
    # the stock ends the round at once with a 12, G8, G11 or a wild (about 1 in 6)
    assert bot.basic_action(g) == Draw("discard")
    assert ginski_bot.choose_action(g) == Pass()


def test_takes_a_card_that_ends_the_round() -> None:
    g = rummy_game("ginski", seed=4, dealer=0)
    place(g, 1, "R1 R2 R3 B5 B6 B7 G9 G10 Y12 P12")
    set_upcard(g, "G11")  # G9 G10 G11: 24 deadwood, 12 after a 12 goes
    assert ginski_bot.choose_action(g) == Draw("discard")
    g.apply(Draw("discard"))
    action = ginski_bot.choose_action(g)
    assert isinstance(action, Knock) and C.rank(action.card) == 12


def test_a_card_another_player_took_from_the_pile_is_not_drawable() -> None:
    """Seat 1 discards, seat 2 takes that card from the pile and keeps it: for seat 0 it
    has left the pile (so it counts as unseen) but it is in seat 2's hand, not the stock."""
    g = rummy_game("ginski", seed=4, dealer=0)
    for _ in range(3):
        g.apply(Pass())
    g.apply(Draw("stock"))
    given = next(c for c in C.iter_cards(g.hands[1]) if not C.is_wild(c))
    g.apply(Discard(given))
    assert g.turn == 2
    g.apply(Draw("discard"))
    g.apply(Discard(next(c for c in C.iter_cards(g.hands[2]) if c != given and not C.is_wild(c))))
    assert g.turn == 0 and g.hands[2] >> given & 1
    assert unseen_cards(g, 0) >> given & 1
    assert ginski_bot.drawable(g) == unseen_cards(g, 0) & ~(1 << given)
