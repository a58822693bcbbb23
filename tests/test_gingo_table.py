"""Gin-Go table play (companion/games/gingo/rules.py): set-up, melds, hits, every joker rule of
seed 000, aces, chips and bumps, the win conditions, stock exhaustion, team play, and
illegal actions that must leave the game unchanged."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from companion import cards as C
from companion.board import Frame, space_at
from companion.errors import InvalidInput
from companion.games.gingo.rules import GingoError, GingoGame, GingoInputError, Options, make_options, new_game

ROWS = {"1": "SHDC", "2": "SHDC"}


def game(players: int = 2, options: dict[str, Any] | None = None, board: str | None = None) -> GingoGame:
    g = new_game(["Ann", "Bob", "Cy", "Di"][:players], options or {})
    act: dict[str, Any] = {"type": "setup", "suit_rows": dict(ROWS)}
    if board is not None:
        act["board"] = board
    g.apply(act)
    return g


def meld(g: GingoGame, seat: int, cards: str, **des: str) -> list[dict[str, Any]]:
    act: dict[str, Any] = {"type": "meld", "seat": seat, "cards": cards.split()}
    if des:
        act["designations"] = des
    return g.apply(act)


def hit(g: GingoGame, seat: int, meld_id: int, cards: str, **des: str) -> list[dict[str, Any]]:
    act: dict[str, Any] = {"type": "hit", "seat": seat, "meld": meld_id, "cards": cards.split()}
    if des:
        act["designations"] = des
    return g.apply(act)


def rejects(g: GingoGame, action: dict[str, Any], *words: str,
            kind: type[Exception] | tuple[type[Exception], ...] = (GingoError, GingoInputError)) -> str:
    """The action is refused (``kind``: by default illegal or unreadable) naming ``words``
    and the game is unchanged."""
    before = json.dumps(g.as_dict(), sort_keys=True)
    with pytest.raises(kind) as err:
        g.apply(action)
    after = json.dumps(g.as_dict(), sort_keys=True)
    assert before == after, "an illegal action changed the game"
    msg = str(err.value)
    for w in words:
        assert w.lower() in msg.lower(), msg
    return msg


def sp(side: int, card: str) -> int:
    return Frame(side, ROWS[str(side)]).space(card)


def board_with(side1: list[int] = (), side2: list[int] = ()) -> str:  # type: ignore[assignment]
    out = ["."] * 52
    for s in side1:
        out[s] = "1"
    for s in side2:
        out[s] = "2"
    return "".join(out)


# ---------------------------------------------------------------------------
# Options


def test_every_option_has_help_and_choices_and_defaults_follow_rules() -> None:
    for f in dataclasses.fields(Options):
        assert f.metadata["help"] and f.metadata["choices"], f.name
    o = make_options(2)
    assert (o.deal, o.max_jokers_per_meld, o.adjacency, o.chip_cap, o.rank_axis) == (9, 1, "king8", 50, "opposed")
    assert make_options(4).deal == 7
    assert o.meld_rules.name == "jokers"
    assert make_options(2, {"max_jokers_per_meld": "fewer_than_naturals"}).meld_rules.name == "jokers_fewer"


@pytest.mark.parametrize("players, opts, kind, words", [
    (2, {"deal": 8}, GingoError, ["deal size 8", "odd"]),
    (2, {"deal": 17}, GingoError, ["1 to 15"]),
    (4, {"deal": 11}, GingoError, ["1 to 9"]),
    # a name or value no option takes: invalid input (code invalid_options), checked where
    # every game's options are (companion.games.options), not a rule of play
    (2, {"adjacency": "hex"}, InvalidInput, ["adjacency", "king8, ortho4"]),
    (2, {"jokers": 1}, InvalidInput, ["jokers", "true or false"]),
    (2, {"colour": "red"}, InvalidInput, ["unknown", "colour"]),
    (3, {}, GingoError, ["2 players or 4"]),
])
def test_bad_options_are_named(players: int, opts: dict[str, Any], kind: type[Exception], words: list[str]) -> None:
    with pytest.raises(kind) as err:
        make_options(players, opts)
    if kind is InvalidInput:
        assert isinstance(err.value, InvalidInput) and err.value.code == "invalid_options"
    for w in words:
        assert w in str(err.value)


# ---------------------------------------------------------------------------
# Set-up


def test_setup_without_joker_is_normal_and_a_format_call_is_refused() -> None:
    g = new_game(["A", "B"], {})
    rejects(g, {"type": "setup", "reveal": ["5H", "2S", "KC", "9D"], "format": "secrecy"}, "normal")
    ev = g.apply({"type": "setup", "reveal": ["5H", "7H", "2S", "KC", "9D"]})
    assert ev[0]["format"] == "normal" and ev[0]["chooser"] is None
    assert ev[0]["suit_rows"] == {"1": "HSCD", "2": "HSCD"}
    assert g.phase == "play"
    rejects(g, {"type": "setup", "suit_rows": ROWS}, "set up")


def test_setup_one_joker_dealer_calls_suit_for_suit() -> None:
    g = new_game(["A", "B"], {})
    ev = g.apply({"type": "setup", "dealer": 1, "reveal": ["5H", "JK", "2S", "KC", "9D"], "format": "Suit-for-Suit"})
    e = ev[0]
    assert (e["chooser"], e["chooser_seat"], e["format"]) == ("dealer", 1, "suit_for_suit")
    # the dealer (seat 1: side 2) lays left to right, the opponent right to left
    assert e["suit_rows"] == {"2": "HSCD", "1": "DCSH"}
    # suit-for-suit under the opposed frame: each suit in the same board column for both
    for suit in "SHDC":
        assert g.frame(1).space("A" + suit) % 4 == g.frame(2).space("A" + suit) % 4


def test_setup_two_jokers_opponent_chooses_secrecy_and_four_player_opponent_is_dealers_right() -> None:
    g = new_game(["A", "B", "C", "D"], {})
    rejects(g, {"type": "setup", "dealer": 0, "reveal": ["JK1", "5H", "JK2", "2S", "KC", "9D"],
                "format": "secrecy"}, "secrecy needs")
    ev = g.apply({"type": "setup", "dealer": 0, "reveal": ["JK1", "5H", "JK2", "2S", "KC", "9D"],
                  "format": "secrecy", "secret": {"1": "CDHS", "2": "♠♥♦♣"}})
    assert ev[0]["chooser"] == "opponent" and ev[0]["chooser_seat"] == 3
    assert ev[0]["suit_rows"] == {"1": "CDHS", "2": "SHDC"}


def test_meld_before_setup_and_bad_suit_row_rejected() -> None:
    g = new_game(["A", "B"], {})
    rejects(g, {"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S"]}, "set up the suit rows")
    rejects(g, {"type": "setup", "suit_rows": {"1": "SHDS", "2": "SHDC"}}, "repeats S")


# ---------------------------------------------------------------------------
# Melds, chips and bumps


def test_meld_places_chips_on_the_placers_coordinates() -> None:
    g = game()
    ev = meld(g, 0, "AS 2S 3S")
    assert ev[0]["meld"]["id"] == 1 and ev[0]["side"] == 1
    assert ev[1]["placed"] == [sp(1, "AS"), sp(1, "2S"), sp(1, "3S")] == [0, 4, 8]
    ev = meld(g, 1, "9H 10H JH")
    assert ev[1]["side"] == 2 and sorted(ev[1]["placed"]) == sorted(sp(2, c) for c in ("9H", "10H", "JH"))
    d = g.as_dict()
    assert d["supply"] == {"1": 47, "2": 47}
    assert d["board"].count("1") == 3 and d["board"].count("2") == 3


def test_bump_replaces_opposing_chip_and_returns_it_to_supply() -> None:
    g = game()
    meld(g, 0, "5S 6S 7S")
    target = sp(1, "6S")
    card2 = Frame(2, "SHDC").card(target)  # side 2's card on the same space
    assert card2 == "8C"
    ev = meld(g, 1, "8C 8D 8H")
    assert ev[1]["bumped"] == [target]
    assert g.board.owner(target) == 2
    assert g.board.supply(1) == 48 and g.board.supply(2) == 47
    # an own chip already there: no change, no chip used
    ev = hit(g, 1, 2, "8S")
    assert ev[1]["placed"] == [sp(2, "8S")]


def test_meld_shapes_and_aces() -> None:
    g = game()
    meld(g, 0, "QH KH AH")  # ace high
    assert g.board.owner(sp(1, "AH")) == 1 and sp(1, "AH") == space_at(1, 2)  # still on the A row
    rejects(g, {"type": "meld", "seat": 0, "cards": ["KS", "AS", "2S"]}, "round the corner")
    rejects(g, {"type": "meld", "seat": 0, "cards": ["4S", "5S", "7S"]}, "sequence")
    rejects(g, {"type": "meld", "seat": 0, "cards": ["4S", "5S"]}, "at least 3")
    rejects(g, {"type": "meld", "seat": 0, "cards": ["4S", "4D", "5S"]}, "not a meld")
    meld(g, 1, "AS 2S 3S")
    rejects(g, {"type": "hit", "seat": 0, "meld": 1, "cards": ["2H"]}, "does not fit")  # nothing past the ace
    rejects(g, {"type": "hit", "seat": 0, "meld": 2, "cards": ["KS"]}, "does not fit")  # no wrap
    hit(g, 0, 1, "JH")
    hit(g, 0, 2, "4S")
    assert g.meld(2).table_order() == C.parse_cards("AS 2S 3S 4S")


def test_card_already_on_table_and_sets_of_one_rank() -> None:
    g = game()
    meld(g, 0, "9S 9H 9D")
    rejects(g, {"type": "meld", "seat": 1, "cards": ["9S", "10S", "JS"]}, "already on the table")
    rejects(g, {"type": "hit", "seat": 1, "meld": 1, "cards": ["10C"]}, "does not fit")
    ev = hit(g, 1, 1, "9C")
    assert ev[0]["meld"]["closed"] is True


# ---------------------------------------------------------------------------
# Jokers (seed 000 "The Joker in Play", RULES.md 5C #4-#8)


def test_joker_needs_a_designation_and_chip_goes_on_designated_card() -> None:
    g = game()
    rejects(g, {"type": "meld", "seat": 0, "cards": ["7H", "JK1", "9H"]}, "say which card")
    ev = meld(g, 0, "7H JK1 9H", JK1="8H")
    assert ev[0]["meld"]["stands_for"] == ["7H", "8H", "9H"]
    assert sp(1, "8H") in ev[1]["placed"]


def test_joker_in_set_must_be_a_suit_not_showing() -> None:
    g = game()
    rejects(g, {"type": "meld", "seat": 0, "cards": ["6S", "6D", "JK1"], "designations": {"JK1": "6S"}},
            "already in the meld")
    rejects(g, {"type": "meld", "seat": 0, "cards": ["6S", "6D", "JK1"], "designations": {"JK1": "7H"}})
    meld(g, 0, "6S 6D JK1", JK1="6H")


def test_joker_in_run_stands_for_the_missing_rank_of_that_suit() -> None:
    g = game()
    rejects(g, {"type": "meld", "seat": 0, "cards": ["7H", "JK1", "9H"], "designations": {"JK1": "8S"}})
    rejects(g, {"type": "meld", "seat": 0, "cards": ["7H", "JK1", "9H"], "designations": {"JK1": "10H"}})
    meld(g, 0, "7H 8H JK2", JK2="9H")
    # a joker hitting a run takes the rank at an end
    rejects(g, {"type": "hit", "seat": 1, "meld": 1, "cards": ["JK1"], "designations": {"JK1": "JH"}})
    hit(g, 1, 1, "6H")
    rejects(g, {"type": "hit", "seat": 1, "meld": 1, "cards": ["JK1"], "designations": {"JK1": "10H"}},
            "at most one joker")


def test_joker_cannot_match_a_card_already_in_play() -> None:
    g = game()
    meld(g, 0, "8H 9H 10H")
    msg = rejects(g, {"type": "meld", "seat": 1, "cards": ["8S", "8D", "JK1"], "designations": {"JK1": "8H"}},
                  "already in play")
    assert "meld 1" in msg
    meld(g, 1, "8S 8D JK1", JK1="8C")
    # a designation is in play too: the other joker cannot stand for 8C either
    rejects(g, {"type": "meld", "seat": 0, "cards": ["7C", "9C", "JK2"], "designations": {"JK2": "8C"}},
            "already in play")
    # and a joker already on the table cannot be laid again
    rejects(g, {"type": "meld", "seat": 0, "cards": ["4S", "5S", "JK1"], "designations": {"JK1": "6S"}},
            "already on the table")


def test_joker_cannot_hit_a_closed_set() -> None:
    g = game()
    meld(g, 0, "6S 6H 6D 6C")
    assert g.meld(1).closed
    rejects(g, {"type": "hit", "seat": 1, "meld": 1, "cards": ["JK1"], "designations": {"JK1": "6S"}},
            "closed set")
    # four suits showing through a joker: no second joker either
    meld(g, 0, "5S 5H 5D")
    hit(g, 1, 2, "JK1", JK1="5C")
    rejects(g, {"type": "hit", "seat": 1, "meld": 2, "cards": ["JK2"], "designations": {"JK2": "5C"}},
            "closed set")


def test_natural_onto_6_6_6_joker_joker_stays_set_of_five() -> None:
    g = game()
    meld(g, 0, "6S 6H 6D JK1", JK1="6C")
    ev = hit(g, 1, 1, "6C")
    m = ev[0]["meld"]
    assert m["cards"] == ["6S", "6H", "6D", "JK1", "6C"]
    assert m["designations"] == {"JK1": "6C"} and m["closed"] is True
    assert ev[1]["side"] == 2 and ev[1]["spaces"] == [sp(2, "6C")]


def test_6_6_onto_6_6_joker() -> None:
    g = game()
    meld(g, 0, "6S 6H JK1", JK1="6D")
    ev = hit(g, 1, 1, "6D 6C")
    assert ev[0]["meld"]["cards"] == ["6S", "6H", "JK1", "6D", "6C"]
    assert sorted(ev[1]["spaces"]) == sorted([sp(2, "6D"), sp(2, "6C")])


def test_heart_5_onto_4_joker_6_7_joker_not_exchanged_and_may_bump() -> None:
    g = game()
    meld(g, 0, "4H JK1 6H 7H", JK1="5H")
    assert g.board.owner(sp(1, "5H")) == 1
    ev = hit(g, 1, 1, "5H")
    m = ev[0]["meld"]
    assert "JK1" in m["cards"] and m["stands_for"] == ["4H", "5H", "6H", "7H"]
    # the run still grows at its ends
    hit(g, 0, 1, "3H 8H")
    assert len(g.meld(1).cards) == 7


def test_fewer_than_naturals_option() -> None:
    g = game(options={"max_jokers_per_meld": "fewer_than_naturals"})
    rejects(g, {"type": "meld", "seat": 0, "cards": ["5H", "JK1", "JK2", "8H"],
                "designations": {"JK1": "6H", "JK2": "7H"}}, "fewer jokers")
    meld(g, 0, "5H JK1 JK2 8H 9H", JK1="6H", JK2="7H")
    g2 = game()
    rejects(g2, {"type": "meld", "seat": 0, "cards": ["5H", "JK1", "JK2", "8H", "9H"],
                 "designations": {"JK1": "6H", "JK2": "7H"}}, "at most one joker")


def test_no_jokers_option() -> None:
    g = game(options={"jokers": False})
    rejects(g, {"type": "meld", "seat": 0, "cards": ["7H", "JK1", "9H"], "designations": {"JK1": "8H"}},
            "without jokers")


# ---------------------------------------------------------------------------
# Going out, captures and the win conditions


def col_spaces(col: int, rows: range) -> list[int]:
    return [space_at(r, col) for r in rows]


def test_link_mid_hand_calls_gin_but_is_not_a_win_and_gin_held_wins() -> None:
    # side 1 holds spades A..10 (column 1, rows 1-10); melding JS QS KS links it
    g = game(board=board_with(col_spaces(1, range(1, 11))))
    ev = meld(g, 0, "JS QS KS")
    kinds = [e["type"] for e in ev]
    assert kinds == ["meld", "chips", "link", "gin_called"]
    assert ev[2]["formed"] is True and ev[2]["path"][0] < 4 and ev[2]["path"][-1] >= 48
    assert ev[3] == {"type": "gin_called", "side": 1, "seat": 0}
    assert g.phase == "play" and g.winner is None  # RULES.md 5C #15
    # side 2 goes out capturing cards that do not touch side 1's column
    ev = g.apply({"type": "go_out", "seat": 1, "captured": {"0": ["2H", "3D"]}})
    end = [e for e in ev if e["type"] == "hand_end"][0]
    assert end["winner"] == 1 and end["reason"] == "gin_held" and end["went_out"] == 1
    assert ev[-1] == {"type": "game_over", "winner": 1, "players": ["Ann"]}
    rejects(g, {"type": "new_hand"}, "game is over")


def test_capture_breaks_the_gin_and_the_hand_passes_on_with_chips_kept() -> None:
    g = game(board=board_with(col_spaces(1, range(1, 11))))
    meld(g, 0, "JS QS KS")
    card = Frame(2, "SHDC").card(space_at(7, 1))  # side 2's card on side 1's 7S space
    ev = g.apply({"type": "go_out", "seat": 1, "captured": {"0": [card]}})
    assert {"type": "link", "side": 1, "formed": False, "path": None} in ev
    end = [e for e in ev if e["type"] == "hand_end"][0]
    assert end["winner"] is None and g.phase == "hand_over"
    board_before = g.as_dict()["board"]
    rejects(g, {"type": "meld", "seat": 0, "cards": ["2H", "3H", "4H"]}, "new hand")
    ev = g.apply({"type": "new_hand"})
    assert ev == [{"type": "new_hand", "hand": 2, "dealer": 1}]
    assert g.as_dict()["board"] == board_before and g.melds == []
    # the cards of the last hand may be melded again
    meld(g, 0, "JS QS KS")


def test_both_linked_the_side_that_went_out_wins() -> None:
    # side 1: column 1 rows 1-10, melds J Q K of spades -> link. Side 2: column 4 rows 1-12.
    g = game(board=board_with(col_spaces(1, range(1, 11)), col_spaces(4, range(1, 13))))
    meld(g, 0, "JS QS KS")
    # side 2's card on row 13 column 4 completes its link through the capture
    card = Frame(2, "SHDC").card(space_at(13, 4))
    ev = g.apply({"type": "go_out", "seat": 1, "captured": {"0": [card]}})
    assert g.board.link(1) and g.board.link(2)
    end = [e for e in ev if e["type"] == "hand_end"][0]
    assert (end["winner"], end["reason"]) == (2, "both_linked")


def test_capture_completing_the_link_of_the_side_that_went_out_wins() -> None:
    g = game(board=board_with(col_spaces(2, range(1, 13))))
    card = Frame(1, "SHDC").card(space_at(13, 2))
    assert card == "KH"
    ev = g.apply({"type": "go_out", "seat": 0, "captured": {"1": [card, "5C"]}})
    end = [e for e in ev if e["type"] == "hand_end"][0]
    assert (end["winner"], end["reason"]) == (1, "capture_link")
    assert g.as_dict()["winner"] == 1


def test_capture_that_completes_only_the_losers_link_is_impossible_and_no_link_means_new_hand() -> None:
    g = game()
    meld(g, 0, "AS 2S 3S")
    ev = g.apply({"type": "go_out", "seat": 1, "captured": {"0": ["KH", "QH"]}})
    assert ev[-1]["type"] == "hand_end" and ev[-1]["winner"] is None
    cap = ev[0]
    assert cap["cards"] == {"0": ["KH", "QH"]} and cap["jokers_dead"] == []


def test_captured_joker_laid_on_a_meld_or_dead() -> None:
    g = game()
    meld(g, 0, "4D 5D 6D")
    rejects(g, {"type": "go_out", "seat": 1, "captured": {"0": ["JK1"]},
                "jokers": {"JK1": {"meld": 1, "as": "9D"}}}, "does not fit")
    rejects(g, {"type": "go_out", "seat": 1, "captured": {"0": ["2C"]},
                "jokers": {"JK1": {"meld": 1, "as": "7D"}}}, "not a captured joker")
    rejects(g, {"type": "go_out", "seat": 1, "captured": {"0": ["7D", "JK1"]},
                "jokers": {"JK1": {"meld": 1, "as": "7D"}}}, "captured card")
    ev = g.apply({"type": "go_out", "seat": 1, "captured": {"0": ["JK1", "JK2", "2C"]},
                  "jokers": {"JK1": {"meld": 1, "as": "7D"}}})
    cap = ev[0]
    assert cap["jokers_laid"] == [{"joker": "JK1", "meld": 1, "as": "7D"}]
    assert cap["jokers_dead"] == ["JK2"]
    chips = ev[1]
    assert chips["side"] == 2 and sorted(chips["spaces"]) == sorted([sp(2, "2C"), sp(2, "7D")])


def test_go_out_input_checks() -> None:
    g = game()
    meld(g, 0, "AS 2S 3S")
    rejects(g, {"type": "go_out", "seat": 0, "captured": {"0": ["KH"]}}, "holds no cards")
    rejects(g, {"type": "go_out", "seat": 0, "captured": {"1": ["KH"], "5": ["QH"]}}, "no seat 5")
    rejects(g, {"type": "go_out", "seat": 0, "captured": {"1": ["2S"]}}, "already on the table")
    rejects(g, {"type": "go_out", "seat": 0, "captured": {"1": ["KH", "KH"]}}, "twice")
    rejects(g, {"type": "go_out", "seat": 2, "captured": {}}, "seat must be")


# ---------------------------------------------------------------------------
# Stock exhaustion


def test_stock_exhausted_once_retires_the_melds_twice_ends_the_hand() -> None:
    g = game()
    meld(g, 0, "AS 2S 3S")
    ev = g.apply({"type": "stock_exhausted"})
    assert ev == [{"type": "stock_exhausted", "count": 1}]
    assert g.melds == [] and g.board.owner(0) == 1  # chips stay
    rejects(g, {"type": "hit", "seat": 1, "meld": 1, "cards": ["4S"]}, "stock ran out")
    meld(g, 1, "AS 2S 3S")  # the cards came back through the new stock
    ev = g.apply({"type": "stock_exhausted"})
    assert [e["type"] for e in ev] == ["stock_exhausted", "hand_end"]
    assert ev[1]["went_out"] is None and ev[1]["winner"] is None and g.phase == "hand_over"


def test_second_exhaustion_with_a_held_gin_wins() -> None:
    g = game(board=board_with(col_spaces(1, range(1, 11))))
    meld(g, 0, "JS QS KS")
    g.apply({"type": "stock_exhausted"})
    ev = g.apply({"type": "stock_exhausted"})
    assert (ev[1]["winner"], ev[1]["reason"]) == (1, "gin_held")


# ---------------------------------------------------------------------------
# Chip cap (RULES.md 5C #3)


def test_chip_cap_forfeit_needs_a_choice() -> None:
    empty = {sp(1, "2S"), sp(1, "3S"), sp(1, "4S")}
    g = game(board=board_with([s for s in range(52) if s not in empty]))
    assert g.board.supply(1) == 1
    rejects(g, {"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S"]}, "skip", "chip cap")
    rejects(g, {"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S"], "skip": ["KH"]}, "cannot skip")
    ev = g.apply({"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S"], "skip": ["3S"]})
    assert ev[1]["placed"] == [sp(1, "2S")] and ev[1]["forfeited"] == ["3S"]
    assert g.board.supply(1) == 0
    g2 = game()
    rejects(g2, {"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S"], "skip": ["3S"]}, "only when")


def test_unlimited_chips() -> None:
    g = game(options={"chip_cap": "unlimited"}, board=board_with(list(range(51))))
    meld(g, 0, "KS KH KD")
    assert g.as_dict()["supply"]["1"] is None


# ---------------------------------------------------------------------------
# Team play


def test_team_play_partners_share_a_side_and_capture_takes_all_three_hands() -> None:
    g = game(players=4)
    ev = meld(g, 2, "AS 2S 3S")  # seat 2 is seat 0's partner: side 1
    assert ev[1]["side"] == 1
    meld(g, 3, "9H 10H JH")
    assert g.board.owner(sp(2, "9H")) == 2
    ev = g.apply({"type": "go_out", "seat": 1,
                  "captured": {"0": ["KC", "QC"], "2": ["5D"], "3": ["7C", "8C", "9C"]}})
    cap, chips = ev[0], ev[1]
    assert cap["cards"] == {"0": ["KC", "QC"], "2": ["5D"], "3": ["7C", "8C", "9C"]}
    assert chips["side"] == 2 and len(chips["spaces"]) == 6
    assert ev[-1]["type"] == "hand_end"
    g.apply({"type": "new_hand"})
    assert g.dealer == 1


def test_team_win_names_both_partners() -> None:
    g = game(players=4, board=board_with(col_spaces(2, range(1, 13))))
    ev = g.apply({"type": "go_out", "seat": 2, "captured": {"1": ["KH"]}})
    assert ev[-1] == {"type": "game_over", "winner": 1, "players": ["Ann", "Cy"]}


# ---------------------------------------------------------------------------
# Illegal actions, replay, a whole scripted hand


@pytest.mark.parametrize("action, words, kind", [
    # what cannot be read (python-chess's InvalidMoveError): invalid_action, HTTP 400
    ({"type": "dance"}, ["unknown action"], GingoInputError),
    ("meld", ["json object"], GingoInputError),
    ({"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S"], "colour": "red"}, ["does not take colour"],
     GingoInputError),
    ({"type": "meld", "seat": 0, "cards": ["AS", "ZZ", "3S"]}, ["not a card"], GingoInputError),
    ({"type": "meld", "seat": 0, "cards": ["AS", "AS", "3S"]}, ["twice"], GingoInputError),
    ({"type": "meld", "seat": 0, "cards": []}, ["non-empty"], GingoInputError),
    # read, and the rules or the game as it stands say no (IllegalMoveError): illegal, 422
    ({"type": "meld", "seat": 9, "cards": ["AS", "2S", "3S"]}, ["seat must be"], GingoError),
    ({"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S"], "designations": {"AS": "4S"}}, ["only jokers"],
     GingoError),
    ({"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S"], "designations": {"JK1": "4S"}}, ["not among"],
     GingoError),
    ({"type": "hit", "seat": 0, "meld": 7, "cards": ["4S"]}, ["no meld 7"], GingoError),
    ({"type": "new_hand"}, ["a hand is in play"], GingoError),
])
def test_illegal_actions_leave_the_game_unchanged(action: Any, words: list[str], kind: type[Exception]) -> None:
    g = game()
    meld(g, 1, "9H 10H JH")
    rejects(g, action, *words, kind=kind)
    with pytest.raises(Exception) as err:
        g.apply(action)
    assert type(err.value) is kind  # not a subclass of the other: the two never mix


SCRIPT: list[dict[str, Any]] = [
    {"type": "setup", "dealer": 0, "reveal": ["QD", "JK", "4D", "9C", "AS", "5H"], "format": "normal"},
    {"type": "meld", "seat": 1, "cards": ["AC", "2C", "3C"]},
    {"type": "meld", "seat": 0, "cards": ["7D", "7S", "JK"], "designations": {"JK": "7H"}},
    {"type": "hit", "seat": 1, "meld": 2, "cards": ["7H"]},
    {"type": "meld", "seat": 0, "cards": ["10S", "JS", "QS", "KS"]},
    {"type": "hit", "seat": 1, "meld": 1, "cards": ["4C", "5C"]},
    {"type": "go_out", "seat": 0, "captured": {"1": ["9H", "JK2"]}, "jokers": {"JK2": {"meld": 3, "as": "9S"}}},
    {"type": "new_hand"},
    {"type": "meld", "seat": 0, "cards": ["2D", "3D", "4D"]},
]


def test_scripted_hand_from_setup_to_resolution_and_replay() -> None:
    g = new_game(["Ann", "Bob"], {"deal": 7})
    all_events = []
    for a in SCRIPT:
        all_events += g.apply(a)
    types = [e["type"] for e in all_events]
    assert types[0] == "setup" and all_events[0]["suit_rows"] == {"1": "DCSH", "2": "DCSH"}
    assert "capture" in types and "hand_end" in types and types[-2:] == ["meld", "chips"]
    d = g.as_dict()
    assert d["hand"] == 2 and d["dealer"] == 1 and d["phase"] == "play"
    assert d["hands"][0]["went_out"] == 0 and d["hands"][0]["winner"] is None
    assert len(d["melds"]) == 1
    # every chip on the board is one of the plays' coordinates
    f1, f2 = Frame(1, "DCSH"), Frame(2, "DCSH")
    side1 = {f1.space(c) for c in "7D 7S 7H 10S JS QS KS 9H 9S 2D 3D 4D".split()}
    side2 = {f2.space(c) for c in "AC 2C 3C 7H 4C 5C".split()}
    for s in range(52):
        owner = g.board.owner(s)
        if owner == 1:
            assert s in side1
        elif owner == 2:
            assert s in side2
    assert json.loads(json.dumps(d)) == d  # JSON-able
    # replay gives the same state
    g2 = new_game(["Ann", "Bob"], {"deal": 7})
    for a in SCRIPT:
        g2.apply(a)
    assert g2.as_dict() == d


# ---------------------------------------------------------------------------
# Fuzz: any JSON action either applies or raises GingoError with the game unchanged

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_card_tokens = st.sampled_from(["AS", "2S", "3S", "4S", "KS", "QH", "KH", "AH", "6D", "6C", "6H", "6S",
                                "JK", "JK1", "JK2", "ZZ", "", 5, 60, None, 1.5])
_values = st.one_of(st.integers(-2, 9), st.none(), st.booleans(), _card_tokens,
                    st.lists(_card_tokens, max_size=5),
                    st.dictionaries(st.sampled_from(["JK", "JK1", "JK2", "AS", "0", "1", "meld", "as"]),
                                    st.one_of(_card_tokens, st.integers(0, 3)), max_size=3))
_actions = st.fixed_dictionaries(
    {"type": st.sampled_from(["meld", "hit", "go_out", "stock_exhausted", "new_hand", "setup", "x"])},
    optional={"seat": st.integers(-1, 4), "meld": st.integers(0, 4), "cards": _values, "designations": _values,
              "captured": _values, "jokers": _values, "skip": _values, "suit_rows": _values})


@settings(max_examples=300, deadline=None)
@given(st.lists(_actions, min_size=1, max_size=8))
def test_fuzzed_actions_apply_or_fail_cleanly(actions: list[dict[str, Any]]) -> None:
    g = game()
    meld(g, 0, "5H 6H 7H")
    meld(g, 1, "9C 9D JK2", JK2="9S")
    for a in actions:
        before = json.dumps(g.as_dict(), sort_keys=True)
        try:
            g.apply(a)
        except (GingoError, GingoInputError):
            assert json.dumps(g.as_dict(), sort_keys=True) == before
        d = g.as_dict()
        assert d["board"].count("1") + d["supply"]["1"] == 50
        assert d["board"].count("2") + d["supply"]["2"] == 50
        on_table = [c for m in d["melds"] for c in m["cards"]]
        assert len(on_table) == len(set(on_table))


# ---------------------------------------------------------------------------
# Options reach the board and the set-up


def test_adjacency_option_decides_whether_a_diagonal_chain_wins() -> None:
    zigzag = [space_at(r, 1 + r % 2) for r in range(1, 13)]  # columns 2,1,2,1... rows 1-12
    last = Frame(1, "SHDC").card(space_at(13, 2))  # row 13 column 2 continues the zigzag
    assert last == "KH"
    for adjacency, winner in (("king8", 1), ("ortho4", None)):
        g = game(options={"adjacency": adjacency}, board=board_with(zigzag))
        ev = g.apply({"type": "go_out", "seat": 0, "captured": {"1": [last]}})
        assert ev[-1]["type"] in ("hand_end", "game_over")
        assert g.winner == winner


def test_shared_rank_axis_puts_side_2s_ace_on_row_1() -> None:
    g = game(options={"rank_axis": "shared"})
    ev = meld(g, 1, "AS 2S 3S")
    rows = sorted(s // 4 + 1 for s in ev[1]["placed"])
    assert rows == [1, 2, 3]
    g2 = game()
    ev = meld(g2, 1, "AS 2S 3S")
    assert sorted(s // 4 + 1 for s in ev[1]["placed"]) == [11, 12, 13]


def test_gin_is_called_once_while_the_link_holds() -> None:
    g = game(board=board_with(col_spaces(1, range(1, 11))))
    assert [e["type"] for e in meld(g, 0, "JS QS KS")][-1] == "gin_called"
    assert [e["type"] for e in meld(g, 0, "JH QH KH")] == ["meld", "chips"]
    assert g.as_dict()["gin"] == {"1": True, "2": False}


def test_suit_rows_option_is_the_format_when_the_chooser_does_not_say() -> None:
    reveal = ["JK1", "5H", "2S", "KC", "9D"]
    g = new_game(["A", "B"], {"suit_rows": "suit_for_suit"})
    ev = g.apply({"type": "setup", "reveal": reveal})
    assert ev[0]["format"] == "suit_for_suit" and ev[0]["suit_rows"] == {"1": "HSCD", "2": "DCSH"}
    g2 = new_game(["A", "B"], {"suit_rows": "secrecy"})
    rejects(g2, {"type": "setup", "reveal": reveal}, "secrecy needs")
    # without a joker the option does not apply: Normal is forced
    g3 = new_game(["A", "B"], {"suit_rows": "suit_for_suit"})
    assert g3.apply({"type": "setup", "reveal": ["5H", "2S", "KC", "9D"]})[0]["format"] == "normal"


def test_second_exhaustion_with_both_linked_goes_to_the_first_gin() -> None:
    g = game(board=board_with(col_spaces(1, range(1, 11)), col_spaces(4, range(1, 11))))
    assert Frame(2, "SHDC").card(space_at(13, 4)) == "AS"
    meld(g, 1, "AS 2S 3S")  # side 2 links first
    meld(g, 0, "JS QS KS")
    assert g.board.link(1) and g.board.link(2)
    g.apply({"type": "stock_exhausted"})
    ev = g.apply({"type": "stock_exhausted"})
    assert (ev[1]["winner"], ev[1]["reason"]) == (2, "gin_first")


@pytest.mark.parametrize("options", [True, 1, 1.5, "deal=7", [("deal", 7)], b"x"])
def test_options_that_are_not_a_mapping_are_invalid_options(options: Any) -> None:
    # used to raise TypeError ("'bool' object is not iterable") or, for a list of
    # pairs, to be quietly accepted as a dict
    with pytest.raises(InvalidInput, match="mapping of option names"):
        make_options(2, options)
    with pytest.raises(InvalidInput, match="mapping of option names"):
        GingoGame(["A", "B"], options)
