import pytest
from hypothesis import given, strategies as st

from companion import cards as C


@pytest.mark.parametrize(
    "text,expected",
    [
        ("AS", 0), ("as", 0), ("KS", 12), ("AH", 13), ("TD", 35), ("10D", 35), ("10♦", 35),
        ("♦10", 35), ("D10", 35), ("QC", 50), ("♣Q", 50), ("10♢", 35),
        ("JK", 52), ("JK1", 52), ("JK2", 53), ("joker", 52),
        ("R1", 64), ("B13", 64 + 13 + 12), ("P7", 64 + 52 + 6), ("W", 129), ("W5", 133),
    ],
)
def test_parse_forms(text, expected):
    assert C.parse_card(text) == expected


@pytest.mark.parametrize("bad", ["", "ZZ", "11", "1X", "14S", "R0", "R14", "W6", "JK3", "A", "♦"])
def test_parse_rejects_and_names_token(bad):
    with pytest.raises(ValueError) as err:
        C.parse_card(bad)
    assert repr(bad) in str(err.value)


def test_duplicate_named():
    with pytest.raises(ValueError, match="duplicate card: '10h'"):
        C.parse_cards("TH 10h")


def test_generic_jokers_and_wilds_take_next_free():
    assert C.parse_cards("JK JK") == [52, 53]
    assert C.parse_cards("W W") == [129, 130]
    with pytest.raises(ValueError, match="duplicate"):
        C.parse_cards("JK JK JK")


@given(st.integers(min_value=0, max_value=53))
def test_name_round_trip_gingo_deck(card):
    assert C.parse_card(C.card_name(card)) == card


@given(st.integers(min_value=64, max_value=133))
def test_name_round_trip_rumski(card):
    assert C.parse_card(C.card_name(card)) == card


def test_decks():
    assert C.deck_mask("standard").bit_count() == 52
    assert C.deck_mask("gingo").bit_count() == 54
    assert C.deck_mask("rumski").bit_count() == 70
    with pytest.raises(ValueError, match="unknown deck"):
        C.deck_mask("tarot")


def test_suit_slices_and_values():
    m = C.cards_mask(C.parse_cards("AH 2H KH 5C"))
    assert (m >> 13) & C.SUIT_BITS == 0b1000000000011
    assert [C.gin_value(c) for c in C.parse_cards("AS 9D JC KH")] == [1, 9, 10, 10]
    assert C.ginski_value(C.parse_card("G13")) == 13
    assert C.ginski_value(C.parse_card("W2")) == 20
    assert C.rank(C.parse_card("QD")) == 12 and C.suit(C.parse_card("QD")) == 2


@pytest.mark.parametrize("junk", [None, 1.5, object(), b"AS 2S", {"AS": 1}])
def test_parse_cards_of_a_non_list_is_a_value_error(junk):
    # None or a float used to raise TypeError ("'NoneType' object is not iterable")
    with pytest.raises(ValueError, match="expected a list of cards"):
        C.parse_cards(junk)
    with pytest.raises(ValueError, match="expected a list of cards"):
        C.to_mask(junk)


@pytest.mark.parametrize("typed, name", [
    ("10♥\ufe0f", "10H"), ("♥\ufe0f10", "10H"), ("A♠\ufe0f", "AS"), ("Q♣\ufe0f", "QC"),
    ("10❤", "10H"), ("10❤\ufe0f", "10H"), ("ＡＳ", "AS"), ("\u200bKD", "KD"), ("\ufeff7C", "7C"),
])
def test_cards_as_phones_type_them(typed, name):
    # an emoji keyboard's "♥️" (with U+FE0F) used to be refused with a message that
    # showed exactly what the player meant: "not a card: '10♥️'"
    assert C.card_name(C.parse_card(typed)) == name


def test_invisible_characters_alone_are_still_not_a_card():
    with pytest.raises(ValueError, match="empty"):
        C.parse_card("\ufe0f\u200b")
