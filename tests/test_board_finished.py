"""The winning moment stays lit (issue 22, item 10): when a Gin-Go game ends, the board
(``/api/v1/board``, what the LEDs and the Board screen draw) keeps showing the finished
game, the winning capture's chips to place and the winning link among them, until its
chips are cleared off or another game starts; through a restart too. The real service
(``gingo serve`` on 127.0.0.1 with the simulated board and the simulated strip)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.hardware.layout import default_layout
from tests.live_server import LiveServer
from tests.test_table import GINGO_ACTIONS

pytestmark = pytest.mark.live

LAY = default_layout()


def test_a_finished_game_stays_on_the_board_until_cleared_or_another_starts(tmp_path: Path) -> None:
    srv = LiveServer(tmp_path / "data").start()
    try:
        token = srv.pair()
        srv.wait_until("/api/v1/board", lambda b: b["sensed"] == "." * 52)
        gid = srv.post("/api/v1/games", {"variant": "gingo", "players": ["Ann", "Bob"]}, token)["id"]
        for action in GINGO_ACTIONS:  # played at the table; no chip is put on the board
            srv.post(f"/api/v1/games/{gid}/actions", {"action": action}, token)
        game = srv.get(f"/api/v1/games/{gid}")
        assert game["finished"] and game["winner"] == 1
        link = game["links"]["1"]
        captured = [game["frames"]["1"][card] for card in ("2H", "9D")]
        chips = [s for s, c in enumerate(game["board"]) if c != "."]

        def shows_the_finished_game(b: dict) -> bool:  # type: ignore[type-arg]
            return bool(b["game"] == gid and b["finished"] and b["mode"] == "game")

        b = srv.wait_until("/api/v1/board", shows_the_finished_game, timeout=10)
        assert b["expected"] == game["board"] and b["pending"] == chips
        assert set(captured) <= set(b["pending"]) and set(link) <= set(b["pending"])
        # the LEDs: the winning capture's and the link's chips pulse in side 1's colour, never dark
        pixels = srv.get("/api/v1/leds")["pixels"]
        for space in captured + link:
            r, g, bl = pixels[LAY.space_led(space)]
            assert r > 0 and r >= g and bl == 0, (space, pixels[LAY.space_led(space)])

        # a restart (a power cut, an update) keeps showing it
        srv.stop()
        srv.start()
        token = srv.pair()
        b = srv.wait_until("/api/v1/board", lambda b: b["sensed"] is not None and shows_the_finished_game(b))
        assert b["pending"] == chips

        # chips put on (the link's first two) and cleared off: the board mirrors again
        for space in link[:2]:
            srv.post("/api/v1/board/sim", {"space": space, "side": 1}, token)
        b = srv.wait_until("/api/v1/board", lambda b: b["sensed"][link[0]] == "1" and b["sensed"][link[1]] == "1")
        assert shows_the_finished_game(b) and link[0] not in b["pending"]
        for space in link[:2]:
            srv.post("/api/v1/board/sim", {"space": space, "side": None}, token)
        b = srv.wait_until("/api/v1/board", lambda b: b["mode"] == "mirror")
        assert b["game"] is None and b["finished"] is False and b["sensed"] == "." * 52
        assert srv.wait_until("/api/v1/leds", lambda f: not any(map(any, f["pixels"][4:56])))

        # an undo takes the last play back: the game is in play again, so the board follows it
        srv.post(f"/api/v1/games/{gid}/undo", {}, token)
        b = srv.wait_until("/api/v1/board", lambda b: b["game"] == gid)
        assert not b["finished"]
        srv.post(f"/api/v1/games/{gid}/actions", {"action": GINGO_ACTIONS[-1]}, token)
        srv.wait_until("/api/v1/board", shows_the_finished_game)

        # another game starts: the board follows it
        new = srv.post("/api/v1/games", {"variant": "gingo", "players": ["Cy", "Di"]}, token)["id"]
        b = srv.wait_until("/api/v1/board", lambda b: b["game"] == new)
        assert not b["finished"] and b["expected"] == "." * 52
    finally:
        srv.stop()
