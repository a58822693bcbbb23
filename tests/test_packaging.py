"""An installed wheel behaves like the checkout: the board's default TOML files (pin map,
LED layout) are package data, read from the package, never from the working directory."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEFAULTS = ("companion/hardware/defaults/pinmap.toml", "companion/hardware/defaults/led_layout.toml")


def test_the_defaults_live_in_the_package_not_in_hardware() -> None:
    for name in DEFAULTS:
        assert (ROOT / name).is_file(), name
        assert not (ROOT / "hardware" / Path(name).name).exists(), f"hardware/{Path(name).name} came back"


@pytest.mark.slow
def test_an_installed_wheel_reads_its_own_defaults(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(ROOT / "companion", src / "companion", ignore=shutil.ignore_patterns("__pycache__"))
    for f in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / f, src / f)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                            "-w", str(tmp_path / "dist"), str(src)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("gingo_companion-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        assert set(DEFAULTS) <= names, sorted(n for n in names if "hardware" in n)
        zf.extractall(tmp_path / "site")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = (
        "import companion, json\n"
        "from companion.hardware.layout import load_layout, default_layout\n"
        "from companion.hardware.buttons import load_button_pins\n"
        "print(json.dumps({'file': companion.__file__, 'layout': load_layout() == default_layout(),\n"
        "                  'pins': load_button_pins()}))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=elsewhere, capture_output=True, text=True,
                          timeout=60, env={"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    import json

    got = json.loads(done.stdout)
    assert got["file"].startswith(str(tmp_path / "site")), got["file"]  # the wheel's copy, not the checkout
    assert got["layout"] is True
    assert got["pins"] == {"confirm": 17, "undo": 27, "next_hand": 22, "shutdown": 23}
