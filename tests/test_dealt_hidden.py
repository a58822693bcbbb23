"""Hidden information in dealt games: during the first hand, no public endpoint (the game,
its summary, the games list, the events, both exports, the board, the live channel
without a seat's token, the view without a seat) shows a card that is in a hand or in
the stock and has never been face up, nor the match key; a connection that authenticates
with a seat's token gets that seat's cards and nobody else's."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import cards as C
from companion.games.gingo.play import bot_action
from tests.test_dealt import Phones

CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQKT])[SHDC](?![A-Za-z0-9])|JK[12]")
# the deck's description and each card's space (no game state), and what a joker on the
# table stands for (a card it names, wherever that card is: public by the rules)
SKIP_KEYS = {"rules", "frames", "designations", "stands_for"}


@pytest.fixture()
def phones(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Phones]:
    p = Phones(tmp_path / "data", request.node.name, board=True)
    try:
        yield p
    finally:
        p.close()


def strings(value: Any, key: str = "") -> Iterator[str]:
    """Every string in a JSON value, skipping the keys that only describe the deck."""
    if key in SKIP_KEYS:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k) if k not in ("1", "2") else ""
            yield from strings(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from strings(v, key)


def cards_in(value: Any) -> set[str]:
    found: set[str] = set()
    for s in strings(value):
        found |= {C.card_name(C.parse_card(m)) for m in CARD.findall(s)}
    return found


class Hidden:
    """The cards nobody but their holder may know: in hands or the stock, never face up."""

    def __init__(self) -> None:
        self.face_up: set[str] = set()

    def watch(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """See the pile and the table melds after every move, the bots' too: the bots play
        several turns inside one request, and a card one of them throws and the next digs
        back out of the pile was face up for everyone in between (the move list names it)."""
        from companion.table.dealt import DealtGame

        original = DealtGame.after

        def after(game: DealtGame, seat: int, action: Any) -> Any:
            new, effects = original(game, seat, action)
            self.update(new.engine, new.variant.play_style == "actions")
            return new, effects

        monkeypatch.setattr(DealtGame, "after", after)

    def update(self, engine: Any, gingo: bool) -> set[str]:
        if gingo:
            self.face_up |= {C.card_name(c) for c in engine.pile}
            self.face_up |= {C.card_name(c) for m in engine.table.table_melds for c in m.cards}
            held = [c for h in engine.hands for c in h] + list(engine.stock)
        else:
            self.face_up |= {C.card_name(c) for c in engine.discard}
            self.face_up |= {C.card_name(c) for c in engine.last_taken if c is not None}  # taken from the pile
            held = [c for h in engine.hands for c in C.mask_cards(h)] + list(engine.stock)
        return {C.card_name(c) for c in held} - self.face_up


def public_texts(p: Phones, gid: str) -> dict[str, Any]:
    c = p.client
    out: dict[str, Any] = {
        "game": c.get(f"/api/v1/games/{gid}").json(),
        "summary": c.get(f"/api/v1/games/{gid}/summary").json(),
        "list": c.get("/api/v1/games").json(),
        "events": c.get(f"/api/v1/games/{gid}/events").json(),
        "export.json": c.get(f"/api/v1/games/{gid}/export.json").json(),
        "export.csv": [c.get(f"/api/v1/games/{gid}/export.csv").text],
        "view without a seat": c.get(f"/api/v1/games/{gid}/view").json(),
        "view of a phone without a seat": c.get(f"/api/v1/games/{gid}/view", headers=p.bob).json(),
    }
    board = c.get("/api/v1/board")
    if board.status_code == 200:
        out["board"] = board.json()
    return out


@pytest.mark.parametrize("variant,players,bots", [("gin", ["Ann", "Bot"], [1]),
                                                  ("color_gin", ["Ann", "Bot"], [1]),
                                                  ("gingo", ["Ann", "B", "C", "D"], [1, 2, 3])])
def test_no_public_endpoint_shows_a_hidden_card(phones: Phones, variant: str, players: list[str],
                                                bots: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    c = phones.client
    hidden = Hidden()
    hidden.watch(monkeypatch)
    extra = {"skip_board": True} if variant == "gingo" else {}
    r = c.post("/api/v1/games", json={"variant": variant, "players": players, "mode": "dealt", "bots": bots,
                                      **extra}, headers=phones.ann)
    gid = r.json()["id"]
    key = phones.table.held(gid).created_payload["secret"]["key"]
    c.post(f"/api/v1/games/{gid}/seats/0", headers=phones.ann)
    rng = random.Random(7)
    anon = c.websocket_connect("/api/v1/live")
    seat0 = c.websocket_connect("/api/v1/live")
    with anon as ws_anon, seat0 as ws_seat:
        ws_anon.receive_json()  # the snapshots
        ws_seat.receive_json()
        ws_seat.send_json({"type": "auth", "token": phones.ann["Authorization"].split()[1]})
        checked = 0
        for _ in range(60):
            g = phones.table.held(gid)
            if g.dealt.hands_over() > 0 or g.finished:
                break  # from here on old hands are public and their cards come round again
            secret = hidden.update(g.dealt.engine, g.dealt.variant.play_style == "actions")
            for name, body in public_texts(phones, gid).items():
                leaked = cards_in(body) & secret
                assert not leaked, f"{name} shows hidden cards {sorted(leaked)}"
                assert key not in json.dumps(body), f"{name} shows the match key"
            mine = set(c.get(f"/api/v1/games/{gid}/view", headers=phones.ann).json()["hand"])
            assert mine <= {C.card_name(x) for x in (g.dealt.hand_cards(0))}
            checked += 1
            v = c.get(f"/api/v1/games/{gid}/view", headers=phones.ann).json()
            action = rng.choice(v["legal_actions"])
            if g.dealt.variant.play_style == "actions" and rng.random() < 0.8:
                action = bot_action(g.dealt.engine, rng)
            assert c.post(f"/api/v1/games/{gid}/actions", json={"action": action}, headers=phones.ann).status_code \
                == 200
        assert checked >= 3
        last = phones.table.last_seq()
        # the live channel without a token: every event, no hidden card, no private message
        held = phones.table.held(gid).dealt
        secret_now = hidden.update(held.engine, held.variant.play_style == "actions")
        seen_anon = read_until(ws_anon, last)
        assert not any(m.get("type") == "private" for m in seen_anon)
        for m in seen_anon:
            assert key not in json.dumps(m)
        seen_seat = read_until(ws_seat, last, private_after=True)
        privates = [m for m in seen_seat if m.get("type") == "private"]
        assert privates, "the authenticated seat got no private view"
        assert all(m["view"]["seat"] == 0 for m in privates)
        others = {C.card_name(x) for s in range(1, len(players)) for x in phones.table.held(gid).dealt.hand_cards(s)}
        assert privates[-1] == seen_seat[-1]
        assert set(privates[-1]["view"]["hand"]) == {C.card_name(x) for x in phones.table.held(gid).dealt.hand_cards(0)}
        assert not cards_in(privates[-1]["view"]["hand"]) & others


#: the board's public news from the sync loop; it may come between any two of a phone's
#: messages while the simulated board settles
BOARD_NEWS = {"board", "link", "sensors", "confirm", "button", "shutdown"}


def next_private(ws: Any) -> dict[str, Any]:
    """The next message that is not the board's public news."""
    for _ in range(200):
        m = ws.receive_json()
        if m.get("type") not in BOARD_NEWS:
            return dict(m)
    raise AssertionError("200 board news messages and nothing else")


def read_until(ws: Any, seq: int, private_after: bool = False) -> list[dict[str, Any]]:
    """Messages up to the event numbered ``seq`` (and the private view that follows it)."""
    out: list[dict[str, Any]] = []
    while True:
        m = ws.receive_json()
        out.append(m)
        if m.get("type") == "event" and m.get("seq") == seq:
            break
    if private_after:
        out.append(next_private(ws))
    return out


def test_auth_with_a_bad_token_is_refused_and_gets_nothing_private(phones: Phones) -> None:
    c = phones.client
    gid = c.post("/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bot"], "mode": "dealt", "bots": [1]},
                 headers=phones.ann).json()["id"]
    c.post(f"/api/v1/games/{gid}/seats/0", headers=phones.ann)
    with c.websocket_connect("/api/v1/live") as ws:
        ws.receive_json()
        ws.send_json({"type": "auth", "token": "not-a-token"})
        m = next_private(ws)
        assert m["type"] == "auth" and m["ok"] is False and m["error"]["code"] == "unauthorized"
        ws.send_json({"type": "auth", "token": phones.ann["Authorization"].split()[1]})
        assert next_private(ws) == {"type": "auth", "ok": True}
        m = next_private(ws)  # a phone that reconnects gets its hand back at once
        assert m["type"] == "private" and m["game_id"] == gid and m["view"]["seat"] == 0
        assert m["view"]["hand"] == c.get(f"/api/v1/games/{gid}/view", headers=phones.ann).json()["hand"]
