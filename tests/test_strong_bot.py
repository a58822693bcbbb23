"""The strong rummy bot (companion.play.strong): legal over whole matches, and where
its policy differs from the seat bot's."""

from __future__ import annotations

import dataclasses
import doctest

import pytest

from companion import cards as C
from companion import melds as M
from companion.play import bot, strong
from companion.play.rummy import Discard, Draw, Knock, RummyGame
from companion.games import find_variant, rummy_game
from tests.bot_matches import seat_bot
from tests.test_rummy_play import place, set_upcard


def test_doctests_pass() -> None:
    failures, tried = doctest.testmod(strong)
    assert tried and not failures


@pytest.mark.parametrize("variant", ["gin", "color_gin"])
@pytest.mark.parametrize("seed", [3, 8])
def test_strong_bot_plays_only_legal_actions_over_whole_matches(variant: str, seed: int) -> None:
    g = rummy_game(variant, seed=seed)
    steps = 0
    while not g.over:
        if g.turn == seed % 2:
            action = strong.choose_action(g)
            assert action in g.legal_actions(), (g.phase, action)
        else:
            action = bot.basic_action(g)
        g.apply(action)
        steps += 1
        assert steps < 20_000
    g.check()
    assert g.results  # a Color Gin match may end level (no winner)


def _behind_with_four_deadwood() -> RummyGame:
    g = rummy_game("gin", seed=4, dealer=0)
    place(g, 1, "AS 2S 3S 9D 9H 9C KH QH JH 5D")
    set_upcard(g, "4C")
    g.match = dataclasses.replace(g.match, totals=[60, 0])  # seat 1 is 60 behind
    g.apply(Draw("discard"))
    return g


def test_strong_bot_knocks_early_when_behind_where_the_seat_bot_waits() -> None:
    g = _behind_with_four_deadwood()
    assert bot.basic_action(g) == Discard(C.parse_card("5D"))
    action = strong.choose_action(g)
    assert isinstance(action, Knock) and action.card == C.parse_card("5D")
    assert action in g.legal_actions() or Knock(action.card) in g.legal_actions()
    result = g.apply(action)
    assert result is not None and result.kind == "knock" and result.ender == 1


def test_strong_bot_waits_late_in_the_hand_with_more_deadwood_than_estimated() -> None:
    g = _behind_with_four_deadwood()
    # forty cards later the opponent is estimated low: 4 deadwood is not enough
    for _ in range(strong.EARLY_DRAWS + 12):
        g.discard.insert(0, g.stock.pop(0))
    assert strong.opponent_estimate(g) <= 4 < len(g.stock)
    assert strong.choose_action(g) == Discard(C.parse_card("5D"))


def test_live_outs_and_feed_risk() -> None:
    kept = C.to_mask("5H 6H 9C 9D KS")
    unseen = C.to_mask("4H 7H 9S 2C QD")
    # 4H and 7H extend 5H 6H, 9S makes a set; 2C and QD help nothing
    assert strong.live_outs(kept, unseen, M.STANDARD) == 3
    picked = C.to_mask("8D")
    assert strong.feed_risk(C.parse_card("9D"), 0, picked) > strong.feed_risk(C.parse_card("9D"), 0, 0)
    assert strong.feed_risk(C.parse_card("KS"), 0, 0) == 0.0


def test_the_gin_seat_bot_is_the_strong_one() -> None:
    g = _behind_with_four_deadwood()
    assert seat_bot(g) == strong.choose_action(g) != bot.basic_action(g)
    assert find_variant("gin").seat_policy() is strong.STRONG
    assert find_variant("color_gin").seat_policy() is not strong.STRONG  # Color Gin has its own bot


@pytest.mark.parametrize("variant", ["gin", "color_gin"])
def test_strong_bots_take_a_discard_only_when_it_lowers_their_least_deadwood(variant: str) -> None:
    """Every offer of the upcard or the top discard over whole matches: the strong bot
    (and the Color Gin bot built on it) takes it exactly when its least deadwood after a
    discard is lower than now. A card that only keeps the deadwood is not taken, however
    many live outs it adds: that rule lost in the duplicate matches (docs/play.md)."""
    from companion import melds as M
    from companion.play.policy import best_after, play_turn

    policy = find_variant(variant).seat_policy()
    offers = level = 0
    for seed in (2, 5, 9):
        g = rummy_game(variant, seed=seed)
        steps = 0
        while not g.over and steps < 20_000:
            action = play_turn(g, policy)
            if g.phase in ("upcard", "draw") and Draw("discard") in g.legal_actions():
                hand, top = g.hand(g.turn), g.discard[-1]
                after, _ = best_after(hand | 1 << top, g.meld_rules, top)
                now = M.deadwood_of_mask(hand, g.meld_rules)
                assert (action == Draw("discard")) == (after < now), (g.phase, C.mask_names(hand), top)
                offers += 1
                level += after == now
            g.apply(action)
            steps += 1
    assert offers > 50 and level > 0, (offers, level)  # the rule was tested where it matters
