"""The companion in a Pi-Zero-like box: 12.5 % of one core and 400 MB (needs root).

A Pi Zero 2 W core is about eight times slower than one of the development machine's, and
its 512 MB are shared with the OS. This runs the real ``gingo serve`` (simulated board and
strip, as ``make run``) inside a cgroup limited to what a Zero gives it, on a data folder
holding a season of play (3,245 events: Gin matches to 500 played out, the last one still
in play) and one Gin match of 60 hands in play, byte-compiled as an installed package is
(see ``compile_package``) and started without this checkout's editable-install hook (``-S``,
the package on ``PYTHONPATH``), and prints:

* start-up: process start until ``GET /api/v1/health`` answers (target <= 5 s), the CPU
  time the process used until then, and that CPU time at the box's full quota (x 8: at
  12.5 % of a core, 1 s of CPU is 8 s of wall time): the figure the machine's load does
  not move (a busy machine gives the box less than its quota, which the wall time shows).
  The service runs at the systemd unit's ``Nice=`` (as on the Pi), so other work on the
  machine takes less of the box's quota;
* RSS (VmRSS from ``/proc``) after start-up and after the page: the phone page's first
  load (``/``, its scripts and styles, the API reads it makes, the live channel's
  snapshot) (target <= 120 MB both);
* a scored hand (``POST /api/v1/games/{id}/hands``, HTTP round trip) on the 60-hand match
  (hands 61-80) and on a new match: p50 (target <= 50 ms on the 60-hand match);
* whether the kernel killed it (out of memory) or it died: never.

The cgroup (:class:`Box`): on cgroup v2 (``cpu`` and ``memory`` in
``/sys/fs/cgroup/cgroup.controllers``), ``gingo-zero-<pid>`` beside the cgroup this process
runs in, with ``cpu.max = 12500 100000`` and ``memory.max = 400M`` (``memory.swap.max =
0``); on v1, or a hybrid machine whose v2 tree has no controllers, the same limits as
``cpu.cfs_quota_us = 12500`` / ``cpu.cfs_period_us = 100000`` and
``memory.limit_in_bytes = 400M``, inside the cgroups this process runs in. Either way no
limit above this process is escaped. The table's last line says which was used. The
server joins the cgroup before it execs (its imports count). The cgroups are removed at
the end.

Run: ``sudo .venv/bin/python benchmarks/zero.py`` (``--runs N`` start-ups, median shown;
``--season DIR`` keeps the season's data folder there for the next run;
``--importtime`` also prints the slowest imports of a start-up inside the box; ``--nice N``
the service's nice level instead of the unit's).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CODE = "424242"
CPU_MAX = (12500, 100000)
MEMORY_MAX = 400 * 1024 * 1024
HANDS = [["AS", "2S", "3S", "4S", "9D", "9H", "9C", "KH", "QH", "JH"],
         ["5C", "6C", "8D", "8S", "2D", "2H", "3C", "4D", "10S", "JS"]]
SEASON_EVENTS = 3245
LONG_HANDS = 60


# -- the box ---------------------------------------------------------------------------------


class BoxError(RuntimeError):
    """The machine cannot give the box its limits; the message says why and what to do."""


def own_cgroups(text: str) -> dict[str, str]:
    r"""Controller (``""`` for the v2 hierarchy) -> this process's cgroup path, from the
    text of ``/proc/self/cgroup``.

    >>> own_cgroups("4:memory:/a/b\n1:cpu,cpuacct:/\n0::/user.slice/x.scope\n")["cpuacct"]
    '/'
    """
    own: dict[str, str] = {}
    for line in text.splitlines():
        _, ctls, path = line.split(":", 2)
        for ctl in ctls.split(",") if ctls else [""]:
            own[ctl] = path
    return own


class Box:
    """A cgroup with the Zero's CPU and memory: on cgroup v2 (``cpu`` and ``memory`` in
    ``<root>/cgroup.controllers``), one cgroup beside the one this process runs in
    (inside its parent, so no limit above it is escaped; a cgroup that holds processes
    may not pass controllers on, the kernel's "no internal processes" rule, so not
    inside our own); on v1 (or a hybrid machine, whose v2 tree has no controllers), a
    ``cpu`` and a ``memory`` cgroup inside the ones this process runs in. ``root``:
    where the cgroup file systems are mounted; ``own``: the text of /proc/self/cgroup."""

    def __init__(self, root: Path = Path("/sys/fs/cgroup"), own: str | None = None,
                 name: str | None = None) -> None:
        self.dirs: list[Path] = []
        name = name or f"gingo-zero-{os.getpid()}"
        cgroups = own_cgroups(Path("/proc/self/cgroup").read_text() if own is None else own)
        controllers = root / "cgroup.controllers"
        v2 = controllers.is_file() and {"cpu", "memory"} <= set(controllers.read_text().split())
        self.version = 2 if v2 else 1
        if v2:
            parent = root / cgroups.get("", "/").lstrip("/")
            if parent != root:
                parent = parent.parent
            self._enable(root, parent)
            d = parent / name
            d.mkdir()
            self.dirs.append(d)
            (d / "cpu.max").write_text(f"{CPU_MAX[0]} {CPU_MAX[1]}")
            (d / "memory.max").write_text(str(MEMORY_MAX))
            if (d / "memory.swap.max").exists():
                (d / "memory.swap.max").write_text("0")
            return
        missing = [c for c in ("cpu", "memory") if c not in cgroups or not (root / c).is_dir()]
        if missing:
            raise BoxError(f"no cgroup {' or '.join(missing)} controller here (neither on cgroup v2 at {root} nor "
                           f"mounted as v1 under it): the box cannot be made on this machine")
        cpu = root / "cpu" / cgroups["cpu"].lstrip("/") / name
        mem = root / "memory" / cgroups["memory"].lstrip("/") / name
        for d in (cpu, mem):
            d.mkdir()
            self.dirs.append(d)
        (cpu / "cpu.cfs_period_us").write_text(str(CPU_MAX[1]))
        (cpu / "cpu.cfs_quota_us").write_text(str(CPU_MAX[0]))
        (mem / "memory.limit_in_bytes").write_text(str(MEMORY_MAX))
        if (mem / "memory.memsw.limit_in_bytes").exists():
            try:
                (mem / "memory.memsw.limit_in_bytes").write_text(str(MEMORY_MAX))
            except OSError:
                pass

    @staticmethod
    def _enable(root: Path, parent: Path) -> None:
        """Pass ``cpu`` and ``memory`` down from ``root`` to ``parent``'s children."""
        chain = [parent, *[p for p in parent.parents if p == root or root in p.parents]]
        for d in reversed(chain):
            enabled = (d / "cgroup.subtree_control").read_text().split()
            for ctl in ("cpu", "memory"):
                if ctl in enabled:
                    continue
                try:
                    (d / "cgroup.subtree_control").write_text(f"+{ctl}")
                except OSError as exc:
                    raise BoxError(
                        f"cannot pass the {ctl} controller on in {d} ({exc.strerror or exc}): a cgroup v2 "
                        "group that holds processes may not (run this from a shell in a group of its own, "
                        "e.g. systemd-run --scope -p Delegate=yes, or as a systemd service)") from None

    def join(self) -> None:
        """(in the child, before exec) move this process into the box."""
        for d in self.dirs:
            (d / "cgroup.procs").write_text(str(os.getpid()))

    def describe(self) -> str:
        if self.version == 2:
            return f"cgroup v2 {self.dirs[0]}: cpu.max {CPU_MAX[0]} {CPU_MAX[1]}, memory.max 400M"
        return (f"cgroup v1 {self.dirs[0]} (cfs_quota_us {CPU_MAX[0]}, cfs_period_us {CPU_MAX[1]}) and "
                f"{self.dirs[1]} (limit_in_bytes 400M)")

    def oom_kills(self) -> int:
        """Processes the kernel killed for memory in the box so far."""
        events = self.dirs[0] / "memory.events" if self.version == 2 else self.dirs[1] / "memory.oom_control"
        for line in events.read_text().splitlines():
            if line.startswith("oom_kill "):
                return int(line.split()[1])
        return 0

    def remove(self) -> None:
        for d in self.dirs:
            for _ in range(50):
                try:
                    d.rmdir()
                    break
                except OSError:
                    time.sleep(0.1)


# -- the season --------------------------------------------------------------------------------


def make_season(folder: Path) -> str:
    """A data folder with the season and the 60-hand match; returns that match's id."""
    from companion.store import open_store
    from companion.table import HandInput, Table

    marker = folder / "zero-season.json"
    if marker.is_file():
        return str(json.loads(marker.read_text())["long"])
    folder.mkdir(parents=True, exist_ok=True)
    store = open_store(folder)
    table = Table(store)
    t0 = time.monotonic()
    players = [["Ann", "Bob"], ["Cy", "Di"], ["Ann", "Cy"], ["Bob", "Di"]]
    g = 0
    while table.last_seq() < SEASON_EVENTS:  # matches to 500 played out (the last one may stay in play)
        game = table.create_game("gin", players=players[g % 4], options={"game_target": 500})
        g += 1
        while not game["finished"] and table.last_seq() < SEASON_EVENTS:
            game = table.score_hand(game["id"], HandInput(g % 2, hands=HANDS[::-1] if g % 2 else HANDS))["game"]
    long = table.create_game("gin", players=["Cy", "Di"], options={"game_target": 100_000})["id"]
    for h in range(LONG_HANDS):
        table.score_hand(long, HandInput(0, hands=HANDS))
    events = table.last_seq()
    store.close()
    marker.write_text(json.dumps({"long": long, "events": events}))
    print(f"made the season in {time.monotonic() - t0:.0f} s: {events} events", file=sys.stderr)
    return str(long)


# -- one start-up in the box -------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of the whole process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def get(url: str, token: str | None = None) -> bytes:
    req = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    with urllib.request.urlopen(req, timeout=30) as r:
        return bytes(r.read())


def post(url: str, body: object, token: str | None = None) -> Any:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json",
                                          **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def load_page(base: str, token: str) -> int:
    """What the phone page fetches on its first load; returns the bytes read."""
    import re

    n = 0
    html = get(base + "/").decode()
    n += len(html)
    for ref in re.findall(r'(?:src|href)="([^"#:]+)"', html):
        n += len(get(f"{base}/{ref.lstrip('/')}"))
    for js in sorted((ROOT / "companion" / "web" / "js").glob("*.js")):
        n += len(get(f"{base}/js/{js.name}"))
    for path in ("/api/v1/health", "/api/v1/variants", "/api/v1/tokens/me", "/api/v1/games?limit=50",
                 "/api/v1/board", "/api/v1/players", "/api/v1/history?limit=50", "/api/v1/stats"):
        n += len(get(base + path, token))

    async def snapshot() -> int:
        import websockets

        async with websockets.connect(base.replace("http", "ws") + "/api/v1/live", max_size=None) as ws:
            return len(await ws.recv())

    n += asyncio.run(snapshot())
    return n


def compile_package() -> None:
    """Byte-compile the companion once, as the Pi's ``pip install`` does (install.sh, the
    .deb): without it an editable checkout run with PYTHONDONTWRITEBYTECODE (as on this
    machine) compiles every module of the package at each start, about 0.15 s of CPU
    that a Pi never spends (over 1 s of the box's wall time)."""
    import compileall

    compileall.compile_dir(str(ROOT / "companion"), quiet=1)


def one_run(season: Path, long: str, box: Box, port: int, importtime: bool, nice: int = 0) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        shutil.copytree(season, data)
        env = {**os.environ, "GINGO_PAIRING_CODE": CODE, "GPIOZERO_PIN_FACTORY": "mock",
               "GINGO_BOT_DELAY": "0"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # byte-compiled, as the Pi's install is (see compile_package)
        # -S: no .pth files, as the Pi's plain install has none of this checkout's editable
        # install (its import finder was 10-20 ms of CPU at every start here, over 0.1 s
        # in the box); the package and its libraries are found on PYTHONPATH instead
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), sysconfig.get_paths()["purelib"],
                                             sysconfig.get_paths()["platlib"]])
        argv = [sys.executable, "-S", *(["-X", "importtime"] if importtime else []), "-m", "companion.cli", "serve",
                "--host", "127.0.0.1", "--port", str(port), "--data", str(data), "--no-qr", "--no-mdns"]
        err = open(Path(tmp) / "serve.err", "wb")
        t0 = time.monotonic()

        def enter() -> None:
            box.join()
            if nice:
                os.setpriority(os.PRIO_PROCESS, 0, nice)

        proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err, preexec_fn=enter)
        base = f"http://127.0.0.1:{port}"
        out: dict[str, Any] = {"killed": False}
        try:
            while True:
                if proc.poll() is not None:
                    out["killed"] = True
                    raise SystemExit(f"gingo serve died at start-up ({proc.returncode}): "
                                     f"{(Path(tmp) / 'serve.err').read_text()[-2000:]}")
                try:
                    get(base + "/api/v1/health")
                    break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    time.sleep(0.02)
            out["healthy_s"] = time.monotonic() - t0
            out["cpu_healthy"] = cpu_seconds(proc.pid)
            out["at_quota"] = out["cpu_healthy"] * CPU_MAX[1] / CPU_MAX[0]
            out["load"] = os.getloadavg()[0]
            time.sleep(2.0)  # what start-up put off until after health (the damage scan, the first LED frame)
            out["rss_start"] = rss_mb(proc.pid)
            c0, w0 = cpu_seconds(proc.pid), time.monotonic()
            time.sleep(5.0)  # nothing happening: what the idle service takes of the box's 12.5 %
            out["idle_pct"] = 100.0 * (cpu_seconds(proc.pid) - c0) / (time.monotonic() - w0)
            token = post(base + "/api/v1/pair", {"code": CODE, "name": "zero"})["token"]
            out["page_bytes"] = load_page(base, token)
            out["rss_page"] = rss_mb(proc.pid)
            long_ms, new_ms = [], []
            c0 = cpu_seconds(proc.pid)
            for i in range(20):
                t = time.monotonic()
                post(f"{base}/api/v1/games/{long}/hands", {"ender": 0, "hands": HANDS}, token)
                long_ms.append((time.monotonic() - t) * 1000)
            out["hand_cpu_ms"] = (cpu_seconds(proc.pid) - c0) / 20 * 1000
            gid = post(base + "/api/v1/games", {"variant": "gin", "players": ["Ed", "Flo"],
                                                 "options": {"game_target": 100_000}}, token)["id"]
            for i in range(20):
                t = time.monotonic()
                post(f"{base}/api/v1/games/{gid}/hands", {"ender": 0, "hands": HANDS}, token)
                new_ms.append((time.monotonic() - t) * 1000)
            out["hand_long_p50"] = statistics.median(long_ms)
            out["hand_new_p50"] = statistics.median(new_ms)
            out["rss_end"] = rss_mb(proc.pid)
            out["killed"] = proc.poll() is not None
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(60)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            else:
                out["killed"] = True
            err.close()
            if importtime:
                print_imports((Path(tmp) / "serve.err").read_text())
        return out


def print_imports(text: str, top: int = 15) -> None:
    rows = []
    for line in text.splitlines():
        if line.startswith("import time:") and "|" in line:
            parts = [p.strip() for p in line[len("import time:"):].split("|")]
            if parts[0].isdigit():
                rows.append((int(parts[1]), parts[2]))
    print(f"slowest imports in the box (cumulative µs, {len(rows)} modules):")
    for us, name in sorted(rows, reverse=True)[:top]:
        print(f"  {us / 1e6:7.2f} s  {name}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="start-ups (default 3; the median is shown)")
    ap.add_argument("--season", type=Path, help="keep (and reuse) the season's data folder here")
    ap.add_argument("--importtime", action="store_true", help="print the slowest imports of one start-up")
    ap.add_argument("--nice", type=int, help="the service's nice level in the box (default: the systemd "
                                              "unit's Nice=, as the Pi runs it)")
    args = ap.parse_args()
    if os.geteuid() != 0:  # make bench runs every benchmark: say so and go on
        print("skipped: benchmarks/zero.py makes a cgroup; run it as root "
              "(sudo .venv/bin/python benchmarks/zero.py)")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        season = args.season or Path(tmp) / "season"
        long = make_season(season)
        compile_package()
        from benchmarks.idle import free_port, unit_nice

        nice = unit_nice() if args.nice is None else args.nice
        try:
            box = Box()
        except (BoxError, OSError) as exc:
            print(f"skipped: the Zero-like box cannot be made here: {exc}")
            return 0
        try:
            runs = [one_run(season, long, box, free_port(), args.importtime and k == 0, nice)
                    for k in range(args.runs)]
            oom = box.oom_kills()
            where = box.describe()
        finally:
            box.remove()
        events = json.loads((season / "zero-season.json").read_text())["events"]  # before tmp goes

    def row(name: str, key: str, unit: str, target: float | None) -> tuple[str, str, str, str, str]:
        vals = [r[key] for r in runs]
        med = statistics.median(vals)
        ok = "" if target is None else ("ok" if med <= target else "MISSED")
        digits = 2 if unit in ("s", "%") else 1 if "CPU" in name else 0
        return (name, f"{med:.{digits}f} {unit}", f"{max(vals):.{digits}f} {unit}",
                "" if target is None else f"<= {target:g} {unit}", ok)

    rows = [row("start to healthy", "healthy_s", "s", 5),
            row("  CPU time used until healthy", "cpu_healthy", "s", None),
            row("  that CPU at the box's full 12.5 % (x 8)", "at_quota", "s", 5),
            row("RSS after start-up", "rss_start", "MB", 120),
            row("RSS after the page", "rss_page", "MB", 120),
            row("RSS after 40 scored hands", "rss_end", "MB", None),
            row(f"scored hand on the {LONG_HANDS}-hand match, p50", "hand_long_p50", "ms", 50),
            row("  server CPU per hand there (all threads)", "hand_cpu_ms", "ms", None),
            row("scored hand on a new match, p50", "hand_new_p50", "ms", None),
            row("idle service, % of one core (box: 12.5)", "idle_pct", "%", None)]
    killed = sum(r["killed"] for r in runs) + oom
    rows.append(("killed (out of memory or died)", str(killed), "", "0", "ok" if killed == 0 else "MISSED"))
    w = max(len(r[0]) for r in rows)
    print(f"{'measure':<{w}}  {'median':>9}  {'highest':>9}  {'target':>9}  result")
    print("-" * (w + 45))
    for name, med, hi, target, ok in rows:
        print(f"{name:<{w}}  {med:>9}  {hi:>9}  {target:>9}  {ok}")
    loads = ", ".join(f"{r['load']:.1f}" for r in runs)
    print(f"({len(runs)} start-ups in {where}, the service at nice {nice}; data: {events} events; "
          f"load average at each healthy: {loads}; "
          f"now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return 0  # the table says what missed (make bench goes on to the next benchmark)


if __name__ == "__main__":
    sys.exit(main())
