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
    for name in ("pinmap.toml", "led_layout.toml"):  # copies of the packaged defaults, to edit
        packaged = SCRIPT.parents[2] / "companion/hardware/defaults" / name
        assert (tmp_path / "etc/gingo" / f"{name}.default").read_bytes() == packaged.read_bytes()
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



def test_unit_gives_lgpio_a_writable_working_directory(tmp_path):
    """lgpio makes its .lgd-nfy pipes in LG_WD or the working directory: "/" is not
    writable for the service user (Pi 5 buttons were dead under systemd)."""
    assert _run(tmp_path).returncode == 0
    unit = (tmp_path / "etc/systemd/system/gingo.service").read_text()
    assert "WorkingDirectory=/var/lib/gingo" in unit
    assert "Environment=LG_WD=/var/lib/gingo" in unit
    assert "StateDirectory=gingo" in unit  # systemd creates /var/lib/gingo owned by the user


def test_udev_rule_for_the_pi5_led_device(tmp_path):
    assert _run(tmp_path).returncode == 0
    rule = (tmp_path / "etc/udev/rules.d/99-gingo-leds.rules").read_text()
    assert 'KERNEL=="leds[0-9]*", GROUP="gpio", MODE="0660"' in rule


def _pi(root: Path, model: str, config: str = "# stock\ndtparam=audio=on\n") -> Path:
    (root / "proc/device-tree").mkdir(parents=True)
    (root / "proc/device-tree/model").write_bytes(model.encode() + b"\x00")
    cfg = root / "boot/firmware/config.txt"
    cfg.parent.mkdir(parents=True)
    cfg.write_text(config)
    return cfg


def _block(cfg: Path) -> list[str]:
    lines = cfg.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# >>> gingo"))
    end = lines.index("# <<< gingo")
    return lines[start + 1:end]


def test_core_clock_for_every_supported_pi(tmp_path):
    cases = {
        "Raspberry Pi 4 Model B Rev 1.4": "core_freq_min=500",
        "Raspberry Pi 400 Rev 1.0": "core_freq_min=500",
        "Raspberry Pi 3 Model B Plus Rev 1.3": "core_freq=250",
        "Raspberry Pi Zero 2 W Rev 1.0": "core_freq=250",
        "Raspberry Pi 5 Model B Rev 1.0": None,
    }
    for n, (model, want) in enumerate(cases.items()):
        root = tmp_path / str(n)
        cfg = _pi(root, model)
        r = _run(root)
        assert r.returncode == 0, r.stderr
        block = _block(cfg)
        assert "dtparam=spi=on" in block
        assert [x for x in block if x.startswith("core_freq")] == ([want] if want else []), model
        assert cfg.read_text().startswith("# stock\ndtparam=audio=on\n")  # the owner's lines stay
        if want:
            assert "reboot" in r.stdout


def test_config_txt_block_is_rewritten_not_repeated(tmp_path):
    cfg = _pi(tmp_path, "Raspberry Pi Zero 2 W Rev 1.0")
    assert _run(tmp_path).returncode == 0
    first = cfg.read_text()
    r = _run(tmp_path)
    assert cfg.read_text() == first and "keeping" in r.stdout
    (tmp_path / "proc/device-tree/model").write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\x00")  # card moved
    assert _run(tmp_path).returncode == 0
    assert cfg.read_text().count("# >>> gingo") == 1
    assert "core_freq_min=500" in _block(cfg) and "core_freq=250" not in _block(cfg)
    assert _run(tmp_path, SKIP_BOOT="1").returncode == 0 and "core_freq_min=500" in cfg.read_text()


def test_an_existing_core_clock_line_is_flagged(tmp_path):
    _pi(tmp_path, "Raspberry Pi 4 Model B Rev 1.4", "core_freq=400\n")
    r = _run(tmp_path)
    assert r.returncode == 0 and "already sets a core clock" in r.stdout


def test_no_device_tree_is_a_warning_not_a_shell_error(tmp_path):
    """A kernel without /proc/device-tree (a PC, QEMU's virt machine): the script said
    'No such file or directory' from a failed redirection before its own warning."""
    cfg = tmp_path / "boot/firmware/config.txt"
    cfg.parent.mkdir(parents=True)
    cfg.write_text("# stock\n")
    r = _run(tmp_path)
    assert r.returncode == 0, r.stderr
    assert "No such file" not in r.stderr + r.stdout
    assert "no /proc/device-tree/model" in r.stdout
    assert "dtparam=spi=on" in _block(cfg) and not [x for x in _block(cfg) if x.startswith("core_freq")]


DEBIAN_CONFIG_TXT = """# Do not modify this file!
#
# It is automatically generated upon install or update of either the
# firmware or the Linux kernel.
#
# If you need to set boot-time parameters, do so via the
# /etc/default/raspi-firmware, /etc/default/raspi-firmware-custom or
# /etc/default/raspi-extra-cmdline files.
arm_64bit=1
"""


def test_debian_keeps_the_lines_in_raspi_firmware_custom(tmp_path):
    """Debian's raspi-firmware writes config.txt afresh on every kernel update and appends
    /etc/default/raspi-firmware-custom: the block goes there too, and the SPI note says
    that Debian's kernel ignores dtparam=spi=on."""
    cfg = _pi(tmp_path, "Raspberry Pi 4 Model B Rev 1.4", DEBIAN_CONFIG_TXT)
    custom = tmp_path / "etc/default/raspi-firmware-custom"
    custom.parent.mkdir(parents=True)
    custom.write_text("gpu_mem=16\n")
    r = _run(tmp_path)
    assert r.returncode == 0, r.stderr
    assert "core_freq_min=500" in _block(custom) and "core_freq_min=500" in _block(cfg)
    assert custom.read_text().startswith("gpu_mem=16\n")  # the owner's line stays
    assert "Debian's own kernel ignores dtparam=spi=on" in r.stdout
    first = custom.read_text()
    assert _run(tmp_path).returncode == 0 and custom.read_text() == first  # rewritten, not repeated


def test_raspberry_pi_os_config_txt_has_no_custom_file(tmp_path):
    _pi(tmp_path, "Raspberry Pi 5 Model B Rev 1.0")
    r = _run(tmp_path)
    assert r.returncode == 0, r.stderr
    assert not (tmp_path / "etc/default/raspi-firmware-custom").exists()
    assert "Debian's own kernel" not in r.stdout


def test_the_unit_is_the_packages_template_hardened(tmp_path):
    """install.sh and the .deb write the same unit (hardware/pi/gingo.service)."""
    assert _run(tmp_path, GINGO_USER="board", GINGO_PORT="8001").returncode == 0
    unit = (tmp_path / "etc/systemd/system/gingo.service").read_text()
    template = (SCRIPT.parent / "gingo.service").read_text()
    assert unit == template.replace("@GINGO_USER@", "board").replace("@GINGO_PORT@", "8001")
    for line in ("NoNewPrivileges=yes", "ProtectSystem=strict", "CapabilityBoundingSet=", "PrivateTmp=yes"):
        assert line in unit.splitlines()
    assert "@" not in unit.replace("@system-service", "")
    rule = (tmp_path / "etc/polkit-1/rules.d/50-gingo-poweroff.rules").read_text()
    assert 'subject.user == "board"' in rule


def test_gingo_is_on_the_path(tmp_path):
    """pi-check's install.sh guest found no 'gingo' for 'gingo doctor' (the .deb has
    /usr/bin/gingo): the script links /usr/local/bin/gingo to the venv's script."""
    assert _run(tmp_path).returncode == 0
    link = tmp_path / "usr/local/bin/gingo"
    assert link.is_symlink() and os.readlink(link) == "/opt/gingo/venv/bin/gingo"
    assert _run(tmp_path).returncode == 0 and os.readlink(link) == "/opt/gingo/venv/bin/gingo"  # again: no error
