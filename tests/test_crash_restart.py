"""SIGKILL the real server at random points of a scripted game, restart it, and check
that every acknowledged write is still there and the state equals a replay of the log."""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from companion.store import open_store
from companion.table import Table
from tests.live_server import LiveServer
from tests.test_server_live import pair

CYCLES = 20


def _writes(rng: random.Random, gid: str, n_hands: int, k: int) -> list[tuple[str, dict[str, Any]]]:
    """The next few commands of the script (paths and bodies with fresh client ids)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for j in range(k):
        cid = f"w-{rng.getrandbits(48):012x}"
        roll = rng.random()
        if roll < 0.15 and n_hands > 0:
            out.append((f"/api/v1/games/{gid}/undo", {"client_id": cid}))
        elif roll < 0.3 and n_hands > 0:
            n = rng.randint(1, n_hands)
            out.append((f"PUT /api/v1/games/{gid}/hands/{n}",
                        {"ender": 0, "deadwood": [rng.randint(0, 3), rng.randint(4, 9)], "client_id": cid}))
        else:
            out.append((f"/api/v1/games/{gid}/hands",
                        {"ender": rng.randint(0, 1), "deadwood": [rng.randint(0, 4), rng.randint(5, 9)],
                         "client_id": cid}))
            n_hands += 1
    return out


@pytest.mark.slow
def test_sigkill_at_random_points_loses_nothing_acknowledged(tmp_path: Path) -> None:
    rng = random.Random(20261122)
    data = tmp_path / "data"
    srv = LiveServer(data, fork=True)  # forked: each restart costs start-up, not imports
    srv.start()
    auth = pair(srv.url)
    acked: dict[str, dict[str, Any]] = {}  # client_id -> the answer the client got
    unacked: list[tuple[str, dict[str, Any]]] = []
    gid = httpx.post(srv.url + "/api/v1/games", json={"variant": "gin", "players": ["A", "B"], "client_id": "g"},
                     headers=auth).json()["id"]
    try:
        for cycle in range(CYCLES):
            client = httpx.Client(base_url=srv.url, headers=auth, timeout=3)
            # first, retry what was in flight when the last kill came: same client ids
            for path, body in unacked:
                r = _send(client, path, body, timeout=60)  # the server is up again: it must answer
                if r.status_code == 200:
                    acked[body["client_id"]] = r.json()
            unacked = []
            n_hands = len(client.get(f"/api/v1/games/{gid}", timeout=60).json()["hands"])
            killer = threading.Timer(rng.uniform(0.02, 0.4), srv.kill)
            killer.start()
            for path, body in _writes(rng, gid, n_hands, 60):
                try:
                    r = _send(client, path, body)
                except httpx.HTTPError:
                    unacked.append((path, body))
                    continue
                if r.status_code == 200:
                    acked[body["client_id"]] = r.json()
                else:
                    assert r.status_code in (404, 409, 422), r.text  # e.g. nothing left to undo
            killer.join()
            srv.kill()
            client.close()
            # restart on the same data folder
            srv = LiveServer(data, srv.port, fork=True)
            srv.start()
            _check(srv, data, gid, acked)
    finally:
        srv.kill()
    assert len(acked) > CYCLES  # the script really wrote things between the kills


def _send(client: httpx.Client, path: str, body: dict[str, Any], timeout: float | None = None) -> httpx.Response:
    extra: dict[str, Any] = {} if timeout is None else {"timeout": timeout}
    if path.startswith("PUT "):
        return client.put(path[4:], json=body, **extra)
    return client.post(path, json=body, **extra)


def _check(srv: LiveServer, data: Path, gid: str, acked: dict[str, dict[str, Any]]) -> None:
    # a fresh start on a loaded 2-core machine can answer slowly: wait (the kills are the test)
    events = httpx.get(f"{srv.url}/api/v1/games/{gid}/events", timeout=60).json()["events"]
    by_client = {}
    for e in events:
        if e["client_id"] is not None:
            assert e["client_id"] not in by_client, "a client id applied twice"
            by_client[e["client_id"]] = e
    for cid, answer in acked.items():
        assert cid in by_client, f"acknowledged write {cid} lost"
        seq = by_client[cid]["seq"]
        assert answer["game"]["seq"] == seq
    served = httpx.get(f"{srv.url}/api/v1/games/{gid}", timeout=60).json()
    store = open_store(data)
    try:
        replay = Table(store).game(gid)
    finally:
        store.close()
    assert served == replay
    assert [e["seq"] for e in events] == sorted(e["seq"] for e in events)
