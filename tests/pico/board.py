"""The firmware on real MicroPython in an emulated Pico, seen from the Pi's side.

:class:`EmulatedBoard` starts ``pico.mjs`` (rp2040js under Node) with the MicroPython
image from ``GINGO_PICO_FIRMWARE``, the boot ROM from ``GINGO_PICO_BOOTROM`` and a
littlefs2 image holding ``firmware/*.py`` (plus any override files), and bridges the
Pico's USB serial port to a pty: :attr:`EmulatedBoard.port` is the device path the
companion opens with pyserial, as it opens ``/dev/ttyACM0`` on a Pi. Control (sensor
levels, reset, a host that stops reading, the LED pin's edges) goes through
``pico.mjs``'s stdin; times are emulated microseconds.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import tty
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FIRMWARE_DIR = HERE.parent.parent / "firmware"
ENV_HINT = (
    "set GINGO_PICO_FIRMWARE and GINGO_PICO_BOOTROM to the MicroPython RPI_PICO image and the "
    "RP2040 boot ROM (bash .ci/run sets them to ../shared/pico/), and run 'make pico-harness'"
)

# littlefs2 as MicroPython's rp2 port mounts it (shared/pico/README.md)
FS_BLOCK_SIZE = 4096
FS_BLOCK_COUNT = 352
FS_PROG_SIZE = 256


def unavailable() -> str | None:
    """Why the emulated board cannot run here (one line), or None."""
    for var in ("GINGO_PICO_FIRMWARE", "GINGO_PICO_BOOTROM"):
        path = os.environ.get(var)
        if not path:
            return f"{var} is not set: {ENV_HINT}"
        if not Path(path).is_file():
            return f"{var}={path} is not a file: {ENV_HINT}"
    if shutil.which("node") is None:
        return "node is not installed (the emulated Pico runs rp2040js under Node.js)"
    if not (HERE / "node_modules" / "rp2040js").is_dir():
        return "rp2040js is not installed: run 'make pico-harness' (npm ci in tests/pico)"
    try:
        import littlefs  # noqa: F401
    except ImportError:
        return "littlefs-python is not installed: pip install -e '.[test]'"
    return None


def fs_image(files: dict[str, bytes]) -> bytes:
    """A littlefs2 image with ``files`` at its root."""
    from littlefs import LittleFS

    fs = LittleFS(block_size=FS_BLOCK_SIZE, block_count=FS_BLOCK_COUNT, prog_size=FS_PROG_SIZE,
                  read_size=FS_PROG_SIZE, lookahead_size=32)
    for name, data in files.items():
        with fs.open(name, "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)


def firmware_files(config: dict[str, Any] | None = None, extra: dict[str, bytes] | None = None) -> dict[str, bytes]:
    """firmware/*.py; ``config`` settings are appended to config.py (later lines win)."""
    files = {p.name: p.read_bytes() for p in sorted(FIRMWARE_DIR.glob("*.py"))}
    if config:
        lines = "".join(f"{key} = {value!r}\n" for key, value in config.items())
        files["config.py"] += b"\n# test overrides\n" + lines.encode()
    files.update(extra or {})
    return files


class EmulatedBoard:
    """One emulated Pico running ``firmware/``; use as a context manager."""

    def __init__(self, tmp: Path, config: dict[str, Any] | None = None,
                 extra: dict[str, bytes] | None = None, *, files: dict[str, bytes] | None = None,
                 chip_id: int | None = None) -> None:
        """``files``: the filesystem's files instead of firmware/ (``{}``: erased flash, which
        MicroPython formats itself at first boot as on a new Pico, ready for mpremote;
        littlefs-python's images are read by MicroPython but refuse its writes, OSError 36);
        ``chip_id``: the SYSINFO CHIP_ID the chip reports
        instead of an RP2040's (0x?0004927 is an RP2350)."""
        reason = unavailable()
        if reason:
            raise RuntimeError(reason)
        image = tmp / "littlefs.img"
        if files == {}:
            image.write_bytes(b"\xff" * (FS_BLOCK_SIZE * FS_BLOCK_COUNT))
        else:
            image.write_bytes(fs_image(firmware_files(config, extra) if files is None else files))
        env = dict(os.environ)
        if chip_id is not None:
            env["PICO_CHIP_ID"] = f"{chip_id:08x}"
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing before pyserial opens it
        os.set_blocking(master, False)
        self._slave = slave  # kept open so the master never reads EIO between opens
        self._master = master
        self.port = os.ttyname(slave)
        self._lock = threading.Lock()
        self._proc = subprocess.Popen(
            ["node", str(HERE / "pico.mjs"), os.environ["GINGO_PICO_FIRMWARE"],
             os.environ["GINGO_PICO_BOOTROM"], str(image), str(master)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, pass_fds=(master,),
            cwd=HERE, text=True, bufsize=1, env=env,
        )
        first = self._read()
        if not first.get("ready"):
            raise RuntimeError(f"pico.mjs did not start: {first}")

    # ---- control ----

    def _read(self) -> dict[str, Any]:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"pico.mjs exited with code {self._proc.wait()}")
        return json.loads(line)  # type: ignore[no-any-return]

    def command(self, cmd: str, **args: Any) -> dict[str, Any]:
        with self._lock:
            assert self._proc.stdin is not None
            self._proc.stdin.write(json.dumps({"cmd": cmd, **args}) + "\n")
            self._proc.stdin.flush()
            answer = self._read()
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer

    def now(self) -> int:
        """Emulated microseconds since the board was created."""
        return int(self.command("time")["t"])

    def set_levels(self, levels: dict[tuple[int, int], int] | list[int]) -> None:
        """Sensor outputs on the u16 scale: {(mux, channel): level}, or 64 values."""
        values = [32768] * 64
        if isinstance(levels, dict):
            for (mux, channel), v in levels.items():
                values[mux * 16 + channel] = v
        else:
            values = list(levels)
        self.command("levels", values=values)

    def reset(self, send: list[tuple[int, str]] | None = None) -> None:
        """Reset the Pico (RUN pin); ``send``: (us after the reset, hex bytes) the host
        writes at those emulated instants."""
        self.command("reset", send=send or [])

    def hold(self, on: bool) -> None:
        """The host stops (True) or resumes (False) taking data from the Pico."""
        self.command("hold", on=on)

    def tap(self, clear: bool = False) -> dict[str, Any]:
        """Frames the Pico sent, counted on the emulated wire with emulated times."""
        return self.command("tap", clear=clear)

    def pins(self) -> list[int | None]:
        """Each GPIO's output level (None when it is not an output)."""
        return list(self.command("pins")["out"])

    def edges(self, pin: int) -> list[tuple[int, int, float]]:
        """Edges on ``pin`` since the last call: (pin, level, emulated ns)."""
        return [tuple(e) for e in self.command("watch", pin=pin)["edges"]]  # type: ignore[misc]

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                self.command("quit")
            except (RuntimeError, OSError, ValueError):
                pass
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> EmulatedBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
