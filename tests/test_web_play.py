"""Dealt play on the phone page in real headless Chromium against the real service (bots
move at once): start a game from the Play screen, the hand as a fanned row and by suit,
turns played by taps with the moves on screen at 390 x 844, the bot's turn shown, the
other players' card counts, and a Gin-Go game on the same screen."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live_server import LiveServer
from tests.test_web import TIMEOUT_MS, join, shot
from tests.test_web import browser as browser  # noqa: F401  (the shared Chromium)
from tests.web_helpers import CODE, HOST_CODE, steady_box

from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    srv = LiveServer(Path(tmp_path_factory.mktemp("play-data")), code=CODE, host_code=HOST_CODE,
                     env={"GINGO_BOT_DELAY": "0"}).start()
    yield srv
    srv.stop()


@pytest.fixture()
def phone(browser: Browser) -> Iterator[Page]:  # noqa: F811
    # the screenshots for the docs hide the toast with a style tag, which the page's CSP refuses
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1, has_touch=True,
                              bypass_csp=bool(os.environ.get("GINGO_SCREENSHOTS")))
    pg = ctx.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def on_screen(page: Page, selector: str) -> None:
    """``selector`` is visible without scrolling, above the bottom bar (one thumb)."""
    box = steady_box(page, selector)
    bottom = page.evaluate("innerHeight - document.querySelector('.bottombar').getBoundingClientRect().height")
    assert box["y"] >= 0 and box["y"] + box["height"] <= bottom + 0.5, f"{selector} is off screen: {box}"
    assert box["height"] >= 44 and box["width"] >= 44, f"{selector} is smaller than a thumb: {box}"


def tap_move(page: Page, button: object) -> None:
    """Tap a move and wait for the page to show the game after it (and the bot's moves)."""
    before = page.get_attribute("#play", "data-version")
    button.tap()  # type: ignore[attr-defined]
    page.wait_for_function("v => document.querySelector('#play').dataset.version !== v", arg=before)


def deal(page: Page, variant: str, players: int = 2) -> None:
    page.click("#nav a[data-nav='play']")
    page.click(f"#play-form .seg[aria-label='game'] button[data-value='{variant}']")
    if players != 2:
        page.click(f"#play-form .seg[aria-label='number of players'] button[data-value='{players}']")
    page.fill("#play-name-0", "Ann")
    if variant == "gingo":
        page.check("#play-skip")
    page.click("#play-form button[type=submit]")
    expect(page.locator("#play")).to_be_visible()


def test_a_gin_game_against_the_bot_by_taps(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    deal(phone, "gin")
    expect(phone.locator(".play-turn")).to_have_text("Your turn")
    expect(phone.locator(".play-fan .play-card")).to_have_count(10)
    expect(phone.locator(".play-others li")).to_contain_text("Bot 1 (bot)")
    expect(phone.locator(".play-others li")).to_contain_text("cards")
    shot(phone, "play-gin")
    turns = 0
    for _ in range(12):  # take or pass the upcard, then draw and discard by taps
        moves = phone.locator("#play-moves button")
        expect(phone.locator(".play-turn")).to_have_text("Your turn")
        if moves.count():
            first = moves.first.inner_text()
            on_screen(phone, "#play-moves button")
            tap_move(phone, moves.first if first.startswith("Knock") or "stock" in first or first == "Pass"
                     else moves.last)
        else:  # time to discard: choose a card, then the move it offers
            expect(phone.locator(".play-hint")).to_contain_text("Tap a card")
            phone.locator(".play-fan .play-card").last.tap()
            expect(phone.locator("#play-moves button").first).to_contain_text("Discard")
            on_screen(phone, "#play-moves button")
            tap_move(phone, phone.locator("#play-moves button").first)
            turns += 1
        if phone.locator(".play-turn").inner_text() == "The game is over.":
            break
        if turns >= 4:
            break
    assert turns >= 1
    expect(phone.locator(".play-fan .play-card")).to_have_count(10)
    phone.click(".play-hand-head .seg button[data-value='grid']")
    expect(phone.locator(".play-grid .play-col")).to_have_count(4)
    expect(phone.locator(".play-grid .play-card")).to_have_count(10)
    shot(phone, "play-gin-grid")
    # a reload gets the hand back from the companion
    hand = phone.locator(".play-card").all_inner_texts()
    phone.reload()
    expect(phone.locator(".play-grid .play-card")).to_have_count(10)
    assert phone.locator(".play-card").all_inner_texts() == hand
    phone.click(".play-hand-head .seg button[data-value='fan']")


def test_the_same_screen_plays_gingo_and_ginski(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    deal(phone, "gingo")
    expect(phone.locator("#play-moves button").first).to_be_visible()  # the set-up, or a move
    if phone.locator("#play-moves button").first.inner_text().startswith("Set up"):
        tap_move(phone, phone.locator("#play-moves button").first)
    expect(phone.locator(".play-fan .play-card").first).to_be_visible()
    expect(phone.locator(".play-pile")).to_contain_text("Discard")
    shot(phone, "play-gingo")
    phone.click("#nav a[data-nav='games']")
    deal(phone, "ginski", players=3)
    expect(phone.locator(".play-others li")).to_have_count(2)
    expect(phone.locator(".play-fan .play-card")).to_have_count(10)
