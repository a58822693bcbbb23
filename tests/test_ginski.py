"""Ginski: round scoring (Ginski, Big Ginski, undercuts, lay-offs) and the match to 100."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import cards as C
from companion import melds as M
from companion.games.ginski import rules as G
from companion.rules.base import HandResult

# The seed's first example: ender 8, the others 15 and 20.
ENDER_8 = "R1 R2 R3 B5 B6 B7 G9 G10 G11 Y8"
OPP_15 = "R4 B4 G4 P10 P11 P12 Y1 G2 P5 R7"
OPP_20 = "Y4 Y5 Y6 Y7 G6 G7 G8 P13 B1 R6"
# The seed's undercut: ender 9, undercutter 5.
ENDER_9 = "R1 R2 R3 B5 B6 B7 G9 G10 G11 Y9"
UNDER_5 = "P9 P10 P11 P12 R4 B4 G4 Y1 G2 B2"
UNDER_5B = "Y10 Y11 Y12 Y13 R8 B8 G8 P1 P3 G1"
# All ten melded (B5-B8 run), and an eleventh card that keeps it all melded.
GINSKI = "R1 R2 R3 B5 B6 B7 B8 G9 G10 G11"


def test_seed_example_15_plus_20_minus_8_is_27():
    r = G.score_hand([ENDER_8, OPP_15, OPP_20], 0)
    assert (r.kind, r.winner, r.ender) == ("knock", 0, 0)
    assert r.deadwood == [8, 15, 20]
    assert r.points == [27, 0, 0]
    assert r.extra["undercutter"] is None


def test_seed_undercut_25_plus_9_plus_20_is_54():
    r = G.score_hand([ENDER_9, OPP_20, UNDER_5], 0)
    assert (r.kind, r.winner) == ("undercut", 2)
    assert r.deadwood == [9, 20, 5]
    assert r.points == [0, 0, 54]
    assert r.extra["undercutter"] == 2


def test_ginski_scores_25_plus_opponents_deadwood():
    r = G.score_hand([OPP_15, GINSKI, OPP_20], 1)
    assert (r.kind, r.winner, r.points) == ("gin", 1, [0, 60, 0])
    assert r.deadwood_cards[1] == []


def test_big_ginski_scores_31_plus_and_keeps_eleven_cards():
    r = G.score_hand([GINSKI + " G12", OPP_15, OPP_20], 0)
    assert (r.kind, r.points) == ("big_gin", [66, 0, 0])
    r = G.score_hand([GINSKI + " G12", OPP_15, OPP_20], 0, big_ginski_bonus=50)
    assert r.points[0] == 85
    with pytest.raises(ValueError, match="only a Big Ginski, but 21 points of them are unmelded"):
        G.score_hand([ENDER_8 + " Y13", OPP_15, OPP_20], 0)


def test_ginski_is_never_undercut():
    other_gin = "Y9 Y10 Y11 Y12 P6 P7 P8 R10 B10 P10"  # all melded as well
    assert M.min_deadwood(other_gin, "rumski") == 0
    for tie in (False, True):
        r = G.score_hand([GINSKI, other_gin, OPP_20], 0, undercut_on_tie=tie)
        assert (r.kind, r.winner, r.points) == ("gin", 0, [45, 0, 0])


def test_equal_deadwood_undercuts_only_with_the_option():
    equal = "P9 P10 P11 P12 R4 B4 G4 Y1 G2 P6"  # 9, like the ender
    r = G.score_hand([ENDER_9, OPP_20, equal], 0)
    assert r.deadwood == [9, 20, 9]
    assert (r.kind, r.winner, r.points) == ("knock", 0, [20 + 9 - 9, 0, 0])
    r = G.score_hand([ENDER_9, OPP_20, equal], 0, undercut_on_tie=True)
    assert (r.kind, r.winner, r.points) == ("undercut", 2, [0, 0, 25 + 9 + 20])


def test_only_the_lowest_opponent_undercuts():
    seven = "Y10 Y11 Y12 Y13 R8 B8 G8 P1 P3 G3"  # 7: both undercut the ender's 9
    r0 = G.score_hand([ENDER_9, UNDER_5, seven], 0)
    assert r0.deadwood == [9, 5, 7]
    assert (r0.kind, r0.winner, r0.extra["undercutter"]) == ("undercut", 1, 1)
    assert r0.extra["undercutters"] == [1]
    assert r0.points == [0, 25 + 9 + 7, 0]


@pytest.mark.parametrize(
    "rule, points",
    [
        ("first_in_turn_order_after_ender", [0, 0, 39]),
        ("split", [19, 0, 19]),
        ("both_full", [39, 0, 39]),
    ],
)
def test_tied_undercutters_follow_undercut_tie(rule, points):
    # The ender is seat 1, so seat 2 comes first after it, then seat 0.
    r = G.score_hand([UNDER_5B, ENDER_9, UNDER_5], 1, undercut_tie=rule)
    assert r.deadwood == [5, 9, 5]
    assert (r.kind, r.winner) == ("undercut", 2)
    assert r.points == points
    assert r.extra["undercutter"] == 2
    assert r.extra["undercutters"] == ([2] if rule.startswith("first") else [2, 0])


def test_layoffs_option_chains_across_opponents_in_turn_order():
    s1 = "R4 Y3 G2 P10 P11 P12 B10 B11 B12 P5"  # 14, 10 after laying off R4
    s2 = "R5 Y4 Y5 Y6 G6 G7 G8 P13 B1 R7"  # 26, 21 after laying off R5 onto R1-R4
    plain = G.score_hand([ENDER_8, s1, s2], 0)
    assert plain.deadwood == [8, 14, 26] and plain.points == [32, 0, 0]
    assert plain.layoffs == [[], [], []]
    laid = G.score_hand([ENDER_8, s1, s2], 0, layoffs="onto_ender_melds")
    assert laid.layoffs == [[], ["R4"], ["R5"]]
    assert laid.deadwood == [8, 10, 21]
    assert laid.points == [23, 0, 0]
    # the chain follows turn order: with the ender at seat 2, seat 0 lays off first
    laid = G.score_hand([s1, s2, ENDER_8], 2, layoffs="onto_ender_melds")
    assert laid.layoffs == [["R4"], ["R5"], []]
    laid = G.score_hand([s2, s1, ENDER_8], 2, layoffs="onto_ender_melds")
    assert laid.layoffs == [[], ["R4"], []]  # R5 came before R4 was there
    assert laid.deadwood == [26, 10, 8]


def test_no_layoffs_after_a_ginski():
    # B9 would extend the B5-B8 run
    holder = "B9 R4 G4 Y4 P10 P11 P12 Y1 G2 P5"
    r = G.score_hand([GINSKI, holder, "Y5 Y6 Y7 G6 G7 G8 P13 B1 R6 R7"], 0,
                     layoffs="onto_ender_melds")
    assert r.kind == "gin" and r.layoffs == [[], [], []]
    assert r.deadwood[1] == 9 + 1 + 2 + 5


def test_wild_cards_count_20_and_meld_once():
    with_wild = ENDER_8.replace("R2", "W1")
    r = G.score_hand([with_wild, OPP_15, OPP_20], 0)
    assert r.deadwood[0] == 8
    assert ["R1", "W1=R2", "R3"] in r.melds[0]
    loose = OPP_20.replace("B1", "W2")  # the wild joins the yellow run: P13 R6 left
    assert G.score_hand([ENDER_8, OPP_15, loose], 0).deadwood[2] == 13 + 6
    # a wild with no two naturals to meld with counts 20
    assert M.min_deadwood("R1 R5 R9 R13 B3 B7 B11 G2 G6 W2", "rumski") == 57 + 20


def test_two_and_four_players():
    two = G.make_options("ginski_2p")
    assert G.deal_size(2, two) == 12
    e = ENDER_8 + " Y12 P1"  # 12 cards, 21 deadwood: too many
    with pytest.raises(ValueError, match="deadwood 21 is above the limit 13"):
        G.score_hand([e, OPP_15 + " Y11 Y13"], 0, options=two)
    e = GINSKI + " B9 G12"
    r = G.score_hand([e, OPP_15 + " Y10 Y13"], 0, options=two)
    assert (r.kind, r.points) == ("gin", [25 + 15 + 23, 0])
    r = G.score_hand([e + " G13", OPP_15 + " Y10 Y13"], 0, options=two)
    assert (r.kind, r.points) == ("big_gin", [31 + 15 + 23, 0])
    four = G.make_options("ginski_4p")
    r = G.score_hand([ENDER_8, OPP_15, OPP_20, "Y9 Y10 Y11 B9 B10 B11 P1 P2 P3 R13"], 0,
                     options=four)
    assert r.deadwood == [8, 15, 20, 13] and r.points == [40, 0, 0, 0]


def test_end_limit_and_end_kind():
    opts = G.Options()
    assert G.end_kind(C.to_mask(ENDER_8), opts) == "knock"
    assert G.end_kind(C.to_mask(GINSKI), opts) == "gin"
    assert G.end_kind(C.to_mask(GINSKI + " G12"), opts) == "big_gin"
    assert G.end_kind(C.to_mask(ENDER_8 + " Y13"), opts) is None
    assert G.end_kind(C.to_mask(OPP_15), opts) is None
    assert G.end_kind(C.to_mask(OPP_15), G.Options(end_limit=15)) == "knock"
    assert G.end_kind(C.to_mask("5H 6H 7H"), opts) is None


# ---------------------------------------------------------------------------
# Bad input


@pytest.mark.parametrize(
    "hands, ender, kwargs, message",
    [
        ([OPP_15, ENDER_8, OPP_20], 0, {}, "seat 0 may not end the round: deadwood 15 is above the limit 13"),
        ([ENDER_8, OPP_15], 0, {}, "expected 3 hands, got 2"),
        ([ENDER_8 + " Y13 Y12", OPP_15, OPP_20], 0, {}, "seat 0 holds 12 cards; expected 10 kept"),
        ([ENDER_8, OPP_15 + " Y13", OPP_20], 0, {}, "seat 1 holds 11 cards; expected 10"),
        ([ENDER_8, OPP_15.replace("P5", "R1"), OPP_20], 0, {}, "R1 is already in another hand"),
        ([ENDER_8, "R4 R4 G4 P10 P11 P12 Y1 G2 P5 R7", OPP_20], 0, {}, "duplicate card"),
        ([ENDER_8.replace("Y8", "8H"), OPP_15, OPP_20], 0, {}, "8H is not a Rumski card"),
        ([ENDER_8, OPP_15, OPP_20], 3, {}, "ender must be a seat 0..2"),
        ([ENDER_8, OPP_15, OPP_20], True, {}, "ender must be a seat"),
        ([ENDER_8, OPP_15, OPP_20], 0, {"undercut_tie": "coin"}, "undercut_tie must be one of .*, got 'coin'"),
        ([ENDER_8, OPP_15, OPP_20], 0, {"players": 5}, "players must be one of 2, 3, 4, got 5"),
        ([ENDER_8, OPP_15, OPP_20], 0, {"wilds": 0}, "unknown ginski option 'wilds'"),
        ([ENDER_8, OPP_15, OPP_20], 0, {"deal": 30}, "leave no stock"),
        ([ENDER_8, OPP_15, "Y4 Y5"], None, {}, "seat 2 holds 2 cards; expected 10"),
    ],
)
def test_bad_input_raises_value_error_naming_it(hands, ender, kwargs, message):
    with pytest.raises(ValueError, match=message):
        G.score_hand(hands, ender, **kwargs)


def test_presets_options_and_metadata():
    with pytest.raises(ValueError, match="unknown ginski preset 'rumski'"):
        G.make_options("rumski")
    with pytest.raises(ValueError, match="either a preset or options"):
        G.score_hand([ENDER_8, OPP_15, OPP_20], 0, "ginski", options=G.Options())
    r = G.score_hand([ENDER_8, OPP_15, OPP_20], 0, options=G.Options(), ginski_bonus=0)
    assert r.points == [27, 0, 0]
    for f in dataclasses.fields(G.Options):
        assert f.metadata.get("help"), f.name
    names = {f.name: f.metadata.get("choices") for f in dataclasses.fields(G.Options)}
    assert names["layoffs"] == ("none", "onto_ender_melds")
    assert names["players"] == (2, 3, 4)
    assert G.PRESETS[G.DEFAULT_PRESET] == G.Options()


def test_void_hand_and_dealer():
    r = G.score_hand([ENDER_8, OPP_15, OPP_20], None)
    assert (r.kind, r.winner, r.points, r.deadwood) == ("void", None, [0, 0, 0], [8, 15, 20])
    assert G.score_hand([[], [], []], None).points == [0, 0, 0]
    assert G.score_hand([ENDER_8, [], OPP_20], None).deadwood == [8, 0, 20]
    opts = G.Options()
    assert G.next_dealer(r, 2, 3, opts) == 2
    assert G.next_dealer(r, 2, 3, G.Options(stock_end="pass_left")) == 0
    won = G.score_hand([ENDER_8, OPP_15, OPP_20], 0)
    assert G.next_dealer(won, 2, 3, opts) == 0 and G.next_dealer(won, 0, 3, opts) == 1


def test_deadwood_only_entry():
    assert G.score_from_deadwood([8, 15, 20], 0).points == [27, 0, 0]
    r = G.score_from_deadwood([5, 9, 5], 1, undercut_tie="split")
    assert (r.kind, r.winner, r.points) == ("undercut", 2, [19, 0, 19])
    assert G.score_from_deadwood([0, 30, 12], 0).points == [25 + 42, 0, 0]
    r = G.score_from_deadwood([0, 30, 12], 0, big_gin=True)
    assert (r.kind, r.points) == ("big_gin", [31 + 42, 0, 0])
    assert G.score_from_deadwood([3, 40, 1, 2], None, "ginski_4p").kind == "void"
    for args, kwargs, message in [
        (([14, 20, 30], 0), {}, "deadwood 14 is above the limit 13"),
        (([4, 20], 0), {}, "expected 3 deadwood counts, got 2"),
        (([4, -1, 3], 0), {}, "seat 1: deadwood must be a whole number"),
        (([4, 2, 3], 0), {"big_gin": True}, "Big Ginski melds every card"),
        (([4, 2, 3], 5), {}, "ender must be a seat 0..2"),
        (("4 2 3", 0), {}, "one count per seat"),
    ]:
        with pytest.raises(ValueError, match=message):
            G.score_from_deadwood(*args, **kwargs)


# ---------------------------------------------------------------------------
# Match


def won(seat: int, pts: int, players: int = 3) -> HandResult:
    p = [0] * players
    p[seat] = pts
    return HandResult("ginski", "knock", seat, seat, p, [0] * players)


def test_match_first_to_100_wins():
    opts = G.Options()
    m = G.score_match([won(0, 60), won(1, 99), won(0, 39)], 3, opts)
    assert m.totals == [99, 99, 0] and not m.finished
    m = G.score_match([won(0, 60), won(1, 99), won(2, 30), won(1, 1)], 3, opts)
    assert m.finished and m.winner == 1 and m.final == [60, 100, 30]
    assert m.hands_won == [1, 2, 1]
    with pytest.raises(ValueError, match="round 5 comes after the end of the game"):
        G.score_match([won(0, 60), won(1, 99), won(2, 30), won(1, 1), won(0, 5)], 3, opts)


def test_match_several_cross_highest_wins_tie_plays_on():
    both = HandResult("ginski", "undercut", 1, 0, [39, 0, 39], [5, 9, 5])
    opts = G.Options(undercut_tie="both_full")
    m = G.score_match([won(0, 70), won(2, 65), both], 3, opts)
    assert m.totals == [109, 0, 104] and m.finished and m.winner == 0
    m = G.score_match([won(0, 70), won(2, 70), both], 3, opts)
    assert m.totals == [109, 0, 109] and not m.finished  # tie at the top: play on
    m = G.score_match([won(0, 70), won(2, 70), both, won(1, 3)], 3, opts)
    assert not m.finished
    m = G.score_match([won(0, 70), won(2, 70), both, won(2, 3)], 3, opts)
    assert m.finished and m.winner == 2


def test_match_real_rounds_and_bad_results():
    r = G.score_hand([ENDER_9, OPP_20, UNDER_5], 0)
    m = G.score_match([r, r], 3, G.Options())
    assert m.totals == [0, 0, 108] and m.finished and m.winner == 2
    with pytest.raises(ValueError, match="color_gin result"):
        G.score_match([HandResult("color_gin", "void", None, None, [{}, {}], [0, 0])], 2, G.Options())
    with pytest.raises(ValueError, match="points for 3 seats, not 4"):
        G.score_match([r], 4, G.make_options("ginski_4p"))
    with pytest.raises(ValueError, match="2 to 4 players, not 5"):
        G.score_match([], 5, G.Options())


# ---------------------------------------------------------------------------
# Properties on real deals

NATURALS = C.mask_cards(C.RUMSKI_NATURALS)


@st.composite
def rounds(draw):
    """An ender from a narrow window of ranks (with a wild now and then) and two
    opponents from the rest of the deck."""
    lo = draw(st.integers(0, 10))
    window = [c for c in NATURALS if lo <= C.rank(c) - 1 < lo + 3]
    if draw(st.booleans()):
        window += list(C.WILDS[:1])
    ender = draw(st.permutations(window))[:10]
    rest = [c for c in C.mask_cards(C.RUMSKI_DECK) if c not in ender]
    rest = draw(st.permutations(rest))
    return [ender, rest[:10], rest[10:20]]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds(), st.booleans(), st.sampled_from(["none", "onto_ender_melds"]))
def test_round_properties(hands, on_tie, layoffs):
    opts = G.Options(undercut_on_tie=on_tie, layoffs=layoffs)
    kind = G.end_kind(C.cards_mask(hands[0]), opts)
    if kind is None:
        with pytest.raises(ValueError, match="may not end the round"):
            G.score_hand(hands, 0, options=opts)
        return
    r = G.score_hand(hands, 0, options=opts)
    scoring = [s for s, p in enumerate(r.points) if p]
    assert len(scoring) <= 1  # only one seat scores in a round
    assert all(p >= 0 for p in r.points)
    assert r.winner is not None
    assert r.points[r.winner] == max(r.points)
    dw = r.deadwood
    if kind == "gin":
        assert r.kind == "gin" and r.points[0] == 25 + dw[1] + dw[2]
    elif r.kind == "undercut":
        u = r.extra["undercutter"]
        assert u == r.winner != 0 and dw[u] == min(dw[1], dw[2])
        assert dw[u] < dw[0] or (on_tie and dw[u] == dw[0])
        assert r.points[u] == 25 + sum(dw) - dw[u]
    else:
        assert r.kind == "knock" and r.points[0] == dw[1] + dw[2] - dw[0]
        assert min(dw[1], dw[2]) > dw[0] or (not on_tie and min(dw[1], dw[2]) == dw[0])
    if layoffs == "none":
        assert dw == [M.min_deadwood(h, "rumski") for h in hands]
    quick = G.score_from_deadwood(dw, 0, options=opts, big_gin=r.kind == "big_gin")
    assert (quick.kind, quick.winner, quick.points) == (r.kind, r.winner, r.points)
    m = G.score_match([r], 3, opts)
    assert m == G.score_match([r], 3, opts)  # folding twice gives the same
    assert m.totals == r.points and m.finished == (max(r.points) >= opts.target)
