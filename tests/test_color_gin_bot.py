"""The Color Gin bot (companion.games.color_gin.bot): legal whole matches, clearly better
than a random player, and knocks weighed by the suits they score in."""

from __future__ import annotations

import doctest

from companion import cards as C
from companion.games.color_gin import bot as color_gin_bot
from companion.play import bot, strong
from companion.play.rummy import Discard, Draw, Knock, Pass, RummyGame
from companion.games import find_variant, rummy_game
from tests.bot_matches import random_player, rummy_match, seat_bot, tally
from tests.test_rummy_play import place, set_next_stock


def test_doctests_pass() -> None:
    failures, tried = doctest.testmod(color_gin_bot)
    assert tried and not failures


def test_plays_legal_whole_matches_and_beats_the_random_player() -> None:
    results, seats = [], []
    for seed in (1, 2, 3):
        for seat in (0, 1):
            results.append(rummy_match("color_gin", seed, color_gin_bot.choose_action, seat,
                                       random_player(seed)))
            seats.append(seat)
    wins, losses = tally(results, seats)
    assert all(g.results for g, _w in results)
    assert wins >= 5 and losses == 0, (wins, losses)


def test_the_color_gin_seat_bot_is_this_one() -> None:
    assert find_variant("color_gin").seat_policy() is color_gin_bot.COLOR_GIN
    g = rummy_game("color_gin", seed=5)
    assert seat_bot(g) == color_gin_bot.choose_action(g)


def _mid_hand(kept: str) -> RummyGame:
    """Seat 1 to discard in the middle of a hand (eight cards gone from the stock), holding
    ``kept`` and the KC just drawn."""
    g = rummy_game("color_gin", seed=4, dealer=0)
    place(g, 1, kept)
    set_next_stock(g, "KC")
    g.apply(Pass())
    g.apply(Pass())
    for _ in range(8):
        g.discard.insert(0, g.stock.pop(0))
    g.apply(Draw("stock"))
    assert g.turn == 1 and g.phase == "discard"
    return g


def test_knocks_when_the_knock_scores_in_three_suits() -> None:
    # three sets missing clubs and the 4C: 4 deadwood, spoiling only clubs
    g = _mid_hand("9S 9H 9D 5S 5H 5D 2S 2H 2D 4C")
    kept = g.hands[1] & ~(1 << C.parse_card("KC"))
    est = color_gin_bot.opponent_estimate(g)
    assert color_gin_bot.knock_gain(g, kept, est) == 3 * (est - 4)
    action = color_gin_bot.choose_action(g)
    assert isinstance(action, Knock) and action.card == C.parse_card("KC")
    result = g.apply(action)
    assert result is not None and result.extra["scoring_suits"] == ["S", "H", "D"]


def test_waits_when_the_knock_would_score_in_one_suit_only() -> None:
    # runs in spades and hearts, a set missing spades and the 8D: 8 deadwood, only clubs open
    g = _mid_hand("AS 2S 3S 4H 5H 6H 9D 9C 9H 8D")
    kept = g.hands[1] & ~(1 << C.parse_card("KC"))
    est = color_gin_bot.opponent_estimate(g)
    assert color_gin_bot.knock_gain(g, kept, est) == est - 8 < color_gin_bot.KNOCK_GAIN
    assert Knock(C.parse_card("KC")) in g.legal_actions()
    assert strong.choose_action(g) == Knock(C.parse_card("KC"))  # the gin bot would knock
    assert color_gin_bot.choose_action(g) == Discard(C.parse_card("KC"))
