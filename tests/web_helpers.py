"""Helpers for the browser tests: the real service in a subprocess, headless Chromium.

The service is started by the one live-server launcher (:mod:`tests.live_server`) as
``gingo serve`` on 127.0.0.1 (a free port, a temporary data directory, a fixed pairing
code) and stopped with SIGTERM; it can be restarted on the same port and data directory
to test a lost connection.
"""

from __future__ import annotations

from pathlib import Path

from tests.live_server import ROOT, LiveServer, free_port

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "CODE", "HOST_CODE", "PHONE", "ROOT", "Server", "free_port"]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
CODE = "1234"
HOST_CODE = "host-5678"


def Server(data: Path, port: int | None = None) -> LiveServer:  # noqa: N802 (reads like the class it returns)
    """The live-server launcher with the browser tests' pairing and host codes."""
    return LiveServer(data, port, code=CODE, host_code=HOST_CODE)
