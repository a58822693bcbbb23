"""Team play kept by the companion: the pagat partnership as a game of the table (four
players, each hand two pair games entered together) and seed 004's outing as a record
whose pair matches are ordinary gin games. Through the real app and a real SQLite file;
the last test restarts the real server (`gingo serve`) and finds both again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from companion.api.app import create_app
from companion.pairing import Pairing
from companion.store import open_store
from companion.table import Table
from tests.live_server import CODE as LIVE_CODE, LiveServer

CODE = "2468"
PLAYERS = ["Ann", "Bob", "Cy", "Di"]
PARTNERSHIP = {"variant": "gin", "preset": "pagat", "players": PLAYERS, "options": {"team_mode": "pagat_partnership"}}


class Api:
    def __init__(self, client: TestClient, store: Any) -> None:
        self.c = client
        self.store = store
        token = client.post("/api/v1/pair", json={"code": CODE, "name": "team phone"}).json()["token"]
        self.auth = {"Authorization": f"Bearer {token}"}

    def post(self, path: str, body: Any) -> Any:
        return self.c.post(path, json=body, headers=self.auth)

    def put(self, path: str, body: Any) -> Any:
        return self.c.put(path, json=body, headers=self.auth)

    def get(self, path: str) -> Any:
        r = self.c.get(path)
        assert r.status_code == 200, r.text
        return r.json()


@pytest.fixture()
def api(tmp_path: Path) -> Iterator[Api]:
    store = open_store(tmp_path)
    app = create_app(Table(store), pairing=Pairing(store, code=CODE, host_code="h"))
    try:
        with TestClient(app, base_url="http://localhost") as c:
            yield Api(c, store)
    finally:
        store.close()


def hand(t1: dict[str, Any], t2: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"ender": None, "tables": [t1, t2], **extra}


def refused(r: Any, words: str, code: str = "invalid_team_entry") -> None:
    assert r.status_code == 422, r.text
    err = r.json()["error"]
    assert err["code"] == code and words in err["message"], err


# --------------------------------------------------------------------------- partnership


def test_partnership_game_folds_both_tables_into_team_totals(api: Api) -> None:
    r = api.post("/api/v1/games", {**PARTNERSHIP, "client_id": "team-1"})
    assert r.status_code == 201, r.text
    g = r.json()
    assert g["rules"]["teams"] == [[0, 2], [1, 3]] and g["rules"]["tables"] == [[0, 1], [2, 3]]
    assert g["rules"]["team_target"] == 125 and g["scores"] == [0, 0, 0, 0]
    assert api.post("/api/v1/games", {**PARTNERSHIP, "client_id": "team-1"}).json()["id"] == g["id"]
    gid = g["id"]
    # table 1: Ann (seat 0) knocks 4 v 30 -> 26; table 2: Di (seat 3) knocks 3 v 10 -> 7: split, A scores 19
    split = hand({"ender": 0, "deadwood": [4, 30]}, {"seats": [2, 3], "ender": 3, "deadwood": [10, 3]})
    r = api.post(f"/api/v1/games/{gid}/hands", {**split, "client_id": "h1", "expected_version": 1})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["result"]["points"] == [19, 0] and "difference" in out["result"]["notes"][0]
    assert out["game"]["scores"] == [19, 0, 19, 0] and out["game"]["team_scores"] == [19, 0]
    assert out["game"]["teams"][0]["players"] == ["Ann", "Cy"]
    assert out["game"]["hands"][0]["tables"][1] == {"seats": [2, 3], "ender": 3, "deadwood": [10, 3]}
    # a retried client id is answered once; a stale version is 409 and writes nothing
    again = api.post(f"/api/v1/games/{gid}/hands", {**split, "client_id": "h1", "expected_version": 1})
    assert again.json()["game"]["version"] == 2
    stale = api.post(f"/api/v1/games/{gid}/hands", {**split, "expected_version": 1})
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_version"
    # both team-mates of B win: B scores the sum (pagat: gin 20 + 20, and 12 - 2)
    both_b = hand({"ender": 1, "deadwood": [20, 0]}, {"ender": 3, "deadwood": [12, 2]})
    out = api.post(f"/api/v1/games/{gid}/hands", both_b).json()
    assert out["result"]["points"] == [0, 40 + 10] and out["game"]["team_scores"] == [19, 50]
    # correction of hand 1 (cards at table 1), then undo of the correction
    cards = [["2H", "3H", "4H", "5H", "KS", "KD", "KC", "AS", "AD", "2C"],
             ["AH", "6H", "7H", "QS", "QD", "QC", "8S", "8D", "9C", "10C"]]
    fix = hand({"ender": 0, "hands": cards}, {"ender": 3, "deadwood": [10, 3]})
    r = api.put(f"/api/v1/games/{gid}/hands/1", fix)
    assert r.status_code == 200, r.text
    assert r.json()["game"]["hands"][0]["corrected"] and r.json()["game"]["team_scores"][0] != 19
    undone = api.post(f"/api/v1/games/{gid}/undo", {}).json()["game"]
    assert undone["team_scores"] == [19, 50]
    # play to the target of 125: B wins the match, seats 1 and 3
    while not api.get(f"/api/v1/games/{gid}")["finished"]:
        assert api.post(f"/api/v1/games/{gid}/hands", both_b).status_code == 200
    done = api.get(f"/api/v1/games/{gid}")
    assert done["winner"] == 1 and done["winning_seats"] == [1, 3] and done["team_scores"][1] >= 125
    assert done["teams"][1]["won"] and done["final"][1] == done["final"][3] > done["team_scores"][1]
    # listed with team totals, exported and imported again
    line = next(x for x in api.get("/api/v1/games")["games"] if x["id"] == gid)
    assert line["team_mode"] == "pagat_partnership" and line["scores"] == done["scores"]
    assert line["tally"]["won"][3] >= 1  # each player's own pair games
    copy = api.post("/api/v1/games/import", api.get(f"/api/v1/games/{gid}/export.json"))
    assert copy.status_code == 201, copy.text
    assert copy.json()["team_scores"] == done["team_scores"] and copy.json()["winner"] == 1
    # the statistics count a team win for both partners
    stats = {p["name"]: p for p in api.get("/api/v1/players")["players"]}
    assert stats["Di"]["wins"] >= 1 and stats["Bob"]["wins"] >= 1 and stats["Ann"]["wins"] == 0


def test_partnership_bad_entries_name_the_rule_and_write_nothing(api: Api) -> None:
    gid = api.post("/api/v1/games", PARTNERSHIP).json()["id"]
    before = api.store.count()
    ok1, ok2 = {"ender": 0, "deadwood": [4, 30]}, {"ender": 2, "deadwood": [3, 20]}
    for body, words in (
        ({"ender": None, "tables": [ok1]}, "needs both pair games"),
        ({"ender": None, "tables": [ok1, ok2, ok2]}, "needs both pair games"),
        ({"ender": 0, "deadwood": [4, 30, 5, 6]}, "\"tables\""),
        (hand(ok1, ok2, ender=0), "\"ender\" goes inside a table"),
        (hand({"ender": 2, "deadwood": [4, 30]}, ok2), "ender 2 does not play at this table"),
        (hand(ok1, {"seats": [1, 3], "ender": 3, "deadwood": [4, 30]}), "partners sit across"),
        (hand(ok1, {"ender": 2, "deadwood": [4]}), "two whole numbers"),
        (hand(ok1, {"ender": 2, "deadwood": [14, 30]}), "deadwood must be 10 or less"),
        (hand(ok1, {"ender": 2, "hands": [["AS"], ["2S"]], "declared": [["AS", "2S", "4S"]]}), "table 2"),
    ):
        refused(api.post(f"/api/v1/games/{gid}/hands", body), words)
        refused(api.post(f"/api/v1/games/{gid}/hands/preview", body), words)
    assert api.store.count() == before and api.get(f"/api/v1/games/{gid}")["hands"] == []
    # the seats of the game itself
    r = api.post("/api/v1/games", {**PARTNERSHIP, "players": PLAYERS[:3]})
    assert r.status_code == 400 and "four players in two teams" in r.json()["error"]["message"]
    r = api.post("/api/v1/games", {"variant": "gin", "players": PLAYERS})
    assert r.status_code == 400 and "team_mode to pagat_partnership" in r.json()["error"]["message"]
    # a two-player game takes no tables; a normal hand still needs its ender
    duo = api.post("/api/v1/games", {"variant": "gin", "players": ["Ann", "Bob"]}).json()["id"]
    r = api.post(f"/api/v1/games/{duo}/hands", hand(ok1, ok2))
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_team_entry"
    for body in ({"deadwood": [4, 30]}, hand(ok1, {"deadwood": [4, 30]})):  # an ender is always said
        r = api.post(f"/api/v1/games/{gid}/hands", body)
        assert r.status_code == 422 and "ender" in r.json()["error"]["message"], r.text
    assert api.store.count() == before + 1


# --------------------------------------------------------------------------- outing


def win_match(api: Api, gid: str, first_wins: bool) -> dict[str, Any]:
    """Enter hands until the pair match is over (the first or the second player wins)."""
    body = {"ender": 0, "deadwood": [0, 60]} if first_wins else {"ender": 1, "deadwood": [60, 0]}
    out: dict[str, Any] = {}
    while not api.get(f"/api/v1/games/{gid}")["finished"]:
        r = api.post(f"/api/v1/games/{gid}/hands", body)
        assert r.status_code == 200, r.text
        out = r.json()
    return out


def test_outing_rounds_are_gin_games_and_winners_meet_winners(api: Api) -> None:
    body = {"players": ["A1", "A2", "B1", "B2"], "sides": [0, 0, 1, 1], "preset": "pagat",
            "options": {"outing_target": 5000}, "client_id": "outing-1"}
    r = api.post("/api/v1/outings", body)
    assert r.status_code == 201, r.text
    o = r.json()
    assert api.post("/api/v1/outings", body).json()["id"] == o["id"]  # retried
    assert [m["players"] for m in o["matches"]] == [["A1", "B1"], ["A2", "B2"]] and o["round"] == 1
    g1, g2 = o["rounds"][0]
    game = api.get(f"/api/v1/games/{g1}")
    assert game["outing"] == o["id"] and game["variant"] == "gin" and game["players"] == ["A1", "B1"]
    assert {x["id"] for x in api.get("/api/v1/games")["games"]} >= {g1, g2}
    # not yet: round 1 is still being played
    r = api.post(f"/api/v1/outings/{o['id']}/rounds", {})
    refused(r, "round 1 is still being played")
    win_match(api, g1, True)    # A1 beats B1
    mid = api.get(f"/api/v1/outings/{o['id']}")
    assert not mid["round_finished"] and mid["next_round"] is None
    win_match(api, g2, False)   # B2 beats A2: the round is over and round 2 is paired by itself
    o = api.get(f"/api/v1/outings/{o['id']}")
    assert o["round"] == 2 and len(o["rounds"]) == 2
    assert [m["players"] for m in o["matches"] if m["round"] == 2] == [["A1", "B2"], ["B1", "A2"]]
    totals = {p["name"]: p for p in o["players"]}
    assert totals["A1"]["matches_won"] == 1 and totals["B1"]["total"] == 0
    assert o["sides"][0]["total"] == totals["A1"]["total"] + totals["A2"]["total"]
    # each side won one match by the same hands: level
    assert o["sides"][0]["total"] == o["sides"][1]["total"] > 0 and o["leading_side"] is None and not o["over"]
    # a stale round number is 409
    r = api.post(f"/api/v1/outings/{o['id']}/rounds", {"expected_round": 1})
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"
    lines = api.get("/api/v1/outings")["outings"]
    assert [x["id"] for x in lines] == [o["id"]] and lines[0]["round"] == 2


def test_outing_ends_at_its_target_and_refuses_bad_set_ups(api: Api) -> None:
    before = api.store.count()
    for body, words in (
        ({"players": ["A", "B", "C"]}, "an even number of players"),
        ({"players": ["A", "B", "C", "D"], "sides": [0, 0, 0, 1]}, "the two sides must be equal: 3 against 1"),
        ({"players": ["A", "a"]}, "the same name"),
        ({"players": ["A", "B"], "options": {"team_mode": "pagat_partnership"}}, "team_mode pair_tournament"),
    ):
        refused(api.post("/api/v1/outings", body), words)
    r = api.post("/api/v1/outings", {"players": ["A", "B"], "options": {"outing_target": "lots"}})
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_options"
    assert api.store.count() == before and api.get("/api/v1/outings")["outings"] == []
    r = api.c.get("/api/v1/outings/o-nope")
    assert r.status_code == 404
    o = api.post("/api/v1/outings", {"players": ["Ann", "Bob"], "preset": "pagat",
                                     "options": {"outing_target": 100, "outing_minutes": 90}}).json()
    assert o["outing_target"] == 100 and o["outing_minutes"] == 90 and not o["over"]
    win_match(api, o["rounds"][0][0], True)
    o = api.get(f"/api/v1/outings/{o['id']}")
    assert o["over"] and o["ended_by"] == "target" and o["round"] == 1 and o["next_round"] is None
    refused(api.post(f"/api/v1/outings/{o['id']}/rounds", {}), "the outing is over")


# --------------------------------------------------------------------------- restart


@pytest.mark.live
def test_a_restarted_server_keeps_partnerships_and_outings(tmp_path: Path) -> None:
    data = tmp_path / "data"
    srv = LiveServer(data).start()
    try:
        token = httpx.post(srv.url + "/api/v1/pair", json={"code": LIVE_CODE, "name": "t"}).json()["token"]
        c = httpx.Client(base_url=srv.url, headers={"Authorization": f"Bearer {token}"}, timeout=10)
        gid = c.post("/api/v1/games", json=PARTNERSHIP).json()["id"]
        r = c.post(f"/api/v1/games/{gid}/hands", json=hand({"ender": 0, "deadwood": [4, 30]},
                                                            {"ender": 2, "deadwood": [2, 20]}))
        assert r.status_code == 200 and r.json()["game"]["team_scores"] == [44, 0]
        o = c.post("/api/v1/outings", json={"players": PLAYERS, "options": {"outing_minutes": 60}}).json()
        first = o["rounds"][0][0]
        assert c.post(f"/api/v1/games/{first}/hands", json={"ender": 0, "deadwood": [0, 30]}).status_code == 200
        before = c.get(f"/api/v1/outings/{o['id']}").json()
    finally:
        srv.kill()
    srv = LiveServer(data).start()
    try:
        c = httpx.Client(base_url=srv.url, timeout=10)
        g = c.get(f"/api/v1/games/{gid}").json()
        assert g["team_scores"] == [44, 0] and g["hands"][0]["tables"][1]["ender"] == 2
        after = c.get(f"/api/v1/outings/{o['id']}").json()
        assert after["players"] == before["players"] and after["rounds"] == before["rounds"]
        assert after["matches"][0]["hands"] == 1 and c.get(f"/api/v1/games/{first}").json()["outing"] == o["id"]
    finally:
        srv.kill()


# --------------------------------------------------------------------------- dealers and winners


def test_partnership_tracks_each_tables_dealer(api: Api) -> None:
    """Each table deals as its own pair game: the game's first dealer and their
    partner's place at the other table, then the preset's next_dealer (pagat: the
    winner deals) on that table's result, the same dealer after a void game; a table
    entered with its dealer (the flip for the first deal) sets it for that hand."""
    g = api.post("/api/v1/games", {**PARTNERSHIP, "dealer": 1}).json()
    gid = g["id"]
    assert g["table_dealers"] == [1, 3] and g["dealer"] == 1
    # hand 1: Ann (0) wins table 1; table 2 is void: its dealer stays
    r = api.post(f"/api/v1/games/{gid}/hands", hand({"ender": 0, "deadwood": [4, 30]}, {"ender": None, "deadwood": [10, 3]}))
    assert r.status_code == 200, r.text
    g = r.json()["game"]
    assert g["hands"][0]["dealers"] == [1, 3] and g["table_dealers"] == [0, 3]
    assert api.get("/api/v1/games")["games"][0]["table_dealers"] == [0, 3]
    # hand 2: table 2 says Cy dealt (they flipped again); Di wins table 2, so Di deals next
    r = api.post(f"/api/v1/games/{gid}/hands", hand({"ender": 1, "deadwood": [20, 5]},
                                                    {"ender": 3, "dealer": 2, "deadwood": [10, 3]}))
    g = r.json()["game"]
    assert g["hands"][1]["dealers"] == [0, 2] and g["hands"][1]["tables"][1]["dealer"] == 2
    assert g["table_dealers"] == [1, 3]
    # a correction of hand 1 deals again from there: Bob wins table 1 of hand 1
    r = api.put(f"/api/v1/games/{gid}/hands/1", hand({"ender": 1, "deadwood": [30, 4]}, {"ender": None, "deadwood": [10, 3]}))
    assert r.status_code == 200, r.text
    assert r.json()["game"]["hands"][1]["dealers"] == [1, 2]
    # a dealer who does not sit at the table is refused, naming the rule, and nothing is written
    before = api.get(f"/api/v1/games/{gid}")
    bad = api.post(f"/api/v1/games/{gid}/hands", hand({"ender": 0, "dealer": 2, "deadwood": [4, 30]},
                                                      {"ender": 3, "deadwood": [10, 3]}))
    refused(bad, "table 1 (seat 0 v seat 1): dealer 2 does not play at this table")
    assert api.get(f"/api/v1/games/{gid}")["version"] == before["version"]


def test_a_finished_partnership_names_the_winning_team_everywhere(api: Api) -> None:
    """The winner of a partnership is team B (seats 1 and 3): the game, its summary
    line, the history and the statistics say both partners, never seat 1 alone."""
    gid = api.post("/api/v1/games", PARTNERSHIP).json()["id"]
    while not api.get(f"/api/v1/games/{gid}")["finished"]:
        r = api.post(f"/api/v1/games/{gid}/hands", hand({"ender": 1, "deadwood": [60, 0]}, {"ender": 3, "deadwood": [60, 0]}))
        assert r.status_code == 200, r.text
    g = api.get(f"/api/v1/games/{gid}")
    assert g["winner"] == 1 and g["winning_seats"] == [1, 3]
    assert [t["won"] for t in g["teams"]] == [False, True] and g["teams"][1]["players"] == ["Bob", "Di"]
    line = next(x for x in api.get("/api/v1/history")["games"] if x["id"] == gid)
    assert line["winner"] == 1 and line["winning_seats"] == [1, 3] and line["team_mode"] == "pagat_partnership"
    stats = {p["name"]: p for p in api.get("/api/v1/stats?variant=gin")["players"]}
    assert {n: (stats[n]["wins"], stats[n]["losses"]) for n in PLAYERS} == {
        "Ann": (0, 1), "Bob": (1, 0), "Cy": (0, 1), "Di": (1, 0)}
    rivals = {h["opponent"] for h in stats["Bob"]["variants"][0]["head_to_head"]}
    assert rivals == {"Ann", "Cy"}  # partners are not each other's opponents


def test_partnership_preview_shows_each_table_and_its_tied_arrangements(api: Api) -> None:
    """The preview of a partnership hand answers per table: the winner's points in parts
    and, entered as cards, the ender's arrangements that tie on the least deadwood; the
    declared one is used, a declared meld that is not legal is refused naming the table."""
    gid = api.post("/api/v1/games", PARTNERSHIP).json()["id"]
    cy = "AD 2D 3D 2H 2C AC 7S 8S 9S 10S".split()          # AD 2D 3D or 2H 2D 2C: deadwood 3 both ways
    di = "5C 6C 8D 8H 4D 4H 3C 9D 10H JS".split()
    body = hand({"ender": 0, "deadwood": [4, 30]}, {"ender": 2, "hands": [cy, di]})
    r = api.post(f"/api/v1/games/{gid}/hands/preview", body)
    assert r.status_code == 200, r.text
    p = r.json()
    assert p["preview"] is True and api.get(f"/api/v1/games/{gid}")["hands"] == []
    assert p["table_arrangements"][0] is None and len(p["table_arrangements"][1]) == 2
    assert p["table_breakdowns"][0]["parts"] == [{"label": "deadwood difference (30 - 4)", "points": 26}]
    t2 = p["result"]["extra"]["tables"][1]
    assert t2["winner"] == 0 and p["table_breakdowns"][1]["seat"] == 0
    other = p["table_arrangements"][1][1]["melds"]
    r = api.post(f"/api/v1/games/{gid}/hands/preview",
                 hand({"ender": 0, "deadwood": [4, 30]}, {"ender": 2, "hands": [cy, di], "declared": other}))
    assert r.status_code == 200, r.text
    used = r.json()["result"]["extra"]["tables"][1]["melds"][0]
    assert sorted(map(sorted, used)) == sorted(map(sorted, other))
    bad = api.post(f"/api/v1/games/{gid}/hands",
                   hand({"ender": 0, "deadwood": [4, 30]}, {"ender": 2, "hands": [cy, di], "declared": [["AD", "2H", "7S"]]}))
    assert bad.status_code == 422 and "table 2 (seat 2 v seat 3)" in bad.json()["error"]["message"], bad.text
    assert api.get(f"/api/v1/games/{gid}")["version"] == 1
    # a refusal from the gin rules names the game's seats, not the table's own 0 and 1
    clash = api.post(f"/api/v1/games/{gid}/hands/preview",
                     hand({"ender": 0, "deadwood": [4, 30]}, {"ender": 2, "hands": [cy, di[:-1] + ["8S"]]}))
    assert clash.status_code == 422 and "seat 3: 8S is already in another hand" in clash.json()["error"]["message"], clash.text


def test_a_team_games_line_stored_before_the_team_play_flag_gets_it(tmp_path: Path) -> None:
    """A partnership's summary line written before lines carried ``team_play`` (the flag
    the page shows the teams on) says it when read again, from a real SQLite file."""
    import json
    import sqlite3

    from companion.store import FILENAME

    from companion.table.hands import HandInput

    store = open_store(tmp_path)
    table = Table(store)
    made = table.create_game("gin", players=PLAYERS, preset="pagat", options={"team_mode": "pagat_partnership"})
    gid = (made.get("game") or made)["id"]
    two = table.create_game("gin", players=PLAYERS[:2])
    plain = (two.get("game") or two)["id"]
    # both games over: a finished game's line is the stored one (an open game is folded at start)
    tables = [{"seats": [0, 1], "ender": 0, "deadwood": [0, 90]}, {"seats": [2, 3], "ender": 2, "deadwood": [0, 90]}]
    while not table.game(gid)["finished"]:
        table.score_hand(gid, HandInput(ender=None, tables=tables))
    while not table.game(plain)["finished"]:
        table.score_hand(plain, HandInput(ender=0, deadwood=[0, 90]))
    store.close()
    with sqlite3.connect(tmp_path / FILENAME) as db:  # as an older version wrote it
        for row_id, raw in db.execute("SELECT id, summary FROM games").fetchall():
            line = json.loads(raw)
            assert ("team_play" in line) is (row_id == gid)
            line.pop("team_play", None)
            db.execute("UPDATE games SET summary = ? WHERE id = ?", (json.dumps(line), row_id))
    store = open_store(tmp_path)
    try:
        lines = {g["id"]: g for g in Table(store).games()}
    finally:
        store.close()
    assert lines[gid]["team_play"] is True and lines[gid]["team_mode"] == "pagat_partnership"
    assert "team_play" not in lines[plain]
