"""The board self-test: every space's sensor and LED, with a chip of each colour.

:func:`run_selftest` walks the board: an empty-board baseline, then one chip of side 1
and one of side 2 carried over all 52 spaces, lighting each space in turn and moving
on as soon as the chip is seen there. It returns a :class:`SelfTestReport`: each
space's readings, a weak-magnet map (how far each colour moves the reading compared
with what the thresholds need), the neighbour cross-talk (how far a chip moves the
spaces around it), and the list of spaces to fix. Nothing in it touches a device
directly: it gets a sensor backend, an optional LED backend and layout, the
thresholds, and a ``hand`` (the simulated board places its own chips; a person moves
the real one).

>>> from companion.hardware.sensors.sim import SimSensors
>>> sim = SimSensors(rate=2000, seed=1)
>>> report = run_selftest(sim, hand=sim_hand(sim), samples=3, space_timeout=2.0)
>>> report.passed, len(report.spaces), report.fix
(True, 52, [])
>>> sim.close()
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.hardware.classify import SPACES, SpaceThresholds
from companion.hardware.scene import DEFAULT_COLORS
from companion.hardware.sensors import Readings, SensorBackend

ROWS, COLS = 13, 4
#: a chip must move the reading this far (u16 counts) to be recognised as placed
DETECT = 2000
#: a colour's move must reach this many times the distance its threshold needs
MARGIN = 1.2


def neighbours(space: int) -> list[int]:
    """The up to 8 spaces around ``space`` on the 13 x 4 board.

    >>> neighbours(0), neighbours(5)
    ([1, 4, 5], [0, 1, 2, 4, 6, 8, 9, 10])
    """
    row, col = divmod(space, COLS)
    out = []
    for r in (row - 1, row, row + 1):
        for c in (col - 1, col, col + 1):
            if (r, c) != (row, col) and 0 <= r < ROWS and 0 <= c < COLS:
                out.append(r * COLS + c)
    return out


def space_name(space: int) -> str:
    return f"row {space // COLS + 1} column {space % COLS + 1} (space {space})"


@dataclass
class SpaceResult:
    """One space: empty reading and noise, and per side the mean reading with the chip
    on it (None: never seen) and the largest move it caused on a neighbour."""

    space: int
    baseline: float = 0.0
    noise: float = 0.0
    chip: dict[int, float | None] = field(default_factory=lambda: {1: None, 2: None})
    crosstalk: dict[int, tuple[int, float]] = field(default_factory=dict)  # side -> (neighbour, move)
    problems: list[str] = field(default_factory=list)

    def move(self, side: int) -> float | None:
        value = self.chip[side]
        return None if value is None else value - self.baseline


@dataclass
class SelfTestReport:
    spaces: list[SpaceResult]
    thresholds: Sequence[SpaceThresholds]

    @property
    def fix(self) -> list[int]:
        return [r.space for r in self.spaces if r.problems]

    @property
    def passed(self) -> bool:
        return not self.fix

    def strength(self, space: int, side: int) -> float | None:
        """How far ``side``'s chip moved the reading, over what the threshold needs."""
        r, t = self.spaces[space], self.thresholds[space]
        move = r.move(side)
        if move is None:
            return None
        need = (t.high_enter if side == t.high_side else t.low_enter) - r.baseline
        return move / need if need else 0.0

    def magnet_map(self) -> list[str]:
        """13 lines of 4 cells, row 13 on top as side 1 sees the board: per space the
        weaker colour, ``#`` strong (>= 1.5x), ``+`` enough (>= 1.2x), ``w`` weak (read,
        but with little margin), ``X`` below the threshold, ``?`` never seen."""
        lines = []
        for row in range(ROWS - 1, -1, -1):
            cells = []
            for col in range(COLS):
                values = [self.strength(row * COLS + col, side) for side in (1, 2)]
                if any(v is None for v in values):
                    cells.append("?")
                    continue
                worst = min(v for v in values if v is not None)
                cells.append("#" if worst >= 1.5 else "+" if worst >= MARGIN else "w" if worst >= 1.0 else "X")
            lines.append(f"row {row + 1:2d}  " + " ".join(cells))
        return lines

    def lines(self) -> list[str]:
        """The whole report as text."""
        out = ["space  empty   noise   side 1 move   side 2 move   worst neighbour move"]
        for r in self.spaces:
            moves = [r.move(s) for s in (1, 2)]
            cross = max(r.crosstalk.values(), key=lambda x: abs(x[1]), default=None)
            out.append(
                f"{r.space:5d}  {r.baseline:6.0f}  {r.noise:6.0f}   "
                + "   ".join(f"{m:+11.0f}" if m is not None else f"{'not seen':>11}" for m in moves)
                + (f"   {cross[1]:+7.0f} on space {cross[0]}" if cross else "")
            )
        out.append("")
        out.append("weak-magnet map (# strong, + enough, w weak, X below threshold, ? not seen); side 2 at the top:")
        out.extend(self.magnet_map())
        out.append("")
        if self.passed:
            out.append(f"PASS: all {SPACES} spaces read both colours with margin, and no chip disturbs a neighbour")
        else:
            out.append(f"FIX {len(self.fix)} space(s): {', '.join(map(str, self.fix))}")
            for r in self.spaces:
                for p in r.problems:
                    out.append(f"  {space_name(r.space)}: {p}")
        return out


def sim_hand(sim: Any) -> Callable[[int | None, int | None], None]:
    """A hand for the simulated board: lifts the chip off the last space and puts it
    on the lit one (``None`` lifts it)."""
    held: list[int] = []

    def hand(space: int | None, side: int | None) -> None:
        while held:
            sim.put(held.pop(), None)
        if space is not None and side is not None:
            sim.put(space, side)
            held.append(space)

    return hand


def _scans(backend: SensorBackend, n: int, timeout: float) -> list[Readings]:
    out: list[Readings] = []
    deadline = time.monotonic() + timeout
    while len(out) < n and time.monotonic() < deadline:
        r = backend.read(min(0.2, max(0.0, deadline - time.monotonic())))
        if r is not None:
            out.append(r)
    return out


def run_selftest(
    backend: SensorBackend,
    *,
    leds: Any = None,
    layout: Any = None,
    colors: dict[int, tuple[int, int, int]] | None = None,
    thresholds: Sequence[SpaceThresholds] | None = None,
    hand: Callable[[int | None, int | None], None] | None = None,
    ask: Callable[[str], None] = lambda prompt: None,
    say: Callable[[str], None] = lambda line: None,
    samples: int = 10,
    space_timeout: float = 30.0,
) -> SelfTestReport:
    """Walk the board and return the report (see the module docstring).

    ``ask(prompt)`` waits for the person (Enter); ``say(line)`` shows progress.
    Raises ``RuntimeError`` when the sensors deliver no scans at all.
    """
    ts = list(thresholds) if thresholds is not None else [SpaceThresholds()] * SPACES
    colors = colors or dict(DEFAULT_COLORS)
    results = [SpaceResult(s) for s in range(SPACES)]

    def light(space: int | None, color: tuple[int, int, int]) -> None:
        if leds is None or layout is None:
            return
        frame = [(0, 0, 0)] * leds.count
        if space is not None:
            frame[layout.space_led(space)] = color
        leds.set_pixels(frame)
        leds.show()

    if hand is not None:
        hand(None, None)
    ask("Take every chip off the board, keep magnets and phones away, then press Enter.")
    empty = _scans(backend, max(samples * 3, 10), 10.0)
    if len(empty) < 3:
        raise RuntimeError(
            f"the sensors delivered {len(empty)} scans in 10 s; check the link with 'gingo sensors' and 'gingo doctor'"
        )
    for s, r in enumerate(results):
        col = [scan.values[s] for scan in empty]
        r.baseline = statistics.fmean(col)
        r.noise = float(max(col) - min(col))

    for side in (1, 2):
        ask(f"Take one side {side} chip. Put it on each lit space in turn; the next space lights "
            f"as soon as the chip is seen. Press Enter to start.")
        sign = 1 if side == ts[0].high_side else -1
        for space in range(SPACES):
            light(space, colors[side])
            if hand is not None:
                hand(space, side)
            t = ts[space]
            sign = 1 if side == t.high_side else -1
            seen = 0
            deadline = time.monotonic() + space_timeout
            while seen < 3 and time.monotonic() < deadline:
                scan = backend.read(0.2)
                if scan is None:
                    continue
                moved = (scan.values[space] - results[space].baseline) * sign
                seen = seen + 1 if moved >= DETECT else 0
            if seen < 3:
                say(f"side {side}: no chip seen on {space_name(space)} in {space_timeout:g} s; going on")
                continue
            got = _scans(backend, samples, 5.0)
            if not got:
                continue
            results[space].chip[side] = statistics.fmean(g.values[space] for g in got)
            worst: tuple[int, float] | None = None
            for n in neighbours(space):
                move = statistics.fmean(g.values[n] for g in got) - results[n].baseline
                if worst is None or abs(move) > abs(worst[1]):
                    worst = (n, move)
            if worst is not None:
                results[space].crosstalk[side] = worst
            say(f"side {side}: {space_name(space)} reads {results[space].chip[side]:.0f}")
    if hand is not None:
        hand(None, None)
    light(None, (0, 0, 0))
    report = SelfTestReport(results, ts)
    _judge(report)
    return report


def _judge(report: SelfTestReport) -> None:
    for r, t in zip(report.spaces, report.thresholds):
        if not t.empty_low <= r.baseline <= t.empty_high:
            r.problems.append(f"reads {r.baseline:.0f} when empty, outside its empty band "
                              f"{t.empty_low}..{t.empty_high}: a stray magnet nearby, or calibrate")
        if r.noise > (t.empty_high - t.empty_low) / 2:
            r.problems.append(f"noisy: the empty reading moves by {r.noise:.0f}; check the sensor's 3.3 V, "
                              "ground and 100 nF capacitor, and keep LED power wires away")
        for side in (1, 2):
            strength = report.strength(r.space, side)
            if strength is None:
                r.problems.append(f"a side {side} chip was never seen: sensor, its mux channel or the magnet")
            elif strength < MARGIN:
                move = r.move(side) or 0.0
                r.problems.append(f"weak side {side}: the chip moves the reading by {move:+.0f}, "
                                  f"{strength:.2f}x what the threshold needs (want {MARGIN}x): magnet gap "
                                  "too large, chip off-centre or the magnet upside down")
            cross = r.crosstalk.get(side)
            if cross is not None:
                n, move = cross
                nb, nt = report.spaces[n].baseline, report.thresholds[n]
                if not nt.empty_low <= nb + move <= nt.empty_high:
                    r.problems.append(f"a side {side} chip here moves space {n} to {nb + move:.0f}, outside its "
                                      f"empty band {nt.empty_low}..{nt.empty_high}: calibrate with neighbours "
                                      "filled, or more distance between the sensors")
