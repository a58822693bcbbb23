"""The Pi install script, run against a scratch root (no apt, users, pip or systemd)."""

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "hardware" / "pi" / "install.sh"


def _run(root: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = dict(os.environ, ROOT=str(root), SKIP_APT="1", SKIP_USER="1", SKIP_PIP="1", **env)
    return subprocess.run(["bash", str(SCRIPT)], env=full, capture_output=True, text=True,
                          timeout=60, check=False)


def test_writes_a_restarting_unit_for_a_dedicated_user(tmp_path):
    r = _run(tmp_path, GINGO_PORT="8123")
    assert r.returncode == 0, r.stderr
    unit = (tmp_path / "etc/systemd/system/gingo.service").read_text()
    assert "Restart=on-failure" in unit
    assert "User=gingo" in unit
    assert "SupplementaryGroups=gpio spi dialout" in unit
    assert "StateDirectory=gingo" in unit
    assert "--port 8123" in unit
    assert (tmp_path / "etc/gingo/gingo.toml").is_file()
    rule = (tmp_path / "etc/polkit-1/rules.d/50-gingo-poweroff.rules").read_text()
    assert "org.freedesktop.login1.power-off" in rule and 'subject.user == "gingo"' in rule


def test_running_again_keeps_the_owners_settings(tmp_path):
    assert _run(tmp_path).returncode == 0
    cfg = tmp_path / "etc/gingo/gingo.toml"
    cfg.write_text("# mine\n")
    r = _run(tmp_path)
    assert r.returncode == 0, r.stderr
    assert cfg.read_text() == "# mine\n"
    assert "keeping your" in r.stdout
    assert not list((tmp_path / "etc/systemd/system").glob("*.tmp"))

