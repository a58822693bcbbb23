"""The Gin-Go board: 52 spaces, both sides' chips, bumps, the chip supply and links.

Spaces are ints 0..51, ``space = (row - 1) * 4 + (col - 1)`` with row 1..13 counted
from side 1's edge and column 1..4 from side 1's left. One side's chips are a 52-bit
mask (bit ``space``); neighbours and flood fills are shifts and masks. A *link* is a
chain of one side's chips joining board row 1 and board row 13 (both sides, whatever
their frame), with king-move adjacency by default or 4-neighbour
(``adjacency="ortho4"``).

Which space a card goes on is a side's :class:`Frame` (re-exported here from
:mod:`companion.suit_rows`, with the set-up helpers).

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

from collections import deque
from collections.abc import Callable, Iterable
from typing import Final, NamedTuple

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


# ---------------------------------------------------------------------------
# Geometry


def _check_space(space: object) -> int:
    if isinstance(space, bool) or not isinstance(space, int) or not 0 <= space < SPACES:
        raise ValueError(f"a space is an int 0..51 (space = (row-1)*4 + (col-1)), got {space!r}")
    return space


def space_at(row: int, col: int) -> int:
    """The space at ``row`` 1..13 (from side 1's edge) and ``col`` 1..4 (from side 1's left).

    >>> space_at(1, 1), space_at(3, 2), space_at(13, 4)
    (0, 9, 51)
    """
    for name, v, hi in (("row", row, ROWS), ("col", col, COLS)):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= hi:
            raise ValueError(f"{name} must be an int 1..{hi}, got {v!r}")
    return (row - 1) * COLS + (col - 1)


def row_col(space: int) -> tuple[int, int]:
    """``(row, col)`` of a space, both counted from 1 as side 1 sees the board."""
    r, c = divmod(_check_space(space), COLS)
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
        return _check_space(text)
    if not isinstance(text, str):
        raise ValueError(f"not a space: {text!r}")
    t = text.strip().lower()
    if t.isdigit():
        return _check_space(int(t))
    if t.startswith("r") and "c" in t:
        row, _, col = t[1:].partition("c")
        if row.isdigit() and col.isdigit() and 1 <= int(row) <= ROWS and 1 <= int(col) <= COLS:
            return space_at(int(row), int(col))
    raise ValueError(f"not a space: {text!r} (write r<row 1-13>c<col 1-4> like r3c2, or a number 0..51)")


def spaces_mask(spaces: Iterable[int]) -> int:
    """The 52-bit mask of some spaces."""
    m = 0
    for s in spaces:
        m |= 1 << _check_space(s)
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


_SPREAD: Final[dict[str, Callable[[int], int]]] = {"king8": _spread_king8, "ortho4": _spread_ortho4}
NEIGHBOURS: Final[dict[str, tuple[int, ...]]] = {
    adj: tuple(f(1 << s) & ~(1 << s) for s in range(SPACES)) for adj, f in _SPREAD.items()
}
_NEIGHBOUR_LISTS: Final[dict[str, tuple[tuple[int, ...], ...]]] = {
    adj: tuple(tuple(mask_spaces(m)) for m in masks) for adj, masks in NEIGHBOURS.items()
}


def _check_adjacency(adjacency: str) -> str:
    if adjacency not in ADJACENCIES:
        raise ValueError(f"adjacency must be 'king8' (with diagonals) or 'ortho4', got {adjacency!r}")
    return adjacency


def neighbours(space: int, adjacency: str = "king8") -> list[int]:
    """The spaces next to ``space``.

    >>> neighbours(0), neighbours(0, "ortho4")
    ([1, 4, 5], [1, 4])
    """
    return mask_spaces(NEIGHBOURS[_check_adjacency(adjacency)][_check_space(space)])


# ---------------------------------------------------------------------------
# Links, computed from nothing but a mask (pure functions)


def _fill(seed: int, within: int, spread: Callable[[int], int]) -> int:
    """Everything in ``within`` connected to ``seed`` (which is kept as it is)."""
    x = seed
    while True:
        nx = x | (spread(x) & within)
        if nx == x:
            return x
        x = nx


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def link_from_scratch(mask: int, adjacency: str = "king8") -> list[int] | None:
    """A shortest chain of spaces in ``mask`` from row 1 to row 13, or None.

    Breadth-first by layers of bits; the path ends on the lowest row-13 space of the
    last layer and steps back to the lowest neighbour each time, so it is
    deterministic. Row 1's space comes first.

    >>> link_from_scratch(sum(1 << space_at(r, 1 + r % 2) for r in range(1, 14)))
    [1, 4, 9, 12, 17, 20, 25, 28, 33, 36, 41, 44, 49]
    >>> link_from_scratch(sum(1 << space_at(r, 1 + r % 2) for r in range(1, 14)), "ortho4") is None
    True
    """
    spread = _SPREAD[_check_adjacency(adjacency)]
    frontier = mask & ROW1
    seen = frontier
    layers = [frontier]
    while not frontier & ROW13:
        if not frontier:
            return None
        frontier = spread(frontier) & mask & ~seen
        seen |= frontier
        layers.append(frontier)
    near = NEIGHBOURS[adjacency]
    cur = _low(frontier & ROW13)
    path = [cur]
    for layer in reversed(layers[:-1]):
        cur = _low(layer & near[cur])
        path.append(cur)
    path.reverse()
    return path


def link_distance_from_scratch(mask: int, adjacency: str = "king8") -> int:
    """Fewest more chips the owner of ``mask`` needs for a link (0 when linked).

    Cost levels as masks: everything reachable for ``d`` chips, grown through own
    chips for free. An empty board gives 13.

    >>> link_distance_from_scratch(0), link_distance_from_scratch(ROW_MASKS[6])
    (13, 12)
    """
    spread = _SPREAD[_check_adjacency(adjacency)]
    mask &= FULL
    reach = _fill(mask & ROW1, mask, spread)
    d = 0
    while not reach & ROW13:
        d += 1
        reach = _fill(reach | spread(reach) | ROW1, mask, spread)
    return d


def distance_path_from_scratch(mask: int, adjacency: str = "king8") -> list[int]:
    """A row-1-to-row-13 path that needs the fewest new chips (0-1 breadth-first search).

    Own chips cost 0, empty or opposing spaces cost 1; the number of spaces on the
    path that are not in ``mask`` equals :func:`link_distance_from_scratch`.

    >>> distance_path_from_scratch(0)
    [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48]
    """
    near = _NEIGHBOUR_LISTS[_check_adjacency(adjacency)]
    big = SPACES + 1
    dist = [big] * SPACES
    parent = [-1] * SPACES
    done = [False] * SPACES
    todo: deque[int] = deque()
    for s in range(COLS):
        dist[s] = 0 if mask >> s & 1 else 1
        (todo.appendleft if dist[s] == 0 else todo.append)(s)
    while todo:
        u = todo.popleft()
        if done[u]:
            continue
        done[u] = True
        du = dist[u]
        for v in near[u]:
            if mask >> v & 1:
                if du < dist[v]:
                    dist[v] = du
                    parent[v] = u
                    todo.appendleft(v)
            elif du + 1 < dist[v]:
                dist[v] = du + 1
                parent[v] = u
                todo.append(v)
    goal = min(range(SPACES - COLS, SPACES), key=lambda s: (dist[s], s))
    path = [goal]
    while parent[path[-1]] >= 0:
        path.append(parent[path[-1]])
    path.reverse()
    return path


# ---------------------------------------------------------------------------
# Board state


class LinkEvent(NamedTuple):
    """A link ``"formed"`` or ``"broken"`` for ``side`` by a place or lift."""

    kind: str
    side: int


class PlaceResult(list[int]):
    """What :meth:`Board.place` did: the list itself holds the bumped spaces (in the
    order given); ``placed`` the spaces that got a new chip, ``forfeited`` the spaces
    left unfilled for lack of chips, ``link_events`` the links formed or broken."""

    def __init__(
        self,
        bumped: Iterable[int] = (),
        placed: Iterable[int] = (),
        forfeited: Iterable[int] = (),
        link_events: Iterable[LinkEvent] = (),
    ) -> None:
        super().__init__(bumped)
        self.placed: list[int] = list(placed)
        self.forfeited: list[int] = list(forfeited)
        self.link_events: list[LinkEvent] = list(link_events)

    @property
    def bumped(self) -> list[int]:
        return list(self)


def _check_side(side: object) -> int:
    if isinstance(side, bool) or side not in (1, 2):
        raise ValueError(f"side must be 1 or 2, got {side!r}")
    assert isinstance(side, int)
    return side


class Board:
    """Both sides' chips on the 52 spaces, the chip supply and the links.

    ``chip_cap`` is the chips each side owns (50; None for unlimited);
    ``adjacency`` is ``"king8"`` (default) or ``"ortho4"``.

    Links are kept up to date on every change and recomputed only for a side whose
    chips changed in a way that can alter its link: a side that gained chips, or lost
    a chip on its link. Each link formed or broken is appended to ``link_events``
    (a list of :class:`LinkEvent`; :meth:`pop_link_events` hands them over and clears
    it) and returned in the :class:`PlaceResult` of the call that caused it.

    >>> b = Board.parse("1...\\n" * 13)
    >>> b.link(1)[:3], b.supply(1), b.supply(2), b.link_distance(2)
    ([0, 4, 8], 37, 50, 13)
    """

    def __init__(self, chip_cap: int | None = 50, adjacency: str = "king8") -> None:
        if chip_cap is not None and (isinstance(chip_cap, bool) or not isinstance(chip_cap, int) or chip_cap < 0):
            raise ValueError(f"chip_cap must be a whole number of chips or None (unlimited), got {chip_cap!r}")
        self._cap = chip_cap
        self._adjacency = _check_adjacency(adjacency)
        self._masks = [0, 0, 0]
        self._links: dict[int, list[int] | None] = {1: None, 2: None}
        self._dist: dict[int, int | None] = {1: None, 2: None}  # caches, cleared on change
        self._dpath: dict[int, list[int] | None] = {1: None, 2: None}
        self.link_events: list[LinkEvent] = []

    # -- construction and text ------------------------------------------------

    @classmethod
    def from_masks(cls, side1: int, side2: int, *, chip_cap: int | None = 50, adjacency: str = "king8") -> Board:
        """A board from each side's 52-bit chip mask."""
        b = cls(chip_cap, adjacency)
        for side, m in ((1, side1), (2, side2)):
            if isinstance(m, bool) or not isinstance(m, int) or m < 0 or m > FULL:
                raise ValueError(f"side {side}'s chips must be a 52-bit mask, got {m!r}")
            if chip_cap is not None and m.bit_count() > chip_cap:
                raise ValueError(
                    f"side {side} has {m.bit_count()} chips on the board but only {chip_cap} chips "
                    "(chip cap: each side owns a fixed number of chips)"
                )
        if side1 & side2:
            raise ValueError(f"both sides have a chip on {space_name(_low(side1 & side2))}")
        b._masks = [0, side1, side2]
        for side in (1, 2):
            b._links[side] = link_from_scratch(b._masks[side], adjacency)
        return b

    @classmethod
    def parse(cls, text: str, *, chip_cap: int | None = 50, adjacency: str = "king8") -> Board:
        """Read 13 lines of 4 characters (``.`` empty, ``1``, ``2``), row 1 first."""
        lines = [ln.strip() for ln in str(text).splitlines()]
        while lines and not lines[-1]:
            lines.pop()
        while lines and not lines[0]:
            lines.pop(0)
        if len(lines) != ROWS:
            raise ValueError(f"a board is 13 lines of 4 characters (row 1 first), got {len(lines)} lines")
        masks = [0, 0, 0]
        for r, line in enumerate(lines):
            if len(line) != COLS:
                raise ValueError(f"board line {r + 1} is {line!r}: each line has 4 characters of . 1 2")
            for c, ch in enumerate(line):
                if ch not in ".12":
                    raise ValueError(f"board line {r + 1}, character {c + 1}: {ch!r} is not '.', '1' or '2'")
                if ch != ".":
                    masks[int(ch)] |= 1 << (r * COLS + c)
        return cls.from_masks(masks[1], masks[2], chip_cap=chip_cap, adjacency=adjacency)

    @classmethod
    def from_string52(cls, text: str, *, chip_cap: int | None = 50, adjacency: str = "king8") -> Board:
        """Read the API's 52-character form (``. 1 2`` in space order)."""
        if not isinstance(text, str) or len(text) != SPACES:
            got = len(text) if isinstance(text, str) else type(text).__name__
            raise ValueError(f"a board string has 52 characters of . 1 2 in space order, got {got}")
        masks = [0, 0, 0]
        for s, ch in enumerate(text):
            if ch not in ".12":
                raise ValueError(f"board string, space {s} ({space_name(s)}): {ch!r} is not '.', '1' or '2'")
            if ch != ".":
                masks[int(ch)] |= 1 << s
        return cls.from_masks(masks[1], masks[2], chip_cap=chip_cap, adjacency=adjacency)

    def to_string52(self) -> str:
        """The 52-character form: ``. 1 2`` in space order."""
        return "".join(".12"[self.owner(s)] for s in range(SPACES))

    def __str__(self) -> str:
        s = self.to_string52()
        return "\n".join(s[i : i + COLS] for i in range(0, SPACES, COLS))

    def __repr__(self) -> str:
        return f"Board.from_string52({self.to_string52()!r}, chip_cap={self._cap!r}, adjacency={self._adjacency!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self._masks, self._cap, self._adjacency) == (other._masks, other._cap, other._adjacency)

    __hash__ = None  # type: ignore[assignment]

    def copy(self) -> Board:
        """An independent board with the same chips, links and settings (no events)."""
        b = Board(self._cap, self._adjacency)
        b._masks = list(self._masks)
        b._links = {s: (None if p is None else list(p)) for s, p in self._links.items()}
        b._dist = dict(self._dist)
        b._dpath = dict(self._dpath)
        return b

    # -- reading ----------------------------------------------------------------

    @property
    def chip_cap(self) -> int | None:
        return self._cap

    @property
    def adjacency(self) -> str:
        return self._adjacency

    def owner(self, space: int) -> int:
        """0 for an empty space, else the side (1 or 2) whose chip is on it."""
        bit = 1 << _check_space(space)
        return 1 if self._masks[1] & bit else 2 if self._masks[2] & bit else 0

    def mask(self, side: int) -> int:
        """The 52-bit mask of ``side``'s chips."""
        return self._masks[_check_side(side)]

    def count(self, side: int) -> int:
        """How many of ``side``'s chips are on the board."""
        return self.mask(side).bit_count()

    def supply(self, side: int) -> int | None:
        """Chips ``side`` has left to place (None when the cap is unlimited)."""
        n = self.count(side)
        return None if self._cap is None else self._cap - n

    # -- changing -----------------------------------------------------------------

    def place(self, side: int, spaces: Iterable[int] | int, *, forfeit_extra: bool = False) -> PlaceResult:
        """Put ``side``'s chips on ``spaces``, bumping opposing chips; return the bumped spaces.

        A space that already holds ``side``'s chip (or is given twice) changes nothing
        and takes no chip. Bumped chips go back to their owner's supply. If ``side``
        has fewer chips in supply than new spaces, this raises ``ValueError`` naming
        the shortfall, unless ``forfeit_extra=True``: then the spaces are filled in the
        order given while chips last and the rest are listed in ``result.forfeited``
        (the caller puts the player's chosen spaces first). On error nothing changes.

        >>> b = Board(chip_cap=3)
        >>> b.place(2, [5])
        []
        >>> r = b.place(1, [4, 5, 6, 7], forfeit_extra=True)
        >>> r, r.placed, r.forfeited, b.supply(1), b.supply(2)
        ([5], [4, 5, 6], [7], 0, 3)
        >>> b.place(1, [8])
        Traceback (most recent call last):
        ...
        ValueError: side 1 needs 1 chip but has 0 in supply, 1 short (chip cap: each side owns 3 chips): choose which spaces to fill and forfeit the rest
        """
        side = _check_side(side)
        wanted = [spaces] if isinstance(spaces, int) else list(spaces)
        for s in wanted:
            _check_space(s)
        own, other = self._masks[side], self._masks[3 - side]
        new: list[int] = []
        seen = own
        for s in wanted:
            if not seen >> s & 1:
                seen |= 1 << s
                new.append(s)
        supply = self.supply(side)
        forfeited: list[int] = []
        if supply is not None and len(new) > supply:
            if not forfeit_extra:
                raise ValueError(
                    f"side {side} needs {len(new)} chip{'s' if len(new) != 1 else ''} but has {supply} in supply, "
                    f"{len(new) - supply} short (chip cap: each side owns {self._cap} chips): "
                    "choose which spaces to fill and forfeit the rest"
                )
            new, forfeited = new[:supply], new[supply:]
        add = spaces_mask(new)
        bumped = [s for s in new if other >> s & 1]
        self._masks[side] = own | add
        self._masks[3 - side] = other & ~add
        events = self._relink(side, gained=bool(add), lost=0)
        events += self._relink(3 - side, gained=False, lost=other & add)
        return PlaceResult(bumped, new, forfeited, events)

    def lift(self, space: int) -> int:
        """Take the chip off ``space`` back to its owner's supply; return that side (0 if empty)."""
        who = self.owner(space)
        if who:
            self._masks[who] &= ~(1 << space)
            self._relink(who, gained=False, lost=1 << space)
        return who

    def pop_link_events(self) -> list[LinkEvent]:
        """The links formed or broken since the last call, oldest first; clears them."""
        out, self.link_events = self.link_events, []
        return out

    def _relink(self, side: int, *, gained: bool, lost: int) -> list[LinkEvent]:
        if not gained and not lost:
            return []
        self._dist[side] = self._dpath[side] = None
        old = self._links[side]
        if gained or (old is not None and lost & spaces_mask(old)):
            new = link_from_scratch(self._masks[side], self._adjacency)
        else:  # lost chips off the link (or no link): the shortest link is unchanged
            new = old
        self._links[side] = new
        events: list[LinkEvent] = []
        if (old is None) != (new is None):
            events.append(LinkEvent("broken" if new is None else "formed", side))
        self.link_events += events
        return events

    # -- links ----------------------------------------------------------------------

    def link(self, side: int) -> list[int] | None:
        """One shortest chain of ``side``'s chips from row 1 to row 13, or None."""
        path = self._links[_check_side(side)]
        return None if path is None else list(path)

    def links(self) -> dict[int, list[int] | None]:
        """``{1: link(1), 2: link(2)}``."""
        return {1: self.link(1), 2: self.link(2)}

    def link_distance(self, side: int) -> int:
        """How many more chips ``side`` needs for a link (0 when linked; 13 on an empty board)."""
        side = _check_side(side)
        d = self._dist[side]
        if d is None:
            d = self._dist[side] = link_distance_from_scratch(self._masks[side], self._adjacency)
        return d

    def distance_path(self, side: int) -> list[int]:
        """A row-1-to-row-13 path needing :meth:`link_distance` new chips (its own chips free)."""
        side = _check_side(side)
        path = self._dpath[side]
        if path is None:
            path = self._dpath[side] = distance_path_from_scratch(self._masks[side], self._adjacency)
        return list(path)
