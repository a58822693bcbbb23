"""Dealt Gin-Go on the simulated board: after a meld the game waits for the chips (the
next turn is refused naming the board, a bot waits too) until the sensors agree; with
skip_board it never waits. The LEDs of a dealt game's meld are compared with those of the
same meld entered in a game tracked at the table, on a second service's simulated strip."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from companion.board import space_name
from companion.hardware.layout import default_layout
from companion.hardware.scene import DEFAULT_COLORS, WARNING
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


# -- the LEDs and the sensors in a dealt game, compared with a game tracked at the table -----------------

SIDE = DEFAULT_COLORS


def _shade_of(p: tuple[int, ...], c: tuple[int, int, int]) -> bool:
    """``p`` is ``c`` at some level (as the scene scales a side colour, rounded)."""
    top = max(range(3), key=lambda i: c[i])
    level = p[top] / c[top]
    return 0 <= level <= 1 and all(abs(p[i] - round(c[i] * level)) <= 1 for i in range(3))


def _kind(colours: set[tuple[int, ...]]) -> str:
    """What one LED did over a second and more of frames: off, steady, pulsing, bumping, warning."""
    if colours == {(0, 0, 0)}:
        return "off"
    if colours == {SIDE[1], SIDE[2]}:
        return "bump"
    if WARNING in colours and colours <= {WARNING, (0, 0, 0)}:
        return "warning"
    for side in (1, 2):
        if all(_shade_of(p, SIDE[side]) for p in colours):
            return (f"pulse{side}" if len(colours) > 2 else f"steady{side}:{sorted(colours)}")
    return f"other:{sorted(colours)}"


def space_kinds(*phones: Phones, seconds: float = 1.6) -> list[dict[int, str]]:
    """Each space LED's kind on each service's simulated strip, sampled together."""
    lay = default_layout()
    seen: list[dict[int, set[tuple[int, ...]]]] = [{s: set() for s in range(52)} for _ in phones]
    time.sleep(0.2)  # the strip shows frames drawn before the last change for a frame or two (30 a second)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for p, acc in zip(phones, seen):
            px = p.client.get("/api/v1/leds").json()["pixels"]
            for s in range(52):
                acc[s].add(tuple(px[lay.space_led(s)]))
        time.sleep(0.04)
    return [{s: _kind(c) for s, c in acc.items()} for acc in seen]


def set_sensed(p: Phones, board: str) -> None:
    """Move the chips of ``p``'s simulated board (through the API) until the sensors read ``board``."""
    now = p.client.get("/api/v1/board").json()["sensed"] or "." * 52
    for s, (had, want) in enumerate(zip(now, board)):
        if had != want:
            if had != ".":  # a chip of the other side is lifted first, as a hand would
                assert p.client.post("/api/v1/board/sim", json={"space": s, "side": None}, headers=p.ann).status_code == 200
            if want != ".":
                r = p.client.post("/api/v1/board/sim", json={"space": s, "side": int(want)}, headers=p.ann)
                assert r.status_code == 200, r.text
    deadline = time.monotonic() + 20
    while p.client.get("/api/v1/board").json()["sensed"] != board:
        assert time.monotonic() < deadline, "the simulated sensors never read the board"
        time.sleep(0.03)


def tracked_twin(t: Phones, state: dict[str, Any], before: str, melds: list[dict[str, Any]]) -> str:
    """The same melds entered at the table in a tracked game on ``t``'s board, starting
    from the board ``before`` them (sensed as it was); returns the tracked game's board."""
    c = t.client
    gid = c.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bot"]}, headers=t.ann).json()["id"]
    setup = {"type": "setup", "dealer": state["dealer"], "suit_rows": state["suit_rows"], "board": before}
    for action in [setup, *({"type": "meld", "seat": m["seat"], "cards": m["cards"],
                             "designations": m["designations"]} for m in melds)]:
        r = c.post(f"/api/v1/games/{gid}/actions", json={"action": action}, headers=t.ann)
        assert r.status_code == 200, r.text
    set_sensed(t, before)
    return str(c.get(f"/api/v1/games/{gid}").json()["board"])


@pytest.mark.slow  # LED frames sampled for seconds at a time, ten waits for the sensors (about 20 s)
def test_dealt_chips_light_as_at_the_table_and_the_sensors_release_the_turn(tmp_path: Path) -> None:
    d = Phones(tmp_path / "dealt" / "data", "board-leds", board=True)
    t = Phones(tmp_path / "tracked" / "data", "board-leds-tracked", board=True)
    try:
        c = d.client
        gid = c.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bot"], "mode": "dealt",
                                            "bots": [1]}, headers=d.ann).json()["id"]
        assert c.post(f"/api/v1/games/{gid}/seats/0", headers=d.ann).status_code == 200
        rng = random.Random(11)
        # the board when the last wait ended (the sensed board then equals the game's), its hand and melds
        last: dict[str, Any] = {"board": "." * 52, "hand": None, "melds": []}
        seen = {"bot waited": 0, "Ann waited": 0, "bumps": 0, "wrong space": 0, "compared": 0}
        for _ in range(3000):
            if min(seen.values()) > 0 and seen["compared"] >= 2:
                break
            v = c.get(f"/api/v1/games/{gid}/view", headers=d.ann).json()
            assert not v["finished"], f"the game ended before everything was seen: {seen}"
            wait = v["waiting_for_board"]
            if wait is None:
                assert v["legal_actions"], "no wait, yet the bot did not move"
                action = bot_action(d.table.held(gid).dealt.engine, rng)
                r = c.post(f"/api/v1/games/{gid}/actions", json={"action": action}, headers=d.ann)
                assert r.status_code == 200, r.text
                continue
            g = c.get(f"/api/v1/games/{gid}").json()
            state, expected = g["state"], g["board"]
            board = c.get("/api/v1/board").json()
            assert board["sensed"] == last["board"] and board["expected"] == expected
            named = sorted(x["space"] for k in ("pending", "bumps", "unexpected") for x in wait[k])
            assert named == board["mismatches"] and not wait["unexpected"]
            assert [x["space"] for x in wait["pending"]] == board["pending"]
            assert [x["space"] for x in wait["bumps"]] == board["bumps"]
            # the LEDs: a chip to place pulses its side's colour, a chip to bump alternates both colours,
            # exactly what the same melds entered at the table light (when this wait follows melds only)
            new = [m for m in state["melds"] if m["id"] not in {o["id"] for o in last["melds"]}]
            same_hand = state["hand"] == last["hand"] and all(m in state["melds"] for m in last["melds"])
            twin = same_hand and new and seen["compared"] < 2 + (1 if board["bumps"] and not seen["bumps"] else 0)
            if twin:
                assert tracked_twin(t, state, last["board"], new) == expected
                kinds, tracked = space_kinds(d, t)
                assert kinds == tracked
                seen["compared"] += 1
            elif board["bumps"] and not seen["bumps"]:
                kinds = space_kinds(d)[0]
            else:
                kinds = {}  # the LEDs were looked at closely enough
            for x in wait["pending"] if kinds else ():
                assert kinds[x["space"]] == f"pulse{x['side']}", (x, kinds[x["space"]])
            for x in wait["bumps"] if kinds else ():
                assert kinds[x["space"]] == "bump", (x, kinds[x["space"]])
            seen["bumps"] += bool(wait["bumps"])
            mover = v["public"]["to_move"]
            if mover == 0:  # Ann's turn waits, and says for what
                seen["Ann waited"] += 1
                r = c.post(f"/api/v1/games/{gid}/actions", json={"action": v["legal_actions"][0]}, headers=d.ann)
                assert r.status_code == 409 and r.json()["error"]["code"] == "board_pending"
                for x in wait["pending"]:
                    assert x["name"] in r.json()["error"]["message"]
            else:  # the bot waits too
                seen["bot waited"] += 1
                time.sleep(0.2)
                assert c.get(f"/api/v1/games/{gid}").json()["version"] == g["version"]
            if not seen["wrong space"] and wait["pending"]:
                # a chip on the wrong space: the turn keeps waiting and the answer names that space
                seen["wrong space"] += 1
                side = wait["pending"][0]["side"]
                wrong = next(s for s in range(52) if expected[s] == "." and last["board"][s] == ".")
                sensed = list(last["board"])
                sensed[wrong] = str(side)
                set_sensed(d, "".join(sensed))
                w = c.get(f"/api/v1/games/{gid}/view", headers=d.ann).json()["waiting_for_board"]
                assert [x["space"] for x in w["unexpected"]] == [wrong]
                assert w["pending"] == wait["pending"] and space_name(wrong) in w["message"]
                assert "no chip belongs there" in w["message"]
                assert space_kinds(d, seconds=0.8)[0][wrong] == "warning"
                if mover == 0:
                    r = c.post(f"/api/v1/games/{gid}/actions", json={"action": v["legal_actions"][0]}, headers=d.ann)
                    assert r.status_code == 409 and space_name(wrong) in r.json()["error"]["message"]
                    assert r.json()["error"]["details"]["unexpected"][0]["space"] == wrong
                else:
                    assert c.get(f"/api/v1/games/{gid}").json()["version"] == g["version"]
            # the person places the chips the LEDs show and lifts the bumped ones: the turn goes on
            set_sensed(d, expected)
            deadline = time.monotonic() + 20
            while True:
                now = c.get(f"/api/v1/games/{gid}/view", headers=d.ann).json()
                # the bot's turn is played on the board's thread once the sensors agree: wait for its end
                if now["finished"] or (now["waiting_for_board"] is None and now["public"]["to_move"] == 0) \
                        or (mover != 0 and now["version"] > g["version"] and now["waiting_for_board"] is not None):
                    break
                assert time.monotonic() < deadline, f"the board agreed but the game still waits: {now}"
                time.sleep(0.03)
            last = {"board": expected, "hand": state["hand"], "melds": state["melds"]}
        assert min(seen.values()) > 0, seen
    finally:
        t.close()
        d.close()


def test_skip_board_never_waits_for_the_chips(tmp_path: Path) -> None:
    p = Phones(tmp_path / "data", "board-skip", board=True)
    try:
        c = p.client
        gid = c.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bot"], "mode": "dealt",
                                            "bots": [1], "skip_board": True}, headers=p.ann).json()["id"]
        c.post(f"/api/v1/games/{gid}/seats/0", headers=p.ann)
        rng = random.Random(4)
        differed = 0
        for _ in range(400):
            v = c.get(f"/api/v1/games/{gid}/view", headers=p.ann).json()
            if v["finished"] or differed >= 3:
                break
            assert v["waiting_for_board"] is None
            differed += bool(c.get("/api/v1/board").json()["mismatches"])  # chips on no board: nobody waits
            action = bot_action(p.table.held(gid).dealt.engine, rng)
            r = c.post(f"/api/v1/games/{gid}/actions", json={"action": action}, headers=p.ann)
            assert r.status_code == 200, r.text
        assert differed >= 3, "no meld ever put chips on the game's board"
    finally:
        p.close()
