"""gingo doctor against fake /dev and /proc roots."""

from __future__ import annotations

import doctest
import json
import os
import time
from pathlib import Path

import pytest

import companion.commands.doctor as doctor
import companion.hardware.checks as machine_checks
from companion.cli import main
from companion.hardware.checks import FAIL, OK, WARN, Check, Environment, run_checks
from companion.hardware.config import HardwareConfig, parse_config

BY_ID = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e66-if00"


def make_root(tmp_path: Path, model: str | None = "Raspberry Pi 4 Model B Rev 1.4", devices: tuple[str, ...] = ()) -> Path:
    root = tmp_path / "root"
    (root / "dev").mkdir(parents=True)
    if model is not None:
        (root / "proc/device-tree").mkdir(parents=True)
        (root / "proc/device-tree/model").write_bytes(model.encode() + b"\x00")
    for dev in devices:
        p = root / dev.lstrip("/")
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"")
    return root


def env_for(root: Path, *, groups: set[str] | None = None, listed: set[str] | None = None,
            modules: set[str] | None = None, usb: list[tuple[str, int | None, int | None]] | None = None,
            writable: bool = True, environ: dict[str, str] | None = None,
            probe: machine_checks.ProbeResult | None = None) -> Environment:
    active = {"gpio", "spi", "dialout"} if groups is None else groups
    mods = {"rpi_ws281x", "spidev", "serial", "gpiozero", "lgpio"} if modules is None else modules
    return Environment(
        root=root, user="pi", uid=1000, active_groups=active, listed_groups=active | (listed or set()),
        system_groups={"gpio", "spi", "dialout"}, find_module=lambda m: m in mods,
        list_usb=lambda: list(usb or []), environ=environ or {},
        access=lambda path, mode: writable,
        probe=lambda pin, workdir, lg_wd: probe or machine_checks.ProbeResult(True, "LGPIOFactory", None),
    )


def by_name(checks: list[Check]) -> dict[str, Check]:
    return {c.name: c for c in checks}


FULL = parse_config({
    "leds": {"backend": "spi"},
    "sensors": {"backend": "serial", "port": BY_ID},
    "buttons": {},
})


def test_docstring_example_runs() -> None:
    assert doctest.testmod(machine_checks).failed == 0
    assert doctest.testmod(doctor).failed == 0


def test_a_ready_pi4_passes(tmp_path: Path) -> None:
    root = make_root(tmp_path, devices=("/dev/gpiomem", "/dev/spidev0.0", BY_ID))
    checks = run_checks(FULL, env_for(root))
    bad = [c.line() for c in checks if c.status != OK]
    assert bad == [c.line() for c in checks if c.name == "device /dev/leds0"]  # Pi 4: no kernel LED driver
    got = by_name(checks)
    assert got["board"].detail == "Raspberry Pi 4 Model B Rev 1.4"
    assert got["serial ports"].detail == f"{BY_ID} present"
    assert got["gpiozero pins"].detail == "pin library: lgpio"


def test_pi5_with_ws281x_fails_and_names_the_alternatives(tmp_path: Path) -> None:
    root = make_root(tmp_path, "Raspberry Pi 5 Model B Rev 1.0", devices=("/dev/gpiomem0", "/dev/leds0"))
    cfg = parse_config({"leds": {"backend": "ws281x"}})
    board = by_name(run_checks(cfg, env_for(root)))["board"]
    assert board.status == FAIL and "leds_dev" in board.fix and "spi" in board.fix
    cfg = parse_config({"leds": {"backend": "leds_dev"}, "buttons": {}})
    got = by_name(run_checks(cfg, env_for(root)))
    assert got["board"].status == OK
    assert got["device /dev/gpiomem0"].status == OK  # the Pi 5's GPIO device
    assert got["device /dev/leds0"].status == OK


def test_missing_group_fails_only_when_needed(tmp_path: Path) -> None:
    root = make_root(tmp_path, devices=("/dev/gpiomem", "/dev/spidev0.0", BY_ID))
    got = by_name(run_checks(FULL, env_for(root, groups={"gpio", "dialout"})))
    assert got["group spi"].status == FAIL
    assert got["group spi"].fix == "sudo usermod -aG spi pi, then log in again"
    got = by_name(run_checks(HardwareConfig(), env_for(root, groups={"gpio", "dialout"})))
    assert got["group spi"].status == WARN  # on a Pi, but this config does not use SPI
    got = by_name(run_checks(FULL, env_for(root, groups={"gpio", "spi"}, listed={"dialout"})))
    assert got["group dialout"].status == FAIL and "log out and back in" in got["group dialout"].fix


def test_missing_or_locked_devices(tmp_path: Path) -> None:
    root = make_root(tmp_path, devices=("/dev/gpiomem",))
    got = by_name(run_checks(FULL, env_for(root)))
    spi = got["device /dev/spidev0.0"]
    assert spi.status == FAIL and "needed: leds.backend = 'spi'" in spi.detail and "dtparam=spi=on" in spi.fix
    assert spi.fix.startswith("on Raspberry Pi OS add 'dtparam=spi=on'") and "Debian's own kernel ignores" in spi.fix
    serial = got["serial ports"]
    assert serial.status == FAIL and "does not exist" in serial.detail
    root2 = make_root(tmp_path / "b", devices=("/dev/gpiomem", "/dev/spidev0.0", BY_ID))
    got = by_name(run_checks(FULL, env_for(root2, writable=False)))
    assert got["device /dev/spidev0.0"].status == FAIL and "cannot read and write" in got["device /dev/spidev0.0"].detail
    assert got["serial ports"].status == FAIL and "dialout" in got["serial ports"].fix


def test_serial_port_by_usb_id(tmp_path: Path) -> None:
    root = make_root(tmp_path, devices=("/dev/gpiomem", "/dev/spidev0.0", "/dev/ttyACM0"))
    cfg = parse_config({"sensors": {"backend": "serial", "port": "usb:2e8a:0005"}})
    ok = by_name(run_checks(cfg, env_for(root, usb=[("/dev/ttyACM0", 0x2E8A, 0x0005)])))["serial ports"]
    assert ok.status == OK and ok.detail == "usb:2e8a:0005 is /dev/ttyACM0"
    none = by_name(run_checks(cfg, env_for(root, usb=[("/dev/ttyUSB0", 0x10C4, 0xEA60)])))["serial ports"]
    assert none.status == FAIL and "found: ttyACM0" in none.detail and "data cable" in none.fix
    bad = parse_config({"sensors": {"backend": "serial", "port": "usb:pico"}})
    assert by_name(run_checks(bad, env_for(root)))["serial ports"].status == FAIL
    url = parse_config({"sensors": {"backend": "serial", "port": "socket://10.0.0.2:7000"}})
    assert by_name(run_checks(url, env_for(root)))["serial ports"].status == OK


def test_libraries_and_pin_factory(tmp_path: Path) -> None:
    root = make_root(tmp_path, devices=("/dev/gpiomem", "/dev/spidev0.0", BY_ID))
    got = by_name(run_checks(FULL, env_for(root, modules={"serial", "gpiozero"})))
    assert got["library spidev"].status == FAIL and got["library spidev"].fix == "pip install spidev"
    assert got["library rpi_ws281x"].status == WARN  # on a Pi, not needed by this config
    assert got["gpiozero pins"].status == FAIL and "lgpio" in got["gpiozero pins"].fix
    got = by_name(run_checks(FULL, env_for(root, environ={"GPIOZERO_PIN_FACTORY": "mock"})))
    assert got["gpiozero pins"].status == WARN and "unset GPIOZERO_PIN_FACTORY" in got["gpiozero pins"].fix


def test_off_a_pi(tmp_path: Path) -> None:
    root = make_root(tmp_path, model=None)
    checks = run_checks(HardwareConfig(), env_for(root, groups=set(), modules=set()))
    assert [(c.name, c.status) for c in checks if c.status != OK] == [("board", WARN)]
    got = by_name(run_checks(FULL, env_for(root)))
    assert got["board"].status == FAIL and "config names hardware" in got["board"].detail


def test_power_and_layout(tmp_path: Path) -> None:
    root = make_root(tmp_path)
    got = by_name(run_checks(parse_config({"leds": {"brightness": 1.0, "supply_amps": 2.0}}), env_for(root)))
    assert got["power"].status == WARN and "held at the cap" in got["power"].detail
    got = by_name(run_checks(parse_config({"leds": {"count": 64}}), env_for(root)))
    assert got["LED layout"].status == FAIL and "leds.count = 64" in got["LED layout"].detail
    bad = tmp_path / "layout.toml"
    bad.write_text("[layout]\nleds = [1, 2]\n")
    got = by_name(run_checks(parse_config({"leds": {"layout": str(bad)}}), env_for(root)))
    assert got["LED layout"].status == FAIL and "no LED for space" in got["LED layout"].detail


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_root(tmp_path, model=None)
    assert main(["doctor", "--root", str(root)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("OK    config: none (simulated board)")
    assert all(line.split()[0] in (OK, WARN, FAIL) for line in out[:-1])
    assert out[-1] == f"{len(out) - 1} checks: 0 failed, 1 warnings"

    cfg = tmp_path / "gingo.toml"
    cfg.write_text('[leds]\nbackend = "spi"\n')
    assert main(["doctor", "--root", str(root), "--config", str(cfg), "--json"]) == 1
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {r["name"]: r["status"] for r in rows}["device /dev/spidev0.0"] == FAIL

    cfg.write_text('[leds]\nbackend = "laser"\n')
    assert main(["doctor", "--root", str(root), "--config", str(cfg)]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("FAIL  config:") and "leds.backend 'laser'" in first


def test_default_config_location(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GINGO_CONFIG", raising=False)
    root = make_root(tmp_path, model=None)
    etc = root / "etc/gingo"
    etc.mkdir(parents=True)
    (etc / "gingo.toml").write_text('[leds]\nbrightness = 0.3\n')
    assert main(["doctor", "--root", str(root)]) == 0
    assert f"config: {etc / 'gingo.toml'}" in capsys.readouterr().out
    assert os.environ.get("GINGO_CONFIG") is None


def test_led_test_walks_the_chain_then_shows_orientation() -> None:
    from companion.commands.doctor import led_test
    from companion.hardware.layout import default_layout
    from companion.hardware.leds.sim import SimLeds

    frames: list[list[tuple[int, int, int]]] = []

    class Recorder(SimLeds):
        def _write(self, frame: list[tuple[int, int, int]], scaled: list[tuple[int, int, int]]) -> None:
            super()._write(frame, scaled)
            frames.append(frame)

    lay = default_layout()
    sleeps: list[float] = []
    leds = Recorder(count=60)
    led_test(leds, lay, {1: (255, 0, 0), 2: (0, 255, 0)}, step=0.01, hold=2.0, sleep=sleeps.append)
    assert len(frames) == 62
    for i in range(60):  # one white LED at a time, in chain order
        assert [j for j, c in enumerate(frames[i]) if c != (0, 0, 0)] == [i]
    orient = frames[60]
    assert orient[7] == (255, 0, 0)  # space 0 is LED 7 on the reference wiring
    assert orient[4] == (255, 255, 255)  # space 3
    assert orient[52] == (0, 255, 0)  # space 51
    assert [orient[i] for i in (0, 1, 2, 3, 56, 57, 58, 59)] == [(0, 0, 96)] * 8
    assert frames[61] == [(0, 0, 0)] * 60
    assert sleeps == [0.01] * 60 + [2.0]


def test_led_test_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_root(tmp_path, model=None)
    assert main(["doctor", "--root", str(root), "--led-test", "--led-step", "0", "--led-hold", "0"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[-1] == "OK    LED test: 60 LEDs lit in chain order on the sim backend"
    assert "a white light runs along the chain" in captured.err
    cfg = tmp_path / "gingo.toml"
    cfg.write_text(f'[leds]\nbackend = "leds_dev"\n[leds.leds_dev]\npath = "{tmp_path / "leds0"}"\n')
    assert main(["doctor", "--root", str(root), "--config", str(cfg), "--led-test", "--led-hold", "0"]) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("FAIL  LED test: LEDs:") and "leds0 does not exist" in last


def test_config_not_utf8_is_a_fail_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # used to stop doctor with "gingo doctor: error: 'utf-8' codec can't decode ..." (no file name)
    root = make_root(tmp_path, model=None)
    cfg = tmp_path / "gingo.toml"
    cfg.write_bytes(b"\xff\xfe[leds]\n")
    assert main(["doctor", "--root", str(root), "--config", str(cfg)]) == 1
    captured = capsys.readouterr()
    first = captured.out.splitlines()[0]
    assert first.startswith("FAIL  config:") and str(cfg) in first and "UTF-8" in first
    assert captured.err == ""


def test_closed_stdout_is_a_quiet_stop(tmp_path: Path) -> None:
    # `gingo doctor | head -1` used to end with "gingo doctor: error: [Errno 32] Broken pipe"
    import os
    import subprocess
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-m", "companion.cli", "doctor"], stdout=write_end,
                              stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(write_end)
    assert done.returncode == 141 and done.stderr == b""


def test_an_unexpected_exception_is_one_line_not_a_traceback(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    # anything outside ValueError/OSError/RuntimeError (e.g. an AttributeError from a
    # malformed file a check did not expect) used to print a traceback
    import companion.commands.doctor as doctor_mod

    def broken(args: object) -> int:
        raise AttributeError("'NoneType' object has no attribute 'items'")

    monkeypatch.setattr(doctor_mod, "run", broken)
    monkeypatch.delenv("GINGO_DEBUG", raising=False)
    assert main(["doctor"]) == 70
    err = capsys.readouterr().err
    assert err.startswith("gingo doctor: internal error (AttributeError: ") and err.count("\n") == 1
    assert "Traceback" not in err
    monkeypatch.setenv("GINGO_DEBUG", "1")
    with pytest.raises(AttributeError):
        main(["doctor"])


@pytest.mark.parametrize("flag, value", [("--led-step", "nan"), ("--led-step", "inf"), ("--led-step", "-1"),
                                         ("--led-hold", "1e300"), ("--led-hold", "nan")])
def test_led_test_times_must_be_sane(tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str,
                                     value: str) -> None:
    # inf or 1e300 reached time.sleep: OverflowError traceback; nan said only "Invalid value NaN"
    root = make_root(tmp_path, model=None)
    assert main(["doctor", "--root", str(root), "--led-test", flag, value]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"gingo doctor: error: {flag} must be a number of seconds")


# ---- the GPIO chip opened as the service opens it ----------------------------------


def test_gpio_probe_uses_the_units_working_directory_and_lg_wd(tmp_path: Path) -> None:
    """The doctor reads WorkingDirectory and LG_WD from the installed unit and opens the
    chip there (under --root), watching the confirm button's pin."""
    import subprocess

    root = make_root(tmp_path, "Raspberry Pi 5 Model B Rev 1.0", devices=("/dev/gpiomem0",))
    script = Path(__file__).resolve().parent.parent / "hardware/pi/install.sh"
    env = dict(os.environ, ROOT=str(root), SKIP_APT="1", SKIP_USER="1", SKIP_PIP="1", SKIP_BOOT="1")
    subprocess.run(["bash", str(script)], env=env, check=True, capture_output=True, timeout=60)
    (root / "var/lib/gingo").mkdir(parents=True)
    calls: list[tuple[int | None, str | None, str | None]] = []

    def probe(pin: int | None, workdir: str | None, lg_wd: str | None) -> machine_checks.ProbeResult:
        calls.append((pin, workdir, lg_wd))
        return machine_checks.probe_gpio(pin, workdir=workdir, lg_wd=lg_wd, environ={"GPIOZERO_PIN_FACTORY": "mock"})

    e = env_for(root)
    e.probe = probe
    cfg = parse_config({"buttons": {"confirm": 5}})
    got = by_name(run_checks(cfg, e))["gpio open"]
    state = str(root / "var/lib/gingo")
    assert calls == [(5, state, state)]
    assert got.status == OK, got.line()
    assert got.detail == "MockFactory opened the GPIO chip and watched GPIO5 for presses as gingo.service would " \
        "(in /var/lib/gingo, LG_WD=/var/lib/gingo)"


def test_gpio_probe_failures_name_the_fix(tmp_path: Path) -> None:
    root = make_root(tmp_path, "Raspberry Pi 5 Model B Rev 1.0")
    cfg = parse_config({"buttons": {}})
    pipe = machine_checks.ProbeResult(False, None, "FileNotFoundError: [Errno 2] No such file or directory: '.lgd-nfy-3'")
    got = by_name(run_checks(cfg, env_for(root, probe=pipe)))["gpio open"]
    assert got.status == FAIL and "WorkingDirectory=/var/lib/gingo" in got.fix and ".lgd-nfy-3" in got.detail
    busy = machine_checks.ProbeResult(False, "LGPIOFactory", "GPIOPinInUse: pin GPIO17 is already in use")
    got = by_name(run_checks(cfg, env_for(root, probe=busy)))["gpio open"]
    assert got.status == FAIL and "systemctl stop gingo" in got.fix and "GPIO17" in got.fix
    nolib = machine_checks.ProbeResult(False, None, "BadPinFactory: Unable to load any default pin factory!",
                               ("Falling back from lgpio: No module named 'lgpio'",))
    got = by_name(run_checks(cfg, env_for(root, probe=nolib)))["gpio open"]
    assert got.status == FAIL and "python3-lgpio" in got.fix and "No module named 'lgpio'" in got.detail
    # a config without buttons or ADC on a Pi: the same failure is only a warning
    got = by_name(run_checks(HardwareConfig(), env_for(root, probe=nolib)))["gpio open"]
    assert got.status == WARN


def test_an_old_unit_running_in_root_fails_before_probing(tmp_path: Path) -> None:
    root = make_root(tmp_path, "Raspberry Pi 5 Model B Rev 1.0")
    unit = root / "etc/systemd/system/gingo.service"
    unit.parent.mkdir(parents=True)
    unit.write_text("[Service]\nUser=gingo\nEnvironment=GINGO_DATA=/var/lib/gingo\nExecStart=/x serve\n")
    got = by_name(run_checks(parse_config({"buttons": {}}), env_for(root)))["gpio open"]
    assert got.status == FAIL and "runs in / with no LG_WD" in got.detail and "install.sh" in got.fix


def test_the_real_probe_reports_a_missing_pin_library_and_a_bad_lg_wd(tmp_path: Path) -> None:
    """The child process really runs gpiozero's default factory selection: on this
    machine (no lgpio, not a Pi) it fails, and says why for each library it tried."""
    environ = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    r = machine_checks.probe_gpio(17, workdir=str(tmp_path), environ=environ)
    if r.ok:  # pragma: no cover - only on a machine with working GPIO
        pytest.skip("this machine has a working pin library")
    assert "Unable to load any default pin factory" in (r.error or "")
    assert any("lgpio" in f for f in r.fallbacks)
    r = machine_checks.probe_gpio(17, lg_wd=str(tmp_path / "missing"), environ={"GPIOZERO_PIN_FACTORY": "mock"})
    assert not r.ok and "LG_WD directory" in (r.error or "")
    assert "install.sh" in doctor.advice(r.reason(), 17)


# ---- talking to the Pico: its HELLO, its ERROR, who holds the port ----


class FakePico:
    """The Pico's end of a pty that answers every HELLO request with ``answer``."""

    def __init__(self, answer: bytes) -> None:
        import os
        import threading

        self.master, slave = os.openpty()
        self.port = os.ttyname(slave)
        os.close(slave)
        self.answer = answer
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import os
        import select

        from companion.hardware.framing import HELLO, Frame, FrameSplitter

        splitter = FrameSplitter()
        while not self._stop.is_set():
            if not select.select([self.master], [], [], 0.05)[0]:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:  # no one has the port open yet
                time.sleep(0.02)
                continue
            for item in splitter.feed(data):
                if isinstance(item, Frame) and item.type == HELLO and not item.payload:
                    os.write(self.master, self.answer)

    def close(self) -> None:
        import os

        self._stop.set()
        self._thread.join(2)
        os.close(self.master)


def _pico_config(port: str, leds: str = "pico") -> HardwareConfig:
    return parse_config({"leds": {"backend": leds, "count": 60}, "sensors": {"backend": "serial", "port": port}})


@pytest.mark.parametrize(("hello_leds", "backend", "status", "words"), [
    (60, "pico", OK, "firmware 1.0.0 on board gingo-1: 52 spaces at 220/s, 60 LEDs"),
    (0, "pico", FAIL, "drives no LEDs (its HELLO says leds 0), but leds.backend = 'pico'"),
    (30, "pico", FAIL, "drives 30 LEDs (LED_COUNT in its config.py), but leds.count = 60"),
    (60, "spi", WARN, "also drives 60 LEDs on its LED_PIN (GP16), but leds.backend = 'spi'"),
])
def test_doctor_asks_the_pico_and_compares_its_hello_with_the_led_config(
        hello_leds: int, backend: str, status: str, words: str) -> None:
    import json

    from companion.hardware.checks import check_pico
    from companion.hardware.framing import HELLO, encode_frame

    hello = {"fw": "1.0.0", "board": "gingo-1", "spaces": 52, "rate": 220, "leds": hello_leds}
    pico = FakePico(encode_frame(HELLO, 0, json.dumps(hello).encode()))
    try:
        [check] = check_pico(_pico_config(pico.port, backend), wait=10)
    finally:
        pico.close()
    assert check.name == "Pico firmware" and check.status == status and words in check.detail, check


def test_doctor_reports_a_pico_that_refuses_to_run() -> None:
    from companion.hardware.checks import check_pico
    from companion.hardware.framing import ERROR, encode_frame

    why = "firmware: unsupported chip: RP2350 (Raspberry Pi Pico2 with RP2350); this firmware knows the RP2040's"
    pico = FakePico(encode_frame(ERROR, 0, why.encode()))
    try:
        [check] = check_pico(_pico_config(pico.port), wait=10)
    finally:
        pico.close()
    assert check.status == FAIL and check.detail == f"the Pico reports: {why}" and "RP2040" in check.fix


def test_doctor_says_the_companion_holds_the_port_and_a_silent_pico_fails(tmp_path: Path) -> None:
    from companion.hardware.checks import check_pico
    from companion.hardware.sensors.serial import SerialSensors

    pico = FakePico(b"")  # says nothing at all (the safe-mode jumper, or no firmware)
    try:
        [silent] = check_pico(_pico_config(pico.port), wait=1)
        held = SerialSensors(pico.port)  # the running service has it
        try:
            [busy] = check_pico(_pico_config(pico.port), wait=1)
        finally:
            held.close()
    finally:
        pico.close()
    assert silent.status == FAIL and "no HELLO" in silent.detail and "safe-mode jumper" in silent.fix
    assert busy.status in (WARN, FAIL) and "in use by" in busy.detail, busy
