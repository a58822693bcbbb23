"""Remote dealt games (companion/mqtt/dealt.py): two real service processes on 127.0.0.1
and a real TLS mosquitto with the access list of docs/remote.md. Board A hosts a dealt
game and holds its hands; board B follows it with no copy of the log: each home's phone
holds one seat and sees only that seat's cards. A watcher with board B's own account
records every message the broker lets B read, and B's data folder is read at the end:
neither holds the key, a seed of a hand in play or a card of the other seat's hand. And a
rummy score sheet with real cards written from both homes (hands and their corrections)."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.live_server import HOST_CODE
from tests.mqtt_broker import CA, Mosquitto, make_ca, need_mosquitto
from tests.mqtt_client import Watcher
from tests.test_mqtt_remote import ACL, USERS, Board, two_boards, wait

pytestmark = [pytest.mark.mqtt, pytest.mark.live]

#: seconds between two moves: a board may propose at most 100 writes about a game in 10 s
#: (companion.mqtt.wire.RATE_LIMIT); players are slower than that, this loop is not
PACE = 0.12
GIN = {"variant": "gin", "players": ["Ann", "Bob"], "mode": "dealt", "remote": True,
       "options": {"game_target": 10, "stock_end": "showdown_at_2"}}


@pytest.fixture(scope="module")
def ca(tmp_path_factory: pytest.TempPathFactory) -> CA:
    need_mosquitto()
    return make_ca(tmp_path_factory.mktemp("club-ca"))


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory, ca: CA) -> Iterator[Mosquitto]:
    with Mosquitto(tmp_path_factory.mktemp("club"), users=USERS, acl=ACL, ca=ca, persistence=True) as b:
        yield b


@pytest.fixture(scope="module")
def boards(tmp_path_factory: pytest.TempPathFactory, broker: Mosquitto, ca: CA) -> Iterator[tuple[Board, Board]]:
    with two_boards(tmp_path_factory.mktemp("boards"), broker, ca) as both:
        yield both


def host_and_join(a: Board, b: Board, body: dict[str, Any]) -> str:
    r = a.client.post("/api/v1/games", json=body)
    assert r.status_code == 201, r.text
    game = r.json()
    assert game["mode"] == "dealt" and game["remote"]["role"] == "host"
    joined = b.client.post("/api/v1/remote/join", json={"invite": game["remote"]["invite"]})
    assert joined.status_code == 201, joined.text
    assert joined.json()["id"] == game["id"] and joined.json()["remote"]["role"] == "guest"
    assert joined.json()["mode"] == "dealt"
    return str(game["id"])


def claim(board: Board, gid: str, seat: int) -> dict[str, Any]:
    r = board.client.post(f"/api/v1/games/{gid}/seats/{seat}")
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["seat"] == seat
    return dict(view)


def host_secrets(a: Board, gid: str) -> tuple[str, dict[int, str]]:
    """The game's key and each hand's seed, as hex, from the host's own log."""
    from companion.play.deal import hand_seed

    with sqlite3.connect(a.server.data / "events.sqlite3") as db:
        (payload,) = db.execute("SELECT payload FROM events WHERE game_id = ? AND type = 'game_created'",
                                (gid,)).fetchone()
    key = bytes.fromhex(json.loads(payload)["secret"]["key"])
    return key.hex(), {k: hand_seed(key, k).hex() for k in range(1, 60)}


def most(value: Any, name: str) -> int:
    """The largest whole number under key ``name`` anywhere in ``value`` (0: none)."""
    if isinstance(value, dict):
        here = value.get(name) if isinstance(value.get(name), int) else 0
        return max([here] + [most(v, name) for v in value.values()])
    if isinstance(value, list):
        return max([0] + [most(v, name) for v in value])
    return 0


def hands_shown(value: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """Every ``(path, seat, cards)`` of a dict whose ``hand`` is a list of cards or whose
    ``drawn`` is a card (a seat's view)."""
    if isinstance(value, dict):
        if isinstance(value.get("hand"), list) and value["hand"] or isinstance(value.get("drawn"), str):
            yield path, value.get("seat"), (value.get("hand"), value.get("drawn"))
        for k, v in value.items():
            yield from hands_shown(v, f"{path}/{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from hands_shown(v, f"{path}/{i}")


def opened(body: Any) -> Any:
    """A message with its packed public game (``gz``) unpacked beside it, as ``gz_game``."""
    from companion.mqtt.dealt import unpack

    if isinstance(body, dict) and "gz" in body:
        game = unpack(body["gz"])
        assert game is not None, "a packed game that does not unpack"
        return {**body, "gz_game": game}
    return body


def choose(view: dict[str, Any], rng: random.Random, may_knock: bool) -> dict[str, Any]:
    """A simple seat policy from what the seat sees: knock or gin when it may (and
    ``may_knock``), else a random other legal action (a showdown at the stock's end scores
    every hand, so the game ends)."""
    legal = view["legal_actions"]
    knocks = [a for a in legal if a.get("type") in ("knock", "gin")]
    others = [a for a in legal if a not in knocks]
    return dict(rng.choice(knocks if knocks and (may_knock or not others) else others))


class Live:
    """Every message of a board's live channel (``WS /api/v1/live``, no token: what any
    phone on that Wi-Fi sees), read on a thread of its own from connect to :meth:`close`."""

    def __init__(self, board: Board) -> None:
        from websockets.sync.client import connect

        self.messages: list[dict[str, Any]] = []
        # entered by hand: the connection outlives this call (closed in close(), or by the
        # server's stop at the module's end when a test fails first)
        self.ws = connect(board.server.url.replace("http", "ws") + "/api/v1/live").__enter__()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            while True:
                self.messages.append(json.loads(self.ws.recv()))
        except (ConnectionClosed, OSError):
            return

    def close(self) -> list[dict[str, Any]]:
        self.ws.close()
        self.thread.join(10)
        return self.messages


def listed(board: Board, gid: str) -> dict[str, Any]:
    """``gid``'s line in the board's game list (``GET /api/v1/games``)."""
    r = board.client.get("/api/v1/games")
    assert r.status_code == 200, r.text
    lines = [g for g in r.json()["games"] if g["id"] == gid]
    assert len(lines) == 1, f"{board.name} lists {gid} {len(lines)} times"
    return dict(lines[0])


def test_a_dealt_game_played_from_both_homes_leaves_the_guest_no_other_hand(
        boards: tuple[Board, Board], broker: Mosquitto, ca: CA) -> None:
    a, b = boards
    live = Live(b)
    lists: list[Any] = []
    with Watcher(broker.tls_port, ("gingo/v1/g/#",), username="board-b", password=USERS["board-b"], ca=ca.cert,
                 client_id="watcher-as-board-b") as seen:
        gid = host_and_join(a, b, GIN)
        # the guest lists the game it follows, as the host lists it (no log of it here)
        line = listed(b, gid)
        assert line["remote"]["role"] == "guest" and line["mode"] == "dealt" and line["players"] == ["Ann", "Bob"]
        assert claim(a, gid, 0)["hand"]  # Ann's phone at home A
        bob = claim(b, gid, 1)  # Bob's phone at home B: the claim goes to the host
        assert len(bob["hand"]) == 10 and bob["seat"] == 1
        # one seat per phone: B's phone cannot take A's seat, nor free it
        taken = b.client.post(f"/api/v1/games/{gid}/seats/0")
        assert taken.status_code == 409, taken.text
        freed = b.client.delete(f"/api/v1/games/{gid}/seats/0", headers={"X-Host-Code": HOST_CODE})
        assert freed.status_code == 409 and freed.json()["error"]["code"] == "seat_elsewhere", freed.text
        rng = random.Random(25)
        guest_answers: list[Any] = []
        moves = {"a": 0, "b": 0}
        for _ in range(3000):
            game = a.game(gid)
            if game["finished"]:
                break
            mover = game["dealt"]["to_move"]
            board = a if mover == 0 else b
            time.sleep(PACE)
            view = board.client.get(f"/api/v1/games/{gid}/view").json()
            if board is b:
                guest_answers.append(view)
            assert view["seat"] == mover and view["version"] == game["version"], (view, game["version"])
            r = board.client.post(f"/api/v1/games/{gid}/actions",
                                  json={"action": choose(view, rng, min(moves.values()) >= 6),
                                        "expected_version": view["version"]})
            assert r.status_code == 200, r.text
            moves["a" if board is a else "b"] += 1
            if board is b:
                guest_answers.append(r.json())
                # the guest answers once its own mirror has the move
                assert b.game(gid)["version"] == r.json()["game"]["version"]
                lists.append(b.client.get("/api/v1/games").json())
        else:
            raise AssertionError("the game did not end")
        assert moves["a"] > 5 and moves["b"] > 5, moves
        wait(lambda: b.game(gid)["version"] == a.game(gid)["version"], 5, "the guest's mirror at the end")
        ga, gb = a.game(gid), b.game(gid)
        assert gb["finished"] and gb["winner"] == ga["winner"] is not None
        assert {k: v for k, v in gb.items() if k != "remote"} == {k: v for k, v in ga.items() if k != "remote"}
        assert b.remote(gid)["finished"] is True and b.remote(gid)["role"] == "guest"
        # its line in the guest's list and the live channel's snapshot: the host's own line
        wait(lambda: listed(b, gid)["version"] == ga["version"], 5, "the guest's line at the end")
        own = a.client.get(f"/api/v1/games/{gid}/summary").json()
        assert {k: v for k, v in listed(b, gid).items() if k != "remote"} == own and own["finished"]
        snap = Live(b)
        wait(lambda: bool(snap.messages), 5, "the live snapshot")
        snap.close()
        assert snap.messages[0]["type"] == "snapshot"
        assert [g for g in snap.messages[0]["games"] if g["id"] == gid][0]["version"] == ga["version"]
        lists.append(b.client.get("/api/v1/games?hands=true").json())
        end = b.client.get(f"/api/v1/games/{gid}/view").json()
        assert end["finished"] and end["legal_actions"] == []
        # the guest keeps no log of the game: reading it is the host's
        assert b.client.get(f"/api/v1/games/{gid}/events").json()["error"]["code"] == "remote_dealt"
        received = [opened(m.json()) for m in seen.messages]
    pushed = live.close() + snap.messages
    assert [m for m in pushed if m.get("type") == "remote_game" and (m.get("game") or {}).get("id") == gid]
    assert len(lists) > 5
    key, seeds = host_secrets(a, gid)
    # 1. nothing the guest's account could read holds the key, the seed of a hand before the
    #    hand is over (a seed is published when its hand ends), or another seat's cards
    assert any("gz" in m.json() for m in seen.messages)  # the public game travels packed: read it unpacked
    for msg, body in zip(seen.messages, received):
        text = json.dumps(body)
        assert key not in text and key not in msg.text, msg.topic
        over = most(body, "hands_over")
        early = [k for k, s in seeds.items() if (s in text or s in msg.text) and k > over]
        assert not early, (msg.topic, early, over)
    shown = [h for msg in received + guest_answers for h in hands_shown(msg)]
    assert len([h for h in shown if h[0].startswith("/body")]) > 5  # the scan reads the seat views it got
    for path, seat, hand in shown:
        assert seat == 1, f"a hand of seat {seat} reached the guest at {path}: {hand}"
    # 1b. what the guest shows every phone (its game list, the live channel, without a seat):
    #     no hand at all, no key, no seed of a hand in play
    assert any("line" in m.json() for m in seen.messages)  # the host publishes the line too
    for body in lists + pushed:
        text = json.dumps(body)
        assert key not in text
        over = most(body, "hands_over") or most(body, "hands_played")
        assert not [k for k, s in seeds.items() if s in text and k > over], body
        assert not list(hands_shown(body)), body
    # 2. nothing the guest stored: no event of the game, and no key or seed in any file
    with sqlite3.connect(b.server.data / "events.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (gid,)).fetchone() == (0,)
    for path in Path(b.server.data).rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert key.encode() not in data and not [k for k, s in seeds.items() if s.encode() in data], path
    # the host's own phone saw its cards all along (the rule is not "nobody sees hands")
    assert a.client.get(f"/api/v1/games/{gid}/view").json()["seat"] == 0


def test_a_score_sheet_written_from_both_homes(boards: tuple[Board, Board]) -> None:
    """A Gin Rummy game with real cards: a hand scored on the guest (``POST .../hands``) and
    its correction (``PUT .../hands/{n}``) go through the host's table; both boards agree."""
    a, b = boards
    r = a.client.post("/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"], "remote": True})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    joined = b.client.post("/api/v1/remote/join", json={"invite": r.json()["remote"]["invite"]})
    assert joined.status_code == 201, joined.text
    version = b.game(gid)["version"]
    # a preview on the guest is answered by its own copy (the same rules), and writes nothing
    preview = b.client.post(f"/api/v1/games/{gid}/hands/preview", json={"ender": 0, "deadwood": [4, 30]})
    assert preview.status_code == 200, preview.text
    on_host = a.client.post(f"/api/v1/games/{gid}/hands/preview", json={"ender": 0, "deadwood": [4, 30]}).json()
    assert preview.json()["game"]["scores"] == on_host["game"]["scores"] and sum(on_host["game"]["scores"]) > 0
    assert preview.json()["game"]["version"] == on_host["game"]["version"]
    assert a.game(gid)["version"] == b.game(gid)["version"] == version  # nothing written
    scored = b.client.post(f"/api/v1/games/{gid}/hands",
                           json={"ender": 0, "deadwood": [4, 30], "expected_version": version, "client_id": "h1"})
    assert scored.status_code == 200, scored.text
    assert b.game(gid)["version"] == version + 1  # the guest answers once its copy has it
    assert a.game(gid)["scores"] == b.game(gid)["scores"] and sum(a.game(gid)["scores"]) > 0
    # a stale write from the guest: the host's 409, nothing written
    stale = b.client.post(f"/api/v1/games/{gid}/hands", json={"ender": 1, "deadwood": [20, 3],
                                                                "expected_version": version})
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_version", stale.text
    # a malformed hand is refused by the host with the API's own schema
    bad = b.client.post(f"/api/v1/games/{gid}/hands", json={"ender": 9, "deadwood": [1]})
    assert bad.status_code == 422, bad.text
    assert a.game(gid)["version"] == version + 1
    # the host writes the next hand; the guest corrects the first one
    assert a.client.post(f"/api/v1/games/{gid}/hands", json={"ender": 1, "deadwood": [25, 0]}).status_code == 200
    wait(lambda: b.game(gid)["version"] == version + 2, 5, "the host's hand on the guest")
    fixed = b.client.put(f"/api/v1/games/{gid}/hands/1", json={"ender": 0, "deadwood": [0, 30]})
    assert fixed.status_code == 200, fixed.text
    ga, gb = a.game(gid), b.game(gid)
    assert ga["version"] == gb["version"] == version + 3
    assert ga["scores"] == gb["scores"]
    # each board numbers its own log (seq); the hands are otherwise the same
    assert [{k: v for k, v in h.items() if k != "seq"} for h in ga["hands"]] == \
        [{k: v for k, v in h.items() if k != "seq"} for h in gb["hands"]]


@pytest.mark.parametrize("variant,extra", [("gingo", {"skip_board": True}), ("color_gin", {}), ("ginski", {})])
def test_every_variant_is_dealt_remotely(boards: tuple[Board, Board], variant: str, extra: dict[str, Any]) -> None:
    """The other variants: the first moves of a remote dealt game from both homes, each
    home's phone seeing its own seat's cards only, and both boards on the same version."""
    a, b = boards
    gid = host_and_join(a, b, {"variant": variant, "players": ["Ann", "Bob"], "mode": "dealt", "remote": True,
                               **extra})
    claim(a, gid, 0)
    claim(b, gid, 1)
    rng = random.Random(7)
    answers = []
    for _ in range(16):
        game = a.game(gid)
        if game["finished"]:
            break
        board = a if game["dealt"]["to_move"] == 0 else b
        view = board.client.get(f"/api/v1/games/{gid}/view").json()
        assert view["legal_actions"], view
        r = board.client.post(f"/api/v1/games/{gid}/actions",
                              json={"action": rng.choice(view["legal_actions"]), "expected_version": view["version"]})
        assert r.status_code == 200, r.text
        version = r.json()["game"]["version"]
        if board is b:  # the guest answers once its mirror has its move
            answers += [view, r.json()]
            assert b.game(gid)["version"] == version
        wait(lambda: b.game(gid)["version"] == a.game(gid)["version"] == version, 5, "the guest's mirror")
    assert answers
    for path, seat, hand in [h for msg in answers for h in hands_shown(msg)]:
        assert seat == 1, f"a hand of seat {seat} reached the guest at {path}: {hand}"


def test_a_restarted_guest_gets_its_mirror_and_its_seat_back(boards: tuple[Board, Board]) -> None:
    """The guest stores nothing of a dealt game but its remote.json: restarted, it shows the
    game again from the host's retained snapshot, and its phone still holds its seat."""
    a, b = boards
    gid = host_and_join(a, b, dict(GIN))
    claim(a, gid, 0)
    hand = claim(b, gid, 1)["hand"]
    b.server.stop()
    b.server.start()
    b.server.wait_until("/api/v1/health", lambda h: h["remote"] == "online", timeout=30)
    wait(lambda: b.client.get(f"/api/v1/games/{gid}").status_code == 200, 10, "the mirror after a restart")
    assert b.game(gid)["version"] == a.game(gid)["version"]
    wait(lambda: listed(b, gid)["version"] == a.game(gid)["version"], 5, "the guest's line after a restart")
    view = b.client.get(f"/api/v1/games/{gid}/view").json()
    assert view["seat"] == 1 and sorted(view["hand"]) == sorted(hand)


def test_the_host_reads_its_invite_again_with_a_token_and_nobody_else_does(boards: tuple[Board, Board]) -> None:
    """``GET .../invite``: a paired phone of the host board reads the code of a game it hosts
    again (a phone page that reloaded has lost it); without a token, with a wrong one, on a
    local game and on the guest's board, no code is answered, and each refusal says why."""
    a, b = boards
    r = a.client.post("/api/v1/games", json=GIN)
    assert r.status_code == 201, r.text
    gid, invite = r.json()["id"], r.json()["remote"]["invite"]
    got = a.client.get(f"/api/v1/games/{gid}/invite")
    assert got.status_code == 200, got.text
    assert got.json()["invite"] == invite and got.json()["role"] == "host" and got.json()["peer"] is None
    # the game is open to read, its invite is not: the right to join needs a paired phone
    for headers in ({}, {"Authorization": "Bearer not-a-token"}):
        with httpx.Client(base_url=a.server.url, headers=headers, timeout=15) as anon:
            assert anon.get(f"/api/v1/games/{gid}").status_code == 200
            refused = anon.get(f"/api/v1/games/{gid}/invite")
            assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized", refused.text
            assert invite not in refused.text and invite.split("-", 1)[1] not in refused.text
    local = a.client.post("/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"]})
    assert local.status_code == 201, local.text
    missing = a.client.get(f"/api/v1/games/{local.json()['id']}/invite")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_remote", missing.text
    # the guest joins: its own board gives no invite of the host's game (dealt or with real cards)
    assert b.client.post("/api/v1/remote/join", json={"invite": invite}).status_code == 201
    tracked = a.client.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bob"], "remote": True})
    assert b.client.post("/api/v1/remote/join", json={"invite": tracked.json()["remote"]["invite"]}).status_code == 201
    for g in (gid, tracked.json()["id"]):
        on_b = b.client.get(f"/api/v1/games/{g}/invite")
        assert on_b.status_code == 409 and on_b.json()["error"]["code"] == "not_host", on_b.text
        assert "board-a" in on_b.json()["error"]["message"] and "gingo1-" not in on_b.text
    # the host still gives it (a guest that lost its data folder joins again with it), and says who joined
    wait(lambda: a.client.get(f"/api/v1/games/{gid}/invite").json()["peer"] == "board-b", 10, "the host hears the join")
    assert a.client.get(f"/api/v1/games/{gid}/invite").json()["invite"] == invite
