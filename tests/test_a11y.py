"""axe-core on every screen of the phone page, in both colour schemes, at 320 and 390 px.

The checker is the current axe-core from the npm registry (tests/axe, pinned by its
package-lock.json and installed by ``make axe-core``, as the Pico harness is), run in
Debian's Chromium against the real service on 127.0.0.1. Every rule tagged
wcag2a, wcag2aa, wcag21a, wcag21aa or best-practice runs, the rules axe-core still calls
experimental among them (``label-content-name-mismatch`` is one). A screen passes with 0
violations; a failure prints each violation with its elements and what axe says to fix.

The games behind the screens are set up through the HTTP API once per module (hands of
Gin Rummy, Color Gin and Ginski; Gin-Go games in set-up, with chips placed, pending, to
bump and unexpected on the simulated board, with a link, won, and for four players);
each screen then opens in a fresh browser context, so one screen's drafts never leak
into the next. A helper that adds a screen to the page adds it to ``SCREENS``.
"""

from __future__ import annotations

import json
import re
import time
import uuid
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests import play_drive as D
from tests.live_server import LiveServer
from tests.web_helpers import CHROMIUM, CODE, HOST_CODE, SAID, TIMEOUT_MS, phone_page

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from companion import cards as C  # noqa: E402
from companion.games.gingo import rules as gingo  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.serve(env={"GINGO_BOT_DELAY": "0"})]

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
SCHEMES = ["light", "dark"]
WIDTHS = [320, 390]
HEIGHT = 844
expect.set_options(timeout=TIMEOUT_MS)
# axe-core as the lock file pins it (tests/axe/package-lock.json), installed by `make axe-core`
AXE_DIR = Path(__file__).resolve().parent / "axe"
AXE_VERSION = json.loads((AXE_DIR / "package-lock.json").read_text())["packages"]["node_modules/axe-core"]["version"]
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
if not AXE_JS.exists():
    pytest.skip(f"{AXE_JS} is missing: run `make axe-core` (npm ci in tests/axe)", allow_module_level=True)
AXE_SCRIPT = AXE_JS.read_text(encoding="utf-8")


# ---- the games behind the screens ------------------------------------------------------------

@dataclass
class Table:
    """The ids of the games set up for the screens, and a token to act with."""

    token: str
    games: dict[str, str] = field(default_factory=dict)
    joker: list[str] = field(default_factory=list)  # the cards of a meld with a joker to choose


def paired_init(t: Table, paired: bool = True) -> list[str]:
    """The script that pairs a page with the table's token before the page runs."""
    return [f"localStorage.setItem('gingo.token', {t.token!r})"] if paired else []


def _id(res: Any) -> str:
    return str((res.get("game") or res)["id"])


def _spaces_of(side: int, cards: list[str]) -> list[int]:
    probe = gingo.new_game(["a", "b"], {})
    probe.apply({"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}})
    return [probe.space(side, C.parse_card(c)) for c in cards]


def build_table(srv: LiveServer) -> Table:
    t = Table(srv.pair("a11y set-up"))
    post = lambda path, body: srv.post(path, body, t.token)  # noqa: E731
    rows = {"1": "SHDC", "2": "SHDC"}

    gid = _id(post("/api/v1/games", {"variant": "gin", "players": ["Ana", "Ben"]}))
    post(f"/api/v1/games/{gid}/hands", {"ender": 0, "deadwood": [0, 30]})
    post(f"/api/v1/games/{gid}/hands", {"ender": 1, "deadwood": [20, 5]})
    t.games["gin"] = gid
    gid = _id(post("/api/v1/games", {"variant": "gin", "players": ["Cal", "Dot"]}))
    post(f"/api/v1/games/{gid}/hands", {"ender": 0, "deadwood": [0, 90]})
    t.games["gin-over"] = gid
    gid = _id(post("/api/v1/games", {"variant": "color_gin", "players": ["Cy", "Di"]}))
    cy = ["3H", "4H", "5H", "6H", "8S", "8D", "8C", "JD", "QD", "KD"]
    di = ["AS", "2S", "9S", "4C", "5C", "9C", "JH", "10H", "7D", "2D"]
    post(f"/api/v1/games/{gid}/hands", {"ender": 0, "hands": [cy, di]})
    t.games["color_gin"] = gid
    gid = _id(post("/api/v1/games", {"variant": "ginski", "players": ["Kim", "Lou", "Max"]}))
    post(f"/api/v1/games/{gid}/hands", {"ender": 0, "deadwood": [0, 30, 12]})
    t.games["ginski"] = gid

    dealt_games(srv, t)

    # Gin-Go: the board follows the latest-touched unfinished game, so the one with
    # chips on the simulated board comes last.
    t.games["gingo-setup"] = _id(post("/api/v1/games", {"variant": "gingo", "players": ["Gus", "Hal"]}))
    column = _spaces_of(1, [r + "S" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")])
    linked = "".join("1" if i in column else "." for i in range(52))
    gid = _id(post("/api/v1/games", {"variant": "gingo", "players": ["Ida", "Jon"]}))
    post(f"/api/v1/games/{gid}/actions", {"action": {"type": "setup", "suit_rows": rows, "board": linked}})
    post(f"/api/v1/games/{gid}/actions", {"action": {"type": "go_out", "seat": 0, "captured": {"1": ["2H", "9D"]}, "jokers": {}}})
    t.games["gingo-won"] = gid
    gid = _id(post("/api/v1/games", {"variant": "gingo", "players": ["Kay", "Lee", "Mo", "Ned"]}))
    post(f"/api/v1/games/{gid}/actions", {"action": {"type": "setup", "suit_rows": rows}})
    post(f"/api/v1/games/{gid}/actions", {"action": {"type": "meld", "seat": 1, "cards": ["7H", "8H", "9H"]}})
    t.games["gingo-teams"] = gid
    # side 1 has 48 chips down and 2 left: a meld of three asks which chip is forfeited
    free = _spaces_of(1, ["AH", "2H", "3H", "4H"])
    gid = _id(post("/api/v1/games", {"variant": "gingo", "players": ["Uli", "Vic"]}))
    post(f"/api/v1/games/{gid}/actions", {"action": {"type": "setup", "suit_rows": rows,
                                                     "board": "".join("." if i in free else "1" for i in range(52))}})
    t.games["gingo-short"] = gid
    gid = _id(post("/api/v1/games", {"variant": "gingo", "players": ["Pia", "Quin"]}))
    post(f"/api/v1/games/{gid}/actions", {"action": {"type": "setup", "suit_rows": rows, "board": linked}})
    t.games["gingo-linked"] = gid

    gid = _id(post("/api/v1/games", {"variant": "gingo", "players": ["Eve", "Fox"]}))
    post(f"/api/v1/games/{gid}/actions", {"action": {"type": "setup", "suit_rows": rows}})
    post(f"/api/v1/games/{gid}/actions", {"action": {"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S", "4S", "5S"]}})
    eve = _spaces_of(1, ["AS", "2S", "3S", "4S"])
    for sp in eve:  # Eve's chips go down, but for the 5
        post("/api/v1/board/sim", {"space": sp, "side": 1})
    # Fox's clubs sit on Eve's ace to 3 of spades: three chips to bump
    post(f"/api/v1/games/{gid}/actions", {"action": {"type": "meld", "seat": 1, "cards": ["JC", "QC", "KC"]}})
    post("/api/v1/board/sim", {"space": 51, "side": 2})  # nobody asked for this one
    srv.wait_until("/api/v1/board", lambda b: b.get("sensed") and b["sensed"][51] == "2" and all(b["sensed"][s] == "1" for s in eve))
    t.games["gingo"] = gid

    # team play: a Gin Rummy partnership with a hand, an outing with one match played out
    gid = _id(post("/api/v1/games", {"variant": "gin", "players": ["Ana", "Ben", "Cat", "Dan"],
                                     "options": {"team_mode": "pagat_partnership"}}))
    post(f"/api/v1/games/{gid}/hands", {"ender": None, "tables": [{"ender": 0, "deadwood": [4, 30]},
                                                                  {"ender": 3, "deadwood": [10, 3]}]})
    t.games["partnership"] = gid
    t.games["partnership-new"] = _id(post("/api/v1/games", {"variant": "gin", "preset": "gin_004", "players": ["Ana", "Ben", "Cat", "Dan"],
                                                            "options": {"team_mode": "pagat_partnership"}}))
    o = post("/api/v1/outings", {"players": ["Ana", "Ben", "Cat", "Dan"], "options": {"outing_target": 3000}})
    while not srv.get(f"/api/v1/games/{o['rounds'][0][0]}")["finished"]:
        post(f"/api/v1/games/{o['rounds'][0][0]}/hands", {"ender": 0, "deadwood": [0, 60]})
    t.games["outing"] = str(o["id"])
    t.games["outing-match"] = str(o["rounds"][0][1])
    return t


def _until_my_turn(srv: LiveServer, gid: str, token: str) -> bool:
    """Play seat 0's set-up moves (the first offered) until it holds cards and must move;
    the bots play between (so none of them moves later, behind the board's games). False
    when the bots ended the game first (a Ginski knock can score the match in one hand)."""
    for _ in range(200):
        v = D.view(srv, gid, token)
        legal = v["legal_actions"]
        if v["hand"] and legal:
            return True
        if v["finished"]:
            return False
        if legal:
            D.act(srv, gid, token, legal[0])
        else:
            time.sleep(0.1)  # a bot's turn (the bots wait a moment before each move)
    raise AssertionError(f"seat 0 of {gid} never got a hand to play")


def dealt_games(srv: LiveServer, t: Table) -> None:
    """The Play screen's games: one dealt game of each variant with the phone in seat 0
    and bots in the others, and a two-phone Gin-Go played to a joker that may stand for
    more than one card (its cards kept in ``t.joker``)."""
    for key, variant, players, extra in [("play-gin", "gin", 2, {}), ("play-color_gin", "color_gin", 2, {}),
                                         ("play-ginski", "ginski", 3, {}), ("play-gingo", "gingo", 2, {"skip_board": True}),
                                         ("play-gingo-4", "gingo", 4, {"skip_board": True})]:
        names = ["Ana", "Bot 1", "Bot 2", "Bot 3"][:players]
        for _ in range(5):  # a new deal when the bots finished the game before seat 0 moved
            gid = D.dealt(srv, t.token, variant, names, list(range(1, players)), **extra)
            D.call(srv, "POST", f"/api/v1/games/{gid}/seats/0", {}, t.token)
            if _until_my_turn(srv, gid, t.token):
                break
        else:
            raise AssertionError(f"five {variant} games ended before seat 0 could move")
        t.games[key] = gid
    # a hand that ended (its hand-over panel), and matches that are over (the match end)
    gid = D.dealt(srv, t.token, "gin", ["Ana", "Bot 1"], [1])
    D.call(srv, "POST", f"/api/v1/games/{gid}/seats/0", {}, t.token)
    for _ in range(400):
        v = D.view(srv, gid, t.token)
        if v["public"]["hands_over"] >= 1 or v["finished"]:
            break
        legal = v["legal_actions"]
        if not legal:
            time.sleep(0.1)
            continue
        a = next((x for x in legal if x["type"] == "knock"), None) or \
            next((x for x in legal if x["type"] == "draw" and x.get("source") == "stock"), None) or legal[-1]
        D.act(srv, gid, t.token, a)
    assert D.view(srv, gid, t.token)["public"]["hands_over"] >= 1, "no hand of the gin game ended"
    t.games["play-hand-over"] = gid
    t.games["play-gin-over"] = D.dealt(srv, t.token, "gin", ["Bot A", "Bot B"], [0, 1], options={"game_target": 10})
    t.games["play-gingo-over"] = D.dealt(srv, t.token, "gingo", ["Bot A", "Bot B"], [0, 1], skip_board=True)
    other = srv.pair("a11y second phone")
    gid = D.dealt(srv, t.token, "gingo", ["Ana", "Ben"], [], skip_board=True)
    D.call(srv, "POST", f"/api/v1/games/{gid}/seats/0", {}, t.token)
    D.call(srv, "POST", f"/api/v1/games/{gid}/seats/1", {}, other)
    t.joker = D.joker_choice(srv, gid, [t.token, other])[0]["cards"]
    t.games["play-joker"] = gid


# ---- fixtures ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def table(server: LiveServer) -> Table:
    return build_table(server)


# ---- the screens ---------------------------------------------------------------------------------

@dataclass
class Visit:
    """How one screen is reached: ``paired`` says whether the phone holds a token."""

    go: Callable[[Page, LiveServer, Table], None]
    paired: bool = True


def online(page: Page) -> None:
    expect(page.locator("#conn")).to_have_attribute("data-state", "online")


def open_hash(page: Page, srv: LiveServer, hash_: str, ready: str) -> None:
    page.goto(f"{srv.url}/{hash_}")
    expect(page.locator(ready).first).to_be_attached()
    online(page)


def game(page: Page, srv: LiveServer, t: Table, key: str, ready: str = "#history") -> None:
    open_hash(page, srv, f"#/game/{t.games[key]}", ready)


def join_with_error(page: Page, srv: LiveServer, t: Table) -> None:
    open_hash(page, srv, "#/join", "#join-code")
    page.click("#join-btn")
    expect(page.locator("#join-code-error")).to_be_visible()


def join_by_qr(page: Page, srv: LiveServer, t: Table) -> None:
    # the code now valid: another screen may have made a new one
    req = urllib.request.Request(srv.url + "/api/v1/pair/code", headers={"Authorization": "Bearer " + t.token})
    with urllib.request.urlopen(req, timeout=10) as r:
        code = json.loads(r.read()).get("code") or CODE
    open_hash(page, srv, f"?code={code}", "#game-list")


def new_game_options(page: Page, srv: LiveServer, t: Table) -> None:
    open_hash(page, srv, "#/new", "#new-form")
    page.click("#new-form details.options summary")
    page.click("#start-game")  # no names: the error shows next to the form
    expect(page.locator("#new-error")).to_be_visible()


def new_partnership(page: Page, srv: LiveServer, t: Table) -> None:
    open_hash(page, srv, "#/new", "#new-form")
    page.click("#new-form .seg[aria-label='variant'] button[data-value='gin']")
    page.click("#new-form .seg[aria-label='number of players'] button[data-value='4']")
    expect(page.locator("#partnership-help")).to_be_visible()


def partnership_error(page: Page, srv: LiveServer, t: Table) -> None:
    open_hash(page, srv, f"#/game/{t.games['partnership']}", "#team-sheet")
    page.click("#table-0 .seg button[data-value='0']")
    page.click("#team-preview")  # table 1 without deadwood: the error shows by the table
    expect(page.locator("#t0-error")).to_be_visible()


TIED = "AD 2D 3D 2H 2C AC 7S 8S 9S 10S"  # two arrangements tie on deadwood 5
OTHER = "5C 6C 8D 8H 4D 4H 3C 9D 10H JS"


def partnership_cards(page: Page, srv: LiveServer, t: Table, declared: str = "") -> None:
    """Table 1 as cards (the grid open), table 2 as deadwood."""
    open_hash(page, srv, f"#/game/{t.games['partnership']}", "#team-sheet")
    page.click("#table-0 .seg[aria-label='Table 1: who ended'] button[data-value='0']")
    page.click("#table-0 .seg[aria-label='Table 1: entry mode'] button[data-value='cards']")
    page.fill("#t0-hand-0", TIED)
    page.fill("#t0-hand-1", OTHER)
    if declared:
        page.fill("#t0-declared", declared)
    page.click("#table-1 .seg[aria-label='Table 2: who ended'] button[data-value='3']")
    page.fill("#t1-dw-0", "10")
    page.fill("#t1-dw-1", "3")
    expect(page.locator("#table-0 .card-grid").first).to_be_visible()


def partnership_ties(page: Page, srv: LiveServer, t: Table) -> None:
    partnership_cards(page, srv, t)
    page.click("#team-preview")
    expect(page.locator("#t0-ties button").first).to_be_visible()


def partnership_refused(page: Page, srv: LiveServer, t: Table) -> None:
    partnership_cards(page, srv, t, declared="AD 2H 7S")
    page.click("#team-preview")  # not a meld: the companion's refusal shows by table 1
    expect(page.locator("#t0-error")).to_be_visible()


def partnership_correction(page: Page, srv: LiveServer, t: Table) -> None:
    open_hash(page, srv, f"#/game/{t.games['partnership']}", "#team-history li[data-hand='1'] button")
    page.click("#team-history li[data-hand='1'] button")
    expect(page.locator("#entry h2")).to_have_text("Correct hand 1")


def partnership_flip(page: Page, srv: LiveServer, t: Table) -> None:
    open_hash(page, srv, f"#/game/{t.games['partnership-new']}", "#t0-flip-box")
    page.click("#t0-flip-box summary")
    page.fill("#t0-flip-1-0", "KS")
    page.fill("#t0-flip-1-1", "3H")
    page.click("#t0-flip-btn")  # gin_004: the highest chooses to deal or not
    expect(page.locator("#t0-flip-deal")).to_be_visible()


def new_gingo_teams(page: Page, srv: LiveServer, t: Table) -> None:
    open_hash(page, srv, "#/new", "#new-form")
    page.click("#new-form .seg[aria-label='variant'] button[data-value='gingo']")
    page.click("#new-form .seg[aria-label='number of players'] button[data-value='4']")
    expect(page.locator("#player-3")).to_be_visible()


def gin_preview(page: Page, srv: LiveServer, t: Table) -> None:
    game(page, srv, t, "gin", "#entry")
    page.click("#entry .seg[aria-label='who ended the hand'] button[data-value='0']")
    page.click("#entry .seg[aria-label='entry mode'] button[data-value='deadwood']")
    page.fill("#deadwood-0", "0")
    page.fill("#deadwood-1", "12")
    page.click("#preview-btn")
    expect(page.locator("#preview")).to_be_visible()


def gin_errors(page: Page, srv: LiveServer, t: Table) -> None:
    game(page, srv, t, "gin", "#entry")
    page.fill("#hand-0", "AS ZZ")
    page.click("#preview-btn")
    expect(page.locator("#ender-error")).to_be_visible()
    expect(page.locator("#hand-error-0")).to_be_visible()


def gin_correction(page: Page, srv: LiveServer, t: Table) -> None:
    game(page, srv, t, "gin", "#history li[data-hand]")
    page.locator("#history li[data-hand] button").first.click()
    expect(page.locator("#entry h2")).to_contain_text("Correct hand")


def typed(page: Page, selector: str, text: str) -> None:
    """Type cards into a Gin-Go field, opening "Type the cards instead" first."""
    box = page.locator("#gingo-form details.typed")
    if not box.evaluate("d => d.open"):
        box.locator("summary").click()
    page.fill(selector, text)


def gingo_tab(tab: str) -> Callable[[Page, LiveServer, Table], None]:
    def go(page: Page, srv: LiveServer, t: Table) -> None:
        game(page, srv, t, "gingo", "#gingo-board .space.bump")
        page.click("#gingo-form .seg[aria-label='who plays'] button[data-value='0']")
        if tab == "meld":
            typed(page, "#action-cards", "6D 7D JK")
            expect(page.locator("#desig-JK1")).to_be_visible()
        if tab == "pick":   # cards chosen on the board in the player's frame
            page.click("#gingo-pick .space[data-card='6D']")
            page.click("#gingo-pick .space[data-card='7D']")
            expect(page.locator("#gingo-pick .space[aria-pressed='true']")).to_have_count(2)
        if tab == "go_out":
            page.click("#gingo-form [aria-label='action'] button[data-value='go_out']")
            typed(page, "#captured-1", "JK 9D")
            expect(page.locator("#joker-meld-JK1")).to_be_visible()
        if tab == "stock":
            page.click("#stock-btn")
            expect(page.locator("#stock-btn")).to_have_attribute("data-armed", "1")
    return go


def gingo_setup(page: Page, srv: LiveServer, t: Table) -> None:
    game(page, srv, t, "gingo-setup", "#reveal")
    page.fill("#reveal", "5H JK 2S KC 9D")
    page.click("#gingo-form .seg[aria-label='format'] button[data-value='secrecy']")
    expect(page.locator("#secret-1")).to_be_visible()


def gingo_forfeit(page: Page, srv: LiveServer, t: Table) -> None:
    game(page, srv, t, "gingo-short", "#gingo-pick")
    page.click("#gingo-form .seg[aria-label='who plays'] button[data-value='0']")
    typed(page, "#action-cards", "AH 2H 3H")
    page.click("#send-meld")
    expect(page.locator("#forfeit-box")).to_be_visible()
    page.click("#send-forfeit")
    expect(page.locator("#forfeit-error")).to_be_visible()


def host_open(page: Page, srv: LiveServer, t: Table) -> None:
    open_hash(page, srv, "#/host", "#host-code")
    page.fill("#host-code", HOST_CODE)
    page.click("#host-open")
    expect(page.locator("#token-list li").first).to_be_attached()
    page.locator("#host-games li button").first.click()  # armed: asks once more
    expect(page.locator("#host-games li button[data-armed='1']")).to_have_count(1)
    page.click("#new-pair-code")  # a dialog: the page behind it is inert until it closes
    expect(page.locator("#pair-code[role='dialog']")).to_be_visible()


def undo_asks(page: Page, srv: LiveServer, t: Table) -> None:
    game(page, srv, t, "gin", "#undo-btn")
    # the live channel's first snapshot can redraw the sheet just after the tap, and a
    # redraw drops an open question (rightly: after another phone's write it would ask
    # about a different entry), so tap again until the question stays, a few times at most
    for _ in range(5):
        page.click("#undo-btn")
        try:
            expect(page.locator("#undo-question")).to_be_visible(timeout=3000)
            return
        except AssertionError:
            continue
    expect(page.locator("#undo-question")).to_be_visible()


def review_meanwhile(page: Page, srv: LiveServer, t: Table) -> None:
    gid = _id(srv.post("/api/v1/games", {"variant": "gin", "players": ["Ana", "Ben"]}, t.token))
    open_hash(page, srv, f"#/game/{gid}", "#entry")
    page.click("#entry .seg[aria-label='who ended the hand'] button[data-value='0']")
    page.click("#entry .seg[aria-label='entry mode'] button[data-value='deadwood']")
    page.fill("#deadwood-0", "0")
    page.fill("#deadwood-1", "20")
    other_phone(srv, t, f"/api/v1/games/{gid}/hands", {"ender": 1, "deadwood": [9, 3], "expected_version": 1})
    expect(page.locator("#stale-note")).to_be_visible()
    page.click("#preview-btn")
    expect(page.locator("#review-title")).to_be_visible()


def play_joker(page: Page, srv: LiveServer, t: Table) -> None:
    game(page, srv, t, "play-joker", "#play-hand")
    for c in t.joker:
        page.click(f"#play-hand .play-card[data-card='{c}']")
    expect(page.locator("#play-joker")).to_be_visible()
    expect(page.locator("#play-board .space.target")).to_have_count(len(t.joker))


def hand_over(page: Page, srv: LiveServer, t: Table) -> None:
    """The hand-over panel of a hand that ended: the phone has not moved on from it yet."""
    gid = t.games["play-hand-over"]
    page.goto(f"{srv.url}/#/games")
    page.evaluate("gid => localStorage.setItem('gingo.play.seen.' + gid, '0')", gid)
    open_hash(page, srv, f"#/game/{gid}", "#hand-over #handover-next")


def play_grid(page: Page, srv: LiveServer, t: Table) -> None:
    game(page, srv, t, "play-gingo", "#play-hand")
    page.click("#play-layout button[data-value='grid']")
    expect(page.locator(".play-grid")).to_be_visible()
    page.locator("#play-hand .play-card").first.click()
    page.click("#play-layout button[data-value='fan']")  # the next screens start from the row again


def error_toast(page: Page, srv: LiveServer, t: Table) -> None:
    open_hash(page, srv, "#/games", "#game-list li a")
    page.evaluate("import('./js/ui.js').then(ui => ui.toast('Not saved: a test message', 'error'))")
    expect(page.locator("#toast")).to_be_visible()


def offline(page: Page, srv: LiveServer, t: Table) -> None:
    """The companion does not answer (every request refused): the page says so."""
    page.route("**/api/**", lambda route: route.abort())
    page.goto(f"{srv.url}/#/games")
    expect(page.locator("#offline")).to_be_visible()


SCREENS: dict[str, Visit] = {
    "join": Visit(lambda p, s, t: open_hash(p, s, "#/join", "#join-code"), paired=False),
    "join, code missing": Visit(join_with_error, paired=False),
    "join from a QR code": Visit(join_by_qr, paired=False),
    "games list": Visit(lambda p, s, t: open_hash(p, s, "#/games", "#game-list li a")),
    "new game, house rules, error": Visit(new_game_options),
    "new game, Gin-Go for four": Visit(new_gingo_teams),
    "Gin Rummy with hands": Visit(lambda p, s, t: game(p, s, t, "gin", "#score-table")),
    "Gin Rummy, preview": Visit(gin_preview),
    "Gin Rummy, errors": Visit(gin_errors),
    "Gin Rummy, correcting a hand": Visit(gin_correction),
    "Gin Rummy, match over": Visit(lambda p, s, t: game(p, s, t, "gin-over", "#rematch-btn")),
    "Color Gin with a hand": Visit(lambda p, s, t: game(p, s, t, "color_gin", "#score-table")),
    "Ginski with a hand": Visit(lambda p, s, t: game(p, s, t, "ginski", "#entry .card-grid")),
    "Gin-Go set-up": Visit(gingo_setup),
    "Gin-Go chips on the board, meld": Visit(gingo_tab("meld")),
    "Gin-Go cards picked on the board": Visit(gingo_tab("pick")),
    "Gin-Go go out": Visit(gingo_tab("go_out")),
    "Gin-Go stock ran out": Visit(gingo_tab("stock")),
    "Gin-Go forfeit": Visit(gingo_forfeit),
    "Gin-Go linked (gin banner)": Visit(lambda p, s, t: game(p, s, t, "gingo-linked", "#gin-banner:not([hidden])")),
    "Gin-Go won": Visit(lambda p, s, t: game(p, s, t, "gingo-won", "#winner")),
    "Gin-Go four players": Visit(lambda p, s, t: game(p, s, t, "gingo-teams", "#melds li[data-meld]")),
    "board (simulator)": Visit(lambda p, s, t: open_hash(p, s, "#/board", "#board-box .space.bump")),
    "host, locked": Visit(lambda p, s, t: open_hash(p, s, "#/host", "#host-code")),
    "host, open, pairing code shown": Visit(host_open),
    "watching, not joined: games list": Visit(lambda p, s, t: open_hash(p, s, "#/games", "#game-list li a"), paired=False),
    "watching, not joined: Gin Rummy": Visit(lambda p, s, t: game(p, s, t, "gin", "#score-table"), paired=False),
    "watching, not joined: Gin-Go": Visit(lambda p, s, t: game(p, s, t, "gingo", "#gingo-board .space.bump"), paired=False),
    "new game, not joined": Visit(lambda p, s, t: open_hash(p, s, "#/new", "#join-code"), paired=False),
    "Gin Rummy, undo asks first": Visit(undo_asks),
    "Gin Rummy, another phone's hand reviewed": Visit(review_meanwhile),
    "an error toast": Visit(error_toast),
    "history": Visit(lambda p, s, t: open_hash(p, s, "#/history", "#history-list li")),
    "players and statistics": Visit(lambda p, s, t: open_hash(p, s, "#/stats", "#player-list li")),
    "play without cards: a new dealt game": Visit(lambda p, s, t: open_hash(p, s, "#/play", "#play-form")),
    "new game, Gin Rummy partnership": Visit(new_partnership),
    "partnership: team sheet and two tables": Visit(lambda p, s, t: game(p, s, t, "partnership", "#team-sheet")),
    "partnership: an entry error": Visit(partnership_error),
    "partnership: a table as cards, the grid open": Visit(partnership_cards),
    "partnership: preview with tied arrangements": Visit(partnership_ties),
    "partnership: a table the companion refuses": Visit(partnership_refused),
    "partnership: correcting a hand": Visit(partnership_correction),
    "partnership: the flip for the deal at a table": Visit(partnership_flip),
    "watching, not joined: partnership": Visit(lambda p, s, t: game(p, s, t, "partnership", "#team-sheet"),
                                               paired=False),
    "outings: list and new outing": Visit(lambda p, s, t: open_hash(p, s, "#/outings", "#outing-form h2")),
    "an outing: pairings and standings": Visit(lambda p, s, t: open_hash(p, s, f"#/outing/{t.games['outing']}",
                                                                         "#standings tbody tr")),
    "an outing's match (a gin game)": Visit(lambda p, s, t: game(p, s, t, "outing-match", "#outing-link")),
    "one player's statistics": Visit(lambda p, s, t: open_hash(p, s, "#/stats/Ana", "#to-history")),
    "one player's history": Visit(lambda p, s, t: open_hash(p, s, "#/history/Ana", "#history-list li")),
    "the companion not answering": Visit(offline),
    "play: Gin Rummy, the hand in play": Visit(lambda p, s, t: game(p, s, t, "play-gin", "#play-hand")),
    "play: Color Gin, the hand in play": Visit(lambda p, s, t: game(p, s, t, "play-color_gin", "#play-hand")),
    "play: Ginski for three, the hand in play": Visit(lambda p, s, t: game(p, s, t, "play-ginski", "#play-hand")),
    "play: Gin-Go, the board above the hand": Visit(lambda p, s, t: game(p, s, t, "play-gingo", "#play-board .space")),
    "play: Gin-Go by suit, a card chosen": Visit(play_grid),
    "play: Gin-Go for four in teams": Visit(lambda p, s, t: game(p, s, t, "play-gingo-4", "#play-board .space")),
    "play: a joker's card to choose": Visit(play_joker),
    "play: watching, no seat": Visit(lambda p, s, t: game(p, s, t, "play-gin", "#play-pile"), paired=False),
    "play: a hand ends, the hand-over panel": Visit(hand_over),
    "play: the match end, Gin Rummy": Visit(lambda p, s, t: game(p, s, t, "play-gin-over", "#match-end #score-table")),
    "play: the game's end, Gin-Go": Visit(lambda p, s, t: game(p, s, t, "play-gingo-over", "#match-end #score-table")),
    "a game that does not exist": Visit(lambda p, s, t: open_hash(p, s, "#/game/nope", "#view .field-error")),
}


# ---- axe ---------------------------------------------------------------------------------------------

def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Every violation of the rules tagged TAGS (experimental ones included) on the page."""
    page.wait_for_timeout(250)  # the page marks wide sheets 50 ms after a change: let it settle
    page.evaluate(AXE_SCRIPT)
    assert page.evaluate("axe.version") == AXE_VERSION, "the axe-core on the page is not the one the lock file pins"
    rules = page.evaluate("tags => axe.getRules(tags).map(r => r.ruleId)", TAGS)
    assert "color-contrast" in rules and "label-content-name-mismatch" in rules
    res = page.evaluate("opts => axe.run(document, opts)",
                        {"runOnly": {"type": "rule", "values": rules}, "resultTypes": ["violations"]})
    return list(res["violations"])


def report(screen: str, violations: list[dict[str, Any]]) -> str:
    lines = [f"== {screen}: {len(violations)} rule(s) violated"]
    for v in violations:
        lines.append(f"  [{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])} element(s)) {v['helpUrl']}")
        for n in v["nodes"][:6]:
            target = " ".join(str(x) for x in n["target"])
            html = re.sub(r"\s+", " ", n["html"])[:160]
            fix = re.sub(r"\s+", " ", n.get("failureSummary") or "")[:300]
            lines.append(f"      {target}\n        {html}\n        {fix}")
        if len(v["nodes"]) > 6:
            lines.append(f"      ... and {len(v['nodes']) - 6} more")
    return "\n".join(lines)


# one test per screen, scheme and width: each is short, so one slow screen on a loaded
# machine cannot push a whole sweep past the per-test timeout, and a failure names its screen
@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_screen_passes_axe(browser: Browser, server: LiveServer, table: Table, scheme: str, width: int,
                                 screen: str) -> None:
    visit = SCREENS[screen]
    with phone_page(browser, width, HEIGHT, name=screen, init=paired_init(table, visit.paired),
                    color_scheme=scheme) as page:
        visit.go(page, server, table)
        found = axe_violations(page)
    assert not found, f"axe-core at {width} px, {scheme} scheme:\n" + report(screen, found)


LAYOUT = """
() => {
  const vw = document.documentElement.clientWidth;
  const out = [];
  const name = e => (e.id ? '#' + e.id : e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className.trim()
    ? '.' + e.className.trim().split(/\\s+/).join('.') : '')) + ` "${(e.getAttribute('aria-label') || e.textContent || e.value || '').trim().slice(0, 30)}"`;
  // shown: it has a box, and is not hidden (a folded details' content, the skip link until it has the focus)
  const shown = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && !e.closest('[hidden], .visually-hidden, .skip-link')
    && e.checkVisibility({ checkVisibilityCSS: true, contentVisibilityAuto: true }); };
  // a fanned hand overlaps its cards on purpose, by 14 px: each keeps the rest of its face to tap
  const fanned = (a, b, w) => a.closest('.play-fan') && a.parentElement === b.parentElement && w <= 16;
  const sideways = e => e.closest('.sheet-wrap[data-overflow="1"]');   // a wide sheet scrolls in its own box, and says so
  const bar = e => { for (let x = e; x && x !== document.body; x = x.parentElement) { const p = getComputedStyle(x).position;
    if (p === 'fixed' || p === 'sticky') return x; } return null; };
  const sw = document.documentElement.scrollWidth;
  if (sw > vw + 1) out.push(`the page is ${sw} px wide on a ${vw} px screen: ` + [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right + scrollX > vw + 1 && !e.closest('.sheet-wrap')).slice(0, 4).map(name).join(', '));
  const CONTROLS = 'button, a[href], input:not([type=file]):not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex="-1"]):not(main)';
  for (const e of document.querySelectorAll(CONTROLS + ', label, h1, h2, h3, p, li, th, td, .space')) {
    if (!shown(e) || sideways(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.left < -1 || r.right > vw + 1) out.push(`${name(e)} runs past the screen edge (${Math.round(r.left)} to ${Math.round(r.right)} of ${vw} px)`);
    const cs = getComputedStyle(e);
    if (cs.display === 'inline' || e.tagName === 'SELECT' || e.tagName === 'INPUT') continue;
    if (e.scrollWidth > e.clientWidth + 2) out.push(`${name(e)}: its content is wider than its box (${e.scrollWidth} > ${e.clientWidth} px)`);
    if (e.matches(CONTROLS) && e.scrollHeight > e.clientHeight + 2) out.push(`${name(e)}: its content is taller than its box (${e.scrollHeight} > ${e.clientHeight} px)`);
  }
  const controls = [...document.querySelectorAll(CONTROLS)].filter(e => shown(e) && !sideways(e));
  for (let i = 0; i < controls.length; i++) for (let j = i + 1; j < controls.length; j++) {
    const a = controls[i], b = controls[j];
    if (a.contains(b) || b.contains(a) || bar(a) !== bar(b)) continue;
    const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
    const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left), hgt = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
    if (w > 2 && hgt > 2 && !fanned(a, b, w)) out.push(`${name(a)} and ${name(b)} overlap`);
  }
  // Each control, scrolled to, is the thing under its centre: no bar or banner covers it.
  for (const c of controls) {
    if (bar(c)) continue;
    c.scrollIntoView({ block: 'center', inline: 'nearest' });
    const r = c.getBoundingClientRect();
    const x = Math.min(Math.max(r.left + r.width / 2, 0), vw - 1), y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
    const hit = document.elementFromPoint(x, y);
    if (hit && !c.contains(hit) && !hit.contains(c) && !(c.labels && [...c.labels].some(l => l.contains(hit))))
      out.push(`${name(c)} is covered by ${name(hit)} when scrolled to`);
  }
  window.scrollTo(0, 0);
  return out;
}
"""

LARGE_TEXT = ["join, code missing", "games list", "new game, house rules, error", "new game, Gin-Go for four",
              "Gin Rummy with hands", "Gin Rummy, preview", "Color Gin with a hand", "Ginski with a hand",
              "Gin-Go set-up", "Gin-Go chips on the board, meld", "Gin-Go linked (gin banner)", "Gin-Go won",
              "play without cards: a new dealt game", "play: Gin Rummy, the hand in play",
              "play: Gin-Go, the board above the hand"]


def test_nothing_is_lost_or_overlaps_at_200_percent_text(browser: Browser, server: LiveServer, table: Table) -> None:
    """The phone's text size at 200%: Chromium's own default font size setting (16 -> 32 px,
    what a browser's text-size setting changes), on a 390 px phone. Every control stays
    inside the screen, its words inside its box, clear of every other control, and not
    covered by the top bar, the GIN! banner or the bottom bar once scrolled to (a wide
    sheet may scroll sideways in its own marked box)."""
    failures = []
    for name in LARGE_TEXT:
        visit = SCREENS[name]
        with phone_page(browser, 390, HEIGHT, name=name, init=paired_init(table, visit.paired)) as page:
            page.context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
            visit.go(page, server, table)
            page.wait_for_timeout(250)
            root = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
            assert root >= 32, f"{name}: the page ignores the phone's text size (root font {root} px)"
            problems = page.evaluate(LAYOUT)
        if problems:
            failures.append(f"== {name}:\n    " + "\n    ".join(problems[:15]) + (f"\n    ... and {len(problems) - 15} more" if len(problems) > 15 else ""))
    assert not failures, "at 200% text, 390 px wide:\n" + "\n".join(failures)


# ---- beyond axe: what a screen-reader, keyboard or large-text player gets ------------------------
# (these run after the axe tests: the Gin-Go games they make become the one the board follows)

@pytest.fixture()
def phone(browser: Browser, table: Table) -> Iterator[Page]:
    """A paired phone that records everything its live region says (``window.__said``)."""
    with phone_page(browser, 390, HEIGHT, init=[*paired_init(table), SAID]) as page:
        yield page


def said(page: Page) -> list[str]:
    return list(page.evaluate("window.__said"))


def wait_said(page: Page, text: str) -> None:
    page.wait_for_function("t => window.__said.some(s => s.includes(t))", arg=text)


def said_times(page: Page, text: str) -> int:
    return sum(text in s for s in said(page))


def other_phone(srv: LiveServer, t: Table, path: str, body: dict[str, Any]) -> Any:
    """A write made on another phone (its own client id)."""
    return srv.post(path, {**body, "client_id": f"other-{uuid.uuid4()}"}, t.token)


def redraw(page: Page, times: int = 3) -> None:
    """Redraw the view as a refresh does (back online, a message that is not an event)."""
    for _ in range(times):
        page.evaluate("window.gingo.current && window.gingo.current.update(null)")
    page.wait_for_timeout(300)


def test_entries_from_another_phone_a_conflict_and_the_match_end_are_said_once(
        phone: Page, server: LiveServer, table: Table) -> None:
    gid = _id(server.post("/api/v1/games", {"variant": "gin", "players": ["Rae", "Sam"]}, table.token))
    open_hash(phone, server, f"#/game/{gid}", "#entry")
    other_phone(server, table, f"/api/v1/games/{gid}/hands", {"ender": 0, "deadwood": [0, 20]})
    wait_said(phone, "Hand 1 entered on another phone: Rae went gin; Rae scores 45")
    expect(phone.locator("#history li[data-hand]")).to_have_count(1)
    redraw(phone)
    assert said_times(phone, "Hand 1 entered") == 1, said(phone)
    # This phone previews a hand; another phone scores first: the confirm is refused and said.
    phone.click("#entry .seg[aria-label='who ended the hand'] button[data-value='1']")
    phone.click("#entry .seg[aria-label='entry mode'] button[data-value='deadwood']")
    phone.fill("#deadwood-0", "9")
    phone.fill("#deadwood-1", "3")
    phone.click("#preview-btn")
    expect(phone.locator("#preview")).to_be_visible()
    other_phone(server, table, f"/api/v1/games/{gid}/hands", {"ender": 1, "deadwood": [30, 0]})
    wait_said(phone, "Hand 2 entered on another phone: Sam went gin")
    phone.click("#confirm-btn")
    wait_said(phone, "Not saved. The game changed on another phone first")
    expect(phone.locator("#review-title")).to_contain_text("meanwhile: review")
    # The hand that ends the match: its words and the winner, once.
    other_phone(server, table, f"/api/v1/games/{gid}/hands", {"ender": 0, "deadwood": [0, 90]})
    wait_said(phone, "Match over: Rae wins the match")
    expect(phone.locator("#winner")).to_be_visible()
    redraw(phone)
    assert said_times(phone, "Match over") == 1, said(phone)
    assert not any("this phone" in s for s in said(phone))


def test_gingo_board_for_a_screen_reader_and_the_keyboard(phone: Page, server: LiveServer, table: Table) -> None:
    gid = _id(server.post("/api/v1/games", {"variant": "gingo", "players": ["Wes", "Xan"]}, table.token))
    other_phone(server, table, f"/api/v1/games/{gid}/actions", {"action": {"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}}})
    # The simulated board still holds the chips of the games set up for the axe screens: lift them.
    sensed = server.get("/api/v1/board").get("sensed") or "." * 52
    for sp in (i for i, c in enumerate(sensed) if c != "."):
        server.post("/api/v1/board/sim", {"space": sp, "side": None}, table.token)
    server.wait_until("/api/v1/board", lambda b: b.get("game") == gid and b.get("sensed") == "." * 52)
    open_hash(phone, server, f"#/game/{gid}", "#gingo-board .space")
    grid = phone.locator("#gingo-board").get_by_role("grid")
    # 13 rows of spaces and both sides' suit rows; each rank row headed in both frames
    expect(grid.get_by_role("row")).to_have_count(15)
    expect(grid.get_by_role("gridcell")).to_have_count(52)
    expect(grid.get_by_role("rowheader")).to_have_count(26)
    expect(grid.get_by_role("columnheader")).to_have_count(8)
    # An empty space names both sides' cards (side 2 reads the board from the far end).
    expect(grid.get_by_role("button", name="ace of spades for side 1, king of clubs for side 2, empty; row 1, column 1")).to_have_count(1)
    # A meld entered on another phone: its words, then the chips it asks for.
    other_phone(server, table, f"/api/v1/games/{gid}/actions", {"action": {"type": "meld", "seat": 0, "cards": ["AS", "2S", "3S"]}})
    wait_said(phone, "Wes melded ace of spades, 2 of spades, 3 of spades (entered on another phone)")
    wait_said(phone, "Place 3 side 1 chips for Wes: ace of spades, 2 of spades, 3 of spades")
    expect(grid.get_by_role("button", name=re.compile(r"^3 of spades: place a side 1 chip here; row 3, column 1$"))).to_have_count(1)
    for sp in (0, 4, 8):
        server.post("/api/v1/board/sim", {"space": sp, "side": 1}, table.token)
    expect(grid.get_by_role("gridcell", name="2 of spades, side 1 chip; row 2, column 1", exact=True)).to_have_count(1)
    # Xan's clubs land on Wes's chips: a bump, said once with the cards it concerns.
    other_phone(server, table, f"/api/v1/games/{gid}/actions", {"action": {"type": "meld", "seat": 1, "cards": ["JC", "QC", "KC"]}})
    wait_said(phone, "Bump 3 chips over to side 2: king of clubs, queen of clubs, jack of clubs")
    expect(grid.get_by_role("button", name=re.compile(r"^ace of spades, side 1 chip, bump: side 2 goes here \(king of clubs\)"))).to_have_count(1)
    # The keyboard: one tab stop on the board, arrows move, a redraw keeps the place.
    expect(phone.locator("#gingo-board .space[tabindex='0']")).to_have_count(1)
    phone.locator("#gingo-board .space[tabindex='0']").focus()
    start = int(phone.evaluate("document.activeElement.dataset.space"))
    assert start == 0
    focused = lambda: int(phone.evaluate("document.activeElement.dataset.space"))  # noqa: E731
    phone.keyboard.press("ArrowUp")
    assert focused() == 4
    phone.keyboard.press("ArrowRight")
    assert focused() == 5
    phone.keyboard.press("End")
    assert focused() == 7
    phone.keyboard.press("PageUp")
    assert focused() == 51
    phone.keyboard.press("ArrowUp")   # the edge holds
    assert focused() == 51
    phone.keyboard.press("Home")
    assert focused() == 48
    assert phone.locator("#gingo-board .space[tabindex='0']").get_attribute("data-space") == "48"
    redraw(phone)
    assert focused() == 48
    # Side 1's link made on the board (column 2: the hearts), said once; broken, said once.
    hearts = [1 + 4 * r for r in range(13)]
    for sp in hearts:
        server.post("/api/v1/board/sim", {"space": sp, "side": 1}, table.token)
    wait_said(phone, "Gin! Wes linked the A row to the K row")
    expect(grid.get_by_role("button", name=re.compile(r"part of side 1's link"))).to_have_count(13)
    # (the hearts were put down on the board without a meld: each is a chip nobody asked for)
    expect(grid.get_by_role("gridcell", name="side 1 chip nobody asked for, unexpected (on side 1's 7 of hearts), "
                            "part of side 1's link; row 7, column 2", exact=True)).to_have_count(1)
    redraw(phone)
    assert said_times(phone, "Gin! Wes") == 1, said(phone)
    server.post("/api/v1/board/sim", {"space": hearts[6], "side": None}, table.token)
    wait_said(phone, "Wes's link is broken")
    # A capture: going out with the other side's cards, said in words.
    other_phone(server, table, f"/api/v1/games/{gid}/actions",
                {"action": {"type": "go_out", "seat": 1, "captured": {"0": ["5H", "9D"]}, "jokers": {}}})
    wait_said(phone, "Xan went out, capturing 5 of hearts, 9 of diamonds")
    # Each piece of news once, however often the board is drawn again.
    redraw(phone)
    for news in ("Wes melded ace of spades", "Place 3 side 1 chips for Wes", "Bump 3 chips over to side 2",
                 "Gin! Wes linked", "Wes's link is broken", "Xan went out, capturing"):
        assert said_times(phone, news) == 1, (news, said(phone))
    # The news has one polite live region (a field's error is said by its own alert).
    assert phone.locator("[aria-live]:not([role='alert'])").count() == 1
    assert phone.locator("#announcer").get_attribute("aria-live") == "polite"


def test_the_keyboard_alone_skip_link_focus_and_panels(phone: Page, server: LiveServer, table: Table) -> None:
    open_hash(phone, server, f"#/game/{table.games['gin']}", "#entry")
    phone.keyboard.press("Tab")
    assert phone.evaluate("document.activeElement.className") == "skip-link"
    assert phone.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    phone.keyboard.press("Enter")
    assert phone.evaluate("document.activeElement.id") == "view"
    phone.keyboard.press("Tab")   # the next stop is inside the page, not the top bar again
    assert phone.evaluate("document.getElementById('view').contains(document.activeElement)")
    assert phone.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    # The preview takes the focus to its heading; Back returns it to the Preview button.
    phone.click("#entry .seg[aria-label='who ended the hand'] button[data-value='0']")
    phone.click("#entry .seg[aria-label='entry mode'] button[data-value='deadwood']")
    phone.fill("#deadwood-0", "0")
    phone.fill("#deadwood-1", "12")
    phone.focus("#preview-btn")
    phone.keyboard.press("Enter")
    expect(phone.locator("#preview")).to_be_visible()
    phone.wait_for_function("() => document.getElementById('preview').contains(document.activeElement)")
    phone.get_by_role("button", name="Back to the entry").focus()
    phone.keyboard.press("Enter")
    expect(phone.locator("#preview")).to_be_hidden()
    phone.wait_for_function("() => document.activeElement && document.activeElement.id === 'preview-btn'")
    # A route change puts the focus on the new screen's heading, so a screen reader starts there.
    phone.click("#nav a[data-nav='games']")
    phone.wait_for_function("() => document.activeElement && document.activeElement.tagName === 'H1'")


def test_the_pairing_code_dialog_keeps_the_focus_and_gives_it_back(phone: Page, server: LiveServer, table: Table) -> None:
    """The keyboard alone: the dialog takes the focus, Tab and Shift+Tab cycle inside it,
    Escape or Hide closes it and the focus is back on the button that opened it."""
    open_hash(phone, server, "#/host", "#new-pair-code")
    inside = "() => !!document.activeElement && document.getElementById('pair-code').contains(document.activeElement)"
    on_opener = "() => !!document.activeElement && document.activeElement.id === 'new-pair-code'"
    for close in ("Escape", "Hide"):
        phone.focus("#new-pair-code")
        phone.keyboard.press("Enter")
        dialog = phone.locator("#pair-code")
        expect(dialog).to_be_visible()
        expect(dialog).to_have_attribute("role", "dialog")
        expect(dialog).to_have_attribute("aria-modal", "true")
        expect(phone.get_by_role("dialog", name="Pairing code for a new phone:")).to_have_count(1)
        phone.wait_for_function(inside)
        assert phone.evaluate("document.getElementById('view').inert && document.querySelector('.topbar').inert")
        for key in ("Tab", "Tab", "Shift+Tab", "Shift+Tab", "Tab"):
            phone.keyboard.press(key)
            assert phone.evaluate(inside), f"{key} left the dialog for {phone.evaluate('document.activeElement.outerHTML.slice(0, 80)')}"
        if close == "Escape":
            phone.keyboard.press("Escape")
        else:
            assert phone.evaluate("document.activeElement.id") == "pair-code-hide"
            phone.keyboard.press("Enter")
        expect(dialog).to_be_hidden()
        phone.wait_for_function(on_opener)
        assert not phone.evaluate("document.getElementById('view').inert")
    # A code made on another phone shows here without taking the focus (nothing was asked
    # for on this phone): it is said, and the page stays usable.
    server.post("/api/v1/pair/code", {}, table.token)
    expect(phone.locator("#pair-code")).to_be_visible()
    wait_said(phone, "Pairing code for a new phone")
    expect(phone.locator("#pair-code")).to_have_attribute("role", "region")
    assert phone.evaluate(on_opener) and not phone.evaluate("document.getElementById('view').inert")
    phone.focus("#pair-code-hide")
    phone.keyboard.press("Escape")
    expect(phone.locator("#pair-code")).to_be_hidden()


def test_reduced_motion_stops_the_pulses(browser: Browser, server: LiveServer, table: Table) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": HEIGHT}, reduced_motion="reduce")
    ctx.add_init_script(f"localStorage.setItem('gingo.token', {table.token!r})")
    page = ctx.new_page()
    try:
        game(page, server, table, "gingo-short", "#gingo-pick")
        moving = page.evaluate("[...document.querySelectorAll('*')].filter(e => getComputedStyle(e).animationName !== 'none').length")
        assert moving == 0
    finally:
        ctx.close()
    ctx = browser.new_context(viewport={"width": 390, "height": HEIGHT})
    ctx.add_init_script(f"localStorage.setItem('gingo.token', {table.token!r})")
    page = ctx.new_page()
    try:
        game(page, server, table, "gingo-linked", "#gin-banner:not([hidden])")
        assert page.evaluate("getComputedStyle(document.getElementById('gin-banner')).animationName") == "glow"
    finally:
        ctx.close()


# ---- the sides' colours: the LEDs' family, apart for every colour vision, seen on the board -----

def _linear(c: float) -> float:
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _rgb(css: str) -> tuple[int, int, int]:
    m = re.fullmatch(r"\s*#([0-9a-fA-F]{6})\s*", css) or re.fullmatch(r"\s*rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*1)?\)\s*", css)
    assert m, f"not an opaque colour: {css!r}"
    if len(m.groups()) == 1:
        return tuple(int(m.group(1)[i:i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]
    return tuple(int(x) for x in m.groups())  # type: ignore[return-value]


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio of two sRGB colours."""
    la, lb = (0.2126 * _linear(c[0]) + 0.7152 * _linear(c[1]) + 0.0722 * _linear(c[2]) for c in (a, b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def page_seen(rgb: tuple[int, int, int], vision: str) -> tuple[float, float, float]:
    """CIELAB of a page colour as ``vision`` sees it: the sRGB value made linear light, then
    the LEDs' own dichromat simulation (companion.hardware.colorvision)."""
    from companion.hardware import colorvision as cv
    return cv.lab(cv.simulate_xyz(cv.led_xyz([_linear(c) * 255.0 for c in rgb]), vision))


def hue(lab: tuple[float, float, float]) -> float:
    import math
    return math.degrees(math.atan2(lab[2], lab[1])) % 360.0


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_sides_colours_match_the_leds_and_stay_apart(browser: Browser, server: LiveServer, table: Table, scheme: str) -> None:
    from companion.hardware import colorvision as cv
    from companion.hardware.palette import DEFAULT_PALETTE
    ctx = browser.new_context(viewport={"width": 390, "height": HEIGHT}, color_scheme=scheme)  # type: ignore[arg-type]
    ctx.add_init_script(f"localStorage.setItem('gingo.token', {table.token!r})")
    page = ctx.new_page()
    try:
        game(page, server, table, "gingo-won", "#gingo-board .space.empty")
        # a chip of each side drawn as the board draws one, on an empty space
        seen = page.evaluate("""() => {
          const space = document.querySelector("#gingo-board .space.empty");
          for (const s of ["1", "2"]) { const c = document.createElement("span"); c.className = "chip side-" + s; space.appendChild(c); }
          const css = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
          return { side1: css("#gingo-board .chip.side-1", "backgroundColor"), side2: css("#gingo-board .chip.side-2", "backgroundColor"),
                   space: css("#gingo-board .space.empty", "backgroundColor"), panel: css("#gingo-board", "backgroundColor"),
                   mark: css("#gingo-board .chip.side-1", "color") };
        }""")
    finally:
        ctx.close()
    side = {"1": _rgb(seen["side1"]), "2": _rgb(seen["side2"])}
    space, panel, mark = _rgb(seen["space"]), _rgb(seen["panel"]), _rgb(seen["mark"])
    led = {"1": DEFAULT_PALETTE.side1, "2": DEFAULT_PALETTE.side2}
    for s in ("1", "2"):
        # a chip stands out from its space and from the board's panel (WCAG 1.4.11: 3:1) ...
        assert contrast(side[s], space) >= 3.0, (scheme, s, seen)
        assert contrast(side[s], panel) >= 3.0, (scheme, s, seen)
        # ... its mark (1 or 2) reads on it as text does (4.5:1) ...
        assert contrast(side[s], mark) >= 4.5, (scheme, s, seen)
        # ... and it is the LEDs' colour for that side: the same hue within 25 degrees.
        led_hue = hue(cv.lab(cv.led_xyz(led[s])))
        gap = abs((hue(page_seen(side[s], "normal")) - led_hue + 180.0) % 360.0 - 180.0)
        assert gap <= 25.0, f"{scheme}: side {s} {seen['side' + s]} is {gap:.0f} degrees of hue from the LEDs' {led[s]}"
    # The two sides stay apart for every colour vision: a different colour name at a glance.
    for vision in cv.VISIONS:
        d = cv.delta_e2000(page_seen(side["1"], vision), page_seen(side["2"], vision))
        assert d >= 20.0, f"{scheme}, {vision}: the sides differ by CIEDE2000 {d:.1f} only ({seen})"


# ---- the Play screen while dealt Gin-Go waits for the board (last: it takes the board over) ------

def test_waiting_for_the_board_passes_axe(browser: Browser, server: LiveServer, table: Table) -> None:
    """A dealt Gin-Go game on the board waits for a meld's chips, one of them to bump and a
    chip nobody asked for: the Play screen lists them and outlines them on its board, for the
    seat's phone and for a phone watching without a seat, in both schemes at both widths.
    The board follows the latest-touched Gin-Go game, so this comes after every other screen."""
    sensed = server.get("/api/v1/board")["sensed"] or "." * 52
    for s, chip in enumerate(sensed):  # the screens' chips off: this game starts from an empty board
        if chip != ".":
            D.sim(server, table.token, s, None)
    server.wait_until("/api/v1/board", lambda b: b["sensed"] == "." * 52)
    gid = D.dealt(server, table.token, "gingo", ["Ana", "Bot 1"], [1])
    D.call(server, "POST", f"/api/v1/games/{gid}/seats/0", {}, table.token)
    wait = D.to_board_wait(server, gid, table.token)
    first = wait["pending"][0]
    D.sim(server, table.token, first["space"], 3 - first["side"])  # the other side's chip there: to bump
    board = server.get("/api/v1/board")
    stray = next(s for s in range(52) if board["expected"][s] == "." and (board["sensed"] or "." * 52)[s] == ".")
    D.sim(server, table.token, stray, 2)  # a chip nobody asked for
    server.wait_until(f"/api/v1/games/{gid}/view", lambda v: bool(v["waiting_for_board"] and v["waiting_for_board"]["bumps"]
                                                                    and v["waiting_for_board"]["unexpected"]))
    failures = []
    for width in WIDTHS:
        for scheme in SCHEMES:
            for paired in (True, False):
                with phone_page(browser, width, HEIGHT, name=f"the {'seat' if paired else 'watching'} page, {scheme}",
                                init=paired_init(table, paired), color_scheme=scheme) as page:
                    open_hash(page, server, f"#/game/{gid}", "#play-wait .play-wait-bump")
                    expect(page.locator("#play-wait .play-wait-lift")).to_be_visible()
                    expect(page.locator("#play-board .space.wait")).to_have_count(len(wait["pending"]) + 1)
                    # held-back moves are one line of text, never a sideways row of disabled
                    # buttons: nothing in it could take the focus to scroll it (axe's
                    # scrollable-region-focusable, met only when the deal's row overflows)
                    rows = page.locator("#play-moves .play-suggests").evaluate_all(
                        "els => els.map(e => e.querySelectorAll('button:not(:disabled)').length)")
                    assert all(rows), rows
                    found = axe_violations(page)
                name = f"play: waiting for the board ({'seat' if paired else 'watching'}), {width} px, {scheme}"
                if found:
                    failures.append(report(name, found))
    assert not failures, "\n".join(failures)
