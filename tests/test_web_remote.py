"""Joining a remote game from the phone page (companion/web/js/remote.js) in real headless
Chromium: two real service processes on 127.0.0.1 and a real TLS mosquitto with the access
list of docs/remote.md. A phone joined to board B pastes the invite board A made, opens the
game, sits and plays its seat through B's API; the game list says which games are remote;
a wrong invite is refused in words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.live_server import CODE
from tests.mqtt_broker import CA
from tests.test_mqtt_remote import Board, start_board, wait
from tests.test_mqtt_remote_dealt import GIN, Mosquitto, broker, ca, claim  # noqa: F401
from tests.web_helpers import phone_page

from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.live]


@pytest.fixture(scope="module")
def boards(tmp_path_factory: pytest.TempPathFactory, broker: Mosquitto, ca: CA) -> Iterator[tuple[Board, Board]]:
    tmp = tmp_path_factory.mktemp("boards")
    started: list[Board] = []
    try:
        started.append(start_board(tmp, broker, ca, "board-a"))
        started.append(start_board(tmp, broker, ca, "board-b"))
        yield started[0], started[1]
    finally:
        for board in started:
            board.client.close()
            board.server.stop()


@pytest.fixture()
def phone(browser: Browser, boards: tuple[Board, Board]) -> Iterator[Page]:
    """A phone joined to board B (the guest), on its games screen."""
    with phone_page(browser, name="board B's page") as page:
        page.goto(f"{boards[1].server.url}/?code={CODE}")
        expect(page.locator("#game-list")).to_be_attached()
        expect(page.locator("#conn")).to_have_attribute("data-state", "online")
        yield page


def join_on_page(page: Page, invite: str) -> None:
    page.click("#nav a[data-nav='games']")
    panel = page.locator("#remote-join-panel")
    expect(panel).to_be_visible()
    if panel.get_attribute("open") is None:
        panel.locator("summary").click()
    page.fill("#remote-invite", invite)
    page.click("#remote-join")


def version(page: Page) -> int:
    return int(page.get_attribute("#play", "data-version") or -1)


def test_a_phone_joins_a_remote_dealt_game_and_plays_its_seat(boards: tuple[Board, Board], phone: Page) -> None:
    a, b = boards
    r = a.client.post("/api/v1/games", json=GIN)
    assert r.status_code == 201, r.text
    gid, invite = r.json()["id"], r.json()["remote"]["invite"]
    claim(a, gid, 0)  # Ann's phone at home A
    # a wrong code is refused in words, and nothing is joined
    join_on_page(phone, invite[:-4] + ("AAAA" if not invite.endswith("AAAA") else "BBBB"))
    expect(phone.locator("#remote-invite-error")).to_be_visible()
    assert phone.locator("#remote-invite-error").inner_text().strip()
    assert gid not in [g["id"] for g in b.client.get("/api/v1/remote").json()["games"]]
    # the right code: the game opens on the phone, which sits as Bob
    join_on_page(phone, invite)
    expect(phone).to_have_url(re.compile(f"#/game/{gid}$"))
    sit = phone.locator(".play-moves button.play-move", has_text="Sit as Bob")
    expect(sit).to_be_visible()
    sit.click()
    expect(phone.locator(".play-card").first).to_be_visible()
    assert a.game(gid)["dealt"]["seats"][1]["taken"] is True
    # play from both homes: the phone taps Bob's moves, Ann's phone at A plays through A's API
    tapped = 0
    for _ in range(40):
        game = a.game(gid)
        if game["finished"] or tapped >= 3:
            break
        if game["dealt"]["to_move"] == 0:
            view = a.client.get(f"/api/v1/games/{gid}/view").json()
            legal = [x for x in view["legal_actions"] if x.get("type") not in ("knock", "gin")] or view["legal_actions"]
            assert a.client.post(f"/api/v1/games/{gid}/actions",
                                 json={"action": legal[0], "expected_version": view["version"]}).status_code == 200
            continue
        wait(lambda: version(phone) == a.game(gid)["version"], 10, "the phone shows the host's game")
        expect(phone.locator(".play-turn")).to_contain_text("Your turn")
        before = version(phone)
        moves = phone.locator("#play-moves button.play-move")
        if moves.count():  # take or pass the upcard, or draw: never knock, so the game goes on
            labels = [t.strip() for t in moves.all_inner_texts()]
            pick = next((i for i, t in enumerate(labels) if not re.search(r"knock|gin", t, re.I)), 0)
            moves.nth(pick).tap()
        else:  # time to discard: choose a card, then the move it offers
            phone.locator(".play-card").last.tap()
            expect(moves.first).to_contain_text("Discard")
            moves.first.tap()
        phone.wait_for_function("v => Number(document.querySelector('#play').dataset.version) > v", arg=before)
        tapped += 1
        wait(lambda: a.game(gid)["version"] > before, 10, "the phone's move on the host")
    assert tapped >= 2, "the phone had fewer than two turns"
    hand = phone.locator(".play-card").count()
    assert 9 <= hand <= 11, hand
    # the games screen lists it as a remote game hosted by board A
    phone.click("#nav a[data-nav='games']")
    item = phone.locator(f"#game-list li[data-game='{gid}']")
    expect(item).to_contain_text("remote: hosted by board-a")


def test_a_phone_joins_a_remote_tracked_game(boards: tuple[Board, Board], phone: Page) -> None:
    a, b = boards
    r = a.client.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bob"], "remote": True})
    assert r.status_code == 201, r.text
    gid, invite = r.json()["id"], r.json()["remote"]["invite"]
    join_on_page(phone, invite)
    expect(phone).to_have_url(re.compile(f"#/game/{gid}$"))
    expect(phone.locator("h1").first).to_be_visible()
    assert b.game(gid)["version"] == a.game(gid)["version"]
    phone.click("#nav a[data-nav='games']")
    expect(phone.locator(f"#game-list li[data-game='{gid}']")).to_contain_text("remote: hosted by board-a")
    # the host's own list says it is remote too, with the board that joined
    line: Any = None
    with phone_page(phone.context.browser, name="board A's page") as host:  # type: ignore[arg-type]
        host.goto(f"{a.server.url}/?code={CODE}")
        line = host.locator(f"#game-list li[data-game='{gid}']")
        expect(line).to_contain_text("remote: with board-b")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_join_panel_passes_axe(boards: tuple[Board, Board], phone: Page, scheme: str) -> None:
    """The games screen with the panel open, a refused code said and remote games listed:
    no axe-core violation (the rules tests/test_a11y.py runs), in both colour schemes."""
    from tests.test_a11y import axe_violations, report  # skips when axe-core is not installed

    phone.evaluate("t => localStorage.setItem('gingo.theme', t)", scheme)
    phone.reload()
    join_on_page(phone, "gingo1-not-a-code")
    expect(phone.locator("#remote-invite-error")).to_be_visible()
    if not [g for g in boards[1].client.get("/api/v1/games").json()["games"] if g.get("remote")]:
        r = boards[0].client.post("/api/v1/games", json=GIN)
        assert boards[1].client.post("/api/v1/remote/join", json={"invite": r.json()["remote"]["invite"]}).status_code == 201
    expect(phone.locator("#game-list .game-remote").first).to_be_visible()
    violations = axe_violations(phone)
    assert not violations, report(f"games screen with the remote join panel ({scheme})", violations)
