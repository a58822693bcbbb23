"""Gin-Go typed actions and events (companion/games/gingo/rules/actions.py, events.py): the JSON
edge reads and writes the contract-v1 shapes, typed and JSON play give the same game,
bare jokers are bound in one place, and a chip shortfall carries structured details."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion import cards as C
from companion.games.gingo.play import GingoPlay, bot_move
from companion.games.gingo.rules import (
    ANY_JOKER, GingoChipShortfall, GingoError, GingoInputError, GoOut, JokerLay, Meld, Take, action_from_dict,
    new_game,
)
from companion.games.gingo.rules.actions import PLAY_KEYS, TABLE_KEYS
from companion.games.gingo.rules.reading import bind_jokers, read_cards

ROWS = {"1": "SHDC", "2": "SHDC"}


def cs(text: str) -> tuple[int, ...]:
    return tuple(C.parse_cards(text))


@pytest.mark.parametrize("action", [
    {"type": "setup", "dealer": 1, "reveal": ["5H", "JK1", "2S", "KC", "9D"], "format": "secrecy",
     "secret": {"1": "SHDC", "2": "CDHS"}},
    {"type": "setup", "dealer": 0, "suit_rows": {"1": "SHDC", "2": "HSCD"}, "board": "." * 52},
    {"type": "meld", "seat": 0, "cards": ["JK1", "7H", "9H"], "designations": {"JK1": "8H"}, "skip": ["9H"]},
    {"type": "hit", "seat": 1, "meld": 3, "cards": ["5H"]},
    {"type": "go_out", "seat": 0, "captured": {"1": ["KS", "JK2"]}, "jokers": {"JK2": {"meld": 3, "as": "6S"}},
     "skip": ["KS"]},
    {"type": "stock_exhausted"},
    {"type": "new_hand"},
])
def test_table_actions_round_trip(action: dict[str, Any]) -> None:
    typed = action_from_dict(action, TABLE_KEYS)
    assert typed.to_dict() == action
    assert action_from_dict(typed.to_dict(), TABLE_KEYS) == typed


@pytest.mark.parametrize("action", [
    {"type": "draw", "seat": 1},
    {"type": "take", "seat": 1, "card": "9H", "meld": {"cards": ["7H", "8H", "9H"]}},
    {"type": "take", "seat": 1, "card": "QH", "hits": [{"meld": 2, "cards": ["7S"]}, {"meld": 1, "cards": ["5D"]}]},
    {"type": "discard", "seat": 0, "card": "QC"},
    {"type": "discard", "seat": 0, "card": "QC", "jokers": {"JK1": {"meld": 1, "as": "4S"}}, "skip": ["KH"]},
    {"type": "setup", "format": "suit_for_suit"},
])
def test_full_play_actions_round_trip(action: dict[str, Any]) -> None:
    typed = action_from_dict(action, PLAY_KEYS)
    assert typed.to_dict() == action


def test_typed_values_hold_card_ints() -> None:
    a = action_from_dict({"type": "go_out", "seat": 0, "captured": {"1": ["KS", "JK"]},
                          "jokers": {"JK2": {"meld": 3, "as": "6S"}}}, TABLE_KEYS)
    assert a == GoOut(0, ((1, (C.parse_card("KS"), ANY_JOKER)),), (JokerLay(C.JOKER2, 3, C.parse_card("6S")),))
    t = action_from_dict({"type": "take", "seat": 1, "card": "9H", "meld": {"cards": ["7H", "8H", "9H"]}}, PLAY_KEYS)
    assert t == Take(1, C.parse_card("9H"), meld=Meld(1, cs("7H 8H 9H")))


def test_keys_are_per_mode() -> None:
    # an action that cannot be read is invalid input (code invalid_action), not an illegal move
    with pytest.raises(GingoInputError, match="unknown action type 'draw'") as err:
        action_from_dict({"type": "draw", "seat": 0}, TABLE_KEYS)
    assert err.value.code == "invalid_action" and not isinstance(err.value, GingoError)
    with pytest.raises(GingoInputError, match="unknown action type 'go_out' in full play"):
        action_from_dict({"type": "go_out", "seat": 0}, PLAY_KEYS, " in full play")
    with pytest.raises(GingoInputError, match="does not take dealer"):
        action_from_dict({"type": "setup", "dealer": 1}, PLAY_KEYS)


def test_bare_jokers_bind_to_the_lowest_free_joker_and_their_designations() -> None:
    cards = read_cards(["JK", "5H", "JK"], "meld")
    bound, des = bind_jokers(cards, ((ANY_JOKER, C.parse_card("4H")), (ANY_JOKER, C.parse_card("6H"))),
                             free=C.JOKERS, what="meld")
    assert bound == (C.JOKER1, C.parse_card("5H"), C.JOKER2)
    assert des == {C.JOKER1: C.parse_card("4H"), C.JOKER2: C.parse_card("6H")}
    # an explicit joker is never given to a bare one, and a bare one takes what is free
    bound, des = bind_jokers(read_cards(["JK1", "JK"], "meld"), (), free=C.JOKERS, what="meld", designate=False)
    assert bound == (C.JOKER1, C.JOKER2)
    with pytest.raises(GingoError, match="no joker in the hand"):
        bind_jokers(read_cards(["JK"], "x"), (), free=[], what="x", designate=False, none_left="no joker in the hand")
    with pytest.raises(GingoError, match="say which card JK2 stands for"):
        bind_jokers(read_cards(["JK2", "5H", "6H"], "meld"), (), free=C.JOKERS, what="meld")


def test_table_and_full_play_bind_bare_jokers_the_same_way() -> None:
    g = new_game(["A", "B"], {})
    g.apply({"type": "setup", "suit_rows": ROWS})
    ev = g.apply({"type": "meld", "seat": 0, "cards": ["7H", "JK", "9H"], "designations": {"JK": "8H"}})
    assert ev[0]["meld"]["cards"] == ["7H", "JK1", "9H"]
    ev = g.apply({"type": "meld", "seat": 1, "cards": ["5S", "JK", "7S"], "designations": {"JK": "6S"}})
    assert ev[0]["meld"]["cards"] == ["5S", "JK2", "7S"]  # JK1 is on the table
    rest = [C.card_name(c) for c in range(54) if C.card_name(c) not in ("7S", "JK2", "9S", "4D", "AC", "2C", "3D")]
    p = GingoPlay.from_deal(["A", "B"], {"deal": 1}, suit_rows=ROWS, hands=[["7S", "JK2", "9S", "4D"], ["AC"]],
                            pile=["2C"], stock=rest + ["3D"], dealer=1)
    p.apply({"type": "draw", "seat": 0})
    ev = p.apply({"type": "meld", "seat": 0, "cards": ["7S", "JK", "9S"], "designations": {"JK": "8S"}})
    assert ev[0]["meld"]["cards"] == ["7S", "JK2", "9S"]  # the hand's joker


def test_a_shortfall_carries_side_supply_need_and_cards() -> None:
    board = ["1"] * 52
    g = new_game(["A", "B"], {})
    g.apply({"type": "setup", "suit_rows": ROWS, "board": "".join(board)[:48] + "...."})
    assert g.board.supply(1) == 2
    free = [C.card_name(g.frame(1).card_int(s)) for s in range(48, 52)]  # the K row
    with pytest.raises(GingoChipShortfall) as err:
        g.apply({"type": "meld", "seat": 0, "cards": free[:3]})
    assert err.value.code == "illegal"
    assert err.value.details == {"reason": "chip_shortfall", "side": 1, "supply": 2, "need": 3, "short": 1, "cards": free[:3]}
    with pytest.raises(GingoChipShortfall) as err:
        g.apply({"type": "meld", "seat": 0, "cards": free[:3], "skip": free[:2]})
    assert err.value.details["short"] == 1 and "only 1 chip may be forfeited, not 2" in str(err.value)


def test_typed_and_json_play_give_the_same_game() -> None:
    a = GingoPlay(["a", "b", "c", "d"], {}, seed=17)
    b = GingoPlay(["a", "b", "c", "d"], {}, seed=17)
    rng_a, rng_b = random.Random(3), random.Random(3)
    for _ in range(300):
        if a.phase == "game_over":
            break
        move = bot_move(a, rng_a)
        assert bot_move(b, rng_b) == move
        as_json = move.to_dict()
        assert action_from_dict(as_json, PLAY_KEYS) == move
        typed_events = [e.to_dict() for e in a.perform(move)]
        assert b.apply(as_json) == typed_events
    assert a.as_dict() == b.as_dict()


def test_full_play_refuses_table_tracking_actions() -> None:
    p = GingoPlay(["a", "b"], {}, seed=1)
    with pytest.raises(GingoError, match="for table tracking"):
        p.perform(GoOut(0, ()))
