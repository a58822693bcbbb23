"""The seam, shown: Lowball (``tests/toy_game``, one package, one registry line) played
from the phone page in Debian's headless Chromium against the real service on 127.0.0.1.

The game is registered in the test process and the service is forked from it
(:class:`tests.live_server.LiveServer` with ``fork=True``), so the live server knows
Lowball while no file of the companion names it (tests/test_toy_variant.py checks that).
The page has to find everything it shows in ``GET /api/v1/variants`` and in the game's
own ``rules`` block: the label on the new-game screen, the player counts, the option with
its label and help, the hand entry the game takes (each player's deadwood count), the
sheet, the history and the game list.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.api.routes import service
from companion.games import VARIANTS
from tests.live_server import LiveServer
from tests.web_helpers import CHROMIUM, CODE, HOST_CODE, SAID, TIMEOUT_MS, phone_page

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from tests.conftest import brings  # noqa: E402
from tests.toy_game import Lowball  # noqa: E402

expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="module")
@brings("live")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The real service, forked from this process after the one registry line (so it
    knows Lowball); the registry and the variants answer are put back afterwards."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(VARIANTS, "lowball", Lowball())  # the one registry line
        service._variants.cache_clear()  # GET /api/v1/variants is worked out once per process
        srv = LiveServer(Path(tmp_path_factory.mktemp("toy-data")), fork=True, code=CODE, host_code=HOST_CODE,
                         env={"GINGO_PAIRING_WINDOW": "86400"})
        try:
            yield srv.start()
        finally:
            srv.stop()
    service._variants.cache_clear()


@pytest.fixture()
def page(toy_server: LiveServer, browser: Browser) -> Iterator[Page]:
    with phone_page(browser) as pg:
        join(pg, toy_server)
        yield pg


def join(pg: Page, server: LiveServer) -> None:
    pg.goto(f"{server.url}/?code={CODE}")
    expect(pg.locator("#game-list")).to_be_attached()
    expect(pg.locator("#conn")).to_have_attribute("data-state", "online")


def score(page: Page, counts: list[int], verdict: str) -> None:
    """Each player's count typed in, the preview read and confirmed (the history grows by
    one, or the corrected line changes)."""
    for seat, count in enumerate(counts):
        page.fill(f"#deadwood-{seat}", str(count))
    page.click("#preview-btn")
    expect(page.locator("#preview-verdict")).to_have_text(verdict)
    page.click("#confirm-btn")
    expect(page.locator("#preview")).to_be_hidden()


def totals(page: Page) -> list[str]:
    row = page.locator("#sheet tr", has_text="Total").first
    return [c.strip() for c in row.locator("td").all_inner_texts()]


def test_a_toy_game_is_listed_created_scored_and_shown_by_the_page(
        page: Page, toy_server: LiveServer, browser: Browser, tmp_path: Path) -> None:
    # the new-game screen lists it with its own label, its player counts and its option
    page.click("#nav a[data-nav='new']")
    toy = page.locator("#new-form .seg[aria-label='variant'] button[data-value='lowball']")
    expect(toy).to_have_text("Lowball")
    toy.click()
    expect(toy).to_have_attribute("aria-pressed", "true")
    counts = page.locator("#new-form .seg[aria-label='number of players'] button")
    expect(counts).to_have_text(["2", "3"])
    counts.filter(has_text="3").click()
    page.click("#new-form details.options summary")
    expect(page.locator("label[for='opt-target']")).to_have_text("Target score")
    expect(page.locator("#new-form details.options")).to_contain_text("points that win the match")
    expect(page.locator("#opt-target")).to_have_value("30")
    page.fill("#opt-target", "20")
    page.locator("#opt-target").dispatch_event("change")
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        page.fill(f"#player-{i}", name)
    page.click("#start-game")
    expect(page).to_have_url(re.compile(r"#/game/"))
    gid = page.url.rsplit("/", 1)[-1]
    game = toy_server.get(f"/api/v1/games/{gid}")
    game = game.get("game", game)
    assert game["variant"] == "lowball" and game["options"]["target"] == 20, game
    expect(page.locator("#view h1").first).to_have_text("Lowball")

    # the entry offers what the game takes (its rules' entries): each player's deadwood
    # count; no cards, no "who ended the hand", no one-tap gin
    entry = page.locator("#entry")
    expect(entry.locator("#deadwood-2")).to_be_visible()
    expect(entry.locator("label[for='deadwood-0']")).to_have_text("Ann: deadwood points")
    for absent in (".seg[aria-label='who ended the hand']", ".gin-taps", ".seg[aria-label='entry mode']", ".hand-text"):
        expect(entry.locator(absent)).to_have_count(0)
    history = page.locator("#history li[data-hand]")

    # a second phone watches the same sheet: the hands reach it over the live channel
    with phone_page(browser, name="the watching phone", init=[SAID]) as other:
        join(other, toy_server)
        other.goto(f"{toy_server.url}/#/game/{gid}")
        expect(other.locator("#view h1").first).to_have_text("Lowball")
        expect(other.locator("#history")).to_contain_text("No hands yet.")
        other.wait_for_function("() => window.gingo.variants")  # loaded when the live channel connects

        score(page, [3, 9, 5], "Lowest count. Ann scores.")
        expect(history).to_have_count(1)
        expect(history.first).to_contain_text("Hand 1 lowest count · Ann +8")
        expect(page.locator("#sheet")).to_contain_text("lowest count")
        assert totals(page) == ["8", "0", "0"]
        expect(other.locator("#history li[data-hand='1']")).to_contain_text("lowest count · Ann +8")
        # and its live region says the hand in the game's words (its kind_words), not "lowest"
        said = "Hand 1 entered on another phone: lowest count; Ann scores 8"
        other.wait_for_function("t => window.__said.some(s => s === t)", arg=said)

        # a correction, as the history offers it: the counts come back into the form
        page.click("#history li[data-hand='1'] button")
        expect(page.locator("#entry h2")).to_have_text("Correct hand 1")
        expect(page.locator("#deadwood-0")).to_have_value("3")
        score(page, [4, 2, 6], "Lowest count. Bob scores.")
        expect(history.first).to_contain_text("lowest count · Bob +6")
        expect(history.first).to_contain_text("(corrected)")
        expect(other.locator("#history li[data-hand='1']")).to_contain_text("lowest count · Bob +6")

        # the hand that ends the match (Bob reaches 20): the winner is said on both phones
        score(page, [30, 1, 20], "Lowest count. Bob scores.")
        expect(history).to_have_count(2)
        expect(page.locator("#winner")).to_have_text("Bob wins the match!")
        expect(other.locator("#winner")).to_have_text("Bob wins the match!")
        assert totals(page) == ["0", "54", "0"]
        expect(page.locator("#entry h2")).to_have_text("The match is over")

    # the exported game comes back in through the page's import
    with page.expect_download() as dl:
        page.click("#tools a[href$='export.json']")
    saved = tmp_path / "lowball.json"
    dl.value.save_as(saved)

    # the game list and the history show it by its label, with its players and score
    page.click("#nav a[data-nav='games']")
    item = page.locator(f"#game-list li[data-game='{gid}']")
    expect(item.locator(".game-title strong")).to_have_text("Lowball")
    expect(item.locator(".game-score")).to_have_text("Ann 0 · Bob 54 · Cy 0")
    expect(item).to_contain_text("won by Bob")
    page.set_input_files("#import-file", str(saved))
    expect(page).to_have_url(re.compile(r"#/game/"))
    expect(page).not_to_have_url(re.compile(f"/{gid}$"))
    expect(page.locator("#view h1").first).to_have_text("Lowball")
    expect(history).to_have_count(2)
    expect(page.locator("#winner")).to_have_text("Bob wins the match!")

    page.goto(f"{toy_server.url}/#/history")
    expect(page.locator(f"li[data-game='{gid}'] .game-title strong")).to_have_text("Lowball")

    # the player's numbers for the game, without words it does not have (gins, undercuts)
    page.goto(f"{toy_server.url}/#/stats/Bob")
    block = page.locator(".variant-stats[data-variant='lowball']")
    expect(block.locator("h2")).to_have_text("Lowball")
    expect(block.locator("[data-stat='wins'] .stat-value")).to_have_text("1")  # the imported copy counts once
    expect(block.locator("[data-stat='gins']")).to_have_count(0)
    expect(block.locator("[data-stat='undercuts']")).to_have_count(0)

    # the Play screen offers only the games the companion can deal: not this one
    page.goto(f"{toy_server.url}/#/play/new")
    games = page.locator("#play-form .seg[aria-label='game'] button")
    expect(games.first).to_be_visible()
    assert "lowball" not in games.evaluate_all("bs => bs.map(b => b.dataset.value)")
