"""Event-log benchmark: start-up on a long history, ack times, concurrent writers, live
message size and file size, against the real `gingo serve` on 127.0.0.1.

The logs are made by driving the real :class:`~companion.table.Table` (the same commands
the API runs; the generating process turns the disk sync off to save time, which changes
how fast the file is written, not what it holds). Every start-up is measured on a fresh
server process: from process start until ``GET /api/v1/health`` answers 200, and the peak
RSS (VmHWM) of that process once it is healthy.

Run: ``.venv/bin/python benchmarks/store.py`` (``--events``, ``--hands``, ``--writes`` to
change the sizes; ``--writes-only`` for the write measures alone, in seconds). The writes
are timed with two clients: the lean one of ``benchmarks/rawhttp.py`` (the server's cost:
on a real table the phones' CPUs do the client's work) and httpx (whose CPU, more than
the server's per request, is taken from the same two cores). Targets (issue 11): a 100,000-event log starts healthy in <= 2 s with
<= 120 MB RSS; a 1,000-hand game restarts in <= 1.5 s; a scored hand is acknowledged in
<= 5 ms p50 with one client, hands 401-500 of one game too, and the last hands of a
1,000-hand game no slower than a short game's (issue 24); 30 concurrent writers get >= 150 acknowledged writes/s with
p99 <= 500 ms; a live message of a 40-hand gin game is <= 8 KB.

Players and statistics (issue 14) on the 100,000-event log: the statistics and the history
order computed in this process (CPU time), then GET /api/v1/stats, /players and /history
on the server, which reads the games table (no replay): the first read, p50/p99 of 20 more
(kept per log position) and of the first read after each of 10 scored hands, with
GET /api/v1/health beside them as the floor on a loaded machine. ``--stats-only`` makes
the long history (``--history DIR`` keeps it there for the next run) and measures only these.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
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

from benchmarks.rawhttp import RawConnection  # noqa: E402
from companion.store import open_store  # noqa: E402
from companion.table import HandInput, Table  # noqa: E402

CODE = "424242"
HANDS = [["AS", "2S", "3S", "4S", "9D", "9H", "9C", "KH", "QH", "JH"],
         ["5C", "6C", "8D", "8S", "2D", "2H", "3C", "4D", "10S", "JS"]]
GINGO = [
    {"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}},
    {"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S"]},
    {"type": "meld", "seat": 1, "cards": ["5H", "6H", "7H"]},
    {"type": "meld", "seat": 0, "cards": ["4S", "5S", "6S"]},
    {"type": "meld", "seat": 0, "cards": ["7S", "8S", "9S"]},
    {"type": "meld", "seat": 0, "cards": ["10S", "JS", "QS", "KS"]},
    {"type": "go_out", "seat": 0, "captured": {"1": ["2H", "9D"]}},
]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fast_table(data: Path) -> Table:
    """A table whose store skips the disk sync (generation only)."""
    store = open_store(data)
    store._conn.execute("PRAGMA synchronous=OFF")
    return Table(store)


def make_history(data: Path, events: int, seed: int = 11) -> int:
    """A household's history: gin matches (deadwood and card entries, a few corrections
    and undos) and Gin-Go games, in the proportions of the issue's 10,000-event log."""
    rng = random.Random(seed)
    table = fast_table(data)
    n = 0
    while n < events:
        if rng.random() < 112 / 712:
            g = table.create_game("gingo", players=["Ann", "Bob"])["id"]
            n += 1
            for a in GINGO[: len(GINGO) if events - n > 20 else 3]:
                table.action(g, a)
                n += 1
            continue
        g = table.create_game("gin", players=["Ann", "Bob"])["id"]
        n += 1
        finished = False
        played = 0
        while not finished and n < events:
            roll = rng.random()
            if roll < 0.04 and played:
                out = table.undo(g)
                played = 0
            elif roll < 0.08 and played:
                out = table.correct_hand(g, 1, HandInput(0, deadwood=[1, 20]))
            elif roll < 0.3:
                out = table.score_hand(g, HandInput(0, hands=HANDS))
            else:
                out = table.score_hand(g, HandInput(0, deadwood=[rng.randint(0, 5), 20]))
            played += roll >= 0.08
            n += 1
            finished = bool(out["game"]["finished"])
    table.store.close()
    return n


def long_game(data: Path, hands: int) -> int:
    table = fast_table(data)
    g = table.create_game("gin", players=["Ann", "Bob"], options={"game_target": 100000})["id"]
    for i in range(hands):
        if i % 5 == 0:
            table.score_hand(g, HandInput(0, hands=HANDS))
        else:
            table.score_hand(g, HandInput(0, deadwood=[i % 6, 20]))
    table.store.close()
    return hands + 1


class Server:
    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "GINGO_PAIRING_CODE": CODE, "GPIOZERO_PIN_FACTORY": "mock"}
        self.t0 = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(data), "--no-qr", "--no-mdns"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while True:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server exited with status {self.proc.returncode}")
            try:
                h = httpx.get(self.url + "/api/v1/health", timeout=0.5)
                if h.status_code == 200:
                    self.startup = time.perf_counter() - self.t0
                    self.health = h.json()
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.005)
        self.rss = peak_rss_mb(self.proc.pid)

    def auth(self) -> dict[str, str]:
        token = httpx.post(self.url + "/api/v1/pair", json={"code": CODE, "name": "bench"}).json()["token"]
        return {"Authorization": f"Bearer {token}"}

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def peak_rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (all its threads)."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def db_mb(data: Path) -> float:
    return sum(p.stat().st_size for p in data.glob("events.sqlite3*") if p.is_file()) / 1e6


def starts(data: Path, runs: int) -> tuple[list[float], list[float], dict[str, Any]]:
    times, rss, health = [], [], {}
    for _ in range(runs):
        srv = Server(data)
        times.append(srv.startup)
        rss.append(srv.rss)
        health = srv.health
        srv.stop()
    return times, rss, health


def ack_times(srv: Server, writes: int) -> list[float]:
    auth = srv.auth()
    out = []
    with httpx.Client(base_url=srv.url, headers=auth, timeout=10) as http:
        gid = http.post("/api/v1/games", json={"variant": "gin", "players": ["A", "B"],
                                               "options": {"game_target": 100000}}).json()["id"]
        for i in range(writes):
            t0 = time.perf_counter()
            r = http.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "hands": HANDS, "client_id": f"a{i}"})
            out.append((time.perf_counter() - t0) * 1000)
            if r.status_code != 200:
                raise SystemExit(f"write failed: {r.status_code} {r.text}")
            if i % 40 == 39:  # a new game now and then, as a table does
                gid = http.post("/api/v1/games", json={"variant": "gin", "players": ["A", "B"],
                                                       "options": {"game_target": 100000}}).json()["id"]
    return out


async def concurrent(srv: Server, writers: int, each: int) -> tuple[float, list[float], int]:
    auth = srv.auth()
    limits = httpx.Limits(max_connections=writers + 5, max_keepalive_connections=writers + 5)
    async with httpx.AsyncClient(base_url=srv.url, headers=auth, timeout=30, limits=limits) as http:
        games = []
        for _ in range(10):
            r = await http.post("/api/v1/games", json={"variant": "gin", "players": ["A", "B"],
                                                       "options": {"game_target": 100000}})
            games.append(r.json()["id"])
        # every writer's connection is open before the clock starts
        await asyncio.gather(*(http.get("/api/v1/health") for _ in range(writers)))
        lat: list[float] = []
        failed = 0

        async def writer(w: int) -> None:
            nonlocal failed
            for i in range(each):
                t0 = time.perf_counter()
                r = await http.post(f"/api/v1/games/{games[w % len(games)]}/hands",
                                    json={"ender": 0, "deadwood": [w % 5, 20], "client_id": f"c{w}-{i}"})
                if r.status_code == 200:
                    lat.append((time.perf_counter() - t0) * 1000)
                else:
                    failed += 1

        t0 = time.perf_counter()
        await asyncio.gather(*(writer(w) for w in range(writers)))
        wall = time.perf_counter() - t0
    return len(lat) / wall, lat, failed


def _game(options: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"variant": "gin", "players": ["A", "B"], "options": options or {"game_target": 100000}}


async def raw_ack_times(srv: Server, writes: int) -> list[float]:
    """:func:`ack_times` with the lean client (see benchmarks/rawhttp.py)."""
    conn = RawConnection("127.0.0.1", srv.port, srv.auth())
    out = []
    try:
        status, body = await conn.request("POST", "/api/v1/games", _game())
        gid = json.loads(body)["id"]
        for i in range(writes):
            t0 = time.perf_counter()
            status, body = await conn.request("POST", f"/api/v1/games/{gid}/hands",
                                              {"ender": 0, "hands": HANDS, "client_id": f"r{i}"})
            out.append((time.perf_counter() - t0) * 1000)
            if status != 200:
                raise SystemExit(f"write failed: {status} {body[:300]!r}")
            if i % 40 == 39:
                gid = json.loads((await conn.request("POST", "/api/v1/games", _game()))[1])["id"]
    finally:
        await conn.close()
    return out


async def long_game_acks(srv: Server, hands: int, marks: set[int]) -> tuple[list[float], dict[int, float]]:
    """One game of ``hands`` scored hands (cards, one client, the lean client): each hand's
    ack time in order, so a long game's late hands can be set beside its first ones, and the
    server's CPU time so far (seconds) at each index in ``marks``."""
    conn = RawConnection("127.0.0.1", srv.port, srv.auth())
    out = []
    cpu: dict[int, float] = {}
    try:
        status, body = await conn.request("POST", "/api/v1/games", _game())
        gid = json.loads(body)["id"]
        for i in range(hands):
            if i in marks:
                cpu[i] = cpu_seconds(srv.proc.pid)
            t0 = time.perf_counter()
            status, body = await conn.request("POST", f"/api/v1/games/{gid}/hands",
                                              {"ender": 0, "hands": HANDS, "client_id": f"long{i}"})
            out.append((time.perf_counter() - t0) * 1000)
            if status != 200:
                raise SystemExit(f"write failed: {status} {body[:300]!r}")
        cpu[hands] = cpu_seconds(srv.proc.pid)
    finally:
        await conn.close()
    return out, cpu


def long_game_rows(srv: Server, hands: int, row: Any, idle: float = 0.0) -> None:
    """Hands 401-500 of a game, and the last 100 of a ``hands``-hand game, beside a short
    game's (hands 1-40): a scored hand costs the same however long the game is. The server's
    CPU per hand (less ``idle``, its CPU per second doing nothing) moves less with the
    machine's load than the ack times do, so the comparison is made on it."""
    n = max(hands, 500)
    marks = {0, 40, 400, 500, n - 100}
    t_start = time.monotonic()
    acks, cpu = asyncio.run(long_game_acks(srv, n, marks))
    per_hand = (time.monotonic() - t_start) / n

    def cpu_ms(a: int, b: int) -> float:
        return ((cpu[b] - cpu[a]) / (b - a) - idle * per_hand) * 1000

    short, mid, last = pct(acks[:40], 50), pct(acks[400:500], 50), pct(acks[-100:], 50)
    c_short, c_mid, c_last = cpu_ms(0, 40), cpu_ms(400, 500), cpu_ms(n - 100, n)
    row("one game, one client (lean): hands 1-40 ack p50", f"{short:.1f} ms")
    row("one game, one client (lean): hands 401-500 ack p50", f"{mid:.1f} ms", "<= 5 ms", mid <= 5)
    row(f"one game, one client (lean): hands {n - 99}-{n} ack p50, p99",
        f"{last:.1f}, {pct(acks[-100:], 99):.1f} ms", "~ 1-40's", last <= max(5.0, short * 1.5))
    row(f"one game: server CPU a hand, hands 1-40, 401-500, {n - 99}-{n} (the answer carries every hand)",
        f"{c_short:.1f}, {c_mid:.1f}, {c_last:.1f} ms")


def table_cpu_rows(tmp: Path, hands: int, row: Any) -> None:
    """The table's own work for each hand of one long game, in this process (no HTTP): the
    command, the trial fold, the commit and the answer encoded as the API sends it. CPU
    time, so the machine's load moves it little; the medians of hands 1-40, 401-500 and the
    last 100 side by side. On the wire the answer grows with the game (it carries every
    hand, contract v1): the HTTP rows above include that copy."""
    from companion.api.responses import dumps_bytes

    data = tmp / "cpu"
    data.mkdir()
    table = fast_table(data)
    gid = table.create_game("gin", players=["Ann", "Bob"], options={"game_target": 100000})["id"]
    n = max(hands, 500)
    cpu, size = [], 0
    for i in range(n):
        c0 = time.process_time()
        size = len(dumps_bytes(table.score_hand(gid, HandInput(0, hands=HANDS), client_id=f"cpu{i}")))
        cpu.append((time.process_time() - c0) * 1000)
    table.store.close()
    short, mid, last = pct(cpu[:40], 50), pct(cpu[400:500], 50), pct(cpu[-100:], 50)
    row(f"one game in process: table CPU a hand p50, hands 1-40, 401-500, {n - 99}-{n}",
        f"{short:.2f}, {mid:.2f}, {last:.2f} ms", "<= 1-40's x1.25", max(mid, last) <= short * 1.25)
    row(f"one game: the answer to hand {n} (the whole game)", f"{size / 1024:.0f} KB")


async def raw_concurrent(srv: Server, writers: int, each: int) -> tuple[float, list[float], int]:
    """:func:`concurrent` with the lean client: ``writers`` connections at once."""
    auth = srv.auth()
    conns = [RawConnection("127.0.0.1", srv.port, auth) for _ in range(writers)]
    try:
        games = [json.loads((await conns[0].request("POST", "/api/v1/games", _game()))[1])["id"] for _ in range(10)]
        await asyncio.gather(*(c.request("GET", "/api/v1/health") for c in conns))
        lat: list[float] = []
        failed = 0

        async def writer(w: int) -> None:
            nonlocal failed
            for i in range(each):
                t0 = time.perf_counter()
                status, _ = await conns[w].request("POST", f"/api/v1/games/{games[w % len(games)]}/hands",
                                                   {"ender": 0, "deadwood": [w % 5, 20], "client_id": f"r{w}-{i}"})
                if status == 200:
                    lat.append((time.perf_counter() - t0) * 1000)
                else:
                    failed += 1

        t0 = time.perf_counter()
        await asyncio.gather(*(writer(w) for w in range(writers)))
        wall = time.perf_counter() - t0
    finally:
        for c in conns:
            await c.close()
    return len(lat) / wall, lat, failed


async def live_sizes(srv: Server, hands: int) -> tuple[int, int]:
    auth = srv.auth()
    async with httpx.AsyncClient(base_url=srv.url, headers=auth, timeout=10) as http:
        gid = (await http.post("/api/v1/games", json={"variant": "gin", "players": ["A", "B"],
                                                      "options": {"game_target": 100000}})).json()["id"]
        for i in range(hands - 1):
            await http.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "hands": HANDS})
        ws_url = srv.url.replace("http", "ws") + "/api/v1/live"
        async with websockets.connect(ws_url, max_size=None, origin=srv.url) as ws:  # type: ignore[arg-type]
            snap = await ws.recv()
            await http.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "hands": HANDS})
            while True:
                raw = await asyncio.wait_for(ws.recv(), 10)
                if json.loads(raw).get("type") == "event":
                    return len(raw), len(snap)


def history_log(tmp: Path, args: argparse.Namespace) -> tuple[Path, int]:
    """The long household history (made in ``--history DIR`` when given, and used from
    there the next time) and its event count."""
    hist = args.history or tmp / "history"
    hist.mkdir(parents=True, exist_ok=True)
    made = hist / "events.count"
    if made.exists():
        return hist, int(made.read_text())
    t0 = time.perf_counter()
    n = make_history(hist, args.events)
    made.write_text(str(n))
    print(f"(made a {n}-event history in {time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return hist, n


def stats_reads(data: Path, rows: Any, n: int, repeats: int = 20, after_writes: int = 10) -> None:
    """The statistics on the history in ``data``: computed in this process (CPU time), then
    read from a fresh server: the first read (the games' lines come from the file), reads
    again (kept per log position) and the first read after a scored hand (computed again).
    The HTTP figures move with the machine's load; GET /api/v1/health is the floor."""
    from companion import stats
    from companion.api.routes.people import finished_games, sides_of

    table = Table(open_store(data))
    lines = table.all_lines()
    for name, fn in (("statistics", lambda: stats.player_stats(lines, sides_of)),
                     ("history order", lambda: finished_games(lines))):
        cpu = []
        for _ in range(7):
            c0 = time.process_time()
            fn()
            cpu.append((time.process_time() - c0) * 1000)
        rows(f"{n:,}-event log ({len(lines):,} games): {name} computed, CPU p50 / p99",
             f"{pct(cpu, 50):.0f} / {pct(cpu, 99):.0f} ms")
    table.store.close()
    srv = Server(data)
    try:
        auth = srv.auth()
        gid = httpx.post(srv.url + "/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"],
                                                          "options": {"game_target": 100000}}, headers=auth).json()["id"]
        for path in ("/api/v1/health", "/api/v1/stats", "/api/v1/players", "/api/v1/history?limit=50"):
            t0 = time.perf_counter()
            first = httpx.get(srv.url + path, timeout=60)
            first_ms = (time.perf_counter() - t0) * 1000
            assert first.status_code == 200, first.text
            again, fresh = [], []
            for _ in range(repeats):
                t0 = time.perf_counter()
                httpx.get(srv.url + path, timeout=60).raise_for_status()
                again.append((time.perf_counter() - t0) * 1000)
            for _ in range(after_writes):
                httpx.post(f"{srv.url}/api/v1/games/{gid}/hands", json={"ender": 0, "deadwood": [2, 20]},
                           headers=auth, timeout=60).raise_for_status()
                t0 = time.perf_counter()
                httpx.get(srv.url + path, timeout=60).raise_for_status()
                fresh.append((time.perf_counter() - t0) * 1000)
            rows(f"{n:,}-event log: GET {path} first read", f"{first_ms:.0f} ms, {len(first.content) / 1e3:.0f} KB")
            rows(f"{n:,}-event log: GET {path} again p50 / p99", f"{pct(again, 50):.0f} / {pct(again, 99):.0f} ms")
            rows(f"{n:,}-event log: GET {path} after a write p50 / p99",
                 f"{pct(fresh, 50):.0f} / {pct(fresh, 99):.0f} ms")
    finally:
        srv.stop()


def long_logs(tmp: Path, args: argparse.Namespace, row: Any) -> None:
    """Start-up on a long household history and on one very long game."""
    hist, n = history_log(tmp, args)
    stats_reads(hist, row, n)
    times, rss, health = starts(hist, args.runs)
    ok = health.get("storage", {}).get("incidents") == [] and health.get("seq", 0) >= n
    row(f"{n:,}-event log: start to healthy (median of {args.runs})", f"{statistics.median(times):.2f} s",
        "<= 2 s", statistics.median(times) <= 2 and ok)
    row(f"{n:,}-event log: peak RSS once healthy (max)", f"{max(rss):.0f} MB", "<= 120 MB", max(rss) <= 120)
    row(f"{n:,}-event log: file size (with WAL)", f"{db_mb(hist):.1f} MB")

    long = tmp / "long"
    long.mkdir()
    long_game(long, args.hands)
    times, rss, _ = starts(long, args.runs)
    row(f"{args.hands:,}-hand game: restart to healthy (median of {args.runs})",
        f"{statistics.median(times):.2f} s", "<= 1.5 s", statistics.median(times) <= 1.5)
    row(f"{args.hands:,}-hand game: peak RSS, file size", f"{max(rss):.0f} MB, {db_mb(long):.1f} MB")
    srv = Server(long)
    try:
        t0 = time.perf_counter()
        gid = next(g["id"] for g in httpx.get(srv.url + "/api/v1/games").json()["games"])
        full = httpx.get(f"{srv.url}/api/v1/games/{gid}")
        row(f"{args.hands:,}-hand game: GET the whole game", f"{(time.perf_counter() - t0) * 1000:.0f} ms, "
            f"{len(full.content) / 1e3:.0f} KB")
    finally:
        srv.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=100_000, help="events in the long history (default 100000)")
    ap.add_argument("--hands", type=int, default=1000, help="hands in the long game (default 1000)")
    ap.add_argument("--writes", type=int, default=200, help="one-client scored hands to time (default 200)")
    ap.add_argument("--long-hands", type=int, default=1000,
                    help="hands of the one long game written through the API (default 1000, at least 500)")
    ap.add_argument("--writers", type=int, default=30, help="concurrent writers (default 30)")
    ap.add_argument("--runs", type=int, default=3, help="start-ups per log (median; default 3)")
    ap.add_argument("--client", choices=("lean", "httpx", "both"), default="both",
                    help="the writers' HTTP client: lean (benchmarks/rawhttp.py, a phone's cost is not the "
                    "companion's) or httpx (its CPU is counted on this machine's cores too); default both")
    ap.add_argument("--stats-only", action="store_true", help="only the statistics on the long history")
    ap.add_argument("--history", type=Path, help="make the long history in this folder, or use the one made there before")
    ap.add_argument("--writes-only", action="store_true",
                    help="only the write measures on a fresh log (one client, concurrent writers, live sizes)")
    args = ap.parse_args()
    rows: list[tuple[str, str, str, str]] = []

    def row(name: str, value: str, target: str = "", ok: bool | None = None) -> None:
        rows.append((name, value, target, "" if ok is None else ("ok" if ok else "MISSED")))

    with tempfile.TemporaryDirectory() as tmp:
        if args.stats_only:
            hist, n = history_log(Path(tmp), args)
            stats_reads(hist, row, n)
            return table_out(rows)
        if not args.writes_only:
            long_logs(Path(tmp), args, row)
        table_cpu_rows(Path(tmp), args.long_hands, row)
        fresh = Path(tmp) / "fresh"
        fresh.mkdir()
        srv = Server(fresh)
        try:
            c0, t0 = cpu_seconds(srv.proc.pid), time.monotonic()
            time.sleep(2.0)
            idle = (cpu_seconds(srv.proc.pid) - c0) / (time.monotonic() - t0)  # the simulated board's loops
            for client in ("lean", "httpx") if args.client == "both" else (args.client,):
                c0, t0 = cpu_seconds(srv.proc.pid), time.monotonic()
                if client == "lean":
                    acks = asyncio.run(raw_ack_times(srv, args.writes))
                else:
                    acks = ack_times(srv, args.writes)
                one_cpu = (cpu_seconds(srv.proc.pid) - c0 - idle * (time.monotonic() - t0)) / len(acks)
                c0, t0 = cpu_seconds(srv.proc.pid), time.monotonic()
                if client == "lean":
                    rate, lat, failed = asyncio.run(raw_concurrent(srv, args.writers, 20))
                else:
                    rate, lat, failed = asyncio.run(concurrent(srv, args.writers, 20))
                many_cpu = (cpu_seconds(srv.proc.pid) - c0 - idle * (time.monotonic() - t0)) / max(1, len(lat))
                row(f"scored hand, one client: ack p50 ({client} client)", f"{pct(acks, 50):.1f} ms", "<= 5 ms",
                    pct(acks, 50) <= 5)
                row(f"scored hand, one client: ack p99 ({client} client)", f"{pct(acks, 99):.1f} ms")
                row(f"{args.writers} concurrent writers: acknowledged writes/s ({client} client)", f"{rate:.0f} /s",
                    ">= 150/s", rate >= 150 and failed == 0)
                row(f"{args.writers} concurrent writers: ack p50 ({client} client)", f"{pct(lat, 50):.0f} ms")
                row(f"{args.writers} concurrent writers: ack p99 ({client} client)", f"{pct(lat, 99):.0f} ms",
                    "<= 500 ms", pct(lat, 99) <= 500)
                row(f"server CPU per write: one client (cards), concurrent (deadwood) ({client} client)",
                    f"{one_cpu * 1000:.1f}, {many_cpu * 1000:.1f} ms")
            long_game_rows(srv, args.long_hands, row, idle)
            msg, snap = asyncio.run(live_sizes(srv, 40))
            row("live message for a 40-hand gin game", f"{msg / 1024:.1f} KB", "<= 8 KB", msg <= 8 * 1024)
            row("connect snapshot (newest 50 games' summaries)", f"{snap / 1024:.1f} KB")
        finally:
            srv.stop()
        row("file size after these writes (with WAL)", f"{db_mb(fresh):.1f} MB")
    return table_out(rows)


def table_out(rows: list[tuple[str, str, str, str]]) -> int:
    w = max(len(r[0]) for r in rows)
    print(f"{'measure':<{w}}  {'value':>14}  {'target':>9}  result")
    print("-" * (w + 36))
    for name, value, target, ok_text in rows:
        print(f"{name:<{w}}  {value:>14}  {target:>9}  {ok_text}")
    print(f"(load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; the machine is shared)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
