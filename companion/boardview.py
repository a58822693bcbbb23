"""The board view: what the sensors see against what the Gin-Go game expects, as pure
functions (no threads, no I/O). :mod:`companion.hardware.sync` runs them against the live sensors.

:func:`compare` lists *every* disagreement between the expected board and the sensed
one (52 characters ``.``, ``1``, ``2`` in space order, or None while the sensors are
offline) at once: chips still to place (``pending``), opposing chips still to bump
(``bumps``) and chips where none belong (``unexpected``). Links are always checked on
the sensed board, so what the players see is what counts. :func:`link_news` turns two
views' links into the live messages; :func:`scene_fields` turns a view and its game into
the LED scene's input.

>>> view = compare("11" + "." * 50, "1." + "2" + "." * 49)
>>> view["mismatches"], view["pending"], view["unexpected"], view["bumps"]
([1, 2], [1], [2], [])
>>> compare(None, None)["sensed"] is None
True
"""

from __future__ import annotations

from typing import Any

from companion.board import Board

SPACES = 52
_CHARS = frozenset(".12")


def check_board(board: str, what: str = "board") -> str:
    """``board`` if it is 52 characters of ``.``, ``1``, ``2``; else ``ValueError``."""
    if not isinstance(board, str) or len(board) != SPACES or not set(board) <= _CHARS:
        raise ValueError(f"a {what} is {SPACES} characters of '.', '1', '2' in space order; got {board!r}")
    return board


def links_of(board: str | None, adjacency: str = "king8") -> tuple[dict[str, list[int] | None], dict[str, int | None]]:
    """Each side's A-to-K link on ``board`` (a list of spaces or None) and how many
    more chips it needs at least (0 when linked). All None when the board is unknown."""
    empty: dict[str, list[int] | None] = {"1": None, "2": None}
    nodist: dict[str, int | None] = {"1": None, "2": None}
    if board is None:
        return empty, nodist
    b = Board.from_string52(board, chip_cap=None, adjacency=adjacency)
    links: dict[str, list[int] | None] = {}
    dist: dict[str, int | None] = {}
    for side in (1, 2):
        path = b.link(side)
        links[str(side)] = None if path is None else [int(s) for s in path]
        d = b.link_distance(side)
        dist[str(side)] = None if d is None else int(d)
    return links, dist


def compare(expected: str | None, sensed: str | None, adjacency: str = "king8") -> dict[str, Any]:
    """Every difference between the expected and the sensed board, at once.

    With ``expected`` None (mirror mode) the sensed board is what is expected. With
    ``sensed`` None (sensors offline) nothing is compared and nothing is guessed.
    """
    if sensed is not None:
        check_board(sensed, "sensed board")
    if expected is not None:
        check_board(expected, "expected board")
    mirror = expected is None
    exp = sensed if mirror else expected
    pending: list[int] = []
    bumps: list[int] = []
    unexpected: list[int] = []
    if exp is not None and sensed is not None:
        for i, (e, s) in enumerate(zip(exp, sensed)):
            if e == s:
                continue
            if s == ".":
                pending.append(i)
            elif e == ".":
                unexpected.append(i)
            else:
                bumps.append(i)
    links, dist = links_of(sensed, adjacency)
    return {
        "expected": exp,
        "sensed": sensed,
        "mode": "mirror" if mirror else "game",
        "online": sensed is not None,
        "mismatches": sorted(pending + bumps + unexpected),
        "pending": pending,
        "bumps": bumps,
        "unexpected": unexpected,
        "links": links,
        "link_distance": dist,
    }


def link_news(before: dict[str, list[int] | None], after: dict[str, list[int] | None]) -> list[dict[str, Any]]:
    """Live messages for each side whose link appeared or went.

    >>> link_news({"1": None, "2": None}, {"1": [0, 4], "2": None})
    [{'type': 'link', 'side': 1, 'formed': True, 'path': [0, 4]}]
    """
    out = []
    for side in ("1", "2"):
        had, has = before.get(side) is not None, after.get(side) is not None
        if had != has:
            out.append({"type": "link", "side": int(side), "formed": has, "path": after.get(side)})
    return out


def adjacency_of(game: dict[str, Any] | None) -> str:
    """The adjacency the Gin-Go ``game`` links by (``king8`` without a game).

    >>> adjacency_of(None), adjacency_of({"options": {"adjacency": "rook4"}})
    ('king8', 'rook4')
    """
    if game is None:
        return "king8"
    return str((game.get("options") or {}).get("adjacency", "king8"))


def board_view(game: dict[str, Any] | None, sensed: str | None, *, cleared: bool = True) -> dict[str, Any]:
    """The whole board view (``GET /api/v1/board``) of the active Gin-Go ``game`` (None:
    mirror mode) and the ``sensed`` board (None: sensors offline).

    A finished game is still followed (``finished`` true), so the winning capture's chips
    and the winning link show where they go, until its chips are cleared off: then the
    board mirrors again. ``cleared`` says whether the board was emptied since the game
    ended (the board sync knows; False keeps showing a finished game on an empty board,
    as on a board whose chips were never placed).

    >>> v = board_view({"id": "g1", "board": "1" + "." * 51, "options": {}}, "." * 52)
    >>> v["game"], v["pending"], v["mode"]
    ('g1', [0], 'game')
    >>> done = {"id": "g1", "board": "1" + "." * 51, "options": {}, "finished": True}
    >>> board_view(done, "1" + "." * 51)["finished"], board_view(done, "." * 52)["mode"]
    (True, 'mirror')
    >>> board_view(done, "." * 52, cleared=False)["pending"]
    [0]
    """
    if game is not None and game.get("finished") and cleared and sensed is not None and set(sensed) == {"."}:
        game = None  # a finished game's chips were cleared off: the board mirrors again
    view = compare(None if game is None else str(game["board"]), sensed, adjacency_of(game))
    view["game"] = None if game is None else game["id"]
    view["finished"] = bool(game is not None and game.get("finished"))
    return view


def turn_side(game: dict[str, Any] | None) -> int | None:
    """The side to play in a Gin-Go game (its ``state.turn`` is a seat: even seats play
    side 1, odd seats side 2; a table game counts a turn from the plays entered); None
    when nobody is to play: no game, no hand in play, or the game is over.

    >>> turn_side({"state": {"full_play": True, "phase": "play", "turn": 1}})
    2
    >>> turn_side({"state": {"phase": "play", "suit_rows": {}}}) is None
    True
    """
    state = (game or {}).get("state") or {}
    turn = state.get("turn")
    if isinstance(turn, bool) or not isinstance(turn, int) or state.get("phase") != "play":
        return None
    if state.get("winner") is not None:
        return None
    return 1 if turn % 2 == 0 else 2


def dealer_side(game: dict[str, Any] | None) -> int | None:
    """The side that deals now in a Gin-Go game: the dealer of the hand in play (or being
    set up); once a hand is over, the next dealer clockwise, who deals the next one; None
    with no game or once the game is over.

    >>> dealer_side({"state": {"phase": "play", "dealer": 1, "players": ["A", "B"]}})
    2
    >>> dealer_side({"state": {"phase": "hand_over", "dealer": 1, "players": ["A", "B"]}})
    1
    >>> dealer_side({"state": {"phase": "game_over", "dealer": 0}}) is None
    True
    """
    state = (game or {}).get("state") or {}
    dealer, phase = state.get("dealer"), state.get("phase")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or phase in (None, "game_over"):
        return None
    if state.get("winner") is not None:
        return None
    if phase == "hand_over":
        players = state.get("players")
        dealer = (dealer + 1) % (len(players) if isinstance(players, list) and players else 2)
    return 1 if dealer % 2 == 0 else 2


def suit_rows_of(game: dict[str, Any] | None) -> dict[int, str]:
    """Each side's suit row (4 letters by board column, ``.`` for one not chosen yet)
    from the game's state: ``....`` for both sides while the game is still being set up,
    nothing without a Gin-Go game (the markers then show plain status).

    >>> suit_rows_of({"state": {"phase": "play", "suit_rows": {"1": "SHDC", "2": "H..S", "3": "x"}}})
    {1: 'SHDC', 2: 'H..S'}
    >>> suit_rows_of({"state": {"phase": "setup", "suit_rows": {}}}), suit_rows_of(None)
    ({1: '....', 2: '....'}, {})
    """
    state = (game or {}).get("state") or {}
    rows = state.get("suit_rows")
    out: dict[int, str] = {}
    if state.get("phase") == "setup":
        out = {1: "....", 2: "...."}
    if isinstance(rows, dict):
        out.update({int(k): str(v) for k, v in rows.items()
                    if str(k) in ("1", "2") and isinstance(v, str) and len(v) == 4})
    return out


def scene_fields(view: dict[str, Any], gin: int | None = None,
                 game: dict[str, Any] | None = None) -> dict[str, Any]:
    """The :class:`companion.hardware.scene.SceneInput` fields for a board view and the
    Gin-Go ``game`` it shows (its suit rows, the side to play and the side that deals).

    >>> f = scene_fields(compare("1" + "." * 51, "2" + "." * 51))
    >>> f["bump"], f["pending"], f["turn"], f["suit_rows"]
    ({0: 2}, {}, None, {})
    >>> g = {"state": {"full_play": True, "phase": "play", "turn": 0, "suit_rows": {"1": "SHDC", "2": "CDHS"}}}
    >>> f = scene_fields(compare("." * 52, "." * 52), game=g)
    >>> f["turn"], f["suit_rows"], f["dealer"]
    (1, {1: 'SHDC', 2: 'CDHS'}, None)
    """
    exp = view["expected"] or view["sensed"] or "." * SPACES
    sensed = view["sensed"]
    pending = {s: int(exp[s]) for s in view["pending"]}
    bump = {s: int(sensed[s]) for s in view["bumps"]} if sensed is not None else {}
    links = {int(k): v for k, v in view["links"].items()}
    return {"expected": exp, "sensed": sensed, "links": links, "pending": pending, "bump": bump, "gin": gin,
            "turn": turn_side(game), "dealer": dealer_side(game), "suit_rows": suit_rows_of(game)}


_COLOURS = {"1": (200, 0, 0), "2": (0, 160, 0)}


def plain_frame(view: dict[str, Any], layout: Any, count: int) -> list[tuple[int, int, int]]:
    """Steady side colours for the sensed chips, white for a mismatch (no scene module).

    >>> plain_frame(compare("1" + "." * 51, "2" + "." * 51), None, 3)
    [(120, 120, 120), (0, 0, 0), (0, 0, 0)]
    """
    out = [(0, 0, 0)] * count
    board = view.get("sensed") or ""
    bad = set(view.get("mismatches") or ())
    for space, ch in enumerate(board):
        led = layout.space_led(space) if layout is not None else space
        if led >= count:
            continue
        if space in bad:
            out[led] = (120, 120, 120)
        elif ch in _COLOURS:
            out[led] = _COLOURS[ch]
    return out
