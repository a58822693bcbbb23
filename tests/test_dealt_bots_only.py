"""A dealt table of bots only (a demonstration) plays the normal level, not the strong
search, so the request that creates it plays the whole match quickly; a table where a bot
plays a person keeps the strong level (companion.play.levels.table_level)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from companion.games.gingo.play import search
from tests.test_dealt import Phones, phones  # noqa: F401 (the fixture: one table and its phones)


@pytest.fixture()
def searches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the strong search's decisions (the real search still decides)."""
    calls: list[int] = []
    real = search.search_move

    def counted(play: Any, rng: Any = None) -> Any:
        calls.append(1)
        return real(play, rng)

    monkeypatch.setattr(search, "search_move", counted)
    return calls


def test_a_bots_only_gingo_game_plays_the_normal_level_and_finishes_in_its_request(
        phones: Phones, searches: list[int]) -> None:
    c = phones.client
    cpu = time.process_time()
    r = c.post("/api/v1/games", json={"variant": "gingo", "players": ["Bot A", "Bot B"], "mode": "dealt",
                                      "bots": [0, 1], "skip_board": True}, headers=phones.ann)
    spent = time.process_time() - cpu
    assert r.status_code in (200, 201), r.text
    gid = (r.json().get("game") or r.json())["id"]
    game = c.get(f"/api/v1/games/{gid}").json()
    assert game["options"]["bot_level"] == "strong"  # the default level, asked for
    g = phones.table.held(gid)
    assert g.finished, "the bots stopped before the end of the match"
    assert g.dealt.engine.table.winner in (1, 2)
    assert searches == [], f"a table of bots only ran the strong search {len(searches)} times"
    # the normal bot decides in well under a millisecond; the strong search took tens of
    # seconds of CPU for such a match (a generous bound, for a loaded 2-core machine)
    assert spent < 8.0, f"the bots-only match took {spent:.1f} s of CPU in one request"


def test_a_bot_against_a_person_still_searches(phones: Phones, searches: list[int]) -> None:
    c = phones.client
    r = c.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bot"], "mode": "dealt",
                                      "bots": [1], "skip_board": True}, headers=phones.ann)
    assert r.status_code in (200, 201), r.text
    gid = (r.json().get("game") or r.json())["id"]
    c.post(f"/api/v1/games/{gid}/seats/0", headers=phones.ann)
    for _ in range(40):
        if searches:
            break
        v = c.get(f"/api/v1/games/{gid}/view", headers=phones.ann).json()
        if v["finished"] or not v["legal_actions"]:
            break
        assert c.post(f"/api/v1/games/{gid}/actions", json={"action": v["legal_actions"][0]},
                      headers=phones.ann).status_code == 200
    assert searches, "the bot playing a person never used the strong search"
