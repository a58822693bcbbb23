"""A dealt game on the real server survives SIGKILL: after the restart every seat gets the
same hand and legal actions back, and play continues to the end; bots with a delay move
by themselves (on the server's own thread) until the human must act."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.live_server import LiveServer
from tests.test_server_live import pair

pytestmark = pytest.mark.live


def _view(srv: LiveServer, gid: str, auth: dict[str, str]) -> dict[str, Any]:
    r = httpx.get(f"{srv.url}/api/v1/games/{gid}/view", headers=auth, timeout=60)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _act(srv: LiveServer, gid: str, auth: dict[str, str], rng: random.Random) -> dict[str, Any]:
    v = _view(srv, gid, auth)
    r = httpx.post(f"{srv.url}/api/v1/games/{gid}/actions", headers=auth, timeout=60,
                   json={"action": rng.choice(v["legal_actions"]), "expected_version": v["version"]})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_sigkill_and_restart_keep_every_hand(tmp_path: Path) -> None:
    data = tmp_path / "data"
    srv = LiveServer(data, env={"GINGO_BOT_DELAY": "0"}).start()
    try:
        ann = pair(srv.url)
        bob = pair(srv.url)
        rng = random.Random(11)
        # play into a hand (the deal is a real secret shuffle, so a random knock can end a
        # hand early and leave the hands empty until the next deal): stop once some moves
        # were made and both humans hold cards. The Ginski bot can win the whole match
        # against two random players before that (it ends every round it can, scoring both
        # opponents' deadwood): then a new game
        for _game in range(5):
            game = httpx.post(f"{srv.url}/api/v1/games", headers=ann, timeout=60,
                              json={"variant": "ginski", "players": ["Ann", "Bob", "Bot"], "mode": "dealt",
                                    "bots": [2]}).json()
            gid = game["id"]
            httpx.post(f"{srv.url}/api/v1/games/{gid}/seats/0", headers=ann, timeout=60)
            httpx.post(f"{srv.url}/api/v1/games/{gid}/seats/1", headers=bob, timeout=60)
            for moves in range(200):
                v0 = _view(srv, gid, ann)
                if v0["finished"] or (moves >= 6 and v0["hand"] and _view(srv, gid, bob)["hand"]):
                    break
                _act(srv, gid, ann if v0["legal_actions"] else bob, rng)
            if not v0["finished"]:
                break
        before = (_view(srv, gid, ann), _view(srv, gid, bob))
        assert before[0]["hand"] and before[1]["hand"], "no hand in progress to kill the server in"
        srv.kill()  # SIGKILL: no shutdown of any kind
        srv = LiveServer(data, srv.port, env={"GINGO_BOT_DELAY": "0"}).start()
        after = (_view(srv, gid, ann), _view(srv, gid, bob))
        assert after == before
        assert after[0]["hand"] and not set(after[0]["hand"]) & set(after[1]["hand"])
        for _ in range(3000):  # and the match plays on to its end
            v0 = _view(srv, gid, ann)
            if v0["finished"]:
                break
            _act(srv, gid, ann if v0["legal_actions"] else bob, rng)
        assert _view(srv, gid, ann)["finished"]
        events = httpx.get(f"{srv.url}/api/v1/games/{gid}/events", timeout=60).json()["events"]
        assert any(e["payload"].get("revealed") for e in events)
        assert "secret" not in str(events)
    finally:
        srv.kill()


def test_bots_with_a_delay_move_by_themselves(tmp_path: Path) -> None:
    srv = LiveServer(tmp_path / "data", env={"GINGO_BOT_DELAY": "0.05"}).start()
    try:
        ann = pair(srv.url)
        gid = httpx.post(f"{srv.url}/api/v1/games", headers=ann, timeout=60,
                         json={"variant": "ginski", "players": ["Ann", "B1", "B2"], "mode": "dealt", "bots": [1, 2],
                               "dealer": 0}).json()["id"]
        httpx.post(f"{srv.url}/api/v1/games/{gid}/seats/0", headers=ann, timeout=60)
        deadline = time.monotonic() + 60
        v = _view(srv, gid, ann)
        while not v["legal_actions"] and not v["finished"]:  # seat 1 (a bot) opens; then seat 2
            assert time.monotonic() < deadline, "the bots never handed the turn to the human"
            time.sleep(0.05)
            v = _view(srv, gid, ann)
        assert v["version"] >= 2 or v["finished"]
        plays = [e for e in httpx.get(f"{srv.url}/api/v1/games/{gid}/events", timeout=60).json()["events"]
                 if e["type"] == "play"]
        assert plays and all(e["payload"]["by"] == "bot" for e in plays)
    finally:
        srv.kill()
