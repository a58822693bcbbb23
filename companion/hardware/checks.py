"""What ``gingo doctor`` checks on this machine for a hardware config: the board, the
user's groups, the devices (SPI, /dev/leds, the serial port), the libraries, opening the
GPIO chip, the power budget and the LED layout. Each check is a :class:`Check`, ``OK``,
``WARN`` or ``FAIL``, with the fix. A check FAILs only when the hardware config needs the
missing piece (an LED backend, the sensor port, buttons); otherwise it is a WARN.

The checks read ``/dev`` and ``/proc`` under ``--root`` (default ``/``), so the tests
run them against a fake machine:

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> env = Environment(root=root, user="pi", uid=1000, active_groups=set(), listed_groups=set(),
...                   system_groups=set(), find_module=lambda name: False, list_usb=list, environ={})
>>> [c.detail for c in run_checks(HardwareConfig(), env) if c.name == "gpio open"]
['not needed by this config (no buttons, no ADC chips)']
>>> checks = run_checks(HardwareConfig(), env)
>>> [c.status for c in checks if c.name == "board"]
['WARN']
>>> any(c.status == "FAIL" for c in checks)
False
"""

from __future__ import annotations

import grp
import importlib.util
import os
import pwd
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from companion.hardware.config import HardwareConfig
from companion.hardware.gpioprobe import ProbeResult, advice, probe_gpio, service_gpio_env
from companion.hardware.layout import SLOT_NAMES, LayoutError, load_layout
from companion.hardware.leds.leds_dev import OVERLAY_LINE
from companion.hardware.leds.pimodel import is_pi5, is_raspberry_pi, read_pi_model
from companion.hardware.power import PowerBudgetError

__all__ = ["FAIL", "OK", "WARN", "Check", "Environment", "ProbeResult", "advice", "check_pico", "probe_gpio",
           "run_checks"]

OK, WARN, FAIL = "OK", "WARN", "FAIL"


@dataclass(frozen=True)
class Check:
    """One line of the report."""

    name: str
    status: str
    detail: str
    fix: str = ""

    def line(self) -> str:
        text = f"{self.status:<4}  {self.name}: {self.detail}"
        return f"{text} -> {self.fix}" if self.fix and self.status != OK else text


UsbPort = tuple[str, "int | None", "int | None"]  # device, vendor id, product id


def _real_usb_ports() -> list[UsbPort]:
    try:
        from serial.tools import list_ports
    except ImportError:
        return []
    return [(p.device, p.vid, p.pid) for p in list_ports.comports()]


def _real_probe(pin: int | None, workdir: str | None, lg_wd: str | None) -> ProbeResult:
    return probe_gpio(pin, workdir=workdir, lg_wd=lg_wd)


def _find_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


@dataclass
class Environment:
    """What the checks look at; :meth:`current` reads the real machine."""

    root: Path
    user: str
    uid: int
    active_groups: set[str]  # groups of this process (take effect after a new login)
    listed_groups: set[str]  # groups /etc/group lists the user in
    system_groups: set[str]  # groups that exist at all
    find_module: Callable[[str], bool] = _find_module
    list_usb: Callable[[], list[UsbPort]] = _real_usb_ports
    environ: Mapping[str, str] = field(default_factory=dict)
    access: Callable[[Path, int], bool] = os.access
    #: opens the GPIO chip through gpiozero's default factory: (pin, workdir, LG_WD)
    probe: Callable[[int | None, str | None, str | None], ProbeResult] = _real_probe

    @classmethod
    def current(cls, root: str | Path = "/") -> Environment:
        uid = os.getuid()
        try:
            user = pwd.getpwuid(uid).pw_name
        except KeyError:
            user = str(uid)
        active: set[str] = set()
        for gid in os.getgroups() + [os.getgid()]:
            try:
                active.add(grp.getgrgid(gid).gr_name)
            except KeyError:
                continue
        all_groups = grp.getgrall()
        listed = {g.gr_name for g in all_groups if user in g.gr_mem}
        return cls(
            root=Path(root),
            user=user,
            uid=uid,
            active_groups=active,
            listed_groups=listed | active,
            system_groups={g.gr_name for g in all_groups},
            list_usb=_real_usb_ports if str(root) == "/" else list,
            environ=dict(os.environ),
        )

    def path(self, absolute: str) -> Path:
        return self.root / absolute.lstrip("/")


def _needs(cfg: HardwareConfig) -> dict[str, str]:
    """What this config needs: need name -> why."""
    needs: dict[str, str] = {}
    if cfg.leds == "spi":
        needs["spi"] = "leds.backend = 'spi'"
    if cfg.leds == "leds_dev":
        needs["leds_dev"] = "leds.backend = 'leds_dev'"
    if cfg.leds == "ws281x":
        needs["ws281x"] = "leds.backend = 'ws281x'"
    if cfg.sensors == "serial" or cfg.leds == "pico":
        needs["serial"] = "sensors.backend = 'serial'"
    if cfg.buttons is not None:
        needs["gpio"] = "buttons are enabled"
    if cfg.sensors == "adc":
        needs["gpio"] = "sensors.backend = 'adc'"
        needs["spi"] = "sensors.backend = 'adc'"
    return needs


def _missing(need: str, needs: Mapping[str, str]) -> str:
    """FAIL if the config needs it; WARN on a Pi (another backend might); else OK."""
    if need in needs:
        return FAIL
    return WARN if needs.get("_on_pi") else OK


def _why(need: str, needs: Mapping[str, str]) -> str:
    return f" (needed: {needs[need]})" if need in needs else " (not needed by this config)"


def check_board(env: Environment, cfg: HardwareConfig) -> Check:
    model = read_pi_model(env.root)
    if model is None or not is_raspberry_pi(model):
        hardware = cfg.leds != "sim" or cfg.sensors != "sim" or cfg.buttons is not None
        what = f"not a Raspberry Pi ({model or 'no model in /proc'})"
        if hardware:
            return Check("board", FAIL, f"{what}, but the config names hardware",
                         "hardware backends only run on a Pi; set leds and sensors to 'sim' and disable buttons here")
        return Check("board", WARN, f"{what}; only the simulated board works here")
    if is_pi5(model) and cfg.leds == "ws281x":
        return Check("board", FAIL, f"{model}: rpi_ws281x does not run on a Pi 5",
                     "set leds.backend = 'leds_dev' or 'spi' in the config")
    return Check("board", OK, model)


def check_service(env: Environment) -> Check:
    """What the running ``gingo serve`` costs (its CPU over a second, from ``/proc``)."""
    from companion.hardware.cost import service_cost

    status, detail = service_cost(env.path("/proc"), read_pi_model(env.root))
    return Check("service", status, detail, "see what keeps it busy in its log: journalctl -u gingo")


def check_groups(env: Environment, needs: Mapping[str, str]) -> list[Check]:
    uses = {"gpio": "gpio", "spi": "spi", "dialout": "serial"}
    out: list[Check] = []
    for group, need in uses.items():
        name = f"group {group}"
        if env.uid == 0:
            out.append(Check(name, OK, "running as root"))
        elif group in env.active_groups:
            out.append(Check(name, OK, f"{env.user} is a member"))
        elif group in env.listed_groups:
            out.append(Check(name, _missing(need, needs), f"{env.user} was added but this login does not have it yet",
                             "log out and back in (or reboot)"))
        elif group not in env.system_groups:
            out.append(Check(name, _missing(need, needs), f"no group {group} on this system",
                             "use Raspberry Pi OS, or create the group and a udev rule for its devices"))
        else:
            out.append(Check(name, _missing(need, needs), f"{env.user} is not a member",
                             f"sudo usermod -aG {group} {env.user}, then log in again"))
    return out


def _device(env: Environment, path: str, need: str, needs: Mapping[str, str], fix_missing: str,
            fix_access: str) -> Check:
    p = env.path(path)
    name = f"device {path}"
    if not p.exists():
        return Check(name, _missing(need, needs), "missing" + _why(need, needs), fix_missing)
    if not env.access(p, os.R_OK | os.W_OK):
        return Check(name, _missing(need, needs), f"present, but {env.user} cannot read and write it", fix_access)
    return Check(name, OK, "present and writable")


def check_devices(env: Environment, cfg: HardwareConfig, needs: Mapping[str, str]) -> list[Check]:
    pi5 = is_pi5(read_pi_model(env.root))
    gpiomem = "/dev/gpiomem0" if pi5 else "/dev/gpiomem"
    out = [
        _device(env, gpiomem, "gpio", needs, "enable GPIO access (Raspberry Pi OS provides it)",
                "add the user to the gpio group"),
        _device(env, "/dev/spidev0.0", "spi", needs, "on Raspberry Pi OS add 'dtparam=spi=on' to "
                "/boot/firmware/config.txt and reboot; Debian's own kernel ignores that line (SPI0 is off in its "
                "device trees): see docs/install.md, SPI on Debian's kernel",
                "add the user to the spi group"),
        _device(env, "/dev/leds0", "leds_dev", needs, "on a Pi 5 bring the kernel up to date (sudo apt update && "
                f"sudo apt full-upgrade; the driver came with late-2024 kernels), add '{OVERLAY_LINE}' to "
                "/boot/firmware/config.txt and reboot", "add the udev rule from docs/hardware.md (KERNEL==\"leds[0-9]*\", GROUP=\"gpio\")"),
    ]
    out.append(check_serial(env, cfg, needs))
    return out


def check_serial(env: Environment, cfg: HardwareConfig, needs: Mapping[str, str]) -> Check:
    by_id = env.path("/dev/serial/by-id")
    found = sorted(p.name for p in by_id.iterdir()) if by_id.is_dir() else []
    acm = sorted(p.name for p in env.path("/dev").glob("ttyACM*")) if env.path("/dev").is_dir() else []
    seen = ", ".join(found or acm) or "none"
    port = cfg.sensor_port
    if port is None or "serial" not in needs:
        status = OK if (found or acm) else _missing("serial", needs)
        return Check("serial ports", status, f"found: {seen}", "plug the Pico in with a data cable if your board has one")
    if "://" in port:
        return Check("serial ports", OK, f"sensors.port is the pyserial URL {port} (not checked); found: {seen}")
    if port.lower().startswith("usb:"):
        try:
            vid, pid = (int(x, 16) for x in port.split(":")[1:3])
        except ValueError:
            return Check("serial ports", FAIL, f"sensors.port {port!r} is not usb:VID:PID in hex",
                         "write it like usb:2e8a:0005")
        for device, dev_vid, dev_pid in env.list_usb():
            if (dev_vid, dev_pid) == (vid, pid):
                return Check("serial ports", OK, f"{port} is {device}")
        return Check("serial ports", FAIL, f"no USB serial device {vid:04x}:{pid:04x}; found: {seen}",
                     "plug the Pico in with a data cable (not a charge-only one) and flash the firmware")
    device_path = env.path(port)
    if not device_path.exists():
        return Check("serial ports", FAIL, f"sensors.port {port} does not exist; found: {seen}",
                     "plug the Pico in, or set sensors.port to one of /dev/serial/by-id/*")
    if not env.access(device_path, os.R_OK | os.W_OK):
        return Check("serial ports", FAIL, f"{port} is present but {env.user} cannot open it",
                     f"sudo usermod -aG dialout {env.user}, then log in again")
    return Check("serial ports", OK, f"{port} present")


def check_libraries(env: Environment, cfg: HardwareConfig, needs: Mapping[str, str]) -> list[Check]:
    libs = [
        ("rpi_ws281x", "ws281x", "pip install rpi-ws281x (Pi 4 and older only)"),
        ("spidev", "spi", "pip install spidev"),
        ("serial", "serial", "pip install pyserial"),
    ]
    out: list[Check] = []
    for module, need, fix in libs:
        if env.find_module(module):
            out.append(Check(f"library {module}", OK, "importable"))
        else:
            out.append(Check(f"library {module}", _missing(need, needs), "not installed" + _why(need, needs), fix))
    factory = env.environ.get("GPIOZERO_PIN_FACTORY")
    if factory:
        status = WARN if factory == "mock" and "gpio" in needs else OK
        out.append(Check("gpiozero pins", status, f"GPIOZERO_PIN_FACTORY={factory}",
                         "unset GPIOZERO_PIN_FACTORY to use the real pins" if status == WARN else ""))
    elif not env.find_module("gpiozero"):
        out.append(Check("gpiozero pins", _missing("gpio", needs), "gpiozero is not installed", "pip install gpiozero"))
    elif env.find_module("lgpio") or env.find_module("RPi.GPIO") or env.find_module("pigpio"):
        names = [m for m in ("lgpio", "RPi.GPIO", "pigpio") if env.find_module(m)]
        out.append(Check("gpiozero pins", OK, f"pin library: {', '.join(names)}"))
    else:
        out.append(Check("gpiozero pins", _missing("gpio", needs), "no pin library (lgpio, RPi.GPIO)" + _why("gpio", needs),
                         "sudo apt install python3-lgpio, or pip install lgpio"))
    return out


def check_gpio_open(env: Environment, cfg: HardwareConfig, needs: Mapping[str, str]) -> Check:
    """Open the GPIO chip through gpiozero's default factory in the service's working
    directory and with its LG_WD (read from the installed unit), and watch the confirm
    button for presses: what the service does at start (lgpio's notification pipe)."""
    name = "gpio open"
    if "gpio" not in needs and not needs.get("_on_pi"):
        return Check(name, OK, "not needed by this config (no buttons, no ADC chips)")
    pin = cfg.buttons.get("confirm") if cfg.buttons else None
    workdir, lg_wd = service_gpio_env(env.root)
    if workdir is not None and lg_wd is None and workdir.rstrip("/") == "":
        return Check(name, _missing("gpio", needs),
                     "the installed gingo.service runs in / with no LG_WD: lgpio cannot create its pipes there, "
                     "so the buttons stay dead under systemd",
                     "run hardware/pi/install.sh again (it sets WorkingDirectory=/var/lib/gingo and LG_WD)")
    where = ("as gingo.service would" + (f" (in {workdir}" if workdir else " (") + (f", LG_WD={lg_wd})" if lg_wd else ")")
             if workdir is not None or lg_wd is not None else "in this directory (no gingo.service installed)")
    result = env.probe(pin, str(env.path(workdir)) if workdir else None, str(env.path(lg_wd)) if lg_wd else None)
    what = "opened the GPIO chip" + (f" and watched GPIO{pin} for presses" if pin is not None else "")
    if result.ok:
        return Check(name, OK, f"{result.factory} {what} {where}")
    reason = result.reason()
    return Check(name, _missing("gpio", needs), f"gpiozero could not start {where}: {reason}", advice(reason, pin))


def check_power_and_layout(cfg: HardwareConfig) -> list[Check]:
    out: list[Check] = []
    try:
        cap = cfg.brightness_cap()
    except PowerBudgetError as exc:
        out.append(Check("power", FAIL, str(exc)))
    else:
        detail = f"{cfg.led_count} LEDs on a {cfg.supply_amps:g} A supply: brightness cap {cap:.2f}"
        if cfg.brightness > cap:
            out.append(Check("power", WARN, f"{detail}; leds.brightness {cfg.brightness:g} will be held at the cap",
                             "lower leds.brightness, or fit a bigger 5 V supply and raise leds.supply_amps"))
        else:
            out.append(Check("power", OK, f"{detail}, brightness {cfg.brightness:g}"))
    try:
        layout = load_layout(cfg.layout)
    except (LayoutError, OSError) as exc:
        out.append(Check("LED layout", FAIL, str(exc), "fix the layout file (see companion/hardware/defaults/led_layout.toml)"))
        return out
    slots = sum(layout.has_slot(n) for n in SLOT_NAMES)
    detail = f"{layout.count} LEDs: 52 spaces and {slots} marker slots"
    if layout.count != cfg.led_count:
        out.append(Check("LED layout", FAIL, f"{detail}, but leds.count = {cfg.led_count}",
                         "make leds.count match the layout"))
    else:
        out.append(Check("LED layout", OK, detail))
    return out


def run_checks(cfg: HardwareConfig, env: Environment) -> list[Check]:
    """All checks for ``cfg`` on the machine ``env`` describes."""
    needs = _needs(cfg)
    if is_raspberry_pi(read_pi_model(env.root)):
        needs["_on_pi"] = "yes"
    checks = [check_board(env, cfg)]
    checks.append(check_service(env))
    checks += check_groups(env, needs)
    checks += check_devices(env, cfg, needs)
    checks += check_libraries(env, cfg, needs)
    checks.append(check_gpio_open(env, cfg, needs))
    checks += check_power_and_layout(cfg)
    return checks


def check_pico(cfg: HardwareConfig, wait: float = 5.0) -> list[Check]:
    """Talk to the Pico the config names: its HELLO (firmware, rate, LED count against
    ``leds.backend`` and ``leds.count``) or the ERROR it answers with (a firmware that
    refuses to run), or who holds the port. Nothing when the config has no Pico."""
    if cfg.sensors != "serial" or not cfg.sensor_port:
        return []
    port = cfg.sensor_port
    if "://" not in port and not port.lower().startswith("usb:") and not os.path.exists(port):
        return []  # the "serial ports" check says what to do
    import time

    from companion.hardware.sensors import SensorBackendError
    from companion.hardware.sensors.link import PortInUse, SerialLink
    from companion.hardware.sensors.receive import hello_problems

    name = "Pico firmware"
    try:
        link = SerialLink(cfg.sensor_port)
    except PortInUse as exc:
        text = str(exc)
        if "in use by the companion" in text:
            return [Check(name, WARN, f"not asked: {text}",
                          "the running service checks the Pico itself: see /api/v1/health and journalctl -u gingo")]
        return [Check(name, FAIL, text, "close that program (the companion needs the port to itself)")]
    except (SensorBackendError, ValueError) as exc:
        return [Check(name, FAIL, str(exc), "plug the Pico in with a data cable and flash the firmware "
                      "(firmware/README.md)")]
    try:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and link.receiver.hello is None and link.receiver.firmware_error is None:
            time.sleep(0.05)
        hello, error = link.receiver.hello, link.receiver.firmware_error
    finally:
        link.close()
    if error is not None:
        return [Check(name, FAIL, f"the Pico reports: {error}",
                      "use a Pico whose chip the firmware knows (RP2040), then flash it (firmware/README.md)")]
    if hello is None:
        return [Check(name, FAIL, f"no HELLO from {cfg.sensor_port} within {wait:g} s",
                      "flash the firmware (firmware/README.md); with the safe-mode jumper (GP22 to GND) fitted "
                      "it stays silent: remove the jumper and replug the Pico")]
    leds = hello.get("leds")
    detail = (f"firmware {hello.get('fw')} on board {hello.get('board')}: {hello.get('spaces')} spaces at "
              f"{hello.get('rate')}/s, {leds} LEDs")
    problems = hello_problems(hello, cfg.leds, cfg.led_count)
    if not problems:
        return [Check(name, OK, detail)]
    status = FAIL if cfg.leds == "pico" else WARN
    return [Check(name, status, f"{detail}; {problems[0]}")]
