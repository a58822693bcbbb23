"""Gin-Go at the table: whose turn and who deals, the play log with every placement,
bump, capture and link, the board following a finished game, and a rematch that keeps
the deal rotation. Real table, real SQLite file, real engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.boardview import board_view, scene_fields, turn_side
from companion.store import open_store
from companion.table import Table, fold_game

# Ann (seat 0, side 1) runs spades up the first column; her capture of 4S completes it.
SETUP = {"type": "setup", "dealer": 1, "suit_rows": {"1": "SHDC", "2": "SHDC"}}
PLAYS: list[dict[str, Any]] = [
    {"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S"]},
    {"type": "meld", "seat": 1, "cards": ["5H", "6H", "7H"]},
    {"type": "meld", "seat": 0, "cards": ["5S", "6S", "7S"]},
    {"type": "meld", "seat": 0, "cards": ["8S", "9S", "10S"]},
    {"type": "meld", "seat": 0, "cards": ["JS", "QS", "KS"]},
]
GO_OUT = {"type": "go_out", "seat": 0, "captured": {"1": ["4S", "9D"]}}


@pytest.fixture()
def table(tmp_path: Path) -> Table:
    return Table(open_store(tmp_path))


def test_turn_and_dealer_follow_the_table(table: Table) -> None:
    g = table.create_game("gingo", players=["Ann", "Bob"], dealer=1)
    # before the set-up the dealer is the one chosen when the game was made (a rematch's)
    assert g["dealer"] == 1 and g["turn"] is None
    g = table.action(g["id"], SETUP)["game"]
    assert g["dealer"] == 1 and g["turn"] == 0  # the player left of the dealer starts
    # the LEDs' status row: side 1 to play, side 2 (Bob) deals
    f = scene_fields(board_view(g, g["board"]), game=g)
    assert (f["turn"], f["dealer"]) == (1, 2)
    g = table.action(g["id"], PLAYS[0])["game"]
    assert g["turn"] == 1  # Ann melded, then discarded: Bob's turn
    assert turn_side(g) == 2 and scene_fields(board_view(g, g["board"]), game=g)["turn"] == 2
    g = table.action(g["id"], {"type": "hit", "seat": 1, "meld": 1, "cards": ["4S"]})["game"]
    assert g["turn"] == 0 and turn_side(g) == 1
    g = table.action(g["id"], {"type": "go_out", "seat": 0, "captured": {"1": ["9D", "9C"]}})["game"]
    assert g["state"]["phase"] == "hand_over" and g["turn"] is None and turn_side(g) is None
    assert scene_fields(board_view(g, g["board"]), game=g)["dealer"] == 1  # Ann deals the next hand
    g = table.action(g["id"], {"type": "new_hand"})["game"]
    assert g["dealer"] == 0 and g["turn"] == 1  # the deal passed to Ann; Bob starts
    assert g["plays"][-1] == {"n": 5, "hand": 2, "type": "new_hand", "seat": None, "dealer": 0}
    assert [p["hand"] for p in g["plays"]] == [1, 1, 1, 1, 2]


def test_four_players_turn_goes_round_the_table(table: Table) -> None:
    g = table.create_game("gingo", players=["Ann", "Bob", "Cy", "Di"])
    g = table.action(g["id"], {**SETUP, "dealer": 3})["game"]
    assert g["turn"] == 0
    g = table.action(g["id"], {"type": "meld", "seat": 2, "cards": ["AS", "2S", "3S"]})["game"]
    assert g["turn"] == 3 and turn_side(g) == 2


def test_a_turn_without_a_meld_passes_the_turn_on(table: Table) -> None:
    """A turn that only draws and discards is entered as a pass: the turn moves on for
    every phone and the LEDs; the board and the melds are unchanged, and it can be undone."""
    g = table.create_game("gingo", players=["Ann", "Bob"], dealer=1)
    g = table.action(g["id"], SETUP)["game"]
    g = table.action(g["id"], PLAYS[0])["game"]
    assert g["turn"] == 1
    board, melds = g["board"], g["state"]["melds"]
    out = table.action(g["id"], {"type": "pass", "seat": 1})
    g = out["game"]
    assert out["events"] == [{"type": "pass", "seat": 1, "turn": 0}]
    assert g["turn"] == 0 and turn_side(g) == 1
    assert scene_fields(board_view(g, g["board"]), game=g)["turn"] == 1
    assert g["board"] == board and g["state"]["melds"] == melds
    assert g["plays"][-1] == {"n": 3, "hand": 1, "type": "pass", "seat": 1}
    # undone, Bob is to play again; redone, Ann
    assert table.undo(g["id"])["game"]["turn"] == 1
    assert table.redo(g["id"])["game"]["turn"] == 0
    # a restart folds the same turn from the log
    assert fold_game(table.store.events(g["id"])).as_dict()["turn"] == 0
    # only while a hand is in play, and only for a seat at the table
    with pytest.raises(Exception, match="seat must be 0..1"):
        table.action(g["id"], {"type": "pass", "seat": 2})
    g = table.action(g["id"], {"type": "go_out", "seat": 0, "captured": {"1": ["9D"]}})["game"]
    with pytest.raises(Exception, match="cannot pass now"):
        table.action(g["id"], {"type": "pass", "seat": 1})


def test_play_log_shows_placements_bumps_capture_and_the_winning_link(table: Table) -> None:
    gid = table.create_game("gingo", players=["Ann", "Bob"])["id"]
    for action in [SETUP, *PLAYS, GO_OUT]:
        table.action(gid, action)
    g = table.game(gid)
    plays = g["plays"]
    assert [p["type"] for p in plays] == ["setup", "meld", "meld", "meld", "meld", "meld", "go_out"]
    assert plays[0]["dealer"] == 1 and plays[0]["suit_rows"] == {"1": "SHDC", "2": "SHDC"}
    # Bob's 5H 6H 7H, on his own frame (side 2 counts from the far end)
    bob = plays[2]
    assert bob["seat"] == 1 and bob["side"] == 2 and bob["cards"] == ["5H", "6H", "7H"]
    assert sorted(bob["placed"]) == sorted(g["frames"]["2"][c] for c in ("5H", "6H", "7H"))
    # the capture: 4S fills the gap and 9D bumps Bob's chip; the link is the game's
    out = plays[-1]
    assert out["captured"] == {"1": ["4S", "9D"]}
    assert out["placed"] == [g["frames"]["1"]["4S"], g["frames"]["1"]["9D"]]
    assert out["bumped"] == [g["frames"]["1"]["9D"]]
    assert out["links"] == [{"side": 1, "formed": True, "path": list(range(0, 52, 4))}]
    assert out["hand_end"] == {"went_out": 0, "winner": 1, "reason": "capture_link"}
    # the finished game's own board holds the capture and the link
    assert g["finished"] and g["links"]["1"] == list(range(0, 52, 4))
    assert g["board"][g["frames"]["1"]["4S"]] == "1"
    # undo takes the line away with its action; a fold from the log gives the same log
    table.undo(gid)
    assert [p["type"] for p in table.game(gid)["plays"]][-1] == "meld"
    assert fold_game(table.store.events(gid)).as_dict()["plays"] == table.game(gid)["plays"]


def test_the_board_follows_a_finished_game_until_another_starts(table: Table) -> None:
    gid = table.create_game("gingo", players=["Ann", "Bob"])["id"]
    for action in [SETUP, *PLAYS, GO_OUT]:
        table.action(gid, action)
    active = table.active_gingo()
    assert active is not None and active["id"] == gid and active["finished"]
    assert table.expected_board() == table.game(gid)["board"]
    # a game of gin does not take the board; a new Gin-Go game does
    table.create_game("gin", players=["Ann", "Bob"])
    assert table.active_gingo()["id"] == gid
    new = table.rematch(gid)
    assert table.active_gingo()["id"] == new["id"] and table.expected_board() == "." * 52
    # deleting the finished game never brings it back
    table.delete_game(gid)
    assert table.active_gingo()["id"] == new["id"]


def test_rematch_keeps_the_deal_rotation(table: Table) -> None:
    gid = table.create_game("gingo", players=["Ann", "Bob"])["id"]
    table.action(gid, SETUP)  # Bob deals the first hand
    table.action(gid, PLAYS[0])
    table.action(gid, {"type": "go_out", "seat": 0, "captured": {"1": ["9D"]}})
    table.action(gid, {"type": "new_hand"})  # Ann deals the second
    for action in PLAYS[2:]:
        table.action(gid, action)
    table.action(gid, {"type": "go_out", "seat": 0, "captured": {"1": ["4S"]}})
    g = table.game(gid)
    assert g["finished"] and g["dealer"] == 0 and g["hands"][-1]["hand"] == 2
    again = table.rematch(gid)
    assert again["dealer"] == 1  # Ann dealt last: Bob deals the rematch's first hand
    # a rematch of a game never set up passes the deal from the one it was made with
    assert table.rematch(again["id"])["dealer"] == 0
