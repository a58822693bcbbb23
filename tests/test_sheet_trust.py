"""Trust in the score sheet, against the real server (`gingo serve` on 127.0.0.1):
correcting a hand of a finished match, a stale form told who scored meanwhile, undo and
redo as events, the preview's breakdown, and a CSV that ends with every bonus and the
final score."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.live_server import LiveServer

pytestmark = pytest.mark.live

GIN_HANDS = [["AS", "2S", "3S", "4S", "9D", "9H", "9C", "KH", "QH", "JH"],
             ["5C", "6C", "8D", "8S", "2D", "2H", "3C", "4D", "10S", "JS"]]


def phone(server: LiveServer, name: str) -> httpx.Client:
    token = httpx.post(server.url + "/api/v1/pair", json={"code": server.code, "name": name}).json()["token"]
    return httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=20)


def ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code in (200, 201), r.text
    body: dict[str, Any] = r.json()
    return body


def test_a_finished_match_is_corrected_and_becomes_unfinished(server: LiveServer) -> None:
    ana = phone(server, "Ana's phone")
    gid = ok(ana.post("/api/v1/games", json={"variant": "gin", "players": ["Ana", "Ben"], "preset": "gin_004"}))["id"]
    for dw in ([0, 50], [0, 45]):  # Ana gins twice: 75 + 70 = 145, over 100
        g = ok(ana.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "deadwood": dw}))["game"]
    assert g["finished"] and g["winner"] == 0
    # A new hand is still refused, and says what to do instead.
    r = ana.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "deadwood": [0, 10]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "finished"
    # Hand 2 was Ben's knock, not Ana's gin: the preview re-scores the match without writing.
    before = len(ok(ana.get(f"/api/v1/games/{gid}/events"))["events"])
    pv = ok(ana.post(f"/api/v1/games/{gid}/hands/2/preview", json={"ender": 1, "deadwood": [12, 4]}))
    assert pv["preview"] is True and pv["result"]["kind"] == "knock" and pv["result"]["points"] == [0, 8]
    assert pv["game"]["finished"] is False and pv["game"]["scores"] == [75, 8]
    assert pv["breakdown"]["seat"] == 1
    assert [(p["label"], p["points"]) for p in pv["breakdown"]["parts"]] == [("deadwood difference (12 - 4)", 8)]
    assert len(ok(ana.get(f"/api/v1/games/{gid}/events"))["events"]) == before
    # A hand that does not exist is a 404, naming it.
    r = ana.post(f"/api/v1/games/{gid}/hands/9/preview", json={"ender": 1, "deadwood": [12, 4]})
    assert r.status_code == 404 and "hand 9" in r.json()["error"]["message"]
    # The correction is written: the match is unfinished again and takes new hands.
    c = ok(ana.put(f"/api/v1/games/{gid}/hands/2", json={"ender": 1, "deadwood": [12, 4]}))
    assert c["game"]["finished"] is False and c["game"]["winner"] is None
    assert c["game"]["hands"][1]["corrected"] is True and c["game"]["hands"][1]["by"] == "Ana's phone"
    ok(ana.post(f"/api/v1/games/{gid}/hands", json={"ender": 1, "deadwood": [20, 5]}))
    # A correction that would end the match before a later hand is refused, naming why.
    r = ana.post(f"/api/v1/games/{gid}/hands/1/preview", json={"ender": 0, "deadwood": [0, 80]})
    assert r.status_code == 422 and "after the match ended" in r.json()["error"]["message"]


def test_a_stale_form_is_told_which_phone_scored_meanwhile(server: LiveServer) -> None:
    ana, ben = phone(server, "Ana's phone"), phone(server, "Ben's phone")
    gid = ok(ana.post("/api/v1/games", json={"variant": "gin", "players": ["Ana", "Ben"]}))["id"]
    for _ in range(3):
        g = ok(ana.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "deadwood": [5, 9]}))["game"]
    started = g["version"]  # both phones open the form for hand 4 here
    ok(ben.post(f"/api/v1/games/{gid}/hands", json={"ender": 1, "deadwood": [9, 3], "expected_version": started}))
    # Ana's preview from the old version is answered, and says what changed meanwhile
    pv = ok(ana.post(f"/api/v1/games/{gid}/hands/preview", json={"ender": 0, "deadwood": [5, 9],
                                                                 "expected_version": started}))
    assert pv["version"] == started + 1
    assert [(c["type"], c["hand"], c["by"]) for c in pv["changes"]] == [("hand", 4, "Ben's phone")]
    fresh = ok(ana.post(f"/api/v1/games/{gid}/hands/preview", json={"ender": 0, "deadwood": [5, 9],
                                                                    "expected_version": started + 1}))
    assert "changes" not in fresh
    r = ana.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "deadwood": [5, 9], "expected_version": started})
    assert r.status_code == 409
    err = r.json()["error"]
    assert err["code"] == "stale_version" and err["details"]["expected"] == started
    assert [(c["type"], c["hand"], c["by"]) for c in err["details"]["changes"]] == [("hand", 4, "Ben's phone")]
    # nothing of Ana's entry was written
    g = ok(ana.get(f"/api/v1/games/{gid}"))
    assert len(g["hands"]) == 4 and g["hands"][3]["by"] == "Ben's phone"
    # a correction and an undo are named too
    v = g["version"]
    ok(ben.put(f"/api/v1/games/{gid}/hands/2", json={"ender": 0, "deadwood": [2, 9], "expected_version": v}))
    ok(ben.post(f"/api/v1/games/{gid}/undo", json={}))
    r = ana.post(f"/api/v1/games/{gid}/undo", json={"expected_version": v})
    changes = r.json()["error"]["details"]["changes"]
    assert [(c["type"], c["hand"], c["by"], c.get("of")) for c in changes] == [
        ("hand_corrected", 2, "Ben's phone", None), ("undo", 2, "Ben's phone", "hand_corrected")]


def test_undo_then_redo_as_events_until_a_new_entry(server: LiveServer, tmp_path: Path) -> None:
    ana = phone(server, "Ana's phone")
    gid = ok(ana.post("/api/v1/games", json={"variant": "gin", "players": ["Ana", "Ben"]}))["id"]
    ok(ana.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "hands": GIN_HANDS}))
    g = ok(ana.post(f"/api/v1/games/{gid}/hands", json={"ender": 1, "deadwood": [9, 3]}))["game"]
    assert g["undo"] == {"seq": g["hands"][1]["seq"], "type": "hand", "hand": 2} and g["redo"] is None
    r = ana.post(f"/api/v1/games/{gid}/redo", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "nothing_to_redo"
    u = ok(ana.post(f"/api/v1/games/{gid}/undo", json={}))["game"]
    assert len(u["hands"]) == 1 and u["redo"]["hand"] == 2 and u["redo"]["type"] == "hand"
    u = ok(ana.post(f"/api/v1/games/{gid}/undo", json={}))["game"]
    assert u["hands"] == [] and u["redo"]["hand"] == 1
    # redo brings back hand 1, then hand 2, with the same scores
    r1 = ok(ana.post(f"/api/v1/games/{gid}/redo", json={}))
    assert r1["redone"]["type"] == "hand" and len(r1["game"]["hands"]) == 1
    r2 = ok(ana.post(f"/api/v1/games/{gid}/redo", json={}))["game"]
    assert r2["scores"] == g["scores"] and r2["redo"] is None
    types = [e["type"] for e in ok(ana.get(f"/api/v1/games/{gid}/events"))["events"]]
    assert types == ["game_created", "hand", "hand", "undo", "undo", "redo", "redo"]
    # an entry after an undo ends what can be redone
    ok(ana.post(f"/api/v1/games/{gid}/undo", json={}))
    ok(ana.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "deadwood": [4, 20]}))
    r = ana.post(f"/api/v1/games/{gid}/redo", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "nothing_to_redo"
    # the export and import keep undo, redo and who entered each hand
    ok(ana.post(f"/api/v1/games/{gid}/undo", json={}))
    exported = ok(ana.get(f"/api/v1/games/{gid}/export.json"))
    imp = ok(ana.post("/api/v1/games/import", json=exported))
    assert imp["redo"] == {"seq": imp["redo"]["seq"], "type": "hand", "hand": 2}
    assert [h["by"] for h in imp["hands"]] == ["Ana's phone"]
    assert ok(ana.post(f"/api/v1/games/{imp['id']}/redo", json={}))["game"]["scores"] == [16 + 83, 0]
    # A restart reads the game from its checkpoint: what can be redone is still there.
    server.stop()
    server.start()
    again = ok(ana.get(f"/api/v1/games/{gid}"))
    assert again["redo"]["hand"] == 2 and len(again["hands"]) == 1


def test_csv_ends_with_every_bonus_and_the_final_score(server: LiveServer) -> None:
    ana = phone(server, "Ana's phone")
    gid = ok(ana.post("/api/v1/games", json={"variant": "gin", "players": ["Ana", "Ben"], "preset": "gin_004"}))["id"]
    ok(ana.post(f"/api/v1/games/{gid}/hands", json={"ender": 1, "deadwood": [12, 4]}))   # Ben knocks: 8
    for _ in range(2):
        g = ok(ana.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "deadwood": [0, 40]}))["game"]  # 65 each
    assert g["finished"]
    rows = list(csv.reader(io.StringIO(ana.get(f"/api/v1/games/{gid}/export.csv").text)))
    by_label = {r[0]: r[4:] for r in rows}
    m = g["match"]
    assert by_label["total"] == [str(x) for x in m["totals"]] == ["130", "8"]
    assert by_label["hands won"] == ["2", "1"]
    assert by_label["game bonus"] == ["100", "0"]
    assert by_label["boxes"] == [str(25 * 2), str(25 * 1)]
    assert by_label["final"] == [str(x) for x in g["final"]]
    assert int(by_label["final"][0]) == 130 + 100 + 50
    assert rows[-1] == ["winner", "", "", "", "Ana", ""]
    assert rows[-2][0] == "final"


def test_the_preview_offers_the_arrangements_that_tie(server: LiveServer) -> None:
    ana = phone(server, "Ana's phone")
    gid = ok(ana.post("/api/v1/games", json={"variant": "gin", "players": ["Ana", "Ben"]}))["id"]
    # A run A-3 of diamonds or a set of 2s: 5 deadwood either way; Ben's 4D lays off on the run only.
    hands = [["AD", "2D", "3D", "2H", "2C", "AC", "7S", "8S", "9S", "10S"],
             ["KH", "KS", "KC", "QD", "QH", "JC", "JD", "9H", "4D", "5S"]]
    pv = ok(ana.post(f"/api/v1/games/{gid}/hands/preview", json={"ender": 0, "hands": hands}))
    ties = pv["arrangements"]
    assert sorted(sorted(map(sorted, a["melds"])) for a in ties) == sorted([
        sorted([sorted(["AD", "2D", "3D"]), sorted(["7S", "8S", "9S", "10S"])]),
        sorted([sorted(["2H", "2D", "2C"]), sorted(["7S", "8S", "9S", "10S"])])])
    assert {a["deadwood_value"] for a in ties} == {5}
    run = next(a for a in ties if ["AD", "2D", "3D"] in a["melds"])
    declared = ok(ana.post(f"/api/v1/games/{gid}/hands/preview",
                           json={"ender": 0, "hands": hands, "declared": run["melds"]}))
    assert declared["result"]["layoffs"][1] == ["4D"]
    assert declared["result"]["points"][0] == pv["result"]["points"][0] - 4
    # one way only: no list
    single = ok(ana.post(f"/api/v1/games/{gid}/hands/preview", json={"ender": 0, "deadwood": [4, 20]}))
    assert single.get("arrangements") is None
