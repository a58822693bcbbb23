"""Per-space sensor thresholds from sample readings, and their file in the data directory.

The computation is pure: give it scans of the empty board and readings of chips of
each side on a few spaces, get back a :class:`Calibration` (one
:class:`~companion.hardware.classify.SpaceThresholds` per space). Each space keeps its
own empty baseline; the chip's magnet delta is measured on the sample spaces and
applied to every space, since the sensors of one build share a sensitivity.
:func:`save_calibration` and :func:`load_calibration` read and write
``calibration.json`` in the data directory.

>>> scans = [[32000 + s * 10 for s in range(52)]] * 5
>>> cal = compute_calibration(scans, {1: {0: [44000] * 5}, 2: {0: [20000] * 5}})
>>> cal.thresholds[0].high_enter, cal.thresholds[0].low_enter, cal.thresholds[51].high_enter
(39200, 24800, 39710)
"""

from __future__ import annotations

import json
import os
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.hardware.classify import SPACES, SpaceThresholds
from companion.errors import ConfigError

FILENAME = "calibration.json"
FORMAT_VERSION = 1

#: where the chip is counted as present: this fraction of the way from empty to the chip
ENTER_FRACTION = 0.6
#: how far from the baseline a reading still counts as empty, as a fraction of the delta
EMPTY_FRACTION = 0.22
#: a chip must move the reading at least this much (raw u16 units)
MIN_DELTA = 2000
#: and at least this many times the empty board's noise on that space
NOISE_FACTOR = 4


class CalibrationError(ConfigError):
    """Readings that cannot give a usable calibration, or a bad calibration file."""


@dataclass(frozen=True, slots=True)
class Calibration:
    """Thresholds for every space plus what they were computed from."""

    thresholds: tuple[SpaceThresholds, ...]
    baseline: tuple[int, ...]
    noise: tuple[int, ...]
    deltas: dict[int, int] = field(default_factory=dict)
    created: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "spaces": SPACES,
            "created": self.created,
            "deltas": {str(k): v for k, v in sorted(self.deltas.items())},
            "baseline": list(self.baseline),
            "noise": list(self.noise),
            "thresholds": [t.to_dict() for t in self.thresholds],
        }

    @classmethod
    def from_json(cls, data: Any) -> Calibration:
        """Parse :meth:`to_json` output; raise :class:`CalibrationError` naming the fault."""
        if not isinstance(data, dict):
            raise CalibrationError("calibration file must hold a JSON object")
        if data.get("version") != FORMAT_VERSION:
            raise CalibrationError(
                f"calibration file version {data.get('version')!r} is not {FORMAT_VERSION}; run 'gingo calibrate' again"
            )
        try:
            raw = data["thresholds"]
            if not isinstance(raw, list) or len(raw) != SPACES:
                raise CalibrationError(f"calibration file must have thresholds for {SPACES} spaces")
            thresholds = tuple(SpaceThresholds(**t) for t in raw)
            baseline = tuple(int(v) for v in data.get("baseline", [0] * SPACES))
            noise = tuple(int(v) for v in data.get("noise", [0] * SPACES))
            deltas = {int(k): int(v) for k, v in data.get("deltas", {}).items()}
        except CalibrationError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            # AttributeError: "deltas" that is not an object (it used to escape as a traceback)
            raise CalibrationError(f"calibration file is malformed ({exc}); run 'gingo calibrate' again") from None
        return cls(thresholds, baseline, noise, deltas, str(data.get("created", "")))


def _check_scan(scan: Sequence[int], what: str) -> None:
    if len(scan) != SPACES:
        raise CalibrationError(f"{what}: a scan has {SPACES} readings, got {len(scan)}")


def compute_calibration(
    empty_scans: Sequence[Sequence[int]],
    chip_samples: Mapping[int, Mapping[int, Sequence[int]]],
    *,
    created: str = "",
) -> Calibration:
    """Thresholds from scans of the empty board and chip readings on sample spaces.

    ``chip_samples[side][space]`` lists the readings of ``space`` while a chip of
    ``side`` (1 or 2) sat on it. Raises :class:`CalibrationError` when the chips do not
    move the readings far enough, both sides move them the same way, or a space is too
    noisy to tell the states apart; the message names the spaces and what to check.
    """
    if not empty_scans:
        raise CalibrationError("no scans of the empty board; is the sensor link delivering readings?")
    for scan in empty_scans:
        _check_scan(scan, "empty board")
    if set(chip_samples) != {1, 2}:
        raise CalibrationError(f"need chip readings for side 1 and side 2, got sides {sorted(chip_samples)}")
    columns = list(zip(*empty_scans))
    baseline = [round(statistics.median(col)) for col in columns]
    noise = [max(abs(v - b) for v in col) for col, b in zip(columns, baseline)]

    deltas: dict[int, int] = {}
    for side in (1, 2):
        samples = chip_samples[side]
        if not samples:
            raise CalibrationError(f"no readings of side {side} chips")
        per_space: list[int] = []
        for space, values in samples.items():
            if not 0 <= space < SPACES:
                raise CalibrationError(f"sample space {space} is outside 0..{SPACES - 1}")
            if not values:
                raise CalibrationError(f"no readings of the side {side} chip on space {space}")
            per_space.append(round(statistics.median(values)) - baseline[space])
        weak = [s for s, d in zip(samples, per_space) if abs(d) < MIN_DELTA]
        if weak:
            raise CalibrationError(
                f"side {side} chips move the reading less than {MIN_DELTA} on spaces {sorted(weak)}; "
                "check the chip was on the space, the magnet is in the chip, and the sensor is wired"
            )
        if min(per_space) < 0 < max(per_space):
            raise CalibrationError(
                f"side {side} chips read above empty on some sample spaces and below on others; "
                "a chip was upside down (a flipped magnet reads as the other colour)"
            )
        deltas[side] = round(statistics.median(per_space))
    if (deltas[1] > 0) == (deltas[2] > 0):
        raise CalibrationError(
            "side 1 and side 2 chips both read "
            f"{'above' if deltas[1] > 0 else 'below'} empty; one colour's magnets must be "
            "turned over so the two colours have opposite poles down"
        )
    high_side = 1 if deltas[1] > 0 else 2
    high, low = deltas[high_side], deltas[3 - high_side]

    thresholds: list[SpaceThresholds] = []
    noisy: list[int] = []
    for space, (b, n) in enumerate(zip(baseline, noise)):
        margin = NOISE_FACTOR * n
        high_enter = b + round(ENTER_FRACTION * high)
        low_enter = b + round(ENTER_FRACTION * low)
        empty_high = b + max(round(EMPTY_FRACTION * high), margin)
        empty_low = b - max(round(EMPTY_FRACTION * -low), margin)
        if empty_high + margin >= high_enter or empty_low - margin <= low_enter:
            noisy.append(space)
            continue
        try:
            thresholds.append(
                SpaceThresholds(
                    low_enter=max(0, low_enter),
                    empty_low=empty_low,
                    empty_high=empty_high,
                    high_enter=min(0xFFFF, high_enter),
                    high_side=high_side,
                )
            )
        except ValueError:
            noisy.append(space)
    if noisy:
        raise CalibrationError(
            f"spaces {noisy} are too noisy or too close to the rails to tell chips apart; "
            "check those sensors' supply and wiring, and keep magnets and speakers away"
        )
    return Calibration(tuple(thresholds), tuple(baseline), tuple(noise), deltas, created)


def calibration_path(data_dir: str | os.PathLike[str]) -> Path:
    """Where the calibration lives inside ``data_dir``."""
    return Path(data_dir) / FILENAME


def save_calibration(calibration: Calibration, data_dir: str | os.PathLike[str]) -> Path:
    """Write the calibration atomically (temp file, fsync, rename); return its path."""
    path = calibration_path(data_dir)
    tmp = path.with_suffix(".json.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(calibration.to_json(), fh, indent=1)
        fh.write("\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    return path


def load_calibration(data_dir: str | os.PathLike[str]) -> Calibration | None:
    """The stored calibration, or None if there is none yet.

    Raises :class:`CalibrationError` for a file that exists but cannot be used.
    """
    path = calibration_path(data_dir)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"{path} is not valid JSON ({exc}); run 'gingo calibrate' again") from None
    return Calibration.from_json(data)
