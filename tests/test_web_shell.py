"""The phone page's shell in real headless Chromium against the real service: watching
without joining, every screen at every phone width, the header, the games list, history
and statistics, the offline page and keeping the screen on.

Games are set up through the API (the score sheets' own entry is tested in test_web.py);
each screen is then visited as a player would, at 320 and 390 px and, for the width
check, at 320, 360, 390 and 430 px. Set ``GINGO_SCREENSHOTS=1`` to also write the
screenshots docs/phone.md shows.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import LiveServer
from tests.conftest import wait_for
from tests.web_helpers import CHROMIUM, CODE, HOST_CODE, ROOT, TIMEOUT_MS, Server, doc_shot, phone_page

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = pytest.mark.browser

SHOTS = ROOT / "docs" / "screenshots"
expect.set_options(timeout=TIMEOUT_MS)
WIDTHS = (320, 360, 390, 430)
HEIGHT = 740

# Color Gin hands from the seeds' worked example: two of them close two suits (a star each),
# the widest score sheet there is.
CY = ["3H", "4H", "5H", "6H", "8S", "8D", "8C", "JD", "QD", "KD"]
DI = ["AS", "2S", "9S", "4C", "5C", "9C", "JH", "10H", "7D", "2D"]


def shot(page: Page, name: str, full: bool = False) -> None:
    if os.environ.get("GINGO_SCREENSHOTS"):
        doc_shot(page, SHOTS / f"{name}.png", full)


class Table:
    """The games the tests look at, made through the API with a token of their own."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.token = server.pair("set-up script")
        self.ids: dict[str, str] = {}

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self.server.post(path, body, self.token)

    def game(self, key: str, variant: str, players: list[str], **extra: Any) -> str:
        g = self.post("/api/v1/games", {"variant": variant, "players": players, **extra})
        self.ids[key] = str(g["id"])
        return self.ids[key]

    def deadwood(self, gid: str, ender: int | None, deadwood: list[int]) -> None:
        self.post(f"/api/v1/games/{gid}/hands", {"ender": ender, "deadwood": deadwood})

    def cards(self, gid: str, ender: int, hands: list[list[str]]) -> None:
        self.post(f"/api/v1/games/{gid}/hands", {"ender": ender, "hands": hands})


@pytest.fixture(scope="module")
def table(server: LiveServer) -> Table:
    t = Table(server)
    gin = t.game("gin", "gin", ["Ana", "Ben"], preset="gin_004")
    t.deadwood(gin, 0, [3, 30])        # Ana knocks: 27
    t.deadwood(gin, 1, [25, 0])        # Ben gin: 50
    t.deadwood(gin, 0, [0, 80])        # Ana gin: 105, the match is over
    cg = t.game("color", "color_gin", ["Cy", "Di"])
    t.cards(cg, 0, [CY, DI])
    t.cards(cg, 0, [CY, DI])           # two suits close: the sheet carries stars
    sk = t.game("ginski", "ginski", ["Kim", "Lou", "Max"])
    t.deadwood(sk, 0, [8, 15, 20])
    sk4 = t.game("ginski4", "ginski", ["Kim", "Lou", "Max", "Ned"], preset="ginski_4p")
    t.deadwood(sk4, 1, [30, 2, 40, 25])
    gg = t.game("gingo", "gingo", ["Eve", "Fox"])
    t.post(f"/api/v1/games/{gg}/actions", {"action": {"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}}})
    t.post(f"/api/v1/games/{gg}/actions", {"action": {"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S"]}})
    t.game("gingo4", "gingo", ["Pam", "Quin", "Rae", "Sol"])
    return t


@pytest.fixture(params=[320, 390], ids=lambda w: f"{w}px")
def phone(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    with phone_page(browser, int(request.param), HEIGHT) as pg:
        yield pg


def join(page: Page, server: LiveServer) -> None:
    page.goto(f"{server.url}/?code={CODE}")
    expect(page.locator("#game-list")).to_be_attached()
    expect(page.locator("#conn")).to_have_attribute("data-state", "online")


def width_of(page: Page) -> int:
    return page.viewport_size["width"] if page.viewport_size else 0


def no_sideways_scroll(page: Page, where: str) -> None:
    sw, cw = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert sw <= cw, f"{where}: the page scrolls sideways ({sw} px of content in {cw} px)"


# Things a finger presses: each at least 44 x 44 px where it shows (links inside a sentence
# are exempt, as WCAG 2.5.8 says).
TARGETS = ("button, a.btn, .bottombar a, .brand, .game-link, select, summary, label.toggle, "
           "input:not([type=checkbox]):not([type=radio]):not([type=file])")
SMALL_TARGETS = """(sel) => [...document.querySelectorAll(sel)].filter(e => {
  const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
  if (!r.width || !r.height || s.visibility === 'hidden' || e.closest('[hidden]')) return false;
  return r.height < 44 || r.width < 44;
}).map(e => `${e.tagName.toLowerCase()}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().width)}x${Math.round(e.getBoundingClientRect().height)} "${(e.textContent || '').trim().slice(0, 20)}"`)"""


def small_targets(page: Page) -> list[str]:
    return list(page.evaluate(SMALL_TARGETS, TARGETS))


# ---- watching without joining -------------------------------------------------------------------

def test_a_phone_that_has_not_joined_watches_read_only(phone: Page, server: LiveServer, table: Table) -> None:
    page = phone
    page.goto(server.url + "/")
    # The games, told apart: game, rule set, players, score, date and how it stands.
    item = page.locator(f"#game-list li[data-game='{table.ids['gin']}']")
    expect(item).to_contain_text("Gin Rummy")
    expect(item).to_contain_text("Full rules with boxes (seed 004)")
    expect(item).to_contain_text("Ana · Ben")
    expect(item).to_contain_text("won by Ana")
    final = server.get(f"/api/v1/games/{table.ids['gin']}")["final"]   # with the game bonus and boxes
    expect(item.locator(".game-score")).to_have_text(f"Ana {final[0]} · Ben {final[1]}")
    expect(item.locator("time")).to_have_attribute("datetime", re.compile(r"^\d{4}-\d\d-\d\dT"))
    gg = page.locator(f"#game-list li[data-game='{table.ids['gingo4']}']")
    expect(gg).to_contain_text("Pam & Rae 0 · Quin & Sol 0")
    # A Join button for scoring, and nothing that writes.
    expect(page.locator("#watch-bar")).to_be_visible()
    expect(page.locator("#new-game")).to_have_count(0)
    if width_of(page) == 320:
        shot(page, "watching")
    # A score sheet, read-only: the sheet and history, no entry, undo or correction.
    item.locator("a").click()
    expect(page.locator("#score-table")).to_be_visible()
    expect(page.locator("#history li[data-hand]")).to_have_count(3)
    for hidden in ("#entry", "#undo-btn", "#history li[data-hand] button"):
        for i in range(page.locator(hidden).count()):
            expect(page.locator(hidden).nth(i)).to_be_hidden()
    expect(page.locator("#tools a[href$='export.csv']")).to_be_visible()  # reads stay open
    # The live board: shown, but a tap changes nothing and says nothing about pairing.
    page.goto(f"{server.url}/#/game/{table.ids['gingo']}")
    expect(page.locator("#gingo-board .space[data-space='0']")).to_be_visible()
    expect(page.locator("#gingo-form")).to_be_hidden()
    before = server.get("/api/v1/board")
    page.locator("#gingo-board .space[data-space='20']").click()
    page.click("#nav a[data-nav='board']")
    space = page.locator("#board-box .space[data-space='5']")
    expect(space).to_be_visible()
    assert page.locator("#board-box button.space").count() == 0   # spaces are not buttons here
    space.click()
    expect(page.locator("#toast")).to_have_count(0)
    assert "not paired" not in page.locator("body").inner_text()
    assert server.get("/api/v1/board") == before
    # A write the page would send is refused on the phone, before anything goes out.
    msg = page.evaluate("window.gingo.write('POST', '/api/v1/board/sim', {space: 5, side: 1}).then(() => 'sent', e => e.message)")
    assert "watching" in msg and "not paired" not in msg
    # Join from the bar: the same page then scores.
    page.click("#watch-join")
    page.fill("#join-code", CODE)
    page.click("#join-btn")
    expect(page.locator("#new-game")).to_be_visible()
    expect(page.locator("#watch-bar")).to_be_hidden()
    page.goto(f"{server.url}/#/game/{table.ids['ginski']}")
    expect(page.locator("#entry")).to_be_visible()


def test_new_game_asks_a_watcher_to_join_first(phone: Page, server: LiveServer, table: Table) -> None:
    phone.goto(server.url + "/#/new")
    expect(phone.locator("#join-why")).to_contain_text("Join the table to start a game")
    expect(phone.locator("#join-code")).to_be_visible()
    phone.click("#just-watch")
    expect(phone.locator("#game-list")).to_be_attached()


# ---- players, history and statistics ------------------------------------------------------------

def test_players_are_picked_from_earlier_games_not_retyped(phone: Page, server: LiveServer, table: Table) -> None:
    page = phone
    join(page, server)
    page.click("#nav a[data-nav='new']")
    page.click("#new-form .seg[aria-label='variant'] button[data-value='gin']")
    picks = page.locator("#player-picks .player-pick")
    expect(picks.filter(has_text="Ana")).to_have_count(1)
    expect(picks.filter(has_text="Kim")).to_have_count(1)
    if width_of(page) == 390:
        shot(page, "pick-players")
    page.click("#player-picks .player-pick[data-name='Kim']")
    expect(page.locator("#player-0")).to_have_value("Kim")
    expect(page.locator("#player-picks .player-pick[data-name='Kim']")).to_have_count(0)   # seated: not offered again
    page.click("#player-picks .player-pick[data-name='Ana']")
    expect(page.locator("#player-1")).to_have_value("Ana")
    # A name can still be typed (a new player), and the typed one is taken off the picks.
    page.fill("#player-1", "Zoe")
    expect(page.locator("#player-picks .player-pick[data-name='Ana']")).to_have_count(1)
    page.click("#start-game")
    expect(page).to_have_url(re.compile(r"#/game/"))
    gid = page.url.rsplit("/", 1)[-1]
    assert server.get(f"/api/v1/games/{gid}")["players"] == ["Kim", "Zoe"]
    page.goto(f"{server.url}/#/new")
    expect(page.locator("#player-picks .player-pick")).not_to_have_count(0)
    first_two = page.locator("#player-picks .player-pick").evaluate_all("els => els.slice(0, 2).map(e => e.dataset.name)")
    assert sorted(first_two) == ["Kim", "Zoe"]                                        # most recent first


def test_history_and_statistics_screens(phone: Page, server: LiveServer, table: Table) -> None:
    page = phone
    width = width_of(page)
    page.goto(f"{server.url}/#/games")      # watching is enough to read them
    page.click("#history-link")
    item = page.locator(f"#history-list li[data-game='{table.ids['gin']}']")
    expect(item).to_contain_text("Gin Rummy")
    expect(item).to_contain_text("Full rules with boxes (seed 004)")
    expect(item).to_contain_text("won by Ana")
    expect(item.locator("time")).not_to_be_empty()
    finished = server.get("/api/v1/history")
    expect(page.locator("#history-list li[data-game]")).to_have_count(len(finished["games"]))
    expect(page.locator("#history-count")).to_have_text(f"{finished['total']} finished game" + ("s" if finished["total"] != 1 else ""))
    for g in server.get("/api/v1/games")["games"]:
        if not g["finished"]:
            expect(page.locator(f"#history-list li[data-game='{g['id']}']")).to_have_count(0)
    if width == 390:
        shot(page, "history")
    page.click("#to-stats")
    expect(page.locator("#player-list li[data-player='Ana']")).to_contain_text("1 win in 1 finished game")
    page.click("#player-list li[data-player='Ana'] a")
    api = server.get("/api/v1/stats?player=Ana")["players"][0]
    gin = next(v for v in api["variants"] if v["variant"] == "gin")
    block = page.locator(".variant-stats[data-variant='gin']")
    for key in ("games", "wins", "best_streak", "hands", "gins", "average_hand", "undercuts"):
        shown = f"{gin[key]:g}" if isinstance(gin[key], float) else str(gin[key])   # 44.0 shows as 44
        expect(block.locator(f".stat[data-stat='{key}'] .stat-value")).to_have_text(shown)
    expect(block.locator(".h2h li[data-opponent='Ben']")).to_contain_text(
        f"{gin['head_to_head'][0]['wins']}–{gin['head_to_head'][0]['losses']}")
    if width == 390:
        shot(page, "stats")
    page.click("#to-history")
    expect(page).to_have_url(re.compile(r"#/history/Ana$"))
    expect(page.locator(f"#history-list li[data-game='{table.ids['gin']}']")).to_be_visible()
    expect(page.locator(f"#history-list li[data-game='{table.ids['color']}']")).to_have_count(0)


# ---- the header ---------------------------------------------------------------------------------

def test_the_header_never_wraps(phone: Page, server: LiveServer, table: Table) -> None:
    page = phone
    join(page, server)
    one_line = "document.querySelector('.topbar').getBoundingClientRect().height"
    height = page.evaluate(one_line)
    assert height < 70
    # The longest it gets: reconnecting, with an entry waiting to be sent (as the page
    # shows them; test_web.py's lost-connection test gets there for real).
    page.evaluate("""() => { const c = document.getElementById('conn'), o = document.getElementById('outbox');
      c.dataset.state = 'reconnecting'; c.querySelector('.conn-text').textContent = 'reconnecting';
      o.hidden = false; o.textContent = '1 waiting'; }""")
    assert page.evaluate(one_line) == height
    brand = page.locator(".brand")
    assert brand.evaluate("e => e.scrollWidth <= e.clientWidth")       # "Gin-Go" whole, on one line
    box = brand.bounding_box()
    assert box is not None and box["height"] >= 44
    for sel in (".brand", "#conn", "#outbox", "#theme"):
        b = page.locator(sel).bounding_box()
        assert b is not None and b["y"] < height and b["x"] + b["width"] <= page.evaluate("innerWidth"), sel
    no_sideways_scroll(page, "header")


# ---- every screen at every width ----------------------------------------------------------------

def screens(table: Table) -> list[tuple[str, str, str]]:
    """(name, hash, a selector that shows when the screen is ready)."""
    out = [("games", "#/games", "#game-list li[data-game]"), ("new game", "#/new", "#new-form"),
           ("board", "#/board", "#board-box .space"), ("host", "#/host", "#host-body h2"),
           ("join", "#/join", "#join-code"), ("history", "#/history", "#history-list li[data-game]"),
           ("players", "#/stats", "#player-list li"), ("a player", "#/stats/Kim", ".variant-stats")]
    for key, ready in (("gin", "#score-table"), ("color", "#score-table"), ("ginski", "#score-table"),
                       ("ginski4", "#score-table"), ("gingo", "#gingo-board .space"), ("gingo4", "#gingo-board .space")):
        out.append((key, f"#/game/{table.ids[key]}", ready))
    return out


@pytest.mark.parametrize("width", WIDTHS, ids=lambda w: f"{w}px")
def test_no_screen_scrolls_sideways_and_targets_are_big_enough(browser: Browser, server: LiveServer, table: Table,
                                                               width: int) -> None:
    with phone_page(browser, width, HEIGHT) as page:
        join(page, server)
        page.evaluate(f"sessionStorage.setItem('gingo.host', {HOST_CODE!r})")
        problems: list[str] = []
        for name, where, ready in screens(table):
            page.goto(f"{server.url}/{where}")
            expect(page.locator(ready).first).to_be_visible()
            if name == "new game":
                for variant in ("gin", "color_gin", "ginski", "gingo"):
                    page.click(f"#new-form .seg[aria-label='variant'] button[data-value='{variant}']")
                    if page.locator("#new-form details.options").count():
                        page.click("#new-form details.options summary")
                    sw, cw = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
                    if sw > cw:
                        problems.append(f"new game ({variant}): {sw} > {cw}")
                    problems += [f"new game ({variant}): {t}" for t in small_targets(page)]
                continue
            sw, cw = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            if sw > cw:
                problems.append(f"{name}: the page is {sw} px wide in {cw} px")
            problems += [f"{name}: {t}" for t in small_targets(page)]
            # A sheet wider than the phone scrolls in its own box, labelled as such.
            for i in range(page.locator(".sheet-wrap").count()):
                wrap = page.locator(".sheet-wrap").nth(i)
                if wrap.evaluate("e => e.scrollWidth > e.clientWidth"):
                    label = wrap.get_attribute("aria-label") or ""
                    if "sideways" not in label or not page.locator(".scroll-hint").first.is_visible():
                        problems.append(f"{name}: a sheet scrolls sideways without saying so")
        assert not problems, "\n".join(problems)


# ---- the offline page and keeping the screen on --------------------------------------------------

@pytest.mark.live
def test_a_reload_while_the_companion_is_down_opens_the_page_and_says_so(phone: Page, tmp_path: Path) -> None:
    from tests.web_helpers import free_port

    page = phone
    srv = Server(tmp_path / "data", port=free_port()).start()
    try:
        join(page, srv)
        tok = srv.pair("set-up")
        gid = srv.post("/api/v1/games", {"variant": "gin", "players": ["Ivy", "Jon"]}, tok)["id"]
        # the browser keeps the page shell (a service worker: 127.0.0.1 is a secure page)
        assert wait_for(lambda: page.evaluate("navigator.serviceWorker.controller !== null"), TIMEOUT_MS / 1000, every=0.1)
        kept = page.evaluate("caches.open('gingo-shell-v1').then(c => c.keys()).then(ks => ks.map(r => new URL(r.url).pathname))")
        for path in ("/", "/app.js", "/style.css", "/js/api.js", "/js/rummy.js", "/js/games.js", "/js/people.js"):
            assert path in kept, (path, kept)
        assert not [p for p in kept if p.startswith("/api/")]     # scores are never kept
        page.goto(f"{srv.url}/#/game/{gid}")
        expect(page.locator("#score-table")).to_be_visible()
        srv.stop()
        page.reload()
        offline = page.locator("#offline")
        expect(offline).to_be_visible()
        expect(offline).to_contain_text("The companion is not answering")
        expect(page.locator("#conn")).not_to_have_attribute("data-state", "online")
        no_sideways_scroll(page, "offline page")
        if width_of(page) == 390:
            shot(page, "offline-page")
        srv.start()                                    # same port, same data: back by itself
        expect(page.locator("#score-table")).to_be_visible(timeout=40000)
        expect(offline).to_have_count(0)
        expect(page.locator("#score-table thead")).to_contain_text("Ivy")
    finally:
        srv.stop()


def test_the_screen_stays_on_during_a_game(phone: Page, server: LiveServer, table: Table) -> None:
    page = phone
    join(page, server)
    assert page.evaluate("'wakeLock' in navigator && isSecureContext")   # 127.0.0.1 is a secure page
    # headless Chromium grants the lock to a visible page
    page.goto(f"{server.url}/#/game/{table.ids['ginski']}")          # a game in play
    expect(page.locator("#score-table")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-awake", "on")
    page.goto(f"{server.url}/#/games")
    expect(page.locator("body")).to_have_attribute("data-awake", "off")
    page.goto(f"{server.url}/#/game/{table.ids['gin']}")             # a finished match: no need
    expect(page.locator("#score-table")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-awake", "off")
    # a game that ends while it is on screen lets the screen sleep again
    gid = table.game("to-end", "gin", ["Sue", "Tim"])
    page.goto(f"{server.url}/#/game/{gid}")
    expect(page.locator("body")).to_have_attribute("data-awake", "on")
    table.deadwood(gid, 0, [0, 98])                                   # gin: 123, the match is over
    expect(page.locator("body")).to_have_attribute("data-awake", "off")
