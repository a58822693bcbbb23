"""Which LED sits under which space: the LED layout.

The board has 60 LEDs on one chain: one under each of the 52 spaces and one under
each of the 8 suit-marker squares (4 at each end). Spaces are numbered
``space = (row - 1) * 4 + (col - 1)``, row 1..13 from side 1's edge and column 1..4
from side 1's left. The marker slots are named ``side1_1`` .. ``side1_4`` (the
marker row at side 1's end) and ``side2_1`` .. ``side2_4`` (side 2's end), numbered
by board column as seen from side 1.

The layout file (the reference one ships inside the package as
``companion/hardware/defaults/led_layout.toml``) either lists every LED explicitly::

    [layout]
    leds = ["side1_1", "side1_2", "side1_3", "side1_4", 7, 6, 5, 4, ...]

(entry *i* is what LED *i* lights: a space number, a slot name, or ``"none"`` for an
unused LED) or describes a wiring pattern::

    [layout]
    wiring = "serpentine"   # or "rows": every row runs from column 1 to 4
    start = "left"          # the first row runs from column 1 ("right": from column 4)
    markers = true          # the chain starts and ends with the 4-LED marker rows

:func:`default_layout` builds the reference wiring (serpentine from side 1's left
corner, markers included) in code; the packaged file lists the same wiring LED by LED.

>>> lay = default_layout()
>>> lay.count, lay.slot_led("side1_1"), lay.space_led(0), lay.space_led(4), lay.slot_led("side2_4")
(60, 0, 7, 8, 59)
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from companion.errors import ConfigError

from companion.hardware.defaults import read_default

SPACES = 52
ROWS = 13
COLUMNS = 4
SLOT_NAMES: tuple[str, ...] = tuple(f"side{s}_{c}" for s in (1, 2) for c in range(1, 5))

#: The packaged reference layout file (read from the package, checkout or wheel alike).
DEFAULT_LAYOUT = "led_layout.toml"

Target = int | str  # a space number or a slot name


class LayoutError(ConfigError):
    """The LED layout is inconsistent; the message names the LED or space at fault."""


@dataclass(frozen=True)
class LedLayout:
    """Map between LED indices and spaces or marker slots.

    ``targets[i]`` is what LED *i* lights: a space (int), a slot name, or ``None``.
    """

    targets: tuple[Target | None, ...]
    _space: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _slot: Mapping[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        space_to_led: dict[int, int] = {}
        slot_to_led: dict[str, int] = {}
        for i, t in enumerate(self.targets):
            if t is None:
                continue
            if isinstance(t, bool):
                raise LayoutError(f"LED {i}: {t!r} is not a space number or slot name")
            if isinstance(t, int):
                if not 0 <= t < SPACES:
                    raise LayoutError(f"LED {i}: space {t} is out of range 0..{SPACES - 1}")
                if t in space_to_led:
                    raise LayoutError(f"LED {i}: space {t} is already lit by LED {space_to_led[t]}")
                space_to_led[t] = i
            elif isinstance(t, str):
                if t not in SLOT_NAMES:
                    raise LayoutError(f"LED {i}: unknown slot {t!r}; slots are {', '.join(SLOT_NAMES)}")
                if t in slot_to_led:
                    raise LayoutError(f"LED {i}: slot {t} is already lit by LED {slot_to_led[t]}")
                slot_to_led[t] = i
            else:
                raise LayoutError(f"LED {i}: {t!r} is not a space number or slot name")
        missing = [s for s in range(SPACES) if s not in space_to_led]
        if missing:
            raise LayoutError(f"every space needs an LED; no LED for space(s) {missing}")
        object.__setattr__(self, "_space", tuple(space_to_led[s] for s in range(SPACES)))
        object.__setattr__(self, "_slot", dict(slot_to_led))

    @property
    def count(self) -> int:
        """Number of LEDs on the chain."""
        return len(self.targets)

    @property
    def space_leds(self) -> tuple[int, ...]:
        """LED index of every space, in space order."""
        return self._space

    def space_led(self, space: int) -> int:
        """LED index under ``space`` (0..51)."""
        if isinstance(space, bool) or not isinstance(space, int) or not 0 <= space < SPACES:
            raise ValueError(f"space must be 0..{SPACES - 1}, got {space!r}")
        return self._space[space]

    def slot_led(self, name: str) -> int:
        """LED index of marker slot ``name``; ``KeyError`` if this layout has none there."""
        if name not in SLOT_NAMES:
            raise ValueError(f"unknown slot {name!r}; slots are {', '.join(SLOT_NAMES)}")
        return self._slot[name]

    def has_slot(self, name: str) -> bool:
        return name in self._slot

    def target(self, led: int) -> Target | None:
        """What LED ``led`` lights (space, slot name or ``None``)."""
        return self.targets[led]


def wiring_targets(wiring: str = "serpentine", start: str = "left", markers: bool = True) -> list[Target]:
    """The LED targets of a regular wiring pattern, chain starting at side 1's edge.

    >>> wiring_targets("rows", markers=False)[:6]
    [0, 1, 2, 3, 4, 5]
    >>> wiring_targets("serpentine", markers=False)[:8]
    [0, 1, 2, 3, 7, 6, 5, 4]
    """
    if wiring not in ("serpentine", "rows"):
        raise LayoutError(f"layout.wiring must be 'serpentine' or 'rows', got {wiring!r}")
    if start not in ("left", "right"):
        raise LayoutError(f"layout.start must be 'left' or 'right', got {start!r}")
    lines: list[list[Target]] = []
    if markers:
        lines.append([f"side1_{c}" for c in range(1, 5)])
    for row in range(ROWS):
        lines.append([row * COLUMNS + c for c in range(COLUMNS)])
    if markers:
        lines.append([f"side2_{c}" for c in range(1, 5)])
    out: list[Target] = []
    for n, line in enumerate(lines):
        reverse = (start == "right") != (wiring == "serpentine" and n % 2 == 1)
        out.extend(reversed(line) if reverse else line)
    return out


def default_layout() -> LedLayout:
    """The reference board: 60 LEDs, serpentine from side 1's left corner."""
    return LedLayout(tuple(wiring_targets()))


def parse_layout(data: Mapping[str, Any], source: str = "layout") -> LedLayout:
    """Build a layout from parsed TOML (see the module docstring for the format)."""
    table = data.get("layout")
    if not isinstance(table, Mapping):
        raise LayoutError(f"{source}: needs a [layout] table")
    known = {"leds", "wiring", "start", "markers", "count"}
    unknown = sorted(set(table) - known)
    if unknown:
        raise LayoutError(f"{source}: unknown key layout.{unknown[0]}; known keys are {', '.join(sorted(known))}")
    if "leds" in table:
        raw = table["leds"]
        if not isinstance(raw, Sequence) or isinstance(raw, str):
            raise LayoutError(f"{source}: layout.leds must be a list")
        targets: list[Target | None] = [None if t == "none" else t for t in raw]
    else:
        markers = table.get("markers", True)
        if not isinstance(markers, bool):
            raise LayoutError(f"{source}: layout.markers must be true or false")
        targets = list(wiring_targets(str(table.get("wiring", "serpentine")), str(table.get("start", "left")), markers))
    if "count" in table:
        count = table["count"]
        if not isinstance(count, int) or count < len(targets):
            raise LayoutError(f"{source}: layout.count must be an integer of at least {len(targets)}, got {count!r}")
        targets.extend([None] * (count - len(targets)))
    try:
        return LedLayout(tuple(targets))
    except LayoutError as exc:
        raise LayoutError(f"{source}: {exc}") from None


def load_layout(path: str | None = None) -> LedLayout:
    """Load a layout file; with no path, the packaged reference layout.

    >>> load_layout() == default_layout()
    True
    """
    if path is None:
        try:
            return parse_layout(read_default(DEFAULT_LAYOUT), f"packaged {DEFAULT_LAYOUT}")
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise LayoutError(f"the packaged {DEFAULT_LAYOUT} cannot be read ({exc}); reinstall the companion") from None
    file = Path(path)
    try:
        with open(file, "rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise LayoutError(f"LED layout file {file} not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise LayoutError(f"{file}: not valid TOML ({exc})") from None
    except UnicodeDecodeError:
        raise LayoutError(f"{file}: not valid TOML (not UTF-8 text); save it as UTF-8") from None
    except OSError as exc:
        raise LayoutError(f"cannot read LED layout file {file}: {exc.strerror or exc}") from None
    return parse_layout(data, str(file))
