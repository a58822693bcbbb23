"""A dealt game's life beyond play, through the real app on a real SQLite file: its export
(no secret key, no seed of a hand in play), the import of a finished one (it reads like
the original, replayed from its published seeds; a changed seed is refused) and of one
still in play (refused, saying why), its rematch (same bots, the phones in their seats,
the next dealer, a fresh shuffle) and the host freeing a seat."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from companion.play.deal import hand_seed
from tests.test_dealt import HOST, Phones, create, phones  # noqa: F401  (the fixture)

#: what an imported game may show differently from its original: its own id, times,
#: version and sequence numbers (the seat events stay behind), where it came from
OWN = {"id", "created", "version", "seq", "imported_from", "played_at", "summary", "rematch_of"}


def same_reading(game: dict[str, Any]) -> dict[str, Any]:
    """The parts of a game's JSON a person reads: everything but its own identity."""
    out = {k: v for k, v in game.items() if k not in OWN}
    out["dealt"] = {k: v for k, v in out["dealt"].items() if k != "seats"}
    # each hand names the log row that ended it: the copy's rows are its own
    out["hands"] = [{k: v for k, v in h.items() if k != "seq"} for h in out["hands"]]
    return out


def export_texts(p: Phones, gid: str) -> str:
    c = p.client
    return json.dumps([c.get(f"/api/v1/games/{gid}/export.json").json(),
                       c.get(f"/api/v1/games/{gid}/export.csv").text,
                       c.get(f"/api/v1/games/{gid}/events").json(), c.get(f"/api/v1/games/{gid}").json()])


def test_a_dealt_game_in_play_exports_no_secret_and_its_import_is_refused(phones: Phones) -> None:  # noqa: F811
    c = phones.client
    gid = create(phones, "gin", ["Ann", "Bot"], [1])["id"]
    v = c.post(f"/api/v1/games/{gid}/seats/0", headers=phones.ann).json()
    for _ in range(6):  # a few turns into hand 1
        if v["finished"] or v["public"]["deals"][-1]["hand"] != 1:
            break
        r = c.post(f"/api/v1/games/{gid}/actions", json={"action": v["legal_actions"][0]}, headers=phones.ann)
        assert r.status_code == 200, r.text
        v = r.json()["view"]
    d = phones.table.held(gid).dealt
    hand = d.hands_over() + 1
    text = export_texts(phones, gid)
    assert d.key is not None and d.key.hex() not in text  # the match key: never
    assert hand_seed(d.key, hand).hex() not in text  # the hand in play's seed: not yet
    assert d.deals()[-1]["commitment"] in text  # only its commitment
    data = c.get(f"/api/v1/games/{gid}/export.json").json()
    assert "secret" not in json.dumps(data)
    before = len(c.get("/api/v1/games").json()["games"])
    r = c.post("/api/v1/games/import", json=data, headers=phones.ann)
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["code"] == "invalid_import" and "still being played" in err["message"]
    assert f"hand {hand}" in err["message"] and "export it again" in err["message"]
    assert len(c.get("/api/v1/games").json()["games"]) == before  # nothing was created


@pytest.mark.parametrize("variant,players,extra", [("ginski", ["Ann", "Bea", "Cy"], {}),
                                                   ("gingo", ["Ann", "Bea"], {"skip_board": True})])
def test_a_finished_dealt_game_imports_and_reads_like_the_original(phones: Phones, variant: str,  # noqa: F811
                                                                   players: list[str], extra: dict[str, Any]) -> None:
    c = phones.client
    # bots in every seat: the game plays itself to the end when it is created
    gid = create(phones, variant, players, list(range(len(players))), **extra)["id"]
    original = c.get(f"/api/v1/games/{gid}").json()
    assert original["finished"] and original["winner"] is not None
    data = c.get(f"/api/v1/games/{gid}/export.json").json()
    r = c.post("/api/v1/games/import", json=data, headers=phones.ann)
    assert r.status_code == 201, r.text
    copy_id = r.json()["id"]
    imported = c.get(f"/api/v1/games/{copy_id}").json()
    assert c.get(f"/api/v1/games/{copy_id}/summary").json()["imported_from"] == gid
    assert imported["mode"] == "dealt"
    assert same_reading(imported) == same_reading(original)
    assert all(d["seed"] for d in imported["dealt"]["deals"])  # every deal can be checked on the copy too
    assert c.get(f"/api/v1/games/{copy_id}/export.csv").text.splitlines()[1:] == \
        c.get(f"/api/v1/games/{gid}/export.csv").text.splitlines()[1:]
    # a finished copy takes no more actions
    r = c.post(f"/api/v1/games/{copy_id}/actions", json={"action": {"type": "draw"}}, headers=phones.ann)
    assert r.status_code in (409, 422)
    # a published seed changed in the file no longer matches its commitment: refused, naming the hand
    forged = copy.deepcopy(data)
    event = next(e for e in forged["events"] if e["payload"].get("revealed"))
    k = event["payload"]["revealed"][0]["hand"]
    event["payload"]["revealed"][0]["seed"] = "00" * 32
    r = c.post("/api/v1/games/import", json=forged, headers=phones.ann)
    assert r.status_code == 400 and f"hand {k}'s published seed does not match" in r.json()["error"]["message"]
    if variant == "gingo":  # a log without the set-up's seed (hand 0) cannot replay the set-up: said so
        forged = copy.deepcopy(data)
        for e in forged["events"]:
            e["payload"]["revealed"] = [r for r in e["payload"].get("revealed", []) if r["hand"] != 0]
        r = c.post("/api/v1/games/import", json=forged, headers=phones.ann)
        assert r.status_code == 400 and "set-up's seed" in r.json()["error"]["message"]
    # and a play the published deal does not allow is refused by the rules
    forged = copy.deepcopy(data)
    play = next(e for e in forged["events"] if e["type"] == "play")
    play["payload"]["seat"] = (play["payload"]["seat"] + 1) % len(players)
    r = c.post("/api/v1/games/import", json=forged, headers=phones.ann)
    assert r.status_code == 400 and "turn" in r.json()["error"]["message"]


@pytest.mark.parametrize("variant", ["gin", "gingo"])
def test_a_rematch_keeps_the_seats_and_the_bots_and_deals_on(phones: Phones, variant: str) -> None:  # noqa: F811
    c = phones.client
    extra = {"skip_board": True} if variant == "gingo" else {}
    old = create(phones, variant, ["Ann", "Bot"], [1], **extra)
    gid = old["id"]
    c.post(f"/api/v1/games/{gid}/seats/0", headers=phones.ann)
    if variant == "gingo":  # the set-up and a turn or two: the dealer is the dealer of the hand in play
        for _ in range(3):
            v = c.get(f"/api/v1/games/{gid}/view", headers=phones.ann).json()
            c.post(f"/api/v1/games/{gid}/actions", json={"action": random.Random(1).choice(v["legal_actions"])},
                   headers=phones.ann)
    before = c.get(f"/api/v1/games/{gid}").json()
    r = c.post(f"/api/v1/games/{gid}/rematch", json={}, headers=phones.ann)
    assert r.status_code == 201, r.text
    new = c.get(f"/api/v1/games/{r.json()['id']}").json()
    assert new["mode"] == "dealt" and new["bots"] == [1] and new["rematch_of"] == gid
    assert new["variant"] == variant and new["players"] == ["Ann", "Bot"]
    assert new["dealt"]["skip_board"] == bool(extra)
    assert new["dealer"] == (before["dealer"] + 1) % 2
    assert [s["taken"] for s in new["dealt"]["seats"]] == [True, True]
    # Ann's phone holds seat 0 again, with the new game's cards; the deal is a fresh secret
    view = c.get(f"/api/v1/games/{new['id']}/view", headers=phones.ann).json()
    assert view["seat"] == 0
    assert new["dealt"]["deals"][0]["commitment"] != before["dealt"]["deals"][0]["commitment"]
    assert phones.table.held(new["id"]).dealt.key != phones.table.held(gid).dealt.key


def test_the_host_frees_a_seat(phones: Phones) -> None:  # noqa: F811
    c = phones.client
    gid = create(phones, "ginski", ["Ann", "Bob", "Bot"], [2])["id"]
    bob = c.post(f"/api/v1/games/{gid}/seats/1", headers=phones.bob).json()
    host = {"X-Host-Code": HOST}
    assert c.delete(f"/api/v1/games/{gid}/seats/1").status_code == 401  # the host code is needed
    assert c.delete(f"/api/v1/games/{gid}/seats/1", headers={"X-Host-Code": "wrong"}).status_code in (401, 403)
    r = c.delete(f"/api/v1/games/{gid}/seats/3", headers=host)
    assert r.status_code == 404 and "seats are 0..2" in r.json()["error"]["message"]
    r = c.delete(f"/api/v1/games/{gid}/seats/2", headers=host)
    assert r.status_code == 409 and "bot" in r.json()["error"]["message"]
    r = c.delete(f"/api/v1/games/{gid}/seats/0", headers=host)
    assert r.status_code == 409 and "free already" in r.json()["error"]["message"]
    assert c.get(f"/api/v1/games/{gid}/view", headers=phones.bob).json()["seat"] == 1
    r = c.delete(f"/api/v1/games/{gid}/seats/1", headers=host)
    assert r.status_code == 200 and not r.json()["dealt"]["seats"][1]["taken"]
    # the phone that left sees no cards now; another phone takes the seat, cards and all
    gone = c.get(f"/api/v1/games/{gid}/view", headers=phones.bob).json()
    assert gone["seat"] is None and gone["hand"] == []
    carl = phones.pair("Carl")
    assert c.post(f"/api/v1/games/{gid}/seats/1", headers=carl).json()["hand"] == bob["hand"]
    assert c.post(f"/api/v1/games/{gid}/seats/1", headers=phones.bob).status_code == 409
    types = [e["type"] for e in c.get(f"/api/v1/games/{gid}/events").json()["events"]]
    assert types.count("seat") == 3  # claimed, freed, claimed: each an event in the log
