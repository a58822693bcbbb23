"""The 52 spaces of the Gin-Go board: numbering, names, masks and neighbours.

Spaces are ints 0..51, ``space = (row - 1) * 4 + (col - 1)`` with row 1..13 counted
from side 1's edge and column 1..4 from side 1's left. A set of spaces is a 52-bit mask
(bit ``space``); a neighbourhood is a shift and a mask, with king-move adjacency
(``"king8"``, the default) or 4-neighbour (``"ortho4"``).

>>> space_at(3, 2), row_col(9), space_name(9), mask_spaces(spaces_mask([9, 0]))
(9, (3, 2), 'r3c2', [0, 9])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from companion.errors import IllegalAction

SPACES: Final = 52
ROWS: Final = 13
COLS: Final = 4
ADJACENCIES: Final = ("king8", "ortho4")
FULL: Final = (1 << SPACES) - 1
ROW_MASKS: Final = tuple(0xF << (4 * r) for r in range(ROWS))  # index row - 1
COL_MASKS: Final = tuple(sum(1 << (4 * r + c) for r in range(ROWS)) for c in range(COLS))
ROW1: Final = ROW_MASKS[0]
ROW13: Final = ROW_MASKS[-1]
_NOT_LEFT: Final = FULL & ~COL_MASKS[0]
_NOT_RIGHT: Final = FULL & ~COL_MASKS[-1]


def check_space(space: object) -> int:
    if isinstance(space, bool) or not isinstance(space, int) or not 0 <= space < SPACES:
        raise IllegalAction(f"a space is an int 0..51 (space = (row-1)*4 + (col-1)), got {space!r}")
    return space


def space_at(row: int, col: int) -> int:
    """The space at ``row`` 1..13 (from side 1's edge) and ``col`` 1..4 (from side 1's left).

    >>> space_at(1, 1), space_at(3, 2), space_at(13, 4)
    (0, 9, 51)
    """
    for name, v, hi in (("row", row, ROWS), ("col", col, COLS)):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= hi:
            raise IllegalAction(f"{name} must be an int 1..{hi}, got {v!r}")
    return (row - 1) * COLS + (col - 1)


def row_col(space: int) -> tuple[int, int]:
    """``(row, col)`` of a space, both counted from 1 as side 1 sees the board."""
    r, c = divmod(check_space(space), COLS)
    return r + 1, c + 1


def space_name(space: int) -> str:
    """``'r3c2'`` for row 3, column 2 (side 1's view)."""
    r, c = row_col(space)
    return f"r{r}c{c}"


def parse_space(text: str | int) -> int:
    """Read ``'r3c2'`` (any case) or a space number ``'9'``.

    >>> parse_space("R3C2"), parse_space("51"), parse_space(7)
    (9, 51, 7)
    """
    if isinstance(text, int) and not isinstance(text, bool):
        return check_space(text)
    if not isinstance(text, str):
        raise IllegalAction(f"not a space: {text!r}")
    t = text.strip().lower()
    if t.isdigit():
        return check_space(int(t))
    if t.startswith("r") and "c" in t:
        row, _, col = t[1:].partition("c")
        if row.isdigit() and col.isdigit() and 1 <= int(row) <= ROWS and 1 <= int(col) <= COLS:
            return space_at(int(row), int(col))
    raise IllegalAction(f"not a space: {text!r} (write r<row 1-13>c<col 1-4> like r3c2, or a number 0..51)")


def spaces_mask(spaces: Iterable[int]) -> int:
    """The 52-bit mask of some spaces."""
    m = 0
    for s in spaces:
        m |= 1 << check_space(s)
    return m


def mask_spaces(mask: int) -> list[int]:
    """The spaces of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _spread_king8(m: int) -> int:
    h = m | ((m & _NOT_RIGHT) << 1) | ((m & _NOT_LEFT) >> 1)
    return (h | (h << COLS) | (h >> COLS)) & FULL


def _spread_ortho4(m: int) -> int:
    return (m | ((m & _NOT_RIGHT) << 1) | ((m & _NOT_LEFT) >> 1) | (m << COLS) | (m >> COLS)) & FULL


SPREAD: Final[dict[str, Callable[[int], int]]] = {"king8": _spread_king8, "ortho4": _spread_ortho4}
NEIGHBOURS: Final[dict[str, tuple[int, ...]]] = {
    adj: tuple(f(1 << s) & ~(1 << s) for s in range(SPACES)) for adj, f in SPREAD.items()
}
NEIGHBOUR_LISTS: Final[dict[str, tuple[tuple[int, ...], ...]]] = {
    adj: tuple(tuple(mask_spaces(m)) for m in masks) for adj, masks in NEIGHBOURS.items()
}


def check_adjacency(adjacency: str) -> str:
    if adjacency not in ADJACENCIES:
        raise IllegalAction(f"adjacency must be 'king8' (with diagonals) or 'ortho4', got {adjacency!r}")
    return adjacency


def neighbours(space: int, adjacency: str = "king8") -> list[int]:
    """The spaces next to ``space``.

    >>> neighbours(0), neighbours(0, "ortho4")
    ([1, 4, 5], [1, 4])
    """
    return mask_spaces(NEIGHBOURS[check_adjacency(adjacency)][check_space(space)])


def lowest_space(mask: int) -> int:
    """The lowest space of a non-empty mask."""
    return (mask & -mask).bit_length() - 1
