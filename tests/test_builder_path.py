"""The builder's path, rehearsed: the documented steps, in the documented order, against
the real firmware on MicroPython in an emulated Pico (tests/pico).

The commands are not copied here: each step reads its code block from the doc the
builder follows (firmware/README.md, docs/install.md, docs/bringup.md) and runs every
line through :class:`Shell`, which knows what each kind of line means on this machine
(``sudo systemctl stop gingo`` stops the service this test started the way the unit
does; ``sudo -u gingo /opt/gingo/venv/bin/gingo ...`` runs this checkout's ``gingo``;
``/dev/serial/by-id/usb-MicroPython_...`` is the emulated Pico's port). A line it does
not know fails the rehearsal, so a doc step that no longer matches the code fails here.

Steps that cannot run here are checked as text and files instead: apt, raspi-config,
the SD card, the reboot; the installer runs into a scratch root (no apt, users, pip or
systemd), and ``gingo doctor`` looks at that root, given a Raspberry Pi 4's model
string (the rest of its checks, and its talk with the Pico, are real).

The chips: a chip on a space sets that sensor's output in the emulator to what the
BOM's magnet gives at the largest gap docs/hardware.md allows, with the weakest magnet
and sensor (companion/hardware/magnets.py). The self-test's chip follows the LEDs: the
test decodes the Pico's LED data pin (GP16) and puts the chip on the space that is lit.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "pico"))
from board import EmulatedBoard, unavailable  # noqa: E402

from companion.hardware.layout import default_layout  # noqa: E402
from companion.hardware.magnets import reading_move  # noqa: E402
from tests.live_server import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BIN = Path(sys.executable).parent
GINGO = BIN / "gingo"
MPREMOTE = BIN / "mpremote"
LED_PIN = 16
EMPTY = 32768
BY_ID = re.compile(r"/dev/serial/by-id/usb-MicroPython_[^\s\"'`]*")


# ---- the docs' code blocks ------------------------------------------------------------


def read(doc: Path) -> str:
    return doc.read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """The text under the heading that starts with ``heading`` up to the next heading
    of the same or a higher level."""
    m = re.search(rf"^(#+) {re.escape(heading)}.*$", text, re.M)
    assert m, f"no heading '{heading}'"
    level = len(m.group(1))
    rest = text[m.end():]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.M)
    return rest[: end.start()] if end else rest


def code_lines(text: str) -> list[str]:
    """The command lines of the code blocks in ``text`` (fenced, or indented by 4),
    comments dropped."""
    lines: list[str] = []
    fenced = False
    for raw in text.splitlines():
        if raw.strip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or (raw.startswith("    ") and raw.strip() and not raw.lstrip().startswith(("-", "|"))):
            line = raw.strip()
            if line and not line.startswith("#"):
                lines.append(re.sub(r"\s+#\s.*$", "", line))
    return lines


def doctor_line_root(args: list[str], root: Path) -> list[str]:
    return [*args, "--root", str(root)] if args[:1] == ["doctor"] else args


# ---- the machine: the scratch root, the service, the emulated Pico ----------------------


class Service:
    """``gingo serve`` started as the installed unit starts it (ExecStart, Environment,
    WorkingDirectory), on 127.0.0.1 and a free port instead of 0.0.0.0:8000."""

    def __init__(self, unit: Path, shell: Shell) -> None:
        self.shell = shell
        text = read(unit)
        self.exec_start = re.search(r"^ExecStart=(.+)$", text, re.M).group(1)  # type: ignore[union-attr]
        self.env = dict(re.findall(r"^Environment=(\w+)=(.*)$", text, re.M))
        self.workdir = re.search(r"^WorkingDirectory=(.+)$", text, re.M).group(1)  # type: ignore[union-attr]
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = free_port()
        self.log = shell.tmp / "serve.log"

    def argv(self) -> list[str]:
        args = shlex.split(self.exec_start)
        assert args[0] == "/opt/gingo/venv/bin/gingo" and args[1] == "serve", self.exec_start
        args = [str(GINGO), *args[1:]]
        args[args.index("--host") + 1] = "127.0.0.1"  # tests listen on loopback only
        args[args.index("--port") + 1] = str(self.port)
        # no network here: no mDNS advertisement, no QR code in the log
        return [self.shell.path(a) for a in args] + ["--no-mdns", "--no-qr"]

    def start(self) -> None:
        assert self.proc is None, "the service is already running"
        env = {**os.environ, **{k: self.shell.path(v) for k, v in self.env.items()}}
        workdir = Path(self.shell.path(self.workdir))
        workdir.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(self.argv(), cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            try:
                self.get("/api/v1/health")
                return
            except OSError:
                assert self.proc.poll() is None, f"the service exited:\n{self.output()}"
                assert time.monotonic() < deadline, f"the service did not answer:\n{self.output()}"
                time.sleep(0.2)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as r:
            return json.loads(r.read())

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


class Shell:
    """Runs the docs' command lines on this machine (see the module docstring)."""

    def __init__(self, tmp: Path, pico: EmulatedBoard) -> None:
        self.tmp = tmp
        self.pico = pico
        self.root = tmp / "root"       # the installer's scratch root: etc/, opt/, var/
        self.service: Service | None = None
        self.ran: list[str] = []
        self.started: list[subprocess.Popen[str]] = []  # killed at the end if still running

    def path(self, text: str) -> str:
        """A doc's path as it is here."""
        text = BY_ID.sub(self.pico.port, text)
        for real in ("/etc/gingo", "/var/lib/gingo"):
            text = text.replace(real, str(self.root) + real)
        return text

    def run(self, line: str, cwd: Path = ROOT, **kw: Any) -> subprocess.CompletedProcess[str]:
        """One documented command line, as the builder would type it."""
        self.ran.append(line)
        if line == "sudo systemctl stop gingo":
            if self.service is not None:
                self.service.stop()
            return subprocess.CompletedProcess(line, 0, "", "")
        if line in ("sudo systemctl start gingo", "sudo systemctl restart gingo"):
            if self.service is not None:
                self.service.stop()
                self.service.start()
            return subprocess.CompletedProcess(line, 0, "", "")
        if line.startswith("python3 -m venv ~/mpremote"):
            # the builder's own mpremote; here the one the test extra installed
            assert "pip install mpremote" in line and MPREMOTE.exists(), line
            return subprocess.CompletedProcess(line, 0, "", "")
        args = shlex.split(line)
        env = dict(os.environ)
        if args[:1] == ["sudo"]:
            args = args[1:]
            if args[:2] == ["-u", "gingo"]:
                args = args[2:]
        while args and re.fullmatch(r"\w+=.*", args[0]):  # VAR=value before the command
            name, value = args.pop(0).split("=", 1)
            env[name] = self.path(value)
        if args[:1] == ["/opt/gingo/venv/bin/gingo"]:
            argv = [str(GINGO), *doctor_line_root([self.path(a) for a in args[1:]], self.root)]
        elif args[:1] == ["~/mpremote/bin/mpremote"]:
            argv = [str(MPREMOTE), *[self.path(a) for a in args[1:]]]
        else:
            raise AssertionError(f"a documented command the rehearsal does not know: {line!r}")
        return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=kw.pop("timeout", 300),
                              **kw)

    def start(self, line: str, **kw: Any) -> subprocess.Popen[str]:
        """A documented interactive command, left running (stdin and stdout are pipes)."""
        self.ran.append(line)
        args = shlex.split(line)
        env = dict(os.environ, PYTHONUNBUFFERED="1", HOME=str(self.tmp / "home"))
        if args[:3] == ["sudo", "-u", "gingo"]:
            args = args[3:]
        while args and re.fullmatch(r"\w+=.*", args[0]):
            name, value = args.pop(0).split("=", 1)
            env[name] = self.path(value)
        assert args[:1] == ["/opt/gingo/venv/bin/gingo"], f"a documented command the rehearsal does not know: {line!r}"
        proc = subprocess.Popen([str(GINGO), *[self.path(a) for a in args[1:]]], cwd=ROOT, env=env, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)
        self.started.append(proc)
        return proc

    def close(self) -> None:
        """The commands left running (a step that failed half-way) are killed, so the next
        step finds the sensor link free."""
        for proc in self.started:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)


# ---- the chips and the LEDs ---------------------------------------------------------------


def chip_level(side: int) -> int:
    """A sensor's output with a chip of ``side`` over it, at the documented gap, weakest parts."""
    gap = float(re.findall(r"\*\*at most\s+(\d+(?:\.\d+)?)\s+mm\*\*", read(DOCS / "hardware.md"))[0])
    move = int(reading_move(gap, worst=True))
    return EMPTY + move if side == 1 else EMPTY - move


def place(pico: EmulatedBoard, board: str) -> None:
    """Chips as ``board`` says ('1', '2' or '.' per space), on the default wiring."""
    pico.set_levels({(s // 16, s % 16): EMPTY if c == "." else chip_level(int(c)) for s, c in enumerate(board)})


class LedWatcher:
    """Whole 60-LED frames from the Pico's data pin, as (R, G, B) per LED. Edges come from
    the emulator in batches; a frame split between two batches is joined, not lost."""

    def __init__(self, pico: EmulatedBoard) -> None:
        self.pico = pico
        self.bits: list[int] = []
        self.rise: float | None = None
        self.last = -1e18
        pico.edges(LED_PIN)  # start watching; what came before is not ours

    def frames(self) -> list[list[tuple[int, int, int]]]:
        """The frames completed since the last call."""
        out: list[list[tuple[int, int, int]]] = []
        for _, level, t in self.pico.edges(LED_PIN):
            if level == 1:
                if t - self.last > 50_000:  # a reset (50 us or more low) starts a new frame
                    self.bits = []
                self.rise = t
            elif self.rise is not None:
                self.bits.append(1 if t - self.rise > 520 else 0)
                self.rise = None
                if len(self.bits) == 24 * 60:
                    grb = [int("".join(map(str, self.bits[k:k + 8])), 2) for k in range(0, len(self.bits), 8)]
                    out.append([(grb[i + 1], grb[i], grb[i + 2]) for i in range(0, len(grb), 3)])
                    self.bits = []
            self.last = t
        return out


def side_of(color: tuple[int, int, int]) -> int | None:
    """1 for the default palette's orange, 2 for its blue, None for dark or anything else."""
    r, g, b = color
    if max(color) == 0:
        return None
    if r > b and r >= g:
        return 1
    if b > r and b >= g:
        return 2
    return None


# ---- the rehearsal --------------------------------------------------------------------------

REASON = unavailable()
emulated = pytest.mark.skipif(REASON is not None, reason=f"emulated Pico: {REASON}")


@pytest.fixture(scope="module")
def shell(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shell]:
    if REASON is not None:
        pytest.skip(f"emulated Pico: {REASON}")
    if not MPREMOTE.exists():
        pytest.skip("mpremote is not installed: pip install -e '.[test]'")
    tmp = tmp_path_factory.mktemp("builder")
    # a new Pico with MicroPython on it and nothing else: its flash is erased
    with EmulatedBoard(tmp, files={}) as pico:
        sh = Shell(tmp, pico)
        try:
            yield sh
        finally:
            sh.close()
            if sh.service is not None:
                sh.service.stop()


def wait_for(cond: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


@emulated
@pytest.mark.slow
def test_1_flash_the_pico_before_the_service_exists(shell: Shell) -> None:
    """install.md: flash before step 3; firmware/README.md's Flashing block, as written."""
    install = read(DOCS / "install.md")
    assert install.index("flash the Pico") < install.index("sudo hardware/pi/install.sh"), \
        "install.md must flash the Pico before the installer starts the service"
    block = code_lines(section(read(ROOT / "firmware" / "README.md"), "Flashing"))
    assert any(line.startswith("~/mpremote/bin/mpremote") for line in block), block
    assert block[0] == "sudo systemctl stop gingo", "the flash block must stop the service first"
    for line in block:
        r = shell.run(line, cwd=ROOT / "firmware")
        assert r.returncode == 0, f"{line}\n{r.stdout}\n{r.stderr}"
    # "Check it from the Pi with gingo sensors --port ... --json: a status online line within a second"
    check = re.search(r"`(gingo sensors --port \S+ --json)`", read(ROOT / "firmware" / "README.md"))
    assert check, "firmware/README.md no longer says how to check the flashed Pico"
    args = shlex.split(check.group(1))[1:]
    r = subprocess.run([str(GINGO), *[shell.path(a) for a in args], "--seconds", "20"], capture_output=True,
                       text=True, timeout=120, env={**os.environ, "HOME": str(shell.tmp / "home")})
    first = json.loads(r.stdout.splitlines()[0])
    assert first["status"] == "online", r.stdout[:500]


@emulated
@pytest.mark.slow
def test_2_install_and_configure_with_the_doctor(shell: Shell) -> None:
    """install.md steps 3 and 4: the installer (into a scratch root), the config for a
    Pico that drives the LEDs, the doctor with the service stopped, the service again."""
    env = dict(os.environ, ROOT=str(shell.root), SKIP_APT="1", SKIP_USER="1", SKIP_PIP="1")
    r = subprocess.run(["bash", str(ROOT / "hardware" / "pi" / "install.sh")], env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    unit = shell.root / "etc/systemd/system/gingo.service"
    # the installer wrote what step 2 and the Pi 5 note rely on
    assert (shell.root / "etc/udev/rules.d/99-gingo-leds.rules").is_file()
    shell.service = Service(unit, shell)
    shell.service.start()  # the installer starts it (with the example config)

    # step 4: the table row for LEDs that hang off the Pico
    row = next(line for line in section(read(DOCS / "install.md"), "4.").splitlines()
               if line.startswith("| LEDs hang off the Pico"))
    leds_backend = re.search(r'`backend = "(\w+)"`', row.split("|")[2]).group(1)  # type: ignore[union-attr]
    sensors_backend = re.search(r'`backend = "(\w+)"`', row.split("|")[3]).group(1)  # type: ignore[union-attr]
    assert (leds_backend, sensors_backend) == ("pico", "serial"), row
    cfg = shell.root / "etc/gingo/gingo.toml"
    text = read(cfg)
    def set_backend(table: str, backend: str, text: str) -> str:
        head = text.index(f"\n[{table}]\n")
        at = text.index("\nbackend = ", head)
        end = text.index("\n", at + 1)
        return text[:at] + f'\nbackend = "{backend}"' + text[end:]

    text = set_backend("leds", leds_backend, text)
    text = re.sub(r"\n\[leds\.spi\][^\[]*", "\n", text)  # "options of the chosen backend only"
    text = set_backend("sensors", sensors_backend, text)
    text = re.sub(r'^port = "usb:2e8a:0005"', 'port = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614c-if00"',
                  text, flags=re.M)
    text = re.sub(r"^enabled = true", "enabled = false", text, flags=re.M)  # no GPIO here for buttons
    cfg.write_text(shell.path(text), encoding="utf-8")

    # what the doctor looks at under its root: a Pi 4, and the Pico's port
    model = shell.root / "proc/device-tree/model"
    model.parent.mkdir(parents=True, exist_ok=True)
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\x00")
    port = shell.root / shell.pico.port.lstrip("/")
    port.parent.mkdir(parents=True, exist_ok=True)
    port.symlink_to(shell.pico.port)

    block = code_lines(section(read(DOCS / "install.md"), "4."))
    assert block.index("sudo systemctl stop gingo") < next(i for i, b in enumerate(block) if "gingo doctor" in b)
    for line in block:
        r = shell.run(line)
        assert r.returncode == 0, f"{line}\n{r.stdout}\n{r.stderr}"
        if "gingo doctor" in line:
            pico = next(x for x in r.stdout.splitlines() if "Pico firmware" in x)
            assert pico.startswith("OK") and "firmware 1.0.0" in pico and "60 LEDs" in pico, r.stdout
    health = shell.service.get("/api/v1/health")
    assert health["leds"] == "pico", health


@emulated
@pytest.mark.slow
def test_3_a_flash_while_the_service_runs_is_refused_clearly(shell: Shell) -> None:
    """The service has the port to itself: mpremote (as the docs run it) is refused at
    once, and nothing reaches the Pico's REPL."""
    assert shell.service is not None and shell.service.proc is not None
    wait_for(lambda: shell.service.get("/api/v1/health")["sensors"] == "serial", 60, "the sensors online")
    line = next(x for x in code_lines(section(read(ROOT / "firmware" / "README.md"), "Flashing"))
                if x.startswith("~/mpremote"))
    resets = shell.pico.tap()["stats"]["resets"]
    r = shell.run(line, cwd=ROOT / "firmware", timeout=60)
    assert r.returncode != 0 and "in use by another program" in (r.stdout + r.stderr), r
    # nothing reached the Pico: no reset, and the service reads on (a loaded machine may
    # slow the emulator past the 0.5 s offline mark for a moment)
    assert shell.pico.tap()["stats"]["resets"] == resets
    wait_for(lambda: shell.service.get("/api/v1/health")["sensors"] == "serial", 30, "the sensors online")


#: seconds ``gingo calibrate`` may be silent (a step reads for at most about 8 s)
CALIBRATE_SILENCE = 180.0


def drive_calibration(proc: subprocess.Popen[str], pico: EmulatedBoard) -> str:
    """Answer ``gingo calibrate``'s prompts: put the chips it asks for, press Enter."""
    assert proc.stdout is not None and proc.stdin is not None
    out: list[str] = []
    pending: list[str] = []
    lines: queue.Queue[str] = queue.Queue()

    def reader() -> None:  # the command's lines, read on their own thread so a silent one cannot hang the test
        assert proc.stdout is not None
        for text in proc.stdout:
            lines.put(text)
        lines.put("")

    threading.Thread(target=reader, daemon=True).start()
    while True:
        try:
            line = lines.get(timeout=CALIBRATE_SILENCE)
        except queue.Empty:
            proc.kill()
            raise AssertionError(f"gingo calibrate said nothing for {CALIBRATE_SILENCE:.0f} s; it printed:\n"
                                 + "".join(out[-20:])) from None
        if not line:
            break
        out.append(line)
        pending.append(line)
        if "Save these thresholds anyway?" in line:  # the check failed: say what it read at once
            proc.kill()
            raise AssertionError("gingo calibrate's check failed:\n" + "".join(out[-60:]))
        if "Press Enter when ready." not in line:
            continue
        text = "".join(pending)
        pending = []
        if "Step 1 of 4" in text:
            board = "." * 52
        elif "Step 2 of 4" in text or "Step 3 of 4" in text:
            side = "1" if "Step 2 of 4" in text else "2"
            spaces = {int(s) for s in re.findall(r"\(space (\d+)\)", text)}
            board = "".join(side if s in spaces else "." for s in range(52))
        else:
            rows = re.findall(r"^\s+row\s+(\d+)\s+([12]) ([12]) ([12]) ([12])\s*$", text, re.M)
            assert len(rows) == 13, text
            cells = {int(r[0]): "".join(r[1:]) for r in rows}
            board = "".join(cells[row] for row in range(1, 14))
        place(pico, board)
        time.sleep(0.3)
        proc.stdin.write("\n")
        proc.stdin.flush()
    proc.wait(30)
    return "".join(out)


@emulated
@pytest.mark.slow
def test_4_calibrate(shell: Shell) -> None:
    """install.md step 6, its commands as written, the chips where it asks."""
    block = code_lines(section(read(DOCS / "install.md"), "6."))
    assert block[0] == "sudo systemctl stop gingo" and block[-1] == "sudo systemctl start gingo", block
    for line in block:
        if "gingo calibrate" in line:
            proc = shell.start(line)
            out = drive_calibration(proc, shell.pico)
            if proc.returncode != 0 and "scans from the sensors" in out:
                # the emulator fell behind real time on a loaded machine; the message's own
                # advice is to try again, once
                proc = shell.start(line)
                out = drive_calibration(proc, shell.pico)
            assert proc.returncode == 0, out
            assert "Side 1 chips move the reading by" in out and "Every space checked. Saved" in out, out
        else:
            assert shell.run(line).returncode == 0
    assert (shell.root / "var/lib/gingo/calibration.json").is_file()
    health = shell.service.get("/api/v1/health")  # type: ignore[union-attr]
    assert str(shell.root / "var/lib/gingo/calibration.json") in health["calibration"], health


def follow_the_leds(proc: subprocess.Popen[str], pico: EmulatedBoard) -> str:
    """Answer ``gingo selftest``: press Enter at each prompt, and put the chip on the
    space the LEDs light (decoded from the Pico's data pin), in the lit side's colour."""
    assert proc.stdout is not None and proc.stdin is not None
    out: list[str] = []
    done = threading.Event()

    def reader() -> None:
        assert proc.stdout is not None and proc.stdin is not None
        for line in proc.stdout:
            out.append(line)
            if "Take every chip off the board" in line:
                # the chips of the calibration's last step come off, and the self-test's
                # queue of scans (64, 0.3 s at 220/s) fills with the empty board before Enter
                place(pico, "." * 52)
                start = pico.now()
                wait_for(lambda: pico.now() >= start + 600_000, 180, "0.6 s of emulated time")
            if "press Enter" in line or "Press Enter" in line:
                try:
                    proc.stdin.write("\n")
                    proc.stdin.flush()
                except OSError:
                    pass
        done.set()

    layout = default_layout()
    space_of = {layout.space_led(s): s for s in range(52)}
    watcher = LedWatcher(pico)
    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    placed: tuple[int, int] | None = None
    followed = 0
    deadline = time.monotonic() + 600
    while not done.is_set():
        assert time.monotonic() < deadline, "".join(out[-20:])
        frames = watcher.frames()
        if frames:
            lit = [(i, side_of(c)) for i, c in enumerate(frames[-1]) if side_of(c) is not None]
            if len(lit) == 1 and lit[0][0] in space_of:
                want = (space_of[lit[0][0]], int(lit[0][1] or 0))
                if want != placed:
                    place(pico, "".join(str(want[1]) if s == want[0] else "." for s in range(52)))
                    placed = want
                    followed += 1
        time.sleep(0.05)
    proc.wait(30)
    place(pico, "." * 52)
    assert followed >= 104, f"followed the LEDs to {followed} spaces:\n{''.join(out[-20:])}"
    return "".join(out)


@emulated
@pytest.mark.slow
def test_5_selftest_follows_the_leds_and_passes(shell: Shell) -> None:
    """bringup.md step 3: the self-test with the config (the LEDs show where the chip goes)."""
    block = code_lines(section(read(DOCS / "bringup.md"), "3."))
    line = next(x for x in block if "gingo selftest" in x)
    assert "Stop the service (`sudo systemctl stop gingo`)" in section(read(DOCS / "bringup.md"), "3.")
    shell.run("sudo systemctl stop gingo")
    proc = shell.start(line)
    try:
        out = follow_the_leds(proc, shell.pico)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0 and "PASS" in out, out[-3000:]
    shell.run("sudo systemctl start gingo")


@emulated
@pytest.mark.slow
def test_6_chips_and_leds_agree_through_the_api(shell: Shell) -> None:
    """The running service: chips on the board show on /api/v1/board, and the Pico's LED
    pin lights each chip's space in its side's colour; the health has no warning about
    the Pico."""
    svc = shell.service
    assert svc is not None
    if svc.proc is None:  # the self-test step stopped it and did not get to start it again
        shell.run("sudo systemctl start gingo")
    wait_for(lambda: svc.get("/api/v1/health")["sensors"] == "serial", 120, "the sensors online")
    board = "1" + "." * 9 + "2" + "." * 20 + "1" + "." * 19 + "2"
    place(shell.pico, board)
    wait_for(lambda: svc.get("/api/v1/board")["sensed"] == board, 120, "the chips on /api/v1/board")
    view = svc.get("/api/v1/board")
    assert view["mode"] == "mirror" and view["leds"] == "pico"
    watcher = LedWatcher(shell.pico)
    layout = default_layout()

    def disagree(frame: list[tuple[int, int, int]]) -> list[tuple[int, str, tuple[int, int, int]]]:
        return [(space, chip, frame[layout.space_led(space)]) for space, chip in enumerate(view["sensed"])
                if side_of(frame[layout.space_led(space)]) != (None if chip == "." else int(chip))]

    # the service re-sends its frame 25 times a second; the emulated Pico may lag behind
    last: list[list[tuple[int, int, int]]] = []
    deadline = time.monotonic() + 60
    while True:
        last = (last + watcher.frames())[-1:]
        if last and not disagree(last[0]):
            break
        assert time.monotonic() < deadline, f"the LEDs never agreed with /api/v1/board: {disagree(last[0]) if last else 'no frame'}"
        time.sleep(0.2)
    health = svc.get("/api/v1/health")
    assert not [w for w in health["warnings"] if "Pico" in w], health["warnings"]
    place(shell.pico, "." * 52)


def test_docs_text_for_the_steps_that_cannot_run_here() -> None:
    """apt, raspi-config, the Pi 5 driver, the ws281x LED test: checked as text."""
    install = read(DOCS / "install.md")
    installer = read(ROOT / "hardware" / "pi" / "install.sh")
    assert "sudo raspi-config nonint do_spi 0" in install and "raspi-config nonint do_spi 0" in installer
    # the udev rule for /dev/leds0 comes with the installer: install.md does not ask for it
    assert "99-gingo-leds.rules" in installer and "add the udev rule" not in install
    pi5 = section(install, "2.")
    assert pi5.index("full-upgrade") < pi5.index("dtoverlay=ws2812-pio"), "update the kernel before the Pi 5 overlay"
    # ws281x needs root: its LED test runs with sudo, not as the service user
    bringup = read(DOCS / "bringup.md")
    ws = bringup[bringup.index("- `ws281x`"):]
    ws = ws[: ws.index("\n\n")]
    assert "sudo /opt/gingo/venv/bin/gingo doctor --led-test" in ws and "sudo -u gingo" not in ws
    # every paragraph that tells the builder to flash also says what to do with the service
    for doc in (*DOCS.glob("*.md"), ROOT / "firmware" / "README.md"):
        for para in re.split(r"\n\s*\n", read(doc)):
            if para.lstrip().startswith("#"):
                continue  # a heading: its paragraph below says it
            if re.search(r"(?i)\bflash (the (pico|firmware)|it)\b|mpremote connect", para):
                if "mpremote connect" in para:  # a command block: it stops the service before the flash
                    assert para.index("systemctl stop gingo") < para.index("mpremote connect"), para
                    continue
                assert "service" in para, f"{doc.name}: a flash step that does not stop the service:\n{para}"
    # the first power-on checklist: every rail, measured before the muxes meet GP26
    first = section(bringup, "First power-on")
    for rail in ("LED 5 V", "sensor 3.3 V", "Pico USB 5 V", "Pico 3.3 V"):
        assert f"| {rail}" in first, rail
    assert "SIG line not yet joined to GP26" in first


def test_the_rehearsal_knows_every_documented_command() -> None:
    """Every command line of the blocks the rehearsal runs is one it can translate (a
    new kind of step in those blocks has to be taught here, or the docs fixed)."""
    blocks = [
        code_lines(section(read(ROOT / "firmware" / "README.md"), "Flashing")),
        code_lines(section(read(DOCS / "install.md"), "4.")),
        code_lines(section(read(DOCS / "install.md"), "6.")),
    ]
    known = re.compile(r"^(sudo systemctl (stop|start|restart) gingo|python3 -m venv ~/mpremote .*|"
                       r"~/mpremote/bin/mpremote .*|sudo( -u gingo)? (\w+=\S+ )*/opt/gingo/venv/bin/gingo .*)$")
    for block in blocks:
        assert block
        for line in block:
            assert known.match(line), f"a documented command the rehearsal does not know: {line!r}"
    assert shutil.which("bash")
