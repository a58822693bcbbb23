"""Open the GPIO chip the way the service will, and say what to fix when it fails.

gpiozero picks its pin library itself (lgpio first); on a Pi 5 under systemd the
service's buttons died because lgpio creates its notification pipes (``.lgd-nfy*``) in
``$LG_WD``, else in the working directory, and the unit ran in ``/`` (gpiozero issue
#1106, lg issue #22). :func:`probe_gpio` therefore runs a small Python child in the
service's working directory with the service's ``LG_WD``, has gpiozero's *default*
factory open the chip and, when a button pin is given, watches that pin for presses
(which is what creates the pipe). :func:`service_gpio_env` reads both settings from
the installed unit file.

>>> advice("FileNotFoundError: [Errno 2] No such file or directory: '.lgd-nfy-3'", 17)
'lgpio cannot create its notification pipe in the working directory: run hardware/pi/install.sh again (the unit then sets WorkingDirectory=/var/lib/gingo and LG_WD=/var/lib/gingo), or set LG_WD to a folder the service user can write'
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

#: where the unit may be, under the root, in systemd's order: install.sh writes the first,
#: the .deb package the second, and a unit in /etc overrides the package's
UNITS = ("etc/systemd/system/gingo.service", "lib/systemd/system/gingo.service")

# The child: the gpiozero default factory, then (optionally) a button with an edge
# callback. Prints one JSON object; every failure is caught and described.
_CHILD = r"""
import json, os, sys, warnings
out = {"ok": False, "factory": None, "error": None, "fallbacks": []}
pin = int(sys.argv[1]) if len(sys.argv) > 1 else None
wd = os.environ.get("LG_WD") or os.getcwd()
try:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            import gpiozero
            gpiozero.Device.ensure_pin_factory()
            out["factory"] = type(gpiozero.Device.pin_factory).__name__
            if pin is not None:
                button = gpiozero.Button(pin, pull_up=True)
                button.when_pressed = lambda: None
                button.close()
            out["ok"] = True
        finally:
            out["fallbacks"] = [str(w.message) for w in caught if "Falling back" in str(w.message)]
except BaseException as exc:
    out["error"] = f"{type(exc).__name__}: {exc}"
if out["ok"] and out["factory"] == "LGPIOFactory" and not os.access(wd, os.W_OK):
    out["ok"] = False
    out["error"] = f"PermissionError: lgpio's working directory {wd} is not writable"
print(json.dumps(out))
"""


@dataclass(frozen=True)
class ProbeResult:
    """What the child reported: ``ok``, the factory class, the error and why gpiozero
    fell back from each library it tried first."""

    ok: bool
    factory: str | None
    error: str | None
    fallbacks: tuple[str, ...] = ()

    def reason(self) -> str:
        parts = [self.error or "unknown failure", *self.fallbacks]
        return "; ".join(parts)


def service_gpio_env(root: str | Path = "/") -> tuple[str | None, str | None]:
    """``(WorkingDirectory, LG_WD)`` of the installed unit, or ``(None, None)`` when
    there is no unit (the doctor then uses its own directory and environment).

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> service_gpio_env(root)
    (None, None)
    >>> (root / UNITS[1]).parent.mkdir(parents=True)
    >>> _ = (root / UNITS[1]).write_text("[Service]\\nWorkingDirectory=/var/lib/gingo\\nEnvironment=LG_WD=/run/gingo\\n")
    >>> service_gpio_env(root)
    ('/var/lib/gingo', '/run/gingo')
    """
    for name in UNITS:
        try:
            text = (Path(root) / name).read_text(encoding="utf-8", errors="replace")
            break
        except OSError:
            continue
    else:
        return None, None
    workdir: str | None = "/"  # systemd's default for system services
    lg_wd: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("WorkingDirectory="):
            workdir = line.partition("=")[2].strip().lstrip("-") or "/"
        elif line.startswith("Environment="):
            for item in line.partition("=")[2].split():
                key, _, value = item.strip('"').partition("=")
                if key == "LG_WD":
                    lg_wd = value
    return workdir, lg_wd


def probe_gpio(
    pin: int | None,
    *,
    workdir: str | None = None,
    lg_wd: str | None = None,
    environ: Mapping[str, str] | None = None,
    timeout: float = 15.0,
) -> ProbeResult:
    """Run the child in ``workdir`` with ``LG_WD=lg_wd`` (each when given)."""
    env = dict(os.environ if environ is None else environ)
    if lg_wd is not None:
        env["LG_WD"] = lg_wd
    if workdir is not None and not Path(workdir).is_dir():
        return ProbeResult(False, None, f"FileNotFoundError: working directory {workdir} does not exist")
    if lg_wd is not None and not Path(lg_wd).is_dir():
        return ProbeResult(False, None, f"FileNotFoundError: LG_WD directory {lg_wd} does not exist")
    args = [sys.executable, "-c", _CHILD] + ([str(pin)] if pin is not None else [])
    try:
        done = subprocess.run(args, cwd=workdir, env=env, capture_output=True, text=True, timeout=timeout,
                              check=False)
    except subprocess.TimeoutExpired:
        return ProbeResult(False, None, f"TimeoutError: opening the GPIO chip took more than {timeout:g} s")
    except OSError as exc:
        return ProbeResult(False, None, f"{type(exc).__name__}: {exc}")
    lines = done.stdout.strip().splitlines()
    try:
        data = json.loads(lines[-1])
        return ProbeResult(bool(data["ok"]), data.get("factory"), data.get("error"),
                           tuple(str(x) for x in data.get("fallbacks") or ()))
    except (IndexError, ValueError, KeyError, TypeError):
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return ProbeResult(False, None, f"the GPIO probe crashed: {tail}")


def advice(reason: str, pin: int | None) -> str:
    """The fix for a probe failure, from its message."""
    text = reason.lower()
    if ".lgd-nfy" in text or "working directory" in text or "lg_wd" in text:
        return ("lgpio cannot create its notification pipe in the working directory: run hardware/pi/install.sh "
                "again (the unit then sets WorkingDirectory=/var/lib/gingo and LG_WD=/var/lib/gingo), "
                "or set LG_WD to a folder the service user can write")
    if "busy" in text or "already in use" in text or "pininuse" in text:
        where = f"GPIO{pin}" if pin is not None else "a GPIO pin"
        return f"another program holds {where}: stop the service (sudo systemctl stop gingo) and run the doctor again"
    if "gpiochip" in text and ("permission" in text or "errno 13" in text):
        return "the user cannot open /dev/gpiochip*: add it to the gpio group (sudo usermod -aG gpio USER), log in again"
    if "no module named 'lgpio'" in text or "unable to load any default pin factory" in text:
        return "install gpiozero's pin library: sudo apt install python3-lgpio (the installer's venv sees it)"
    if "can not open gpiochip" in text or "no such file" in text and "gpiochip" in text:
        return "no /dev/gpiochip device: this is not a Raspberry Pi, or the kernel is too old (sudo apt full-upgrade)"
    return "see docs/bringup.md, step 5 (buttons under systemd)"
