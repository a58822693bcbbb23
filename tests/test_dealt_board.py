"""Dealt Gin-Go on the simulated board: after a meld the game waits for the chips (the
next turn is refused naming the board, a bot waits too) until the sensors agree; with
skip_board it never waits."""

from __future__ import annotations

import random
import time
from pathlib import Path

from companion.play.gingo import bot_action
from tests.test_dealt import Phones


def test_the_next_turn_waits_for_the_board(tmp_path: Path) -> None:
    p = Phones(tmp_path / "data", "board-wait", board=True)
    try:
        c = p.client
        gid = c.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bot"], "mode": "dealt",
                                            "bots": [1]}, headers=p.ann).json()["id"]
        c.post(f"/api/v1/games/{gid}/seats/0", headers=p.ann)
        rng = random.Random(4)
        refused = None
        for _ in range(400):
            v = c.get(f"/api/v1/games/{gid}/view", headers=p.ann).json()
            if v["finished"]:
                break
            board = c.get("/api/v1/board").json()
            action = bot_action(p.table.held(gid).dealt.engine, rng)
            r = c.post(f"/api/v1/games/{gid}/actions", json={"action": action}, headers=p.ann)
            if r.status_code == 409:
                assert r.json()["error"]["code"] == "board_pending" and board["mismatches"]
                refused = (v["version"], board)
                break
            assert r.status_code == 200, r.text
        assert refused is not None, "no meld ever asked for chips"
        version, board = refused
        assert c.get(f"/api/v1/games/{gid}").json()["version"] == version  # nothing written
        for space in board["mismatches"]:  # place and bump the chips the LEDs show
            want = board["expected"][space]
            p.sync.put_sim(space, None if want == "." else int(want))
        deadline = time.monotonic() + 20
        while c.get("/api/v1/board").json()["mismatches"]:
            assert time.monotonic() < deadline, "the simulated sensors never agreed"
            time.sleep(0.05)
        v = c.get(f"/api/v1/games/{gid}/view", headers=p.ann).json()
        action = bot_action(p.table.held(gid).dealt.engine, rng)
        r = c.post(f"/api/v1/games/{gid}/actions", json={"action": action}, headers=p.ann)
        assert r.status_code == 200, r.text
    finally:
        p.close()
