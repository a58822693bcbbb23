"""What the running service costs: the CPU of ``gingo serve`` read from ``/proc``, for
``gingo doctor`` (see docs/hardware.md, "What it costs to run").

The companion does work only when something changes (a chip, a phone, an animation on
the LEDs), so at rest it should cost next to nothing. :func:`service_cost` finds each
running ``gingo serve`` (by its command line), reads its CPU time (user + system, every
thread) twice ``seconds`` apart and says how much of one core it used, with what to
expect at rest on this board.

>>> import tempfile
>>> service_cost(Path(tempfile.mkdtemp()), None)
('OK', 'gingo serve is not running here: nothing to measure (start it, then run gingo doctor again)')
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["find_services", "service_cost"]

#: % of one core above which the service is surely busy with something it should not be
BUSY = 50.0
#: what the service costs at rest, in % of one core: (simulated board, Pico streaming 200 READINGS/s),
#: measured on the development machine (benchmarks/idle.py) and scaled by 8, how much slower a
#: Zero 2 W's core is (docs/hardware.md); not yet measured on a Zero itself
AT_REST: dict[str, tuple[float, float]] = {"Zero 2": (1.0, 7.0)}


def find_services(proc: Path) -> list[int]:
    """The process ids of every ``gingo serve`` (``gingo serve ...`` or ``python -m
    companion.cli serve ...``) under ``proc`` (``/proc``), this process excluded."""
    out: list[int] = []
    try:
        entries = list(proc.iterdir())
    except OSError:
        return out
    for entry in entries:
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        words = [a.decode("utf-8", "replace") for a in argv if a]
        names = {Path(w).name for w in words}
        if "serve" in words and ("gingo" in names or "companion.cli" in words):
            out.append(int(entry.name))
    return sorted(out)


def _cpu(proc: Path, pid: int) -> float | None:
    try:
        fields = (proc / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _expectation(model: str | None) -> str:
    for key, (sim, serial) in AT_REST.items():
        if model and key in model:
            return (f"at rest a {model.split(' Rev')[0]} shows about {sim:g} % with the simulated board "
                    f"and {serial:g} % with the Pico streaming; more while LEDs pulse or phones play")
    return "at rest it should stay within a few % of one core; more while LEDs pulse or phones play"


def service_cost(proc: Path, model: str | None, seconds: float = 1.0,
                 sleep: Callable[[float], None] = time.sleep) -> tuple[str, str]:
    """``(status, detail)`` for ``gingo doctor``: each running service's CPU over ``seconds``.

    ``model`` is the board's model line (``/proc/device-tree/model``) or None.
    """
    pids = find_services(proc)
    if not pids:
        return "OK", "gingo serve is not running here: nothing to measure (start it, then run gingo doctor again)"
    before = {pid: _cpu(proc, pid) for pid in pids}
    t0 = time.monotonic()
    sleep(seconds)
    wall = max(1e-3, time.monotonic() - t0)
    parts, busy = [], False
    for pid in pids:
        a, b = before[pid], _cpu(proc, pid)
        if a is None or b is None:
            continue
        pct = 100.0 * (b - a) / wall
        busy |= pct >= BUSY
        parts.append(f"pid {pid} used {pct:.1f} % of one core over {wall:.1f} s")
    if not parts:
        return "OK", "gingo serve stopped while it was measured"
    detail = "gingo serve: " + "; ".join(parts) + f" ({_expectation(model)})"
    if busy:
        return "WARN", detail + f"; {BUSY:g} % or more is more than the board should ever need"
    return "OK", detail
