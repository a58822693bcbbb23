"""Gin-Go at the table in real headless Chromium against the real service: a meld in a
few taps with the board in view and no scrolling, whose turn and who deals (on the page
and on the LEDs' suit-row markers), the player switching after each play, a new hand that
opens on Meld, going out on the card grid, every placement, bump, capture and the final
link during the game and after it, the printed record, and a rematch that passes the deal.
At 390 x 844 and 320 x 844."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.live_server import LiveServer
from tests.test_web import join, shot
from tests.conftest import wait_for
from tests.web_helpers import CODE, phone_page, steady_box

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from companion.hardware.layout import default_layout  # noqa: E402

pytestmark = pytest.mark.browser

WIDTHS = [390, 320]
HEIGHT = 844
# Ana (seat 0, side 1) and Ben (seat 1, side 2); Ben deals the first hand, so Ana starts.
ROWS = {"1": "SHDC", "2": "CDHS"}
# Records every vibration the page asks for (Chromium has navigator.vibrate; a desktop has no motor).
BUZZ = "navigator.vibrate = (p) => { (window.__buzz = window.__buzz || []).push(p); return true; };"


@pytest.fixture(params=WIDTHS, ids=[f"{w}px" for w in WIDTHS])
def phone(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:  # noqa: F811
    with phone_page(browser, request.param, HEIGHT) as pg:
        yield pg


def width(page: Page) -> int:
    return int(page.viewport_size["width"]) if page.viewport_size else 0


def game_in_play(server: LiveServer, players: list[str], actions: list[dict[str, Any]] = ()) -> tuple[str, str]:  # noqa: F811
    token = str(server.post("/api/v1/pair", {"code": CODE, "name": "set-up script"})["token"])
    gid = str(server.post("/api/v1/games", {"variant": "gingo", "players": players}, token)["id"])
    for action in [{"type": "setup", "dealer": 1, "suit_rows": ROWS}, *actions]:
        server.post(f"/api/v1/games/{gid}/actions", {"action": action}, token)
    return gid, token


def open_game(page: Page, server: LiveServer, gid: str) -> None:  # noqa: F811
    join(page, server)
    page.goto(f"{server.url}/#/game/{gid}")
    expect(page.locator("#gingo-pick .space")).to_have_count(52)
    page.evaluate("""() => { window.__taps = 0;
        document.addEventListener('click', e => { if (e.isTrusted) window.__taps++; }, true); }""")


def tap(page: Page, selector: str) -> None:
    """A thumb's tap on something that must already be on screen, above the bottom bar:
    no scrolling allowed."""
    box = steady_box(page, selector)
    bottom = page.evaluate("innerHeight - document.querySelector('.bottombar').getBoundingClientRect().height")
    assert box["y"] >= 0 and box["y"] + box["height"] <= bottom + 0.5, f"{selector} is off screen: {box}"
    page.locator(selector).first.tap()
    assert page.evaluate("scrollY") == 0, "the page scrolled"


def card(c: str) -> str:
    return f"#gingo-pick .space[data-card='{c}']"


def taps(page: Page) -> int:
    return int(page.evaluate("window.__taps"))


def marker(server: LiveServer, slot: str) -> tuple[int, int, int]:  # noqa: F811
    led = default_layout().slot_led(slot)
    r, g, b = server.get("/api/v1/leds")["pixels"][led]
    return r, g, b


def test_a_meld_in_four_taps_with_the_board_in_view(phone: Page, server: LiveServer) -> None:  # noqa: F811
    gid, _ = game_in_play(server, ["Ana", "Ben"])
    open_game(phone, server, gid)
    # whose turn and who deals, on the page and on the LEDs' suit-row markers (Ana's side)
    expect(phone.locator("#gingo-turn")).to_have_text("Ana to play")
    expect(phone.locator("#gingo-dealer")).to_have_text("Ben dealt")
    expect(phone.locator("#gingo-form .seg[aria-label='who plays'] button[data-value='0']")).to_have_attribute("aria-pressed", "true")
    assert wait_for(lambda: marker(server, "side1_1")[0] > marker(server, "side1_1")[1], timeout=10)
    # and who deals: the fourth marker of Ben's side glows white (full, not the dim idle marker)
    assert wait_for(lambda: len(set(marker(server, "side2_4"))) == 1 and marker(server, "side2_4")[0] > 48, timeout=10)
    assert len(set(marker(server, "side1_4"))) > 1   # Ana's side: its colour, not white
    # the board is labelled in each side's frame: Ana's A-K up the left, her suits along
    # the bottom; Ben's down the right and along the top
    left = phone.locator("#gingo-pick .board-row.side-1").all_inner_texts()
    right = phone.locator("#gingo-pick .board-row.side-2").all_inner_texts()
    assert left == ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A"]
    assert right == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert phone.locator("#gingo-pick .board-suit.side-1").all_inner_texts() == ["♠", "♥", "♦", "♣"]
    assert phone.locator("#gingo-pick .board-suit.side-2").all_inner_texts() == ["♠", "♥", "♦", "♣"]
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
    # Ana melds 5-6-7 of hearts: three cards on the board, then Meld
    for c in ("5H", "6H", "7H"):
        tap(phone, card(c))
    expect(phone.locator("#chosen-cards")).to_have_text("Chosen: 5♥ 6♥ 7♥")
    shot(phone, "gingo-play" if width(phone) == 390 else f"gingo-play-{width(phone)}")
    tap(phone, "#send-meld")
    expect(phone.locator("#melds li[data-meld]")).to_have_count(1)
    assert taps(phone) == 4
    # each chip goes on Ana's space for its card: pending on the compact board and the full one
    game = server.get(f"/api/v1/games/{gid}")
    spaces = sorted(game["frames"]["1"][c] for c in ("5H", "6H", "7H"))
    for sel in ("#gingo-pick", "#gingo-board"):
        pending = phone.locator(f"{sel} .space.pending")
        expect(pending).to_have_count(3)
        assert sorted(int(s) for s in pending.evaluate_all("els => els.map(e => e.dataset.space)")) == spaces
    # the player switched: Ben's turn, his frame on the board, and his side's markers lit
    expect(phone.locator("#gingo-turn")).to_have_text("Ben to play")
    expect(phone.locator("#gingo-form .seg[aria-label='who plays'] button[data-value='1']")).to_have_attribute("aria-pressed", "true")
    assert game["turn"] == 1
    assert wait_for(lambda: marker(server, "side2_1")[1] > marker(server, "side2_1")[0], timeout=10)
    assert phone.locator(f"#gingo-pick .space[data-space='{game['frames']['2']['AC']}']").get_attribute("data-card") == "AC"
    # Ben melds a set of 9s in his own frame: the chips land on his coordinates
    before = taps(phone)
    for c in ("9S", "9H", "9D"):
        tap(phone, card(c))
    tap(phone, "#send-meld")
    expect(phone.locator("#melds li[data-meld]")).to_have_count(2)
    assert taps(phone) - before == 4
    # Ana's turn; she melds, then Ben only draws and discards: one tap on Pass, and it is
    # Ana's turn again on the page, on the other phones and on the LEDs
    expect(phone.locator("#gingo-turn")).to_have_text("Ana to play")
    before = taps(phone)
    for c in ("JC", "QC", "KC"):
        tap(phone, card(c))
    tap(phone, "#send-meld")
    expect(phone.locator("#melds li[data-meld]")).to_have_count(3)
    assert taps(phone) - before == 4
    expect(phone.locator("#gingo-turn")).to_have_text("Ben to play")
    tap(phone, "#send-pass")
    expect(phone.locator("#gingo-turn")).to_have_text("Ana to play")
    expect(phone.locator("#gingo-form .seg[aria-label='who plays'] button[data-value='0']")).to_have_attribute("aria-pressed", "true")
    assert server.get(f"/api/v1/games/{gid}")["turn"] == 0
    assert wait_for(lambda: marker(server, "side1_1")[0] > marker(server, "side1_1")[1], timeout=10)
    expect(phone.locator("#plays li[data-type='pass']")).to_have_text("Ben drew and discarded: no meld")
    before = taps(phone)
    for c in ("2D", "3D", "4D"):
        tap(phone, card(c))
    tap(phone, "#send-meld")
    expect(phone.locator("#melds li[data-meld]")).to_have_count(4)
    assert taps(phone) - before == 4
    plays = phone.locator("#plays li[data-type='meld']")
    expect(plays).to_have_count(4)
    expect(plays.nth(1)).to_contain_text("Ben melded 9♠ 9♥ 9♦: 3 chips placed")
    assert phone.locator("#gingo-form .seg[aria-label='who plays'] button[data-value='1']").get_attribute("aria-pressed") == "true"


def test_undo_asks_first_and_can_be_redone(phone: Page, server: LiveServer) -> None:  # noqa: F811
    gid, _ = game_in_play(server, ["Ana", "Ben"], [{"type": "meld", "seat": 0, "cards": ["5H", "6H", "7H"]},
                                                  {"type": "meld", "seat": 1, "cards": ["9S", "9H", "9D"]}])
    open_game(phone, server, gid)
    expect(phone.locator("#gingo-turn")).to_have_text("Ana to play")
    phone.click("#undo-btn")
    expect(phone.locator("#undo-question")).to_have_text(
        "Undo the last play (Ben melded 9♠ 9♥ 9♦: 3 chips placed, bumped Ana's on 9♥)? You can redo it afterwards.")
    phone.click("#undo-no")                       # kept: nothing was sent
    expect(phone.locator("#undo-btn")).to_be_visible()
    assert len(server.get(f"/api/v1/games/{gid}")["state"]["melds"]) == 2
    phone.click("#undo-btn")
    phone.click("#undo-yes")
    expect(phone.locator("#melds li[data-meld]")).to_have_count(1)
    expect(phone.locator("#gingo-turn")).to_have_text("Ben to play")
    expect(phone.locator("#redo-btn")).to_have_text("Redo the last play (Ben melded 9♠ 9♥ 9♦: 3 chips placed, bumped Ana's on 9♥)")
    phone.click("#redo-btn")
    expect(phone.locator("#melds li[data-meld]")).to_have_count(2)
    expect(phone.locator("#gingo-turn")).to_have_text("Ana to play")
    expect(phone.locator("#redo-btn")).to_have_count(0)
    types = [e["type"] for e in server.get(f"/api/v1/games/{gid}/events")["events"]]
    assert types[-2:] == ["undo", "redo"]   # both are events: nothing is lost
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")


def test_a_hit_finds_its_meld_and_a_bump_is_logged(phone: Page, server: LiveServer) -> None:  # noqa: F811
    gid, token = game_in_play(server, ["Ana", "Ben"], [{"type": "meld", "seat": 0, "cards": ["5H", "6H", "7H"]}])
    frames = server.get(f"/api/v1/games/{gid}")["frames"]
    for c in ("5H", "6H", "7H"):  # Ana's chips are down
        server.post("/api/v1/board/sim", {"space": frames["1"][c], "side": 1}, token)
    open_game(phone, server, gid)
    expect(phone.locator("#gingo-turn")).to_have_text("Ben to play")
    # Ben lays the 8H off: the only meld it fits is chosen for him
    tap(phone, card("8H"))
    expect(phone.locator("#hit-meld")).to_have_value("1")
    tap(phone, "#send-hit")
    expect(phone.locator("#plays li[data-type='hit']")).to_have_count(1)
    assert taps(phone) == 2
    # Ben's 8H sits on Ana's 6H space (side 2 counts from the far end): a bump, logged
    game = server.get(f"/api/v1/games/{gid}")
    space = game["frames"]["2"]["8H"]
    assert game["frames"]["1"]["6H"] == space and game["board"][space] == "2"
    expect(phone.locator("#plays li[data-type='hit']")).to_contain_text("Ben hit meld #1 with 8♥: 1 chip placed, bumped Ana's on 8♥")
    # Ana's chip there is to be turned over to Ben's colour, on both boards
    for sel in ("#gingo-pick", "#gingo-board"):
        expect(phone.locator(f"{sel} .space[data-space='{space}']")).to_have_attribute("data-state", "bump")


def test_going_out_on_the_card_grid_the_winning_capture_and_a_rematch(phone: Page, server: LiveServer) -> None:  # noqa: F811
    spades = [["AS", "2S", "3S"], ["5S", "6S", "7S"], ["8S", "9S", "10S"], ["JS", "QS", "KS"]]
    actions: list[dict[str, Any]] = []
    for run in spades:
        actions.append({"type": "meld", "seat": 0, "cards": run})
    gid, token = game_in_play(server, ["Ana", "Ben"], actions)
    phone.add_init_script(BUZZ)   # records each vibration the page asks for
    open_game(phone, server, gid)
    # the players put their chips down (one is enough for the companion to see a board)
    game = server.get(f"/api/v1/games/{gid}")
    server.post("/api/v1/board/sim", {"space": game["frames"]["1"]["AS"], "side": 1}, token)
    # a first hand with no link: Ana goes out, Ben's 2H is captured; the chips stay
    tap(phone, "#gingo-form .seg[aria-label='who plays'] button[data-value='0']")
    tap(phone, "#gingo-form [aria-label='action'] button[data-value='go_out']")
    tap(phone, card("2H"))
    expect(phone.locator("#send-action")).to_have_text("Ana goes out")
    tap(phone, "#send-action")
    expect(phone.locator("#new-hand-btn")).to_be_visible()
    tap(phone, "#new-hand-btn")
    # the next hand opens on Meld, with the player left of the new dealer (Ana deals: Ben)
    expect(phone.locator("#gingo-status")).to_contain_text("Hand 2")
    expect(phone.locator("#send-meld")).to_be_visible()   # not in "go out" mode
    expect(phone.locator("#gingo-dealer")).to_have_text("Ana dealt")
    expect(phone.locator("#gingo-turn")).to_have_text("Ben to play")
    # Ana goes out capturing 4S (the gap in her spades) and 9D: the capture completes her link
    before = taps(phone)
    tap(phone, "#gingo-form .seg[aria-label='who plays'] button[data-value='0']")
    tap(phone, "#gingo-form [aria-label='action'] button[data-value='go_out']")
    for c in ("4S", "9D"):
        tap(phone, card(c))
    expect(phone.locator("#chosen-cards")).to_have_text("Captured: 4♠ 9♦")
    tap(phone, "#send-action")
    expect(phone.locator("#winner")).to_contain_text("Ana wins the game")
    expect(phone.locator("#winner")).to_contain_text("the capture completed the link")
    assert taps(phone) - before == 5
    game = server.get(f"/api/v1/games/{gid}")
    link = game["links"]["1"]
    assert game["finished"] and len(link) == 13 and game["frames"]["1"]["4S"] in link
    # the finished game's board shows the capture's chips to place and the whole link
    board = phone.locator("#gingo-board")
    expect(board.locator(".space.link")).to_have_count(13)
    assert sorted(int(s) for s in board.locator(".space.link").evaluate_all("els => els.map(e => e.dataset.space)")) == sorted(link)
    four = board.locator(f".space[data-space='{game['frames']['1']['4S']}']")
    expect(four).to_have_attribute("data-chip", "1")
    expect(board.locator(".side-line[data-side='1']")).to_contain_text("linked A row to K row")
    expect(phone.locator("#gin-banner")).to_contain_text("Ana")
    if width(phone) == 390:
        board.scroll_into_view_if_needed()
        shot(phone, "gingo-won")
        phone.evaluate("window.scrollTo(0, 0)")
    # the phone buzzed once for the link (where the phone allows it), not at every redraw
    assert wait_for(lambda: phone.evaluate("(window.__buzz || []).length") == 1, timeout=10)
    phone.reload()
    expect(phone.locator("#gin-banner")).to_contain_text("Ana")
    assert phone.evaluate("(window.__buzz || []).length") == 0   # a link already there on opening: no buzz
    # the live board keeps following the finished game
    assert wait_for(lambda: server.get("/api/v1/board")["game"] == gid, timeout=10)
    live = server.get("/api/v1/board")
    assert live["game"] == gid and live["finished"] is True and live["expected"] == game["board"]
    # every play is in the log, the capture and the link with it
    out = phone.locator("#plays li[data-type='go_out']").last
    expect(out).to_contain_text("Ana went out, capturing 4♠ 9♦ from Ben: 2 chips placed")
    expect(out).to_contain_text("Ana: linked A row to K row · Ana wins (the capture completed the link)")
    # the printed record: board, links and plays, no controls
    phone.emulate_media(media="print")
    expect(phone.locator("#gingo-board .space.link")).to_have_count(13)
    expect(phone.locator("#plays li[data-type='go_out']")).to_have_count(2)
    expect(phone.locator("#gingo-form")).to_be_hidden()
    phone.emulate_media(media="screen")
    # a rematch passes the deal on: Ana dealt the last hand, so Ben deals the first
    phone.click("#rematch-btn")
    expect(phone).not_to_have_url(re.compile(gid))
    expect(phone.locator("#dealer")).to_have_value("1")
    # and the board follows the new game
    assert wait_for(lambda: server.get("/api/v1/board")["game"] not in (gid, None), timeout=10)


def test_flip_for_the_deal_in_the_set_up(phone: Page, server: LiveServer) -> None:  # noqa: F811
    token = str(server.post("/api/v1/pair", {"code": CODE, "name": "set-up script"})["token"])
    gid = str(server.post("/api/v1/games", {"variant": "gingo", "players": ["Ana", "Ben"]}, token)["id"])
    join(phone, server)
    phone.goto(f"{server.url}/#/game/{gid}")
    phone.click("#flip-box summary")
    # round 1: a tie (suits never break it), so both flip again
    phone.fill("#flip-1-0", "7H")
    phone.click("#flip-btn")
    expect(phone.locator("#flip-error")).to_contain_text("Type the card Ben flipped")
    phone.fill("#flip-1-1", "7S")
    phone.click("#flip-btn")
    expect(phone.locator("#flip-error")).to_contain_text("Ana and Ben tie: flip again")
    phone.fill("#flip-2-0", "2C")
    phone.fill("#flip-2-1", "KD")
    phone.click("#flip-btn")
    expect(phone.locator("#flip-winner")).to_contain_text("Ben flipped highest")
    # Ben does not deal: the deal goes to the player on his right, Ana
    phone.click("#flip-pass")
    expect(phone.locator("#dealer")).to_have_value("0")
    expect(phone.locator("#flip-box")).not_to_have_attribute("open", "")
    # set the rows: Ana deals the first hand, Ben plays first
    phone.click("#gingo-form .seg[aria-label='set-up'] button[data-value='direct']")
    phone.click("#setup-btn")
    expect(phone.locator("#gingo-dealer")).to_have_text("Ana dealt")
    expect(phone.locator("#gingo-turn")).to_have_text("Ben to play")
    assert server.get(f"/api/v1/games/{gid}")["plays"][0]["dealer"] == 0
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")


def test_four_players_in_teams_meld_in_four_taps_too(phone: Page, server: LiveServer) -> None:  # noqa: F811
    gid, _ = game_in_play(server, ["Pam", "Quin", "Rae", "Sol"])
    open_game(phone, server, gid)
    # Quin dealt: Rae (side 1, Pam's partner) plays first, then Sol, Pam, Quin
    expect(phone.locator("#gingo-turn")).to_have_text("Rae to play")
    expect(phone.locator("#gingo-form .seg[aria-label='who plays'] button")).to_have_count(4)
    for c in ("AS", "2S", "3S"):
        tap(phone, card(c))
    tap(phone, "#send-meld")
    expect(phone.locator("#plays li[data-type='meld']")).to_contain_text("Rae melded A♠ 2♠ 3♠: 3 chips placed")
    assert taps(phone) == 4
    expect(phone.locator("#gingo-turn")).to_have_text("Sol to play")
    # Sol plays for side 2: the board now reads in side 2's frame
    game = server.get(f"/api/v1/games/{gid}")
    assert phone.locator(f"#gingo-pick .space[data-space='{game['frames']['2']['KD']}']").get_attribute("data-card") == "KD"
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
