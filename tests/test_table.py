"""The table: commands -> events -> state, with the real rules engines and a real SQLite file."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import Conflict, IllegalAction, NotFound
from companion.store import StoredEvent, open_store
from companion.table import HandInput, Table, TableError, fold_game

# Seat 0 goes gin: 25 + 58 = 83 points (the gin engine's own example).
GIN_HANDS = [["AS", "2S", "3S", "4S", "9D", "9H", "9C", "KH", "QH", "JH"],
             ["5C", "6C", "8D", "8S", "2D", "2H", "3C", "4D", "10S", "JS"]]
# Seat 0 gins in Color Gin; diamonds spoiled; 38 in each other suit.
COLOR_HANDS = [["QH", "QS", "QC", "10D", "JD", "QD", "3D", "4D", "5D", "6D"],
               ["7S", "8S", "9S", "KH", "KS", "KC", "KD", "5S", "5H", "8C"]]
# The Ginski seed's undercut: seat 2 scores 54.
GINSKI_HANDS = [["R1", "R2", "R3", "B5", "B6", "B7", "G9", "G10", "G11", "Y9"],
                ["Y4", "Y5", "Y6", "Y7", "G6", "G7", "G8", "P13", "B1", "R6"],
                ["P9", "P10", "P11", "P12", "R4", "B4", "G4", "Y1", "G2", "B2"]]
# Gin-Go: side 1 runs spades up its first column, A to K, and goes out.
GINGO_ACTIONS: list[dict[str, Any]] = [
    {"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}},
    {"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S"]},
    {"type": "meld", "seat": 1, "cards": ["5H", "6H", "7H"]},
    {"type": "meld", "seat": 0, "cards": ["4S", "5S", "6S"]},
    {"type": "meld", "seat": 0, "cards": ["7S", "8S", "9S"]},
    {"type": "meld", "seat": 0, "cards": ["10S", "JS", "QS", "KS"]},
    {"type": "go_out", "seat": 0, "captured": {"1": ["2H", "9D"]}},
]


@pytest.fixture()
def table(tmp_path: Path) -> Table:
    return Table(open_store(tmp_path))


def replayed(table: Table, tmp_path: Path, game_id: str) -> dict[str, Any]:
    """The game as a fresh table folds it from the file."""
    return Table(open_store(tmp_path)).game(game_id)


def test_whole_gin_match_with_correction_and_undo(table: Table, tmp_path: Path) -> None:
    g = table.create_game("gin", players=["Ann", "Bob"], client_id="new")
    gid = g["id"]
    assert g["version"] == 1 and g["scores"] == [0, 0] and not g["finished"]
    r1 = table.score_hand(gid, HandInput(0, hands=GIN_HANDS))
    assert r1["result"]["kind"] == "gin" and r1["game"]["scores"] == [83, 0]
    r2 = table.score_hand(gid, HandInput(0, deadwood=[4, 20]), expected_version=2)
    assert r2["result"]["kind"] == "knock" and r2["game"]["scores"] == [99, 0]
    # correct hand 1 (two hands back is fine too): now an undercut by Bob
    c = table.correct_hand(gid, 1, HandInput(0, deadwood=[8, 6]))
    assert c["result"]["kind"] == "undercut"
    assert c["game"]["scores"] == [16, 27]
    assert [h["corrected"] for h in c["game"]["hands"]] == [True, False]
    # undo the correction: back to the first scores
    u = table.undo(gid)
    assert u["undone"]["type"] == "hand_corrected" and u["game"]["scores"] == [99, 0]
    r3 = table.score_hand(gid, HandInput(0, hands=GIN_HANDS))
    assert r3["game"]["finished"] and r3["game"]["winner"] == 0
    with pytest.raises(TableError) as err:
        table.score_hand(gid, HandInput(0, hands=GIN_HANDS))
    assert err.value.code == "finished"
    assert replayed(table, tmp_path, gid) == table.game(gid)


def test_bad_input_writes_nothing(table: Table) -> None:
    gid = table.create_game("gin", players=["Ann", "Bob"])["id"]
    before = table.store.count()
    bad = [
        (HandInput(1, hands=GIN_HANDS), "invalid_hand"),  # seat 1 cannot knock with 58
        (HandInput(0, hands=[GIN_HANDS[0]]), "invalid_hand"),
        (HandInput(0, hands=[GIN_HANDS[0], GIN_HANDS[0]]), "invalid_hand"),  # same cards twice
        (HandInput(5, deadwood=[1, 2]), "invalid_hand"),
        (HandInput(0), "invalid_hand"),
        (HandInput(0, deadwood=[1, -2]), "invalid_hand"),
        (HandInput(0, deadwood=[11, 30]), "invalid_hand"),  # knock above the limit
        (HandInput(0, hands=GIN_HANDS, declared=[["AS", "2S", "3S"]]), "invalid_hand"),
    ]
    for entry, code in bad:
        with pytest.raises(TableError) as err:
            table.score_hand(gid, entry)
        assert err.value.code == code, entry
        assert err.value.message
    with pytest.raises(TableError, match="no game"):
        table.score_hand("nope", HandInput(0, deadwood=[1, 2]))
    for kwargs in ({"players": ["solo"]}, {"players": ["a", "b", "c"]}, {"players": ["a", ""]},
                   {"players": ["a", "b"], "preset": "no-such"}, {"players": ["a", "b"], "options": {"bogus": 1}},
                   {"players": ["a", "b"], "dealer": 7}):
        with pytest.raises(TableError):
            table.create_game("gin", **kwargs)
    with pytest.raises(TableError, match="unknown variant"):
        table.create_game("poker", players=["a", "b"])
    with pytest.raises(TableError) as err:
        table.action(gid, {"type": "setup"})
    assert err.value.code == "wrong_variant"
    assert table.store.count() == before


def test_client_id_retry_returns_first_result(table: Table) -> None:
    g1 = table.create_game("gin", players=["Ann", "Bob"], client_id="create-1")
    g2 = table.create_game("gin", players=["Ann", "Bob"], client_id="create-1")
    assert g1 == g2 and len(table.games()) == 1
    a = table.score_hand(g1["id"], HandInput(0, hands=GIN_HANDS), client_id="hand-1")
    b = table.score_hand(g1["id"], HandInput(0, hands=GIN_HANDS), client_id="hand-1")
    assert a == b
    assert table.game(g1["id"])["version"] == 2 and table.game(g1["id"])["scores"] == [83, 0]


def test_stale_version_and_race_exactly_one_wins(table: Table) -> None:
    gid = table.create_game("gin", players=["Ann", "Bob"])["id"]
    with pytest.raises(TableError) as err:
        table.score_hand(gid, HandInput(0, deadwood=[2, 9]), expected_version=7)
    assert isinstance(err.value, Conflict) and err.value.code == "stale_version"
    assert err.value.details == {"version": 1, "expected": 7}
    wins: list[int] = []
    losses: list[str] = []
    barrier = threading.Barrier(6)

    def go(i: int) -> None:
        barrier.wait()
        try:
            table.score_hand(gid, HandInput(0, deadwood=[i % 5, 20]), expected_version=1)
            wins.append(i)
        except TableError as exc:
            losses.append(exc.code)

    threads = [threading.Thread(target=go, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1 and losses == ["stale_version"] * 5
    assert table.game(gid)["version"] == 2


def test_preview_writes_nothing(table: Table) -> None:
    gid = table.create_game("gin", players=["Ann", "Bob"])["id"]
    before = table.store.count()
    p = table.preview_hand(gid, HandInput(0, hands=GIN_HANDS))
    assert p["preview"] is True and p["game"]["scores"] == [83, 0]
    assert table.store.count() == before and table.game(gid)["scores"] == [0, 0]


def test_color_gin_match_and_correction_rescores_later_hands(table: Table, tmp_path: Path) -> None:
    gid = table.create_game("color_gin", players=["Cy", "Di"])["id"]
    r = table.score_hand(gid, HandInput(0, hands=COLOR_HANDS))
    assert r["game"]["scores"][0] == {"S": 38, "H": 38, "D": 0, "C": 38}
    table.score_hand(gid, HandInput(0, hands=COLOR_HANDS))
    # deadwood-only entry is refused for Color Gin: it needs the cards
    with pytest.raises(TableError) as err:
        table.score_hand(gid, HandInput(0, deadwood=[0, 10]))
    assert err.value.code == "unsupported"
    # correct hand 1 to a void hand: totals drop to one hand's worth
    c = table.correct_hand(gid, 1, HandInput(None, hands=COLOR_HANDS))
    assert c["result"]["kind"] == "void"
    assert c["game"]["scores"][0] == {"S": 38, "H": 38, "D": 0, "C": 38}
    table.undo(gid)
    third = table.score_hand(gid, HandInput(0, hands=COLOR_HANDS))
    assert third["game"]["finished"] and third["game"]["winner"] == 0
    assert third["game"]["match"]["extra"]["closed"] == ["S", "H", "C"]
    assert replayed(table, tmp_path, gid) == table.game(gid)


def test_ginski_three_players(table: Table, tmp_path: Path) -> None:
    gid = table.create_game("ginski", players=["A", "B", "C"])["id"]
    r = table.score_hand(gid, HandInput(0, hands=GINSKI_HANDS))
    assert r["result"]["kind"] == "undercut" and r["game"]["scores"] == [0, 0, 54]
    r = table.score_hand(gid, HandInput(0, hands=GINSKI_HANDS))
    assert r["game"]["finished"] and r["game"]["winner"] == 2
    assert replayed(table, tmp_path, gid) == table.game(gid)


def test_gingo_game_board_and_undo(table: Table, tmp_path: Path) -> None:
    gid = table.create_game("gingo", players=["Ann", "Bob"])["id"]
    assert table.expected_board() == "." * 52
    for action in GINGO_ACTIONS[:-1]:
        table.action(gid, action)
    g = table.game(gid)
    assert g["links"]["1"] == list(range(0, 52, 4))
    assert table.expected_board() == g["board"]
    with pytest.raises(TableError) as err:
        table.action(gid, {"type": "meld", "seat": 0, "cards": ["AS", "KD", "5C"]})
    assert err.value.code == "illegal" and isinstance(err.value, IllegalAction)
    u = table.undo(gid)
    assert u["game"]["links"]["1"] is None  # the K-row meld is gone
    table.action(gid, GINGO_ACTIONS[-2])
    out = table.action(gid, GINGO_ACTIONS[-1])
    assert [e["type"] for e in out["events"]][-1] == "game_over"
    assert out["game"]["finished"] and out["game"]["winner"] == 1
    # the board keeps following the finished game: its last board has the winning capture
    assert table.expected_board() == out["game"]["board"] and table.active_gingo()["finished"]
    assert replayed(table, tmp_path, gid) == table.game(gid)


def test_subscribers_hear_each_commit_after_it_is_stored(table: Table) -> None:
    seen: list[tuple[int, int]] = []

    def listener(ev: StoredEvent, msg: dict[str, Any]) -> None:
        # the event is already in the file when the listener runs
        assert table.store.events(after=ev.seq - 1)[0].seq == ev.seq
        seen.append((ev.seq, msg["seq"]))

    stop = table.subscribe(listener)
    gid = table.create_game("gin", players=["Ann", "Bob"])["id"]
    table.score_hand(gid, HandInput(0, hands=GIN_HANDS))
    with pytest.raises(TableError):
        table.score_hand(gid, HandInput(1, hands=GIN_HANDS))
    stop()
    table.undo(gid)
    assert seen == [(1, 1), (2, 2)]


def test_export_import_and_rematch(table: Table) -> None:
    gid = table.create_game("gin", players=["Ann", "Bob"], preset="pagat")["id"]
    table.score_hand(gid, HandInput(0, hands=GIN_HANDS))
    table.score_hand(gid, HandInput(0, deadwood=[3, 9]))
    table.undo(gid)
    data = json.loads(json.dumps(table.export(gid)))
    copy = table.import_game(data, client_id="imp-1")
    assert copy["id"] != gid and copy["scores"] == table.game(gid)["scores"]
    assert copy["preset"] == "pagat" and copy["version"] == 4
    assert table.import_game(data, client_id="imp-1")["id"] == copy["id"]  # retry
    broken = json.loads(json.dumps(data))
    broken["events"][1]["payload"]["hands"][0][0] = "ZZ"
    broken["events"][1]["payload"]["result"]["kind"] = "gin"
    count = table.store.count()
    for bad in (broken, {"format": "x"}, {**data, "events": []}, {**data, "events": data["events"][1:]},
                {**data, "events": [*data["events"], {"type": "game_created", "payload": {}}]}):
        with pytest.raises(TableError) as err:
            table.import_game(bad)
        assert err.value.code == "invalid_import"
    assert table.store.count() == count
    # a doctored result is not trusted: the engines score the cards again
    doctored = json.loads(json.dumps(data))
    doctored["events"][1]["payload"]["result"]["points"] = [500, 0]
    again = table.import_game(doctored)
    assert again["scores"] == copy["scores"]
    re = table.rematch(gid)
    assert re["rematch_of"] == gid and re["dealer"] == 1 and re["scores"] == [0, 0]
    assert re["preset"] == "pagat"


def test_delete_hides_game_but_keeps_events(table: Table, tmp_path: Path) -> None:
    gid = table.create_game("gin", players=["Ann", "Bob"])["id"]
    table.delete_game(gid)
    assert table.games() == []
    with pytest.raises(TableError) as err:
        table.game(gid)
    assert isinstance(err.value, NotFound) and err.value.code == "not_found"
    assert [e.type for e in table.store.events(gid)] == ["game_created", "game_deleted"]
    assert Table(open_store(tmp_path)).games() == []


def test_fold_is_pure() -> None:
    created = StoredEvent(1, "g", "game_created", {"variant": "gin", "preset": None, "options": {},
                                                   "players": ["A", "B"], "dealer": 0}, None, 0.0)
    with pytest.raises(TableError):
        fold_game([])
    a = fold_game([created]).as_dict()
    b = fold_game([created]).as_dict()
    assert a == b and a["scores"] == [0, 0]


def test_deadwood_entry_agrees_with_the_engine_on_cards(table: Table) -> None:
    gid = table.create_game("gin", players=["Ann", "Bob"])["id"]
    by_cards = table.preview_hand(gid, HandInput(0, hands=GIN_HANDS))["result"]
    by_numbers = table.preview_hand(gid, HandInput(0, deadwood=by_cards["deadwood"]))["result"]
    assert (by_numbers["kind"], by_numbers["points"]) == (by_cards["kind"], by_cards["points"])
    assert by_numbers["notes"]  # says that lay-offs were not checked
    strict = table.create_game("gin", players=["Ann", "Bob"], preset="gin_002")["id"]  # knock below 10
    with pytest.raises(TableError, match="less than 10") as err:
        table.score_hand(strict, HandInput(0, deadwood=[10, 30]))
    assert err.value.code == "invalid_hand"


def test_deadwood_entry_follows_every_option_of_the_preset(table: Table) -> None:
    # gin_002 counts a tie as an undercut like the others; a house option turns it off
    plain = table.create_game("gin", players=["Ann", "Bob"], preset="gin_002",
                              options={"undercut_on_tie": False})["id"]
    tie = table.preview_hand(plain, HandInput(0, deadwood=[6, 6]))["result"]
    assert tie["kind"] != "undercut" and tie["points"] == [0, 0]
    # big gin from numbers, on a preset that has it
    modern = table.create_game("gin", players=["Ann", "Bob"], preset="modern")["id"]
    big = table.preview_hand(modern, HandInput(0, deadwood=[0, 12], big_gin=True))["result"]
    assert big["kind"] == "big_gin" and big["points"][0] == 31 + 12
    # the 002 showdown when the stock runs out: the lower count scores the difference
    show = table.preview_hand(table.create_game("gin", players=["A", "B"], preset="gin_002")["id"],
                              HandInput(None, deadwood=[7, 19]))["result"]
    assert show["kind"] == "showdown" and show["points"] == [12, 0]


def test_ginski_scores_from_deadwood_numbers(table: Table) -> None:
    gid = table.create_game("ginski", players=["A", "B", "C"])["id"]
    r = table.score_hand(gid, HandInput(0, deadwood=[8, 15, 20]))["result"]
    assert r["points"] == [27, 0, 0]  # the seed's example: 15 + 20 - 8
    before = table.store.count()
    with pytest.raises(TableError) as err:
        table.score_hand(gid, HandInput(0, deadwood=[14, 15, 20]))  # over 13: may not end
    assert err.value.code == "invalid_hand" and table.store.count() == before


def test_oklahoma_takes_the_hands_upcard(table: Table) -> None:
    gid = table.create_game("gin", players=["Ann", "Bob"], options={"oklahoma": True})["id"]
    with pytest.raises(TableError, match="upcard"):
        table.preview_hand(gid, HandInput(0, deadwood=[5, 30]))
    # upcard 4: knocking with 5 is over the limit, with 3 it scores
    with pytest.raises(TableError):
        table.preview_hand(gid, HandInput(0, deadwood=[5, 30], upcard="4D"))
    ok = table.score_hand(gid, HandInput(0, deadwood=[3, 30], upcard="4D"))["result"]
    assert ok["kind"] == "knock" and ok["points"] == [27, 0]

_COMMANDS = st.lists(
    st.one_of(
        st.tuples(st.just("hand"), st.integers(0, 1), st.integers(0, 12), st.integers(0, 40)),
        st.tuples(st.just("fix"), st.integers(1, 6), st.integers(0, 12), st.integers(0, 40)),
        st.tuples(st.just("undo"), st.just(0), st.just(0), st.just(0)),
    ),
    max_size=14,
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(commands=_COMMANDS)
def test_any_command_sequence_equals_its_replay(tmp_path_factory: pytest.TempPathFactory,
                                                commands: list[tuple[str, int, int, int]]) -> None:
    folder = tmp_path_factory.mktemp("seq")
    table = Table(open_store(folder))
    gid = table.create_game("gin", players=["A", "B"])["id"]
    for kind, a, b, c in commands:
        before = table.store.count()
        try:
            if kind == "hand":
                table.score_hand(gid, HandInput(a, deadwood=[b, c] if a == 0 else [c, b]))
            elif kind == "fix":
                table.correct_hand(gid, a, HandInput(0, deadwood=[b, c]))
            else:
                table.undo(gid)
        except TableError:
            assert table.store.count() == before  # refused: nothing written
        else:
            assert table.store.count() == before + 1
    g = table.game(gid)
    assert g["version"] == table.store.count()
    assert Table(open_store(folder)).game(gid) == g
    # the running score is the fold of the hands that stand
    assert g["scores"] == [sum(h["result"]["points"][s] for h in g["hands"]) for s in (0, 1)]


def test_import_checks_the_created_game_like_a_new_game(table: Table) -> None:
    # an edited export used to slip through a blank or null player name, a dealer of -1,
    # 10**30 or true (folded as seat 0 or 1 but stored as given), or a preset list
    gid = table.create_game("gin", players=["Ann", "Bob"])["id"]
    table.score_hand(gid, HandInput(0, deadwood=[3, 9]))
    data = json.loads(json.dumps(table.export(gid)))
    count = table.store.count()
    for key, value, words in (("players", ["Ann", None], "player name"), ("players", ["", "Bob"], "player name"),
                              ("players", ["A" * 500, "Bob"], "longer than"), ("players", None, "list of names"),
                              ("dealer", -1, "dealer"), ("dealer", 10**30, "dealer"), ("dealer", True, "dealer"),
                              ("dealer", 2, "dealer"), ("preset", ["pagat"], "preset")):
        bad = json.loads(json.dumps(data))
        bad["events"][0]["payload"][key] = value
        with pytest.raises(TableError) as err:
            table.import_game(bad)
        assert err.value.code == "invalid_import" and words in err.value.message, (key, value, err.value.message)
    assert table.store.count() == count
    fine = json.loads(json.dumps(data))
    del fine["events"][0]["payload"]["dealer"]
    assert table.import_game(fine)["dealer"] == table.game(gid)["dealer"]


def test_upcard_outside_oklahoma_is_refused_not_ignored(table: Table) -> None:
    gid = table.create_game("gin", players=["Ann", "Bob"])["id"]
    with pytest.raises(TableError) as err:
        table.score_hand(gid, HandInput(0, deadwood=[3, 9], upcard="7D"))
    assert err.value.code == "invalid_hand" and "oklahoma" in err.value.message
    with pytest.raises(TableError):
        table.score_hand(gid, HandInput(0, hands=GIN_HANDS, upcard="7D"))
    assert table.game(gid)["version"] == 1
    ok = table.create_game("gin", players=["Ann", "Bob"], options={"oklahoma": True})["id"]
    assert table.score_hand(ok, HandInput(0, deadwood=[3, 9], upcard="7D"))["result"]["kind"] == "knock"


def test_import_refuses_an_undo_with_nothing_to_undo(table: Table) -> None:
    gid = table.create_game("gin", players=["Ann", "Bob"])["id"]
    table.score_hand(gid, HandInput(0, deadwood=[3, 9]))
    table.undo(gid)
    data = json.loads(json.dumps(table.export(gid)))
    assert table.import_game(json.loads(json.dumps(data)))["version"] == 3
    data["events"].append({"type": "undo", "payload": {}})
    count = table.store.count()
    with pytest.raises(TableError) as err:
        table.import_game(data)
    assert err.value.code == "invalid_import" and "event 3 is an undo with nothing left" in err.value.message
    assert table.store.count() == count
