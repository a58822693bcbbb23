"""Dealt Gin-Go on the simulated board: after a meld the game waits for the chips (the
next turn is refused naming the board, a bot waits too) until the sensors agree; with
skip_board it never waits. The LEDs of every table play of a dealt game (melds, hits,
going out with its captures and, when the supply is short, its forfeits; the bot's and the
phone's) are compared with those of the same plays entered in a game tracked at the table,
on a second service's simulated strip (tests/dealt_twin.py)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from companion import cards as C
from companion.board import space_name
from companion.games.gingo.play import GingoPlay, bot_action
from companion.table.dealt import DealtGame
from tests.dealt_twin import EMPTY, Twin, set_sensed, space_kinds
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

#: what the LED comparison must have covered: each kind of table play, by the bot and by the phone
COVER = {(kind, who) for kind in ("meld", "hit", "go_out") for who in ("bot", "Ann")}


def check_wait(c: Any, wait: dict[str, Any], expected: str, sensed: str) -> dict[str, Any]:
    """The board view agrees with the game's wait: every space named, the sensors unmoved."""
    board: dict[str, Any] = c.get("/api/v1/board").json()
    assert board["sensed"] == sensed and board["expected"] == expected
    named = sorted(x["space"] for k in ("pending", "bumps", "unexpected") for x in wait[k])
    assert named == board["mismatches"] and not wait["unexpected"]
    assert [x["space"] for x in wait["pending"]] == board["pending"]
    assert [x["space"] for x in wait["bumps"]] == board["bumps"]
    return board


def compare_leds(d: Phones, t: Phones, twin: Twin, sensed: str, expected: str) -> dict[int, str]:
    """The tracked twin expects the dealt game's board; with both simulated boards sensing
    ``sensed``, every space LED of both strips does the same (pulse, bump, steady, off)."""
    assert twin.game()["board"] == expected
    set_sensed(t, sensed)
    kinds, tracked = space_kinds(d, t)
    assert kinds == tracked
    return kinds


def leds_show(kinds: dict[int, str], wait: dict[str, Any]) -> None:
    """A chip to place pulses its side's colour, a chip to bump alternates both colours."""
    for x in wait["pending"]:
        assert kinds[x["space"]] == f"pulse{x['side']}", (x, kinds[x["space"]])
    for x in wait["bumps"]:
        assert kinds[x["space"]] == "bump", (x, kinds[x["space"]])


@pytest.mark.slow  # LED frames sampled for seconds at a time, a wait for the sensors after every play (about a minute)
def test_dealt_plays_light_as_at_the_table_and_the_sensors_release_the_turn(tmp_path: Path) -> None:
    d = Phones(tmp_path / "dealt" / "data", "board-leds", board=True)
    t = Phones(tmp_path / "tracked" / "data", "board-leds-tracked", board=True)
    compared: set[tuple[str, str]] = set()
    seen = {"bot waited": 0, "Ann waited": 0, "bumps": 0, "wrong space": 0}
    try:
        c = d.client
        for game_no in range(4):
            if compared >= COVER:
                break
            gid = c.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bot"], "mode": "dealt",
                                                "bots": [1]}, headers=d.ann).json()["id"]
            assert c.post(f"/api/v1/games/{gid}/seats/0", headers=d.ann).status_code == 200
            twin = Twin(d, t, gid)  # the same plays entered at the table, on the second service
            rng = random.Random(11 + game_no)
            last = EMPTY  # the board when the last wait ended (the sensed board then equals the game's)
            fresh: set[tuple[str, str]] = set()  # plays not yet compared, made since the last wait
            for _ in range(3000):
                v = c.get(f"/api/v1/games/{gid}/view", headers=d.ann).json()
                # the plays made since the last look (Ann's own come one request at a time, before any wait)
                fresh |= {(k, "Ann" if s == 0 else "bot") for k, s in twin.catch_up()} & COVER - compared
                wait = v["waiting_for_board"]
                if v["finished"]:  # the board still shows where the last capture's chips go
                    g = c.get(f"/api/v1/games/{gid}").json()
                    if fresh:
                        compare_leds(d, t, twin, last, g["board"])
                        compared |= fresh
                    break
                if wait is None:
                    assert v["legal_actions"], "no wait, yet the bot did not move"
                    action = bot_action(d.table.held(gid).dealt.engine, rng)
                    r = c.post(f"/api/v1/games/{gid}/actions", json={"action": action}, headers=d.ann)
                    assert r.status_code == 200, r.text
                    continue
                g = c.get(f"/api/v1/games/{gid}").json()
                expected = g["board"]
                check_wait(c, wait, expected, last)
                # the LEDs: what the same plays entered at the table light, on a second strip
                kinds: dict[int, str] = {}
                if fresh:
                    kinds = compare_leds(d, t, twin, last, expected)
                    compared |= fresh
                    fresh = set()
                elif wait["bumps"] and not seen["bumps"]:
                    kinds = space_kinds(d)[0]
                if kinds:
                    leds_show(kinds, wait)
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
                    wrong = next(s for s in range(52) if expected[s] == "." and last[s] == ".")
                    sensed = list(last)
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
                last = expected
            else:
                raise AssertionError("the game never ended")
            set_sensed(d, EMPTY)  # the finished game's chips cleared off: the board mirrors until the next game
        assert compared >= COVER, f"not compared: {sorted(COVER - compared)}"
        assert min(seen.values()) > 0, seen
    finally:
        t.close()
        d.close()


# -- going out when the chip supply runs short: the forfeited chips stay where they are -----------------

ROWS = {"1": "SHDC", "2": "SHDC"}
ROW7 = range(24, 28)  # board row 7: rank 7 in both sides' frames (side 2 counts from the far end)


def arrange(p: Phones, gid: str, board: str, hands: list[list[str]], pile: list[str], draws: list[str]) -> DealtGame:
    """Dealt game ``gid`` from now on plays an arranged deal on ``board`` (seat 0 to move,
    the stock drawn in the order of ``draws`` and then the rest). This test's own doing:
    the game's log no longer replays it, the service in memory plays on from it."""
    g = p.table.held(gid)
    assert g is not None and g.dealt is not None
    held = {c for cs in (*hands, pile, draws) for c in cs}
    rest = [C.card_name(c) for c in range(54) if C.card_name(c) not in held]
    with p.table.ledger.lock:
        new = g.dealt.clone()
        new.engine = GingoPlay.from_deal(list(new.names), g.options, suit_rows=ROWS, hands=hands, pile=pile,
                                         stock=rest + draws[::-1], dealer=1, turn=0, board=board)
        g.dealt, g.engine = new, new.engine.table
    set_sensed(p, board)  # the chips already on the board: nothing to wait for
    return new


def play_as(p: Phones, gid: str, pick: Any) -> dict[str, Any]:
    """Ann plays the first of her legal actions that ``pick`` accepts."""
    v = p.client.get(f"/api/v1/games/{gid}/view", headers=p.ann).json()
    action = next(a for a in v["legal_actions"] if pick(a))
    r = p.client.post(f"/api/v1/games/{gid}/actions", json={"action": action}, headers=p.ann)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


@pytest.mark.slow  # two arranged games, the LEDs of each sampled on two strips (about 10 s)
def test_going_out_short_of_chips_forfeits_and_lights_as_at_the_table(tmp_path: Path) -> None:
    d = Phones(tmp_path / "dealt" / "data", "board-forfeit", board=True)
    t = Phones(tmp_path / "tracked" / "data", "board-forfeit-tracked", board=True)
    try:
        c = d.client
        for goes_out in (0, 1):  # Ann, on her phone; then the bot
            side = 1 + goes_out
            # the side going out holds every space but row 7, the other side's: 48 chips, 2 left to place
            board = "".join(str(3 - side) if s in ROW7 else str(side) for s in range(52))
            sevens, run = ["7H", "7D", "7C", "9S", "JD"], ["2S", "3S", "4S"]
            hands = [run, sevens] if goes_out == 0 else [sevens + ["QH"], run]
            gid = c.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bot"], "mode": "dealt",
                                                "bots": [1]}, headers=d.ann).json()["id"]
            assert c.post(f"/api/v1/games/{gid}/seats/0", headers=d.ann).status_code == 200
            draws = ["KC"] if goes_out == 0 else ["5C", "KC"]  # the cards drawn, in turn
            twin = Twin(d, t, gid, start=arrange(d, gid, board, hands, ["QC"], draws), board=board)
            play_as(d, gid, lambda a: a["type"] == "draw")
            if goes_out == 0:  # Ann melds her run and goes out with the king: the bot's three 7s need 3 chips
                play_as(d, gid, lambda a: a["type"] == "meld" and sorted(a["cards"]) == sorted(run))
                out = play_as(d, gid, lambda a: a["type"] == "discard" and a["card"] == "KC")
                events = out["events"]
            else:  # Ann lets the 5 go; the bot draws the king, melds its run and goes out capturing her 7s
                play_as(d, gid, lambda a: a["type"] == "discard" and a["card"] == "5C")
                events = d.table.held(gid).dealt.effects
            capture = next(e for e in events if e["type"] == "capture")
            chips = next(e for e in events if e["type"] == "chips")
            assert capture["seat"] == goes_out and sorted(capture["cards"][str(1 - goes_out)]) == sorted(hands[1 - goes_out])
            [forfeit] = chips["forfeited"]  # exactly the shortfall, the player's choice
            assert forfeit in ("7H", "7D", "7C") and len(chips["bumped"]) == 2
            assert [(k, s) for k, s in twin.catch_up()] == [("meld", goes_out), ("go_out", goes_out)]
            g = c.get(f"/api/v1/games/{gid}").json()
            assert g["finished"] and g["winner"] == side  # the capture completed the link
            kinds = compare_leds(d, t, twin, board, g["board"])
            frame = g["frames"][str(side)]
            for card in ("7H", "7D", "7C"):  # the two chips placed bump, the forfeited one's space stays as it is
                space = frame[card]
                if card == forfeit:
                    assert g["board"][space] == str(3 - side) and kinds[space].startswith(f"steady{3 - side}")
                else:
                    assert g["board"][space] == str(side) and kinds[space] == "bump"
            set_sensed(d, EMPTY)
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
