"""LED palettes: the two side colours, the warning flash and the steady level.

A chip is shown in its side's colour (dim while it simply sits there, full on the side's
link), a chip to place pulses (a smooth 1 s ramp from 10 % to full), a wrong chip flashes
the warning colour (hard on/off, 0.2 s each) and a chip to bump alternates the two side
colours. The default palette keeps every one of these apart for people with
protanopia, deuteranopia and tritanopia as well as normal colour vision: orange and blue
differ in lightness and in the blue-yellow direction every dichromat keeps, and the
warning is white (no hue to confuse). ``high-contrast`` takes pure red against blue and
lights a resting chip at 70 % instead of 40 %: the largest worst-case separations and
brighter chips, for low vision or a bright room. The figures are in docs/hardware.md;
``python -m companion.hardware.palette`` prints them (companion.hardware.colorvision).

>>> find_palette("high-contrast").colors
{1: (255, 0, 0), 2: (0, 40, 255)}
>>> find_palette("pastel")
Traceback (most recent call last):
...
ValueError: unknown LED palette 'pastel'; choose one of default, high-contrast
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from companion.hardware.colorvision import VISIONS, led_difference

Color = tuple[int, int, int]
OFF: Color = (0, 0, 0)
WHITE: Color = (255, 255, 255)


@dataclass(frozen=True)
class LedPalette:
    """What the scene draws with: side colours, the warning flash, the resting level."""

    name: str
    side1: Color
    side2: Color
    warning: Color
    steady: float
    about: str

    @property
    def colors(self) -> dict[int, Color]:
        return {1: self.side1, 2: self.side2}

    def with_sides(self, side1: Color, side2: Color) -> LedPalette:
        """The same palette with the side colours a config file chose."""
        return LedPalette(self.name, side1, side2, self.warning, self.steady, self.about)


PALETTES: dict[str, LedPalette] = {
    "default": LedPalette("default", (255, 80, 0), (0, 40, 255), WHITE, 0.4,
                          "orange and blue, white warning flash, resting chips at 40 %"),
    "high-contrast": LedPalette("high-contrast", (255, 0, 0), (0, 40, 255), WHITE, 0.7,
                                "red and blue, white warning flash, resting chips at 70 %"),
}
DEFAULT_PALETTE = PALETTES["default"]
#: what the scene drew before (for comparison only; docs/hardware.md)
RED_GREEN = LedPalette("red-green", (255, 0, 0), (0, 255, 0), (255, 160, 0), 0.4,
                       "the colours used before: red and green, amber warning flash")


def find_palette(name: str) -> LedPalette:
    """The palette called ``name``; ValueError naming the choices otherwise."""
    try:
        return PALETTES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown LED palette {name!r}; choose one of {', '.join(PALETTES)}") from None


def scaled(color: Color, level: float) -> Color:
    return (round(color[0] * level), round(color[1] * level), round(color[2] * level))


def separations(palette: LedPalette) -> dict[str, dict[str, float]]:
    """CIEDE2000 of every pair the board must keep apart, per colour vision.

    Pairs: the two sides at full and at the resting level (a chip on a link, a resting
    chip, the bump alternation), each side against the warning flash and against the
    white chase head, and each side's resting colour against a dark LED (can it be seen
    at all). A pulse differs from a flash by its pattern too (smooth ramp against hard
    on/off at 2.5 Hz).
    """
    s1, s2, warn, level = palette.side1, palette.side2, palette.warning, palette.steady
    pairs = {
        "side 1 / side 2, full": (s1, s2),
        "side 1 / side 2, resting": (scaled(s1, level), scaled(s2, level)),
        "side 1 / warning": (s1, warn),
        "side 2 / warning": (s2, warn),
        **({} if warn == WHITE else {"side 1 / white head": (s1, WHITE), "side 2 / white head": (s2, WHITE)}),
        "side 1 resting / dark": (scaled(s1, level), OFF),
        "side 2 resting / dark": (scaled(s2, level), OFF),
    }
    return {name: {v: led_difference(a, b, v) for v in VISIONS} for name, (a, b) in pairs.items()}


def report(palette: LedPalette) -> str:
    """A Markdown table of :func:`separations` (docs/hardware.md quotes it)."""
    rows = separations(palette)
    head = "| pair | " + " | ".join(VISIONS) + " |\n|---|" + "---|" * len(VISIONS) + "\n"
    return head + "".join(
        f"| {name} | " + " | ".join(f"{d[v]:.1f}" for v in VISIONS) + " |\n" for name, d in rows.items()
    )


def main() -> int:
    for palette in (*PALETTES.values(), RED_GREEN):
        print(f"palette {palette.name!r}: {palette.about}; side 1 {palette.side1}, side 2 {palette.side2}, "
              f"warning {palette.warning}")
        print(report(palette))
    return 0


if __name__ == "__main__":
    sys.exit(main())
