"""The LED scene: what every LED shows, as a pure function of the board state and time.

Per space (first rule that applies wins):

1. **Chip to bump** (``bump[space] = side``) while that side's chip is still sensed
   there (or the sensors are offline): alternates the two side colours every 0.25 s.
2. **Chip to place** (``pending[space] = side``): pulses the side colour (1 s period)
   until a chip of that side is sensed; the wrong chip there flashes the warning colour.
3. Otherwise expected against sensed (offline sensors: sensed is taken as expected):

   - same chip: steady side colour, dim (40 %; the palette's resting level), or full if the space is on that
     side's link; on Gin, a white head chases along the Gin side's link path;
   - a chip sensed where none, or the other colour, is expected: warning flash
     (white by default, on for 0.2 s of every 0.4 s);
   - an expected chip missing: pulses like a chip to place;
   - both empty: dark.

The 8 marker LEDs (``side1_1`` .. ``side2_4``) show status: all blink the warning colour while the
sensors are offline; the Gin side's four alternate white and its colour; the fourth
marker of the side that deals (``dealer``) is steady full white (in the set-up too); the
side to play shows its colour; otherwise a dim white marker. A column whose suit is not
yet chosen (``suit_rows[side][col] == "."``) stays dark.

>>> from companion.hardware.layout import default_layout
>>> lay = default_layout()
>>> board = "1" + "." * 50 + "2"
>>> frame = render_scene(SceneInput(expected=board, sensed=board), 0.0, lay)
>>> frame[lay.space_led(0)], frame[lay.space_led(51)], frame[lay.space_led(1)]
((102, 32, 0), (0, 16, 102), (0, 0, 0))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.hardware.layout import SPACES, LedLayout
from companion.hardware.palette import DEFAULT_PALETTE, OFF, WHITE

Color = tuple[int, int, int]

#: the default palette (companion.hardware.palette): orange and blue, a white warning
#: flash; chosen to stay apart under protanopia, deuteranopia and tritanopia
DEFAULT_COLORS: dict[int, Color] = DEFAULT_PALETTE.colors
WARNING: Color = DEFAULT_PALETTE.warning
MARKER: Color = (48, 48, 48)
#: the marker (column 1..4) that glows white on the dealing side: the fourth, at the end
#: away from the column the side to play's colour starts in
DEALER_MARKER = 4

STEADY_LEVEL = DEFAULT_PALETTE.steady
PULSE_PERIOD = 1.0
PULSE_LOW = 0.1
BUMP_PERIOD = 0.5
WARN_PERIOD = 0.4
OFFLINE_PERIOD = 1.0
CHASE_RATE = 12.0  # spaces per second
GIN_PERIOD = 0.5


def _check_side(side: object, what: str) -> int:
    if side not in (1, 2) or isinstance(side, bool):
        raise ValueError(f"{what}: side must be 1 or 2, got {side!r}")
    return int(side)  # type: ignore[call-overload,unused-ignore]


def _check_space(space: object, what: str) -> int:
    if isinstance(space, bool) or not isinstance(space, int) or not 0 <= space < SPACES:
        raise ValueError(f"{what}: space must be 0..{SPACES - 1}, got {space!r}")
    return space


def _check_board(board: object, what: str) -> None:
    if not isinstance(board, str) or len(board) != SPACES or set(board) - set(".12"):
        raise ValueError(f"{what} must be {SPACES} characters of '.', '1' and '2' in space order, got {board!r}")


@dataclass(frozen=True)
class SceneInput:
    """Everything the scene depends on except time.

    ``expected`` and ``sensed`` are 52-character strings (``.`` empty, ``1``/``2`` a
    chip of that side) in space order; ``sensed`` is ``None`` while the sensors are
    offline. In mirror mode (no Gin-Go game) pass ``expected = sensed``.
    ``links`` maps a side to its link path (spaces from row 1 to row 13) or ``None``;
    ``pending`` maps a space to the side whose chip goes there; ``bump`` a space to
    the side whose chip must leave; ``turn`` is the side to play, ``dealer`` the side
    that deals, ``gin`` the side
    that just called Gin; ``suit_rows`` maps a side to 4 suit letters by board
    column, ``.`` for a suit not chosen yet. ``colors``, ``warning`` and ``steady``
    (the resting chip's level) come from the LED palette (companion.hardware.palette).
    """

    expected: str
    sensed: str | None
    links: Mapping[int, list[int] | None] = field(default_factory=dict)
    pending: Mapping[int, int] = field(default_factory=dict)
    bump: Mapping[int, int] = field(default_factory=dict)
    turn: int | None = None
    gin: int | None = None
    dealer: int | None = None
    colors: Mapping[int, Color] = field(default_factory=lambda: dict(DEFAULT_COLORS))
    suit_rows: Mapping[int, str] = field(default_factory=dict)
    warning: Color = WARNING
    steady: float = STEADY_LEVEL

    def __post_init__(self) -> None:
        _check_board(self.expected, "scene.expected")
        if self.sensed is not None:
            _check_board(self.sensed, "scene.sensed")
        for side, path in self.links.items():
            _check_side(side, "scene.links")
            if path is not None:
                for s in path:
                    _check_space(s, f"scene.links[{side}]")
        for s, side in self.pending.items():
            _check_space(s, "scene.pending")
            _check_side(side, f"scene.pending[{s}]")
        for s, side in self.bump.items():
            _check_space(s, "scene.bump")
            _check_side(side, f"scene.bump[{s}]")
        if self.turn is not None:
            _check_side(self.turn, "scene.turn")
        if self.gin is not None:
            _check_side(self.gin, "scene.gin")
        if self.dealer is not None:
            _check_side(self.dealer, "scene.dealer")
        for side in (1, 2):
            c = self.colors.get(side)
            if (
                not isinstance(c, tuple)
                or len(c) != 3
                or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in c)
            ):
                raise ValueError(f"scene.colors[{side}] must be an (r, g, b) tuple of 0..255, got {c!r}")
        w = self.warning
        if not isinstance(w, tuple) or len(w) != 3 or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in w
        ):
            raise ValueError(f"scene.warning must be an (r, g, b) tuple of 0..255, got {w!r}")
        if isinstance(self.steady, bool) or not isinstance(self.steady, (int, float)) or not 0.05 <= self.steady <= 1.0:
            raise ValueError(f"scene.steady must be a level between 0.05 and 1, got {self.steady!r}")
        for side, row in self.suit_rows.items():
            _check_side(side, "scene.suit_rows")
            if not isinstance(row, str) or len(row) != 4:
                raise ValueError(f"scene.suit_rows[{side}] must be 4 characters (a suit or '.'), got {row!r}")


def scale(color: Color, level: float) -> Color:
    """``color`` at ``level`` (0..1), rounded.

    >>> scale((255, 100, 0), 0.4)
    (102, 40, 0)
    """
    return (round(color[0] * level), round(color[1] * level), round(color[2] * level))


def pulse_level(t: float) -> float:
    """Triangle wave from ``PULSE_LOW`` (at whole periods) to 1 (half way).

    >>> pulse_level(0.0), pulse_level(0.5), pulse_level(0.25)
    (0.1, 1.0, 0.55)
    """
    phase = (t % PULSE_PERIOD) / PULSE_PERIOD
    tri = 1.0 - abs(2.0 * phase - 1.0)
    return PULSE_LOW + (1.0 - PULSE_LOW) * tri


def _first_half(t: float, period: float) -> bool:
    return (t % period) < period / 2


def _space_color(
    scene: SceneInput, space: int, t: float, on_link: Mapping[int, int], link_spaces: Mapping[int, set[int]]
) -> Color:
    colors = scene.colors
    exp = scene.expected[space]
    sen = scene.sensed[space] if scene.sensed is not None else None
    if space in scene.bump:
        side = scene.bump[space]
        if sen is None or sen == str(side):
            other = 3 - side
            return colors[side] if _first_half(t, BUMP_PERIOD) else colors[other]
    if space in scene.pending:
        side = scene.pending[space]
        if sen == str(side):
            return scale(colors[side], scene.steady)
        if sen in ("1", "2"):
            return scene.warning if _first_half(t, WARN_PERIOD) else OFF
        return scale(colors[side], pulse_level(t))
    seen = exp if sen is None else sen
    if seen != "." and seen == exp:
        side = int(exp)
        head = on_link.get(space)
        if head is not None:
            return WHITE if head == side else colors[side]
        if space in link_spaces[side]:
            return colors[side]
        return scale(colors[side], scene.steady)
    if seen != ".":
        return scene.warning if _first_half(t, WARN_PERIOD) else OFF
    if exp != ".":
        return scale(colors[int(exp)], pulse_level(t))
    return OFF


def _chase_heads(scene: SceneInput, t: float) -> dict[int, int]:
    """space -> side for chase heads (Gin side only); other link spaces not included."""
    if scene.gin is None:
        return {}
    path = scene.links.get(scene.gin)
    if not path:
        return {}
    head = path[int(t * CHASE_RATE) % len(path)]
    return {head: scene.gin}


def _slot_color(scene: SceneInput, side: int, col: int, t: float) -> Color:
    if scene.sensed is None:
        return scene.warning if _first_half(t, OFFLINE_PERIOD) else OFF
    if scene.gin != side and scene.dealer == side and col == DEALER_MARKER:
        return WHITE
    row = scene.suit_rows.get(side)
    if row is not None and row[col - 1] == ".":
        return OFF
    if scene.gin == side:
        return WHITE if _first_half(t, GIN_PERIOD) else scene.colors[side]
    if scene.turn == side:
        return scene.colors[side]
    return MARKER


def render_scene(scene: SceneInput, t: float, layout: LedLayout) -> list[tuple[int, int, int]]:
    """One ``(r, g, b)`` per LED of ``layout`` for ``scene`` at time ``t`` (seconds).

    Pure: the same inputs always give the same frame.

    >>> from companion.hardware.layout import default_layout
    >>> lay = default_layout()
    >>> empty = "." * 52
    >>> scene = SceneInput(expected=empty, sensed=empty, pending={5: 2}, turn=2)
    >>> f0, f1 = render_scene(scene, 0.0, lay), render_scene(scene, 0.5, lay)
    >>> f0[lay.space_led(5)], f1[lay.space_led(5)], f0[lay.slot_led("side2_1")], f0[lay.slot_led("side1_1")]
    ((0, 4, 26), (0, 40, 255), (0, 40, 255), (48, 48, 48))
    """
    frame: list[Color] = [OFF] * layout.count
    heads = _chase_heads(scene, t)
    link_spaces = {side: set(scene.links.get(side) or ()) for side in (1, 2)}
    for space, led in enumerate(layout.space_leds):
        frame[led] = _space_color(scene, space, t, heads, link_spaces)
    for side in (1, 2):
        for col in range(1, 5):
            name = f"side{side}_{col}"
            if layout.has_slot(name):
                frame[layout.slot_led(name)] = _slot_color(scene, side, col, t)
    return frame


def animates(scene: SceneInput) -> bool:
    """True when :func:`render_scene` of ``scene`` changes with time: something pulses,
    flashes, alternates or chases (a chip to place or bump, a mismatch, the Gin chase,
    offline sensors). False means one frame shows it for as long as the scene holds, so
    the LEDs need no ticking (host CPU: an idle board renders nothing).

    >>> board = "1" + "." * 51
    >>> animates(SceneInput(expected=board, sensed=board))
    False
    >>> animates(SceneInput(expected=board, sensed="." * 52))   # a chip to place pulses
    True
    >>> animates(SceneInput(expected=board, sensed=None))       # offline: the markers blink
    True
    """
    if scene.sensed is None or scene.gin is not None or scene.bump:
        return True
    sensed, expected = scene.sensed, scene.expected
    for space, side in scene.pending.items():
        if sensed[space] != str(side):
            return True
    if sensed == expected:
        return False
    return any(e != s for i, (e, s) in enumerate(zip(expected, sensed)) if i not in scene.pending)


def render_columns(
    levels: Sequence[float], colors: Sequence[Color], layout: LedLayout, *, level: float = STEADY_LEVEL
) -> list[tuple[int, int, int]]:
    """The grid as four bar graphs (for the rummy variants, e.g. Color Gin's suits).

    Column ``c`` (1..4) lights rows 1 to ``round(levels[c - 1] * 13)`` in
    ``colors[c - 1]`` at ``level``; markers and the rest stay dark.

    >>> from companion.hardware.layout import default_layout
    >>> lay = default_layout()
    >>> frame = render_columns([1.0, 0.5, 0.0, 0.08], [(250, 0, 0)] * 4, lay, level=1.0)
    >>> sum(1 for c in frame if c != OFF)        # 13 + 6 (6.5 rounds to even) + 0 + 1
    20
    """
    if len(levels) != 4 or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and 0.0 <= v <= 1.0 for v in levels
    ):
        raise ValueError(f"columns: need 4 levels between 0 and 1, got {list(levels)!r}")
    if len(colors) != 4:
        raise ValueError(f"columns: need 4 colours, one per column, got {len(colors)}")
    frame: list[Color] = [OFF] * layout.count
    for col in range(4):
        lit = round(levels[col] * 13)
        for row in range(lit):
            frame[layout.space_led(row * 4 + col)] = scale(colors[col], level)
    return frame
