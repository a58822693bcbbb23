"""Home Assistant over MQTT (companion/mqtt/home.py) on the real broker, against the real
service process: discovery and availability, the birth message, the Will on SIGKILL, no
broker at start, commands (and bad ones ignored), and MQTT off when not configured."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.live_server import ROOT, LiveServer
from tests.mqtt_broker import Mosquitto, free_port, need_mosquitto
from tests.mqtt_client import Watcher
from tests.test_table import GINGO_ACTIONS

pytestmark = [pytest.mark.mqtt, pytest.mark.live]

BOARD = "gingo_testboard"
USERS = {"board": "board-pw", "ha": "ha-pw"}


def write_config(folder: Path, port: int, **extra: Any) -> Path:
    lines = ["[mqtt]", 'host = "127.0.0.1"', f"port = {port}", 'username = "board"', 'password = "board-pw"',
             f'board_id = "{BOARD}"']
    for key, value in extra.items():
        lines.append(f"{key} = {json.dumps(value)}")
    path = folder / "gingo.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mosquitto]:
    need_mosquitto()
    with Mosquitto(tmp_path_factory.mktemp("broker"), users=USERS) as b:
        yield b


def ha_watcher(broker: Mosquitto, topics: tuple[str, ...] = ("homeassistant/#", "gingo/#")) -> Watcher:
    return Watcher(broker.port, topics, username="ha", password="ha-pw").start()


def start_server(tmp: Path, port: int, **extra: Any) -> LiveServer:
    cfg = write_config(tmp, port, **extra)
    return LiveServer(tmp / "data", args=("--config", str(cfg))).start()


def test_discovery_availability_states_and_will_on_sigkill(broker: Mosquitto, tmp_path: Path) -> None:
    w = ha_watcher(broker)
    srv = start_server(tmp_path, broker.port)
    try:
        config = w.wait_topic(f"homeassistant/device/{BOARD}/config", timeout=10)
        body = config.json()
        assert body["device"]["identifiers"] == [BOARD]
        assert body["origin"]["name"] == "gingo-companion"
        assert body["availability"] == [{"topic": f"gingo/{BOARD}/availability"}]
        comps = body["components"]
        assert all("platform" in c and "unique_id" in c for c in comps.values())
        ids = [c["unique_id"] for c in comps.values()]
        assert len(ids) == len(set(ids))
        for key in ("game", "score_1", "score_2", "turn", "link_1", "link_2", "link_distance_1", "link_distance_2",
                    "sensors_online", "mismatch", "leds", "events"):
            assert key in comps, key
        # commands are off by default: no buttons, the LEDs are a read-only sensor
        assert "new_hand" not in comps and "new_game" not in comps and comps["leds"]["platform"] == "sensor"
        assert set(comps["events"]["event_types"]) == {"gin", "link", "hand_scored", "game_over", "chip_mismatch"}
        w.wait_topic(f"gingo/{BOARD}/availability", check=lambda m: m.text == "online")
        assert srv.get("/api/v1/health")["mqtt"] == "online"
        # a subscriber that comes later gets availability and state as retained messages,
        # and no discovery (not retained: no ghost entities after the board is gone)
        with Watcher(broker.port, (f"gingo/{BOARD}/#", "homeassistant/#"), username="ha", password="ha-pw") as late:
            assert late.wait_topic(f"gingo/{BOARD}/availability").retain
            state = late.wait_topic(f"gingo/{BOARD}/state")
            assert state.retain and state.json()["game"] == "none"
            time.sleep(0.5)
            assert late.on(f"homeassistant/device/{BOARD}/config") == []

        # a Gin-Go game played through the API, chips put on the simulated board
        auth = {"Authorization": "Bearer " + srv.pair()}
        c = httpx.Client(base_url=srv.url, headers=auth, timeout=10)
        gid = c.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bob"]}).json()["id"]
        t0 = time.monotonic()
        for action in GINGO_ACTIONS[:-1]:
            assert c.post(f"/api/v1/games/{gid}/actions", json={"action": action}).status_code == 200
        game = w.wait_topic(f"gingo/{BOARD}/game", after=t0, check=lambda m: m.json().get("id") == gid)
        assert game.json()["players"] == ["Ann", "Bob"]
        expected = c.get("/api/v1/board").json()["expected"]
        t1 = time.monotonic()
        for space, ch in enumerate(expected):
            if ch != ".":
                assert c.post("/api/v1/board/sim", json={"space": space, "side": int(ch)}).status_code == 200
        # the link made on the board: an event within 1 s of the board seeing it, and the state
        link = w.wait_topic(f"gingo/{BOARD}/event", after=t1, check=lambda m: m.json()["event_type"] == "link")
        assert link.json()["side"] == 1
        w.wait_topic(f"gingo/{BOARD}/state", after=t1, check=lambda m: m.json()["link_1"] is True)
        t2 = time.monotonic()
        assert c.post(f"/api/v1/games/{gid}/actions", json={"action": GINGO_ACTIONS[-1]}).status_code == 200
        over = w.wait_topic(f"gingo/{BOARD}/event", after=t2, check=lambda m: m.json()["event_type"] == "game_over")
        assert over.json()["winner"] == 1
        assert over.at - t2 < 1.5
        w.wait_topic(f"gingo/{BOARD}/game", after=t2, check=lambda m: m.json()["finished"] is True)
        kinds = [m.json()["event_type"] for m in w.on(f"gingo/{BOARD}/event")]
        assert "gin" in kinds and kinds.count("game_over") == 1, kinds  # side 1's link called gin, once

        # never a card of a hand: nothing published names one of the cards played
        everything = b" ".join(m.payload for m in w.messages)
        for name in (b'"AS"', b'"KH"', b"hand_cards", b'"cards"'):
            assert name not in everything

        # SIGKILL (a power cut): the broker sends the Will, retained
        t3 = time.monotonic()
        srv.kill()
        off = w.wait_topic(f"gingo/{BOARD}/availability", after=t3, timeout=5, check=lambda m: m.text == "offline")
        assert off.at - t3 < 2.0
        with Watcher(broker.port, (f"gingo/{BOARD}/availability",), username="ha", password="ha-pw") as late:
            assert late.wait_topic(f"gingo/{BOARD}/availability").text == "offline"
        # and back online after a restart
        t4 = time.monotonic()
        srv.start()
        w.wait_topic(f"gingo/{BOARD}/availability", after=t4, check=lambda m: m.text == "online")
    finally:
        srv.stop()
        w.stop()


def test_birth_message_brings_discovery_again_and_clean_stop_says_offline(broker: Mosquitto, tmp_path: Path) -> None:
    w = ha_watcher(broker)
    srv = start_server(tmp_path, broker.port)
    try:
        config = f"homeassistant/device/{BOARD}/config"
        w.wait_topic(config)
        time.sleep(0.5)
        before = len(w.on(config))
        t0 = time.monotonic()
        w.publish("homeassistant/status", "online")
        again = w.wait_topic(config, after=t0, timeout=6)
        assert again.at - t0 <= 6
        w.wait_topic(f"gingo/{BOARD}/state", after=again.at - 0.01)  # the states follow it
        time.sleep(1.0)
        assert len(w.on(config)) == before + 1  # exactly one new config
        # Home Assistant going offline asks for nothing
        t1 = time.monotonic()
        w.publish("homeassistant/status", "offline")
        time.sleep(BIRTH_WAIT)
        assert [m for m in w.on(config) if m.at >= t1] == []
        # a clean stop (SIGTERM) says offline itself: the Will is not sent on a normal disconnect
        t2 = time.monotonic()
        assert srv.terminate() == 0
        w.wait_topic(f"gingo/{BOARD}/availability", after=t2, timeout=5, check=lambda m: m.text == "offline")
    finally:
        srv.stop()
        w.stop()


BIRTH_WAIT = 3.5


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_no_broker_at_start_then_broker_appears(tmp_path: Path) -> None:
    need_mosquitto()
    port = free_port()
    srv = start_server(tmp_path, port)
    try:
        health = srv.get("/api/v1/health")
        assert health["status"] == "ok" and health["mqtt"] == "offline"
        time.sleep(20)  # the longest backoff (15 s) reached: the wait costs no CPU
        pid = srv.proc.pid if srv.proc is not None else srv.pid
        assert pid is not None
        base = LiveServer(tmp_path / "plain", args=())  # the same service without MQTT, for comparison
        base.start()
        try:
            bpid = base.proc.pid if base.proc is not None else base.pid
            assert bpid is not None
            a0, b0, t0 = _cpu_seconds(pid), _cpu_seconds(bpid), time.monotonic()
            time.sleep(10)
            a1, b1, t1 = _cpu_seconds(pid), _cpu_seconds(bpid), time.monotonic()
        finally:
            base.stop()
        extra = ((a1 - a0) - (b1 - b0)) / (t1 - t0)
        assert extra < 0.02, f"waiting for the broker costs {extra:.1%} of a core more than no MQTT at all"
        broker = Mosquitto(tmp_path / "late-broker", users=USERS)
        broker.port = port
        t2 = time.monotonic()
        with broker.start():
            srv.wait_until("/api/v1/health", lambda h: h["mqtt"] == "online", timeout=30)
            took = time.monotonic() - t2
            assert took < 30
            with Watcher(broker.port, (f"gingo/{BOARD}/availability",), username="ha", password="ha-pw") as w:
                assert w.wait_topic(f"gingo/{BOARD}/availability").text == "online"
    finally:
        srv.stop()


def test_commands_leds_and_new_game_and_bad_ones_ignored(broker: Mosquitto, tmp_path: Path) -> None:
    w = ha_watcher(broker)
    srv = start_server(tmp_path, broker.port, commands=True)
    try:
        config = w.wait_topic(f"homeassistant/device/{BOARD}/config").json()
        comps = config["components"]
        assert comps["leds"]["platform"] == "light" and comps["leds"]["schema"] == "json"
        assert comps["new_hand"]["platform"] == "button" and comps["new_game"]["platform"] == "button"
        leds_set, leds_state = f"gingo/{BOARD}/leds/set", f"gingo/{BOARD}/leds/state"
        first = w.wait_topic(leds_state).json()
        assert first == {"state": "ON", "brightness": round(0.6 * 255)}  # the config's default brightness
        # bad commands: not JSON, 1 MB, the wrong shape, a brightness out of range
        t0 = time.monotonic()
        for bad in (b"{not json", b"x" * (1024 * 1024), b'{"state": "ON", "brightness": 64, "colour": "red"}',
                    b'{"state": "ON", "brightness": 999}', b'["ON"]'):
            w.publish(leds_set, bad)
        auth = {"Authorization": "Bearer " + srv.pair()}
        c = httpx.Client(base_url=srv.url, headers=auth, timeout=10)
        gid = c.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bob"]}).json()["id"]
        w.publish(f"gingo/{BOARD}/cmd/new_game", "not PRESS")
        srv.wait_until("/api/v1/health", lambda h: h["status"] == "ok")
        time.sleep(1.0)
        assert {m.json()["brightness"] for m in w.on(leds_state)} == {first["brightness"]}  # nothing changed
        assert len(c.get("/api/v1/games").json()["games"]) == 1
        out = srv.output()
        assert out.count("ignored a command") >= 6, out[-2000:]
        assert "Traceback" not in out
        # a good one: the light echoes the LED backend's new brightness
        w.publish(leds_set, json.dumps({"state": "ON", "brightness": 64}))
        echo = w.wait_topic(leds_state, after=t0, check=lambda m: m.json()["brightness"] == 64)
        assert echo.json()["state"] == "ON" and first["brightness"] != 64  # read back from the LED backend
        # new game: a rematch of the current game, as a phone's "new game" would start
        w.publish(f"gingo/{BOARD}/cmd/new_game", "PRESS")
        games = srv.wait_until("/api/v1/games", lambda b: len(b["games"]) == 2)["games"]
        assert games[-1]["rematch_of"] == gid
        # new hand: the board's own "next hand" button, with what it says on the live channel
        # (here the hand has not started, so the rules refuse it, as they would the button)
        with connect(srv.url.replace("http", "ws") + "/api/v1/live") as ws:
            json.loads(ws.recv(timeout=5))  # the snapshot
            w.publish(f"gingo/{BOARD}/cmd/new_hand", "PRESS")
            end = time.monotonic() + 5
            while True:
                msg = json.loads(ws.recv(timeout=max(0.1, end - time.monotonic())))
                if msg.get("type") == "button":
                    break
            assert msg["name"] == "next_hand" and msg["error"]
    finally:
        srv.stop()
        w.stop()


NO_SOCKET_SCRIPT = r"""
import os, sys, tempfile
from fastapi.testclient import TestClient
from companion.commands.settings import Settings
from companion.commands.assemble import build_service
from companion.hardware.config import parse_config

cfg = parse_config(CONFIG)
svc = build_service(Settings(data=tempfile.mkdtemp(), hardware=cfg))
def inet_socket_count():
    inodes = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = 0
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        for line in open(table).read().splitlines()[1:]:
            if line.split()[9] in inodes:
                found += 1
    return found
import time
with TestClient(svc.app, base_url="http://localhost") as client:
    time.sleep(2.0)
    status = client.get("/api/v1/health").json()["mqtt"]
    print(status, inet_socket_count(), "paho" in " ".join(sys.modules))
svc.stop()
"""


@pytest.mark.parametrize("configured", [False, True])
def test_not_configured_opens_no_socket(broker: Mosquitto, configured: bool) -> None:
    config = ({"mqtt": {"host": "127.0.0.1", "port": broker.port, "username": "board", "password": "board-pw"}}
              if configured else {})
    script = NO_SOCKET_SCRIPT.replace("CONFIG", repr(config))
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    assert done.returncode == 0, done.stderr[-2000:]
    status, sockets, paho = done.stdout.split()
    if configured:  # the same check sees the broker connection when there is one
        assert (status, int(sockets) >= 1, paho) == ("online", True, "True")
    else:
        assert (status, int(sockets), paho) == ("off", 0, "False")

