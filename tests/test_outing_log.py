"""Seed 004's outing kept as steps in the event log (companion/table/outings.py and its
fold, trigger and transfer modules): undo of its last step, its end, delete with or
without its games, export and import with the links restored, the next round paired by
every path a match can end by (a hand, a correction, a redo, an import), an undo that
un-finishes a match un-pairing the round paired from it or refused when that round has
hands, the live channel, and a real server killed with SIGKILL and started again on the
same SQLite file."""

from __future__ import annotations

import json
import sqlite3
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
HOST = "host-7"
WIN0 = {"ender": 0, "deadwood": [0, 60]}   # pagat: gin 25 + 60, the first player wins the match in 2 hands
WIN1 = {"ender": 1, "deadwood": [60, 0]}
FOUR = {"players": ["A1", "A2", "B1", "B2"], "sides": [0, 0, 1, 1], "preset": "pagat",
        "options": {"outing_target": 5000}}


class Api:
    def __init__(self, client: TestClient, store: Any, table: Table) -> None:
        self.c = client
        self.store = store
        self.table = table
        token = client.post("/api/v1/pair", json={"code": CODE, "name": "outing phone"}).json()["token"]
        self.auth = {"Authorization": f"Bearer {token}"}

    def post(self, path: str, body: Any = None) -> Any:
        return self.c.post(path, json=body if body is not None else {}, headers=self.auth)

    def put(self, path: str, body: Any) -> Any:
        return self.c.put(path, json=body, headers=self.auth)

    def delete(self, path: str) -> Any:
        return self.c.delete(path, headers={**self.auth, "X-Host-Code": HOST})

    def get(self, path: str) -> Any:
        r = self.c.get(path)
        assert r.status_code == 200, r.text
        return r.json()

    def outing(self, oid: str) -> Any:
        return self.get(f"/api/v1/outings/{oid}")

    def hand(self, gid: str, body: dict[str, Any]) -> Any:
        r = self.post(f"/api/v1/games/{gid}/hands", body)
        assert r.status_code == 200, r.text
        return r.json()

    def win(self, gid: str, first: bool) -> None:
        while not self.get(f"/api/v1/games/{gid}")["finished"]:
            self.hand(gid, WIN0 if first else WIN1)

    def written(self) -> tuple[int, int]:
        """(game events, outing steps) in the log file."""
        return self.store.count(), len(self.store.outings.events())


@pytest.fixture()
def api(tmp_path: Path) -> Iterator[Api]:
    store = open_store(tmp_path)
    table = Table(store)
    app = create_app(table, pairing=Pairing(store, code=CODE, host_code=HOST), names=("testserver",))
    try:
        with TestClient(app, base_url="http://localhost") as c:
            yield Api(c, store, table)
    finally:
        store.close()


def error(r: Any, status: int, code: str, *words: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    err: dict[str, Any] = r.json()["error"]
    assert err["code"] == code, err
    for w in words:
        assert w in err["message"], (w, err["message"])
    return err


def pairs(o: dict[str, Any], r: int) -> list[list[str]]:
    return [m["players"] for m in o["matches"] if m["round"] == r]


# --------------------------------------------------------------------------- steps, undo, end


def test_steps_versions_undo_and_end(api: Api) -> None:
    o = api.post("/api/v1/outings", FOUR).json()
    oid = o["id"]
    assert o["version"] == 1 and o["undo"] is None and o["ended"] is None
    g1, g2 = o["rounds"][0]
    r = api.post(f"/api/v1/outings/{oid}/undo", {})
    error(r, 409, "nothing_to_undo", "start cannot be undone", f"DELETE /api/v1/outings/{oid}")
    api.win(g1, True)
    api.win(g2, False)
    o = api.outing(oid)   # paired by itself: A1 v B2, B1 v A2
    assert o["version"] == 2 and pairs(o, 2) == [["A1", "B2"], ["B1", "A2"]]
    assert o["undo"]["type"] == "round_paired"
    steps = api.get(f"/api/v1/outings/{oid}/steps")["steps"]
    assert [s["type"] for s in steps] == ["outing_created", "round_paired"] and steps[1]["payload"]["by"] == "auto"
    # undo of the pairing: its two empty games are deleted with it
    r2 = o["rounds"][1]
    stale = api.post(f"/api/v1/outings/{oid}/undo", {"expected_version": 1})
    err = error(stale, 409, "stale_version")
    assert err["details"]["changes"][0]["what"] == "round 2 paired"
    out = api.post(f"/api/v1/outings/{oid}/undo", {"expected_version": 2, "client_id": "u1"})
    assert out.status_code == 200, out.text
    assert out.json()["undone"]["games_deleted"] == r2 and out.json()["outing"]["round"] == 1
    assert api.post(f"/api/v1/outings/{oid}/undo", {"expected_version": 2, "client_id": "u1"}).status_code == 200
    assert api.outing(oid)["version"] == 3  # the retry wrote nothing
    for gid in r2:
        assert api.c.get(f"/api/v1/games/{gid}").status_code == 404
    o = api.outing(oid)
    assert o["round_finished"] and o["next_round"] == [["A1", "B2"], ["B1", "A2"]]
    # pairing again by hand (the button) writes new games
    o = api.post(f"/api/v1/outings/{oid}/rounds", {"expected_round": 1, "client_id": "p1"}).json()
    assert o["round"] == 2 and set(o["rounds"][1]).isdisjoint(r2)
    error(api.post(f"/api/v1/outings/{oid}/rounds", {"client_id": "p1", "expected_round": 2}), 409,
          "client_id_reused")
    # a hand entered in round 2: its pairing can no longer be undone, and the games are named
    g3 = o["rounds"][1][0]
    api.hand(g3, WIN0)
    err = error(api.post(f"/api/v1/outings/{oid}/undo", {}), 409, "outing_round_played", g3, "A1 v B2, 1 hand")
    assert err["details"]["games"] == [g3]
    # the host ends it; undo brings it back
    ended = api.post(f"/api/v1/outings/{oid}/end", {"client_id": "e1"}).json()
    assert ended["over"] and ended["ended_by"] == "host" and ended["ended"]["by"] == "outing phone"
    error(api.post(f"/api/v1/outings/{oid}/end", {}), 409, "finished")
    back = api.post(f"/api/v1/outings/{oid}/undo", {}).json()
    assert back["undone"]["type"] == "outing_ended" and not back["outing"]["over"]


def test_the_target_ends_it_by_itself_and_a_correction_reopens_it(api: Api) -> None:
    o = api.post("/api/v1/outings", {"players": ["Ann", "Bob"], "preset": "pagat",
                                     "options": {"outing_target": 100}}).json()
    oid, gid = o["id"], o["rounds"][0][0]
    api.hand(gid, WIN0)  # 85: not yet
    assert not api.outing(oid)["over"]
    api.hand(gid, WIN0)  # the match ends; Ann's side passes 100
    o = api.outing(oid)
    assert o["over"] and o["ended"] == {**o["ended"], "ended_by": "target", "auto": True}
    err = error(api.post(f"/api/v1/outings/{oid}/undo", {}), 409, "nothing_to_undo", "target 100")
    # correcting the last hand to a small knock takes the side under the target: the end is undone
    fix = api.put(f"/api/v1/games/{gid}/hands/2", {"ender": 0, "deadwood": [5, 7]})
    assert fix.status_code == 200, fix.text
    o = api.outing(oid)
    assert not o["over"] and o["ended"] is None and o["sides"][0]["total"] < 100, err
    assert [s["type"] for s in api.get(f"/api/v1/outings/{oid}/steps")["steps"]] == \
        ["outing_created", "outing_ended", "undo"]


# --------------------------------------------------------------------------- every path pairs


def test_a_correction_a_redo_and_an_undo_pair_and_unpair(api: Api) -> None:
    o = api.post("/api/v1/outings", FOUR).json()
    oid = o["id"]
    g1, g2 = o["rounds"][0]
    api.win(g1, True)
    api.hand(g2, WIN1)
    # the second match ends by a correction: hand 2, a small knock, becomes a gin, still B2's
    api.hand(g2, {"ender": 1, "deadwood": [9, 2]})
    assert not api.get(f"/api/v1/games/{g2}")["finished"]
    r = api.put(f"/api/v1/games/{g2}/hands/2", WIN1)
    assert r.status_code == 200 and r.json()["game"]["finished"]
    o = api.outing(oid)
    assert o["round"] == 2 and pairs(o, 2) == [["A1", "B2"], ["B1", "A2"]]
    round2 = o["rounds"][1]
    # an undo un-finishes g2: round 2 (no hands yet) is unpaired, its games deleted
    r = api.post(f"/api/v1/games/{g2}/undo", {})
    assert r.status_code == 200, r.text
    o = api.outing(oid)
    assert o["round"] == 1 and not o["round_finished"]
    assert all(api.c.get(f"/api/v1/games/{g}").status_code == 404 for g in round2)
    # a redo finishes it again: paired again, with new games
    assert api.post(f"/api/v1/games/{g2}/redo", {}).status_code == 200
    o = api.outing(oid)
    assert o["round"] == 2 and pairs(o, 2) == [["A1", "B2"], ["B1", "A2"]] and set(o["rounds"][1]).isdisjoint(round2)
    # a correction that gives g2 to A2 instead re-pairs round 2 from the new result
    r = api.put(f"/api/v1/games/{g2}/hands/2", {"ender": 0, "deadwood": [0, 60]})
    assert r.status_code == 200, r.text
    while not api.get(f"/api/v1/games/{g2}")["finished"]:
        api.hand(g2, WIN0)
    o = api.outing(oid)
    assert api.get(f"/api/v1/games/{g2}")["winner"] == 0
    assert o["round"] == 2 and pairs(o, 2) == [["A1", "A2"], ["B1", "B2"]]
    # once round 2 has a hand, a change to how round 1 ended is refused, naming the games
    g3 = o["rounds"][1][0]
    api.hand(g3, WIN0)
    before = api.written()
    err = error(api.post(f"/api/v1/games/{g2}/undo", {}), 409, "outing_round_played", g3, "round 2",
                "A1 v A2, 1 hand")
    assert err["details"]["outing"] == oid and api.written() == before
    # a change that keeps the result (a correction of the loser's deadwood) goes through
    assert api.put(f"/api/v1/games/{g1}/hands/1", {"ender": 0, "deadwood": [0, 50]}).status_code == 200
    # a pair match cannot be deleted on its own
    error(api.delete(f"/api/v1/games/{g1}"), 409, "outing_game", f"DELETE /api/v1/outings/{oid}")


# --------------------------------------------------------------------------- delete


def test_delete_refuses_played_games_unless_told(api: Api) -> None:
    empty = api.post("/api/v1/outings", FOUR).json()
    r = api.delete(f"/api/v1/outings/{empty['id']}")
    assert r.status_code == 200 and r.json()["games_deleted"] == empty["rounds"][0]
    assert api.c.get(f"/api/v1/outings/{empty['id']}").status_code == 404
    assert all(api.c.get(f"/api/v1/games/{g}").status_code == 404 for g in empty["rounds"][0])
    assert api.get("/api/v1/outings")["outings"] == []
    o = api.post("/api/v1/outings", FOUR).json()
    g1, g2 = o["rounds"][0]
    api.hand(g1, WIN0)
    error(api.c.delete(f"/api/v1/outings/{o['id']}", headers=api.auth), 401, "host_code_required")
    before = api.written()
    err = error(api.delete(f"/api/v1/outings/{o['id']}"), 409, "outing_has_games", g1, "A1 v B1, 1 hand",
                "?games=delete", "?games=keep")
    assert err["details"]["games"] == [g1] and api.written() == before
    error(api.delete(f"/api/v1/outings/{o['id']}?games=some"), 422, "invalid_request", "'keep' or 'delete'")
    r = api.delete(f"/api/v1/outings/{o['id']}?games=keep")
    assert r.status_code == 200 and r.json()["games_kept"] == [g1, g2] and r.json()["games_deleted"] == []
    kept = api.get(f"/api/v1/games/{g1}")
    assert len(kept["hands"]) == 1 and kept["outing"] == o["id"]
    assert api.delete(f"/api/v1/games/{g1}").status_code == 200  # an ordinary game now
    o = api.post("/api/v1/outings", FOUR).json()
    api.hand(o["rounds"][0][0], WIN0)
    r = api.delete(f"/api/v1/outings/{o['id']}?games=delete")
    assert r.status_code == 200 and r.json()["games_deleted"] == o["rounds"][0]
    assert api.c.get(f"/api/v1/games/{o['rounds'][0][0]}").status_code == 404


# --------------------------------------------------------------------------- export and import


def played_outing(api: Api) -> dict[str, Any]:
    o = api.post("/api/v1/outings", FOUR).json()
    g1, g2 = o["rounds"][0]
    api.win(g1, True)
    api.win(g2, False)
    o = api.outing(o["id"])
    api.hand(o["rounds"][1][0], WIN0)
    return api.outing(o["id"])


def test_export_and_import_restore_the_links(api: Api) -> None:
    o = played_outing(api)
    data = api.get(f"/api/v1/outings/{o['id']}/export.json")
    assert data["format"] == "gingo-outing/1" and len(data["games"]) == 4
    assert [s["type"] for s in data["steps"]] == ["outing_created", "round_paired"]
    r = api.post("/api/v1/outings/import", {**data, "client_id": "imp-1"})
    assert r.status_code == 201, r.text
    copy = r.json()
    assert copy["id"] != o["id"] and copy["imported_from"] == o["id"]
    for key in ("players", "sides", "round", "names", "sides_of", "leading_side"):
        assert copy[key] == o[key], key
    assert [m["score"] for m in copy["matches"]] == [m["score"] for m in o["matches"]]
    for gid in copy["rounds"][0] + copy["rounds"][1]:
        assert api.get(f"/api/v1/games/{gid}")["outing"] == copy["id"]
    assert api.post("/api/v1/outings/import", {**data, "client_id": "imp-1"}).json()["id"] == copy["id"]
    # the copy goes on like the first: its round 2 is played out and round 3 pairs itself
    for gid in copy["rounds"][1]:
        api.win(gid, True)
    assert api.outing(copy["id"])["round"] == 3


def test_import_of_a_finished_round_pairs_the_next(api: Api) -> None:
    o = api.post("/api/v1/outings", FOUR).json()
    api.win(o["rounds"][0][0], True)
    api.win(o["rounds"][0][1], True)
    data = api.get(f"/api/v1/outings/{o['id']}/export.json")
    # as if it had been exported before the companion paired round 2
    data["outing"]["rounds"] = data["outing"]["rounds"][:1]
    data["games"] = data["games"][:2]
    copy = api.post("/api/v1/outings/import", data).json()
    assert copy["round"] == 2 and pairs(copy, 2) == [["A1", "A2"], ["B1", "B2"]]


def test_a_bad_import_names_what_is_wrong_and_writes_nothing(api: Api) -> None:
    o = played_outing(api)
    good = api.get(f"/api/v1/outings/{o['id']}/export.json")
    before = api.written()

    def edited(fn: Any) -> dict[str, Any]:
        data = json.loads(json.dumps(good))
        fn(data)
        return dict(data)

    def swap_round2(d: dict[str, Any]) -> None:
        d["outing"]["rounds"][1].reverse()
        d["games"][2], d["games"][3] = d["games"][3], d["games"][2]

    def other_players(d: dict[str, Any]) -> None:
        d["games"][2]["events"][0]["payload"]["players"] = ["A1", "B1"]

    def other_rules(d: dict[str, Any]) -> None:
        d["games"][1]["events"][0]["payload"]["options"]["outing_minutes"] = 30

    def unfinished(d: dict[str, Any]) -> None:
        d["games"][0]["events"] = d["games"][0]["events"][:2]

    g3 = good["outing"]["rounds"][1][0]
    for fn, words in (
        (lambda d: d.update(format="gingo-export/1"), "not an outing export"),
        (lambda d: d.pop("games"), "no \"games\""),
        (lambda d: d["outing"].update(sides_of=[0, 0, 0, 1]), "the two sides must be equal"),
        (lambda d: d["games"].pop(), f"round 2's game {good['outing']['rounds'][1][1]} is not in the file"),
        (lambda d: d["outing"]["rounds"].append([g3]), "a game is listed in two rounds"),
        (lambda d: d["outing"]["rounds"].pop(), "is in no round of the outing"),
        (lambda d: d["games"][0]["events"][1].update(type="teleport"), "unknown type 'teleport'"),
        (swap_round2, "round 2 does not pair the players as the outing's rules do (they pair A1 v B2 and B1 v A2)"),
        (other_players, "round 2 does not pair the players"),
        (other_rules, "is not played with the outing's rules (outing_minutes differ)"),
        (unfinished, "of round 1 has not ended, but round 2 was paired"),
    ):
        r = api.post("/api/v1/outings/import", edited(fn))
        error(r, 400, "invalid_import", words)
    assert api.written() == before and len(api.get("/api/v1/outings")["outings"]) == 1


# --------------------------------------------------------------------------- live and legacy rows


def test_outing_steps_reach_the_live_channel(api: Api) -> None:
    o = api.post("/api/v1/outings", FOUR).json()
    with api.c.websocket_connect("/api/v1/live") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        api.post(f"/api/v1/outings/{o['id']}/end", {})
        seen = []
        for _ in range(20):
            msg = ws.receive_json()
            seen.append(msg["type"])
            if msg["type"] == "outing":
                break
        assert msg["type"] == "outing", seen
        assert msg["outing"] == o["id"] and msg["version"] == 2 and msg["step"]["type"] == "outing_ended"
        assert msg["line"]["over"] and "_request" not in msg["step"]["payload"]


def test_a_first_version_row_becomes_steps(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    table = Table(store)
    g = table.create_game("gin", players=["Ann", "Bob"], preset="pagat", outing="o-old",
                          options={"team_mode": "pair_tournament"})
    body = {"players": ["Ann", "Bob"], "sides": [0, 1], "preset": "pagat",
            "options": {"team_mode": "pair_tournament"}, "rounds": [[g["id"]]]}
    store._wexec("INSERT INTO outings(id, created, body) VALUES (?, ?, ?)", ("o-old", 100.0, json.dumps(body)))
    store.close()
    store = open_store(tmp_path)
    try:
        o = Table(store).outings.view("o-old")
        assert o["rounds"] == [[g["id"]]] and o["created"] == 100.0 and o["version"] == 1
        assert [e.type for e in store.outings.events("o-old")] == ["outing_created"]
    finally:
        store.close()
    with sqlite3.connect(tmp_path / "events.sqlite3") as db:  # the old row is left as it was
        assert db.execute("SELECT COUNT(*) FROM outings").fetchone()[0] == 1


# --------------------------------------------------------------------------- SIGKILL


@pytest.mark.live
def test_outing_steps_survive_sigkill(tmp_path: Path) -> None:
    data = tmp_path / "data"
    srv = LiveServer(data).start()
    try:
        token = httpx.post(srv.url + "/api/v1/pair", json={"code": LIVE_CODE, "name": "t"}).json()["token"]
        c = httpx.Client(base_url=srv.url, headers={"Authorization": f"Bearer {token}"}, timeout=10)
        o = c.post("/api/v1/outings", json={**FOUR, "client_id": "kill-1"}).json()
        for gid, body in zip(o["rounds"][0], (WIN0, WIN1)):
            for _ in range(2):
                assert c.post(f"/api/v1/games/{gid}/hands", json=body).status_code == 200
        paired = c.get(f"/api/v1/outings/{o['id']}").json()
        assert paired["round"] == 2
        undone = c.post(f"/api/v1/outings/{o['id']}/undo", json={"expected_version": 2}).json()
        assert undone["outing"]["version"] == 3
        again = c.post(f"/api/v1/outings/{o['id']}/rounds", json={"expected_version": 3}).json()
        ended = c.post(f"/api/v1/outings/{o['id']}/end", json={}).json()
        assert ended["version"] == 5 and ended["over"]
    finally:
        srv.kill()
    srv = LiveServer(data).start()
    try:
        c = httpx.Client(base_url=srv.url, timeout=10)
        after = c.get(f"/api/v1/outings/{o['id']}").json()
        assert after["version"] == 5 and after["rounds"] == again["rounds"] and after["ended_by"] == "host"
        assert after["players"] == ended["players"] and after["undo"]["type"] == "outing_ended"
        steps = [s["type"] for s in c.get(f"/api/v1/outings/{o['id']}/steps").json()["steps"]]
        assert steps == ["outing_created", "round_paired", "undo", "round_paired", "outing_ended"]
        assert all(c.get(f"/api/v1/games/{g}").status_code == 404 for g in paired["rounds"][1])
    finally:
        srv.kill()
