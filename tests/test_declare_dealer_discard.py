"""Declared arrangements (gin, Ginski), the flip for the first deal, and the
no_same_card_discard option: scoring, full play and refusals."""

from __future__ import annotations

import pytest

from companion import cards as C
from companion.play import bot
from companion.play.rummy import ChooseDeal, Discard, Draw, Knock, action_from_dict, action_to_dict
from companion.games import rummy_game
from tests.bot_matches import seat_bot, selfplay_match
from companion.games.ginski import rules as ginski
from companion.games.color_gin import rules as color_gin
from companion.games.gin import rules as gin
from companion.rules.first_dealer import draw_flips, first_dealer_from_flips

ISSUE_HANDS = ["2H 3H 4H 5H KS KD KC AS AD 2C", "AH 6H 7H QS QD QC 8S 8D 9C 10C"]


# --------------------------------------------------------------------------- declared


def test_declared_knock_from_the_issue_scores_36_minus_6() -> None:
    r = gin.score_hand(ISSUE_HANDS, 0, "gin_004", declared=[["3H", "4H", "5H"], ["KS", "KD", "KC"]])
    assert (r.kind, r.winner, r.points, r.deadwood) == ("knock", 0, [30, 0], [6, 36])
    assert r.melds[0] == [["3H", "4H", "5H"], ["KS", "KD", "KC"]]
    assert sorted(r.deadwood_cards[0]) == sorted(["2H", "AS", "AD", "2C"])
    assert r.layoffs[1] == ["6H", "7H"]  # laid off onto the declared run, not onto 2H
    # undeclared: the engine's least deadwood (4), the defender lays off AH too
    auto = gin.score_hand(ISSUE_HANDS, 0, "gin_004")
    assert auto.deadwood[0] == 4 and auto.points == [31, 0]


@pytest.mark.parametrize("declared, words", [
    ([["3H", "4H", "6H"]], "6H is not in the ender's hand"),
    ([["2H", "3H", "5H"]], "not a run"),
    ([["KS", "KD", "2C"]], "not a meld"),
    ([["3H", "4H", "5H"], ["5H", "KD", "KC"]], "5H is already in another meld"),
    ([["3H", "4H"]], "a meld needs at least 3 cards"),
    ([["3H", "4H", "5H"]], "may not knock with 36 deadwood: deadwood must be 10 or less"),
    ("3H 4H 5H", "declared must be a list of melds"),
])
def test_bad_declarations_are_refused_naming_the_rule(declared, words) -> None:
    with pytest.raises(ValueError, match=words):
        gin.score_hand(ISSUE_HANDS, 0, "gin_004", declared=declared)


def test_declared_gin_and_big_gin() -> None:
    hands = ["AS 2S 3S 4S 9D 9H 9C KH QH JH", "5C 6C 8D 8S 2D 2H 3C 4D 10S JS"]
    r = gin.score_hand(hands, 0, declared=[["AS", "2S", "3S", "4S"], ["9D", "9H", "9C"], ["JH", "QH", "KH"]])
    assert r.kind == "gin" and r.layoffs == [[], []]
    with pytest.raises(ValueError, match="a hand that reached the stock end has no ender"):
        gin.score_hand(hands, None, declared=[])
    big = ["AS 2S 3S 4S 9D 9H 9C KH QH JH 10H", "5C 6C 8D 8S 2D 2H 3C 4D 10S JS"]
    with pytest.raises(ValueError, match="a big gin declares all 11 cards melded"):
        gin.score_hand(big, 0, "modern", declared=[["AS", "2S", "3S", "4S"], ["9D", "9H", "9C"]])


def test_ginski_declared_with_a_wild_and_refusals() -> None:
    hands = ["R1 R2 W1 B5 B6 B7 G9 G10 G11 Y8", "R4 B4 G4 P10 P11 P12 Y1 G2 P5 R7",
             "Y4 Y5 Y6 Y7 G6 G7 G8 P13 B1 R6"]
    r = ginski.score_hand(hands, 0, declared=[["R1", "R2", "W1=R3"], ["B5", "B6", "B7"], ["G9", "G10", "G11"]])
    assert r.melds[0][0] == ["R1", "R2", "W1=R3"] and r.deadwood[0] == 8 and r.points == [27, 0, 0]
    with pytest.raises(ValueError, match="say which card W1 stands for"):
        ginski.score_hand(hands, 0, declared=[["R1", "R2", "W1"]])
    with pytest.raises(ValueError, match="above the limit 13"):
        ginski.score_hand(hands, 0, declared=[["B5", "B6", "B7"]])


def test_full_play_knock_carries_a_declaration() -> None:
    g = rummy_game("gin", seed=2, dealer=1)
    g.apply(Draw("discard"))
    kept = C.to_mask("2H 3H 4H 5H KS KD KC AS AD 2C")
    # set up the position: seat 0 holds the issue's hand plus one card to knock with
    from test_rummy_play import place
    place(g, 0, "2H 3H 4H 5H KS KD KC AS AD 2C 9S")
    place(g, 1, ISSUE_HANDS[1])
    g.taken = None
    before = (list(g.hands), list(g.discard), g.phase, g.actions)
    with pytest.raises(ValueError, match="not a run"):
        g.apply(Knock(C.parse_card("9S"), (("2H", "3H", "5H"),)))
    assert (list(g.hands), list(g.discard), g.phase, g.actions) == before
    knock = Knock(C.parse_card("9S"), (("3H", "4H", "5H"), ("KS", "KD", "KC")))
    assert knock in g.legal_actions()
    result = g.apply(knock)
    assert result is not None and result.points == [30, 0] and kept == C.to_mask(" ".join(
        c for m in result.melds[0] for c in m) + " " + " ".join(result.deadwood_cards[0]))
    d = action_to_dict(knock)
    assert d["declared"] == [["3H", "4H", "5H"], ["KS", "KD", "KC"]]
    assert action_from_dict(d).declared == knock.declared
    with pytest.raises(ValueError, match="'declared' is a list of melds"):
        action_from_dict({"type": "knock", "card": "9S", "declared": "3H 4H 5H"})


def test_bot_declares_its_best_melds() -> None:
    kept = C.to_mask("7S 7H 7D 7C 8C 9C 2H 3H 4H KD")
    # the 7C can sit in the set or the run; the bot keeps the exposure least
    melds = gin.best_declaration(kept)
    assert sum(len(m) for m in melds) == 9
    for seed in range(5):
        g = rummy_game("gin", seed=seed, dealer=0)
        while not g.over:
            a = seat_bot(g)
            if isinstance(a, Knock):
                assert a.declared is not None
                assert g.apply(a) is not None
                break
            g.apply(a)


# --------------------------------------------------------------------------- first dealer


def test_first_dealer_from_flips() -> None:
    fd = first_dealer_from_flips([["7H", "7S"], ["2C", "KD"]], 2, "flip_high_chooses", "deal")
    assert (fd.winner, fd.dealer) == (1, 1)
    assert first_dealer_from_flips([["7H", "KS"]], 2, "flip_high_chooses", "pass").dealer == 0
    assert first_dealer_from_flips([["7H", "KS"]], 2, "flip_high_chooses").dealer is None
    assert first_dealer_from_flips([["7H", "AS"]], 2, "flip_low_deals").dealer == 1
    three = first_dealer_from_flips([["9H", "9S", "4C"], ["5D", "5C"], ["QD", "JC"]], 3,
                                    "flip_high_chooses", "pass")
    assert three.winner == 0 and three.dealer == 2  # the player on the winner's right deals
    assert first_dealer_from_flips([["R5", "W1", "B2"]], 3, "flip_low_deals").winner == 1  # a wild counts 0


@pytest.mark.parametrize("flips, kwargs, words", [
    ([["7H", "7S"]], {}, "seats 0 and 1 tie with 7 in round 1 and flip again; give round 2"),
    ([["7H"]], {}, "round 1 needs one card for every player: 2 cards, got 1"),
    ([["7H", "7S"], ["7H", "2C"]], {}, "7H was flipped already"),
    ([["7H", "KS"], ["2C", "3C"]], {}, "round 2 comes after seat 1 won the flip in round 1"),
    ([["7H", "KS"]], {"choice": "maybe"}, "'deal' or 'pass'"),
    ([["7H", "KS"]], {"rule": "flip_low_deals", "choice": "deal"}, "no choice to make"),
    ([["7H", "XX"]], {}, "round 1, seat 1: not a card"),
])
def test_first_dealer_refusals_name_the_rule(flips, kwargs, words) -> None:
    rule = kwargs.pop("rule", "flip_high_chooses")
    with pytest.raises(ValueError, match="first dealer") as info:
        first_dealer_from_flips(flips, 2, rule, **kwargs)
    assert words in str(info.value)


def test_draw_flips_breaks_ties_and_never_repeats_a_card() -> None:
    import random
    for seed in range(200):
        fd = draw_flips(random.Random(seed), C.STANDARD_DECK, 3, "flip_high_chooses")
        flipped = [c for r in fd.rounds for _, c in r]
        assert len(flipped) == len(set(flipped))
        last = dict(fd.rounds[-1])
        assert all(C.rank(last[fd.winner]) > C.rank(c) for s, c in last.items() if s != fd.winner)


def test_full_play_flip_then_choice() -> None:
    g = rummy_game("gin", seed=4)  # gin_004 flips
    assert g.phase == "first_dealer" and g.turn == g.first_deal.winner
    g.check()
    with pytest.raises(ValueError, match="the winner of the flip chooses"):
        g.apply(Draw("stock"))
    g.apply(ChooseDeal(True))
    assert g.dealer == g.first_deal.winner == g.first_deal.dealer and g.phase == "upcard"
    with pytest.raises(ValueError, match="chosen already"):
        g.apply(ChooseDeal(False))
    assert g.view(0)["first_deal"]["dealer"] == g.dealer
    low = rummy_game("gin", seed=4, preset="pagat")  # the lowest card deals, no choice
    assert low.phase == "upcard" and low.dealer == low.first_deal.winner
    assert rummy_game("gin", seed=4, preset="modern").first_deal is None
    assert action_from_dict(action_to_dict(ChooseDeal(False))) == ChooseDeal(False)
    r = selfplay_match(9, "gin")
    assert r["finished"]
    assert rummy_game("ginski", seed=3, first_dealer="flip_high_chooses").phase == "first_dealer"


# --------------------------------------------------------------------------- same card


def test_no_same_card_discard_is_an_option_on_by_default() -> None:
    for mod in (gin, color_gin, ginski):
        assert all(p.no_same_card_discard for p in mod.PRESETS.values())
    g = rummy_game("gin", seed=2, dealer=1, no_same_card_discard=False)
    up = g.discard[-1]
    g.apply(Draw("discard"))
    assert Discard(up) in g.legal_actions() and g.barred_discard is None
    g.apply(Discard(up))
    assert g.discard[-1] == up
    on = rummy_game("gin", seed=2, dealer=1)
    on.apply(Draw("discard"))
    with pytest.raises(ValueError, match="rule no_same_card_discard"):
        on.apply(Discard(up))
    for seed in range(10):
        assert selfplay_match(seed, "gin", options=gin.make_options(no_same_card_discard=False))["finished"]
    with pytest.raises(ValueError, match="no_same_card_discard"):
        gin.make_options(no_same_card_discard="yes")
