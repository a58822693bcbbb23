"""Players across games: companion.stats on summary lines, and the read endpoints
(/api/v1/players, /api/v1/stats, /api/v1/history) on the real app, store and engines."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import stats
from companion.api.routes.people import sides_of
from companion.games.color_gin import rules as color_gin


def line(gid: str, variant: str, players: list[str], winner: int | None, t: float, **extra: Any) -> dict[str, Any]:
    return {"id": gid, "variant": variant, "players": players, "winner": winner, "finished": winner is not None,
            "created": t, **extra}


def by_name(found: list[stats.PlayerStats]) -> dict[str, stats.PlayerStats]:
    return {p.name: p for p in found}


def test_streaks_follow_the_order_games_were_played_not_the_order_given() -> None:
    wins = [0, 0, 1, 0, 0, 0, 1]           # Ana, Ana, Ben, Ana x3, Ben
    lines = [line(f"g{i}", "gin", ["Ana", "Ben"], w, float(100 - i)) for i, w in enumerate(wins)]
    # given newest first (t = 100 - i): played oldest first they are wins reversed
    played = list(reversed(wins))          # Ben, Ana, Ana, Ana, Ben, Ana, Ana
    ana = by_name(stats.player_stats(lines))["Ana"].variants[0]
    ben = by_name(stats.player_stats(lines))["Ben"].variants[0]
    assert (ana.games, ana.wins) == (7, played.count(0))
    assert ana.best_streak == 3 and ana.current_streak == 2
    assert ben.best_streak == 1 and ben.current_streak == 0
    assert [(h.opponent, h.games, h.wins, h.losses) for h in ana.head_to_head] == [("Ben", 7, 5, 2)]


def test_three_players_head_to_head_and_hand_tallies() -> None:
    tally = {"points": [27, 0, 13], "won": [1, 0, 1], "gins": [1, 0, 0], "big_gins": [1, 0, 0], "undercuts": [0, 0, 1]}
    lines = [line("a", "ginski", ["Kim", "Lou", "Max"], 2, 1.0, hands_played=2, tally=tally),
             line("b", "ginski", ["Kim", "Lou", "Max"], None, 2.0, hands_played=1,
                  tally={"points": [5, 0, 0], "won": [1, 0, 0], "gins": [0, 0, 0], "big_gins": [0, 0, 0],
                         "undercuts": [0, 0, 0]})]
    got = by_name(stats.player_stats(lines))
    kim, maxi = got["Kim"].variants[0], got["Max"].variants[0]
    assert (kim.games, kim.wins, kim.hands, kim.hands_won, kim.points) == (1, 0, 3, 2, 32)
    assert kim.average_hand() == round(32 / 3, 1) and kim.gins == 1 and kim.big_gins == 1
    assert (maxi.wins, maxi.undercuts, maxi.current_streak) == (1, 1, 1)
    assert {(h.opponent, h.games, h.wins, h.losses) for h in kim.head_to_head} == {("Lou", 1, 0, 0), ("Max", 1, 0, 1)}
    assert got["Kim"].played == 2 and got["Kim"].games == 1   # the unfinished game's hands count, not its result


def test_gingo_sides_partners_are_not_opponents() -> None:
    # four players as two teams: seats 0 and 2 against 1 and 3; side 2 won, 3 hands to 1
    lines = [line("g", "gingo", ["Pam", "Quin", "Rae", "Sol"], 2, 1.0, scores=[1, 3], hands_played=4)]
    got = by_name(stats.player_stats(lines, sides_of))
    quin, pam = got["Quin"].variants[0], got["Pam"].variants[0]
    assert (quin.wins, quin.hands_won, pam.wins, pam.hands_won) == (1, 3, 0, 1)
    assert {h.opponent for h in quin.head_to_head} == {"Pam", "Rae"}
    assert quin.average_hand() is None    # Gin-Go hands carry no points


def test_names_are_people_and_imported_copies_count_once() -> None:
    lines = [line("a", "gin", ["Ana", "Ben"], 0, 1.0),
             line("b", "gin", [" ana", "Ben"], 0, 2.0, imported_from="a"),   # a copy of a: counted once
             line("c", "gin", ["ANA", "Cy"], 1, 3.0, imported_from="gone"),  # its original is not here
             line("d", "gin", ["Ana", "Cy"], None, 4.0, damaged={"reason": "x"})]
    got = stats.player_stats(lines)
    assert [p.name for p in got] == ["ANA", "Cy", "Ben"]   # most games, then most recent
    assert (got[0].games, got[0].wins, got[0].last_played) == (2, 1, 3.0)
    assert [p["name"] for p in stats.roster(got)] == ["ANA", "Cy", "Ben"]


def test_color_gin_tally_sums_the_suits_a_hand_scored() -> None:
    cy = ["3H", "4H", "5H", "6H", "8S", "8D", "8C", "JD", "QD", "KD"]
    di = ["AS", "2S", "9S", "4C", "5C", "9C", "JH", "10H", "7D", "2D"]
    r = color_gin.score_hand([cy, di], 0).as_dict()
    t = stats.hand_tally([r], 2)
    assert t["points"] == [sum(r["points"][0].values()), sum(r["points"][1].values())]   # type: ignore[index]
    assert t["points"][0] > 0


# ---- the endpoints, in-process on the real app ------------------------------------------------

@pytest.fixture()
def api(tmp_path: Path) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from companion.api import create_app
    from companion.pairing import Pairing
    from companion.store import open_store
    from companion.table import Table

    store = open_store(tmp_path)
    app = create_app(Table(store), pairing=Pairing(store, code="2468", host_code="h"), names=("testserver",))
    with TestClient(app) as client:
        token = client.post("/api/v1/pair", json={"code": "2468"}).json()["token"]
        client.headers["Authorization"] = f"Bearer {token}"
        yield client
    store.close()


def play_gin(client: Any, players: list[str], hands: list[tuple[int, list[int]]]) -> str:
    g = client.post("/api/v1/games", json={"variant": "gin", "players": players, "preset": "gin_004"}).json()
    for ender, dw in hands:
        r = client.post(f"/api/v1/games/{g['id']}/hands", json={"ender": ender, "deadwood": dw})
        assert r.status_code == 200, r.text
    return str(g["id"])


def test_players_stats_and_history_endpoints(api: Any) -> None:
    first = play_gin(api, ["Ana", "Ben"], [(0, [3, 30]), (1, [25, 0]), (0, [0, 80])])   # Ana wins
    play_gin(api, ["Ben", "ana"], [(0, [0, 90])])                                        # Ben wins
    open_game = play_gin(api, ["Ana", "Cy"], [(1, [20, 0])])                             # in play
    # Reads are open: no token needed.
    anon = {"Authorization": ""}
    people = api.get("/api/v1/players", headers=anon).json()["players"]
    assert [p["name"] for p in people] == ["Ana", "Cy", "Ben"]
    assert people[0] == {"name": "Ana", "played": 3, "games": 2, "wins": 1, "last_played": people[0]["last_played"],
                         "variants": ["gin"]}
    body = api.get("/api/v1/stats", params={"player": "ANA"}, headers=anon).json()
    assert body["games"] == 3 and body["finished"] == 2
    (ana,) = body["players"]
    (gin,) = ana["variants"]
    assert (gin["games"], gin["wins"], gin["losses"], gin["current_streak"], gin["best_streak"]) == (2, 1, 1, 0, 1)
    # hands: Ana knocked for 27, Ben's gin, Ana's gin for 105, Ben's gin of 90 + 25, Cy's gin
    assert (gin["hands"], gin["hands_won"], gin["points"], gin["gins"], gin["undercuts"]) == (5, 2, 132, 1, 0)
    assert gin["average_hand"] == round(132 / 5, 1)
    assert gin["head_to_head"] == [{"opponent": "Ben", "games": 2, "wins": 1, "losses": 1}]
    hist = api.get("/api/v1/history", headers=anon).json()
    assert [g["id"] for g in hist["games"]][-1] == first and hist["total"] == 2
    assert open_game not in [g["id"] for g in hist["games"]]
    assert all(g["finished"] for g in hist["games"])
    page = api.get("/api/v1/history", params={"limit": 1}).json()
    assert len(page["games"]) == 1 and page["next_before"] == page["games"][0]["id"]
    rest = api.get("/api/v1/history", params={"limit": 1, "before": page["next_before"]}).json()
    assert [g["id"] for g in rest["games"]] == [first] and rest["next_before"] is None
    assert api.get("/api/v1/history", params={"player": "cy"}).json()["total"] == 0
    # A wrong game name is a clear error.
    r = api.get("/api/v1/stats", params={"variant": "chess"})
    assert r.status_code == 400 and "chess" in r.json()["error"]["message"]


def test_stats_survive_export_delete_and_import_with_their_date(api: Any) -> None:
    gid = play_gin(api, ["Dee", "Eli"], [(0, [0, 90])])
    before = api.get("/api/v1/stats", params={"player": "Dee"}).json()["players"]
    exported = api.get(f"/api/v1/games/{gid}/export.json").json()
    played = exported["events"][0]["time"]
    # while the original is here, an imported copy counts once
    copy = api.post("/api/v1/games/import", json=exported).json()
    assert api.get("/api/v1/stats", params={"player": "Dee"}).json()["players"] == before
    # the original is deleted (a new SD card, say): the copy carries the numbers and the date
    assert api.delete(f"/api/v1/games/{gid}", headers={"X-Host-Code": "h"}).status_code == 200
    assert api.get("/api/v1/stats", params={"player": "Dee"}).json()["players"] == before
    line = api.get(f"/api/v1/games/{copy['id']}/summary").json()
    assert line["played_at"] == played and line["imported_from"] == gid
    (h,) = api.get("/api/v1/history").json()["games"]
    assert h["id"] == copy["id"] and h["played_at"] == played
    # and again from the copy's own export (the first date is kept)
    again = api.post("/api/v1/games/import", json=api.get(f"/api/v1/games/{copy['id']}/export.json").json()).json()
    assert api.get(f"/api/v1/games/{again['id']}/summary").json()["played_at"] == played


def test_a_line_stored_without_its_tally_is_renewed_once(tmp_path: Path) -> None:
    """A log written before lines carried their hands' tally: the first statistics read
    folds those games and writes their lines again; the next start-up reads them as they are."""
    from companion.store import open_store
    from companion.table import HandInput, Table

    store = open_store(tmp_path)
    table = Table(store)
    g = table.create_game("gin", players=["Fay", "Gus"], preset="gin_004", options={}, dealer=0, client_id=None)
    table.score_hand(g["id"], HandInput(ender=0, hands=None, deadwood=[0, 95], declared=None, joker=None,
                                        big_gin=False, upcard=None), client_id=None, expected_version=None)
    store.close()
    # strip the tally from the stored line, as an older companion wrote it
    import sqlite3
    conn = sqlite3.connect(tmp_path / "events.sqlite3")
    raw = json.loads(conn.execute("SELECT summary FROM games WHERE id = ?", (g["id"],)).fetchone()[0])
    assert raw["tally"]["gins"] == [1, 0]
    del raw["tally"]
    conn.execute("UPDATE games SET summary = ? WHERE id = ?", (json.dumps(raw), g["id"]))
    conn.commit()
    conn.close()
    store = open_store(tmp_path)
    table = Table(store)
    (ln,) = table.all_lines()
    assert ln["tally"]["gins"] == [1, 0] and ln["tally"]["points"] == [120, 0]
    store.close()
    conn = sqlite3.connect(tmp_path / "events.sqlite3")
    again = json.loads(conn.execute("SELECT summary FROM games WHERE id = ?", (g["id"],)).fetchone()[0])
    conn.close()
    assert again["tally"] == ln["tally"]
