"""How bright the LEDs may go on a given 5 V supply.

A WS2812B/SK6812 draws about 20 mA per colour channel at full duty (60 mA for full
white) plus about 1 mA when dark. The cap is the fraction of full white that all
LEDs together may draw at once from the part of the supply we allow ourselves
(``headroom``, 80 % by default, because cheap supplies sag near their rating), after
the idle draw and any other load on the same supply.

>>> round(brightness_cap(4.0, 60), 3)   # the reference 5 V 4 A supply
0.872
>>> brightness_cap(5.0, 60)             # enough for full white everywhere
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from companion.errors import ConfigError

MA_PER_CHANNEL = 20.0
IDLE_MA_PER_LED = 1.0
HEADROOM = 0.8


class PowerBudgetError(ConfigError):
    """The supply cannot even power the LEDs when they are dark."""


def brightness_cap(
    supply_amps: float,
    led_count: int,
    *,
    ma_per_channel: float = MA_PER_CHANNEL,
    idle_ma_per_led: float = IDLE_MA_PER_LED,
    headroom: float = HEADROOM,
    other_load_amps: float = 0.0,
) -> float:
    """Highest global brightness (0..1) at which a frame of full white stays in budget.

    >>> round(brightness_cap(2.0, 60), 3)
    0.428
    >>> brightness_cap(0.05, 60)
    Traceback (most recent call last):
    ...
    companion.hardware.power.PowerBudgetError: a 0.05 A supply gives 40 mA after 80% headroom and other loads, less than the 60 mA 60 dark LEDs draw; use a bigger 5 V supply (see docs/hardware.md, power budget)
    """
    if isinstance(led_count, bool) or not isinstance(led_count, int) or led_count < 1:
        raise ValueError(f"LED count must be a positive integer, got {led_count!r}")
    if not supply_amps > 0:
        raise ValueError(f"supply current must be positive (amps), got {supply_amps!r}")
    if not 0 < headroom <= 1:
        raise ValueError(f"headroom must be in (0, 1], got {headroom!r}")
    usable_ma = supply_amps * 1000.0 * headroom - other_load_amps * 1000.0
    idle_ma = led_count * idle_ma_per_led
    if usable_ma <= idle_ma:
        raise PowerBudgetError(
            f"a {supply_amps:g} A supply gives {usable_ma:.0f} mA after {headroom:.0%} headroom and other loads, "
            f"less than the {idle_ma:.0f} mA {led_count} dark LEDs draw; "
            "use a bigger 5 V supply (see docs/hardware.md, power budget)"
        )
    full_white_ma = led_count * 3 * ma_per_channel
    return min(1.0, (usable_ma - idle_ma) / full_white_ma)


def frame_current_ma(
    frame: Sequence[tuple[int, int, int]],
    brightness: float = 1.0,
    *,
    ma_per_channel: float = MA_PER_CHANNEL,
    idle_ma_per_led: float = IDLE_MA_PER_LED,
) -> float:
    """Estimated current of one frame at ``brightness``, in mA.

    >>> frame_current_ma([(255, 0, 0), (0, 0, 0)])
    22.0
    """
    lit = sum(r + g + b for r, g, b in frame) / 255.0 * ma_per_channel * brightness
    return lit + len(frame) * idle_ma_per_led
