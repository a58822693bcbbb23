"""A real MQTT broker for the tests: Debian's ``mosquitto`` on 127.0.0.1.

:class:`Mosquitto` writes its own config into a test folder and runs the broker on a free
loopback port (never 1883, never another address): ``listener <port> 127.0.0.1``,
``allow_anonymous`` only when the test asks for it (a password file otherwise), ``user
root`` when the tests run as root (mosquitto would drop to the ``mosquitto`` user and no
longer read the password, ACL and certificate files in the test's folder). With ``tls``
it adds a second listener with a server certificate signed by a CA the tests make with
``openssl`` (:func:`make_ca`), for the remote-play tests.

:func:`need_mosquitto` is what the fixtures call first: without the broker the tests
skip with the reason, and with ``CI=true`` they fail instead (``make test`` installs it,
so a missing broker in CI is a broken set-up, not a reason to skip).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

LOOPBACK = "127.0.0.1"
START_TIMEOUT = 10.0


def mosquitto_binary() -> str | None:
    """The broker's path (Debian puts it in /usr/sbin, not on every PATH)."""
    for name in ("mosquitto", "/usr/sbin/mosquitto"):
        found = shutil.which(name)
        if found:
            return found
    return None


def need_mosquitto() -> str:
    """The broker's path; skip (fail with ``CI=true``) when it is not installed."""
    path = mosquitto_binary()
    passwd = shutil.which("mosquitto_passwd") or shutil.which("/usr/bin/mosquitto_passwd")
    if path and passwd:
        return path
    why = ("Debian's mosquitto is not installed (make test installs it; or "
           "apt-get install mosquitto mosquitto-clients)")
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true and {why}", pytrace=False)
    pytest.skip(why)


def free_port() -> int:
    """A free TCP port on 127.0.0.1, never 1883."""
    while True:
        with socket.socket() as s:
            s.bind((LOOPBACK, 0))
            port = int(s.getsockname()[1])
        if port != 1883:
            return port


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


@dataclass(frozen=True)
class CA:
    """A test CA and a server certificate for 127.0.0.1 / localhost signed by it."""

    folder: Path

    @property
    def cert(self) -> Path:
        return self.folder / "ca.crt"

    @property
    def server_cert(self) -> Path:
        return self.folder / "server.crt"

    @property
    def server_key(self) -> Path:
        return self.folder / "server.key"


def make_ca(folder: Path, name: str = "gingo-test-ca") -> CA:
    """A CA (EC P-256, two days) and a server certificate for 127.0.0.1 with its SAN."""
    folder.mkdir(parents=True, exist_ok=True)
    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    _openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
             "-subj", f"/CN={name}", cwd=folder)
    _openssl("req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1", cwd=folder)
    (folder / "san.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
             "-out", "server.crt", "-days", "2", "-extfile", "san.cnf", cwd=folder)
    return CA(folder)


class Mosquitto:
    """One mosquitto process on 127.0.0.1 with a config written into ``folder``.

    ``users`` maps user names to passwords (a ``password_file``); ``acl`` is the text of an
    ``acl_file``; ``anonymous`` allows clients without a name (only where a test says so);
    ``ca`` adds a TLS listener (:attr:`tls_port`); ``persistence`` keeps sessions and queued
    messages in ``folder`` across :meth:`restart`.
    """

    def __init__(self, folder: Path, *, anonymous: bool = False, users: dict[str, str] | None = None,
                 acl: str | None = None, ca: CA | None = None, persistence: bool = False) -> None:
        self.binary = need_mosquitto()
        self.folder = folder
        self.anonymous = anonymous
        self.users = dict(users or {})
        self.acl = acl
        self.ca = ca
        self.persistence = persistence
        self.port = free_port()
        self.tls_port = free_port() if ca is not None else None
        self.proc: subprocess.Popen[bytes] | None = None
        folder.mkdir(parents=True, exist_ok=True)
        self.log = folder / "mosquitto.log"

    # -- config ----------------------------------------------------------------------------

    def config_text(self) -> str:
        lines = ["per_listener_settings false",
                 f"allow_anonymous {'true' if self.anonymous else 'false'}",
                 f"persistence {'true' if self.persistence else 'false'}",
                 f"persistence_location {self.folder}/",
                 f"log_dest file {self.log}",
                 "log_type error", "log_type warning", "log_type notice", "log_type information",
                 "connection_messages true", "set_tcp_nodelay true"]
        if os.geteuid() == 0:
            lines.append("user root")
        if self.users:
            lines.append(f"password_file {self.folder / 'passwords'}")
        if self.acl is not None:
            lines.append(f"acl_file {self.folder / 'acl'}")
        lines.append(f"listener {self.port} {LOOPBACK}")
        if self.ca is not None:
            lines += [f"listener {self.tls_port} {LOOPBACK}",
                      f"cafile {self.ca.cert}",
                      f"certfile {self.ca.server_cert}",
                      f"keyfile {self.ca.server_key}",
                      "tls_version tlsv1.2"]
        return "\n".join(lines) + "\n"

    def _write_files(self) -> Path:
        if self.users:
            pw = self.folder / "passwords"
            pw.unlink(missing_ok=True)
            for i, (user, password) in enumerate(self.users.items()):
                subprocess.run(["mosquitto_passwd", *(["-c"] if i == 0 else []), "-b", str(pw), user, password],
                               check=True, capture_output=True, timeout=30)
        if self.acl is not None:
            (self.folder / "acl").write_text(self.acl)
        conf = self.folder / "mosquitto.conf"
        conf.write_text(self.config_text())
        return conf

    # -- running -----------------------------------------------------------------------------

    def start(self) -> Mosquitto:
        """Start the broker and wait until every listener takes connections; a port taken
        meanwhile by another test worker gets a new one (unless a restart must keep it)."""
        for attempt in range(3):
            conf = self._write_files()
            with open(self.log, "ab") as out:
                self.proc = subprocess.Popen([self.binary, "-c", str(conf)], stdout=out, stderr=subprocess.STDOUT)
            if self._wait_ready(time.monotonic() + START_TIMEOUT):
                return self
            self.stop()
            if attempt < 2 and "Address already in use" in self.output():
                self.port = free_port()
                if self.tls_port is not None:
                    self.tls_port = free_port()
                continue
            break
        raise RuntimeError(f"mosquitto did not start on {LOOPBACK}:{self.port}:\n{self.output()[-2000:]}")

    def _wait_ready(self, deadline: float) -> bool:
        ports = [p for p in (self.port, self.tls_port) if p is not None]
        while time.monotonic() < deadline:
            if self.proc is None or self.proc.poll() is not None:
                return False
            try:
                for p in ports:
                    with socket.create_connection((LOOPBACK, p), timeout=0.5):
                        pass
                return True
            except OSError:
                time.sleep(0.02)
        return False

    def stop(self) -> None:
        """SIGTERM and reap (mosquitto saves its persistence file on the way out)."""
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)

    def restart(self) -> Mosquitto:
        """Stop and start again on the same ports (a broker restart mid-game)."""
        self.stop()
        return self._start_same_ports()

    def _start_same_ports(self) -> Mosquitto:
        end = time.monotonic() + START_TIMEOUT
        while True:
            conf = self._write_files()
            with open(self.log, "ab") as out:
                self.proc = subprocess.Popen([self.binary, "-c", str(conf)], stdout=out, stderr=subprocess.STDOUT)
            if self._wait_ready(time.monotonic() + START_TIMEOUT):
                return self
            self.stop()
            if time.monotonic() > end:  # the old socket in TIME_WAIT: mosquitto sets SO_REUSEADDR, so rare
                raise RuntimeError(f"mosquitto did not restart on {self.port}:\n{self.output()[-2000:]}")
            time.sleep(0.2)

    def output(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def __enter__(self) -> Mosquitto:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
