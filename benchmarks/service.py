"""Service benchmark: the real `gingo serve` under uvicorn on 127.0.0.1.

Measures, and prints as a table:

* start-up: process start until ``GET /api/v1/health`` answers 200 (median of 3);
* a scored-hand write (``POST /api/v1/games/{id}/hands`` with both players' cards)
  while 20 WebSocket clients are connected (in another process): p50 and p99 of the HTTP round trip, and of
  the time until the *last* of the 20 clients has the event (fan-out);
* event append p99: :meth:`companion.store.EventStore.append` on a file (WAL,
  ``synchronous=FULL``, so each append waits for the disk);
* peak RSS of the server process (VmHWM) after 1,000 events.

Run: ``.venv/bin/python benchmarks/service.py`` (``--writes``, ``--clients`` to change the load).
Targets: write p99 <= 20 ms, fan-out p99 <= 50 ms, start-up <= 2 s, RSS <= 120 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.store import open_store  # noqa: E402

CODE = "424242"
HANDS = [["AS", "2S", "3S", "4S", "9D", "9H", "9C", "KH", "QH", "JH"],
         ["5C", "6C", "8D", "8S", "2D", "2H", "3C", "4D", "10S", "JS"]]
HANDS_PER_GAME = 10


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def start_server(data: Path, port: int) -> tuple[subprocess.Popen[bytes], float]:
    env = {**os.environ, "GINGO_PAIRING_CODE": CODE, "GPIOZERO_PIN_FACTORY": "mock"}
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--data", str(data), "--no-qr", "--no-mdns"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/api/v1/health"
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with status {proc.returncode}")
        try:
            if httpx.get(url, timeout=0.5).status_code == 200:
                return proc, time.perf_counter() - t0
        except httpx.HTTPError:
            pass
        time.sleep(0.005)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _listeners(ws_url: str, clients: int, ready: Any, stop: Any, out: Any) -> None:
    """Child process: ``clients`` WebSocket connections recording when each event arrives
    (``time.monotonic()`` is one clock for every process on Linux)."""

    async def run() -> dict[int, list[float]]:
        arrivals: dict[int, list[float]] = {}
        connected = 0

        async def listen() -> None:
            nonlocal connected
            async with websockets.connect(ws_url, max_size=None) as ws:
                await ws.recv()  # the snapshot
                connected += 1
                if connected == clients:
                    ready.set()
                async for raw in ws:
                    now = time.monotonic()
                    msg = json.loads(raw)
                    if msg.get("type") == "event":
                        arrivals.setdefault(msg["seq"], []).append(now)

        tasks = [asyncio.create_task(listen()) for _ in range(clients)]
        while not stop.is_set():
            await asyncio.sleep(0.05)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return arrivals

    out.put(asyncio.run(run()))


def fanout_run(base: str, writes: int, clients: int) -> tuple[list[float], list[float]]:
    ctx = multiprocessing.get_context("spawn")
    ready, stop, out = ctx.Event(), ctx.Event(), ctx.Queue()
    proc = ctx.Process(target=_listeners, args=(base.replace("http", "ws") + "/api/v1/live", clients,
                                                ready, stop, out))
    proc.start()
    if not ready.wait(60):
        proc.terminate()
        raise SystemExit("the WebSocket clients did not connect")
    write_ms: list[float] = []
    sent: list[tuple[int, float]] = []
    with httpx.Client(base_url=base, timeout=10) as http:
        token = http.post("/api/v1/pair", json={"code": CODE, "name": "bench"}).json()["token"]
        http.headers["Authorization"] = f"Bearer {token}"
        gid = ""
        for i in range(writes):
            if i % HANDS_PER_GAME == 0:
                gid = http.post("/api/v1/games", json={"variant": "gin", "players": ["A", "B"],
                                                      "options": {"game_target": 1_000_000}}).json()["id"]
                time.sleep(0.01)
            t0 = time.monotonic()
            r = http.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "hands": HANDS, "client_id": f"b{i}"})
            t1 = time.monotonic()
            if r.status_code != 200:
                raise SystemExit(f"write failed: {r.status_code} {r.text}")
            write_ms.append((t1 - t0) * 1000)
            sent.append((r.json()["game"]["seq"], t0))
            time.sleep(0.005)
    time.sleep(1.0)  # let the last events arrive
    stop.set()
    arrivals: dict[int, list[float]] = out.get(timeout=30)
    proc.join(10)
    fan_ms = [(max(arrivals[seq]) - t0) * 1000 for seq, t0 in sent if len(arrivals.get(seq, [])) == clients]
    if len(fan_ms) < len(sent):
        print(f"warning: {len(sent) - len(fan_ms)} events did not reach all {clients} clients", file=sys.stderr)
    return write_ms, fan_ms


def table_bench(n: int) -> list[float]:
    """The same scored-hand write straight on the table: rules engine, fold and fsync'd append."""
    from companion.table import HandInput, Table

    with tempfile.TemporaryDirectory() as d:
        store = open_store(Path(d))
        table = Table(store)
        out = []
        gid = ""
        for i in range(n):
            if i % HANDS_PER_GAME == 0:
                gid = table.create_game("gin", players=["A", "B"], options={"game_target": 1_000_000})["id"]
            t0 = time.perf_counter()
            table.score_hand(gid, HandInput(0, hands=HANDS), client_id=f"t{i}")
            out.append((time.perf_counter() - t0) * 1000)
        store.close()
    return out


def append_bench(n: int) -> list[float]:
    with tempfile.TemporaryDirectory() as d:
        store = open_store(Path(d))
        out = []
        for i in range(n):
            t0 = time.perf_counter()
            store.append("bench", "hand", {"i": i, "hands": HANDS}, client_id=f"c{i}", result={"ok": True})
            out.append((time.perf_counter() - t0) * 1000)
        store.close()
    return out


async def fill(base: str, events: int) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        token = (await http.post("/api/v1/pair", json={"code": CODE, "name": "fill"})).json()["token"]
        http.headers["Authorization"] = f"Bearer {token}"
        gid = ""
        for i in range(events):
            if i % (HANDS_PER_GAME + 1) == 0:
                gid = (await http.post("/api/v1/games", json={"variant": "gin", "players": ["A", "B"],
                                                             "options": {"game_target": 1_000_000}})).json()["id"]
            else:
                await http.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "hands": HANDS})


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--writes", type=int, default=200, help="scored-hand writes to time (default 200)")
    ap.add_argument("--clients", type=int, default=20, help="WebSocket clients connected (default 20)")
    ap.add_argument("--events", type=int, default=1000, help="events before reading peak RSS (default 1000)")
    args = ap.parse_args()

    rows: list[tuple[str, str, str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        starts = []
        for k in range(3):
            proc, secs = start_server(Path(tmp) / f"s{k}", free_port())
            starts.append(secs)
            stop(proc)
        rows.append(("start-up to healthy /api/v1/health (median of 3)", f"{statistics.median(starts):.2f} s",
                     "<= 2 s", "ok" if statistics.median(starts) <= 2 else "MISSED"))

        port = free_port()
        proc, _ = start_server(Path(tmp) / "main", port)
        base = f"http://127.0.0.1:{port}"
        try:
            cpu0, wall0 = cpu_seconds(proc.pid), time.monotonic()
            write_ms, fan_ms = fanout_run(base, args.writes, args.clients)
            cpu_ms = (cpu_seconds(proc.pid) - cpu0) * 1000
            wall_ms = (time.monotonic() - wall0) * 1000
            cpu_idle0 = cpu_seconds(proc.pid)
            time.sleep(2.0)
            idle_per_s = (cpu_seconds(proc.pid) - cpu_idle0) / 2.0
            asyncio.run(fill(base, max(0, args.events - args.writes - args.writes // HANDS_PER_GAME)))
            rss = peak_rss_mb(proc.pid)
            count = httpx.get(base + "/api/v1/health").json()["seq"]
        finally:
            stop(proc)
    p99w, p99f = pct(write_ms, 99), pct(fan_ms, 99) if fan_ms else float("nan")
    rows.append((f"scored-hand write, {args.clients} live clients: p50", f"{pct(write_ms, 50):.1f} ms", "", ""))
    rows.append((f"scored-hand write, {args.clients} live clients: p99", f"{p99w:.1f} ms", "<= 20 ms",
                 "ok" if p99w <= 20 else "MISSED"))
    rows.append((f"fan-out to the last of {args.clients} clients: p50",
                 f"{pct(fan_ms, 50):.1f} ms" if fan_ms else "n/a", "", ""))
    rows.append((f"fan-out to the last of {args.clients} clients: p99", f"{p99f:.1f} ms", "<= 50 ms",
                 "ok" if p99f <= 50 else "MISSED"))
    busy = max(0.0, cpu_ms - idle_per_s * wall_ms) / max(1, len(write_ms))
    rows.append((f"server CPU per write incl. fan-out to {args.clients} (all threads)", f"{busy:.1f} ms", "", ""))
    rows.append(("server CPU while idle (sensing 200 Hz + LEDs 25 fps)", f"{idle_per_s * 100:.0f} %", "", ""))
    tb = table_bench(args.writes)
    rows.append(("the same write on the table, no HTTP: p50", f"{pct(tb, 50):.1f} ms", "", ""))
    rows.append(("the same write on the table, no HTTP: p99", f"{pct(tb, 99):.1f} ms", "", ""))
    app = append_bench(1000)
    rows.append(("event append (fsync'd), p50", f"{pct(app, 50):.2f} ms", "", ""))
    rows.append(("event append (fsync'd), p99", f"{pct(app, 99):.2f} ms", "", ""))
    rows.append((f"peak RSS of the server after {count} events", f"{rss:.0f} MB", "<= 120 MB",
                 "ok" if rss <= 120 else "MISSED"))
    w = max(len(r[0]) for r in rows)
    print(f"{'measure':<{w}}  {'value':>10}  {'target':>9}  result")
    print("-" * (w + 32))
    for name, value, target, ok in rows:
        print(f"{name:<{w}}  {value:>10}  {target:>9}  {ok}")
    print(f"(writes: {len(write_ms)}, load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
