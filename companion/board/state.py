"""The board's state: both sides' chips on the 52 spaces, bumps, the chip supply and
links kept up to date on every change (:class:`Board`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from companion.errors import IllegalAction
from companion.board.links import distance_path_from_scratch, link_distance_from_scratch, link_from_scratch
from companion.board.spaces import (
    COLS,
    FULL,
    ROWS,
    SPACES,
    check_adjacency,
    check_space,
    lowest_space,
    space_name,
    spaces_mask,
)


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
        raise IllegalAction(f"side must be 1 or 2, got {side!r}")
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
            raise IllegalAction(f"chip_cap must be a whole number of chips or None (unlimited), got {chip_cap!r}")
        self._cap = chip_cap
        self._adjacency = check_adjacency(adjacency)
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
                raise IllegalAction(f"side {side}'s chips must be a 52-bit mask, got {m!r}")
            if chip_cap is not None and m.bit_count() > chip_cap:
                raise IllegalAction(
                    f"side {side} has {m.bit_count()} chips on the board but only {chip_cap} chips "
                    "(chip cap: each side owns a fixed number of chips)"
                )
        if side1 & side2:
            raise IllegalAction(f"both sides have a chip on {space_name(lowest_space(side1 & side2))}")
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
            raise IllegalAction(f"a board is 13 lines of 4 characters (row 1 first), got {len(lines)} lines")
        masks = [0, 0, 0]
        for r, line in enumerate(lines):
            if len(line) != COLS:
                raise IllegalAction(f"board line {r + 1} is {line!r}: each line has 4 characters of . 1 2")
            for c, ch in enumerate(line):
                if ch not in ".12":
                    raise IllegalAction(f"board line {r + 1}, character {c + 1}: {ch!r} is not '.', '1' or '2'")
                if ch != ".":
                    masks[int(ch)] |= 1 << (r * COLS + c)
        return cls.from_masks(masks[1], masks[2], chip_cap=chip_cap, adjacency=adjacency)

    @classmethod
    def from_string52(cls, text: str, *, chip_cap: int | None = 50, adjacency: str = "king8") -> Board:
        """Read the API's 52-character form (``. 1 2`` in space order)."""
        if not isinstance(text, str) or len(text) != SPACES:
            got = len(text) if isinstance(text, str) else type(text).__name__
            raise IllegalAction(f"a board string has 52 characters of . 1 2 in space order, got {got}")
        masks = [0, 0, 0]
        for s, ch in enumerate(text):
            if ch not in ".12":
                raise IllegalAction(f"board string, space {s} ({space_name(s)}): {ch!r} is not '.', '1' or '2'")
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
        bit = 1 << check_space(space)
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
        companion.errors.IllegalAction: side 1 needs 1 chip but has 0 in supply, 1 short (chip cap: each side owns 3 chips): choose which spaces to fill and forfeit the rest
        """
        side = _check_side(side)
        wanted = [spaces] if isinstance(spaces, int) else list(spaces)
        for s in wanted:
            check_space(s)
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
                raise IllegalAction(
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
