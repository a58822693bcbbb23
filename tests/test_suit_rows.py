"""Gin-Go suit rows, coordinate frames and the set-up reveal (companion/suit_rows.py)."""

from __future__ import annotations

import dataclasses
import doctest
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import cards as C
from companion import suit_rows as S
from companion.board import Frame, Reveal, reveal_suits, row_col, space_at, suit_rows
from companion.suit_rows import parse_suit_row

ALL_ROWS = ["".join(p) for p in itertools.permutations("SHDC")]


def test_doctests() -> None:
    assert doctest.testmod(S).failed == 0


# -- suit rows ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text, row",
    [("SHDC", "SHDC"), ("♥♠♦♣", "HSDC"), ("c d h s", "CDHS"), ("♡,♤,♢,♧", "HSDC"), (["D", "C", "S", "H"], "DCSH")],
)
def test_parse_suit_row(text: str, row: str) -> None:
    assert parse_suit_row(text) == row


@pytest.mark.parametrize(
    "text, words",
    [("SHD", "lacks C"), ("SHDDC", "repeats D"), ("SHHS", "repeats S, H and lacks D, C"), ("SHDX", "'X' is not a suit"), ("", "lacks")],
)
def test_parse_suit_row_errors(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_suit_row(text)


# -- frames ------------------------------------------------------------------


@pytest.mark.parametrize("row", ALL_ROWS)
@pytest.mark.parametrize("seat", [1, 2])
@pytest.mark.parametrize("axis", ["opposed", "shared"])
def test_frame_is_a_bijection_and_follows_rules_5c(row: str, seat: int, axis: str) -> None:
    f = Frame(seat, row, rank_axis=axis)
    spaces = [f.space(c) for c in range(52)]
    assert sorted(spaces) == list(range(52))
    for card, space in enumerate(spaces):
        assert f.card_int(space) == card
        assert f.card(space) == C.card_name(card)
        r, c = row_col(space)
        pos = row.index(C.SUITS[C.suit(card)]) + 1
        if seat == 1:
            assert (r, c) == (C.rank(card), pos)
        else:
            assert c == 5 - pos
            assert r == (14 - C.rank(card) if axis == "opposed" else C.rank(card))


def test_p1_three_of_hearts_shares_a_row_with_p2_jack_of_hearts() -> None:
    p1, p2 = Frame(1, "SHDC"), Frame(2, "SHDC")
    assert row_col(p1.space("3H"))[0] == row_col(p2.space("JH"))[0] == 3
    # Under Normal, P1's first suit and P2's fourth suit share a column.
    assert row_col(p1.space("3S"))[1] == row_col(p2.space("JC"))[1] == 1
    assert p1.space("3S") == p2.space("JC")


def test_named_example_suit_for_suit() -> None:
    rows = suit_rows("suit_for_suit", "SHDC", dealer_side=1)
    p1, p2 = Frame(1, rows[1]), Frame(2, rows[2])
    assert p1.space("3H") == p2.space("JH") == space_at(3, 2)
    assert p1.card(space_at(3, 2)) == "3H" and p2.card(space_at(3, 2)) == "JH"


@pytest.mark.parametrize("order", ALL_ROWS)
@pytest.mark.parametrize("dealer", [1, 2])
@pytest.mark.parametrize("axis", ["opposed", "shared"])
def test_suit_for_suit_puts_each_suit_in_the_same_column(order: str, dealer: int, axis: str) -> None:
    rows = suit_rows("suit-for-suit", order, dealer_side=dealer)
    assert rows[dealer] == order and rows[3 - dealer] == order[::-1]
    p1, p2 = Frame(1, rows[1], axis), Frame(2, rows[2], axis)
    for suit in "SHDC":
        assert p1.column(suit) == p2.column(suit)
        for rank in range(1, 14):
            card = C.make_card("SHDC".index(suit), rank)
            other_rank = 14 - rank if axis == "opposed" else rank
            # The same board space: P1's rank r is P2's rank 14 - r (opposed) or r (shared).
            assert p1.space(card) == p2.space(C.make_card("SHDC".index(suit), other_rank))


@pytest.mark.parametrize("dealer", [1, 2])
def test_normal_mirrors_columns(dealer: int) -> None:
    rows = suit_rows("Normal", "HCDS", dealer_side=dealer)
    assert rows == {1: "HCDS", 2: "HCDS"}
    p1, p2 = Frame(1, rows[1]), Frame(2, rows[2])
    for i, suit in enumerate("HCDS"):
        assert p1.column(suit) == i + 1
        assert p2.column(suit) == 4 - i
        assert p1.column(suit) == p2.column("HCDS"[3 - i])


@pytest.mark.parametrize("axis", ["opposed", "shared"])
def test_secrecy_uses_each_sides_own_row(axis: str) -> None:
    rows = suit_rows("secrecy", None, dealer_side=2, secret={1: "♣♥♠♦", 2: "hdcs"})
    assert rows == {1: "CHSD", 2: "HDCS"}
    p1, p2 = Frame(1, rows[1], axis), Frame(2, rows[2], axis)
    assert p1.space("AC") == space_at(1, 1)
    assert p2.space("AH") == (space_at(13, 4) if axis == "opposed" else space_at(1, 4))
    assert p2.space("KS") == (space_at(1, 1) if axis == "opposed" else space_at(13, 1))


def test_ace_sits_on_the_a_row_also_when_used_high() -> None:
    # A meld J-Q-K-A of hearts: the ace's chip goes on the A row, not beyond the K row.
    p1, p2 = Frame(1, "SHDC"), Frame(2, "SHDC")
    assert [row_col(p1.space(c))[0] for c in ("JH", "QH", "KH", "AH")] == [11, 12, 13, 1]
    assert [row_col(p2.space(c))[0] for c in ("JH", "QH", "KH", "AH")] == [3, 2, 1, 13]


def test_frame_errors() -> None:
    f = Frame(1, "SHDC")
    with pytest.raises(ValueError, match="joker.*designated"):
        f.space("JK")
    with pytest.raises(ValueError, match="joker"):
        f.space(C.JOKER2)
    with pytest.raises(ValueError, match="not a standard card"):
        f.space("R5")
    with pytest.raises(ValueError, match="not a card"):
        f.space("ZZ")
    with pytest.raises(ValueError, match="0..51"):
        f.card(52)
    with pytest.raises(ValueError, match="0..51"):
        f.card_int(True)
    with pytest.raises(ValueError, match="seat must be 1 or 2"):
        Frame(3, "SHDC")
    with pytest.raises(ValueError, match="rank_axis"):
        Frame(1, "SHDC", rank_axis="mirrored")
    with pytest.raises(ValueError, match="lacks"):
        Frame(2, "SHD")
    with pytest.raises(ValueError, match="rank must be"):
        f.row(14)
    with pytest.raises(ValueError, match="not a suit"):
        f.column("X")
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.seat = 2  # type: ignore[misc]


def test_frame_normalises_and_compares() -> None:
    assert Frame(2, "♠♥♦♣") == Frame(2, "SHDC")
    assert Frame(2, "♠♥♦♣").suit_row == "SHDC"
    assert Frame(2, "SHDC") != Frame(1, "SHDC")


# -- the reveal ---------------------------------------------------------------


def test_reveal_without_jokers_forces_normal() -> None:
    r = reveal_suits(["KD", "2D", "9C", "QD", "AS", "5C", "3H", "JK", "bad"])
    assert (r.order, r.used, r.jokers, r.chooser) == ("DCSH", 7, 0, None)
    assert r.formats == ("normal",)
    assert r.cards == tuple(C.parse_cards("KD 2D 9C QD AS 5C 3H"))
    assert r.choose("normal") == "normal"
    with pytest.raises(ValueError, match="set-up is Normal"):
        r.choose("secrecy")


def test_reveal_one_joker_lets_the_dealer_choose() -> None:
    r = reveal_suits("4S JK 5S 9H QC 2D")
    assert (r.order, r.used, r.jokers, r.chooser) == ("SHCD", 6, 1, "dealer")
    assert set(r.formats) == {"normal", "suit_for_suit", "secrecy"}
    assert r.choose("Suit for Suit", by="dealer") == "suit_for_suit"
    with pytest.raises(ValueError, match="the dealer calls the set-up, not the opponent"):
        r.choose("secrecy", by="opponent")


def test_reveal_second_joker_passes_the_choice_to_the_opponent() -> None:
    r = reveal_suits([C.JOKER2, "4S", "JK", "9H", "QC", "2D"])
    assert r.jokers == 2 and r.chooser == "opponent"
    assert r.cards[:3] == (C.JOKER2, 3, C.JOKER1)
    with pytest.raises(ValueError, match="second joker the opponent calls"):
        r.choose("normal", by="dealer")


def test_joker_after_the_fourth_suit_does_not_count() -> None:
    r = reveal_suits("AS AH AD AC JK")
    assert r.jokers == 0 and r.used == 4


@pytest.mark.parametrize(
    "cards, words",
    [
        ("AS 2S AH", "ran out after 3 cards with only 2 suits"),
        ("AS AS AH AD AC", "AS was turned twice"),
        ("JK JK JK AS", "JK.* was turned twice"),
        ("AS R5 AH", "not in the Gin-Go deck"),
        ("AS ?? AH", "not a card"),
        ("", "ran out after 0 cards"),
    ],
)
def test_reveal_errors(cards: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        reveal_suits(cards)


def test_reveal_is_plain_data() -> None:
    r = Reveal("SHDC", 4, 0, (0, 13, 26, 39))
    assert r == reveal_suits("AS AH AD AC")


def test_suit_rows_errors() -> None:
    with pytest.raises(ValueError, match="unknown suit-row set-up"):
        suit_rows("random", "SHDC", 1)
    with pytest.raises(ValueError, match="dealer_side must be 1 or 2"):
        suit_rows("normal", "SHDC", 3)
    with pytest.raises(ValueError, match="Secrecy set-up needs"):
        suit_rows("secrecy", "SHDC", 1)
    with pytest.raises(ValueError, match="Secrecy set-up needs"):
        suit_rows("secrecy", None, 1, secret={1: "SHDC"})
    with pytest.raises(ValueError, match="repeats"):
        suit_rows("secrecy", None, 1, secret={1: "SHDC", 2: "SSDC"})
    with pytest.raises(ValueError, match="only used in a Secrecy"):
        suit_rows("normal", "SHDC", 1, secret={1: "SHDC", 2: "SHDC"})
    with pytest.raises(ValueError, match="needs the order"):
        suit_rows("suit_for_suit", None, 1)
    with pytest.raises(ValueError, match="lacks"):
        suit_rows("normal", "SHD", 1)


def test_reveal_then_rows_then_frames_end_to_end() -> None:
    r = reveal_suits("7C JK 8C 2H KS 5D")
    fmt = r.choose("suit_for_suit", by=r.chooser)
    rows = suit_rows(fmt, r.order, dealer_side=2)
    assert rows == {1: "DSHC", 2: "CHSD"}
    p1, p2 = Frame(1, rows[1]), Frame(2, rows[2])
    assert p1.space("AC") == p2.space("KC") == space_at(1, 4)


@given(deck=st.permutations(list(range(54))))
def test_reveal_of_any_shuffled_deck(deck: list[int]) -> None:
    # The answer by plain counting: where each suit first shows.
    first = {}
    for i, c in enumerate(deck):
        if c < 52:
            first.setdefault("SHDC"[c // 13], i)
    last = max(first.values())
    r = reveal_suits(deck)
    assert r.order == "".join(sorted(first, key=first.__getitem__))
    assert r.used == last + 1 and r.cards == tuple(deck[: last + 1])
    assert r.jokers == sum(1 for c in deck[:last] if c >= 52)
    assert r.chooser == [None, "dealer", "opponent"][r.jokers]
