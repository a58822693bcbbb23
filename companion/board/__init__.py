"""The Gin-Go board: 52 spaces, both sides' chips, bumps, the chip supply and links.

Spaces are ints 0..51, ``space = (row - 1) * 4 + (col - 1)`` with row 1..13 counted
from side 1's edge and column 1..4 from side 1's left. One side's chips are a 52-bit
mask (bit ``space``); neighbours and flood fills are shifts and masks. A *link* is a
chain of one side's chips joining board row 1 and board row 13 (both sides, whatever
their frame), with king-move adjacency by default or 4-neighbour
(``adjacency="ortho4"``).

Which space a card goes on is a side's :class:`Frame` (re-exported here from
:mod:`companion.suit_rows`, with the set-up helpers).

The package, one job per module, each name re-exported here:

* :mod:`~companion.board.spaces`: the spaces, their names, masks and neighbours
* :mod:`~companion.board.links`: links computed from a chip mask (pure functions)
* :mod:`~companion.board.state`: :class:`Board`, the chips of both sides and their links

>>> b = Board()
>>> p1 = Frame(1, "SHDC")
>>> b.place(1, [p1.space(f"{r}S") for r in "A 2 3 4 5 6 7 8 9 10 J Q".split()])
[]
>>> b.link(1) is None, b.link_distance(1)
(True, 1)
>>> b.place(1, [p1.space("KS")]).link_events
[LinkEvent(kind='formed', side=1)]
>>> b.place(2, [space_at(7, 1)])  # side 2 bumps the 7S chip: the link breaks
[24]
>>> b.pop_link_events()
[LinkEvent(kind='formed', side=1), LinkEvent(kind='broken', side=1)]
"""

from __future__ import annotations

from companion.board.links import distance_path_from_scratch, link_distance_from_scratch, link_from_scratch
from companion.board.spaces import (
    ADJACENCIES,
    COLS,
    ROWS,
    SPACES,
    mask_spaces,
    neighbours,
    parse_space,
    row_col,
    space_at,
    space_name,
    spaces_mask,
)
from companion.board.state import Board, LinkEvent, PlaceResult
from companion.suit_rows import (
    FORMATS,
    RANK_AXES,
    Frame,
    Reveal,
    normalize_format,
    parse_suit_row,
    reveal_suits,
    suit_rows,
)

__all__ = [
    "SPACES", "ROWS", "COLS", "ADJACENCIES", "FORMATS", "RANK_AXES",
    "space_at", "row_col", "space_name", "parse_space", "spaces_mask", "mask_spaces",
    "Frame", "Reveal", "reveal_suits", "suit_rows", "parse_suit_row", "normalize_format",
    "Board", "PlaceResult", "LinkEvent", "neighbours",
    "link_from_scratch", "link_distance_from_scratch", "distance_path_from_scratch",
]

