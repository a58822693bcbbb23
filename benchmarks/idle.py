"""What the companion costs while the table sleeps, and how fast a chip reaches its LED.

Every figure is the real ``gingo serve`` (a subprocess on 127.0.0.1, its own empty data
folder, no phone, LEDs on) measured from outside: the whole process's CPU time (user +
system, every thread) read from ``/proc/<pid>/stat`` over fixed wall-clock windows, in %
of one core. The median of several windows is the figure; the highest window is shown
too (other work on a shared machine inflates single windows).

* **simulated board, idle**: ``make run``'s set-up (simulated sensors and strip), nothing
  happening. Target <= 0.5 %.
* **simulated board, a chip to place**: a Gin-Go game waits for three chips, so the LEDs
  pulse (25 frames a second while an animation shows): the cost at play.
* **serial link, 200 READINGS/s, still board**: ``sensors.backend = "serial"`` on a pty
  and ``leds.backend = "pico"`` (the LED frames go back over the same link). This
  process plays the Pico on the pty's other end: it answers HELLO, writes READINGS frames
  of an unchanging board at 200 a second, each reading jittering within +-300 counts
  as a real sensor does (``--still`` for identical frames), and drains what the
  service sends. Target <= 1 %.
* **chip placed to its LED frame**: on that link, a chip is put on (or lifted from) a
  space; the time from writing the READINGS frame that completes the debounce (5 scans
  and 50 ms of the Pico's scans: at 200 a second the 10th scan after the first one
  showing the chip, as the service dates scans on the firmware's scan clock) to
  reading the LEDS frame that shows it on the Pico's end. Everything the companion
  adds beyond the debounce counts: reading, checking and classifying the frames, the
  board view, the LED picture, writing the LEDS frame. Target p99 <= 5 ms. Timed with
  the service at nice 0, at the priority its systemd unit gives it
  (``hardware/pi/gingo.service``'s ``Nice=``), and at SCHED_FIFO 10: not what the unit
  ships, an instrument: what the code path itself costs when it never waits for the
  CPU (the last two need root, else skipped and said). As root the Pico's two threads
  here run at SCHED_FIFO 20: the Pico is its own chip, which the Pi's load does not
  slow, so this process's own wake-ups must not be what is measured on a busy machine.
  What no priority of ours removes: the bytes pass from the pty's writer to its reader
  through the kernel's tty worker thread (as a USB serial port's do on the Pi), which a
  loaded machine delays.

Every row shows the load average (1 minute) when its part ended: on a shared machine
the p99 follows the load.

Run: ``.venv/bin/python benchmarks/idle.py`` (``--windows N``, ``--seconds S``,
``--changes N``, ``--nice N|fifo[,...]``, ``--only sim|play|serial|latency``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.hardware.framing import HELLO, LEDS, READINGS, Frame, FrameSplitter, encode_frame, pack_readings  # noqa: E402
from companion.hardware.layout import default_layout  # noqa: E402

CODE = "424242"
UNIT = ROOT / "hardware" / "pi" / "gingo.service"
RATE = 200.0
DEBOUNCE_MS = 50.0  # the default debouncer: 5 scans and 50 ms; at 200 frames/s the 50 ms decide
#: the scan that completes the debounce, counted from the first showing the chip (0)
COMPLETING = max(5 - 1, math.ceil(DEBOUNCE_MS / 1000 * RATE - 1e-9))
LAY = default_layout()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of the whole process (every thread) so far."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def unit_nice() -> int:
    """The ``Nice=`` the shipped systemd unit gives the service (0 when it sets none)."""
    for line in UNIT.read_text().splitlines():
        if line.startswith("Nice="):
            return int(line.split("=", 1)[1])
    return 0


def priority(nice: int | str) -> None:
    """(in the child, before exec) a nice level, or ``"fifo"``: SCHED_FIFO 10 (root)."""
    if nice == "fifo":
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    else:
        os.setpriority(os.PRIO_PROCESS, 0, int(nice))


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


class Server:
    """``gingo serve`` as a subprocess; ``config``: a TOML config file's text."""

    def __init__(self, tmp: Path, config: str | None = None, nice: int | str = 0) -> None:
        self.port = free_port()
        data = tmp / "data"
        argv = [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                "--data", str(data), "--no-qr", "--no-mdns"]
        if config is not None:
            (tmp / "gingo.toml").write_text(config)
            argv += ["--config", str(tmp / "gingo.toml")]
        env = {**os.environ, "GINGO_PAIRING_CODE": CODE, "GPIOZERO_PIN_FACTORY": "mock"}
        self.log = open(tmp / "serve.log", "wb")
        self.proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     preexec_fn=(lambda: priority(nice)) if nice else None)
        self.url = f"http://127.0.0.1:{self.port}"
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise SystemExit(f"gingo serve exited with {self.proc.returncode}: {(tmp / 'serve.log').read_text()}")
            try:
                if self.get("/api/v1/health")["status"]:
                    return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("gingo serve did not answer in 60 s")

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.loads(r.read())

    def post(self, path: str, body: object, token: str | None = None) -> Any:
        req = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": "Bearer " + token} if token else {})})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def wait(self, path: str, check: Any, timeout: float = 30.0) -> Any:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            body = self.get(path)
            if check(body):
                return body
            time.sleep(0.05)
        raise SystemExit(f"GET {path} never satisfied the check in {timeout} s")

    def cpu_windows(self, windows: int, seconds: float) -> list[float]:
        """% of one core in each of ``windows`` back-to-back windows of ``seconds``."""
        out = []
        for _ in range(windows):
            c0, w0 = cpu_seconds(self.proc.pid), time.monotonic()
            time.sleep(seconds)
            c1, w1 = cpu_seconds(self.proc.pid), time.monotonic()
            out.append(100.0 * (c1 - c0) / (w1 - w0))
        return out

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


class Pico:
    """The Pico's end of a pty: READINGS at ``rate`` from one thread, and a reader that
    answers HELLO requests and keeps every LEDS frame with the time it was read."""

    def __init__(self, rate: float = RATE, noisy: bool = True) -> None:
        self.master, self.slave = os.openpty()  # the slave stays open here: the master never sees EIO
        self.path = os.ttyname(self.slave)
        import tty

        tty.setraw(self.slave)
        self.rate = rate
        self.noisy = noisy
        rng = random.Random(7)
        self.base = [32768 + rng.randint(-1500, 1500) for _ in range(52)]
        self.values = list(self.base)
        self.lock = threading.Lock()
        self.seq = 0
        self.leds: list[tuple[float, bytes]] = []
        self.leds_cond = threading.Condition()
        self.first_written: float | None = None  # when the frame showing the last change went out
        self.written: list[float] = []  # when each READINGS frame went out since the last change
        self._changed = False
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._write, daemon=True),
                        threading.Thread(target=self._read, daemon=True)]
        for t in self.threads:
            t.start()

    def set_space(self, space: int, value: int) -> None:
        with self.lock:
            self.base[space] = value
            self._changed = True

    def _send(self, type_: int, payload: bytes) -> None:
        with self.lock:
            frame = encode_frame(type_, self.seq & 0xFFFF, payload)
            self.seq += 1
        os.write(self.master, frame)

    @staticmethod
    def _priority() -> None:
        """(as root) this thread at SCHED_FIFO 20: the Pico is its own chip (see the module's doc)."""
        if os.geteuid() == 0:
            os.sched_setscheduler(threading.get_native_id(), os.SCHED_FIFO, os.sched_param(20))

    def _write(self) -> None:
        self._priority()
        rng = random.Random(11)
        period = 1.0 / self.rate
        start = time.monotonic()
        n = 0
        while not self.stop.is_set():
            due = start + n * period
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            with self.lock:
                values = [v + rng.randint(-300, 300) for v in self.base] if self.noisy else list(self.base)
                changed, self._changed = self._changed, False
                frame = encode_frame(READINGS, self.seq & 0xFFFF, pack_readings(values))
                self.seq += 1
            os.write(self.master, frame)
            now = time.monotonic()
            if changed:
                self.first_written = now
                self.written = []
            self.written.append(now)
            n += 1
            if time.monotonic() - due > 1.0:  # fell far behind (a stalled machine): start the clock again
                start, n = time.monotonic(), 0

    def _read(self) -> None:
        self._priority()
        splitter = FrameSplitter()
        while not self.stop.is_set():
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            now = time.monotonic()
            for item in splitter.feed(data):
                if not isinstance(item, Frame):
                    continue
                if item.type == HELLO and not item.payload:
                    hello = {"fw": "bench", "rate": self.rate, "leds": LAY.count, "protocol": 1}
                    self._send(HELLO, json.dumps(hello).encode())
                elif item.type == LEDS:
                    with self.leds_cond:
                        self.leds.append((now, item.payload))
                        self.leds_cond.notify_all()

    def wait_led(self, led: int, lit: bool, after: float, timeout: float = 5.0) -> float | None:
        """When the first LEDS frame read after ``after`` showed ``led`` lit (or dark)."""
        end = time.monotonic() + timeout
        with self.leds_cond:
            while True:
                for t, payload in self.leds:
                    if t >= after and any(payload[3 * led:3 * led + 3]) == lit:
                        return t
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self.leds_cond.wait(left)

    def close(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=2)
        os.close(self.master)
        os.close(self.slave)


class TtyProbe:
    """The kernel's own part: a byte written every 5 ms into a pty of this process and the
    time until its other end reads it, both threads at this process's Pico priority. The
    tty layer hands bytes on from a worker thread (a pty's, as a USB serial port's on the
    Pi), at the kernel's priority, not ours: what no priority of the service removes."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        import tty

        tty.setraw(self.slave)
        self.delays: list[float] = []
        self.sent: list[float] = []
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._write, daemon=True),
                        threading.Thread(target=self._read, daemon=True)]
        for t in self.threads:
            t.start()

    def _write(self) -> None:
        Pico._priority()
        while not self.stop.wait(0.005):
            self.sent.append(time.monotonic())
            os.write(self.master, b"x")

    def _read(self) -> None:
        Pico._priority()
        got = 0
        while not self.stop.is_set():
            ready, _, _ = select.select([self.slave], [], [], 0.1)
            if not ready:
                continue
            n = len(os.read(self.slave, 4096))
            now = time.monotonic()
            self.delays += [now - t for t in self.sent[got:got + n]]
            got += n

    def close(self) -> list[float]:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=2)
        os.close(self.master)
        os.close(self.slave)
        return [d * 1000 for d in self.delays]


def serial_config(pico: Pico, coalesce: float | None = None) -> str:
    extra = "" if coalesce is None else f"\n[sensors.serial]\ncoalesce = {coalesce}\n"
    return (f'[sensors]\nbackend = "serial"\nport = "{pico.path}"\n{extra}\n'
            '[leds]\nbackend = "pico"\n')


def run_sim(args: argparse.Namespace, play: bool) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(Path(tmp))
        try:
            srv.wait("/api/v1/health", lambda h: h["sensors"] == "sim")
            srv.wait("/api/v1/board", lambda b: b["sensed"] is not None)
            if play:  # a Gin-Go game whose chips are still to place: the LEDs pulse
                token = srv.post("/api/v1/pair", {"code": CODE, "name": "bench"})["token"]
                gid = srv.post("/api/v1/games", {"variant": "gingo", "players": ["A", "B"]}, token)["id"]
                for action in ({"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}},
                               {"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S"]}):
                    srv.post(f"/api/v1/games/{gid}/actions", {"action": action}, token)
                srv.wait("/api/v1/board", lambda b: len(b["pending"]) == 3)
            time.sleep(args.settle)
            return srv.cpu_windows(args.windows, args.seconds)
        finally:
            srv.stop()


def run_serial(args: argparse.Namespace, nice: int | str, cpu_too: bool,
               latency: bool) -> tuple[list[float], list[float], int, list[float]]:
    """(CPU windows, LED overheads in ms, changes timed, the pty's own hand-on delays in ms
    meanwhile) with the service at ``nice``."""
    pico = Pico(noisy=not args.still)
    probe: TtyProbe | None = None
    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(Path(tmp), serial_config(pico, args.coalesce), nice=nice)
        try:
            srv.wait("/api/v1/board", lambda b: b["sensed"] is not None, timeout=30)
            cpu: list[float] = []
            if cpu_too:
                time.sleep(args.settle)
                cpu = srv.cpu_windows(args.windows, args.seconds)
            over: list[float] = []
            early = 0
            if latency:
                probe = TtyProbe()
                for k in range(args.changes):
                    space = (k // 2 * 7) % 52
                    lit = k % 2 == 0
                    led = LAY.space_led(space)
                    time.sleep(0.25 + random.random() * 0.05)  # the board at rest again, at a random phase
                    pico.first_written = None
                    mark = time.monotonic()
                    pico.set_space(space, 45000 if lit else pico.values[space])
                    shown = pico.wait_led(led, lit, mark)
                    written = list(pico.written)
                    if shown is None or pico.first_written is None:
                        continue
                    if len(written) <= COMPLETING:  # lit before the scan that completes the debounce
                        early += 1
                        continue
                    # the scan that completes the debounce: the COMPLETING-th after the first
                    # showing the chip (the service counts the settle time in the Pico's scans)
                    done = written[COMPLETING]
                    early += done > shown
                    over.append(max(0.0, shown - done) * 1000)
            if early:
                print(f"note: {early} of {args.changes} changes were lit before the scan that completes the "
                      "debounce had been written (a debounce cut short: a defect; counted as 0 ms)")
            return cpu, over, args.changes, probe.close() if probe is not None else []
        finally:
            srv.stop()
            pico.close()
            if probe is not None and not probe.stop.is_set():
                probe.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--windows", type=int, default=5, help="CPU windows per set-up (default 5)")
    ap.add_argument("--seconds", type=float, default=8.0, help="length of each CPU window (default 8)")
    ap.add_argument("--settle", type=float, default=3.0, help="seconds after start-up before measuring (default 3)")
    ap.add_argument("--changes", type=int, default=100, help="chip moves timed to their LED frame (default 100)")
    ap.add_argument("--still", action="store_true", help="identical READINGS frames (no sensor noise)")
    ap.add_argument("--coalesce", type=float, help="the serial reader's coalesce seconds (default: the service's)")
    ap.add_argument("--nice", help="the service's priorities for the latency, comma-separated nice levels "
                                   "or fifo (default: 0, the unit's Nice= and fifo; the last two as root only)")
    ap.add_argument("--only", choices=("sim", "play", "serial", "latency"))
    args = ap.parse_args()
    nices: list[int | str]
    if args.nice is not None:
        nices = [n if n == "fifo" else int(n) for n in args.nice.split(",")]
    elif os.geteuid() == 0:
        nices = [0, *([unit_nice()] if unit_nice() else []), "fifo"]
    else:
        nices = [0]
        print(f"note: the service at the unit's Nice={unit_nice()} and at SCHED_FIFO need root: "
              "timed at nice 0 only")

    rows: list[tuple[str, str, str, str, str, str]] = []

    def cpu_row(name: str, windows: list[float], target: float | None) -> None:
        med = statistics.median(windows)
        ok = "" if target is None else ("ok" if med <= target else "MISSED")
        rows.append((name, f"{med:.2f} %", f"{max(windows):.2f} %", "" if target is None else f"<= {target:g} %",
                     ok, load()))

    if args.only in (None, "sim"):
        cpu_row("simulated board, idle (CPU, % of one core)", run_sim(args, play=False), 0.5)
    if args.only in (None, "play"):
        cpu_row("simulated board, 3 chips to place pulsing", run_sim(args, play=True), None)
    stream = "identical frames" if args.still else "+-300 noise"
    for i, nice in enumerate(nices if args.only in (None, "serial", "latency") else []):
        cpu_too = i == 0 and args.only in (None, "serial")
        cpu, over, changes, tty_ms = run_serial(args, nice, cpu_too, args.only in (None, "latency"))
        if cpu:
            cpu_row(f"serial link, 200 READINGS/s still board ({stream}), pico LEDs", cpu, 1.0)
        if args.only == "serial":
            break
        at = ("SCHED_FIFO (the code alone)" if nice == "fifo" else
              f"nice {nice}" + (" (the unit's)" if nice == unit_nice() and nice else ""))
        if over:
            rows.append((f"chip to LED beyond the debounce, {at}, p50 ({len(over)}/{changes})",
                         f"{pct(over, 50):.2f} ms", "", "", "", load()))
            p99 = pct(over, 99)
            rows.append((f"chip to LED beyond the debounce, {at}, p99", f"{p99:.2f} ms", f"max {max(over):.2f}",
                         "<= 5 ms", "ok" if p99 <= 5 and len(over) == changes else "MISSED", load()))
        else:
            rows.append((f"chip to LED, {at}", "no LED frame seen", "", "<= 5 ms", "MISSED", load()))
        if tty_ms:
            rows.append(("  meanwhile a pty's own hand-on (kernel tty worker), p50 / p99",
                         f"{pct(tty_ms, 50):.2f} ms", f"{pct(tty_ms, 99):.2f} ms", "", "", load()))
    w = max(len(r[0]) for r in rows)
    print(f"{'measure':<{w}}  {'median':>9}  {'highest':>10}  {'target':>8}  {'result':<6}  load")
    print("-" * (w + 52))
    for name, med, hi, target, ok, ld in rows:
        print(f"{name:<{w}}  {med:>9}  {hi:>10}  {target:>8}  {ok:<6}  {ld}")
    print(f"({args.windows} windows of {args.seconds:g} s each, after {args.settle:g} s settling; "
          f"load: the 1-minute load average when the row's part ended, on {os.cpu_count()} cores; "
          f"{os.uname().machine}; the Pico's threads here at "
          f"{'SCHED_FIFO 20' if os.geteuid() == 0 else 'nice 0'})")
    return 0  # the table says what missed (make bench goes on to the next benchmark)


if __name__ == "__main__":
    sys.exit(main())
