"""``gingo serve`` answers before its mDNS advertisement is done, and its banner comes when
it listens (issue 23, start-up).

zeroconf's ``register_service`` blocks about 1.7 s while it probes the network and
announces the name (zeroconf/_core.py), which ``gingo serve`` used to wait for before it
started listening. Here ``companion.discovery.advertise`` is replaced, in the real
``gingo serve`` process, by one that blocks until the test has had its health answer:
a stand-in for zeroconf's timing, which it cannot show (no multicast here); the server,
its threads and its shutdown are the real ones. It binds 127.0.0.2 (loopback, but not a
name that skips mDNS).
"""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = r"""
import sys, time
from pathlib import Path
import companion.discovery as d

marks = Path(sys.argv[1])

class Advert:
    def close(self):
        (marks / "closed").write_text("")

def advertise(port, addresses, *, warn=lambda m: None, **kw):
    (marks / "asked").write_text(str(port))
    end = time.monotonic() + 90  # longer than the test waits for its answer
    while not (marks / "go").exists() and time.monotonic() < end:
        time.sleep(0.02)
    return Advert()

d.advertise = advertise
from companion.cli import main
sys.exit(main(sys.argv[2:]))
"""


def test_serve_answers_while_the_mdns_advertisement_is_still_under_way(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.2", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "GINGO_PAIRING_CODE": "424242", "GPIOZERO_PIN_FACTORY": "mock"}
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, str(tmp_path), "serve", "--host", "127.0.0.2",
                             "--port", str(port), "--data", str(tmp_path / "data"), "--no-qr"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()

    def reader() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put("")

    threading.Thread(target=reader, daemon=True).start()
    try:
        # the banner is printed once the server listens: the address it shows answers at once
        shown = f"open   http://127.0.0.2:{port}/"
        while True:
            try:
                line = lines.get(timeout=45)
            except queue.Empty:
                raise AssertionError("gingo serve printed no banner in 45 s") from None
            assert line, f"gingo serve ended before its banner: {proc.stderr.read() if proc.stderr else ''}"
            if shown in line:
                break
        with urllib.request.urlopen(f"http://127.0.0.2:{port}/api/v1/health", timeout=5) as r:
            assert r.status == 200
        # advertising after the banner, on its own thread, and not yet done: serving meanwhile
        end = time.monotonic() + 30
        while not (tmp_path / "asked").exists():
            assert time.monotonic() < end, "gingo serve did not start its mDNS advertisement"
            time.sleep(0.02)
        assert (tmp_path / "asked").read_text() == str(port)
        with urllib.request.urlopen(f"http://127.0.0.2:{port}/api/v1/health", timeout=5) as r:
            assert r.status == 200
        assert not (tmp_path / "go").exists()
        (tmp_path / "go").write_text("")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    assert proc.returncode == 0
    assert (tmp_path / "closed").exists()  # the advertisement withdrawn at shutdown
