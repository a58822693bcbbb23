"""The guest's own board follows a remote game (companion/mqtt/guestboard.py and
companion/hardware/sync.py): two real service processes on 127.0.0.1 with their simulated
boards and strips, and a real TLS mosquitto with the access list of docs/remote.md.

A remote dealt Gin-Go game has no log on the guest: its board view (``GET /api/v1/board``)
and its LEDs (the simulated strip's ``GET /api/v1/leds``) follow the host's public game,
move after move; a finished game stays lit until the guest's chips are cleared off; a
tracked remote game (a copy in the guest's log) lights the guest's strip as the host's.
Nothing the guest's board shows or pushes holds a card of a hand (the leak scan of
tests/test_mqtt_remote_dealt.py over the board views, the LED frames and the live channel)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.hardware.layout import default_layout
from tests.dealt_twin import led_kind
from tests.test_mqtt_remote import GINGO_ACTIONS
from tests.mqtt_broker import CA
from tests.test_mqtt_remote import USERS, Board, two_boards, wait
from tests.test_mqtt_remote_dealt import (Live, Mosquitto, broker, ca, claim, hands_shown,  # noqa: F401
                                          host_and_join, host_secrets, most)

pytestmark = [pytest.mark.mqtt, pytest.mark.live]

EMPTY = "." * 52


@pytest.fixture(scope="module")
def boards(tmp_path_factory: pytest.TempPathFactory, broker: Mosquitto, ca: CA) -> Iterator[tuple[Board, Board]]:
    """Board A (the host: its bots move at once, inside the request that lets them) and board B."""
    with two_boards(tmp_path_factory.mktemp("boards"), broker, ca, env_a={"GINGO_BOT_DELAY": "0"}) as both:
        yield both


def board_of(board: Board) -> dict[str, Any]:
    r = board.client.get("/api/v1/board")
    assert r.status_code == 200, r.text
    return dict(r.json())


def space_kinds(*boards: Board, seconds: float = 1.2) -> list[dict[int, str]]:
    """What each space LED of each board's simulated strip does (sampled together)."""
    lay = default_layout()
    seen: list[dict[int, set[tuple[int, ...]]]] = [{s: set() for s in range(52)} for _ in boards]
    time.sleep(0.2)  # a frame drawn before the last change may still show for a frame or two
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for b, acc in zip(boards, seen):
            r = b.client.get("/api/v1/leds")
            assert r.status_code == 200, r.text
            px = r.json()["pixels"]
            for s in range(52):
                acc[s].add(tuple(px[lay.space_led(s)]))
        time.sleep(0.04)
    return [{s: led_kind(c) for s, c in acc.items()} for acc in seen]


def lit(expected: str, kinds: dict[int, str]) -> None:
    """Every space the game has a chip on and the sensors do not is lit (pulsing in its
    side's colour: a chip to place), and every other space is off (the sensors read none)."""
    for s, ch in enumerate(expected):
        want = "." if ch == "." else f"pulse{ch}"
        got = kinds[s]
        assert (got == "off") if want == "." else got == want, (s, ch, got)


def set_chips(board: Board, target: str) -> None:
    """Move the board's simulated chips until its sensors read ``target``."""
    sensed = board_of(board)["sensed"] or EMPTY
    for s, (have, want) in enumerate(zip(sensed, target)):
        if have != want:
            if have != ".":
                assert board.client.post("/api/v1/board/sim", json={"space": s, "side": None}).status_code == 200
            if want != ".":
                assert board.client.post("/api/v1/board/sim", json={"space": s, "side": int(want)}).status_code == 200
    wait(lambda: board_of(board)["sensed"] == target, 10, "the simulated sensors read the chips")


def test_the_guests_board_follows_a_remote_dealt_gingo_game(boards: tuple[Board, Board], broker: Mosquitto) -> None:
    """Move after move from both homes, the guest's board view expects the host's board,
    and both strips light the same spaces the same way (both boards' sensors read none)."""
    a, b = boards
    for board in (a, b):
        set_chips(board, EMPTY)
    live = Live(b)
    gid = host_and_join(a, b, {"variant": "gingo", "players": ["Ann", "Bob"], "mode": "dealt", "remote": True,
                               "skip_board": True})
    wait(lambda: board_of(b)["game"] == gid, 5, "the guest's board on the joined game")
    claim(a, gid, 0)
    claim(b, gid, 1)
    rng = random.Random(11)
    views: list[Any] = []
    compared = 0
    for _ in range(120):
        game = a.game(gid)
        if game["finished"] or compared >= 2 and game["board"].count(".") < 40:
            break
        board = a if game["dealt"]["to_move"] == 0 else b
        view = board.client.get(f"/api/v1/games/{gid}/view").json()
        legal = view["legal_actions"]
        plays = [x for x in legal if x.get("type") in ("meld", "hit", "go_out")]
        r = board.client.post(f"/api/v1/games/{gid}/actions",
                              json={"action": rng.choice(plays or legal), "expected_version": view["version"]})
        assert r.status_code == 200, r.text
        version = r.json()["game"]["version"]
        wait(lambda: a.game(gid)["version"] >= version, 5, "the host's game")
        host = a.game(gid)
        # within a second of the host's commit the guest's board expects the host's board
        took = wait(lambda: (lambda v: v["game"] == gid and v["expected"] == host["board"])(board_of(b)), 5,
                    "the guest's board on the host's move")
        assert took < 1.0, took
        views.append(board_of(b))
        if host["board"] != EMPTY and host["board"] != (views[-2]["expected"] if len(views) > 1 else EMPTY):
            kinds_a, kinds_b = space_kinds(a, b)
            if a.game(gid)["version"] == host["version"]:  # nothing moved while the strips were read
                assert kinds_b == kinds_a
                lit(host["board"], kinds_b)
                compared += 1
    assert compared >= 1, "no move put a chip on the board"
    # the guest's chips placed as its LEDs show: its board agrees, and shows the same links
    expected = board_of(b)["expected"]
    set_chips(b, expected)
    view = board_of(b)
    assert view["game"] == gid and view["mismatches"] == []
    kinds = space_kinds(b)[0]
    assert all(kinds[s] != "off" for s, ch in enumerate(expected) if ch != "."), kinds
    assert all(not kinds[s].startswith("pulse") for s in range(52)), kinds  # nothing left to place
    set_chips(b, EMPTY)  # an unfinished game keeps showing on an emptied board
    assert board_of(b)["game"] == gid and board_of(b)["pending"]
    pushed = live.close()
    key, seeds = host_secrets(a, gid)
    for body in views + pushed:
        text = json.dumps(body)
        assert key not in text and not list(hands_shown(body)), body
        over = most(body, "hands_over") or most(body, "hands_played")
        assert not [k for k, s in seeds.items() if s in text and k > over], body
    assert [m for m in pushed if m.get("type") == "board" and (m.get("board") or {}).get("game") == gid]


def test_a_finished_remote_dealt_game_stays_lit_until_the_guests_chips_are_cleared(
        boards: tuple[Board, Board]) -> None:
    """Two bots play a dealt Gin-Go game on the host to its end; the guest's board keeps the
    finished game's board (its chips to place) until its own chips were put on and
    cleared off, then mirrors the chips again; the host's own board does the same by its log."""
    a, b = boards
    for board in (a, b):
        set_chips(board, EMPTY)
    gid = host_and_join(a, b, {"variant": "gingo", "players": ["Bot A", "Bot B"], "mode": "dealt", "remote": True,
                               "skip_board": True, "bots": [0, 1]})
    wait(lambda: a.game(gid)["finished"], 30, "the bots' game to end")
    final = a.game(gid)
    wait(lambda: (lambda v: v["game"] == gid and v["finished"] and v["expected"] == final["board"])(board_of(b)), 5,
         "the guest's board on the finished game")
    assert final["board"] != EMPTY
    kinds_a, kinds_b = space_kinds(a, b)
    assert kinds_b == kinds_a
    lit(final["board"], kinds_b)
    # an empty board never cleared the game: put its chips on, then take them all off
    set_chips(b, final["board"])
    assert board_of(b)["game"] == gid and board_of(b)["mismatches"] == []
    set_chips(b, EMPTY)
    view = board_of(b)
    assert view["game"] is None and view["mode"] == "mirror" and view["pending"] == []
    assert all(k == "off" for k in space_kinds(b)[0].values())
    # the host's board still shows it: its own chips were never cleared
    assert board_of(a)["game"] == gid


def test_the_guests_board_follows_a_remote_tracked_game(boards: tuple[Board, Board]) -> None:
    """A tracked remote game (a copy in the guest's log): the guest's strip lights what the
    host's does, step by step, before either board's chips are placed."""
    a, b = boards
    for board in (a, b):
        set_chips(board, EMPTY)
    r = a.client.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bob"], "remote": True})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert b.client.post("/api/v1/remote/join", json={"invite": r.json()["remote"]["invite"]}).status_code == 201
    for i, action in enumerate(GINGO_ACTIONS[:3]):
        if i:  # both boards' chips as their LEDs show before the next move (the both-boards rule)
            for board in (a, b):
                set_chips(board, board_of(board)["expected"])
            wait(lambda: a.remote(gid)["peer_agrees"] is True and a.remote(gid)["peer_version"] == a.game(gid)["version"],
                 10, "the guest's report")
        writer = a if i % 2 == 0 else b
        r = writer.act(gid, action, expected=writer.game(gid)["version"])
        assert r.status_code == 200, r.text
        want = a.game(gid)["board"]
        wait(lambda: board_of(b)["game"] == gid and board_of(b)["expected"] == want, 5, "the guest's board")
    for board in (a, b):
        set_chips(board, EMPTY)
    kinds_a, kinds_b = space_kinds(a, b)
    assert kinds_b == kinds_a
    lit(a.game(gid)["board"], kinds_b)


class Guest:
    """Board C, a guest built in this process as ``gingo serve`` builds it (its [remote]
    section, the simulated board, the real remote-play adapter started by the app), so a
    test can press its board buttons (:meth:`BoardSync.button`, what the GPIO buttons call;
    the button wiring itself is tests/test_buttons.py's) and read what it publishes."""

    def __init__(self, data: Path, broker: Mosquitto, ca: CA) -> None:
        from fastapi.testclient import TestClient

        from companion.commands.assemble import build_service
        from companion.commands.settings import Settings
        from companion.hardware.config import parse_config

        cfg = parse_config({"remote": {"host": "127.0.0.1", "port": broker.tls_port, "tls": True, "ca": str(ca.cert),
                                       "username": "board-c", "password": USERS["board-c"]}})
        self.svc = build_service(Settings(data=str(data), hardware=cfg))
        self.svc.start()
        self.published: list[dict[str, Any]] = []
        self.http = TestClient(self.svc.app, base_url="http://localhost")
        self.http.__enter__()  # the app's start: the remote-play adapter connects
        sync = self.svc.sync
        before = sync.publish  # what the phones' live channel gets, recorded on the way

        def record(msg: dict[str, Any]) -> None:
            self.published.append(msg)
            before(msg)

        sync.publish = record
        token = self.http.post("/api/v1/pair", json={"code": self.svc.pairing.code, "name": "Cy"}).json()["token"]
        self.http.headers["Authorization"] = f"Bearer {token}"
        wait(lambda: self.http.get("/api/v1/health").json()["remote"] == "online", 30, "board C online")
        self.board = Board(None, self.http, "board-c")  # type: ignore[arg-type]

    def refusals(self, name: str) -> list[str]:
        return [str(m["error"]) for m in self.published if m.get("type") == "button" and m.get("name") == name]

    def close(self) -> None:
        try:
            self.http.__exit__(None, None, None)
        finally:
            self.svc.stop()


@pytest.fixture(scope="module")
def guest(tmp_path_factory: pytest.TempPathFactory, broker: Mosquitto, ca: CA) -> Iterator[Guest]:
    g = Guest(tmp_path_factory.mktemp("board-c"), broker, ca)
    try:
        yield g
    finally:
        g.close()


def test_the_guests_buttons_ask_the_host(boards: tuple[Board, Board], guest: Guest) -> None:
    """Undo on the guest's board undoes the host's game (a proposal, as a phone there would
    send), or is refused by the host's rules; next hand in a dealt game is refused; each
    refusal is said on the guest's live channel."""
    a, c = boards[0], guest.board
    for board in (a, c):
        set_chips(board, EMPTY)
    # a tracked game: two moves, both boards' chips placed, then undo pressed on the guest
    r = a.client.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Cy"], "remote": True})
    gid = r.json()["id"]
    assert c.client.post("/api/v1/remote/join", json={"invite": r.json()["remote"]["invite"]}).status_code == 201
    boards_seen = []
    for action in GINGO_ACTIONS[:2]:
        for board in (a, c):
            set_chips(board, board_of(board)["expected"])
        wait(lambda: a.remote(gid)["peer_agrees"] is True and a.remote(gid)["peer_version"] == a.game(gid)["version"],
             10, "the guest's report")
        boards_seen.append(a.game(gid)["board"])
        assert a.act(gid, action, expected=a.game(gid)["version"]).status_code == 200
    for board in (a, c):
        set_chips(board, board_of(board)["expected"])
    version = a.game(gid)["version"]
    wait(lambda: a.remote(gid)["peer_agrees"] is True and a.remote(gid)["peer_version"] == version, 10,
         "the guest's report")
    assert board_of(c)["game"] == gid
    guest.svc.sync.button("undo")
    wait(lambda: a.game(gid)["version"] == version + 1, 10, "the host's undo")
    assert a.game(gid)["board"] == boards_seen[-1]  # the meld is undone on the host
    wait(lambda: board_of(c)["expected"] == boards_seen[-1], 5, "the guest's board after the undo")
    assert guest.refusals("undo") == []
    # the host refuses a second undo while the guest's chips still show the meld: said on the guest
    guest.svc.sync.button("undo")
    wait(lambda: bool(guest.refusals("undo")), 10, "the host's refusal on the guest")
    assert a.game(gid)["version"] == version + 1
    # a dealt Gin-Go game: a move, then undo and next hand pressed on the guest's board
    for board in (a, c):
        set_chips(board, EMPTY)
    gid = host_and_join(a, c, {"variant": "gingo", "players": ["Ann", "Cy"], "mode": "dealt", "remote": True,
                               "skip_board": True})
    claim(a, gid, 0)
    claim(c, gid, 1)
    wait(lambda: board_of(c)["game"] == gid, 5, "the guest's board on the dealt game")
    game = a.game(gid)
    mover = a if game["dealt"]["to_move"] == 0 else c
    view = mover.client.get(f"/api/v1/games/{gid}/view").json()
    assert mover.client.post(f"/api/v1/games/{gid}/actions", json={"action": view["legal_actions"][0],
                                                                    "expected_version": view["version"]}).status_code == 200
    version = a.game(gid)["version"]
    wait(lambda: c.game(gid)["version"] == version, 5, "the guest's mirror")
    guest.svc.sync.button("next_hand")
    wait(lambda: len(guest.refusals("next_hand")) == 1, 10, "next hand refused on the guest")
    assert "seat" in guest.refusals("next_hand")[0] and a.game(gid)["version"] == version
    refused = len(guest.refusals("undo"))
    guest.svc.sync.button("undo")  # the host's rule, as for its own phones: a dealt game cannot undo
    wait(lambda: len(guest.refusals("undo")) > refused, 10, "the host's answer to the undo")
    assert "dealt game cannot undo" in guest.refusals("undo")[-1]
    assert a.game(gid)["version"] == c.game(gid)["version"] == version
    # nothing the guest's buttons published holds a card of a hand
    assert not list(hands_shown(guest.published)), guest.published


def waits_for(board: Board, gid: str) -> Any:
    return board.client.get(f"/api/v1/games/{gid}/view").json()["waiting_for_board"]


def test_a_remote_dealt_gingo_turn_waits_for_the_guests_chips_too(boards: tuple[Board, Board]) -> None:
    """A remote dealt Gin-Go game on the board (no skip_board): the guest's board reports the
    chips its sensors read, and the next turn waits for them as for the host's own. While
    board B's chips differ from the game (a stray chip, or the chips of a meld not yet placed
    there), a move from either home is refused with 409 ``board_pending`` naming board-b and
    each space still wrong on it, and both homes' views say so; once B's chips match, the
    same move goes through. A guest away holds nobody up: with B's chips wrong and B
    stopped, the host plays on; B restarted reports its chips again."""
    a, b = boards
    for board in (a, b):
        set_chips(board, EMPTY)
    gid = host_and_join(a, b, {"variant": "gingo", "players": ["Ann", "Bob"], "mode": "dealt", "remote": True})
    wait(lambda: board_of(b)["game"] == gid, 5, "the guest's board on the joined game")
    claim(a, gid, 0)
    claim(b, gid, 1)
    rng = random.Random(3)
    stray = placed = away = 0
    for _ in range(300):
        game = a.game(gid)
        if game["finished"] or stray and placed and away:
            break
        mover = a if game["dealt"]["to_move"] == 0 else b
        set_chips(a, game["board"])  # the host's own chips, as its LEDs show
        view = mover.client.get(f"/api/v1/games/{gid}/view").json()
        legal = view["legal_actions"]
        at_draw = any(x.get("type") == "draw" for x in legal)  # a turn starts: it waits for the board
        behind = board_of(b)["sensed"] != game["board"]
        if at_draw and (behind or not stray or mover is a and not away):
            if not behind:  # a stray chip on the guest's board, where no chip belongs
                space = next(s for s in range(52) if game["board"][s] == ".")
                assert b.client.post("/api/v1/board/sim", json={"space": space, "side": 2}).status_code == 200
            w = wait(lambda: (waits_for(a, gid) or {}).get("board") == "board-b", 5, "the host waits for board B")
            assert w < 1.0, w
            held = waits_for(a, gid)
            assert waits_for(b, gid) == held  # the guest's phone is told the same
            named = {x["space"] for x in held["pending"] + held["bumps"] + held["unexpected"]}
            wrong = {s for s in range(52) if board_of(b)["sensed"][s] != game["board"][s]}
            assert named == wrong and "board-b" in held["message"], held
            action = next(x for x in legal if x.get("type") == "draw")
            refused = mover.client.post(f"/api/v1/games/{gid}/actions",
                                        json={"action": action, "expected_version": view["version"]})
            assert refused.status_code == 409, refused.text
            err = refused.json()["error"]
            assert err["code"] == "board_pending" and err["details"]["board"] == "board-b", err
            assert a.game(gid)["version"] == view["version"]  # nothing was written
            if not behind and mover is a and not away:  # board B goes away with its chips wrong
                b.server.stop()
                wait(lambda: waits_for(a, gid) is None, 10, "the host plays on without board B")
                r = a.client.post(f"/api/v1/games/{gid}/actions", json={"action": action,
                                                                         "expected_version": view["version"]})
                assert r.status_code == 200, r.text
                b.server.start()
                b.server.wait_until("/api/v1/health", lambda h: h["remote"] == "online", timeout=30)
                wait(lambda: b.client.get(f"/api/v1/games/{gid}").json().get("version") == a.game(gid)["version"],
                     10, "board B back on the game")
                away += 1
                continue
            set_chips(b, game["board"])  # board B's players move its chips as its LEDs show
            took = wait(lambda: waits_for(a, gid) is None and waits_for(b, gid) is None, 5, "the boards agree")
            assert took < 1.0, took
            r = mover.client.post(f"/api/v1/games/{gid}/actions",
                                  json={"action": action, "expected_version": view["version"]})
            assert r.status_code == 200, r.text
            placed += behind
            stray += not behind
            continue
        if at_draw:
            wait(lambda: waits_for(mover, gid) is None, 5, "the boards agree")
        plays = [x for x in legal if x.get("type") in ("meld", "hit", "go_out")]
        r = mover.client.post(f"/api/v1/games/{gid}/actions",
                              json={"action": rng.choice(plays or legal), "expected_version": view["version"]})
        assert r.status_code == 200, r.text
    assert stray and placed and away, (stray, placed, away)
