"""Links computed from nothing but one side's chip mask (pure functions).

A *link* is a chain of one side's chips joining board row 1 and board row 13. These
functions compute a shortest link, the fewest chips still needed for one, and a path
needing that many, from scratch; :class:`~companion.board.state.Board` keeps its links
up to date with them, and the tests and benchmarks check and time them against oracles.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from companion.board.spaces import (
    COLS,
    FULL,
    NEIGHBOUR_LISTS,
    NEIGHBOURS,
    ROW1,
    ROW13,
    ROW_MASKS,
    SPACES,
    SPREAD,
    check_adjacency,
    lowest_space,
    space_at,
)



def _fill(seed: int, within: int, spread: Callable[[int], int]) -> int:
    """Everything in ``within`` connected to ``seed`` (which is kept as it is)."""
    x = seed
    while True:
        nx = x | (spread(x) & within)
        if nx == x:
            return x
        x = nx


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
    spread = SPREAD[check_adjacency(adjacency)]
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
    cur = lowest_space(frontier & ROW13)
    path = [cur]
    for layer in reversed(layers[:-1]):
        cur = lowest_space(layer & near[cur])
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
    spread = SPREAD[check_adjacency(adjacency)]
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
    near = NEIGHBOUR_LISTS[check_adjacency(adjacency)]
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
