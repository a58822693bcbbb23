"""The real server: `gingo serve` in a subprocess under uvicorn on 127.0.0.1, driven over
HTTP (httpx) and WebSocket (websockets), with the simulated board."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.test_table import GIN_HANDS, GINGO_ACTIONS
from tests.conftest import brings
from tests.live_server import CODE, HOST_CODE, ROOT, LiveServer as Server, free_port

pytestmark = pytest.mark.live


def pair(url: str) -> dict[str, str]:
    token = httpx.post(url + "/api/v1/pair", json={"code": CODE, "name": "live"}).json()["token"]
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture()
@brings("live")  # a fresh server for each test (they restart, signal and kill it)
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "data")
    srv.start()
    try:
        yield srv
    finally:
        srv.kill()


def recv_until(ws: Any, pred: Any, timeout: float = 5.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError("no matching live message")
        msg = json.loads(ws.recv(timeout=left))
        if pred(msg):
            return dict(msg)


def test_gingo_game_over_http_and_websocket(server: Server) -> None:
    auth = pair(server.url)
    c = httpx.Client(base_url=server.url, headers=auth, timeout=5)
    ws_url = server.url.replace("http", "ws") + "/api/v1/live"
    with connect(ws_url) as ws:
        snap = json.loads(ws.recv(timeout=5))
        assert snap["type"] == "snapshot" and snap["seq"] == 0
        gid = c.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bob"]}).json()["id"]
        created = recv_until(ws, lambda m: m.get("type") == "event")
        assert created["seq"] == 1 and created["event"]["type"] == "game_created"
        seqs = []
        for action in GINGO_ACTIONS[:-1]:
            r = c.post(f"/api/v1/games/{gid}/actions", json={"action": action, "client_id": json.dumps(action)})
            assert r.status_code == 200, r.text
            seqs.append(recv_until(ws, lambda m: m.get("type") == "event")["seq"])
        assert seqs == list(range(2, 2 + len(GINGO_ACTIONS) - 1))
        expected = c.get("/api/v1/board").json()["expected"]
        # place the chips the game expects on the simulated board: the link forms on the
        # sensed board and is announced live
        for space, ch in enumerate(expected):
            if ch != ".":
                assert c.post("/api/v1/board/sim", json={"space": space, "side": int(ch)}).status_code == 200
        news = recv_until(ws, lambda m: m.get("type") == "link" and m["side"] == 1)
        assert news["formed"] is True and news["path"][0] < 4 and news["path"][-1] >= 48
        board = c.get("/api/v1/board").json()
        assert board["sensed"] == expected or board["pending"]  # settling
        # lift a chip from the link: it breaks, and that is announced too
        c.post("/api/v1/board/sim", json={"space": 24, "side": None})
        broken = recv_until(ws, lambda m: m.get("type") == "link" and m["side"] == 1)
        assert broken["formed"] is False
        c.post("/api/v1/board/sim", json={"space": 24, "side": 1})
        last = c.post(f"/api/v1/games/{gid}/actions", json={"action": GINGO_ACTIONS[-1]}).json()
        assert last["game"]["finished"] and last["game"]["winner"] == 1
    # a client that missed events resumes with exactly those
    with connect(ws_url + "?after=3") as ws:
        snap = json.loads(ws.recv(timeout=5))
        top = snap["seq"]
        missed = [json.loads(ws.recv(timeout=5)) for _ in range(top - 3)]
        assert [m["seq"] for m in missed] == list(range(4, top + 1))


def test_two_clients_race_on_expected_version(server: Server) -> None:
    auth = pair(server.url)
    gid = httpx.post(server.url + "/api/v1/games", json={"variant": "gin", "players": ["A", "B"]},
                     headers=auth).json()["id"]
    statuses: list[int] = []
    barrier = threading.Barrier(2)

    def write(i: int) -> None:
        with httpx.Client(base_url=server.url, headers=auth, timeout=5) as c:
            barrier.wait()
            r = c.post(f"/api/v1/games/{gid}/hands",
                       json={"ender": 0, "deadwood": [i, 20], "expected_version": 1, "client_id": f"racer-{i}"})
            statuses.append(r.status_code)

    for _ in range(5):  # several rounds, each with a fresh game version
        statuses.clear()
        version = httpx.get(f"{server.url}/api/v1/games/{gid}").json()["version"]
        if version != 1:
            gid = httpx.post(server.url + "/api/v1/games", json={"variant": "gin", "players": ["A", "B"]},
                             headers=auth).json()["id"]
        threads = [threading.Thread(target=write, args=(i,)) for i in (1, 2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(statuses) == [200, 409]
        assert httpx.get(f"{server.url}/api/v1/games/{gid}").json()["version"] == 2


def test_sigterm_is_a_clean_shutdown(tmp_path: Path) -> None:
    srv = Server(tmp_path / "d")
    srv.start()
    auth = pair(srv.url)
    gid = httpx.post(srv.url + "/api/v1/games", json={"variant": "gin", "players": ["A", "B"]},
                     headers=auth).json()["id"]
    httpx.post(f"{srv.url}/api/v1/games/{gid}/hands", json={"ender": 0, "hands": GIN_HANDS}, headers=auth)
    assert srv.terminate() == 0
    out = srv.output()
    assert "pairing code: " + CODE in out and "Traceback" not in out
    again = Server(tmp_path / "d")
    again.start()
    try:
        assert httpx.get(f"{again.url}/api/v1/games/{gid}").json()["scores"] == [83, 0]
        # the phone stays paired across a restart (its token is stored, hashed)
        r = httpx.post(f"{again.url}/api/v1/games/{gid}/undo", json={}, headers=auth)
        assert r.status_code == 200 and r.json()["game"]["scores"] == [0, 0]
    finally:
        again.kill()


def test_port_in_use_is_one_clear_line(tmp_path: Path) -> None:
    # uvicorn used to log its bind error and exit with status 3, skipping our advice
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--data", str(tmp_path / "d"), "--no-qr", "--no-mdns"],
            cwd=ROOT, capture_output=True, text=True, timeout=30,
            env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    assert done.returncode == 2
    assert done.stderr.startswith(f"gingo serve: error: could not listen on 127.0.0.1:{port}: ")
    assert "--port" in done.stderr and done.stderr.count("\n") == 1
    assert "is running" not in done.stdout and not (tmp_path / "d").exists()
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "serve", "--host", "nonexistent.invalid", "--port", str(port),
         "--data", str(tmp_path / "d"), "--no-qr", "--no-mdns"],
        cwd=ROOT, capture_output=True, text=True, timeout=30, env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--host" in done.stderr


def test_ctrl_c_exits_130_quietly(tmp_path: Path) -> None:
    srv = Server(tmp_path / "d")
    srv.start()
    srv.signal(signal.SIGINT)
    try:
        assert srv.wait(timeout=20) == 130
    finally:
        srv.kill()
    assert "Traceback" not in srv.output()


def test_read_only_data_folder_is_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # used to be "[Errno 13] Permission denied: '.../events.sqlite3.lock'" with no advice
    import companion.paths as paths_mod
    from companion.cli import main

    def refuse(*_a: object, **_k: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(paths_mod.tempfile, "TemporaryFile", refuse)
    assert main(["serve", "--host", "127.0.0.1", "--port", str(free_port()), "--data", str(tmp_path),
                 "--no-qr", "--no-mdns"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gingo serve: error: cannot write in the data directory {tmp_path}")
    assert "GINGO_DATA" in err and not (tmp_path / "events.sqlite3").exists()
