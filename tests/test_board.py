"""The Gin-Go board: geometry, chips and bumps, the supply, links and link distance."""

from __future__ import annotations

import doctest
import heapq

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import board as B
from companion.board import (
    Board,
    Frame,
    LinkEvent,
    distance_path_from_scratch,
    link_distance_from_scratch,
    link_from_scratch,
    neighbours,
    parse_space,
    row_col,
    space_at,
    space_name,
)


def test_doctests() -> None:
    assert doctest.testmod(B).failed == 0


def board(*rows: str, **kw: object) -> Board:
    return Board.parse("\n".join(rows), **kw)  # type: ignore[arg-type]


# -- an independent oracle: plain graph search on (row, col), no bit tricks ----


def _adjacent(a: int, b: int, adjacency: str) -> bool:
    (ra, ca), (rb, cb) = row_col(a), row_col(b)
    dr, dc = abs(ra - rb), abs(ca - cb)
    if adjacency == "ortho4":
        return dr + dc == 1
    return max(dr, dc) == 1


_NEAR = {adj: {u: [v for v in range(52) if _adjacent(u, v, adj)] for u in range(52)} for adj in ("king8", "ortho4")}


def oracle_distance(own: set[int], adjacency: str) -> int:
    """Dijkstra on the 52 spaces: entering an own space costs 0, any other 1."""
    best = {s: (0 if s in own else 1) for s in range(4)}
    heap = [(d, s) for s, d in best.items()]
    heapq.heapify(heap)
    while heap:
        d, u = heapq.heappop(heap)
        if d > best[u]:
            continue
        if row_col(u)[0] == 13:
            return d
        for v in _NEAR[adjacency][u]:
            nd = d + (0 if v in own else 1)
            if nd < best.get(v, 99):
                best[v] = nd
                heapq.heappush(heap, (nd, v))
    raise AssertionError("row 13 is always reachable")


def oracle_link_length(own: set[int], adjacency: str) -> int | None:
    """Spaces on the shortest own-chip chain from row 1 to row 13 (plain BFS)."""
    frontier = [s for s in own if s < 4]
    seen = set(frontier)
    length = 1
    while frontier:
        if any(s >= 48 for s in frontier):
            return length
        nxt = [v for u in frontier for v in _NEAR[adjacency][u] if v in own and v not in seen]
        seen.update(nxt)
        frontier = list(set(nxt))
        length += 1
    return None


def assert_valid_link(path: list[int], own: int, adjacency: str) -> None:
    assert row_col(path[0])[0] == 1 and row_col(path[-1])[0] == 13
    assert all(own >> s & 1 for s in path), "a link uses own chips only"
    assert len(set(path)) == len(path)
    assert all(_adjacent(a, b, adjacency) for a, b in zip(path, path[1:]))


# -- geometry -------------------------------------------------------------------


def test_space_numbering() -> None:
    seen = []
    for row in range(1, 14):
        for col in range(1, 5):
            s = space_at(row, col)
            assert row_col(s) == (row, col)
            assert parse_space(space_name(s)) == s
            seen.append(s)
    assert seen == list(range(52))
    assert space_name(9) == "r3c2" and parse_space(" R13C4 ") == 51 and parse_space("0") == 0


@pytest.mark.parametrize("bad", ["r0c1", "r14c1", "r3c5", "r3", "x", "52", "", "-1", "r3c2x"])
def test_parse_space_errors(bad: str) -> None:
    with pytest.raises(ValueError, match="space"):
        parse_space(bad)


@pytest.mark.parametrize("row, col", [(0, 1), (14, 1), (1, 0), (1, 5), (True, 1), (1.0, 1)])
def test_space_at_errors(row: object, col: object) -> None:
    with pytest.raises(ValueError, match="row|col"):
        space_at(row, col)  # type: ignore[arg-type]


def test_row_col_errors() -> None:
    for bad in (-1, 52, "3", None, False):
        with pytest.raises(ValueError, match="0..51"):
            row_col(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("adjacency", ["king8", "ortho4"])
def test_neighbours_match_the_grid(adjacency: str) -> None:
    for s in range(52):
        expect = [v for v in range(52) if _adjacent(s, v, adjacency)]
        assert neighbours(s, adjacency) == expect
    counts = {"king8": (3, 5, 8), "ortho4": (2, 3, 4)}[adjacency]
    corner, edge, middle = (len(neighbours(s, adjacency)) for s in (0, space_at(5, 1), space_at(5, 2)))
    assert (corner, edge, middle) == counts


def test_unknown_adjacency() -> None:
    with pytest.raises(ValueError, match="adjacency"):
        Board(adjacency="hex6")
    with pytest.raises(ValueError, match="adjacency"):
        link_from_scratch(0, "knight")


# -- text forms -----------------------------------------------------------------


ROWS = ["1...", ".1.2", "..12", "2..1", "....", "....", "12..", "....", "....", "....", "...2", "2...", "...1"]


def test_parse_and_write_round_trip() -> None:
    b = board(*ROWS)
    assert str(b) == "\n".join(ROWS)
    assert b.owner(0) == 1 and b.owner(space_at(2, 4)) == 2 and b.owner(space_at(5, 1)) == 0
    s52 = b.to_string52()
    assert s52 == "".join(ROWS) and len(s52) == 52
    assert Board.from_string52(s52) == b
    assert Board.parse("\n\n  " + "\n  ".join(ROWS) + "\n\n") == b
    assert eval(repr(b), {"Board": Board}) == b


@pytest.mark.parametrize(
    "text, words",
    [
        ("....\n" * 12, "got 12 lines"),
        ("....\n" * 14, "got 14 lines"),
        ("....\n" * 5 + "..x.\n" + "....\n" * 7, r"line 6, character 3: 'x'"),
        ("....\n" * 2 + "...\n" + "....\n" * 10, "line 3 is '...'"),
        ("1111\n" * 13, "52 chips on the board but only 50"),
    ],
)
def test_parse_errors(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Board.parse(text)


def test_parse_without_a_cap_allows_a_full_board() -> None:
    b = Board.parse("1111\n" * 13, chip_cap=None)
    assert b.count(1) == 52 and b.supply(1) is None and b.link(1) is not None


def test_string52_errors() -> None:
    with pytest.raises(ValueError, match="got 51"):
        Board.from_string52("." * 51)
    with pytest.raises(ValueError, match=r"space 9 \(r3c2\): '3'"):
        Board.from_string52("." * 9 + "3" + "." * 42)


def test_from_masks_errors() -> None:
    with pytest.raises(ValueError, match="both sides have a chip on r1c2"):
        Board.from_masks(0b10, 0b110)
    with pytest.raises(ValueError, match="52-bit mask"):
        Board.from_masks(1 << 52, 0)
    with pytest.raises(ValueError, match="chip_cap"):
        Board(chip_cap=-1)


# -- chips, bumps and the supply -----------------------------------------------------


def test_place_bumps_and_returns_chips_to_their_owner() -> None:
    b = Board()
    assert b.place(2, [5, 6, 7]) == []
    assert (b.supply(1), b.supply(2)) == (50, 47)
    res = b.place(1, [4, 5, 7])
    assert res == [5, 7] and res.bumped == [5, 7] and res.placed == [4, 5, 7] and res.forfeited == []
    assert [b.owner(s) for s in (4, 5, 6, 7)] == [1, 1, 2, 1]
    assert (b.supply(1), b.supply(2)) == (47, 49)


def test_placing_on_own_chip_changes_nothing() -> None:
    b = Board()
    b.place(1, [3, 8])
    before = str(b)
    res = b.place(1, [8, 3, 8])
    assert res == [] and res.placed == [] and str(b) == before and b.supply(1) == 48
    res = b.place(1, [9, 9])  # the same space twice takes one chip
    assert res.placed == [9] and b.supply(1) == 47


def test_short_supply_raises_and_leaves_the_board_unchanged() -> None:
    b = board(*(["111."] * 12 + ["22.."]), chip_cap=37)
    assert b.supply(1) == 1
    before = b.copy()
    with pytest.raises(ValueError, match=r"needs 3 chips but has 1 in supply, 2 short"):
        b.place(1, [3, 48, 49])
    assert b == before and b.link_events == []


def test_forfeit_fills_in_the_given_order() -> None:
    b = board(*(["111."] * 12 + ["22.."]), chip_cap=37)
    res = b.place(1, [48, 3, 49, 7], forfeit_extra=True)
    assert res == [48] and res.placed == [48] and res.forfeited == [3, 49, 7]
    assert b.supply(1) == 0 and b.supply(2) == 36
    assert res.link_events == [LinkEvent("formed", 1)]
    # A chip already there never counts as forfeited.
    res = b.place(1, [0, 51], forfeit_extra=True)
    assert res.placed == [] and res.forfeited == [51]


def test_unlimited_supply() -> None:
    b = Board(chip_cap=None)
    b.place(1, range(52))
    assert b.count(1) == 52 and b.supply(1) is None and b.supply(2) is None


def test_bad_place_arguments_change_nothing() -> None:
    b = Board()
    b.place(1, [0])
    for side, spaces in ((3, [1]), (0, [1]), (True, [1]), (1, [1, 52]), (2, [0, "4"]), (1, [None])):
        with pytest.raises(ValueError, match="side must be 1 or 2|0..51"):
            b.place(side, spaces)  # type: ignore[arg-type]
    assert b.to_string52() == "1" + "." * 51
    assert b.place(2, 0) == [0]  # a single space is accepted too


def test_lift() -> None:
    b = board(*(["1..."] * 13))
    assert b.lift(space_at(6, 1)) == 1
    assert b.lift(space_at(6, 1)) == 0
    assert b.supply(1) == 38 and b.link(1) is None
    assert b.pop_link_events() == [LinkEvent("broken", 1)]
    with pytest.raises(ValueError, match="0..51"):
        b.lift(60)


def test_copy_is_independent() -> None:
    b = board(*(["1..."] * 13))
    c = b.copy()
    c.place(2, [space_at(4, 1)])
    assert b.link(1) is not None and c.link(1) is None
    assert b.owner(space_at(4, 1)) == 1


# -- links -----------------------------------------------------------------------------


def test_straight_link() -> None:
    b = board(*([".1.."] * 13))
    assert b.link(1) == [space_at(r, 2) for r in range(1, 14)]
    assert b.link(2) is None and b.link_distance(1) == 0


def test_zigzag_link_needs_diagonals_only_with_king8() -> None:
    rows = ["1..." if r % 2 else ".1.." for r in range(1, 14)]
    assert board(*rows).link(1) == [space_at(r, 1 if r % 2 else 2) for r in range(1, 14)]
    b4 = board(*rows, adjacency="ortho4")
    assert b4.link(1) is None
    assert b4.link_distance(1) == 6  # column 1 at the six even rows fills every diagonal step
    assert link_distance_from_scratch(b4.mask(1), "ortho4") == oracle_distance(set(B.mask_spaces(b4.mask(1))), "ortho4")


def test_sideways_link() -> None:
    rows = ["1..."] * 3 + ["1111", "2221"] + ["...1"] * 8  # across row 4, past side 2's wall
    b4 = board(*rows, adjacency="ortho4")
    assert b4.link(1) == [0, 4, 8, 12, 13, 14, 15] + [space_at(r, 4) for r in range(5, 14)]
    b8 = board(*rows)  # with diagonals the corners are cut
    assert b8.link(1) == [0, 4, 8, 13, 14] + [space_at(r, 4) for r in range(5, 14)]
    for b in (b4, b8):
        path = b.link(1)
        assert path is not None
        assert_valid_link(path, b.mask(1), b.adjacency)


def test_link_broken_by_a_bump_and_restored() -> None:
    b = board(*(["1.2."] * 13))
    assert b.link(1) is not None and b.link(2) is not None  # both sides linked
    res = b.place(2, [space_at(9, 1)])
    assert res == [space_at(9, 1)]
    assert res.link_events == [LinkEvent("broken", 1)]
    assert b.link(1) is None and b.link(2) is not None
    assert b.link_distance(1) == 1
    path = b.distance_path(1)
    assert sum(1 for s in path if b.owner(s) != 1) == 1
    res = b.place(1, [space_at(9, 2)])  # round the bump diagonally
    assert res.link_events == [LinkEvent("formed", 1)]
    assert space_at(9, 2) in (b.link(1) or [])
    assert b.pop_link_events() == [LinkEvent("broken", 1), LinkEvent("formed", 1)]
    assert b.link_events == [] and b.pop_link_events() == []


def test_both_sides_linked_and_linked_to_their_own_ends() -> None:
    # Side 2's frame starts at its own edge (row 13) but every link joins rows 1 and 13.
    p2 = Frame(2, "SHDC")
    b = Board()
    b.place(2, [p2.space(f"{r}S") for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()])
    b.place(1, [space_at(r, 1) for r in range(1, 14)])
    assert b.links() == {1: [space_at(r, 1) for r in range(1, 14)], 2: [space_at(r, 4) for r in range(1, 14)]}


def test_ortho4_and_king8_differ_on_diagonal_steps() -> None:
    rows = ["1..."] * 6 + [".1.."] + ["..1."] * 6
    b8, b4 = board(*rows), board(*rows, adjacency="ortho4")
    assert b8.link(1) is not None and b4.link(1) is None
    assert b4.link_distance(1) == 2 and b8.link_distance(1) == 0


def test_link_distance_empty_board_and_decreasing() -> None:
    b = Board()
    assert b.link_distance(1) == b.link_distance(2) == 13
    assert b.distance_path(2) == [space_at(r, 1) for r in range(1, 14)]
    # Opposing chips cost the same as empty spaces (they can be bumped).
    b.place(2, [space_at(r, c) for r in range(1, 14) for c in (1, 2)])
    assert b.pop_link_events() == [LinkEvent("formed", 2)]
    assert b.link_distance(1) == 13
    want = 13
    while want:
        path = b.distance_path(1)
        assert sum(1 for s in path if b.owner(s) != 1) == want
        step = next(s for s in path if b.owner(s) != 1)
        b.place(1, [step])
        want -= 1
        assert b.link_distance(1) == want
    assert b.link(1) is not None and LinkEvent("formed", 1) in b.pop_link_events()


def test_link_distance_counts_only_missing_chips() -> None:
    b = board(*(["1..."] * 4 + ["...."] * 2 + ["..1."] * 7))
    assert b.link_distance(1) == 2
    assert b.link_distance(2) == 13


def test_bad_side() -> None:
    b = Board()
    for f in (b.link, b.link_distance, b.distance_path, b.mask, b.supply):
        with pytest.raises(ValueError, match="side must be 1 or 2"):
            f(0)


# -- properties: incremental == from scratch, and the oracle ------------------------------


ops = st.lists(
    st.one_of(
        st.tuples(st.just("place"), st.sampled_from([1, 2]), st.lists(st.integers(0, 51), max_size=8)),
        st.tuples(st.just("lift"), st.just(0), st.lists(st.integers(0, 51), min_size=1, max_size=1)),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(ops=ops, adjacency=st.sampled_from(["king8", "ortho4"]), cap=st.sampled_from([50, 30, None]))
def test_incremental_links_equal_from_scratch(ops: list[tuple[str, int, list[int]]], adjacency: str, cap: int | None) -> None:
    b = Board(chip_cap=cap, adjacency=adjacency)
    linked = {1: False, 2: False}
    for op, side, spaces in ops:
        if op == "place":
            b.place(side, spaces, forfeit_extra=True)
        else:
            b.lift(spaces[0])
        assert b.mask(1) & b.mask(2) == 0
        for s in (1, 2):
            if cap is not None:
                assert b.count(s) + (b.supply(s) or 0) == cap
            path = b.link(s)
            assert path == link_from_scratch(b.mask(s), adjacency)
            if path is not None:
                assert_valid_link(path, b.mask(s), adjacency)
        for kind, s in b.pop_link_events():
            assert linked[s] == (kind == "broken")
            linked[s] = kind == "formed"
        assert linked == {1: b.link(1) is not None, 2: b.link(2) is not None}


@settings(max_examples=300, deadline=None)
@given(own=st.integers(0, (1 << 52) - 1), other=st.integers(0, (1 << 52) - 1), adjacency=st.sampled_from(["king8", "ortho4"]))
def test_distance_and_link_against_the_oracle(own: int, other: int, adjacency: str) -> None:
    other &= ~own
    b = Board.from_masks(own, other, chip_cap=None, adjacency=adjacency)
    owned = set(B.mask_spaces(own))
    d = b.link_distance(1)
    assert d == oracle_distance(owned, adjacency)
    path = b.distance_path(1)
    assert row_col(path[0])[0] == 1 and row_col(path[-1])[0] == 13
    assert all(_adjacent(x, y, adjacency) for x, y in zip(path, path[1:]))
    assert sum(1 for s in path if s not in owned) == d
    assert path == distance_path_from_scratch(own, adjacency)
    link = b.link(1)
    assert (link is None) == (d > 0)
    length = oracle_link_length(owned, adjacency)
    assert (None if link is None else len(link)) == length


@settings(max_examples=100, deadline=None)
@given(s52=st.text(alphabet=".12", min_size=52, max_size=52))
def test_text_forms_round_trip(s52: str) -> None:
    b = Board.from_string52(s52, chip_cap=None)
    assert b.to_string52() == s52
    assert Board.parse(str(b), chip_cap=None) == b
    assert [b.owner(s) for s in range(52)] == [".12".index(ch) for ch in s52]
