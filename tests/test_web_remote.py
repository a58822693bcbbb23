"""Joining a remote game from the phone page (companion/web/js/remote.js) in real headless
Chromium: two real service processes on 127.0.0.1 and a real TLS mosquitto with the access
list of docs/remote.md. A phone joined to board B pastes the invite board A made, opens the
game, sits and plays its seat through B's API; the game list says which games are remote;
a wrong invite is refused in words. Hosting from the page: a phone joined to board A starts a
remote game on the New game screen, reads the invite code off its screen, and a phone on board
B joins with that code; both see the game."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.live_server import CODE, LiveServer, free_port
from tests.mqtt_broker import CA
from tests.test_mqtt_remote import Board, USERS, two_boards, wait
from tests.test_mqtt_remote_dealt import GIN, Mosquitto, broker, ca, claim  # noqa: F401
from tests.web_helpers import phone_page

from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.live]


@pytest.fixture(scope="module")
def boards(tmp_path_factory: pytest.TempPathFactory, broker: Mosquitto, ca: CA) -> Iterator[tuple[Board, Board]]:
    with two_boards(tmp_path_factory.mktemp("boards"), broker, ca) as both:
        yield both


@contextlib.contextmanager
def joined_phone(browser: Browser, board: Board, name: str) -> Iterator[Page]:
    """A phone joined to ``board``, on its games screen and online."""
    with phone_page(browser, name=name) as page:
        page.goto(f"{board.server.url}/?code={CODE}")
        expect(page.locator("#game-list")).to_be_attached()
        expect(page.locator("#conn")).to_have_attribute("data-state", "online")
        yield page


@pytest.fixture()
def phone(browser: Browser, boards: tuple[Board, Board]) -> Iterator[Page]:
    """A phone joined to board B (the guest), on its games screen."""
    with joined_phone(browser, boards[1], "board B's page") as page:
        yield page


@pytest.fixture()
def host_phone(browser: Browser, boards: tuple[Board, Board]) -> Iterator[Page]:
    """A phone joined to board A (the host), on its games screen."""
    with joined_phone(browser, boards[0], "board A's page") as page:
        yield page


def host_on_page(page: Page, variant: str, players: list[str]) -> str:
    """Start a game hosted for a friend on the New game screen; its id (the game opens)."""
    page.click("#nav a[data-nav='new']")
    page.click(f"#new-form .seg[aria-label='variant'] button[data-value='{variant}']")
    for i, name in enumerate(players):
        page.fill(f"#player-{i}", name)
    page.check("#new-remote")
    page.click("#start-game")
    expect(page).to_have_url(re.compile(r"#/game/r[0-9a-f]{32}$"))
    return page.url.rsplit("/", 1)[-1]


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


def tap_a_move(page: Page) -> None:
    """This phone's seat is to move: tap one move that does not end the hand (draw, take or
    pass the upcard, or choose a card and discard it), and wait until the screen moves on."""
    expect(page.locator(".play-turn")).to_contain_text("Your turn")
    before = version(page)
    moves = page.locator("#play-moves button.play-move")
    if moves.count():
        labels = [t.strip() for t in moves.all_inner_texts()]
        pick = next((i for i, t in enumerate(labels) if not re.search(r"knock|gin", t, re.I)), 0)
        moves.nth(pick).tap()
    else:  # a card that may be discarded (never the upcard just taken: the rules forbid it)
        cards = page.locator(".play-card:not(.chosen)")
        for i in range(3):
            card = cards.nth(cards.count() - 1 - i)
            label = card.get_attribute("aria-label")
            card.tap()
            expect(page.locator(".play-card.chosen")).to_have_count(1)
            if moves.count() and "Discard" in moves.first.inner_text():
                break
            page.locator(f".play-card.chosen[aria-label='{label}']").tap()  # not this one: choose again
            expect(page.locator(".play-card.chosen")).to_have_count(0)
        expect(moves.first).to_contain_text("Discard")
        moves.first.tap()
    page.wait_for_function("v => Number(document.querySelector('#play').dataset.version) > v", arg=before)


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
        before = version(phone)
        tap_a_move(phone)  # never knock, so the game goes on
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


def test_a_phone_hosts_a_remote_game_and_a_friend_joins_with_the_code_on_screen(
        boards: tuple[Board, Board], host_phone: Page, phone: Page) -> None:
    a, b = boards
    # board B has joined a game of A's before, so A already hears that B is online: the join
    # below must tell A's phone by itself
    r = a.client.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bob"], "remote": True})
    assert b.client.post("/api/v1/remote/join", json={"invite": r.json()["remote"]["invite"]}).status_code == 201
    wait(lambda: a.remote(r.json()["id"])["peer_online"], 10, "the host hears that the guest is online")
    gid = host_on_page(host_phone, "gingo", ["Ann", "Cy"])
    # the game opened with its invite code, plainly, and the friend's instruction
    panel = host_phone.locator("#remote-invite-panel")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("Join a friend's remote game")
    expect(host_phone.locator("h1").first).to_be_visible()
    invite = host_phone.locator("#invite-code").inner_text().strip()
    assert re.fullmatch(r"gingo1-\S+", invite), invite
    assert a.remote(gid)["role"] == "host" and a.game(gid)["players"] == ["Ann", "Cy"]
    # the code is a secret: the phone keeps it in memory only
    stored = host_phone.evaluate("() => JSON.stringify(Object.assign({}, localStorage, sessionStorage))")
    assert invite not in stored
    # the copy button copies it (or, without a clipboard, selects it) and says so
    host_phone.click("#invite-copy")
    expect(host_phone.locator("#invite-copied")).not_to_be_empty()
    # the friend types the code read off the screen on board B's page: the same game opens there
    join_on_page(phone, invite)
    expect(phone).to_have_url(re.compile(f"#/game/{gid}$"))
    expect(phone.locator("h1").first).to_be_visible()
    wait(lambda: b.game(gid)["version"] == a.game(gid)["version"], 10, "the guest's copy catches up")
    assert b.remote(gid)["role"] == "guest" and b.remote(gid)["peer"] == "board-a"
    wait(lambda: a.remote(gid)["peer"] == "board-b", 10, "the host hears the guest")
    # the host's phone hears it: the code gives way to who joined, and no bar asks for a friend
    expect(host_phone.locator("#invite-joined")).to_contain_text("board-b has joined", timeout=15000)
    expect(host_phone.locator("#remote-bar")).to_be_hidden(timeout=15000)
    # both games screens list it as remote
    phone.click("#nav a[data-nav='games']")
    expect(phone.locator(f"#game-list li[data-game='{gid}']")).to_contain_text("remote: hosted by board-a")
    host_phone.click("#nav a[data-nav='games']")
    expect(host_phone.locator(f"#game-list li[data-game='{gid}']")).to_contain_text("remote: with board-b")


def test_a_hosting_form_with_a_mistake_starts_nothing_and_keeps_the_form(
        boards: tuple[Board, Board], host_phone: Page) -> None:
    """Hosting with two players of one name: the page says so next to the form, starts
    nothing, and keeps everything typed (the host option too) across a reload."""
    a, _ = boards
    before = {g["id"] for g in a.client.get("/api/v1/remote").json()["games"]}
    host_phone.click("#nav a[data-nav='new']")
    host_phone.click("#new-form .seg[aria-label='variant'] button[data-value='gingo']")
    host_phone.fill("#player-0", "Ann")
    host_phone.fill("#player-1", "Ann")
    host_phone.check("#new-remote")
    host_phone.click("#start-game")
    expect(host_phone.locator("#new-error")).to_be_visible()
    expect(host_phone).to_have_url(re.compile("#/new$"))
    assert {g["id"] for g in a.client.get("/api/v1/remote").json()["games"]} == before
    host_phone.reload()
    expect(host_phone.locator("#new-remote")).to_be_checked()
    expect(host_phone.locator("#player-0")).to_have_value("Ann")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_host_option_and_the_invite_pass_axe(boards: tuple[Board, Board], host_phone: Page, scheme: str) -> None:
    """The New game screen with the host option, and the game with its invite code: no
    axe-core violation, in both colour schemes."""
    from tests.test_a11y import axe_violations, report  # skips when axe-core is not installed

    host_phone.evaluate("t => localStorage.setItem('gingo.theme', t)", scheme)
    host_phone.reload()
    host_phone.click("#nav a[data-nav='new']")
    expect(host_phone.locator("#new-remote")).to_be_visible()
    violations = axe_violations(host_phone)
    assert not violations, report(f"new game screen with the host option ({scheme})", violations)
    host_on_page(host_phone, "gingo", ["Ann", "Cy"])
    expect(host_phone.locator("#invite-code")).to_be_visible()
    violations = axe_violations(host_phone)
    assert not violations, report(f"a hosted game with its invite code ({scheme})", violations)


def test_hosting_while_the_broker_is_unreachable_keeps_the_game_and_says_so(
        tmp_path_factory: pytest.TempPathFactory, browser: Browser, ca: CA) -> None:
    """A board set up for remote play whose broker does not answer (nothing listens on its
    port): the page still offers hosting; the game is made and kept, its code shown, and the
    page says in words that the friend can join once the broker is back."""
    tmp = tmp_path_factory.mktemp("lonely")
    cfg = tmp / "board-a.toml"
    cfg.write_text(f"""[remote]
host = "127.0.0.1"
port = {free_port()}
tls = true
ca = "{ca.cert}"
username = "board-a"
password = "{USERS['board-a']}"
""")
    srv = LiveServer(tmp / "data", args=("--config", str(cfg)))
    try:
        srv.start()
        srv.wait_until("/api/v1/health", lambda h: h["remote"] != "online", timeout=30)
        with phone_page(browser, name="the lonely board's page") as page:
            page.goto(f"{srv.url}/?code={CODE}")
            expect(page.locator("#game-list")).to_be_attached()
            gid = host_on_page(page, "gingo", ["Ann", "Cy"])
            expect(page.locator("#invite-code")).to_contain_text("gingo1-")
            expect(page.locator("#invite-offline")).to_contain_text("cannot reach the remote broker")
            expect(page.locator("#remote-bar")).to_contain_text("broker cannot be reached")
            # the game is kept on this board
            page.click("#nav a[data-nav='games']")
            expect(page.locator(f"#game-list li[data-game='{gid}']")).to_be_visible()
    finally:
        srv.stop()
