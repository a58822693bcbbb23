"""The seam, proved: Lowball (``tests/toy_game``, one package) is registered by one line
and then created, scored, corrected, exported and imported through the HTTP API (the
ASGI app with a real SQLite store), listed by ``GET /api/v1/variants`` with its option,
and refused by name where it should be; no file of the companion names it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.api.routes import service
from companion.games import VARIANTS
from tests.test_api import Env, env, error_of  # noqa: F401 - the fixture, shared
from tests.toy_game import Lowball


@pytest.fixture()
def lowball(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(VARIANTS, "lowball", Lowball())  # the one registry line
    # GET /api/v1/variants is worked out once per process (the registry is fixed once
    # imported); a game registered while the tests run needs it worked out again
    service._variants.cache_clear()
    yield
    monkeypatch.undo()
    service._variants.cache_clear()


def test_a_toy_game_plays_through_the_api(lowball: None, env: Env) -> None:  # noqa: F811
    listed = {v["name"]: v for v in env.get("/api/v1/variants").json()["variants"]}
    toy = listed["lowball"]
    assert toy["label"] == "Lowball" and toy["players"] == [2, 3] and toy["play_style"] == "hands"
    assert [(o["name"], o["label"], o["help"], o["default"]) for o in toy["options"]] == \
        [("target", "Target score", "points that win the match", 30)]

    # what the page switches on, from the game's own class: no dealt play, its words for a hand's end
    assert toy["dealt_play"] is False and toy["kind_words"] == {"lowest": "lowest count"}
    assert "gin_word" not in toy

    r = env.post("/api/v1/games", {"variant": "lowball", "players": ["Ann", "Bob", "Cy"],
                                   "options": {"target": 20}})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    # the entries a hand takes, every key said (the ones the game leaves out: the defaults)
    assert r.json()["rules"]["entries"] == {"cards": False, "deadwood": True, "ender": False, "gin": False,
                                            "upcard": False, "declared": False, "joker": False, "big_gin": False}
    first = env.post(f"/api/v1/games/{gid}/hands", {"ender": 0, "deadwood": [3, 9, 5]})
    assert first.status_code in (200, 201), first.text
    assert first.json()["game"]["scores"] == [8, 0, 0] and not first.json()["game"]["finished"]
    fixed = env.put(f"/api/v1/games/{gid}/hands/1", {"ender": 0, "deadwood": [4, 2, 6]})
    assert fixed.status_code == 200 and fixed.json()["game"]["scores"] == [0, 6, 0]
    last = env.post(f"/api/v1/games/{gid}/hands", {"ender": 1, "deadwood": [30, 1, 20]}).json()["game"]
    assert last["scores"] == [0, 54, 0] and last["finished"] and last["winner"] == 1

    # a hand of cards is refused by the game itself, in its words, with a code
    again = env.post("/api/v1/games", {"variant": "lowball", "players": ["Ann", "Bob"]}).json()["id"]
    bad = env.post(f"/api/v1/games/{again}/hands", {"ender": 0, "hands": [["AS"], ["2S"]]})
    assert bad.status_code == 400 and error_of(bad)["code"] == "unsupported", bad.text
    wrong = env.post("/api/v1/games", {"variant": "lowball", "players": ["A", "B"], "options": {"target": 0}})
    assert wrong.status_code == 400 and error_of(wrong)["code"] == "invalid_options"

    export = env.get(f"/api/v1/games/{gid}/export.json").json()
    assert export["events"][0]["payload"]["variant"] == "lowball"
    assert [e["type"] for e in export["events"]] == ["game_created", "hand", "hand_corrected", "hand"]
    imp = env.post("/api/v1/games/import", export)
    assert imp.status_code == 201, imp.text
    assert imp.json()["variant"] == "lowball" and imp.json()["scores"] == last["scores"] and imp.json()["finished"]
    assert env.get(f"/api/v1/games/{imp.json()['id']}").json()["hands"][0]["result"]["points"] == [0, 6, 0]


def test_no_file_of_the_companion_names_the_toy() -> None:
    root = Path(__file__).resolve().parents[1] / "companion"
    named = [p for p in root.rglob("*") if p.is_file() and p.suffix in (".py", ".js", ".html", ".css")
             and "lowball" in p.read_text(encoding="utf-8", errors="replace").lower()]
    assert named == []
