"""How the LED colours look to people with colour-vision deficiencies, in numbers.

The LEDs are emitters driven by PWM: a drive value ``v`` (0..255) gives light in
proportion to ``v / 255``, so drive values are treated as *linear* light, with the
sRGB primaries standing in for the WS2812B's (red about 620-630 nm, green 520-525 nm,
blue 465-470 nm: close to sRGB's). Full white is the reference white.

Dichromacy is simulated with the method of Brettel, Viénot and Mollon (1997), "Computerized
simulation of color appearance for dichromats", J. Opt. Soc. Am. A 14(10):2647-2655: in
LMS cone space the missing cone's response is replaced so that the colour lands on one of
two half-planes through the neutral axis, each anchored on a spectral light the
dichromat sees as a normal trichromat does (475 and 575 nm for protanopes and
deuteranopes, 485 and 660 nm for tritanopes). Cone responses come from CIE XYZ with the
Hunt-Pointer-Estevez matrix (normalised to D65); the anchors from the CIE 1931
chromaticities of those wavelengths. A full dichromat is the worst case of each
anomalous trichromacy, so a palette that separates here separates for them too.

Differences are CIEDE2000 (Sharma, Wu and Dalal 2005, "The CIEDE2000 color-difference
formula: implementation notes, supplementary test data, and mathematical observations",
Color Res. Appl. 30(1):21-30), in CIELAB relative to full white. As a rough guide, 1 is
a just-noticeable difference side by side, 10 an obvious one, 20 and more reads as a
different colour name at a glance.

>>> round(delta_e2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)), 4)   # Sharma's pair 1
2.0425
>>> red, green = (255, 0, 0), (0, 255, 0)
>>> round(led_difference(red, green, "deuteranopia"), 1) < round(led_difference(red, green, "normal"), 1)
True

``python -m companion.hardware.colorvision`` prints the table docs/hardware.md quotes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Vec = tuple[float, float, float]
Color = tuple[int, int, int]

VISIONS = ("normal", "protanopia", "deuteranopia", "tritanopia")

# linear sRGB -> CIE XYZ (D65), IEC 61966-2-1
_RGB_TO_XYZ = ((0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505))
# CIE XYZ -> LMS, Hunt-Pointer-Estevez normalised to D65
_XYZ_TO_LMS = ((0.4002, 0.7076, -0.0808), (-0.2263, 1.1653, 0.0457), (0.0, 0.0, 0.9182))
# CIE 1931 2-degree chromaticities (x, y) of the anchoring spectral lights
_SPECTRAL_XY = {475: (0.1096, 0.0868), 485: (0.0687, 0.2007), 575: (0.4788, 0.5202), 660: (0.7300, 0.2700)}
# vision -> (index of the missing cone in L, M, S; its two anchor wavelengths)
_DICHROMATS = {"protanopia": (0, (475, 575)), "deuteranopia": (1, (475, 575)), "tritanopia": (2, (485, 660))}


def _mul(m: Sequence[Sequence[float]], v: Sequence[float]) -> Vec:
    return (m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
            m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
            m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2])


def _inverse(m: Sequence[Sequence[float]]) -> tuple[Vec, Vec, Vec]:
    (a, b, c), (d, e, f), (g, h, i) = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return ((( e * i - f * h) / det, -(b * i - c * h) / det, ( b * f - c * e) / det),
            (-(d * i - f * g) / det, ( a * i - c * g) / det, -(a * f - c * d) / det),
            (( d * h - e * g) / det, -(a * h - b * g) / det, ( a * e - b * d) / det))


def _cross(a: Vec, b: Vec) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


_LMS_TO_XYZ = _inverse(_XYZ_TO_LMS)
_WHITE_XYZ = _mul(_RGB_TO_XYZ, (1.0, 1.0, 1.0))
_WHITE_LMS = _mul(_XYZ_TO_LMS, _WHITE_XYZ)


def _anchor_lms(nm: int) -> Vec:
    x, y = _SPECTRAL_XY[nm]
    return _mul(_XYZ_TO_LMS, (x / y, 1.0, (1.0 - x - y) / y))


def led_xyz(color: Sequence[float]) -> Vec:
    """CIE XYZ of an LED drive colour (0..255 per channel, linear light)."""
    return _mul(_RGB_TO_XYZ, [c / 255.0 for c in color])


def simulate_xyz(xyz: Vec, vision: str) -> Vec:
    """The XYZ a person with ``vision`` cannot tell from ``xyz`` on the trichromat's side.

    Neutral colours and the anchors stay as they are:

    >>> w = led_xyz((255, 255, 255))
    >>> all(abs(a - b) < 1e-9 for a, b in zip(simulate_xyz(w, "tritanopia"), w))
    True
    """
    if vision == "normal":
        return xyz
    try:
        missing, anchors = _DICHROMATS[vision]
    except KeyError:
        raise ValueError(f"unknown colour vision {vision!r}; choose one of {', '.join(VISIONS)}") from None
    lms = _mul(_XYZ_TO_LMS, xyz)
    axis: Vec = tuple(1.0 if k == missing else 0.0 for k in range(3))  # type: ignore[assignment]
    # the two half-planes meet on the plane through the neutral axis and the missing cone's axis
    split = _cross(_WHITE_LMS, axis)
    a0, a1 = (_anchor_lms(nm) for nm in anchors)
    side = _dot(split, lms)
    anchor = a0 if (side >= 0) == (_dot(split, a0) >= 0) else a1
    normal = _cross(_WHITE_LMS, anchor)
    t = -_dot(normal, lms) / normal[missing]
    moved = list(lms)
    moved[missing] += t
    return _mul(_LMS_TO_XYZ, moved)


def lab(xyz: Vec) -> Vec:
    """CIELAB of ``xyz`` relative to the full-white LED."""
    def f(t: float) -> float:
        return math.copysign(abs(t) ** (1.0 / 3.0), t) if abs(t) > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(v / w) for v, w in zip(xyz, _WHITE_XYZ))
    return (116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz))


def delta_e2000(lab1: Vec, lab2: Vec) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2.0
    g = 0.5 * (1.0 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25.0 ** 7)))
    a1p, a2p = (1.0 + g) * a1, (1.0 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360.0 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360.0 if c2p else 0.0
    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180.0:
        dh = h2p - h1p
    elif h2p - h1p > 180.0:
        dh = h2p - h1p - 360.0
    else:
        dh = h2p - h1p + 360.0
    dH = 2.0 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2.0))
    l_mean = (l1 + l2) / 2.0
    cp_mean = (c1p + c2p) / 2.0
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180.0:
        h_mean = (h1p + h2p) / 2.0
    elif h1p + h2p < 360.0:
        h_mean = (h1p + h2p + 360.0) / 2.0
    else:
        h_mean = (h1p + h2p - 360.0) / 2.0
    t = (1.0 - 0.17 * math.cos(math.radians(h_mean - 30.0)) + 0.24 * math.cos(math.radians(2.0 * h_mean))
         + 0.32 * math.cos(math.radians(3.0 * h_mean + 6.0)) - 0.20 * math.cos(math.radians(4.0 * h_mean - 63.0)))
    d_theta = 30.0 * math.exp(-(((h_mean - 275.0) / 25.0) ** 2))
    r_c = 2.0 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25.0 ** 7))
    s_l = 1.0 + 0.015 * (l_mean - 50.0) ** 2 / math.sqrt(20.0 + (l_mean - 50.0) ** 2)
    s_c = 1.0 + 0.045 * cp_mean
    s_h = 1.0 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2.0 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dH / s_h) ** 2 + r_t * (dc / s_c) * (dH / s_h))


def seen(color: Sequence[float], vision: str) -> Vec:
    """CIELAB of an LED colour as ``vision`` sees it."""
    return lab(simulate_xyz(led_xyz(color), vision))


def led_difference(c1: Sequence[float], c2: Sequence[float], vision: str) -> float:
    """CIEDE2000 between two LED colours as ``vision`` sees them."""
    return delta_e2000(seen(c1, vision), seen(c2, vision))


def simulated_rgb(color: Sequence[float], vision: str) -> Color:
    """The LED drive colour (clipped to 0..255) that shows what ``vision`` sees."""
    rgb = _mul(_inverse(_RGB_TO_XYZ), simulate_xyz(led_xyz(color), vision))
    return tuple(max(0, min(255, round(v * 255))) for v in rgb)  # type: ignore[return-value]
