"""Team play for Gin Rummy (pagat partnership, seed 004's outing), declared melds and
the first-dealer flip through the API."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.api.app import create_app
from companion.pairing import Pairing
from companion.games.gin import outing, teams
from companion.games.gin import rules as gin
from companion.store import open_store
from companion.table import Table

ISSUE_HANDS = ["2H 3H 4H 5H KS KD KC AS AD 2C", "AH 6H 7H QS QD QC 8S 8D 9C 10C"]


def knock(dw0: int, dw1: int, ender: int = 0) -> Any:
    return gin.score_from_deadwood([dw0, dw1], ender)


# --------------------------------------------------------------------------- partnership


def test_partnership_combines_the_two_pair_games() -> None:
    both_a = teams.partnership_hand(knock(4, 30), knock(2, 20))  # seats 0 and 2 win 26 and 18
    assert both_a.points == [44, 0] and both_a.winner == 0 and "sum" in both_a.notes[0]
    split = teams.partnership_hand(knock(4, 30), knock(10, 3))  # A 26, B undercuts 32
    assert split.points == [0, 6] and split.winner == 1 and "difference" in split.notes[0]
    level = teams.partnership_hand(knock(4, 30), knock(27, 1, ender=1))  # B knocks 1 v 27: 26
    assert level.points == [0, 0] and level.winner is None
    void = teams.partnership_hand(gin.score_from_deadwood([5, 9], None), knock(3, 13))
    assert void.points == [10, 0] and void.winner == 0


def test_partnership_match_to_125_with_the_presets_bonuses() -> None:
    opts = gin.make_options("gin_004", team_mode="pagat_partnership")
    hands = [teams.partnership_hand(knock(0, 40), knock(1, 30))] * 2  # 65 + 29 = 94 per hand
    m = teams.score_partnership(hands[:1], opts)
    assert not m.finished and m.totals == [94, 0]
    m = teams.score_partnership(hands, opts)
    assert m.finished and m.winner == 0 and m.totals == [188, 0]
    # game bonus 100, shutout doubles, then two boxes of 25 (gin_004)
    assert m.final == [(188 + 100) * 2 + 50, 0]
    assert teams.score_partnership(hands[:1], gin.make_options(team_target=90)).finished
    with pytest.raises(ValueError, match="not a partnership hand"):
        teams.score_partnership([knock(4, 30)], opts)
    with pytest.raises(ValueError, match="four players in two teams"):
        teams.check_partnership_seats(3, opts)


# --------------------------------------------------------------------------- outing


def play_match_out(o: outing.Outing, i: int, first_wins: bool) -> outing.Outing:
    while not outing.match_score(o, i).finished:
        o = outing.record_hand(o, i, knock(0, 60) if first_wins else knock(60, 0, ender=1))
    return o


def test_outing_rounds_winners_play_winners() -> None:
    o = outing.new_outing(["A1", "A2", "A3", "B1", "B2", "B3"], [0, 0, 0, 1, 1, 1],
                          gin.make_options(team_mode="pair_tournament", outing_target=2000))
    assert [m.players for m in o.matches] == [(0, 3), (1, 4), (2, 5)]
    with pytest.raises(ValueError, match="round 1 is still being played"):
        outing.next_round(o)
    o = play_match_out(o, 0, True)   # A1 beats B1
    o = play_match_out(o, 1, False)  # B2 beats A2
    o = play_match_out(o, 2, True)   # A3 beats B3
    with pytest.raises(ValueError, match="has ended"):
        outing.record_hand(o, 0, knock(0, 60))
    o2 = outing.next_round(o)
    # winners A1, B2, A3; losers B1, A2, B3: A1 v B2, B1 v A2, and A3 v B3 (odd round)
    assert [m.players for m in o2.matches[3:]] == [(0, 4), (3, 1), (2, 5)]
    with pytest.raises(ValueError, match="belongs to round 1"):
        outing.record_hand(o2, 0, knock(0, 60))
    s = outing.standings(o2)
    totals = {p["name"]: p["total"] for p in s["players"]}
    assert totals["A1"] == outing.match_score(o, 0).final[0] and totals["B1"] == 0
    assert s["sides"][0]["total"] == totals["A1"] + totals["A2"] + totals["A3"]
    assert s["round"] == 2 and not s["over"] and s["leading_side"] == 0
    assert [p["name"] for p in s["players"]][0] in ("A1", "A3")


def test_outing_ends_on_target_or_time_and_refuses_bad_sides() -> None:
    o = outing.new_outing(["Ann", "Bob"], None, gin.make_options(outing_target=100, outing_minutes=90))
    assert not outing.standings(o, 30)["over"]
    assert outing.standings(o, 90)["ended_by"] == "time"
    o = play_match_out(o, 0, True)
    assert outing.standings(o)["ended_by"] == "target"
    with pytest.raises(ValueError, match="the outing is over"):
        outing.next_round(o)
    for players, sides, words in (
        (["A", "B", "C"], None, "an even number of players"),
        (["A", "B", "C", "D"], [0, 0, 0, 1], "the two sides must be equal: 3 against 1"),
        (["A", "B"], [0, 2], "each side is 0 or 1"),
        (["A", "a"], None, "the same name"),
    ):
        with pytest.raises(ValueError, match=words):
            outing.new_outing(players, sides)


# --------------------------------------------------------------------------- API


@pytest.fixture()
def client(tmp_path: Path) -> Any:
    store = open_store(tmp_path)
    app = create_app(Table(store), pairing=Pairing(store, code="1357", host_code="h"))
    try:
        with TestClient(app, base_url="http://localhost") as c:
            yield c
    finally:
        store.close()


def test_api_first_dealer_quick_entry(client: Any) -> None:
    r = client.post("/api/v1/rules/first-dealer", json={"players": 2, "flips": [["7H", "7S"], ["2C", "KD"]],
                                                         "choice": "pass"})
    assert r.status_code == 200 and (r.json()["winner"], r.json()["dealer"]) == (1, 0)
    assert r.json()["rounds"][1] == [{"seat": 0, "card": "2C"}, {"seat": 1, "card": "KD"}]
    r = client.post("/api/v1/rules/first-dealer", json={"players": 2, "flips": [["7H", "7S"]]})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_first_dealer"
    assert "flip again" in r.json()["error"]["message"]


def test_api_partnership_and_wrong_seats(client: Any) -> None:
    game = {"ender": 0, "deadwood": [4, 30]}
    split_hands = [h.split() for h in ISSUE_HANDS]
    body = {"players": ["Ann", "Bob", "Cy", "Di"], "hands": [[game, {"ender": 0, "hands": split_hands,
                                                                       "declared": [["3H", "4H", "5H"], ["KS", "KD", "KC"]]}]]}
    r = client.post("/api/v1/teams/partnership", json=body)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["hands"][0]["points"] == [26 + 30, 0] and out["match"]["totals"] == [56, 0]
    assert out["teams"][0]["players"] == ["Ann", "Cy"]
    bad = client.post("/api/v1/teams/partnership", json={**body, "players": ["Ann", "Bob", "Cy"]})
    assert bad.status_code == 422 and "four players in two teams" in bad.json()["error"]["message"]
    one = client.post("/api/v1/teams/partnership", json={**body, "hands": [[game]]})
    assert one.status_code == 422 and "entered together" in one.json()["error"]["message"]
    illegal = {"ender": 0, "hands": split_hands, "declared": [["2H", "3H", "5H"]]}
    r = client.post("/api/v1/teams/partnership", json={**body, "hands": [[game, illegal]]})
    assert r.status_code == 422 and "not a run" in r.json()["error"]["message"]


def test_api_outing_standings_and_next_round(client: Any) -> None:
    win = {"ender": 0, "deadwood": [0, 60]}
    body = {"players": ["A1", "A2", "B1", "B2"], "sides": [0, 0, 1, 1],
            "matches": [{"hands": [win, win]}, {"hands": [win, win]}]}
    r = client.post("/api/v1/teams/outing", json=body)
    assert r.status_code == 200, r.text
    s = r.json()
    assert s["round_finished"] and s["next_round"] == [["A1", "A2"], ["B1", "B2"]]
    assert s["sides"][1]["total"] == 0 and s["players"][0]["matches_won"] == 1
    bad = client.post("/api/v1/teams/outing", json={**body, "sides": [0, 1, 1, 1]})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_team_entry"
    assert "the two sides must be equal" in bad.json()["error"]["message"]


def test_api_gin_hand_with_declared_melds(client: Any) -> None:
    token = client.post("/api/v1/pair", json={"code": "1357", "name": "t"}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    g = client.post("/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"]}, headers=auth).json()
    entry = {"ender": 0, "hands": [ISSUE_HANDS[0].split(), ISSUE_HANDS[1].split()],
             "declared": [["3H", "4H", "5H"], ["KS", "KD", "KC"]]}
    p = client.post(f"/api/v1/games/{g['id']}/hands/preview", json=entry, headers=auth)
    assert p.status_code == 200, p.text
    assert p.json()["result"]["points"] == [30, 0]
    assert p.json()["result"]["melds"][0] == [["3H", "4H", "5H"], ["KS", "KD", "KC"]]
    bad = client.post(f"/api/v1/games/{g['id']}/hands", json={**entry, "declared": [["2H", "3H", "5H"]]},
                      headers=auth)
    assert bad.status_code == 422 and "declared meld 1" in bad.json()["error"]["message"]
    assert client.get(f"/api/v1/games/{g['id']}").json()["hands"] == []  # nothing changed
    ok = client.post(f"/api/v1/games/{g['id']}/hands", json=entry, headers=auth)
    assert ok.status_code in (200, 201), ok.text


def test_a_table_gin_game_cannot_be_a_partnership(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        table = Table(store)
        before = store.count()
        with pytest.raises(Exception, match="team_mode pagat_partnership: four players in two teams"):
            table.create_game("gin", players=["Ann", "Bob"], options={"team_mode": "pagat_partnership"})
        assert store.count() == before
        g = table.create_game("gin", players=["Ann", "Bob"], options={"team_mode": "pair_tournament"})
        assert g["variant"] == "gin"  # a pair match of an outing is an ordinary gin match
    finally:
        store.close()
