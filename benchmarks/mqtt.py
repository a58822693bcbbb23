"""MQTT benchmark: remote play between two real ``gingo serve`` on 127.0.0.1 through
Debian's mosquitto with TLS (the tests' broker, tests/mqtt_broker.py), and Home
Assistant's connection after the broker appears.

Measures, each over ``--rounds`` moves (undo and redo of a game's setup, so a game never
ends and the boards' chips never change):

- a guest's write: B's ``POST .../undo`` or ``.../redo`` until its answer, which comes once
  the host has committed it and B's copy has it (issue 25: both boards the same within 1 s);
- a host's write seen on the guest: from A's answer until B's live channel (WebSocket)
  carries the event of that version;
- a dealt game's move (Gin Rummy, dealt by the host, seat 0 at A and seat 1 at B; the
  players never knock, so the game never ends): B's ``POST .../actions`` until its answer
  (the host committed it, and the answer carries B's seat's view from the host), and
  from A's answer to A's move until B's live channel says B's mirror has that version;
- Home Assistant: a board started with no broker; after ``--wait`` seconds (its longest
  backoff reached) the broker starts: seconds until ``/api/v1/health`` says online
  (issue 25: within 30 s), and the CPU the waiting service used beyond the same service
  without MQTT (issue 25: no CPU spent while waiting).

Run: ``.venv/bin/python benchmarks/mqtt.py`` (needs ``apt-get install mosquitto``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.live_server import LiveServer  # noqa: E402
from tests.mqtt_broker import Mosquitto, free_port, make_ca, mosquitto_binary  # noqa: E402

USERS = {"board-a": "pw-a", "board-b": "pw-b", "board-h": "pw-h"}
SETUP = {"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}}
#: seconds between two moves (not timed): a board may send at most 100 requests about a
#: game in 10 s (companion.mqtt.wire.RATE_LIMIT), and a move on the guest is one or two
PACE = 0.2


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def row(name: str, values: list[float], unit: str = "ms", scale: float = 1000.0) -> str:
    v = [x * scale for x in values]
    return f"| {name} | {statistics.median(v):.1f} {unit} | {pct(v, 99):.1f} {unit} | {max(v):.1f} {unit} | {len(v)} |"


def board(tmp: Path, broker: Mosquitto, ca: Any, user: str) -> tuple[LiveServer, httpx.Client]:
    cfg = tmp / f"{user}.toml"
    cfg.write_text(f'[remote]\nhost = "127.0.0.1"\nport = {broker.tls_port}\ntls = true\nca = "{ca.cert}"\n'
                   f'username = "{user}"\npassword = "{USERS[user]}"\n')
    srv = LiveServer(tmp / user, args=("--config", str(cfg))).start()
    srv.wait_until("/api/v1/health", lambda h: h["remote"] == "online", timeout=30)
    return srv, httpx.Client(base_url=srv.url, headers={"Authorization": "Bearer " + srv.pair(user)}, timeout=15)


def remote_rounds(tmp: Path, rounds: int) -> list[str]:
    ca = make_ca(tmp / "ca")
    acl = "pattern readwrite gingo/v1/#\n"
    with Mosquitto(tmp / "broker", users=USERS, acl=acl, ca=ca) as broker:
        a_srv, a = board(tmp, broker, ca, "board-a")
        b_srv, b = board(tmp, broker, ca, "board-b")
        try:
            game = a.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bob"], "remote": True}).json()
            gid = game["id"]
            assert b.post("/api/v1/remote/join", json={"invite": game["remote"]["invite"]}).status_code == 201
            wait_agree(a, gid)
            assert a.post(f"/api/v1/games/{gid}/actions", json={"action": SETUP}).status_code == 200
            guest, seen = [], []
            with connect(b_srv.url.replace("http", "ws") + "/api/v1/live") as ws:
                json.loads(ws.recv(timeout=5))
                for i in range(rounds):
                    op = "undo" if i % 2 == 0 else "redo"
                    writer = b if i % 4 < 2 else a
                    wait_agree(a, gid)
                    time.sleep(PACE)
                    t0 = time.perf_counter()
                    r = writer.post(f"/api/v1/games/{gid}/{op}", json={})
                    t1 = time.perf_counter()
                    assert r.status_code == 200, r.text
                    version = r.json()["game"]["version"]
                    if writer is b:
                        guest.append(t1 - t0)
                        continue
                    while True:  # B's live channel: the event of that version
                        msg = json.loads(ws.recv(timeout=10))
                        if msg.get("type") == "event" and (msg.get("game") or {}).get("version") == version \
                                and (msg.get("event") or {}).get("game_id") == gid:
                            seen.append(time.perf_counter() - t1)
                            break
            dealt = dealt_rounds(a, b, b_srv, rounds)
        except Exception:
            print(a_srv.output()[-3000:], b_srv.output()[-3000:], file=sys.stderr)
            raise
        finally:
            a_srv.stop()
            b_srv.stop()
    return [row("guest's write answered (host committed, guest's copy has it)", guest),
            row("host's write on the guest's live channel, after the host's answer", seen)] + dealt


def dealt_rounds(a: httpx.Client, b: httpx.Client, b_srv: LiveServer, rounds: int) -> list[str]:
    """Moves of a remote dealt Gin Rummy game from both homes (see the module docstring)."""
    game = a.post("/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"], "mode": "dealt",
                                         "remote": True}).json()
    gid = game["id"]
    assert b.post("/api/v1/remote/join", json={"invite": game["remote"]["invite"]}).status_code == 201
    assert a.post(f"/api/v1/games/{gid}/seats/0").status_code == 200
    assert b.post(f"/api/v1/games/{gid}/seats/1").status_code == 200
    guest, seen = [], []
    with connect(b_srv.url.replace("http", "ws") + "/api/v1/live") as ws:
        json.loads(ws.recv(timeout=5))
        while len(guest) < rounds or len(seen) < rounds:
            mover = a.get(f"/api/v1/games/{gid}").json()["dealt"]["to_move"]
            writer = a if mover == 0 else b
            view = writer.get(f"/api/v1/games/{gid}/view").json()
            action = next(x for x in view["legal_actions"] if x.get("type") not in ("knock", "gin"))
            time.sleep(PACE)
            t0 = time.perf_counter()
            r = writer.post(f"/api/v1/games/{gid}/actions", json={"action": action, "expected_version": view["version"]})
            t1 = time.perf_counter()
            assert r.status_code == 200, r.text
            if writer is b:
                guest.append(t1 - t0)
                continue
            version = r.json()["game"]["version"]
            while True:  # B's live channel: its mirror has that version
                msg = json.loads(ws.recv(timeout=10))
                if msg.get("type") == "remote_game" and msg.get("game_id") == gid and msg.get("version", 0) >= version:
                    seen.append(time.perf_counter() - t1)
                    break
    return [row("dealt game: guest's move answered (host committed, with the seat's view)", guest),
            row("dealt game: host's move in the guest's mirror (its live channel), after the host's answer", seen)]


def wait_agree(a: httpx.Client, gid: str) -> None:
    end = time.monotonic() + 10
    while time.monotonic() < end:
        version = a.get(f"/api/v1/games/{gid}").json()["version"]
        info = next(g for g in a.get("/api/v1/remote").json()["games"] if g["id"] == gid)
        if info["peer_version"] == version and info["peer_agrees"] is not False:
            return
        time.sleep(0.005)
    raise RuntimeError(f"the guest never reported: {info} at version {version}")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def home_assistant(tmp: Path, wait: float) -> list[str]:
    port = free_port()
    cfg = tmp / "ha.toml"
    cfg.write_text(f'[mqtt]\nhost = "127.0.0.1"\nport = {port}\nusername = "board-h"\npassword = "pw-h"\n')
    srv = LiveServer(tmp / "ha", args=("--config", str(cfg))).start()
    plain = LiveServer(tmp / "plain").start()
    try:
        pid = srv.proc.pid if srv.proc else srv.pid
        ppid = plain.proc.pid if plain.proc else plain.pid
        assert pid and ppid
        time.sleep(max(0.0, wait - 10))
        c0, p0, t0 = cpu_seconds(pid), cpu_seconds(ppid), time.monotonic()
        time.sleep(10)
        c1, p1, t1 = cpu_seconds(pid), cpu_seconds(ppid), time.monotonic()
        broker = Mosquitto(tmp / "ha-broker", users=USERS)
        broker.port = port
        start = time.monotonic()
        with broker.start():
            srv.wait_until("/api/v1/health", lambda h: h["mqtt"] == "online", timeout=60)
            took = time.monotonic() - start
    finally:
        srv.stop()
        plain.stop()
    wall = t1 - t0
    return [f"| Home Assistant: connected after the broker appeared (waited {wait:.0f} s) | {took:.1f} s | | | 1 |",
            f"| CPU while waiting for the broker, service with [mqtt] | {100 * (c1 - c0) / wall:.2f} % of a core | | | 10 s |",
            f"| CPU of the same service without MQTT, same 10 s | {100 * (p1 - p0) / wall:.2f} % of a core | | | 10 s |"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--wait", type=float, default=40.0, help="seconds with no broker before it starts")
    ap.add_argument("--remote-only", action="store_true", help="remote play only (no Home Assistant part)")
    args = ap.parse_args()
    if mosquitto_binary() is None:
        print("mosquitto is not installed (apt-get install mosquitto mosquitto-clients)", file=sys.stderr)
        return 1
    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        lines = remote_rounds(tmp, args.rounds) + ([] if args.remote_only else home_assistant(tmp, args.wait))
    print("| measure | median | p99 | max | n |")
    print("|---|---|---|---|---|")
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
