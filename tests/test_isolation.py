"""The test suite's own hygiene: a test that leaves ``os.environ`` changed fails (the
guard in ``tests/conftest.py``), and the environment is restored for the next test."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.mark.slow  # a pytest run in a subprocess
def test_a_test_that_leaks_an_environment_variable_fails_and_the_next_one_sees_none(tmp_path: Path) -> None:
    shutil.copy(HERE / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_probe.py").write_text(
        "import os\n"
        "def test_1_leaks():\n    os.environ['GINGO_LEAK_PROBE'] = '1'\n"
        "def test_2_patches(monkeypatch):\n    monkeypatch.setenv('GINGO_OTHER_PROBE', '1')\n"
        "def test_3_sees_a_clean_environment():\n"
        "    assert 'GINGO_LEAK_PROBE' not in os.environ and 'GINGO_OTHER_PROBE' not in os.environ\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "GINGO_LEAK", "GINGO_OTHER"))}
    env["PYTHONPATH"] = str(HERE.parent)  # the copied conftest.py imports the shared helpers (tests.*)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                           str(tmp_path)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    out = done.stdout
    assert done.returncode == 1, out
    assert "test_1_leaks left environment variables changed: GINGO_LEAK_PROBE" in out
    assert "3 passed, 1 error" in out  # the leak is an error of test 1; tests 2 and 3 pass


@pytest.mark.live
def test_the_live_server_launcher_leaves_this_process_environment_alone(tmp_path: Path) -> None:
    from tests.live_server import LiveServer

    before = dict(os.environ)
    srv = LiveServer(tmp_path / "data", fork=True).start()
    try:
        assert srv.get("/api/v1/health")["status"] == "ok"
        assert srv.pair()  # the code reached the server through its own environment
    finally:
        srv.kill()
    assert dict(os.environ) == before and "GINGO_PAIRING_CODE" not in os.environ

