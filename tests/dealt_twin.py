"""Helpers for the LED tests of dealt Gin-Go (tests/test_dealt_board.py): what each space
LED of a service's simulated strip does, moving a simulated board's chips through the
API, and :class:`Twin`, a game tracked at the table on a second service that re-enters
every table play of a dealt game (melds, hits, going out with its captures and forfeits,
the stock running out, new hands) so both boards and both strips can be compared."""

from __future__ import annotations

import time
from typing import Any

from companion.hardware.layout import default_layout
from companion.hardware.scene import DEFAULT_COLORS, WARNING
from companion.table.dealt import DealtGame
from companion.table.fold import new_state
from tests.test_dealt import Phones

SIDE = DEFAULT_COLORS
EMPTY = "." * 52


def _shade_of(p: tuple[int, ...], c: tuple[int, int, int]) -> bool:
    """``p`` is ``c`` at some level (as the scene scales a side colour, rounded)."""
    top = max(range(3), key=lambda i: c[i])
    level = p[top] / c[top]
    return 0 <= level <= 1 and all(abs(p[i] - round(c[i] * level)) <= 1 for i in range(3))


def led_kind(colours: set[tuple[int, ...]]) -> str:
    """What one LED did over a second and more of frames: off, steady, pulsing, bumping, warning."""
    if colours == {(0, 0, 0)}:
        return "off"
    if colours == {SIDE[1], SIDE[2]}:
        return "bump"
    if WARNING in colours and colours <= {WARNING, (0, 0, 0)}:
        return "warning"
    for side in (1, 2):
        if all(_shade_of(p, SIDE[side]) for p in colours):
            return (f"pulse{side}" if len(colours) > 2 else f"steady{side}:{sorted(colours)}")
    return f"other:{sorted(colours)}"


def space_kinds(*phones: Phones, seconds: float = 1.6) -> list[dict[int, str]]:
    """Each space LED's kind on each service's simulated strip, sampled together."""
    lay = default_layout()
    seen: list[dict[int, set[tuple[int, ...]]]] = [{s: set() for s in range(52)} for _ in phones]
    time.sleep(0.2)  # the strip shows frames drawn before the last change for a frame or two (30 a second)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for p, acc in zip(phones, seen):
            px = p.client.get("/api/v1/leds").json()["pixels"]
            for s in range(52):
                acc[s].add(tuple(px[lay.space_led(s)]))
        time.sleep(0.04)
    return [{s: led_kind(c) for s, c in acc.items()} for acc in seen]


def set_sensed(p: Phones, board: str) -> None:
    """Move the chips of ``p``'s simulated board (through the API) until the sensors read ``board``."""
    now = p.client.get("/api/v1/board").json()["sensed"] or EMPTY
    for s, (had, want) in enumerate(zip(now, board)):
        if had != want:
            if had != ".":  # a chip of the other side is lifted first, as a hand would
                assert p.client.post("/api/v1/board/sim", json={"space": s, "side": None}, headers=p.ann).status_code == 200
            if want != ".":
                r = p.client.post("/api/v1/board/sim", json={"space": s, "side": int(want)}, headers=p.ann)
                assert r.status_code == 200, r.text
    deadline = time.monotonic() + 20
    while p.client.get("/api/v1/board").json()["sensed"] != board:
        assert time.monotonic() < deadline, "the simulated sensors never read the board"
        time.sleep(0.03)


def table_actions(effects: list[dict[str, Any]], board: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The table-tracking actions that do on a board what a dealt game's action did
    (``effects``, its public events), each with what it was (``meld``, ``hit``,
    ``go_out``...); ``board``: the chips the set-up starts from."""
    out: list[tuple[str, dict[str, Any]]] = []
    for i, e in enumerate(effects):
        chips = next((x for x in effects[i + 1:] if x["type"] == "chips"), None)
        skip = list(chips["forfeited"]) if chips else []
        kind = e["type"]
        if kind == "setup":
            act: dict[str, Any] = {"type": "setup", "dealer": e["dealer"], "suit_rows": e["suit_rows"]}
            if board is not None:
                act["board"] = board
        elif kind == "meld":
            m = e["meld"]
            act = {"type": "meld", "seat": e["seat"], "cards": m["cards"], "designations": m["designations"],
                   "skip": skip}
        elif kind == "hit":
            m = e["meld"]
            act = {"type": "hit", "seat": e["seat"], "meld": m["id"], "cards": e["cards"], "skip": skip,
                   "designations": {c: m["designations"][c] for c in e["cards"] if c in m["designations"]}}
        elif kind == "capture":
            act = {"type": "go_out", "seat": e["seat"], "captured": e["cards"], "skip": skip,
                   "jokers": {x["joker"]: {"meld": x["meld"], "as": x["as"]} for x in e["jokers_laid"]}}
        elif kind in ("stock_exhausted", "new_hand"):
            act = {"type": kind}
        else:
            continue
        out.append((str(act["type"]), act))
    return out


class Twin:
    """A game tracked at the table on ``t`` that follows dealt game ``gid`` on ``d``:
    :meth:`catch_up` folds the dealt game's new play events on the test's own copy of it
    (the real fold, from the first event with its secret key, or from ``start``: a copy
    of the dealt game taken when the test arranged it) and enters the table plays they
    made in the tracked game, which must then expect the same board."""

    def __init__(self, d: Phones, t: Phones, gid: str, start: DealtGame | None = None, board: str | None = None) -> None:
        self.d, self.t, self.gid, self.board = d, t, gid, board
        stored = d.store.events(gid)
        if start is None:
            self.mirror = new_state(stored[0]).dealt
            self.seq = stored[0].seq
        else:
            self.mirror, self.seq = start.clone(), stored[-1].seq
        self.tid = ""
        if start is not None:  # arranged in play: the set-up with the arranged board at once
            self._enter("setup", {"type": "setup", "dealer": start.engine.table.dealer, "board": board,
                                  "suit_rows": {str(k): v for k, v in start.engine.table.as_dict()["suit_rows"].items()}})

    def _enter(self, kind: str, action: dict[str, Any]) -> None:
        c = self.t.client
        if kind == "setup":
            r = c.post("/api/v1/games", json={"variant": "gingo", "players": list(self.mirror.names)},
                       headers=self.t.ann)
            assert r.status_code == 201, r.text
            self.tid = r.json()["id"]
        r = c.post(f"/api/v1/games/{self.tid}/actions", json={"action": action}, headers=self.t.ann)
        assert r.status_code == 200, (action, r.text)

    def catch_up(self) -> list[tuple[str, int]]:
        """Enter every table play made since the last call; returns each as (what, seat)."""
        events = self.d.client.get(f"/api/v1/games/{self.gid}/events", params={"after": self.seq}).json()["events"]
        done: list[tuple[str, int]] = []
        for ev in events:
            self.seq = ev["seq"]
            if ev["type"] != "play":
                continue
            p = ev["payload"]
            self.mirror, effects = self.mirror.after(int(p["seat"]), p["action"])
            for kind, action in table_actions(effects, self.board):
                self._enter(kind, action)
                done.append((kind, int(p["seat"])))
        return done

    def game(self) -> dict[str, Any]:
        out: dict[str, Any] = self.t.client.get(f"/api/v1/games/{self.tid}").json()
        return out
