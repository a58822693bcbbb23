"""Gin-Go's first dealer (option first_dealer, RULES.md 2B; seed 004's flip offered in
Gin-Go too): quick entry of the flips at the table's set-up, and the flip in full play."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.gingo.play import GingoPlay, bot_action, legal_actions, selfplay_game
from companion.errors import InvalidInput
from companion.games.gingo.rules import GingoError, GingoInputError, new_game
from companion.store import open_store
from companion.table import Table

ROWS = {"1": "SHDC", "2": "SHDC"}


def test_the_option_is_listed_with_its_choices_and_given_by_default() -> None:
    from companion.games import find_variant

    opts = {o["name"]: o for o in find_variant("gingo").describe()["options"]}
    assert opts["first_dealer"]["default"] == "given"
    assert opts["first_dealer"]["choices"] == ["given", "flip_high_chooses", "flip_low_deals"]
    assert opts["first_dealer"]["label"] == "First dealer"
    assert new_game(["A", "B"], {}).options.first_dealer == "given"
    with pytest.raises(InvalidInput, match="first_dealer") as err:  # a value no option takes
        new_game(["A", "B"], {"first_dealer": "highest_deals"})
    assert err.value.code == "invalid_options"


def test_table_setup_reads_the_flips_and_the_winners_choice() -> None:
    g = new_game(["A", "B", "C", "D"], {"first_dealer": "flip_high_chooses"})
    # seats 1 and 3 tie on kings and flip again; seat 3 wins and passes: the deal goes to
    # the player on seat 3's right (seat 2), so seat 3 plays first
    ev = g.apply({"type": "setup", "suit_rows": ROWS, "flips": [["7H", "KS", "2C", "KD"], ["4C", "9S"]],
                  "choice": "pass"})
    assert ev[0]["dealer"] == 2 and g.as_dict()["dealer"] == 2 and g.as_dict()["turn"] == 3
    assert ev[0]["first_deal"]["winner"] == 3 and len(ev[0]["first_deal"]["rounds"]) == 2


@pytest.mark.parametrize("setup, words", [
    ({"flips": [["7H", "7S"]], "choice": "deal"}, "tie with 7 in round 1 and flip again"),
    ({"flips": [["7H", "KS"]]}, "seat 1 won the flip .* give choice 'deal' or 'pass'"),
    ({"flips": [["7H", "KS"]], "choice": "deal", "dealer": 0}, "make seat 1 the first dealer, not seat 0"),
    ({"flips": [["7H", "JK1"]], "choice": "deal"}, "not in this deck"),
    ({"flips": [["7H"]], "choice": "deal"}, "round 1 needs one card for every player"),
    ({"choice": "deal"}, "choice is the flip winner's"),
    ({"flips": "7H KS", "choice": "deal"}, "list of rounds"),
    ({"flips": [["7H", "KS"]], "choice": "maybe"}, "'deal' or 'pass'"),
])
def test_bad_flips_are_refused_naming_the_rule_and_change_nothing(setup: dict, words: str) -> None:
    g = new_game(["A", "B"], {"first_dealer": "flip_high_chooses"})
    before = g.as_dict()
    # a malformed flips list or choice cannot be read (invalid_action); the rest break a rule
    with pytest.raises((GingoError, GingoInputError), match=words):
        g.apply({"type": "setup", "suit_rows": ROWS, **setup})
    assert g.as_dict() == before


def test_flips_need_a_flip_rule_and_the_lowest_deals_without_a_choice() -> None:
    with pytest.raises(GingoError, match="flips are for option first_dealer"):
        new_game(["A", "B"], {}).apply({"type": "setup", "suit_rows": ROWS, "flips": [["7H", "KS"]]})
    g = new_game(["A", "B"], {"first_dealer": "flip_low_deals"})
    with pytest.raises(GingoError, match="no choice to make"):
        g.apply({"type": "setup", "suit_rows": ROWS, "flips": [["7H", "KS"]], "choice": "deal"})
    assert g.apply({"type": "setup", "suit_rows": ROWS, "flips": [["7H", "KS"]]})[0]["dealer"] == 0


def test_the_flip_is_kept_in_the_games_events_across_a_restart(tmp_path: Path) -> None:
    table = Table(open_store(tmp_path))
    gid = table.create_game("gingo", players=["Ann", "Bob"], options={"first_dealer": "flip_high_chooses"})["id"]
    out = table.action(gid, {"type": "setup", "suit_rows": ROWS, "flips": [["3H", "QS"]], "choice": "deal"})
    assert out["events"][0]["dealer"] == 1
    table.store.close()
    again = Table(open_store(tmp_path)).game(gid)
    assert again["dealer"] == 1 and again["options"]["first_dealer"] == "flip_high_chooses"
    assert again["state"]["dealer"] == 1 and again["state"]["turn"] == 0


def test_full_play_flips_and_the_winner_chooses() -> None:
    p = GingoPlay(["A", "B", "C", "D"], {"first_dealer": "flip_high_chooses"}, seed=5)
    fd = p.first_deal
    assert p.phase == "first_dealer" and fd is not None and p.turn == fd.winner and fd.dealer is None
    firsts = [c for _, c in fd.rounds[0]]
    assert len(fd.rounds[0]) == 4 and len(set(firsts)) == 4 and not any(c >= 52 for c in firsts)
    assert legal_actions(p) == [{"type": "choose_deal", "seat": fd.winner, "deal": True},
                                {"type": "choose_deal", "seat": fd.winner, "deal": False}]
    before = p.as_dict()
    for bad, words in (({"type": "setup"}, "chooses to deal or not"),
                       ({"type": "choose_deal", "seat": (fd.winner + 1) % 4, "deal": True}, "won the flip"),
                       ({"type": "choose_deal", "seat": fd.winner, "deal": "yes"}, "deal is true")):
        with pytest.raises((GingoError, GingoInputError), match=words):
            p.apply(bad)
        assert p.as_dict() == before
    p.apply({"type": "choose_deal", "seat": fd.winner, "deal": False})
    dealer = (fd.winner - 1) % 4
    assert p.phase == "setup" and p.first_deal is not None and p.first_deal.dealer == dealer
    with pytest.raises(GingoError, match="chosen already"):
        p.apply({"type": "choose_deal", "seat": fd.winner, "deal": True})
    events = p.apply(bot_action(p))
    assert events[0]["dealer"] == dealer and events[0]["first_deal"]["winner"] == fd.winner
    assert p.table.dealer == dealer and p.turn == fd.winner  # the winner plays first
    assert p.as_dict()["first_deal"]["dealer"] == dealer
    p.check()
    # the same seed flips the same cards
    assert GingoPlay(["A", "B", "C", "D"], {"first_dealer": "flip_high_chooses"}, seed=5).first_deal == fd


def test_full_play_lowest_deals_and_games_without_the_option_deal_as_before() -> None:
    p = GingoPlay(["A", "B"], {"first_dealer": "flip_low_deals"}, seed=9)
    fd = p.first_deal
    assert fd is not None and p.phase == "setup" and fd.dealer == fd.winner
    low = min(range(2), key=lambda s: dict(fd.rounds[-1])[s] % 13)
    assert fd.winner == low
    p.apply(bot_action(p))
    assert p.table.dealer == fd.winner
    plain, named = GingoPlay(["A", "B"], {}, seed=9), GingoPlay(["A", "B"], {}, seed=9, dealer=0)
    assert plain.first_deal is None and plain.phase == "setup"
    plain.apply(bot_action(plain))
    named.apply(bot_action(named))
    assert plain.hands == named.hands and plain.table.dealer == 0


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("rule", ["flip_high_chooses", "flip_low_deals"])
def test_self_play_with_the_flip_finishes(players: int, rule: str) -> None:
    for seed in range(4):
        r = selfplay_game(seed, players=players, options={"first_dealer": rule})
        assert r["winner"] in (1, 2, None) and r["actions"] > 0
