"""Raw Hall readings to chip states, with hysteresis.

A space reads high for one chip colour, low for the other, and near its baseline when
empty. Each space has five thresholds (:class:`SpaceThresholds`); between the bands the
space keeps its previous state, so a reading that jitters around a threshold never
flips a chip. Without a calibration file every space uses the protocol defaults
(u16 scale): at or above 40000 side 1, at or below 25000 side 2, 30000..35500 empty.

>>> c = Classifier()
>>> c.classify([45000, 20000, 32768] + [32768] * 49)[:4]
'12..'
>>> c.classify([37000, 27000, 38000] + [32768] * 49)[:4]   # in the bands: keep
'12..'
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass

SPACES = 52
STATE_CHARS = ".12"


@dataclass(frozen=True, slots=True)
class SpaceThresholds:
    """Thresholds of one space in raw u16 units.

    A reading ``>= high_enter`` is a chip of ``high_side``; ``<= low_enter`` the other
    side's chip; within ``empty_low..empty_high`` empty; anything else keeps the
    previous state. Invariant: ``low_enter < empty_low <= empty_high < high_enter``.
    """

    low_enter: int = 25000
    empty_low: int = 30000
    empty_high: int = 35500
    high_enter: int = 40000
    high_side: int = 1

    def __post_init__(self) -> None:
        values = (self.low_enter, self.empty_low, self.empty_high, self.high_enter)
        if any(not isinstance(v, int) or not 0 <= v <= 0xFFFF for v in values):
            raise ValueError(f"thresholds {values} must be integers in the u16 range 0..65535")
        if not (self.low_enter < self.empty_low <= self.empty_high < self.high_enter):
            raise ValueError(
                "thresholds must satisfy low_enter < empty_low <= empty_high < high_enter "
                f"(hysteresis bands), got {values}"
            )
        if self.high_side not in (1, 2):
            raise ValueError(f"high_side must be 1 or 2, got {self.high_side!r}")

    def classify(self, value: int, previous: int) -> int:
        """0 (empty), 1 or 2 for ``value``, given the space's ``previous`` state.

        >>> t = SpaceThresholds()
        >>> t.classify(41000, 0), t.classify(36000, 1), t.classify(36000, 0), t.classify(24000, 1)
        (1, 1, 0, 2)
        """
        if value >= self.high_enter:
            return self.high_side
        if value <= self.low_enter:
            return 3 - self.high_side
        if self.empty_low <= value <= self.empty_high:
            return 0
        return previous

    def to_dict(self) -> dict[str, int]:
        return {
            "low_enter": self.low_enter,
            "empty_low": self.empty_low,
            "empty_high": self.empty_high,
            "high_enter": self.high_enter,
            "high_side": self.high_side,
        }


DEFAULT_THRESHOLDS = SpaceThresholds()


class Classifier:
    """Classify whole scans; remembers each space's previous state for hysteresis.

    ``thresholds`` is one :class:`SpaceThresholds` per space (from a calibration) or
    None for the protocol defaults.

    Fast path (the host CPU budget, docs/sensing.md): for each space's current state
    the classifier keeps the interval of readings that give that state whatever came
    before (empty: ``empty_low..empty_high``; a chip: its side of ``high_enter`` or
    ``low_enter``). A scan whose every reading sits inside its space's interval leaves
    the board as it was, which two whole-array comparisons (``map`` with
    :func:`operator.le`, run in C) establish without a Python step per space; only
    other scans take the per-space path.

    >>> c = Classifier()
    >>> c.classify([45000] + [32768] * 51)[:2], c.fast_scans
    ('1.', 0)
    >>> c.classify([44000] + [33000] * 51)[:2], c.fast_scans   # inside the intervals
    ('1.', 1)
    """

    def __init__(self, thresholds: Sequence[SpaceThresholds] | None = None) -> None:
        if thresholds is None:
            thresholds = [DEFAULT_THRESHOLDS] * SPACES
        if len(thresholds) != SPACES:
            raise ValueError(f"a calibration has thresholds for {SPACES} spaces, got {len(thresholds)}")
        self.thresholds: tuple[SpaceThresholds, ...] = tuple(thresholds)
        # per space: the interval that surely gives state 0, 1, 2
        self._keep: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            ((t.empty_low, t.empty_high),
             *(((t.high_enter, 0xFFFF) if side == t.high_side else (0, t.low_enter)) for side in (1, 2)))
            for t in self.thresholds
        )
        #: scans that took the fast path (nothing could change)
        self.fast_scans = 0
        self.reset()

    def reset(self) -> None:
        """Forget previous states (every space starts empty)."""
        self._state: list[int] = [0] * SPACES
        self._board = "." * SPACES
        self._set_bounds()

    def _set_bounds(self) -> None:
        self._lo = [keep[s][0] for keep, s in zip(self._keep, self._state)]
        self._hi = [keep[s][1] for keep, s in zip(self._keep, self._state)]

    @property
    def board(self) -> str:
        """The board of the last scan (52 characters ``.``, ``1``, ``2``)."""
        return self._board

    def keeps(self, values: Sequence[int]) -> bool:
        """True when every reading lies inside the interval that surely keeps its space's
        present state (the noise band): classifying ``values`` cannot change the board.

        >>> c = Classifier()
        >>> c.keeps([33000] * 52), c.keeps([45000] + [33000] * 51)
        (True, False)
        """
        le = operator.le
        return len(values) == SPACES and all(map(le, self._lo, values)) and all(map(le, values, self._hi))

    def classify(self, values: Sequence[int]) -> str:
        """The board of one scan: 52 characters ``.``, ``1``, ``2`` in space order."""
        if len(values) != SPACES:
            raise ValueError(f"a scan has {SPACES} readings, got {len(values)}")
        le = operator.le
        if all(map(le, self._lo, values)) and all(map(le, values, self._hi)):
            self.fast_scans += 1
            return self._board
        state = self._state
        before = list(state)
        for i, (t, v) in enumerate(zip(self.thresholds, values)):
            state[i] = t.classify(v, state[i])
        if state != before:
            self._board = "".join(STATE_CHARS[s] for s in state)
            self._set_bounds()
        return self._board
