"""Hosting a dealt game for a friend from the Play screen, and the invite code after a reload
(companion/web/js/play.js, remote.js), in real headless Chromium: two real service processes
on 127.0.0.1 and a real TLS mosquitto with the access list of docs/remote.md (the fixtures
of tests/test_web_remote.py). A phone joined to board A deals a remote Gin Rummy game, reads
the invite code off its screen, still has it after a reload (read again from its board with
its token, never from the phone's storage); a phone joined to board B joins with that code,
takes the free seat, and both phones play their own moves by taps. In a remote dealt Gin-Go
game, the Play screen says when the turn waits for the chips at the friend's board."""

from __future__ import annotations

import re

import pytest

from tests.test_mqtt_remote import Board, wait
from tests.test_web_remote import boards, host_phone, join_on_page, phone, tap_a_move, version  # noqa: F401
from tests.test_mqtt_remote_board import EMPTY, set_chips
from tests.test_mqtt_remote_dealt import Mosquitto, broker, ca, claim, host_and_join  # noqa: F401
from tests.web_helpers import phone_page

from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.live]


def deal_hosted(page: Page, board: Board, names: list[str]) -> str:
    """Deal a remote Gin Rummy game on the Play screen; its id (the game opens)."""
    page.goto(f"{board.server.url}/#/play/new")
    expect(page.locator("#play-form")).to_be_visible()
    page.click("#play-form .seg[aria-label='game'] button[data-value='gin']")
    for i, name in enumerate(names):
        page.fill(f"#play-name-{i}", name)
    expect(page.locator("#play-bot-1")).to_be_checked()  # the Play screen's default: a bot in seat 2
    page.check("#play-remote")
    # the friend needs a seat: hosting frees the first one from its bot, and says which seat is whose
    expect(page.locator("#play-bot-1")).not_to_be_checked()
    expect(page.locator("#play-remote")).to_be_focused()
    expect(page.locator("#play-remote-help")).to_contain_text("your friend's phone takes a seat")
    page.click("#play-deal")
    expect(page).to_have_url(re.compile(r"#/game/r[0-9a-f]{32}$"))
    return page.url.rsplit("/", 1)[-1]


def shown_invite(page: Page) -> str:
    expect(page.locator("#remote-invite-panel")).to_be_visible()
    code = page.locator("#invite-code").inner_text().strip()
    assert re.fullmatch(r"gingo1-\S+", code), code
    return code


def stored(page: Page) -> str:
    return str(page.evaluate("() => JSON.stringify(Object.assign({}, localStorage, sessionStorage))"))


def test_a_phone_deals_a_hosted_game_on_the_play_screen_and_both_homes_play_it(
        boards: tuple[Board, Board], host_phone: Page, phone: Page, browser: Browser) -> None:
    a, b = boards
    gid = deal_hosted(host_phone, a, ["Ann", "Bob"])
    game = a.game(gid)
    assert game["mode"] == "dealt" and game["players"] == ["Ann", "Bob"]
    assert a.remote(gid)["role"] == "host"
    assert [s["taken"] for s in game["dealt"]["seats"]] == [True, False]  # the dealing phone sits in seat 1
    assert not game["dealt"]["seats"][1].get("bot")
    invite = shown_invite(host_phone)
    expect(host_phone.locator("#play")).to_be_visible()
    expect(host_phone.locator("#remote-bar")).to_contain_text("No board has joined")
    assert invite not in stored(host_phone)
    # the phone reloads: the code is read again from board A (this phone's token), still never stored
    host_phone.reload()
    assert shown_invite(host_phone) == invite
    expect(host_phone.locator("#play")).to_be_visible()
    assert invite not in stored(host_phone)
    # a phone that has not joined board A watches the game, but is never shown the code
    with phone_page(browser, name="a watching phone at A") as watcher:
        watcher.goto(f"{a.server.url}/#/game/{gid}")
        expect(watcher.locator("#play")).to_be_visible()
        expect(watcher.locator("#remote-bar")).to_contain_text("No board has joined")
        assert watcher.locator("#remote-invite-panel").count() == 0
        assert invite not in watcher.content()
    # the friend types the code on board B's page and takes the free seat
    join_on_page(phone, invite)
    expect(phone).to_have_url(re.compile(f"#/game/{gid}$"))
    sit = phone.locator(".play-moves button.play-move", has_text="Sit as Bob")
    expect(sit).to_be_visible()
    sit.tap()
    expect(phone.locator(".play-card").first).to_be_visible()
    wait(lambda: a.game(gid)["dealt"]["seats"][1]["taken"] is True, 10, "the host records the guest's seat")
    # the host's phone hears the join: the code gives way to who joined
    expect(host_phone.locator("#invite-joined")).to_contain_text("board-b has joined", timeout=15000)
    # both homes play by taps, each phone its own seat, until each has moved twice
    pages = {0: host_phone, 1: phone}
    moved = {0: 0, 1: 0}
    for _ in range(12):
        game = a.game(gid)
        if game["finished"] or min(moved.values()) >= 2:
            break
        seat = game["dealt"]["to_move"]
        page = pages[seat]
        wait(lambda: version(page) == a.game(gid)["version"], 10, f"seat {seat}'s phone shows the host's game")
        before = game["version"]
        tap_a_move(page)
        moved[seat] += 1
        wait(lambda: a.game(gid)["version"] > before, 10, "the move on the host")
        wait(lambda: b.game(gid)["version"] == a.game(gid)["version"], 10, "the guest's mirror")
    assert min(moved.values()) >= 2, moved
    # after a reload once the friend has joined, the host's phone shows no code: nobody else may join
    host_phone.reload()
    expect(host_phone.locator("#play")).to_be_visible()
    assert host_phone.locator("#remote-invite-panel").count() == 0
    expect(host_phone.locator("#remote-bar")).to_be_hidden()


def test_a_code_hidden_stays_hidden_and_a_page_on_the_guest_never_gets_one(
        boards: tuple[Board, Board], host_phone: Page, phone: Page) -> None:
    """Hiding the code on the host's phone holds while the page lives (a reload shows it again,
    read from the board); the guest's page, which joined the game, is never shown its code."""
    a, b = boards
    page = host_phone
    page.click("#nav a[data-nav='new']")
    page.click("#new-form .seg[aria-label='variant'] button[data-value='gingo']")
    page.fill("#player-0", "Ann")
    page.fill("#player-1", "Dee")
    page.check("#new-remote")
    page.click("#start-game")
    expect(page).to_have_url(re.compile(r"#/game/r[0-9a-f]{32}$"))
    gid = page.url.rsplit("/", 1)[-1]
    invite = shown_invite(page)
    page.click("#invite-hide")
    expect(page.locator("#remote-invite-panel")).to_have_count(0)
    page.click("#nav a[data-nav='games']")
    page.click(f"#game-list li[data-game='{gid}'] a")
    expect(page).to_have_url(re.compile(f"#/game/{gid}$"))
    expect(page.locator("h1").first).to_be_visible()
    assert page.locator("#remote-invite-panel").count() == 0
    page.reload()
    assert shown_invite(page) == invite
    # the guest's board: its phone joins and opens the game; no code there
    join_on_page(phone, invite)
    expect(phone).to_have_url(re.compile(f"#/game/{gid}$"))
    expect(phone.locator("h1").first).to_be_visible()
    phone.reload()
    expect(phone.locator("h1").first).to_be_visible()
    assert phone.locator("#remote-invite-panel").count() == 0
    assert b.client.get(f"/api/v1/games/{gid}/invite").status_code == 409


def test_the_play_screen_says_when_the_turn_waits_for_the_friends_board(
        boards: tuple[Board, Board], host_phone: Page, phone: Page) -> None:
    """A remote dealt Gin-Go game on the board: a stray chip on board B holds the turn. The
    host's phone says it waits for the other board (and outlines nothing on its own); board
    B's phone says which chip to lift there; lifted, both screens go on."""
    a, b = boards
    for board in (a, b):
        set_chips(board, EMPTY)
    gid = host_and_join(a, b, {"variant": "gingo", "players": ["Ann", "Bob"], "mode": "dealt", "remote": True})
    claim(a, gid, 0)
    claim(b, gid, 1)
    for _ in range(30):  # the setting up (who deals, the suit rows), through each board's API, until a turn starts
        game = a.game(gid)
        mover = a if game["dealt"]["to_move"] == 0 else b
        view = mover.client.get(f"/api/v1/games/{gid}/view").json()
        if any(x.get("type") == "draw" for x in view["legal_actions"]):
            break
        r = mover.client.post(f"/api/v1/games/{gid}/actions",
                              json={"action": view["legal_actions"][0], "expected_version": view["version"]})
        assert r.status_code == 200, r.text
    else:
        raise AssertionError("no turn started")
    space = a.game(gid)["board"].index(".")
    assert b.client.post("/api/v1/board/sim", json={"space": space, "side": 2}).status_code == 200
    wait(lambda: (a.client.get(f"/api/v1/games/{gid}/view").json()["waiting_for_board"] or {}).get("board")
         == "board-b", 5, "the host waits for board B")
    host_phone.goto(f"{a.server.url}/#/game/{gid}")
    box = host_phone.locator("#play-wait")
    expect(box).to_contain_text("Waiting for the other board")
    expect(box).to_contain_text("board-b")
    expect(box).to_have_attribute("data-board", "board-b")
    assert host_phone.locator(".space.wait").count() == 0  # nothing to move on this board
    from tests.test_a11y import axe_violations, report  # skips when axe-core is not installed

    violations = axe_violations(host_phone)
    assert not violations, report("a dealt turn waiting for the other board", violations)
    phone.goto(f"{b.server.url}/#/game/{gid}")
    here = phone.locator("#play-wait")
    expect(here).to_contain_text("Lift")
    expect(here).not_to_contain_text("other board")
    expect(phone.locator(f".space.wait[data-space='{space}']")).to_be_visible()
    # board B's chip lifted: both screens hear it and go on
    assert b.client.post("/api/v1/board/sim", json={"space": space, "side": None}).status_code == 200
    expect(host_phone.locator("#play-wait")).to_have_count(0)
    expect(phone.locator("#play-wait")).to_have_count(0)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_play_screens_host_option_passes_axe(boards: tuple[Board, Board], host_phone: Page, scheme: str) -> None:
    """The Play screen's deal form with the host option ticked, and a refusal said under it
    (every seat a bot): no axe-core violation, in both colour schemes; nothing was dealt."""
    from tests.test_a11y import axe_violations, report  # skips when axe-core is not installed

    a, _ = boards
    before = {g["id"] for g in a.client.get("/api/v1/remote").json()["games"]}
    host_phone.evaluate("t => localStorage.setItem('gingo.theme', t)", scheme)
    host_phone.goto(f"{a.server.url}/#/play/new")
    host_phone.click("#play-form .seg[aria-label='game'] button[data-value='gin']")
    host_phone.check("#play-remote")
    host_phone.check("#play-bot-1")  # the friend's seat given back to a bot: refused in words
    host_phone.click("#play-deal")
    expect(host_phone.locator("#play-error")).to_contain_text("untick")
    expect(host_phone).to_have_url(re.compile("#/play/new$"))
    assert {g["id"] for g in a.client.get("/api/v1/remote").json()["games"]} == before
    violations = axe_violations(host_phone)
    assert not violations, report(f"the Play screen with the host option ({scheme})", violations)
