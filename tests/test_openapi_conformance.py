"""The OpenAPI file matches the server: schemathesis (``st run --checks all``: status codes,
content types, response schemas and headers, Allow on 405 and OPTIONS, undeclared
methods, schema-valid data accepted, invalid data refused, ignored auth...) against the
real server on loopback, without credentials, with a paired phone's token and with the
host code. The examples are bounded (5 per operation and phase) and deterministic."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.live_server import LiveServer as Server

pytestmark = pytest.mark.live
CONFIG = Path(__file__).resolve().parent / "schemathesis" / "schemathesis.toml"


def schemathesis_run(server: Server, *headers: str) -> str:
    cmd = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(CONFIG), "run",
           f"{server.url}/openapi.json", "--checks", "all", "--max-examples", "5",
           "--phases", "examples,coverage,fuzzing", "--generation-deterministic", "--no-color",
           "--request-timeout", "20"]
    for h in headers:
        cmd += ["-H", h]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "NO_COLOR": "1", "SCHEMATHESIS_TELEMETRY": "false"},
                          cwd=server.data.parent)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-6000:]
    assert " passed" in out and "failure" not in out.split("SUMMARY")[-1], out[-3000:]
    return out


def test_every_operation_conforms_with_and_without_credentials(server: Server) -> None:
    # the token first, from its own address: the runs below guess codes, and the limits
    # then make 127.0.0.1 wait (as they should)
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.9"), timeout=5) as c:
        token = c.post(server.url + "/api/v1/pair", json={"code": server.code, "name": "schemathesis"}).json()["token"]
    schemathesis_run(server)
    schemathesis_run(server, f"Authorization: Bearer {token}")
    # the writes ran with a token that stayed good all along
    r = httpx.get(server.url + "/api/v1/tokens/me", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200 and r.json()["name"] == "schemathesis"
    schemathesis_run(server, f"X-Host-Code: {server.host_code}")
