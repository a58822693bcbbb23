"""The one live-server launcher for every test that needs the real service.

:class:`LiveServer` runs ``gingo serve`` on 127.0.0.1 (a free port, its own data folder,
fixed pairing and host codes) either as a subprocess (``python -m companion.cli``, the way
a user starts it) or, with ``fork=True``, as a forked child of the already warmed-up test
process (each of many restarts then costs the start-up work, not the imports again). The
codes reach the server through its own environment only: the test process's
``os.environ`` is never changed. :meth:`LiveServer.start` waits on the real condition
(``/api/v1/health`` answers 200 and the simulated sensors are online) and picks another port if the chosen one was taken by a
parallel test worker in the meantime.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CODE = "135790"
HOST_CODE = "live-host"
START_TIMEOUT = 60.0  # a loaded 2-core CI machine starts the service in seconds; never wait forever


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(code: str = CODE, host_code: str = HOST_CODE, **extra: str) -> dict[str, str]:
    """The environment ``gingo serve`` runs with (a copy: ``os.environ`` is left alone)."""
    env = {**os.environ, "GINGO_PAIRING_CODE": code, "GINGO_HOST_CODE": host_code,
           "GPIOZERO_PIN_FACTORY": "mock", "PYTHONUNBUFFERED": "1"}
    env.update(extra)
    return env


class LiveServer:
    """``gingo serve`` on 127.0.0.1 with its own data folder (see the module docstring)."""

    def __init__(self, data: Path, port: int | None = None, *, fork: bool = False, code: str = CODE,
                 host_code: str = HOST_CODE, args: tuple[str, ...] = (), env: dict[str, str] | None = None,
                 wait_sensors: bool = True) -> None:
        self.data = data
        self.port = port or free_port()
        self.fixed_port = port is not None
        self.fork = fork
        self.code = code
        self.host_code = host_code
        self.args = tuple(args)
        self.extra_env = dict(env or {})
        self.wait_sensors = wait_sensors
        self.proc: subprocess.Popen[bytes] | None = None
        self.pid: int | None = None
        self.log = data.parent / f"{data.name}-serve.log"
        self.started_in = 0.0
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def argv(self) -> list[str]:
        return ["serve", "--host", "127.0.0.1", "--port", str(self.port), "--data", str(self.data),
                "--no-qr", "--no-mdns", *self.args]

    # -- starting and stopping -----------------------------------------------------------------

    def start(self, timeout: float = START_TIMEOUT) -> LiveServer:
        """Start the server and wait until it answers (:attr:`started_in` says how long that took)."""
        for attempt in range(3):
            t0 = time.monotonic()
            self._spawn()
            if self._wait_healthy(t0 + timeout):
                self.started_in = time.monotonic() - t0
                return self
            out = self.output()
            self.kill()
            if "could not listen" in out and not self.fixed_port and attempt < 2:
                self.port = free_port()  # another worker took the port between choosing and binding
                continue
            raise RuntimeError(f"gingo serve did not answer in {timeout} s on {self.url}:\n{out[-3000:]}")
        raise AssertionError("unreachable")

    def _spawn(self) -> None:
        self.data.parent.mkdir(parents=True, exist_ok=True)
        env = server_env(self.code, self.host_code, **self.extra_env)
        if not self.fork:
            with open(self.log, "ab") as log:
                self.proc = subprocess.Popen([sys.executable, "-m", "companion.cli", *self.argv()], cwd=ROOT,
                                             env=env, stdout=log, stderr=subprocess.STDOUT)
            return
        import importlib

        for name in ("companion.commands.serve", "uvicorn", "companion.api"):
            importlib.import_module(name)  # warm the imports before forking
        log_fd = os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        pid = os.fork()
        if pid == 0:  # the child: its own environment, the real command, never back into pytest
            code = 1
            try:
                os.environ.clear()
                os.environ.update(env)
                os.dup2(log_fd, 1)
                os.dup2(log_fd, 2)
                from companion.cli import main

                code = main(self.argv())
            finally:
                os._exit(code)
        os.close(log_fd)
        self.pid = pid

    def _alive(self) -> bool:
        if self.proc is not None:
            return self.proc.poll() is None
        if self.pid is not None:
            try:
                done, _status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                return False
            if done:
                self.pid = None
                return False
            return True
        return False

    def _wait_healthy(self, deadline: float) -> bool:
        """Until ``/api/v1/health`` answers 200 and (with the simulated board) the sensors are
        online: a page that reads the health before the first debounced scan would take the
        board for a real one that is offline, and its taps would do nothing."""
        while time.monotonic() < deadline:
            if not self._alive():
                return False
            try:
                with urllib.request.urlopen(self.url + "/api/v1/health", timeout=2) as r:
                    health = json.loads(r.read())
                if r.status == 200 and (not self.wait_sensors or health.get("sensors") != "offline"):
                    return True
            except (OSError, urllib.error.URLError, ValueError):
                pass
            time.sleep(0.02)
        return False

    def kill(self) -> None:
        """SIGKILL (a power cut), and reap the process (safe from a timer thread too)."""
        with self._lock:
            proc, pid = self.proc, self.pid
            self.proc = self.pid = None
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            proc.wait(10)
        if pid is not None:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass

    def signal(self, sig: int) -> None:
        if self.proc is not None:
            self.proc.send_signal(sig)
        elif self.pid is not None:
            os.kill(self.pid, sig)

    def wait(self, timeout: float = 20.0) -> int:
        """Wait for the server to exit; its exit status."""
        if self.proc is not None:
            code = self.proc.wait(timeout)
            self.proc = None
            return code
        assert self.pid is not None
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.pid = None
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.02)
        raise subprocess.TimeoutExpired("gingo serve", timeout)

    def terminate(self, timeout: float = 20.0) -> int:
        """SIGTERM (systemd's stop) and the exit status."""
        self.signal(signal.SIGTERM)
        return self.wait(timeout)

    def stop(self) -> None:
        """Stop cleanly if still running (SIGTERM, then SIGKILL after 20 s)."""
        if not self._alive():
            self.proc = None
            self.pid = None
            return
        try:
            self.terminate()
        except subprocess.TimeoutExpired:
            self.kill()

    def output(self) -> str:
        """Everything the server printed so far."""
        try:
            return self.log.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    # -- talking to it ---------------------------------------------------------------------------

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.loads(r.read())

    def post(self, path: str, body: object, token: str | None = None) -> Any:
        req = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": "Bearer " + token} if token else {})})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def pair(self, name: str = "test") -> str:
        """A bearer token for this server."""
        return str(self.post("/api/v1/pair", {"code": self.code, "name": name})["token"])

    def wait_until(self, path: str, check: Any, timeout: float = 30.0) -> Any:
        """GET ``path`` until ``check(body)`` is true (the real condition, not a sleep);
        the last body, or AssertionError naming it after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        body = None
        while time.monotonic() < end:
            body = self.get(path)
            if check(body):
                return body
            time.sleep(0.02)
        raise AssertionError(f"GET {path} never satisfied the check in {timeout} s; last answer: {body!r}")
