"""Gin Rummy scoring: every preset branch, lay-offs, match folds, the seed 004 example."""

from __future__ import annotations

import dataclasses
import doctest
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import cards as C
from companion import melds as M
from companion.games.gin import match as gin_match
from companion.games.gin import rules as gin
from companion.rules.base import HandResult

# Fixed hands used across the tests (deadwood worked out in the comments).
GIN_HAND = "AS 2S 3S 4S 9D 9H 9C KH QH JH"  # all melded
OPP_45 = "5C 6C 8D 8S 2D 2H 3C 4D 10S JS"  # 58 deadwood, nothing to lay off on GIN_HAND


def hand(text: str) -> int:
    return C.to_mask(text)


def test_doctests_pass() -> None:
    """The hands' examples (gin) and the match's (gin_match, offered by gin too)."""
    results = [doctest.testmod(m, optionflags=doctest.ELLIPSIS) for m in (gin, gin_match)]
    assert sum(r.attempted for r in results) > 10 and all(r.failed == 0 for r in results)


# ---------------------------------------------------------------- options


def test_presets_follow_rules_table() -> None:
    p = gin.PRESETS
    assert set(p) == {"gin_002", "gin_004", "pagat", "modern"}
    assert gin.DEFAULT_PRESET == "gin_004"
    assert p["gin_002"].knock_compare == "lt" and p["gin_004"].knock_compare == "le"
    assert p["gin_002"].stock_end == "showdown_at_2"
    assert {p[k].stock_end for k in ("gin_004", "pagat", "modern")} == {"void_at_2"}
    assert (p["pagat"].gin_bonus, p["pagat"].undercut_bonus, p["pagat"].box_bonus) == (20, 10, 20)
    assert p["modern"].big_gin_bonus == 31 and p["gin_004"].big_gin_bonus == 0
    assert p["gin_002"].game_bonus == 0 and p["gin_002"].box_bonus == 0
    assert [p[k].shutout for k in ("gin_002", "gin_004", "pagat", "modern")] == [
        "none", "double_total", "double_game_bonus", "double_points"]
    assert all(o.undercut_on_tie and not o.layoff_after_gin for o in p.values())


def test_aliases_and_overrides() -> None:
    assert gin.make_options("gin_pagat") == gin.PRESETS["pagat"]
    assert gin.make_options("gin_modern") == gin.PRESETS["modern"]
    o = gin.make_options("pagat", knock_limit=7, next_dealer="loser")
    assert (o.knock_limit, o.next_dealer, o.gin_bonus) == (7, "loser", 20)
    assert gin.make_options() == gin.PRESETS["gin_004"]


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"preset": "gin_999"}, "unknown gin preset 'gin_999'"),
    ({"knock_limt": 9}, "unknown gin option 'knock_limt'"),
    ({"stock_end": "void"}, "option stock_end must be one of void_at_2, showdown_at_2, got 'void'"),
    ({"gin_bonus": "25"}, "option gin_bonus must be a whole number"),
    ({"gin_bonus": -1}, "option gin_bonus must be a whole number"),
    ({"gin_bonus": 10 ** 400}, "option gin_bonus must be a whole number from 0 to 100000"),
    ({"undercut_on_tie": 1}, "option undercut_on_tie must be true or false"),
    ({"upcard": "1X"}, "not a card"),
])
def test_bad_options_name_the_problem(kwargs: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        gin.make_options(**kwargs)


def test_every_option_has_help_and_enumerations_have_choices() -> None:
    for f in dataclasses.fields(gin.Options):
        assert f.metadata.get("help"), f.name
        if f.name in ("knock_compare", "stock_end", "shutout", "next_dealer"):
            assert f.default in f.metadata["choices"]


# ---------------------------------------------------------------- knocks and lay-offs


def test_knock_with_chained_layoffs() -> None:
    # knocker: 5H 6H 7H | 9C 9D 9S | KS KH KD | 2C -> 2 deadwood
    # defender: AS 2S 3S | 4D 5D 6D | 8H 9H 10S QC -> 8H then 9H go onto the hearts run
    r = gin.score_hand(["5H 6H 7H 9C 9D 9S KS KH KD 2C",
                        "AS 2S 3S 4D 5D 6D 8H 9H 10S QC"], ender=0)
    assert r.kind == "knock" and r.winner == 0
    assert sorted(r.layoffs[1]) == ["8H", "9H"] and r.layoffs[0] == []
    assert r.deadwood == [2, 20]
    assert r.points == [18, 0]
    assert sorted(r.deadwood_cards[1]) == ["10S", "QC"]


def test_layoff_onto_set_and_run_ends() -> None:
    # defender lays 4H below the run and 9H... no: 9S onto the set of nines
    r = gin.score_hand(["5H 6H 7H 9C 9D 9H KS KH KD 2C",
                        "4H 9S AS 2S 3S 4D 5D 6D JC QC"], ender=0)
    assert sorted(r.layoffs[1]) == ["4H", "9S"]
    assert r.deadwood == [2, 20] and r.points == [18, 0]


def test_knocker_declares_the_arrangement_that_blocks_layoffs() -> None:
    # 2D 3D 4D 3H 3C: a diamond run (3H 3C dead) or a set of threes (2D 4D dead),
    # 7 deadwood either way. The defender's 5D 6D fit only the run, so the knocker
    # declares the set.
    knocker = "2D 3D 4D 3H 3C KS KH KC KD AS"
    defender = "5D 6D 8S 8H JC QC 7C 7S 2H 10H"
    assert len(M.arrangements(knocker)) >= 2
    r = gin.score_hand([knocker, defender], ender=0)
    assert r.layoffs[1] == []
    assert r.deadwood[1] == M.min_deadwood(defender)
    assert ["3H", "3D", "3C"] in [sorted(m, key=lambda n: "SHDC".index(n[-1])) for m in r.melds[0]]


def test_undercut_strict() -> None:
    # knocker 9 deadwood (4C 5S), defender after nothing laid off has 5 (AH 4H)
    r = gin.score_hand(["5H 6H 7H 9C 9D 9S KS KH KD 4C",
                        "AS 2S 3S 4D 5D 6D JC QC KC AH"], ender=0)
    assert r.deadwood == [4, 1]
    assert r.kind == "undercut" and r.winner == 1
    assert r.points == [0, 25 + 3]


TIE = ["5H 6H 7H 9C 9D 9S KS KH KD 3C", "AS 2S 3S 4D 5D 6D JC QC KC 3H"]  # 3 vs 3


@pytest.mark.parametrize(("preset", "points"), [
    ("gin_002", [0, 25]), ("gin_004", [0, 25]), ("pagat", [0, 10]), ("modern", [0, 25])])
def test_tie_is_an_undercut_in_every_preset(preset: str, points: list[int]) -> None:
    r = gin.score_hand(TIE, 0, preset)
    assert r.deadwood == [3, 3]
    assert r.kind == "undercut" and r.winner == 1 and r.points == points


def test_tie_without_undercut_on_tie_scores_nothing() -> None:
    r = gin.score_hand(TIE, 0, "gin_002", undercut_on_tie=False)
    assert r.kind == "knock" and r.winner is None and r.points == [0, 0]


def test_gin_002_knock_limit_is_strict() -> None:
    ten = ["AS 2S 3S 10C 9D 9H 9C KH QH JH", OPP_45]
    assert gin.score_hand(ten, 0, "gin_004").kind == "knock"
    with pytest.raises(ValueError, match="less than 10"):
        gin.score_hand(ten, 0, "gin_002")
    nine = ["KH QH JH 10H 9D 9S 9C AS 2C 6D", OPP_45]  # AS 2C 6D = 9
    r = gin.score_hand(nine, 0, "gin_002")
    assert r.kind == "knock" and r.deadwood[0] == 9


def test_knock_over_limit_raises_and_names_it() -> None:
    with pytest.raises(ValueError, match=r"seat 1 may not knock with 58 deadwood: deadwood must be 10 or less"):
        gin.score_hand([GIN_HAND, OPP_45], 1)
    with pytest.raises(ValueError, match="knock with 11"):
        gin.score_hand(["KH QH JH 10H 9D 9S 9C AS 2C 8H", OPP_45], 0, knock_limit=10)


# ---------------------------------------------------------------- gin and big gin


def test_gin_scores_bonus_plus_deadwood_and_forbids_layoffs() -> None:
    # the defender's 5S would lay off on AS-4S, but not after gin
    defender = "5S 6C 8D 8S 2D 2H 3C 4D 10S JS"
    r = gin.score_hand([GIN_HAND, defender], 0)
    dw = M.min_deadwood(defender)
    assert r.kind == "gin" and r.winner == 0 and r.layoffs == [[], []]
    assert r.points == [25 + dw, 0] and r.deadwood == [0, dw]
    r2 = gin.score_hand([GIN_HAND, defender], 0, layoff_after_gin=True)
    assert "5S" in r2.layoffs[1] and r2.deadwood[1] == dw - 5 and r2.points[0] == 25 + dw - 5
    p = gin.score_hand([GIN_HAND, defender], 0, "pagat")
    assert p.points == [20 + dw, 0]


def test_gin_is_never_undercut_unless_the_option_says() -> None:
    both_gin = [GIN_HAND, "5C 6C 7C 8D 8S 8H 2D 3D 4D 5D"]
    r = gin.score_hand(both_gin, 0)
    assert r.kind == "gin" and r.points == [25, 0]
    u = gin.score_hand(both_gin, 0, gin_can_be_undercut=True)
    assert u.kind == "undercut" and u.winner == 1 and u.points == [0, 25]


def test_big_gin() -> None:
    eleven = GIN_HAND + " 5S"
    r = gin.score_hand([eleven, OPP_45], 0, "modern")
    assert r.kind == "big_gin" and r.points == [31 + 58, 0]
    with pytest.raises(ValueError, match="no big gin"):
        gin.score_hand([eleven, OPP_45], 0, "gin_004")
    with pytest.raises(ValueError, match="all 11 meld"):
        gin.score_hand([GIN_HAND + " 7C", OPP_45], 0, "modern")


# ---------------------------------------------------------------- stock end


def test_void_at_two_cards() -> None:
    r = gin.score_hand([GIN_HAND.replace("JH", "7D"), OPP_45], None)
    assert r.kind == "void" and r.winner is None and r.points == [0, 0]
    assert gin.score_hand([[], []], None).kind == "void"


def test_showdown_in_gin_002() -> None:
    a = "AS 2S 3S 10C 9D 9H 9C KH QH JH"  # 10
    r = gin.score_hand([a, OPP_45], None, "gin_002")
    assert r.kind == "showdown" and r.winner == 0 and r.points == [48, 0]
    assert r.layoffs == [[], []]
    g = gin.score_hand([OPP_45, GIN_HAND], None, "gin_002")
    assert g.winner == 1 and g.points == [0, 25 + 58]
    tie = gin.score_hand(TIE, None, "gin_002")
    assert tie.kind == "showdown" and tie.winner is None and tie.points == [0, 0]
    with pytest.raises(ValueError, match="each hand holds 10"):
        gin.score_hand([GIN_HAND + " 5S", OPP_45], None, "gin_002")


# ---------------------------------------------------------------- Oklahoma


def test_oklahoma_knock_limit_from_upcard() -> None:
    k7 = ["AS 2S 3S 7C 9D 9H 9C KH QH JH", OPP_45]  # 7 deadwood
    assert gin.score_hand(k7, 0, oklahoma=True, upcard="7D").kind == "knock"
    with pytest.raises(ValueError, match="upcard 6D"):
        gin.score_hand(k7, 0, oklahoma=True, upcard="6D")
    with pytest.raises(ValueError, match="only gin"):
        gin.score_hand(k7, 0, oklahoma=True, upcard="AH")
    assert gin.score_hand([GIN_HAND, OPP_45], 0, oklahoma=True, upcard="AH").kind == "gin"
    assert gin.score_hand(k7, 0, oklahoma=True, upcard="KD").kind == "knock"
    with pytest.raises(ValueError, match="needs the hand's upcard"):
        gin.score_hand(k7, 0, oklahoma=True)


def test_oklahoma_spade_doubling() -> None:
    k7 = ["AS 2S 3S 7C 9D 9H 9C KH QH JH", OPP_45]
    plain = gin.score_hand(k7, 0, oklahoma=True, upcard="8D", oklahoma_spades_double=True)
    spade = gin.score_hand(k7, 0, oklahoma=True, upcard="8S", oklahoma_spades_double=True)
    off = gin.score_hand(k7, 0, oklahoma=True, upcard="8S")
    assert plain.points == off.points == [51, 0]
    assert spade.points == [102, 0]


def test_end_kind() -> None:
    o = gin.make_options()
    assert gin.end_kind(hand(GIN_HAND), o) == "gin"
    assert gin.end_kind(hand(GIN_HAND + " 5S"), o) is None
    assert gin.end_kind(hand(GIN_HAND + " 5S"), gin.make_options("modern")) == "big_gin"
    assert gin.end_kind(hand(OPP_45), o) is None
    assert gin.end_kind(hand("AS 2S 3S"), o) is None
    ok = gin.make_options(oklahoma=True, upcard="3D")
    assert gin.end_kind(hand("AS 2S 3S 3C 9D 9H 9C KH QH JH"), ok) == "knock"
    assert gin.end_kind(hand("AS 2S 3S 4C 9D 9H 9C KH QH JH"), ok) is None


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(("hands", "ender", "words"), [
    ([GIN_HAND, GIN_HAND], 0, "seat 1: AS, 2S, 3S, 4S, 9H, JH, QH, KH, 9D, 9C is already"),
    ([GIN_HAND, "5C 6C 8D"], 0, "seat 1: 3 cards; a defender holds 10"),
    ([GIN_HAND.replace(" JH", ""), OPP_45], 0, "seat 0: 9 cards"),
    ([GIN_HAND, OPP_45.replace("5C", "ZZ")], 0, "seat 1: not a card: 'ZZ'"),
    ([GIN_HAND, OPP_45.replace("5C", "JK")], 0, "seat 1: not a card of the standard deck: JK1"),
    ([GIN_HAND], 0, "2 hands"),
    ([GIN_HAND, OPP_45], 2, "ender must be seat 0 or 1"),
])
def test_bad_hands(hands: list[str], ender: int, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        gin.score_hand(hands, ender)


# ---------------------------------------------------------------- match


def _gin_win(seat: int, dead: str, options: gin.Options | None = None) -> HandResult:
    """A real gin hand by ``seat``; the loser holds 9 melded cards and ``dead``."""
    loser = "5C 6C 7C 8D 8S 8H 2D 3D 4D " + dead
    hands = [GIN_HAND, loser] if seat == 0 else [loser, GIN_HAND]
    return gin.score_hand(hands, seat, options=options or gin.make_options())


def test_seed_004_end_of_game_520_as_a_fold() -> None:
    # four gins with the loser holding 2, 2, 3 and 3 deadwood: 27 + 27 + 28 + 28 = 110
    results = [_gin_win(0, c) for c in ("2H", "2C", "3H", "3C")]
    assert [r.points[0] for r in results] == [27, 27, 28, 28]
    o = gin.make_options("gin_004")
    assert not gin.score_match(results[:3], 2, o).finished
    m = gin.score_match(results, 2, o)
    assert m.finished and m.winner == 0 and m.totals == [110, 0] and m.hands_won == [4, 0]
    assert m.final == [520, 0]  # (110 + 100) x 2 + 4 x 25
    kinds = [b["kind"] for b in m.bonuses]
    assert kinds == ["game", "shutout", "box"]


@pytest.mark.parametrize(("preset", "dead", "shut_final", "plain_final"), [
    # 27 + 27 + 28 + 28 = 110 with gin worth 25
    ("gin_002", "2H 2C 3H 3C", 110, 110),
    ("gin_004", "2H 2C 3H 3C", (110 + 100) * 2 + 4 * 25, 110 + 100 + 4 * 25),
    # gin worth 20: 22 + 22 + 23 + 23 + 30 = 120
    ("pagat", "2H 2C 3H 3C KS", 120 + 200 + 5 * 20, 120 + 100 + 5 * 20),
    ("modern", "2H 2C 3H 3C", 110 * 2 + 100 + 4 * 25, 110 + 100 + 4 * 25),
])
def test_shutout_rule_per_preset(preset: str, dead: str, shut_final: int,
                                 plain_final: int) -> None:
    o = gin.make_options(preset)
    wins = [_gin_win(0, c, o) for c in dead.split()]
    m = gin.score_match(wins, 2, o)
    assert m.finished and m.winner == 0 and m.final == [shut_final, 0]
    assert not gin.score_match(wins[:-1], 2, o).finished
    loser_win = _gin_win(1, "2H", o)
    m2 = gin.score_match([loser_win] + wins, 2, o)
    assert m2.finished and m2.winner == 0 and m2.final[0] == plain_final
    assert m2.hands_won == [len(wins), 1]
    assert m2.final[1] == loser_win.points[1] + o.box_bonus


def test_match_counts_void_hands_as_nothing_and_rejects_hands_after_the_end() -> None:
    o = gin.make_options()
    void = gin.score_hand([[], []], None, options=o)
    results = [void] + [_gin_win(0, c) for c in ("2H", "2C", "3H", "3C")]
    m = gin.score_match(results, 2, o)
    assert m.finished and m.hands == 5 and m.hands_won == [4, 0] and m.final == [520, 0]
    with pytest.raises(ValueError, match="after the match ended"):
        gin.score_match(results + [void], 2, o)
    with pytest.raises(ValueError, match="2 players"):
        gin.score_match(results, 3, o)


def test_target_option() -> None:
    results = [_gin_win(0, "2H")]
    assert gin.score_match(results, 2, gin.make_options(game_target=27)).finished
    assert not gin.score_match(results, 2, gin.make_options(game_target=28)).finished


def test_next_dealer() -> None:
    w1 = _gin_win(1, "2H")
    void = gin.score_hand([[], []], None)
    for rule, expect in (("winner", 1), ("loser", 0), ("alternate", 1)):
        o = gin.make_options(next_dealer=rule)
        assert gin.next_dealer(w1, 0, 2, o) == expect
        assert gin.next_dealer(void, 0, 2, o) == 0
    assert gin.next_dealer(w1, 1, 2, gin.make_options(next_dealer="alternate")) == 0


# ---------------------------------------------------------------- properties


@st.composite
def deals(draw: st.DrawFn) -> tuple[int, int]:
    seed = draw(st.integers(0, 2**32))
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return C.cards_mask(deck[:10]), C.cards_mask(deck[10:20])


@settings(max_examples=150, deadline=None)
@given(deals(), st.sampled_from(sorted(gin.PRESETS)))
def test_scoring_properties(deal: tuple[int, int], preset: str) -> None:
    a, b = deal
    o = gin.make_options(preset)
    da, db = M.min_deadwood(a), M.min_deadwood(b)
    kind = gin.end_kind(a, o)
    if kind is None:
        with pytest.raises(ValueError, match="may not knock"):
            gin.score_hand([a, b], 0, options=o)
        return
    r = gin.score_hand([a, b], 0, options=o)
    assert r.deadwood[0] == da
    assert r.deadwood[1] <= db  # lay-offs never add deadwood
    laid = C.to_mask(r.layoffs[1]) if r.layoffs[1] else 0
    assert laid & ~b == 0
    assert all(p >= 0 for p in r.points) and min(r.points) == 0
    if r.kind == "gin":
        assert r.points[0] == o.gin_bonus + db
    elif r.kind == "knock":
        assert r.points[0] == r.deadwood[1] - da > 0
    else:
        assert r.kind == "undercut" and r.deadwood[1] <= da
        assert r.points[1] == o.undercut_bonus + da - r.deadwood[1]
    m = gin.score_match([r, r], 2, o)
    assert m.totals == [2 * r.points[0], 2 * r.points[1]]  # type: ignore[operator]


# ---------------------------------------------------------------- deadwood-only entry


@settings(max_examples=100, deadline=None)
@given(deals(), st.sampled_from(sorted(gin.PRESETS)), st.booleans())
def test_score_from_deadwood_agrees_with_score_hand(deal: tuple[int, int], preset: str,
                                               tie: bool) -> None:
    a, b = deal
    o = gin.make_options(preset, undercut_on_tie=tie)
    if gin.end_kind(a, o) is None:
        return
    full = gin.score_hand([a, b], 0, options=o)
    quick = gin.score_from_deadwood(full.deadwood, 0, options=o)
    assert (quick.kind, quick.winner, quick.points) == (full.kind, full.winner, full.points)
    end = gin.score_hand([a, b], None, options=o)
    quick_end = gin.score_from_deadwood(end.deadwood, None, options=o)
    assert (quick_end.kind, quick_end.winner, quick_end.points) == (end.kind, end.winner, end.points)


def test_score_from_deadwood_rules_and_errors() -> None:
    assert gin.score_from_deadwood([0, 0], 1, "modern", big_gin=True).points == [0, 31]
    assert gin.score_from_deadwood([0, 12], 0, gin_can_be_undercut=True).kind == "gin"
    assert gin.score_from_deadwood([0, 0], 0, gin_can_be_undercut=True).kind == "undercut"
    assert gin.score_from_deadwood([7, 20], 0, oklahoma=True, upcard="7S",
                              oklahoma_spades_double=True).points == [26, 0]
    with pytest.raises(ValueError, match="upcard 6S"):
        gin.score_from_deadwood([7, 20], 0, oklahoma=True, upcard="6S")
    with pytest.raises(ValueError, match="preset with big gin"):
        gin.score_from_deadwood([0, 5], 0, big_gin=True)
    with pytest.raises(ValueError, match="2 numbers"):
        gin.score_from_deadwood([1, 2, 3], 0)
    with pytest.raises(ValueError, match="seat 1: deadwood -4"):
        gin.score_from_deadwood([1, -4], 0)
    with pytest.raises(ValueError, match="ender must be seat 0 or 1"):
        gin.score_from_deadwood([1, 4], 5)


def test_options_built_directly_are_checked_too() -> None:
    assert gin.Options(upcard="10h").upcard == "10H"
    with pytest.raises(ValueError, match="option shutout must be one of"):
        gin.Options(shutout="x")
    with pytest.raises(ValueError, match="option next_dealer"):
        dataclasses.replace(gin.Options(), next_dealer="me")


def test_end_kind_refuses_foreign_cards_and_deal_size() -> None:
    o = gin.make_options()
    assert gin.end_kind(hand(GIN_HAND) | 1 << C.JOKER1, o) is None  # 11 with a joker
    assert gin.end_kind(hand(GIN_HAND.replace("JH", "JK")), o) is None
    assert gin.deal_size(2, o) == 10
    with pytest.raises(ValueError, match="2 players, not 3"):
        gin.deal_size(3, o)


def test_match_refuses_another_games_result():
    from companion.rules.base import HandResult

    stray = HandResult("ginski", "knock", 0, 0, [12, 0], [3, 15])
    with pytest.raises(ValueError, match="hand 1 is a ginski result, not Gin Rummy"):
        gin.score_match([stray], 2, gin.make_options())


@pytest.mark.parametrize("preset", [["gin_pagat"], {}, 5])
def test_preset_that_is_not_a_name_is_a_value_error(preset: object) -> None:
    # a list or dict preset used to raise TypeError("unhashable type: 'list'")
    from companion.games.ginski import rules as ginski
    from companion.games.color_gin import rules as color_gin

    for make in (gin.make_options, color_gin.make_options, ginski.make_options):
        with pytest.raises(ValueError, match="preset is a name"):
            make(preset)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="preset is a name"):
        gin.score_hand(GIN_HANDS_TEXT, 0, preset)  # type: ignore[arg-type]


@pytest.mark.parametrize("hands", [None, 1.5, object(), [None, "5C 6C 8D 8S 2D 2H 3C 4D 10S JS"]])
def test_hands_of_the_wrong_type_are_a_value_error(hands: object) -> None:
    # used to raise TypeError ("object of type 'NoneType' has no len()")
    with pytest.raises(ValueError):
        gin.score_hand(hands, 0)  # type: ignore[arg-type]


GIN_HANDS_TEXT = ["AS 2S 3S 4S 9D 9H 9C KH QH JH", "5C 6C 8D 8S 2D 2H 3C 4D 10S JS"]
