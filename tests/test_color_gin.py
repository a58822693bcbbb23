"""Color Gin: per-suit hand scoring, spoiling, suit closing and the match fold."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from companion import cards as C
from companion import melds as M
from companion.games.color_gin import rules as G
from companion.rules.base import HandResult

# The seed's gin: queens H S C, 10-J-Q and 3-4-5-6 of diamonds; the loser is stuck
# with two fives and an eight.
SEED_GINNER = "QH QS QC 10D JD QD 3D 4D 5D 6D"
SEED_LOSER = "7S 8S 9S KH KS KC KD 5S 5H 8C"

# Knocker: run of spades, 9s without spades, run of clubs, 4D deadwood -> spoils S D C.
KNOCKER = "AS 2S 3S 9H 9D 9C KC QC JC 4D"

# Two least-deadwood arrangements (5 each) that spoil different suits:
# AD 2D 3D run (open S) or 2H 2D 2C set (open C).
TWIN = "AD 2D 3D 2H 2C AH KS KH KD KC"
# Least deadwood (7, open D) against more open suits (10, open S and C).
WIDER = "AH 2H 3H AS AC 5H KS KH KD KC"


def row(**pts: int) -> dict[str, int]:
    return {s: pts.get(s, 0) for s in "SHDC"}


# ---------------------------------------------------------------------------
# Hand scoring


def test_seed_gin_example_38_in_clubs_hearts_spades():
    r = G.score_hand([SEED_GINNER, SEED_LOSER], 0)
    assert r.kind == "gin" and r.winner == 0
    assert r.deadwood == [0, 18]
    assert sorted(r.deadwood_cards[1], key=C.parse_card) == sorted(["5S", "5H", "8C"], key=C.parse_card)
    assert r.points == [row(S=38, H=38, C=38), row()]
    assert r.extra["spoiled"] == ["D"]


def test_seed_gin_example_other_seat_and_bonus_option():
    r = G.score_hand([SEED_LOSER, SEED_GINNER], 1, gin_bonus=30)
    assert r.winner == 1 and r.points == [row(), row(S=48, H=48, C=48)]


def test_gin_allows_no_layoff():
    # The loser holds 7D and 2D, which would extend the 3-6 diamond run.
    loser = "7D 2D 7S 8S 9S KH KS KC KD 5H"
    r = G.score_hand([SEED_GINNER, loser], 0)
    assert r.layoffs == [[], []]
    assert r.deadwood[1] == 7 + 2 + 5
    assert r.points[0]["S"] == 20 + 14


def test_knock_scores_difference_in_unspoiled_open_suits():
    r = G.score_hand([KNOCKER, "5S 6S 7S 8H 8D 8C 2H 3C 4C 10S"], 0)
    assert (r.kind, r.winner) == ("knock", 0)
    assert r.deadwood == [4, 19]
    assert r.extra["spoiled"] == ["S", "D", "C"]
    assert r.points == [row(H=15), row()]


def test_undercut_scores_difference_plus_bonus_in_knockers_unspoiled_suits():
    # The defender ends with 3 deadwood against the knocker's 4.
    r = G.score_hand([KNOCKER, "5S 6S 7S 8H 8D 8C 4H 5H 6H 3D"], 0)
    assert (r.kind, r.winner) == ("undercut", 1)
    assert r.deadwood == [4, 3]
    assert r.points == [row(), row(H=1 + 10)]
    r = G.score_hand([KNOCKER, "5S 6S 7S 8H 8D 8C 4H 5H 6H 3D"], 0, undercut_bonus=25)
    assert r.points[1]["H"] == 26


TIE_DEFENDER = "5S 6S 7S 8H 8D 8C 4H 5H 6H 4C"  # 4 deadwood, like the knocker


@pytest.mark.parametrize(
    "tie, kind, winner, pts",
    [
        ("undercut", "undercut", 1, [row(), row(H=10)]),
        ("knocker_wins_zero", "knock", 0, [row(), row()]),
        ("no_score", "knock", None, [row(), row()]),
    ],
)
def test_equal_deadwood_follows_tie_option(tie, kind, winner, pts):
    r = G.score_hand([KNOCKER, TIE_DEFENDER], 0, tie=tie)
    assert r.deadwood == [4, 4]
    assert (r.kind, r.winner, r.points) == (kind, winner, pts)
    assert any("equal deadwood" in n for n in r.notes)


def test_layoffs_reduce_defender_deadwood_but_not_spoiling():
    # The defender lays 9S onto the 9s (which spoil S as a 3-set) and 10C onto the clubs.
    defender = "9S 10C 5H 6H 7H 8D 8S 8C 2H 3D"
    r = G.score_hand([KNOCKER, defender], 0)
    assert sorted(r.layoffs[1]) == sorted(["9S", "10C"])
    assert r.deadwood[1] == 2 + 3
    assert r.extra["spoiled"] == ["S", "D", "C"]
    assert r.points == [row(H=1), row()]


def test_run_spoils_suit_set_of_three_missing_suit_four_set_nothing():
    run = M.check_meld(C.parse_cards("4H 5H 6H"), M.STANDARD)
    trio = M.check_meld(C.parse_cards("9S 9H 9C"), M.STANDARD)
    quad = M.check_meld(C.parse_cards("KS KH KD KC"), M.STANDARD)
    assert G.suit_letters(G.spoiled_suits([run], [])) == ["H"]
    assert G.suit_letters(G.spoiled_suits([trio], [])) == ["D"]
    assert G.spoiled_suits([quad], []) == 0
    assert G.suit_letters(G.spoiled_suits([quad], C.parse_cards("2C AS"))) == ["S", "C"]


def test_discard_does_not_spoil():
    # The ender went gin discarding 9H. Only the 10 kept cards count, so hearts stay
    # unspoiled; entering the discard with them is refused rather than spoiling hearts.
    r = G.score_hand([SEED_GINNER, SEED_LOSER], 0)
    assert "H" not in r.extra["spoiled"] and r.points[0]["H"] == 38
    with pytest.raises(ValueError, match="seat 0 holds 11 cards.*no big gin"):
        G.score_hand([SEED_GINNER + " 9H", SEED_LOSER], 0)


def test_declared_arrangement_sets_spoiling():
    other = "5S 6S 7S 8H 9H 10H 4C 5C 6C 9S"
    default = G.score_hand([TWIN, other], 0)
    assert default.deadwood[0] == 5
    run_first = G.score_hand([TWIN, other], 0, declared=[["AD", "2D", "3D"], ["KS", "KH", "KD", "KC"]])
    set_first = G.score_hand([TWIN, other], 0, declared=[["2H", "2D", "2C"], ["KS", "KH", "KD", "KC"]])
    assert run_first.extra["spoiled"] == ["H", "D", "C"]
    assert set_first.extra["spoiled"] == ["S", "H", "D"]
    assert run_first.points[0] == row(S=4)
    assert set_first.points[0] == row(C=4)
    assert run_first.melds[0] == [["AD", "2D", "3D"], ["KS", "KH", "KD", "KC"]]
    as_text = G.score_hand([TWIN, other], 0, declared=["2H 2D 2C", "KS KH KD KC"])
    assert as_text == set_first


def test_default_declaration_between_equals_leaves_defender_most_deadwood():
    # Both TWIN arrangements keep one suit open; the diamond run would take the
    # defender's 4D as a lay-off, the set of 2s would not.
    defender = "4D QS 6S 7S 8S 9H 10H JH 9C 10C"
    r = G.score_hand([TWIN, defender], 0)
    assert ["2H", "2D", "2C"] in r.melds[0]
    assert r.layoffs == [[], []] and r.deadwood == [5, 33]
    assert r.points[0] == row(C=28)
    declared = G.score_hand([TWIN, defender], 0, declared=[["AD", "2D", "3D"], ["KS", "KH", "KD", "KC"]])
    assert declared.layoffs == [[], ["4D"]] and declared.points[0] == row(S=24)


def test_declared_arrangement_may_hold_more_deadwood_within_limit():
    # The aces as a set leaves 2H 3H 5H unmelded (10, not the least 7): legal, as the
    # limit holds; breaking the kings' 4-set as well goes over it.
    r = G.score_hand([WIDER, "5S 6S 7S 8D 9D 10D 4C 5C 6C 9S"], 0,
                     declared=[["AS", "AH", "AC"], ["KS", "KH", "KD", "KC"]])
    assert r.deadwood[0] == 10
    assert r.extra["spoiled"] == ["H", "D"]
    with pytest.raises(ValueError, match="declared deadwood is 17, above the knock limit 10"):
        G.score_hand([WIDER, "5S 6S 7S 8D 9D 10D 4C 5C 6C 9S"], 0,
                     declared=[["AH", "2H", "3H"], ["KS", "KH", "KD"]])


def test_default_declaration_prefers_a_suit_that_is_still_open():
    other = "5S 6S 7S 8H 9H 10H 4C 5C 6C 9S"
    r = G.score_hand([TWIN, other], 0, closed="S")
    assert r.extra["spoiled"] == ["S", "H", "D"]  # the 2s set keeps clubs open
    assert r.extra["scoring_suits"] == ["C"]
    r = G.score_hand([TWIN, other], 0, closed=["C"])
    assert r.extra["spoiled"] == ["H", "D", "C"]
    with pytest.raises(ValueError, match="no suit both unspoiled and open"):
        G.score_hand([TWIN, other], 0, closed="C",
                     declared=[["2H", "2D", "2C"], ["KS", "KH", "KD", "KC"]])


def test_auto_declare_option_trades_deadwood_for_open_suits():
    other = "5S 6S 7S 8D 9D 10D 4C 7C JC QS"  # 31 deadwood
    least = G.score_hand([WIDER, other], 0, auto_declare="least_deadwood")
    wide = G.score_hand([WIDER, other], 0, auto_declare="most_open_suits")
    assert least.deadwood[0] == 7 and least.extra["spoiled"] == ["S", "H", "C"]
    assert wide.deadwood[0] == 10 and wide.extra["spoiled"] == ["H", "D"]
    assert least.points[0] == row(D=31 - 7)
    assert wide.points[0] == row(S=31 - 10, C=31 - 10)
    # the default declares what scores the ender most: 21 in two suits beats 24 in one
    assert G.score_hand([WIDER, other], 0).points == wide.points


def test_best_score_declaration_also_limits_an_undercut():
    # the defender (2 deadwood) undercuts whatever is declared; spoiling three suits
    # leaves it 15 in diamonds instead of 18 in spades and clubs
    defender = "4D 4S 4C 6C 7C 8C 9S 10S JS 2D"
    best = G.score_hand([WIDER, defender], 0)
    wide = G.score_hand([WIDER, defender], 0, auto_declare="most_open_suits")
    assert best.kind == wide.kind == "undercut"
    assert best.points[1] == row(D=7 - 2 + 10)
    assert wide.points[1] == row(S=10 - 2 + 10, C=10 - 2 + 10)


def test_closed_suits_from_a_match_score():
    closing = HandResult("color_gin", "gin", 0, 0, [row(H=120), row()], [0, 30])
    match = G.score_match([closing], 2, G.Options())
    assert match.extra["closed"] == ["H"]
    assert G.end_kind(C.to_mask(KNOCKER), G.Options(), match) is None
    assert G.end_kind(C.to_mask(KNOCKER), G.Options()) == "knock"
    with pytest.raises(ValueError, match="may not knock or go gin"):
        G.score_hand([KNOCKER, TIE_DEFENDER], 0, closed=match)


def test_end_kind_gin_knock_and_none():
    opts = G.Options()
    assert G.end_kind(C.to_mask(SEED_GINNER), opts) == "gin"
    assert G.end_kind(C.to_mask(KNOCKER), opts) == "knock"
    assert G.end_kind(C.to_mask("AS 2S 3S 9H 9D 9C KC QC JC 10D"), opts) == "knock"  # 10
    assert G.end_kind(C.to_mask("AS 2S 3S 9H 9D 9C KC QC 5C 10D"), opts) is None  # 25
    assert G.end_kind(C.to_mask(SEED_GINNER + " 9H"), opts) is None  # not 10 cards
    # gin spoiling every open suit is refused; a knock that keeps one open is offered
    match = G.score_match(
        [HandResult("color_gin", "gin", 0, 0, [row(S=100, H=100, C=0), row(C=100)], [0, 0])],
        2, opts,
    )
    assert G.end_kind(C.to_mask(SEED_GINNER), opts, match) is None


def test_end_kind_knock_limit_option():
    hand = C.to_mask("AS 2S 3S 9H 9D 9C KC QC JC 10D")
    assert G.end_kind(hand, G.Options()) == "knock"
    assert G.end_kind(hand, G.Options(knock_limit=9)) is None


def test_hand_spoiling_every_suit_may_not_end():
    # Runs in spades, hearts and diamonds, AC deadwood: nothing could score.
    hand = "AS 2S 3S 4H 5H 6H 7D 8D 9D AC"
    assert G.end_kind(C.to_mask(hand), G.Options()) is None
    with pytest.raises(ValueError, match="seat 0 may not knock or go gin"):
        G.score_hand([hand, "7S 8S 9S KH KS KC KD 5C 10H 8C"], 0)


def test_coop_joker_forces_a_knock_above_the_limit():
    heavy = "AS 2S 3S 4S 9H 9D 9C 5D 6C 2H"  # 13 deadwood
    other = "5S 6S 7S 8H 10D 8C 4H 5H 6H 10S"
    with pytest.raises(ValueError, match="above the knock limit 10"):
        G.score_hand([heavy, other], 0)
    with pytest.raises(ValueError, match="coop_jokers"):
        G.score_hand([heavy, other], 0, joker=True)
    r = G.score_hand([heavy, other], 0, "coop_jokers", joker=True)
    assert r.kind == "knock" and r.deadwood[0] == 13
    assert r.extra["joker"] is True and r.notes
    # forced even when nothing can score
    r = G.score_hand(["AS 2S 3S 4H 5H 6H 7D 8D 9D AC", "7S 8S 9S KH KS KC KD 5C 10H 8C"], 0,
                     "coop_jokers", joker=True)
    assert r.extra["spoiled"] == ["S", "H", "D", "C"] and r.points == [row(), row()]


def test_void_hand():
    r = G.score_hand([SEED_GINNER, SEED_LOSER], None)
    assert (r.kind, r.winner, r.points) == ("void", None, [row(), row()])
    assert r.deadwood == [0, 18]
    assert G.score_hand([[], []], None).deadwood == [0, 0]
    assert G.score_hand([SEED_GINNER, []], None).deadwood == [0, 0]  # a hand left out
    with pytest.raises(ValueError, match="seat 1 holds 3 cards"):
        G.score_hand([SEED_GINNER, "AS 2S 3S"], None)


def test_hands_as_masks_and_ints():
    a = G.score_hand([C.to_mask(SEED_GINNER), C.parse_cards(SEED_LOSER)], 0)
    assert a == G.score_hand([SEED_GINNER, SEED_LOSER], 0)


# ---------------------------------------------------------------------------
# Bad input


@pytest.mark.parametrize(
    "hands, ender, kwargs, message",
    [
        ([SEED_GINNER + " 9H", SEED_LOSER], 0, {}, "seat 0 holds 11 cards"),
        ([SEED_GINNER, "7S 8S 9S"], 0, {}, "seat 1 holds 3 cards"),
        ([SEED_GINNER, SEED_LOSER.replace("8C", "QH")], 0, {}, "QH is already in another hand"),
        (["QH QH QS QC 10D JD QD 3D 4D 5D", SEED_LOSER], 0, {}, "duplicate card"),
        ([SEED_GINNER.replace("6D", "R5"), SEED_LOSER], 0, {}, "R5 is not a Color Gin card"),
        ([SEED_GINNER.replace("6D", "JK"), SEED_LOSER], 0, {}, "JK1 is not a Color Gin card"),
        ([SEED_GINNER, SEED_LOSER], 1, {}, "seat 1 may not knock: least deadwood 18"),
        ([SEED_GINNER, SEED_LOSER], 2, {}, "ender must be seat 0 or 1"),
        ([SEED_GINNER], 0, {}, "expected 2 hands"),
        ("QH QS", 0, {}, "hands must be a list"),
        ([SEED_GINNER, SEED_LOSER], 0, {"declared": [["QH", "QS", "3D"]]}, "declared meld 1: not a meld"),
        ([SEED_GINNER, SEED_LOSER], 0, {"declared": [["QH", "QS", "QD"]]}, "declared deadwood is 48, above the knock limit"),
        ([SEED_GINNER, SEED_LOSER], 0, {"declared": [["QH", "QS", "QC"], ["QC", "KC", "JC"]]}, "not in the ender's hand"),
        ([SEED_GINNER, SEED_LOSER], 0, {"declared": [["10D", "JD", "QD"], ["QD", "QH", "QS"]]}, "QD is in two melds"),
        ([SEED_GINNER, SEED_LOSER], 0, {"declared": [["QH", "QS", "QX"]]}, "declared meld 1: not a card: 'QX'"),
        ([SEED_GINNER, SEED_LOSER], 0, {"declared": "QH QS QC"}, "declared must be a list of melds"),
        ([SEED_GINNER, SEED_LOSER], 0, {"closed": "X"}, "not a suit: 'X'"),
        ([SEED_GINNER, SEED_LOSER], None, {"joker": True}, "void hand"),
        ([SEED_GINNER, SEED_LOSER], 0, {"tie": "coin_flip"}, "tie must be one of .*, got 'coin_flip'"),
        ([SEED_GINNER, SEED_LOSER], 0, {"colour": "red"}, "unknown color_gin option 'colour'"),
        ([SEED_GINNER, SEED_LOSER], 0, {"coop_jokers": True}, "coop_jokers needs coop"),
        ([SEED_GINNER, SEED_LOSER], 0, {"target": -5}, "target must be a whole number"),
        ([SEED_GINNER, SEED_LOSER], 0, {"gin_bonus": 10 ** 400}, "gin_bonus must be a whole number from 0 to 100000"),
    ],
)
def test_bad_input_raises_value_error_naming_it(hands, ender, kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        G.score_hand(hands, ender, **kwargs)


def test_bad_preset_and_options_combinations():
    with pytest.raises(ValueError, match="unknown color_gin preset 'x'"):
        G.score_hand([SEED_GINNER, SEED_LOSER], 0, "x")
    with pytest.raises(ValueError, match="either a preset or options"):
        G.score_hand([SEED_GINNER, SEED_LOSER], 0, "coop", options=G.Options())
    opts = G.make_options("coop")
    r = G.score_hand([SEED_GINNER, SEED_LOSER], 0, options=opts, gin_bonus=0)
    assert r.points[0]["S"] == 18


def test_options_metadata_for_new_game_screen():
    for f in dataclasses.fields(G.Options):
        assert f.metadata.get("help"), f.name
    choices = {f.name: f.metadata.get("choices") for f in dataclasses.fields(G.Options)}
    assert choices["tie"] == ("undercut", "knocker_wins_zero", "no_score")
    assert choices["tiebreak"] == ("none", "total_points")
    assert G.PRESETS[G.DEFAULT_PRESET] == G.Options()


def test_deal_dealer_and_deck():
    opts = G.Options()
    assert G.deal_size(2, opts) == 10
    with pytest.raises(ValueError, match="2 players, not 3"):
        G.deal_size(3, opts)
    won = G.score_hand([SEED_GINNER, SEED_LOSER], 0)
    void = G.score_hand([[], []], None)
    assert G.next_dealer(won, 0, 2, opts) == 1
    assert G.next_dealer(void, 0, 2, opts) == 0
    assert G.next_dealer(void, 0, 2, G.Options(stock_end="alternate_anyway")) == 1
    assert G.deck(opts).bit_count() == 52
    assert G.deck(G.make_options("coop_jokers")).bit_count() == 54


# ---------------------------------------------------------------------------
# Match


def gin_for(seat: int, amount: int, suits: str) -> HandResult:
    pts = [row(), row()]
    pts[seat] = {s: (amount if s in suits else 0) for s in "SHDC"}
    return HandResult("color_gin", "gin", seat, seat, pts, [0, 0])


VOID = HandResult("color_gin", "void", None, None, [row(), row()], [0, 0])


def test_seed_hands_fold_into_a_match():
    r = G.score_hand([SEED_GINNER, SEED_LOSER], 0)
    m = G.score_match([r, r], 2, G.Options())
    assert m.totals == [row(S=76, H=76, C=76), row()]
    assert not m.finished and m.extra["closed"] == []
    m = G.score_match([r, r, r], 2, G.Options())
    assert m.totals[0] == row(S=114, H=114, C=114)  # overshoot stays
    assert m.extra["closed"] == ["S", "H", "C"]  # several suits close at once
    assert m.finished and m.winner == 0 and m.extra["end_reason"] == "three_suits"
    assert m.hands_won == [3, 0] and m.final == [342, 0]


def test_closed_suit_takes_no_more_points_from_anyone():
    hands = [gin_for(0, 60, "S"), gin_for(0, 50, "SH"), gin_for(1, 40, "SH"), gin_for(1, 70, "H")]
    m = G.score_match(hands, 2, G.Options())
    assert m.extra["suit_winner"] == {"S": 0, "H": 1, "D": None, "C": None}
    assert m.totals == [row(S=110, H=50), row(H=110)]
    assert not m.finished


def test_suit_winner_is_the_first_to_reach_the_target():
    m = G.score_match([gin_for(1, 100, "D"), gin_for(0, 150, "D")], 2, G.Options())
    assert m.extra["suit_winner"]["D"] == 1
    assert m.totals == [row(), row(D=100)]


def test_two_two_is_a_tie_unless_tiebreak_total_points():
    hands = [gin_for(0, 100, "SH"), gin_for(1, 120, "DC")]
    m = G.score_match(hands, 2, G.Options())
    assert m.finished and m.winner is None and m.extra["end_reason"] == "all_closed"
    m = G.score_match(hands, 2, G.Options(tiebreak="total_points"))
    assert m.winner == 1 and m.extra["tiebreak"] == "total_points"
    # equal totals stay a tie even with the tiebreak
    m = G.score_match([gin_for(0, 100, "SH"), gin_for(1, 100, "DC")], 2, G.Options(tiebreak="total_points"))
    assert m.winner is None


def test_target_option():
    m = G.score_match([gin_for(0, 50, "SHD")], 2, G.Options(target=50))
    assert m.finished and m.winner == 0


def test_void_cap_ends_the_game_as_it_stands():
    opts = G.Options()
    m = G.score_match([gin_for(0, 100, "S"), VOID, VOID], 2, opts)
    assert not m.finished and m.extra["void_streak"] == 2
    m = G.score_match([gin_for(0, 100, "S"), VOID, gin_for(1, 5, "H"), VOID, VOID], 2, opts)
    assert not m.finished  # the streak restarted
    m = G.score_match([gin_for(0, 100, "S"), VOID, VOID, VOID], 2, opts)
    assert m.finished and m.winner == 0 and m.extra["end_reason"] == "void_cap"
    m = G.score_match([VOID] * 3, 2, opts)
    assert m.finished and m.winner is None
    m = G.score_match([VOID] * 5, 2, G.Options(void_cap=0))
    assert not m.finished
    with pytest.raises(ValueError, match="hand 4 comes after the end of the game"):
        G.score_match([VOID] * 4, 2, opts)


def test_coop_team_score_on_a_two_two_tie():
    coop = G.make_options("coop")
    hands = [gin_for(0, 100, "SH"), gin_for(1, 60, "S"), gin_for(1, 110, "DC")]
    m = G.score_match(hands, 2, coop)
    assert m.finished and m.winner is None
    assert m.extra["coop_success"] is True
    assert m.extra["team_score"] == 200 + 220
    m = G.score_match([gin_for(0, 100, "SHD")], 2, coop)
    assert m.finished and m.extra["coop_success"] is False and m.extra["team_score"] == 0


def test_match_rejects_foreign_results():
    with pytest.raises(ValueError, match="ginski result"):
        G.score_match([HandResult("ginski", "gin", 0, 0, [1, 0, 0], [0, 0, 0])], 2, G.Options())
    with pytest.raises(ValueError, match="2 players, not 3"):
        G.score_match([], 3, G.Options())


# ---------------------------------------------------------------------------
# Properties on real hands


@st.composite
def deals(draw):
    """The ender's 10 cards from a window of 3 to 5 ranks (so many of them can knock
    or go gin), the defender's 10 from the rest of the deck."""
    width = draw(st.integers(3, 5))
    lo = draw(st.integers(0, 13 - width))
    window = [s * 13 + r for s in range(4) for r in range(lo, lo + width)]
    ender = draw(st.permutations(window))[:10]
    rest = [c for c in range(52) if c not in ender]
    return [ender, draw(st.permutations(rest))[:10]]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals(), st.sampled_from(["undercut", "knocker_wins_zero", "no_score"]),
       st.sampled_from(["", "S", "HD", "C"]), st.sampled_from(["least_deadwood", "most_open_suits"]))
# a gin in three runs spoils spades, hearts and diamonds; the same cards as three sets with
# 7H out spoil only hearts and clubs: "most_open_suits" declares that knock
@example([[33, 19, 7, 20, 22, 34, 21, 9, 8, 35], [1, 13, 44, 10, 38, 15, 46, 14, 51, 2]], "no_score", "",
         "most_open_suits")
def test_hand_properties(hands, tie, closed, auto):
    opts = G.Options(tie=tie, auto_declare=auto)
    kind = G.end_kind(C.cards_mask(hands[0]), opts, None if not closed else
                      G.score_match([gin_for(0, 100, closed)], 2, opts))
    if kind is None:
        with pytest.raises(ValueError, match="seat 0 may not"):
            G.score_hand(hands, 0, options=opts, closed=closed)
        return
    r = G.score_hand(hands, 0, options=opts, closed=closed)
    if auto == "least_deadwood":  # a hand that can go gin is declared as gin
        assert (r.kind == "gin") == (kind == "gin")
    else:  # most open suits first, then least deadwood: a knock that opens more suits beats the gin
        assert r.kind != "gin" or kind == "gin"
    # only one seat scores, never negative, the same amount in every unspoiled suit
    scoring = [seat for seat in (0, 1) if any(r.points[seat].values())]
    assert len(scoring) <= 1
    assert all(v >= 0 for p in r.points for v in p.values())
    for seat in scoring:
        assert seat == r.winner
        assert {s for s, v in r.points[seat].items() if v} == set("SHDC") - set(r.extra["spoiled"])
    # spoiling is the ender's declared melds and deadwood, lay-offs notwithstanding
    melds = [M.check_meld(C.parse_cards(m), M.STANDARD) for m in r.melds[0]]
    dead = C.parse_cards(r.deadwood_cards[0])
    assert G.suit_letters(G.spoiled_suits(melds, dead)) == r.extra["spoiled"]
    assert sum(C.gin_value(c) for c in dead) == r.deadwood[0] <= opts.knock_limit
    assert set(r.extra["scoring_suits"]) & set(closed) == set()
    assert r.extra["scoring_suits"]
    # the defender's deadwood never exceeds its own least deadwood (lay-offs only help)
    assert r.deadwood[1] <= M.min_deadwood(hands[1], "standard")
    least = M.min_deadwood(hands[0], "standard")
    assert r.deadwood[0] >= least
    if not closed and auto == "least_deadwood" and r.deadwood[0] > least:
        # only when every least-deadwood arrangement spoils all four suits
        assert all(G.spoiled_suits(a.melds, a.deadwood) == 0xF
                   for a in M.arrangements(hands[0], "standard"))


results_st = st.lists(
    st.one_of(
        st.builds(gin_for, st.integers(0, 1), st.integers(0, 60),
                  st.sampled_from(["", "S", "SH", "HDC", "SHDC", "D"])),
        st.just(VOID),
    ),
    max_size=25,
)


@settings(max_examples=200, deadline=None)
@given(results_st)
def test_match_fold_properties(results):
    opts = G.Options()
    # keep only the hands up to the end of the game
    kept: list[HandResult] = []
    for r in results:
        if G.score_match(kept, 2, opts).finished:
            break
        kept.append(r)
    m = G.score_match(kept, 2, opts)
    assert m == G.score_match(list(kept), 2, opts)  # folding twice gives the same
    prev = G.score_match([], 2, opts)
    for k in range(1, len(kept) + 1):
        cur = G.score_match(kept[:k], 2, opts)
        for s in "SHDC":
            for seat in (0, 1):
                assert cur.totals[seat][s] >= prev.totals[seat][s]
                if s in prev.extra["closed"]:
                    assert cur.totals[seat][s] == prev.totals[seat][s]
            if s in cur.extra["closed"]:
                w = cur.extra["suit_winner"][s]
                assert cur.totals[w][s] >= opts.target
        assert set(prev.extra["closed"]) <= set(cur.extra["closed"])
        prev = cur
    won = m.extra["suits_won"]
    if m.finished and m.extra["end_reason"] != "void_cap":
        assert max(won) >= 3 or len(m.extra["closed"]) == 4
    if m.winner is not None:
        assert won[m.winner] > won[1 - m.winner]


def test_end_kind_refuses_cards_outside_the_52_card_deck():
    # a co-op joker is discarded when drawn, never kept; other decks' cards never
    # belong to a Color Gin hand: end_kind answers None rather than raising
    opts = G.Options(coop=True, coop_jokers=True, knock_limit=90)
    nine = C.to_mask(SEED_GINNER.replace(" 6D", ""))
    assert G.end_kind(nine | 1 << C.JOKER1, opts) is None
    assert G.end_kind(nine | 1 << C.JOKER1, G.Options()) is None
    assert G.end_kind(nine | C.to_mask("R6"), G.Options()) is None
    assert G.end_kind(-C.to_mask(SEED_GINNER), G.Options()) is None
    assert G.end_kind(C.to_mask(SEED_GINNER), opts) == "gin"
