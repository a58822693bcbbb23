"""The rest of a newcomer's list, on the phone page in real headless Chromium (390 x 844)
against the real service: History pages back without listing a game twice, bots are not
offered as earlier players, the Board screen names the players of each side, the
declared-melds hint speaks Gin Rummy in Gin Rummy, a tapped gin whose cards leave deadwood
says it is scored as a knock, and a pairing code typed with spaces pairs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import play_drive as D
from tests.live_server import LiveServer
from tests.test_web import gingo_type, join, new_game, pick_ender
from tests.web_helpers import CODE, phone_page

from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.serve(env={"GINGO_BOT_DELAY": "0"})]


@pytest.fixture()
def phone(browser: Browser) -> Iterator[Page]:  # noqa: F811
    with phone_page(browser, 390, 844) as pg:
        yield pg


def token(page: Page) -> str:
    return str(page.evaluate("localStorage.getItem('gingo.token')"))


def test_history_pages_back_without_listing_a_game_twice(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    tok = token(phone)
    for _ in range(53):  # bots only, no delay: each game is over when it is made
        D.dealt(server, tok, "gin", ["Bot A", "Bot B"], [0, 1], options={"game_target": 10})
    asked: list[str] = []
    phone.on("request", lambda r: asked.append(r.url) if "/api/v1/history" in r.url else None)
    phone.goto(phone.url.split("#")[0] + "#/history")
    expect(phone.locator("#history-list li[data-game]")).to_have_count(50)
    more = phone.locator("#history-more")
    expect(more).to_be_visible()
    # a quick second tap asks for nothing more: both taps land on the button itself (a
    # pointer double-click could land its second click on a game the first one listed where
    # the button was, when the answer comes between the two, as it did on a loaded machine)
    more.evaluate("b => { b.click(); b.click(); }")
    expect(phone.locator("#history-list li[data-game]")).to_have_count(53)
    expect(more).to_be_hidden()
    ids = phone.locator("#history-list li[data-game]").evaluate_all("els => els.map(e => e.dataset.game)")
    assert len(set(ids)) == len(ids) == 53
    older = [u for u in asked if "before=" in u]
    assert len(older) == 1, asked
    # a game that ends meanwhile (a live refresh) keeps the older games on the list
    D.dealt(server, tok, "gin", ["Bot A", "Bot B"], [0, 1], options={"game_target": 10})
    expect(phone.locator("#history-count")).to_have_text("54 finished games")
    expect(phone.locator("#history-list li[data-game]")).to_have_count(54)
    ids = phone.locator("#history-list li[data-game]").evaluate_all("els => els.map(e => e.dataset.game)")
    assert len(set(ids)) == 54


def test_bots_are_not_offered_as_earlier_players(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    D.dealt(server, token(phone), "gin", ["Kit", "Bot 1"], [1])
    phone.click("#nav a[data-nav='new']")
    picks = phone.locator("#player-picks .player-pick")
    expect(picks.filter(has_text="Kit")).to_have_count(1)
    expect(picks.filter(has_text="Bot 1")).to_have_count(0)


def test_the_board_screen_names_the_players_of_each_side(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    new_game(phone, "gingo", ["Ann", "Bob"])
    phone.click("#nav a[data-nav='board']")
    key = phone.locator("#board-box .board-key")
    expect(key).to_contain_text("Ann (side 1): round chip")
    expect(key).to_contain_text("Bob (side 2): square chip")
    expect(phone.locator("#board-box")).not_to_contain_text("Side 1")


def test_gin_rummy_entry_speaks_gin_rummy_and_says_when_a_gin_is_a_knock(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    new_game(phone, "gin", ["Ana", "Ben"], preset="gin_004")
    phone.click("#gin-tap-0")  # "Ana: gin", then her cards, which leave 2 deadwood
    help_text = phone.locator("#declared-help")
    expect(help_text).to_contain_text("least deadwood")
    expect(help_text).not_to_contain_text("suits")
    phone.fill("#hand-0", "AS 2S 3S 4H 5H 6H 7D 8D 9D 2C")
    phone.fill("#hand-1", "3C 4C 5C 10S 10H 10C JH QH KH 5D")
    phone.click("#preview-btn")
    note = phone.locator("#gin-claim-note")
    expect(note).to_contain_text("Ana: gin was tapped, but the cards entered leave 2 deadwood")
    expect(note).to_contain_text("scored as a knock")
    expect(phone.locator("#preview-verdict")).to_contain_text("knock")
    # a gin tapped and entered as gin says nothing of the kind
    phone.click("#preview button:has-text('Back to the entry')")
    phone.fill("#hand-0", "AS 2S 3S 4H 5H 6H 7D 8D 9D 10D")
    phone.click("#preview-btn")
    expect(phone.locator("#preview-verdict")).to_contain_text("gin")
    expect(phone.locator("#gin-claim-note")).to_have_count(0)
    # Color Gin keeps its own words
    new_game(phone, "color_gin", ["Ana", "Ben"])
    pick_ender(phone, 0)
    expect(phone.locator("#declared-help")).to_contain_text("open suits unspoiled")


def test_a_pairing_code_typed_with_spaces_pairs_and_a_short_one_is_told_the_length(
        browser: Browser, server: LiveServer) -> None:  # noqa: F811
    with phone_page(browser, 390, 844) as page:
        page.goto(server.url + "/#/join")
        page.fill("#join-code", CODE[:2])
        page.click("#join-btn")
        expect(page.locator("#join-code-error")).to_contain_text(f"pairing codes have {len(CODE)} digits, and 2 were typed")
        page.fill("#join-code", " ".join(CODE))  # "1 2 3 4", as read aloud
        page.click("#join-btn")
        expect(page.locator("#game-list")).to_be_attached()
        assert token(page)


def test_gingo_table_tracking_a_refused_meld_the_clear_button_and_the_rows(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    new_game(phone, "gingo", ["Eve", "Fox"])
    phone.fill("#reveal", "5H 2S KC 9D")
    phone.locator("#setup-btn").scroll_into_view_if_needed()
    phone.click("#setup-btn")
    expect(phone.locator("#gingo-pick")).to_be_visible()
    # the rows are set: the page is back at the top, whose turn in view
    phone.wait_for_function("() => scrollY === 0")
    box = phone.locator("#gingo-status").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844 - 57
    # every action button holds its words (none runs out of its button at 390 px)
    spill = phone.locator("#gingo-form .act-row .btn").evaluate_all(
        "els => els.filter(b => b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1).map(b => b.textContent)")
    assert spill == [], f"buttons whose words run out: {spill}"
    # a refused meld: said in plain words with suit symbols, clear of the bottom bar; the cards are put back
    gingo_type(phone, "#action-cards", "2D 7C KH")
    expect(phone.locator("#chosen-cards")).to_contain_text("2♦ 7♣ K♥")
    phone.click("#send-meld")
    err = phone.locator("#cards-error")
    expect(err).to_contain_text("2♦ 7♣ K♥ is not a meld: a set is one rank, a run is one suit in sequence.")
    assert "2D" not in err.inner_text() and not err.inner_text().startswith("meld:")
    phone.wait_for_timeout(300)  # the scroll into view settles
    e = err.bounding_box()
    bar = float(phone.evaluate("document.querySelector('.bottombar').getBoundingClientRect().top"))
    assert e is not None and e["y"] >= 0 and e["y"] + e["height"] <= bar, f"the error is under the bottom bar: {e}, bar at {bar}"
    expect(phone.locator("#chosen-cards")).to_have_text("")
    expect(phone.locator("#action-cards")).to_have_value("")
    phone.reload()
    expect(phone.locator("#gingo-pick")).to_be_visible()
    expect(phone.locator("#chosen-cards")).to_have_text("")
    # Clear puts back the cards chosen
    gingo_type(phone, "#action-cards", "4S 5S 6S")
    expect(phone.locator("#chosen-cards")).to_contain_text("4♠ 5♠ 6♠")
    phone.click("#clear-chosen")
    expect(phone.locator("#chosen-cards")).to_have_text("")
    expect(phone.locator("#action-cards")).to_have_value("")
    assert phone.locator("#gingo-pick .space.selected, #gingo-pick [aria-pressed='true']").count() == 0
