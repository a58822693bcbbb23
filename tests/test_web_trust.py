"""Trust in the rummy score sheets, in real headless Chromium against the real service, at
320 and 390 px: a finished match corrected on the page, a second phone's hand reviewed
before anything is written, undo that asks and can be redone, the preview's breakdown,
one-tap gin, the dealer, Ginski's words and columns, the Color Gin legend, friendly
messages, the end of the match in the print view, and a gin hand from the grid in 22 taps.

The other phone ("Ben's phone") is a real paired token writing through the API. Set
``GINGO_SCREENSHOTS=1`` to also write the screenshots docs/phone.md shows.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import LiveServer
from tests.web_helpers import CHROMIUM, CODE, ROOT, TIMEOUT_MS, doc_shot, phone_page

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = pytest.mark.browser

SHOTS = ROOT / "docs" / "screenshots"
expect.set_options(timeout=TIMEOUT_MS)
HEIGHT = 844
# Records every vibration the page asks for (Chromium has navigator.vibrate; a desktop has no motor).
BUZZ = "navigator.vibrate = (p) => { (window.__buzz = window.__buzz || []).push(p); return true; };"
ANA = ["AS", "2S", "3S", "4S", "9D", "9H", "9C", "KH", "QH", "JH"]   # gin
BEN = ["5C", "6C", "8D", "8S", "2D", "2H", "3C", "4D", "10S", "JS"]  # 58 deadwood


def shot(page: Page, name: str, full: bool = False) -> None:
    if os.environ.get("GINGO_SCREENSHOTS"):
        doc_shot(page, SHOTS / f"{name}.png", full)


class Ben:
    """The other phone: a paired token of its own, writing through the API."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.token = server.pair("Ben's phone")

    def new(self, variant: str, players: list[str], preset: str | None = None, **options: Any) -> str:
        body: dict[str, Any] = {"variant": variant, "players": players, "preset": preset, "options": options}
        return str(self.server.post("/api/v1/games", body, self.token)["id"])

    def hand(self, gid: str, ender: int, deadwood: list[int], version: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"ender": ender, "deadwood": deadwood}
        if version is not None:
            body["expected_version"] = version
        out: dict[str, Any] = self.server.post(f"/api/v1/games/{gid}/hands", body, self.token)
        return out

    def game(self, gid: str) -> dict[str, Any]:
        out: dict[str, Any] = self.server.get(f"/api/v1/games/{gid}")
        return out


@pytest.fixture(scope="module")
def ben(server: LiveServer) -> Ben:
    return Ben(server)


@pytest.fixture(params=[320, 390], ids=lambda w: f"{w}px")
def phone(request: pytest.FixtureRequest, browser: Browser, server: LiveServer) -> Iterator[Page]:
    with phone_page(browser, int(request.param), HEIGHT, init=[BUZZ], accept_downloads=True) as pg:
        pg.goto(f"{server.url}/?code={CODE}")
        expect(pg.locator("#game-list")).to_be_attached()
        expect(pg.locator("#conn")).to_have_attribute("data-state", "online")
        yield pg


def width(page: Page) -> int:
    return page.viewport_size["width"] if page.viewport_size else 0


def open_game(page: Page, server: LiveServer, gid: str) -> None:
    page.goto(f"{server.url}/#/game/{gid}")
    expect(page.locator("#score-table")).to_be_visible()
    expect(page.locator("#conn")).to_have_attribute("data-state", "online")


def no_sideways_scroll(page: Page) -> None:
    sw, cw = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert sw <= cw, f"the page scrolls sideways ({sw} px in {cw} px)"


def deadwood_entry(page: Page, ender: int, deadwood: list[int]) -> None:
    page.click(f"#entry .seg[aria-label='who ended the hand'] button[data-value='{ender}']")
    page.click("#entry .seg[aria-label='entry mode'] button[data-value='deadwood']")
    for seat, d in enumerate(deadwood):
        page.fill(f"#deadwood-{seat}", str(d))


def test_a_finished_match_is_corrected_and_goes_on(phone: Page, server: LiveServer, ben: Ben) -> None:
    gid = ben.new("gin", ["Ana", "Ben"], "gin_004")
    ben.hand(gid, 0, [0, 50])
    ben.hand(gid, 0, [0, 45])   # 75 + 70: Ana has won
    open_game(phone, server, gid)
    expect(phone.locator("#winner")).to_have_text("Ana wins the match!")
    expect(phone.locator("#over-help")).to_contain_text("Tap Correct next to the hand")
    # The end of the match in words: every bonus and the final score.
    final = ben.game(gid)["final"]
    expect(phone.locator("#final-summary li[data-seat='0']")).to_contain_text("game bonus +100")
    expect(phone.locator("#final-summary li[data-seat='0']")).to_contain_text("boxes +50")
    expect(phone.locator("#final-summary li[data-seat='0'] .final-points")).to_have_text(str(final[0]))
    # Hand 2 was Ben's knock: corrected on the finished match, previewed, saved.
    phone.click("#history li[data-hand='2'] button")
    expect(phone.locator("#entry h2")).to_have_text("Correct hand 2")
    deadwood_entry(phone, 1, [12, 4])
    phone.click("#preview-btn")
    expect(phone.locator("#preview-match")).to_have_text(
        "After this correction the match is not over any more (Ana 75, Ben 8): play goes on.")
    expect(phone.locator("#preview-breakdown")).to_have_text("Ben scores 8: 8 deadwood difference (12 - 4)")
    shot(phone, f"correct-finished-{width(phone)}")
    assert len(ben.game(gid)["hands"]) == 2 and ben.game(gid)["finished"]  # the preview wrote nothing
    phone.click("#confirm-btn")
    expect(phone.locator("#winner")).to_be_hidden()
    expect(phone.locator("#entry h2")).to_have_text("Score hand 3")
    expect(phone.locator("#final-summary")).to_have_count(0)
    g = ben.game(gid)
    assert not g["finished"] and g["scores"] == [75, 8] and g["hands"][1]["corrected"]
    no_sideways_scroll(phone)


def test_a_hand_scored_meanwhile_by_another_phone_is_reviewed_first(phone: Page, server: LiveServer, ben: Ben) -> None:
    gid = ben.new("gin", ["Ana", "Ben"], "gin_004")
    open_game(phone, server, gid)
    expect(phone.locator("#dealer-line")).to_have_text("Ana deals this hand")
    # One tap: Ana went gin, her 0 filled in; the cursor waits in Ben's deadwood.
    phone.click("#entry .seg[aria-label='entry mode'] button[data-value='deadwood']")
    phone.click("#gin-tap-0")
    expect(phone.locator("#deadwood-0")).to_have_value("0")
    expect(phone.locator("#deadwood-1")).to_be_focused()
    phone.keyboard.type("20")
    # Meanwhile Ben's phone scores hand 1 (Ben knocks).
    ben.hand(gid, 1, [9, 3], version=1)
    expect(phone.locator("#stale-note")).to_contain_text("Ben's phone scored hand 1 meanwhile")
    expect(phone.locator("#entry h2")).to_have_text("Score hand 1")   # not silently "hand 2"
    expect(phone.locator("#dealer-line")).to_have_text("Ana deals this hand")  # hand 1's dealer still
    phone.click("#preview-btn")
    expect(phone.locator("#review-title")).to_have_text("Ben's phone scored hand 1 meanwhile: review")
    expect(phone.locator("#review-hands li[data-hand='1']")).to_have_text("Hand 1: Ben: knock · Ben +6 (by Ben's phone).")
    expect(phone.locator("#score-table tbody tr[data-hand='1']")).to_have_class(re.compile(r"\bchanged\b"))
    expect(phone.locator("#preview")).to_be_hidden()
    shot(phone, f"review-{width(phone)}")
    assert len(ben.game(gid)["hands"]) == 1  # nothing of Ana's entry was written
    phone.click("#rebase-mine")
    expect(phone.locator("#preview-breakdown")).to_have_text("Ana scores 45: 25 gin bonus + 20 Ben's deadwood")
    phone.click("#confirm-btn")
    expect(phone.locator("#history li[data-hand]")).to_have_count(2)
    assert phone.evaluate("window.__buzz") == [[120, 60, 120]]  # a gin buzzes where the phone can
    # The 409 path: a preview made, then Ben's phone writes, then Confirm: reviewed, not written.
    expect(phone.locator("#dealer-line")).to_have_text("Ana deals this hand")  # the winner deals (seed 004)
    deadwood_entry(phone, 1, [14, 2])
    phone.click("#preview-btn")
    expect(phone.locator("#confirm-btn")).to_be_visible()
    ben.hand(gid, 0, [3, 30])
    phone.click("#confirm-btn")
    expect(phone.locator("#review-title")).to_have_text("Ben's phone scored hand 3 meanwhile: review")
    assert len(ben.game(gid)["hands"]) == 3
    phone.click("#discard-mine")
    expect(phone.locator("#entry h2")).to_have_text("Score hand 4")
    expect(phone.locator("#review")).to_have_count(0)
    assert len(ben.game(gid)["hands"]) == 3
    no_sideways_scroll(phone)


def test_undo_asks_first_and_can_be_redone(phone: Page, server: LiveServer, ben: Ben) -> None:
    gid = ben.new("gin", ["Ana", "Ben"], "gin_004")
    ben.hand(gid, 0, [0, 30])
    ben.hand(gid, 1, [12, 4])
    open_game(phone, server, gid)
    phone.click("#undo-btn")
    expect(phone.locator("#undo-question")).to_have_text("Undo hand 2 (Ben: knock · Ben +8)? You can redo it afterwards.")
    shot(phone, f"undo-confirm-{width(phone)}")
    phone.click("#undo-no")                     # kept: nothing was sent
    expect(phone.locator("#undo-btn")).to_be_visible()
    assert len(ben.game(gid)["hands"]) == 2
    phone.click("#undo-btn")
    phone.click("#undo-yes")
    expect(phone.locator("#history li[data-hand]")).to_have_count(1)
    expect(phone.locator("#redo-btn")).to_have_text("Redo hand 2")
    phone.click("#redo-btn")
    expect(phone.locator("#history li[data-hand]")).to_have_count(2)
    expect(phone.locator("#redo-btn")).to_have_count(0)
    expect(phone.locator("#score-table tr.total td[data-total-seat='1']")).to_have_text("8")
    types = [e["type"] for e in server.get(f"/api/v1/games/{gid}/events")["events"]]
    assert types[-2:] == ["undo", "redo"]   # both are events: nothing is lost


def test_csv_and_print_view_end_with_every_bonus_and_the_final_score(phone: Page, server: LiveServer, ben: Ben) -> None:
    gid = ben.new("gin", ["Ana", "Ben"], "gin_004")
    ben.hand(gid, 1, [12, 4])
    ben.hand(gid, 0, [0, 40])
    g = ben.hand(gid, 0, [0, 40])["game"]
    open_game(phone, server, gid)
    with phone.expect_download() as dl:
        phone.click("#tools a[href$='export.csv']")
    rows = list(csv.reader(io.StringIO(Path(dl.value.path()).read_text())))
    labels = [r[0] for r in rows]
    assert labels[-6:] == ["total", "hands won", "game bonus", "boxes", "final", "winner"]
    assert rows[-2][4:] == [str(x) for x in g["final"]]
    phone.emulate_media(media="print")
    expect(phone.locator("#final-summary")).to_be_visible()
    expect(phone.locator("#tools")).to_be_hidden()
    expect(phone.locator("#entry")).to_be_hidden()
    last = phone.evaluate("""() => [...document.querySelectorAll('#view *')].filter(e => e.getClientRects().length
        && getComputedStyle(e).visibility !== 'hidden').map(e => e.closest('section') && e.closest('section').id).pop()""")
    assert last == "final-summary"   # the printed record ends with the final score
    expect(phone.locator("#final-summary")).to_contain_text(f"= {g['final'][0]}")
    shot(phone, f"print-final-{width(phone)}", full=True)
    phone.emulate_media(media="screen")


def test_ginski_words_columns_and_a_friendly_deadwood_message(phone: Page, server: LiveServer, ben: Ben) -> None:
    gid = ben.new("ginski", ["Kim", "Lou", "Max"])
    open_game(phone, server, gid)
    expect(phone.locator("#gin-tap-0")).to_have_text("Kim: Ginski")
    # Ginski's five colour columns are at least 44 px wide on the grid, at 320 px too.
    phone.click("#entry .seg[aria-label='entry mode'] button[data-value='cards']")
    cells = phone.locator(", ".join(f"#entry .seat-block[data-seat='0'] .cell[data-card='{c}1']" for c in "RBGYP"))
    expect(cells).to_have_count(5)
    for i in range(5):
        box = cells.nth(i).bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, box
    # A number no hand can hold is refused on the phone, in players' words.
    deadwood_entry(phone, 0, [0, 600, 12])
    phone.click("#preview-btn")
    err = phone.locator("#hand-error-1")
    expect(err).to_have_text("Lou's deadwood of 600 is more than any hand can hold: check the number.")
    assert "whole numbers from" not in phone.locator("#entry").inner_text()
    phone.fill("#deadwood-1", "17")
    phone.click("#preview-btn")
    expect(phone.locator("#preview-verdict")).to_have_text("Kim: Ginski. Kim scores.")
    expect(phone.locator("#preview-breakdown")).to_have_text("Kim scores 54: 25 Ginski bonus + 29 the others' deadwood")
    phone.click("#confirm-btn")
    expect(phone.locator("#history li[data-hand='1']")).to_contain_text("Kim: Ginski · Kim +54")
    expect(phone.locator("#score-table tbody tr[data-hand='1'] th")).to_contain_text("Ginski")
    assert not re.search(r"\bgin\b", phone.locator("#sheet").inner_text() + phone.locator("#history").inner_text())
    no_sideways_scroll(phone)


def test_the_color_gin_legend_says_the_real_target(phone: Page, server: LiveServer, ben: Ben) -> None:
    gid = ben.new("color_gin", ["Cy", "Di"], target=30)
    open_game(phone, server, gid)
    expect(phone.locator("#color-legend")).to_contain_text("★ suit taken (30 or more closes it)")


def test_house_rules_are_in_plain_words(phone: Page, server: LiveServer) -> None:
    phone.click("#nav a[data-nav='new']")
    for variant in ("gin", "color_gin", "ginski"):
        phone.click(f"#new-form .seg[aria-label='variant'] button[data-value='{variant}']")
        phone.click("#new-form details.options summary")
        text = phone.locator("#new-form details.options").inner_text()
        for code in ("'le'", "'lt'", "void_at_2", "void at 2", "flip_high_chooses", "flip high chooses",
                     "double_total", "undercut_on_tie", "onto ender melds", "Default: le."):
            assert code not in text, (variant, code)
        phone.click("#new-form details.options summary")


def test_a_gin_hand_from_the_grid_in_22_taps(phone: Page, server: LiveServer, ben: Ben) -> None:
    """Today's count (issue 14): 24 taps (who ended, 10 cards, "use the grid for Ben", 10
    cards, Preview, Confirm). Now: the gin tap opens Ana's grid, a full hand moves the grid
    on to Ben, the last card opens the preview: 1 + 10 + 10 + Confirm = 22."""
    gid = ben.new("gin", ["Ana", "Ben"], "gin_004")
    open_game(phone, server, gid)
    taps = 0

    def tap(selector: str) -> None:
        nonlocal taps
        phone.locator(selector).tap()
        taps += 1

    tap("#gin-tap-0")
    for c in ANA:
        tap(f"#entry .seat-block[data-seat='0'] .cell[data-card='{c}']")
    expect(phone.locator("#entry .seat-block[data-seat='1'] .card-grid")).to_be_visible()
    for c in BEN:
        tap(f"#entry .seat-block[data-seat='1'] .cell[data-card='{c}']")
    expect(phone.locator("#preview-verdict")).to_have_text("Ana: gin. Ana scores.")
    expect(phone.locator("#preview-breakdown")).to_have_text("Ana scores 83: 25 gin bonus + 58 Ben's deadwood")
    tap("#confirm-btn")
    expect(phone.locator("#history li[data-hand]")).to_have_count(1)
    assert taps == 22
    assert ben.game(gid)["hands"][0]["result"]["points"] == [83, 0]


def test_tied_arrangements_are_picked_on_the_preview(phone: Page, server: LiveServer, ben: Ben) -> None:
    """RULES.md 1: when two arrangements leave the same deadwood, the player picks the one
    laid down (here the run A-3 of diamonds lets Ben lay off 4D; the set of 2s does not)."""
    gid = ben.new("gin", ["Ana", "Ben"], "gin_004")
    open_game(phone, server, gid)
    phone.click("#entry .seg[aria-label='who ended the hand'] button[data-value='0']")
    phone.click("#entry .seg[aria-label='entry mode'] button[data-value='cards']")
    phone.fill("#hand-0", "AD 2D 3D 2H 2C AC 7S 8S 9S 10S")
    phone.fill("#hand-1", "KH KS KC QD QH JC JD 9H 4D 5S")
    phone.click("#preview-btn")
    expect(phone.locator("#ties-label")).to_have_text(
        "2 ways to meld Ana's hand leave the same deadwood (5): which did Ana lay down?")
    ties = phone.locator("#ties .tie")
    expect(ties).to_have_count(2)
    expect(phone.locator("#ties .tie[aria-pressed='true']")).to_have_count(1)
    before = phone.locator("#preview .seat-result[data-seat='0'] .pts").inner_text()
    run = phone.locator("#ties .tie", has_text="A♦ 2♦ 3♦")
    expect(run).to_have_attribute("aria-pressed", "false")   # the companion's own choice is the set
    shot(phone, f"tied-arrangements-{width(phone)}")
    run.click()
    expect(phone.locator("#ties .tie", has_text="A♦ 2♦ 3♦")).to_have_attribute("aria-pressed", "true")
    expect(phone.locator("#preview .seat-result[data-seat='1']")).to_contain_text("Laid off")
    expect(phone.locator("#declared")).to_have_value(re.compile(r"AD 2D 3D"))
    after = phone.locator("#preview .seat-result[data-seat='0'] .pts").inner_text()
    assert int(after.split()[0]) == int(before.split()[0]) - 4
    phone.click("#confirm-btn")
    expect(phone.locator("#history li[data-hand]")).to_have_count(1)
    hand = ben.game(gid)["hands"][0]
    assert sorted(map(sorted, hand["declared"])) == sorted([sorted(["AD", "2D", "3D"]), sorted(["7S", "8S", "9S", "10S"])])
