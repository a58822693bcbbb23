"""Dealt games driven through the HTTP API for the page tests: a dealt game made and its
seats taken by tokens, and Gin-Go hands played by two simple seat policies until the
phone's seat can meld with a joker that may stand for more than one card (the joker
choice of the Play screen). Every call is a real request to the live server."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

from tests.live_server import LiveServer

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def call(srv: LiveServer, method: str, path: str, body: object | None = None, token: str | None = None) -> Any:
    """One request; the JSON answer, or AssertionError with the server's error."""
    headers = {"Content-Type": "application/json", **({"Authorization": "Bearer " + token} if token else {})}
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(srv.url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        raise AssertionError(f"{method} {path}: {e.code} {e.read().decode(errors='replace')}") from None


def dealt(srv: LiveServer, token: str, variant: str, players: list[str], bots: list[int], **extra: Any) -> str:
    """A new dealt game (its id)."""
    res = call(srv, "POST", "/api/v1/games", {"variant": variant, "players": players, "mode": "dealt", "bots": bots, **extra}, token)
    return str((res.get("game") or res)["id"])


def view(srv: LiveServer, gid: str, token: str) -> dict[str, Any]:
    return dict(call(srv, "GET", f"/api/v1/games/{gid}/view", None, token))


def act(srv: LiveServer, gid: str, token: str, action: dict[str, Any]) -> dict[str, Any]:
    return dict(call(srv, "POST", f"/api/v1/games/{gid}/actions", {"action": action}, token))


def joker_moves(legal: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The melds and hits offered with more than one choice of what a joker stands for
    (actions alike but for their designations), each as its list of options."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        if a.get("type") in ("meld", "hit") and a.get("designations"):
            key = json.dumps({k: v for k, v in a.items() if k != "designations"}, sort_keys=True)
            groups.setdefault(key, []).append(a)
    return [g for g in groups.values() if len(g) > 1]


def _keeps(card: str, hand: list[str]) -> bool:
    """Whether seat 0 keeps ``card``: a joker, or a card with a same-suit neighbour in hand."""
    if card.startswith("JK"):
        return True
    rank, suit = RANKS.index(card[:-1]), card[-1]
    return any(c[-1] == suit and not c.startswith("JK") and abs(RANKS.index(c[:-1]) - rank) == 1 for c in hand if c != card)


def _step(srv: LiveServer, gid: str, token: str, v: dict[str, Any], keep: bool) -> None:
    legal = v["legal_actions"]
    discards = [a for a in legal if a["type"] == "discard"]
    if discards:
        if keep:
            pick = next((a for a in discards if not _keeps(a["card"], v["hand"])), None) \
                or next((a for a in discards if not a["card"].startswith("JK")), discards[0])
        else:  # the other seat melds nothing and lets jokers go
            pick = next((a for a in discards if a["card"].startswith("JK")), discards[-1])
        act(srv, gid, token, pick)
        return
    plain = [a for a in legal if a["type"] in ("draw", "setup", "new_hand", "choose_deal")]
    act(srv, gid, token, (plain or legal)[0])


def joker_choice(srv: LiveServer, gid: str, tokens: list[str], max_steps: int = 3000) -> list[dict[str, Any]]:
    """Play the two-human dealt Gin-Go game ``gid`` (seat 0 ``tokens[0]``, seat 1
    ``tokens[1]``) until seat 0 can meld or hit with a joker that stands for one of several
    cards; that move's options. Seat 0 keeps its jokers and same-suit neighbours, seat 1
    draws and discards; neither melds, so hands end with the stock and new ones are dealt."""
    for _ in range(max_steps):
        v0 = view(srv, gid, tokens[0])
        if v0["finished"]:
            raise AssertionError("the game ended before a joker choice came up")
        if v0["legal_actions"]:
            found = joker_moves(v0["legal_actions"])
            if found:
                return found[0]
            _step(srv, gid, tokens[0], v0, keep=True)
            continue
        v1 = view(srv, gid, tokens[1])
        if not v1["legal_actions"]:
            raise AssertionError(f"nobody can act: {v0['public'].get('phase')}")
        _step(srv, gid, tokens[1], v1, keep=False)
    raise AssertionError(f"no joker choice in {max_steps} steps")


def sim(srv: LiveServer, token: str, space: int, side: int | None) -> None:
    """A chip put on (``side`` 1 or 2) or lifted off (None) the simulated board."""
    call(srv, "POST", "/api/v1/board/sim", {"space": space, "side": side}, token)


def to_board_wait(srv: LiveServer, gid: str, token: str, max_steps: int = 600) -> dict[str, Any]:
    """Play seat 0 of the dealt Gin-Go game ``gid`` on the board (the other seats bots),
    melding whenever it can, until the next turn waits for a meld's chips; that wait (the
    view's ``waiting_for_board``). The simulated board must start empty."""
    for _ in range(max_steps):
        v = view(srv, gid, token)
        wait = v["waiting_for_board"]
        if wait and wait["pending"]:
            return dict(wait)
        assert not v["finished"], "the game ended before a meld asked for chips"
        legal = v["legal_actions"]
        if not legal:
            time.sleep(0.05)  # a bot's turn
            continue
        melds = [a for a in legal if a["type"] == "meld"]
        plain = [a for a in legal if a["type"] in ("draw", "setup", "new_hand", "choose_deal")]
        discards = [a for a in legal if a["type"] == "discard" and not a["card"].startswith("JK")]
        act(srv, gid, token, (melds or plain or discards or legal)[0])
    raise AssertionError(f"no meld asked for chips in {max_steps} steps")
