"""Storage faults against a real SQLite file and the real server process: a damaged row,
a missing or empty log, a lost WAL, a full disk (a real tmpfs when this machine lets the
test mount one, and SQLite's page cap), and SIGTERM while the disk is full."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.test_server_live import CODE, Server, pair
from tests.test_table import GIN_HANDS

# Every test here starts the real service: the live lane, not `make test-fast`.
pytestmark = pytest.mark.live


class FaultServer(Server):
    """The real server, with extra environment of its own (the log's size cap)."""

    def __init__(self, data: Path, port: int | None = None, env: dict[str, str] | None = None) -> None:
        super().__init__(data, port, env=env)

    def health(self) -> dict[str, Any]:
        """The health answer once the start-up scan of every row has finished."""
        end = time.monotonic() + 20
        while True:
            h = dict(httpx.get(self.url + "/api/v1/health", timeout=5).json())
            if h["storage"]["scan"] != "running" or time.monotonic() > end:
                return h
            time.sleep(0.05)


def _game_with_hands(url: str, auth: dict[str, str], n: int, **extra: Any) -> str:
    gid = str(httpx.post(url + "/api/v1/games", json={"variant": "gin", "players": ["A", "B"],
                                                      "options": {"game_target": 100000}, **extra},
                         headers=auth).json()["id"])
    for i in range(n):
        r = httpx.post(f"{url}/api/v1/games/{gid}/hands", json={"ender": 0, "deadwood": [i % 4, 20]}, headers=auth)
        assert r.status_code == 200, r.text
    return gid


@pytest.mark.parametrize("damage", ["bad_json", "bad_utf8"])
def test_a_damaged_event_quarantines_its_own_game_and_the_service_starts(tmp_path: Path, damage: str) -> None:
    srv = FaultServer(tmp_path / "d")
    srv.start()
    auth = pair(srv.url)
    hurt = _game_with_hands(srv.url, auth, 4)
    fine = _game_with_hands(srv.url, auth, 3)
    events = httpx.get(f"{srv.url}/api/v1/games/{hurt}/events").json()["events"]
    assert srv.terminate() == 0
    bad_seq = events[3]["seq"]  # the third hand
    raw = sqlite3.connect(tmp_path / "d" / "events.sqlite3")
    if damage == "bad_json":
        raw.execute("UPDATE events SET payload = '{\"ender\": 0, \"deadw' WHERE seq = ?", (bad_seq,))
    else:  # one byte that is not UTF-8 inside the JSON text
        raw.execute("UPDATE events SET payload = CAST(X'7B22656E646572223A2030FF7D' AS TEXT) WHERE seq = ?",
                    (bad_seq,))
    raw.commit()
    raw.close()
    again = FaultServer(tmp_path / "d", srv.port)
    again.start()
    try:
        assert again.health()["storage"]["scan"] == "done"
        g = httpx.get(f"{again.url}/api/v1/games/{hurt}").json()
        assert g["damaged"]["lost"] == [bad_seq] and g["damaged"]["as_of"] == events[2]["seq"]
        assert len(g["hands"]) == 2 and g["damaged"]["not_applied"] == [events[4]["seq"]]
        listed = httpx.get(f"{again.url}/api/v1/games").json()["games"]
        assert {x["id"]: x for x in listed}[hurt]["damaged"]["lost"] == [bad_seq]
        history = httpx.get(f"{again.url}/api/v1/games/{hurt}/events").json()["events"]
        assert [e["seq"] for e in history] == [e["seq"] for e in events]  # the rest stays readable
        assert [e["seq"] for e in history if e.get("damaged")] == [bad_seq]
        r = httpx.post(f"{again.url}/api/v1/games/{hurt}/hands", json={"ender": 0, "deadwood": [1, 20]}, headers=auth)
        assert r.status_code == 409 and r.json()["error"]["code"] == "game_damaged"
        assert httpx.get(f"{again.url}/api/v1/games/{fine}").json()["hands"][2]["result"]["kind"] == "knock"
        r = httpx.post(f"{again.url}/api/v1/games/{fine}/hands", json={"ender": 0, "deadwood": [1, 20]}, headers=auth)
        assert r.status_code == 200
        h = again.health()
        assert hurt in h["storage"]["damaged_games"] and any(hurt in w for w in h["warnings"])
    finally:
        again.kill()
    assert hurt in again.output()  # said at start-up too


@pytest.mark.parametrize("how", ["missing", "empty"])
def test_a_missing_or_empty_log_is_reported_at_start_and_on_health(tmp_path: Path, how: str) -> None:
    srv = FaultServer(tmp_path / "d")
    srv.start()
    auth = pair(srv.url)
    _game_with_hands(srv.url, auth, 5)
    assert srv.terminate() == 0
    db = tmp_path / "d" / "events.sqlite3"
    if how == "missing":
        db.unlink()
    else:
        db.write_bytes(b"")
    for side in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            (tmp_path / "d" / ("events.sqlite3" + side)).unlink()
    again = FaultServer(tmp_path / "d", srv.port)
    again.start()
    try:
        h = again.health()
        said = " ".join(h["storage"]["incidents"])
        assert ("is missing" if how == "missing" else "is empty") in said and "6 events" in said
        assert any("6 events" in w for w in h["warnings"]) and h["status"] == "ok"
        # the service works on: a new game, numbered after what the phones already saw
        auth2 = pair(again.url)
        r = httpx.post(again.url + "/api/v1/games", json={"variant": "gin", "players": ["A", "B"]}, headers=auth2)
        assert r.status_code == 201 and r.json()["seq"] > 6
    finally:
        assert again.terminate() == 0
    assert "6 events" in again.output()
    third = FaultServer(tmp_path / "d", srv.port)  # the report stays until someone looks
    third.start()
    try:
        assert any("6 events" in t for t in third.health()["storage"]["incidents"])
    finally:
        third.kill()


def test_a_lost_wal_is_detected_by_the_count_beside_the_log(tmp_path: Path) -> None:
    srv = FaultServer(tmp_path / "d")
    srv.start()
    auth = pair(srv.url)
    _game_with_hands(srv.url, auth, 20)
    acked = srv.health()["seq"]
    srv.kill()  # SIGKILL: the events are in the WAL, not yet copied into the file
    wal = tmp_path / "d" / "events.sqlite3-wal"
    assert wal.exists() and wal.stat().st_size > 0
    wal.unlink()
    with contextlib.suppress(FileNotFoundError):
        (tmp_path / "d" / "events.sqlite3-shm").unlink()
    again = FaultServer(tmp_path / "d", srv.port)
    again.start()
    try:
        h = again.health()
        said = " ".join(h["storage"]["incidents"])
        assert "LOST ACKNOWLEDGED EVENTS" in said and f"up to seq {acked}" in said
        assert h["seq"] == acked and h["storage"]["last_seq"] == acked  # new events are numbered after the lost ones
    finally:
        again.kill()


@contextlib.contextmanager
def _tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({r.stderr.strip() or r.returncode}); "
                    "the size-cap variant of this test still runs")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def _fill(folder: Path) -> Path:
    """Write a file until the disk says it is full."""
    filler = folder / "filler"
    chunk = b"\0" * 65536
    with open(filler, "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(chunk)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    small = b"\0" * 512
    with open(folder / "filler2", "wb", buffering=0) as fh:
        with contextlib.suppress(OSError):
            while True:
                fh.write(small)
    return filler


def _count(url: str, gid: str) -> int:
    return len(httpx.get(f"{url}/api/v1/games/{gid}/events").json()["events"])


@pytest.mark.parametrize("disk", ["tmpfs", "size_cap"])
def test_a_full_disk_answers_507_writes_nothing_and_the_retry_applies_once(tmp_path: Path, disk: str) -> None:
    with contextlib.ExitStack() as stack:
        if disk == "tmpfs":
            data = stack.enter_context(_tmpfs(tmp_path / "mnt", "24m")) / "d"
            env: dict[str, str] = {}
        else:
            data = tmp_path / "d"
            env = {"GINGO_LOG_LIMIT_MB": "0.5"}
        srv = FaultServer(data, env=env)
        srv.start()
        stack.callback(srv.kill)
        auth = pair(srv.url)
        gid = _game_with_hands(srv.url, auth, 3)
        body = {"ender": 0, "hands": GIN_HANDS, "client_id": "the-retry"}
        if disk == "tmpfs":
            _fill(data.parent)
            r = httpx.post(f"{srv.url}/api/v1/games/{gid}/hands", json=body, headers=auth)
        else:  # fill the capped log itself with hands
            body = {**body, "client_id": "fill-start"}
            for i in range(2000):
                r = httpx.post(f"{srv.url}/api/v1/games/{gid}/hands", json=body, headers=auth)
                if r.status_code == 507:
                    break
                assert r.status_code == 200, r.text
                body = {**body, "client_id": f"fill-{i}"}
            body = {**body, "client_id": "the-retry"}
            r = httpx.post(f"{srv.url}/api/v1/games/{gid}/hands", json=body, headers=auth)
        assert r.status_code == 507, r.text
        assert r.headers["content-type"].startswith("application/json")
        assert r.json()["error"]["code"] == "storage_full" and "nothing" in r.json()["error"]["message"]
        before = httpx.get(f"{srv.url}/api/v1/games/{gid}").json()
        n = _count(srv.url, gid)
        # still full: the same retry is refused again, and nothing half is left behind
        assert httpx.post(f"{srv.url}/api/v1/games/{gid}/hands", json=body, headers=auth).status_code == 507
        assert _count(srv.url, gid) == n and httpx.get(f"{srv.url}/api/v1/games/{gid}").json() == before
        assert srv.health()["storage"]["last_error"]
        # SIGTERM while the disk is full: a clean stop
        assert srv.terminate() == 0
        out = srv.output()
        assert "Traceback" not in out
        # space again (the filler goes, or the cap is raised): the retry applies, once
        if disk == "tmpfs":
            (data.parent / "filler").unlink()
            (data.parent / "filler2").unlink()
        srv = FaultServer(data, srv.port, env={"GINGO_LOG_LIMIT_MB": "50"} if disk == "size_cap" else {})
        srv.start()
        stack.callback(srv.kill)
        assert srv.health()["storage"]["incidents"] == []
        first = httpx.post(f"{srv.url}/api/v1/games/{gid}/hands", json=body, headers=auth)
        assert first.status_code == 200, first.text
        second = httpx.post(f"{srv.url}/api/v1/games/{gid}/hands", json=body, headers=auth)
        assert second.json() == first.json() and _count(srv.url, gid) == n + 1
        assert first.json()["game"]["version"] == before["version"] + 1
        assert srv.terminate() == 0


def test_the_scan_finds_a_damaged_row_that_a_checkpoint_covers(tmp_path: Path) -> None:
    from companion.store import open_store
    from companion.table import HandInput, Table

    table = Table(open_store(tmp_path))
    gid = table.create_game("gin", players=["A", "B"], options={"game_target": 100000})["id"]
    for i in range(70):  # a checkpoint at 50 events: the start-up folds from it
        table.score_hand(gid, HandInput(0, deadwood=[i % 4, 20]))
    other = table.create_game("gin", players=["C", "D"])["id"]
    seq = table.store.events(gid)[10].seq
    table.store.close()
    raw = sqlite3.connect(tmp_path / "events.sqlite3")
    raw.execute("UPDATE events SET result = '{\"v\": 2, \"bo' WHERE seq = ?", (seq,))
    raw.commit()
    raw.close()
    again = Table(open_store(tmp_path))
    assert again.ledger.wait_scan(30) and again.ledger.scan_state == "done"
    g = again.game(gid)
    assert g["damaged"]["lost"] == [seq] and len(g["hands"]) == 9
    assert again.game(other)["version"] == 1 and "damaged" not in again.game(other)
    assert list(again.storage_health()["damaged_games"]) == [gid]
