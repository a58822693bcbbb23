"""How far a chip's magnet moves a sensor's reading: the magnet, the gap and the sensor.

The gap that docs/hardware.md allows must agree with the thresholds the self-test and
the classifier use before calibration. This module is the arithmetic behind that figure
(and the test that keeps the two together, ``tests/test_magnets.py``).

The field on the axis of a disc magnetised through its thickness, at distance ``z``
from its face (a uniformly magnetised cylinder; radius ``R``, thickness ``t``, remanence
``Br``)::

    B(z) = Br / 2 * ((z + t) / sqrt(R^2 + (z + t)^2) - z / sqrt(R^2 + z^2))

The DRV5055 turns it into volts (its sensitivity at VCC = 3.3 V, datasheet table
"Magnetic Characteristics": A1 60, A2 30, A3 15, A4 7.5 mV/mT, each +-5 %), and the
Pico's ADC into counts on the 16-bit scale the firmware reports (65535 for 3.3 V).
A reading that saturates (a strong magnet close to an A1) still reads as the right side:
classification is three-state, so saturation does no harm; a less sensitive grade (A3)
halves the move and is never the cure for a strong magnet.

>>> round(field_mt(10.0), 1)       # the BOM's D42-N52 at 10 mm, nominal remanence
14.1
>>> round(reading_move(10.0))      # about 8,400 counts with a nominal DRV5055A2
8401
>>> reading_move(MAX_GAP_MM, worst=True) >= 9322   # what the self-test needs of a side 2 chip
True
"""

from __future__ import annotations

import math

#: the BOM's magnet, K&J Magnetics D42-N52: 1/4 in (6.35 mm) across, 1/8 in (3.175 mm) thick
DIAMETER_MM = 6.35
THICKNESS_MM = 3.175
#: N52 remanence: 1.48 T nominal (14,800 gauss), 1.42 T at the low end of the grade
BR_NOMINAL_T = 1.48
BR_LOW_T = 1.42
#: DRV5055 sensitivity at VCC = 3.3 V, mV/mT, by grade; the datasheet's tolerance is +-5 %
SENSITIVITY_MV_PER_MT = {"A1": 60.0, "A2": 30.0, "A3": 15.0, "A4": 7.5}
SENSITIVITY_TOLERANCE = 0.05
#: ADC counts (the u16 scale of READINGS) per millivolt at a 3.3 V reference
COUNTS_PER_MV = 65535 / 3300
#: the largest gap, magnet face to the sensor's element, that docs/hardware.md allows
MAX_GAP_MM = 8.0


def field_mt(gap_mm: float, *, br_t: float = BR_NOMINAL_T, diameter_mm: float = DIAMETER_MM,
             thickness_mm: float = THICKNESS_MM) -> float:
    """The field (mT) on the magnet's axis ``gap_mm`` from its face."""
    if gap_mm < 0:
        raise ValueError(f"the gap must be 0 mm or more, got {gap_mm}")
    r = diameter_mm / 2
    z, t = gap_mm, thickness_mm
    return 1000 * br_t / 2 * ((z + t) / math.hypot(r, z + t) - z / math.hypot(r, z))


def reading_move(gap_mm: float, grade: str = "A2", *, worst: bool = False) -> float:
    """How far (u16 counts) a chip at ``gap_mm`` moves a sensor's reading; ``worst``: the
    low end of the magnet's remanence and of the sensor's sensitivity."""
    if grade not in SENSITIVITY_MV_PER_MT:
        raise ValueError(f"DRV5055 grade must be one of {', '.join(SENSITIVITY_MV_PER_MT)}, got {grade!r}")
    br = BR_LOW_T if worst else BR_NOMINAL_T
    sensitivity = SENSITIVITY_MV_PER_MT[grade] * ((1 - SENSITIVITY_TOLERANCE) if worst else 1.0)
    return field_mt(gap_mm, br_t=br) * sensitivity * COUNTS_PER_MV


def largest_gap(need_counts: float, grade: str = "A2", *, worst: bool = True) -> float:
    """The largest gap (mm, to 0.01) at which a chip still moves the reading ``need_counts``.

    >>> 9.0 < largest_gap(9322, worst=False) < 9.7
    True
    """
    lo, hi = 0.0, 100.0
    if reading_move(lo, grade, worst=worst) < need_counts:
        return 0.0
    while hi - lo > 0.005:
        mid = (lo + hi) / 2
        if reading_move(mid, grade, worst=worst) >= need_counts:
            lo = mid
        else:
            hi = mid
    return round(lo, 2)
