"""The phone page in real headless Chromium against the real service on 127.0.0.1.

Debian's ``chromium`` driven by Playwright (no browser download), a phone-sized
viewport, ``gingo serve`` in a subprocess with a temporary data directory and a fixed
pairing code. Set ``GINGO_SCREENSHOTS=1`` to also write the screenshots used by
docs/phone.md into docs/screenshots/.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import LiveServer
from tests.conftest import wait_for
from tests.web_helpers import (
    CHROMIUM, CODE, HOST_CODE, PHONE, ROOT, TIMEOUT_MS, Server, doc_shot, free_port, phone_page,
)

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import Browser, Page, ViewportSize, expect  # noqa: E402

from companion import cards as C  # noqa: E402
from companion.games.gingo import rules as gingo  # noqa: E402
from companion.games.ginski import rules as ginski  # noqa: E402
from companion.games.color_gin import rules as color_gin  # noqa: E402
from companion.games.gin import rules as gin  # noqa: E402

pytestmark = pytest.mark.browser

SHOTS = ROOT / "docs" / "screenshots"
VIEWPORT: ViewportSize = {"width": PHONE["width"], "height": PHONE["height"]}
# Every wait is on a real condition (an element's state, a count, a text); these bound how
# long a loaded 2-core machine may take to get there. Playwright's assertions have their
# own default (5 s), separate from the page's action timeout: set both.
expect.set_options(timeout=TIMEOUT_MS)
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def shot(page: Page, name: str, full: bool = False) -> None:
    """Save a screenshot for the docs when GINGO_SCREENSHOTS is set."""
    if os.environ.get("GINGO_SCREENSHOTS"):
        doc_shot(page, SHOTS / f"{name}.png", full)


@pytest.fixture()
def page(browser: Browser) -> Iterator[Page]:
    with phone_page(browser) as pg:
        yield pg


# ---- helpers that act like a player --------------------------------------------------------

def join(page: Page, server: LiveServer) -> None:
    page.goto(f"{server.url}/?code={CODE}")
    expect(page.locator("#game-list")).to_be_attached()
    expect(page.locator("#conn")).to_have_attribute("data-state", "online")


def new_game(page: Page, variant: str, players: list[str], preset: str | None = None, shot_name: str = "") -> str:
    page.click("#nav a[data-nav='new']")
    page.click(f"#new-form .seg[aria-label='variant'] button[data-value='{variant}']")
    if len(players) != 2 or variant == "ginski":
        page.click(f"#new-form .seg[aria-label='number of players'] button[data-value='{len(players)}']")
    if preset:
        page.select_option("#preset", preset)
    for i, name in enumerate(players):
        page.fill(f"#player-{i}", name)
    if shot_name:
        page.click("#new-form details.options summary")
        shot(page, shot_name, full=True)
    page.click("#start-game")
    expect(page).to_have_url(re.compile(r"#/game/"))
    return page.url.rsplit("/", 1)[-1]


def gingo_type(page: Page, selector: str, text: str) -> None:
    """Type cards into a Gin-Go field, opening "Type the cards instead" first."""
    typed = page.locator("#gingo-form details.typed")
    if not typed.evaluate("d => d.open"):
        typed.locator("summary").click()
    page.fill(selector, text)


def gingo_who(page: Page, seat: int) -> None:
    page.click(f"#gingo-form .seg[aria-label='who plays'] button[data-value='{seat}']")


def pick_ender(page: Page, seat: int | str) -> None:
    page.click(f"#entry .seg[aria-label='who ended the hand'] button[data-value='{seat}']")


def hands_in_history(page: Page) -> int:
    return page.locator("#history li[data-hand]").count()


def confirm_preview(page: Page) -> None:
    before = hands_in_history(page)
    page.click("#preview-btn")
    expect(page.locator("#preview")).to_be_visible()
    page.click("#confirm-btn")
    expect(page.locator("#history li[data-hand]")).to_have_count(before + 1)


def score_deadwood(page: Page, ender: int, deadwood: list[int]) -> None:
    pick_ender(page, ender)
    page.click("#entry .seg[aria-label='entry mode'] button[data-value='deadwood']")
    for seat, d in enumerate(deadwood):
        page.fill(f"#deadwood-{seat}", str(d))
    confirm_preview(page)


def cell(page: Page, selector: str) -> str:
    return page.locator(selector).inner_text().strip()


def sheet_numbers(page: Page, row_class: str, seats: int) -> list[int]:
    return [int(cell(page, f"#score-table tr.{row_class} td[data-{row_class}-seat='{s}']"))
            for s in range(seats)]


# ---- tests ---------------------------------------------------------------------------------

def test_join_with_the_pairing_code(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/")
    page.click("#watch-join")   # a phone that has not joined watches; Join is one tap away
    expect(page.locator("#join-code")).to_be_visible()
    shot(page, "join")
    page.fill("#join-code", "0000")
    page.click("#join-btn")
    err = page.locator("#join-code-error")
    expect(err).to_be_visible()
    assert "code" in err.inner_text().lower()
    assert page.evaluate("localStorage.getItem('gingo.token')") is None
    page.fill("#join-code", CODE)
    page.fill("#join-name", "Ana's phone")
    page.click("#join-btn")
    expect(page.locator("#game-list")).to_be_attached()
    token = page.evaluate("localStorage.getItem('gingo.token')")
    assert token
    # The token is kept: a reload stays joined, and the live channel comes up.
    page.reload()
    expect(page.locator("#game-list")).to_be_attached()
    expect(page.locator("#conn")).to_have_attribute("data-state", "online")
    # The theme follows the phone, and the toggle goes auto -> light -> dark.
    page.emulate_media(color_scheme="dark")
    bg = "getComputedStyle(document.body).backgroundColor"
    auto_dark = page.evaluate(bg)
    page.click("#theme")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    assert page.evaluate(bg) != auto_dark
    page.click("#theme")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert page.evaluate(bg) == auto_dark
    page.click("#theme")
    expect(page.locator("html")).to_have_attribute("data-theme", "auto")
    page.emulate_media(color_scheme="light")
    # Touch targets are at least 44 px.
    for sel in ("#new-game", "#nav a[data-nav='board']", "#theme"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, sel
    # The simulated board: a tap puts a side 1 chip, the next side 2, the next lifts it.
    page.click("#nav a[data-nav='board']")
    expect(page.locator("#sim-note")).to_contain_text("Simulated board")
    space = page.locator("#board-box .space[data-space='5']")
    for chip in ("1", "2", "."):
        space.click()
        expect(space).to_have_attribute("data-chip", chip)
        assert wait_for(lambda: server.get("/api/v1/board")["sensed"][5] == chip)  # type: ignore[index]


def test_whole_gin_match_to_100(page: Page, server: LiveServer) -> None:
    join(page, server)
    gid = new_game(page, "gin", ["Ana", "Ben"], preset="gin_004")
    # Hand 1 entered card by card: Ana knocks; the preview shows the engine's melds.
    ana = ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "2C"]
    ben = ["3C", "4C", "5C", "10S", "10H", "10C", "JH", "QH", "KH", "5D"]
    expected = gin.score_hand([ana, ben], 0, "gin_004")
    pick_ender(page, 0)
    page.click("#entry .seat-block[data-seat='0'] .cell[data-card='AS']")  # the grid
    page.fill("#hand-0", " ".join(ana))                                   # or typed
    page.fill("#hand-1", " ".join(ben))
    expect(page.locator("#count-0")).to_have_text("10 cards")
    shot(page, "hand-entry")
    page.click("#preview-btn")
    verdict = page.locator("#preview-verdict")
    expect(verdict).to_contain_text(expected.kind)
    for meld in expected.melds[0]:
        text = "".join(c[:-1] + SYMBOLS[c[-1]] for c in meld)
        expect(page.locator("#preview .seat-result[data-seat='0'] .meld").filter(has_text=text)).to_have_count(1)
    expect(page.locator("#preview .seat-result[data-seat='1']")).to_contain_text(f"Deadwood {expected.deadwood[1]}")
    shot(page, "preview")
    page.click("#confirm-btn")
    expect(page.locator("#history li[data-hand]")).to_have_count(1)
    p1 = [int(p) for p in expected.points]  # type: ignore[arg-type]  # gin points are ints
    # Three quick hands by deadwood: gin is 25 + the other's deadwood, a knock the difference.
    score_deadwood(page, 1, [40, 0])   # Ben gin: 65
    score_deadwood(page, 0, [0, 50])   # Ana gin: 75
    totals = sheet_numbers(page, "total", 2)
    assert totals == [p1[0] + 75, p1[1] + 65]
    assert not page.locator("#winner").is_visible()
    # A wrong hand is corrected: hand 3 was Ana's gin against 30, not 50 (75 -> 55).
    page.click("#history li[data-hand='3'] button")
    expect(page.locator("#entry h2")).to_have_text("Correct hand 3")
    expect(page.locator("#deadwood-1")).to_have_value("50")
    page.fill("#deadwood-1", "30")
    page.click("#preview-btn")
    page.click("#confirm-btn")
    expect(page.locator("#score-table tr.total td[data-total-seat='0']")).to_have_text(str(p1[0] + 55))
    # An entry scored by mistake is undone; the sheet goes back.
    score_deadwood(page, 1, [12, 4])   # Ben knocks: 8
    assert sheet_numbers(page, "total", 2)[1] == p1[1] + 65 + 8
    page.click("#undo-btn")
    page.click("#undo-yes")  # undo asks first
    expect(page.locator("#score-table tr.total td[data-total-seat='1']")).to_have_text(str(p1[1] + 65))
    # Ana goes gin until the match is over.
    while sheet_numbers(page, "total", 2)[0] < 100:
        score_deadwood(page, 0, [0, 45])
    expect(page.locator("#winner")).to_have_text("Ana wins the match!")
    game: dict[str, Any] = server.get(f"/api/v1/games/{gid}")  # type: ignore[assignment]
    match = game["match"]
    totals = sheet_numbers(page, "total", 2)
    assert totals == match["totals"]
    rows = page.locator("#score-table tbody tr")
    assert rows.count() == len(game["hands"])
    # Bonuses on screen: the game bonus (100) and 25 per hand won (boxes).
    won = sheet_numbers(page, "won", 2)
    assert won == match["hands_won"] and won[1] == 1
    bonus = {b: [cell(page, f"#score-table tr.bonus[data-bonus='{b}'] td[data-bonus-seat='{s}']") for s in (0, 1)]
             for b in ("Game bonus", "Boxes")}
    assert bonus["Game bonus"] == ["+100", "·"]
    assert bonus["Boxes"][0] == f"+{25 * won[0]}"
    final = sheet_numbers(page, "final", 2)
    assert final == match["final"]
    assert final[0] == totals[0] + 100 + 25 * won[0]
    shot(page, "gin-sheet", full=True)
    page.emulate_media(media="print")
    expect(page.locator("#score-table")).to_be_visible()
    expect(page.locator("#tools")).to_be_hidden()
    expect(page.locator("#nav")).to_be_hidden()
    page.emulate_media(media="screen")
    page.emulate_media(color_scheme="dark")
    page.locator("#sheet").scroll_into_view_if_needed()
    shot(page, "gin-sheet-dark")
    page.emulate_media(color_scheme="light")
    # Rematch from the finished game starts at zero with the same players.
    page.click("#rematch-btn")
    expect(page).not_to_have_url(re.compile(gid))
    expect(page.locator("#score-table thead")).to_contain_text("Ana")
    assert sheet_numbers(page, "total", 2) == [0, 0]


def test_color_gin_hand_shows_the_spoiled_suits(page: Page, server: LiveServer) -> None:
    join(page, server)
    new_game(page, "color_gin", ["Cy", "Di"])
    cy = ["3H", "4H", "5H", "6H", "8S", "8D", "8C", "JD", "QD", "KD"]
    di = ["AS", "2S", "9S", "4C", "5C", "9C", "JH", "10H", "7D", "2D"]
    expected = color_gin.score_hand([cy, di], 0)
    spoiled = list(expected.extra["spoiled"])  # type: ignore[call-overload]
    assert spoiled  # the example must spoil something to be a test
    pick_ender(page, 0)
    for c in cy:  # Cy's hand tapped on the grid
        page.click(f"#entry .seat-block[data-seat='0'] .cell[data-card='{c}']")
    expect(page.locator("#count-0")).to_have_text("10 cards")
    page.fill("#hand-1", " ".join(di))
    # The knocker may declare the arrangement; a wrong one is refused next to the field.
    page.fill("#declared", "8S 8D 8H")
    page.click("#preview-btn")
    expect(page.locator("#declared-error")).to_contain_text("8♥ is not in Cy's hand")
    page.fill("#declared", "3H 4H 5H 6H 8S / 8D 8C")
    page.click("#preview-btn")
    expect(page.locator("#declared-error")).to_contain_text("declared meld 1")
    expect(page.locator("#preview")).to_be_hidden()
    page.fill("#declared", "3H 4H 5H 6H / 8S 8D 8C / JD QD KD")
    page.click("#preview-btn")
    expect(page.locator("#preview-spoiled")).to_have_text("Spoiled suits: " + " ".join(SYMBOLS[s] for s in spoiled))
    page.click("#confirm-btn")
    expect(page.locator("#history li[data-hand]")).to_have_count(1)
    row = page.locator("#score-table tbody tr[data-hand='1'] td")
    assert row.count() == 8  # four suit columns per player
    suits = "SHDC"
    for p in range(2):
        for i, s in enumerate(suits):
            text = row.nth(p * 4 + i).inner_text().strip()
            pts = expected.points[p][s]  # type: ignore[index]
            if s in spoiled:
                assert text == "✕", (p, s, text)
            else:
                assert text == (str(pts) if pts else "·"), (p, s, text)
            total = cell(page, f"#score-table tr.total td[data-total-seat='{p}'][data-suit='{s}']")
            assert total == str(pts)
    # The same deal again takes both open suits past 100: they close, and Cy takes them.
    pick_ender(page, 0)
    page.fill("#hand-0", " ".join(cy))
    page.fill("#hand-1", " ".join(di))
    confirm_preview(page)
    scoring = [s for s in suits if s not in spoiled]
    for s in suits:
        td = page.locator(f"#score-table tr.total td[data-total-seat='0'][data-suit='{s}']")
        pts = 2 * expected.points[0][s]  # type: ignore[index]
        if s in scoring:
            assert pts >= 100
            expect(td).to_have_text(f"★{pts}")
            expect(td).to_have_class(re.compile(r"\bclosed\b"))
        else:
            expect(td).to_have_text("0")
    shot(page, "color-gin", full=True)


def test_ginski_three_players_on_the_five_colour_grid(page: Page, server: LiveServer) -> None:
    join(page, server)
    new_game(page, "ginski", ["Kim", "Lou", "Max"], shot_name="new-game")
    hands = [["R1", "R2", "R3", "B5", "G5", "Y5", "P9", "P10", "W1", "B13"],
             ["R4", "R5", "R6", "G7", "G8", "G9", "Y1", "Y2", "B2", "P3"],
             ["B7", "B8", "B9", "Y10", "Y11", "Y12", "G1", "G2", "P12", "R13"]]
    expected = ginski.score_hand(hands, 0)
    grid = page.locator("#entry .seat-block[data-seat='0'] .card-grid")
    expect(grid.locator(".grid-head")).to_have_count(6)  # corner + five colours
    pick_ender(page, 0)
    grid.locator(".cell[data-card='W1']").click()        # the wild row
    page.fill("#hand-0", " ".join(hands[0]))
    page.fill("#hand-1", " ".join(hands[1]))
    page.fill("#hand-2", " ".join(hands[2]))
    page.click("#preview-btn")
    expect(page.locator("#preview-verdict")).to_contain_text(expected.kind)
    expect(page.locator("#preview")).to_contain_text("W1=P11")
    page.click("#confirm-btn")
    expect(page.locator("#history li[data-hand]")).to_have_count(1)
    assert sheet_numbers(page, "total", 3) == expected.points


def test_gingo_hand_on_the_simulated_board_until_gin(page: Page, server: LiveServer) -> None:
    join(page, server)
    new_game(page, "gingo", ["Eve", "Fox"])
    # Set-up: a joker before the fourth suit lets the dealer choose suit for suit.
    page.fill("#reveal", "5H JK 2S KC 9D")
    page.click("#gingo-form .seg[aria-label='format'] button[data-value='suit_for_suit']")
    shot(page, "gingo-setup", full=True)
    page.click("#setup-btn")
    expect(page.locator("#gingo-pick")).to_be_visible()
    # Eve melds A-7 of spades with a joker for the 4; the chips are pending on the board.
    gingo_who(page, 0)
    gingo_type(page, "#action-cards", "AS 2S 3S JK 5S 6S 7S")
    page.fill("#desig-JK1", "4S")
    page.click("#send-meld")
    expect(page.locator("#melds li[data-meld]")).to_have_count(1)
    pending = page.locator("#gingo-board .space.pending")
    expect(pending).to_have_count(7)
    page.locator("#gingo-board").scroll_into_view_if_needed()
    shot(page, "gingo-pending")
    # Eve lays the 8 to the K of spades off onto her meld (the turn passed to Fox).
    expect(page.locator("#gingo-turn")).to_have_text("Fox to play")
    gingo_who(page, 0)
    page.select_option("#hit-meld", "1")
    gingo_type(page, "#action-cards", "8S 9S 10S JS QS KS")
    page.click("#send-hit")
    expect(pending).to_have_count(13)
    expect(page.locator("#gin-banner")).to_be_hidden()
    side = page.locator("#gingo-board .side-line[data-side='1']")
    expect(side).to_contain_text("needs 13 more chips")
    # The players put the chips down: a tap on the simulated board places each one.
    spaces = [int(s) for s in pending.evaluate_all("els => els.map(e => e.dataset.space)")]
    for n, sp in enumerate(spaces):
        page.click(f"#gingo-board .space[data-space='{sp}']")
        expect(page.locator(f"#gingo-board .space[data-space='{sp}']")).to_have_attribute("data-state", "agreed")
        if n < len(spaces) - 1:
            expect(page.locator("#gin-banner")).to_be_hidden()
    banner = page.locator("#gin-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("GIN")
    expect(banner).to_contain_text("Eve")
    expect(page.locator("#gingo-board .space.link")).to_have_count(13)
    expect(side).to_contain_text("linked")
    shot(page, "gingo-board", full=True)
    # The printed record keeps the board and drops the controls.
    page.emulate_media(media="print")
    expect(page.locator("#gingo-form")).to_be_hidden()
    expect(page.locator("#gingo-board .board")).to_be_visible()
    page.emulate_media(media="screen")
    # A chip nobody asked for is flagged at once.
    free = next(i for i in range(52) if i not in spaces)
    page.click(f"#gingo-board .space[data-space='{free}']")
    expect(page.locator(f"#gingo-board .space[data-space='{free}']")).to_have_attribute("data-state", "unexpected")
    expect(page.locator("#gingo-board .board-notes")).to_contain_text("1 unexpected")
    # A tap turns the stray chip to side 2, another lifts it.
    stray = page.locator(f"#gingo-board .space[data-space='{free}']")
    stray.click()
    expect(stray).to_have_attribute("data-chip", "2")
    stray.click()
    expect(stray).to_have_attribute("data-chip", ".")
    expect(page.locator("#gingo-board .board-notes")).to_be_hidden()
    # Eve goes out; Fox's cards are captured; the link held since the Gin call wins.
    gingo_who(page, 0)
    page.click("#gingo-form [aria-label='action'] button[data-value='go_out']")
    gingo_type(page, "#captured-1", "2H 9D")
    page.click("#send-action")
    expect(page.locator("#winner")).to_contain_text("Eve wins the game")
    expect(page.locator("#history li")).to_have_count(1)


def test_gingo_secrecy_rows_and_a_bump_shown_until_the_chip_is_turned(page: Page, server: LiveServer) -> None:
    join(page, server)
    new_game(page, "gingo", ["Tia", "Uma"])
    # A joker came up: the dealer chose Secrecy, and each side set its own order.
    page.fill("#reveal", "JK 5H 2S KC 9D")
    page.click("#gingo-form .seg[aria-label='format'] button[data-value='secrecy']")
    page.fill("#secret-1", "HSDC")   # Tia's hearts: the first column from her seat
    page.fill("#secret-2", "SHDC")   # Uma's clubs: the same column seen from the far end
    page.click("#setup-btn")
    expect(page.locator("#gingo-form [aria-label='action']")).to_be_visible()
    gingo_who(page, 0)
    gingo_type(page, "#action-cards", "AH 2H 3H")
    page.click("#send-meld")
    hearts = [0, 4, 8]             # column 1, rows 1-3
    for sp in hearts:
        space = page.locator(f"#gingo-board .space[data-space='{sp}']")
        expect(space).to_have_attribute("data-state", "pending")
        space.click()
        expect(space).to_have_attribute("data-state", "agreed")
    # Uma's K, Q, J of clubs sit on rows 1-3 of the same column: Tia's chips must go.
    page.click("#gingo-form .seg[aria-label='who plays'] button[data-value='1']")
    gingo_type(page, "#action-cards", "JC QC KC")
    page.click("#send-meld")
    expect(page.locator("#gingo-board .space.bump")).to_have_count(3)
    expect(page.locator("#gingo-board .board-notes")).to_contain_text("3 to bump")
    for sp in hearts:
        space = page.locator(f"#gingo-board .space[data-space='{sp}']")
        expect(space).to_have_attribute("data-state", "bump")
        space.click()              # the chip is turned over to Uma's colour
        expect(space).to_have_attribute("data-state", "agreed")
        expect(space).to_have_attribute("data-chip", "2")


def test_a_second_phone_follows_live(page: Page, browser: Browser, server: LiveServer) -> None:
    join(page, server)
    new_game(page, "gin", ["Ned", "Ola"])
    other = browser.new_context(viewport=VIEWPORT).new_page()
    other.set_default_timeout(TIMEOUT_MS)
    try:
        join(other, server)
        other.goto(page.url)
        expect(other.locator("#score-table")).to_be_visible()
        score_deadwood(page, 0, [0, 20])        # Ned gin: 45, entered on the first phone
        expect(other.locator("#history li[data-hand]")).to_have_count(1)
        expect(other.locator("#score-table tr.total td[data-total-seat='0']")).to_have_text("45")
    finally:
        other.context.close()


def test_gingo_four_players_play_as_two_teams(page: Page, server: LiveServer) -> None:
    join(page, server)
    new_game(page, "gingo", ["Pam", "Quin", "Rae", "Sol"])
    expect(page.locator("#gingo-board .side-line[data-side='1']")).to_contain_text("Pam & Rae")
    expect(page.locator("#gingo-board .side-line[data-side='2']")).to_contain_text("Quin & Sol")
    page.click("#gingo-form .seg[aria-label='set-up'] button[data-value='direct']")
    page.fill("#rows-1", "SHDC")
    page.fill("#rows-2", "SHSC")
    page.click("#setup-btn")
    expect(page.locator("#setup-error")).to_contain_text("four suits")
    page.fill("#rows-2", "CDHS")
    page.click("#setup-btn")
    expect(page.locator("#gingo-pick")).to_be_visible()
    expect(page.locator("#gingo-form .seg[aria-label='who plays'] button")).to_have_count(4)
    # Quin goes out at once; the captured cards give no link, so the next hand is dealt.
    page.click("#gingo-form [aria-label='action'] button[data-value='go_out']")
    page.click("#gingo-form .seg[aria-label='who plays'] button[data-value='1']")
    gingo_type(page, "#captured-0", "2H 3H")
    gingo_type(page, "#captured-2", "2H")
    page.click("#send-action")
    expect(page.locator("#captured-error-2")).to_contain_text("entered for two players")
    gingo_type(page, "#captured-2", "9C")
    page.click("#send-action")
    expect(page.locator("#new-hand-btn")).to_be_visible()
    expect(page.locator("#history li")).to_have_count(1)
    page.click("#new-hand-btn")
    expect(page.locator("h1 small")).to_contain_text("Hand 2")


def test_export_json_and_csv_then_import(page: Page, server: LiveServer, tmp_path: Path) -> None:
    join(page, server)
    gid = new_game(page, "gin", ["Kai", "Lea"])
    score_deadwood(page, 0, [3, 30])          # Kai knocks: 27
    score_deadwood(page, 1, [25, 0])          # Lea gin: 50
    # The stock ran down to two cards: a void hand, entered with the cards, scores nothing.
    pick_ender(page, "void")
    page.click("#entry .seg[aria-label='entry mode'] button[data-value='cards']")
    expect(page.locator("#hand-0")).to_be_visible()
    page.fill("#hand-0", "AS 3S 5S 7S 9S JS KS 2H 4H 6H")
    page.fill("#hand-1", "AD 3D 5D 7D 9D JD KD 2C 4C 6C")
    page.click("#preview-btn")
    expect(page.locator("#preview-verdict")).to_have_text("Nobody: no game. No score.")
    page.click("#confirm-btn")
    expect(page.locator("#history li[data-hand]")).to_have_count(3)
    with page.expect_download() as dl:
        page.click("#tools a[href$='export.csv']")
    csv_text = Path(dl.value.path()).read_text()
    assert "Kai" in csv_text and "Lea" in csv_text and "27" in csv_text and "50" in csv_text
    with page.expect_download() as dl:
        page.click("#tools a[href$='export.json']")
    saved = tmp_path / "game.json"
    dl.value.save_as(saved)
    page.click("#nav a[data-nav='games']")
    page.set_input_files("#import-file", str(saved))
    expect(page).to_have_url(re.compile(r"#/game/"))
    expect(page).not_to_have_url(re.compile(gid))
    expect(page.locator("#history li[data-hand]")).to_have_count(3)
    assert sheet_numbers(page, "total", 2) == [27, 50]


def test_errors_show_next_to_their_field_and_nothing_is_sent(page: Page, server: LiveServer) -> None:
    join(page, server)
    gid = new_game(page, "gin", ["Gus", "Hal"])
    pick_ender(page, 0)
    # A card typed twice.
    page.fill("#hand-0", "AS AS")
    expect(page.locator("#hand-error-0")).to_contain_text("A♠ is entered twice")
    # A hand of the wrong size, checked before anything is sent.
    page.fill("#hand-0", "AS 2S 3S 4S 5S 6S 7S 8S 9S")
    page.fill("#hand-1", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H")
    page.click("#preview-btn")
    expect(page.locator("#hand-error-0")).to_contain_text("Gus's hand has 9 cards")
    expect(page.locator("#hand-error-1")).to_be_hidden()
    # A card in two hands.
    page.fill("#hand-0", "AS 2S 3S 4S 5S 6S 7S 8S 9S AH")
    page.click("#preview-btn")
    expect(page.locator("#hand-error-1")).to_contain_text("A♥ is also in Gus's hand")
    # The engine's own message: a knock above the limit, shown next to the knocker's hand.
    page.fill("#hand-0", "KS QS 10D 8C 6C 4S 2D JC 9D 7C")
    page.fill("#hand-1", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H")
    page.click("#preview-btn")
    err = page.locator("#hand-error-0")
    expect(err).to_contain_text("Gus may not knock")
    expect(page.locator("#preview")).to_be_hidden()
    shot(page, "error")
    game: dict[str, Any] = server.get(f"/api/v1/games/{gid}")  # type: ignore[assignment]
    assert game["hands"] == [] and game["version"] == 1


def test_connection_lost_and_regained_keeps_everything(page: Page, tmp_path: Path) -> None:
    srv = Server(tmp_path / "data", port=free_port()).start()
    try:
        join(page, srv)
        gid = new_game(page, "gin", ["Ivy", "Jon"])
        score_deadwood(page, 1, [20, 6])          # Jon knocks: 14
        # Start typing the next hand, then the service goes away.
        pick_ender(page, 0)
        page.click("#entry .seg[aria-label='entry mode'] button[data-value='deadwood']")
        page.fill("#deadwood-0", "0")
        srv.stop()
        expect(page.locator("#conn")).not_to_have_attribute("data-state", "online")
        page.fill("#deadwood-1", "33")             # typed while offline
        page.click("#preview-btn")
        expect(page.locator("#entry-error")).to_contain_text("No connection")
        shot(page, "offline")
        srv.start()                                # same port, same data directory
        expect(page.locator("#conn")).to_have_attribute("data-state", "online", timeout=30000)
        expect(page.locator("#deadwood-0")).to_have_value("0")
        expect(page.locator("#deadwood-1")).to_have_value("33")
        expect(page.locator("#history li[data-hand]")).to_have_count(1)
        page.click("#preview-btn")
        expect(page.locator("#preview-verdict")).to_contain_text("gin")
        # Lost again between the preview and the confirm: the hand waits on the phone.
        srv.stop()
        expect(page.locator("#conn")).not_to_have_attribute("data-state", "online")
        page.click("#confirm-btn")
        expect(page.locator("#outbox")).to_have_text("1 waiting")
        srv.start()
        expect(page.locator("#outbox")).to_be_hidden(timeout=30000)
        expect(page.locator("#history li[data-hand]")).to_have_count(2)
        assert sheet_numbers(page, "total", 2) == [58, 14]
        game: dict[str, Any] = srv.get(f"/api/v1/games/{gid}")  # type: ignore[assignment]
        assert len(game["hands"]) == 2 and game["scores"] == [58, 14]
    finally:
        srv.stop()


def test_deadwood_entry_for_ginski_big_ginski_and_the_stock_end(page: Page, server: LiveServer) -> None:
    join(page, server)
    new_game(page, "ginski", ["Kim", "Lou", "Max"])
    score_deadwood(page, 0, [8, 15, 20])           # Kim knocks with 8: (15 - 8) + (20 - 8)
    assert sheet_numbers(page, "total", 3) == [27, 0, 0]
    # A Big Ginski by deadwood: the toggle sets Lou's deadwood to 0 and sends big_gin.
    opts = ginski.make_options("ginski")
    big = ginski.score_from_deadwood([10, 0, 5], 1, options=opts, big_gin=True)
    pick_ender(page, 1)
    page.click("#entry .seg[aria-label='entry mode'] button[data-value='deadwood']")
    page.check("#big-gin")
    expect(page.locator("#deadwood-1")).to_have_value("0")
    page.fill("#deadwood-0", "10")
    page.fill("#deadwood-2", "5")
    page.click("#preview-btn")
    expect(page.locator("#preview-verdict")).to_contain_text("Lou: Big Ginski.")
    shot(page, "deadwood-entry", full=True)
    page.click("#confirm-btn")
    expect(page.locator("#history li[data-hand]")).to_have_count(2)
    pts = [int(p) for p in big.points]  # type: ignore[arg-type]  # Ginski points are ints
    assert sheet_numbers(page, "total", 3) == [27 + pts[0], pts[1], pts[2]]
    # Gin, rule set gin_002: the stock ran out and the deadwood decides (a showdown).
    new_game(page, "gin", ["Nia", "Oto"], preset="gin_002")
    expect(page.locator("#big-gin")).to_have_count(0)
    pick_ender(page, "void")
    page.click("#entry .seg[aria-label='entry mode'] button[data-value='deadwood']")
    expect(page.locator("#void-help")).to_contain_text("showdown")
    page.fill("#deadwood-0", "5")
    page.fill("#deadwood-1", "20")
    page.click("#preview-btn")
    expect(page.locator("#preview-verdict")).to_contain_text("Nobody: showdown. Nia scores.")
    page.click("#confirm-btn")
    expect(page.locator("#history li[data-hand]")).to_have_count(1)
    showdown = gin.score_from_deadwood([5, 20], None, options=gin.make_options("gin_002"))
    assert sheet_numbers(page, "total", 2) == showdown.points


def test_oklahoma_upcard_and_color_gin_joker(page: Page, server: LiveServer) -> None:
    join(page, server)
    page.click("#nav a[data-nav='new']")
    page.click("#new-form .seg[aria-label='variant'] button[data-value='gin']")
    page.fill("#player-0", "Pia")
    page.fill("#player-1", "Rex")
    page.click("#new-form details.options summary")
    page.check("#opt-oklahoma")
    page.click("#start-game")
    expect(page).to_have_url(re.compile(r"#/game/"))
    gid = page.url.rsplit("/", 1)[-1]
    pick_ender(page, 0)
    page.click("#entry .seg[aria-label='entry mode'] button[data-value='deadwood']")
    page.fill("#deadwood-0", "9")
    page.fill("#deadwood-1", "20")
    page.click("#preview-btn")
    expect(page.locator("#upcard-error")).to_contain_text("upcard")    # asked for before sending
    page.fill("#upcard", "7D")
    page.click("#preview-btn")
    err = page.locator("#upcard-error")
    expect(err).to_contain_text("7 or less")                           # the engine's refusal
    expect(err).to_contain_text("Pia")
    expect(page.locator("#preview")).to_be_hidden()
    shot(page, "upcard-error")
    page.fill("#upcard", "10H")
    confirm_preview(page)
    assert sheet_numbers(page, "total", 2) == [11, 0]
    game: dict[str, Any] = server.get(f"/api/v1/games/{gid}")  # type: ignore[assignment]
    assert game["hands"][0]["upcard"] == "10H"
    page.click("#history li[data-hand='1'] button")                    # a correction keeps the upcard
    expect(page.locator("#upcard")).to_have_value("10H")
    expect(page.locator("#deadwood-0")).to_have_value("9")
    page.click("#entry button:has-text('Cancel correction')")
    # Color Gin with co-op jokers: a drawn joker forces a knock above the limit.
    new_game(page, "color_gin", ["Sam", "Tom"], preset="coop_jokers")
    cy = ["3H", "4H", "5H", "6H", "8S", "8D", "8C", "9D", "QD", "KD"]
    di = ["AS", "2S", "9S", "4C", "5C", "9C", "JH", "10H", "7D", "2D"]
    expected = color_gin.score_hand([cy, di], 0, options=color_gin.make_options("coop_jokers"), joker=True)
    pick_ender(page, 0)
    page.fill("#hand-0", " ".join(cy))
    page.fill("#hand-1", " ".join(di))
    page.click("#preview-btn")
    expect(page.locator("#hand-error-0")).to_contain_text("may not knock")
    page.check("#joker")
    page.click("#preview-btn")
    expect(page.locator("#preview-verdict")).to_contain_text("Sam: knock.")
    page.click("#confirm-btn")
    expect(page.locator("#history li[data-hand]")).to_have_count(1)
    for s in "SHDC":
        assert cell(page, f"#score-table tr.total td[data-total-seat='0'][data-suit='{s}']").lstrip("★") == \
            str(expected.points[0][s])  # type: ignore[index]


def test_gingo_short_chip_supply_lets_the_players_forfeit(page: Page, server: LiveServer) -> None:
    join(page, server)
    token = str(server.post("/api/v1/pair", {"code": CODE, "name": "set-up script"})["token"])  # type: ignore[index]
    game: dict[str, Any] = server.post("/api/v1/games", {"variant": "gingo", "players": ["Uli", "Vic"]}, token)  # type: ignore[assignment]
    # Resumed from a recording form: side 1 has 48 chips down, 2 left; A-4 of hearts are free.
    rows = {"1": "SHDC", "2": "SHDC"}
    probe = gingo.new_game(["Uli", "Vic"], {})
    probe.apply({"type": "setup", "suit_rows": rows})
    free = [probe.space(1, C.parse_card(c)) for c in ("AH", "2H", "3H", "4H")]
    board = "".join("." if i in free else "1" for i in range(52))
    server.post(f"/api/v1/games/{game['id']}/actions", {"action": {"type": "setup", "suit_rows": rows, "board": board}}, token)
    page.goto(f"{server.url}/#/game/{game['id']}")
    gingo_who(page, 0)
    gingo_type(page, "#action-cards", "AH 2H 3H")
    page.click("#send-meld")
    box = page.locator("#forfeit-box")
    expect(box).to_be_visible()
    expect(page.locator("#forfeit-text")).to_contain_text("2 chips left, but this play needs 3")
    page.click("#send-forfeit")
    expect(page.locator("#forfeit-error")).to_contain_text("Choose 1 card")
    page.click("#forfeit-box .cell[data-card='3H']")
    shot(page, "gingo-forfeit")
    page.click("#send-forfeit")
    expect(page.locator("#melds li[data-meld]")).to_have_count(1)
    expect(box).to_be_hidden()
    after: dict[str, Any] = server.get(f"/api/v1/games/{game['id']}")  # type: ignore[assignment]
    assert after["state"]["supply"]["1"] == 0
    assert [after["board"][sp] for sp in free] == ["1", "1", ".", "."]


def gingo_resumed(server: LiveServer, players: list[str], board_of: Callable[[gingo.GingoGame], str],
                  actions: tuple[dict[str, Any], ...] = ()) -> tuple[str, str, gingo.GingoGame]:
    """A Gin-Go game set up through the API from a recording form (``board_of`` gives its
    52 chips), then ``actions``; returns the game id, a token and the same game in the engine."""
    token = str(server.post("/api/v1/pair", {"code": CODE, "name": "set-up script"})["token"])  # type: ignore[index]
    game: dict[str, Any] = server.post("/api/v1/games", {"variant": "gingo", "players": players}, token)  # type: ignore[assignment]
    rows = {"1": "SHDC", "2": "SHDC"}
    probe = gingo.new_game(players, {})
    probe.apply({"type": "setup", "suit_rows": rows})
    board = board_of(probe)
    probe = gingo.new_game(players, {})
    for action in [{"type": "setup", "suit_rows": rows, "board": board}, *actions]:
        probe.apply(action)
        server.post(f"/api/v1/games/{game['id']}/actions", {"action": action}, token)
    return str(game["id"]), token, probe


def shown_board(page: Page) -> str:
    """The chips the page says belong on the board (a chip to bump shows the one wanted)."""
    out = []
    for sp in range(52):
        el = page.locator(f"#gingo-board .space[data-space='{sp}']")
        state, chip = el.get_attribute("data-state"), el.get_attribute("data-chip")
        if state == "bump":
            m = re.search(r"bump: side (\d)", el.get_attribute("aria-label") or "")
            chip = m.group(1) if m else "?"
        elif state == "unexpected":
            chip = "."
        out.append(chip or "?")
    return "".join(out)


def test_gingo_going_out_with_too_few_chips_forfeits_the_chosen_captures(page: Page, server: LiveServer) -> None:
    join(page, server)
    # Side 1 (Wes) has 48 chips down and 2 left; Xan's four chips fill the 7 row, so no link.
    seven_row = {24, 25, 26, 27}
    gid, _, probe = gingo_resumed(server, ["Wes", "Xan"],
                                  lambda _: "".join("2" if i in seven_row else "1" for i in range(52)))
    assert probe.as_dict()["supply"]["1"] == 2 and probe.as_dict()["links"] == {"1": None, "2": None}
    page.goto(f"{server.url}/#/game/{gid}")
    assert wait_for(lambda: shown_board(page) == probe.as_dict()["board"])
    # Wes goes out; Xan still holds three 7s (on Xan's chips) and the 2S (a space Wes holds already).
    gingo_who(page, 0)
    page.click("#gingo-form [aria-label='action'] button[data-value='go_out']")
    gingo_type(page, "#captured-1", "7S 7H 7D 2S")
    page.click("#send-action")
    box = page.locator("#forfeit-box")
    expect(box).to_be_visible()
    expect(page.locator("#forfeit-text")).to_contain_text("2 chips left, but this play needs 3")
    # Only the cards whose chip would be new can be given up: the 2S needs none.
    cards = box.locator(".cell")
    assert cards.evaluate_all("els => els.map(e => e.dataset.card)") == ["7S", "7H", "7D"]
    expect(page.locator("#winner")).to_have_count(0)
    page.click("#forfeit-box .cell[data-card='7H']")
    page.click("#send-forfeit")
    expect(box).to_be_hidden()
    # The two 7s placed bump Xan's chips and open the 7 row: the capture completes Wes's link.
    probe.apply({"type": "go_out", "seat": 0, "captured": {"1": ["7S", "7H", "7D", "2S"]}, "jokers": {},
                 "skip": ["7H"]})
    want = probe.as_dict()
    assert want["winner"] == 1 and want["win_reason"] == "capture_link"
    expect(page.locator("#winner")).to_contain_text("Wes wins the game! (capture link)")
    expect(page.locator("#history li")).to_have_count(1)
    expect(page.locator("#history li")).to_contain_text("Wes went out")
    after: dict[str, Any] = server.get(f"/api/v1/games/{gid}")  # type: ignore[assignment]
    assert after["state"]["board"] == want["board"]
    assert after["state"]["supply"] == want["supply"] == {"1": 0, "2": 48}
    assert [want["board"][sp] for sp in sorted(seven_row)] == ["1", "2", "1", "2"]
    assert wait_for(lambda: shown_board(page) == want["board"])
    expect(page.locator("#gingo-board .space.link")).to_have_count(len(want["links"]["1"]))
    assert sorted(int(s) for s in page.locator("#gingo-board .space.link").evaluate_all(
        "els => els.map(e => e.dataset.space)")) == sorted(want["links"]["1"])


def test_gingo_hit_with_too_few_chips_forfeits_the_chosen_cards(page: Page, server: LiveServer) -> None:
    join(page, server)
    # Side 1 (Yul) has 46 chips down and 4 left; the A-6 of hearts are free. Yul melds 2H 3H 4H.
    hearts = ("AH", "2H", "3H", "4H", "5H", "6H")
    gid, _, probe = gingo_resumed(
        server, ["Yul", "Zed"],
        lambda p: "".join("." if i in {p.space(1, C.parse_card(c)) for c in hearts} else "1" for i in range(52)),
        ({"type": "meld", "seat": 0, "cards": ["2H", "3H", "4H"], "designations": {}},))
    assert probe.as_dict()["supply"]["1"] == 1
    page.goto(f"{server.url}/#/game/{gid}")
    expect(page.locator("#melds li[data-meld]")).to_have_count(1)
    # Yul lays off the AH, the 5H and a joker for the 6H: three chips, one left.
    gingo_who(page, 0)
    page.select_option("#hit-meld", "1")
    gingo_type(page, "#action-cards", "AH 5H JK")
    page.fill("#desig-JK1", "6H")
    page.click("#send-hit")
    box = page.locator("#forfeit-box")
    expect(box).to_be_visible()
    expect(page.locator("#forfeit-text")).to_contain_text("1 chip left, but this play needs 3")
    expect(page.locator("#forfeit-text")).to_contain_text("Choose 2 cards")
    assert box.locator(".cell").evaluate_all("els => els.map(e => e.dataset.card)") == ["AH", "5H", "6H"]
    page.click("#forfeit-box .cell[data-card='AH']")
    page.click("#send-forfeit")
    expect(page.locator("#forfeit-error")).to_contain_text("Choose 2 cards; 1 chosen")
    expect(page.locator("#melds li[data-meld] .card")).to_have_count(3)   # nothing was sent
    page.click("#forfeit-box .cell[data-card='6H']")
    page.click("#send-forfeit")
    expect(box).to_be_hidden()
    expect(page.locator("#melds li[data-meld='1']")).to_contain_text("JK1=")
    probe.apply({"type": "hit", "seat": 0, "meld": 1, "cards": ["AH", "5H", "JK1"],
                 "designations": {"JK1": "6H"}, "skip": ["AH", "6H"]})
    want = probe.as_dict()
    after: dict[str, Any] = server.get(f"/api/v1/games/{gid}")  # type: ignore[assignment]
    assert after["state"]["board"] == want["board"]
    assert after["state"]["melds"] == want["melds"]
    assert want["supply"]["1"] == 0
    assert [want["board"][probe.space(1, C.parse_card(c))] for c in hearts] == [".", "1", "1", "1", "1", "."]
    assert wait_for(lambda: shown_board(page) == want["board"])
    # The cards typed are cleared once the hit is in.
    expect(page.locator("#action-cards")).to_have_value("")


def test_host_settings_revoke_a_phone_and_delete_a_game(page: Page, browser: Browser, server: LiveServer) -> None:
    join(page, server)
    token = str(server.post("/api/v1/pair", {"code": CODE, "name": "scratch"})["token"])  # type: ignore[index]
    doomed: dict[str, Any] = server.post("/api/v1/games", {"variant": "gin", "players": ["Zed", "Yul"]}, token)  # type: ignore[assignment]
    other = browser.new_context(viewport=VIEWPORT).new_page()
    other.set_default_timeout(TIMEOUT_MS)
    try:
        other.goto(server.url + "/#/join")
        other.fill("#join-code", CODE)
        other.fill("#join-name", "Wes's phone")
        other.click("#join-btn")
        expect(other.locator("#game-list")).to_be_attached()
        expect(other.locator("#conn")).to_have_attribute("data-state", "online")
        page.click("#nav a[data-nav='host']")
        page.fill("#host-code", "wrong")
        page.click("#host-open")
        expect(page.locator("#host-code-error")).to_contain_text("not the host code")
        expect(page.locator("#token-list")).to_have_count(0)
        page.fill("#host-code", HOST_CODE)
        page.click("#host-open")
        wes = page.locator("#token-list li").filter(has_text="Wes's phone")
        expect(wes).to_have_count(1)
        expect(page.locator("#token-list li").filter(has_text="this phone")).to_have_count(1)
        shot(page, "host")
        wes.locator("button").click()
        expect(wes.locator("button")).to_have_text("Yes, remove")
        wes.locator("button").click()
        expect(wes).to_have_count(0)
        # The removed phone is told at once and asks for the pairing code again.
        expect(other.locator("#join-code")).to_be_visible()
        assert other.evaluate("localStorage.getItem('gingo.token')") is None
        # A game is deleted from the host screen.
        row = page.locator(f"#host-games li[data-game='{doomed['id']}']")
        row.locator("button").click()
        expect(row.locator("button")).to_have_text("Yes, delete")
        row.locator("button").click()
        expect(row).to_have_count(0)
        games: dict[str, Any] = server.get("/api/v1/games")  # type: ignore[assignment]
        assert doomed["id"] not in [g["id"] for g in games["games"]]
    finally:
        other.context.close()


def test_a_stale_or_garbled_sequence_number_still_connects_and_resyncs(page: Page, server: LiveServer) -> None:
    join(page, server)
    current = int(page.evaluate("localStorage.getItem('gingo.seq')") or 0)
    # garbage left in storage: the phone still connects (after=NaN is refused)
    page.evaluate("localStorage.setItem('gingo.seq', 'abc')")
    page.reload()
    expect(page.locator("#conn")).to_have_attribute("data-state", "online")
    # a number from a longer log (the service now runs on a new data folder): the phone
    # counts again from the service's snapshot, so later reconnects miss nothing
    page.evaluate("localStorage.setItem('gingo.seq', '999999')")
    page.reload()
    expect(page.locator("#conn")).to_have_attribute("data-state", "online")
    page.wait_for_function("() => Number(localStorage.getItem('gingo.seq')) < 999999")
    assert int(page.evaluate("localStorage.getItem('gingo.seq')")) >= current


def test_a_new_pairing_code_shows_on_the_paired_phones(page: Page, browser: Browser, tmp_path: Path) -> None:
    """Its own server: the code changes. The page runs under the companion's CSP."""
    import httpx

    srv = Server(tmp_path / "data", port=free_port()).start()
    try:
        join(page, srv)
        csp = httpx.get(srv.url + "/").headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        # the host rotates the code (as a long press of the confirm button does): the paired
        # phone is told live and shows the new code, which pairs a new phone
        r = httpx.post(srv.url + "/api/v1/pair/rotate", headers={"X-Host-Code": HOST_CODE})
        code = r.json()["code"]
        expect(page.locator("#pair-code-value")).to_have_text(code)
        # the window the server runs with (web_helpers.Server makes it a day: 1440 minutes)
        window = r.json()["window"]
        expect(page.locator("#pair-code")).to_contain_text(f"good for {round(window / 60)} min")
        page.click("#pair-code-hide")
        expect(page.locator("#pair-code")).to_be_hidden()
        other = browser.new_context(viewport=VIEWPORT)
        try:
            second = other.new_page()
            second.goto(f"{srv.url}/?code={CODE}")  # the old code no longer pairs
            expect(second.locator("#join-code-error")).to_contain_text("pairing codes have 6 digits, and 4 were typed")
            second.goto(f"{srv.url}/?code={code}")
            expect(second.locator("#game-list")).to_be_attached()
        finally:
            other.close()
        # a paired phone makes a new code itself (Host, then "New pairing code")
        page.click("#nav a[data-nav='host']")
        page.click("#new-pair-code")
        expect(page.locator("#pair-code-value")).not_to_have_text(code)
        shown = page.locator("#pair-code-value").inner_text()
        assert re.fullmatch(r"\d{6}", shown)
        assert httpx.post(srv.url + "/api/v1/pair", json={"code": shown, "name": "third"}).status_code == 200
    finally:
        srv.stop()
