"""Team play on the phone page, in real headless Chromium against the real service, at
390 x 844 and 320 x 844: a Gin Rummy partnership set up from the new-game form, a hand
entered as its two tables, the team sheet and its totals; an outing created on its
screen, its round's pairings linking to their matches, the standings updated live when
a match ends, and the next round paired. Every control tapped is at least 44 px and
nothing scrolls sideways."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.live_server import LiveServer
from tests.test_web import join, shot
from tests.web_helpers import phone_page, steady_box

from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = pytest.mark.browser
WIDTHS = [390, 320]


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def phone(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:  # noqa: F811
    with phone_page(browser, request.param, 844) as pg:
        yield pg


def thumb_sized(page: Page, selector: str) -> None:
    box = steady_box(page, selector)
    assert box["height"] >= 44 and box["width"] >= 44, f"{selector} is smaller than a thumb: {box}"


def no_sideways_scroll(page: Page) -> None:
    sw, iw = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert sw <= iw, f"the page is {sw} px wide in a {iw} px screen"


def test_a_partnership_from_the_new_game_form_to_the_team_sheet(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    phone.click("#nav a[data-nav='new']")
    phone.click("#new-form .seg[aria-label='variant'] button[data-value='gin']")
    phone.click("#new-form .seg[aria-label='number of players'] button[data-value='4']")
    expect(phone.locator("#partnership-help")).to_contain_text("players 1 and 3 are team A")
    expect(phone.locator("label[for='player-1']")).to_have_text("Team B, player 1 (seat 2)")
    for i, name in enumerate(["Ann", "Bob", "Cy", "Di"]):
        phone.fill(f"#player-{i}", name)
    no_sideways_scroll(phone)
    phone.click("#start-game")
    expect(phone.locator("#team-totals")).to_contain_text("Team A: Ann & Cy")
    expect(phone.locator("#table-1 legend")).to_have_text("Table 2: Cy v Di")
    # table 1: Ann knocks 4 against 30; table 2 left without its ender: refused on the phone
    phone.click("#table-0 .seg button[data-value='0']")
    phone.fill("#t0-dw-0", "4")
    phone.fill("#t0-dw-1", "30")
    phone.click("#team-preview")
    expect(phone.locator("#t1-error")).to_have_text("Table 2: say who knocked or went gin (or nobody).")
    # Di knocks 3 against Cy's 10: split wins, team A scores 26 - 7
    phone.click("#table-1 .seg button[data-value='3']")
    phone.fill("#t1-dw-0", "10")
    phone.fill("#t1-dw-1", "3")
    for sel in ("#table-1 .seg button[data-value='3']", "#t1-dw-0", "#team-preview"):
        thumb_sized(phone, sel)
    no_sideways_scroll(phone)
    phone.click("#team-preview")
    # the preview: each table's score and the team result, nothing written yet
    expect(phone.locator("#preview-table-0-verdict")).to_have_text("Ann: knock. Ann scores 26: 26 deadwood difference (30 - 4).")
    expect(phone.locator("#preview-table-1-verdict")).to_have_text("Di: knock. Di scores 7: 7 deadwood difference (10 - 3).")
    expect(phone.locator("#preview-team")).to_contain_text("Team A: Ann & Cy score 19 (26 against 7)")
    expect(phone.locator("#preview-team")).to_contain_text("Split wins")
    gid = phone.evaluate("location.hash.split('/')[2]")
    assert server.get(f"/api/v1/games/{gid}")["hands"] == []
    thumb_sized(phone, "#team-save")
    no_sideways_scroll(phone)
    phone.click("#team-save")
    expect(phone.locator("#team-totals [data-team='0'] .team-score")).to_have_text("19")
    expect(phone.locator("#team-sheet tbody tr")).to_have_count(1)
    expect(phone.locator("#team-sheet tbody tr").first).to_contain_text("Ann knock 26")
    expect(phone.locator("#team-sheet tbody tr").first).to_contain_text("Di knock 7")
    expect(phone.locator("#team-last")).to_contain_text("split wins")
    expect(phone.locator("#entry h2")).to_have_text("Hand 2")
    no_sideways_scroll(phone)
    shot(phone, "teams-partnership")
    stored = server.get(f"/api/v1/games/{gid}")
    assert stored["hands"][0]["tables"] == [{"seats": [0, 1], "ender": 0, "deadwood": [4, 30]},
                                            {"seats": [2, 3], "ender": 3, "deadwood": [10, 3]}]
    assert stored["team_scores"] == [19, 0]
    # a hand entered on another phone shows here by itself
    token = server.pair("other phone")
    server.post(f"/api/v1/games/{gid}/hands", {"ender": None, "tables": [
        {"ender": 1, "deadwood": [20, 0]}, {"ender": 3, "deadwood": [12, 2]}]}, token)
    expect(phone.locator("#team-totals [data-team='1'] .team-score")).to_have_text("55")  # gin_004: gin 25 + 20, and 12 - 2
    # said for a screen reader with the team that scored, not the seat numbered like the team
    expect(phone.locator("#announcer")).to_contain_text("Hand 2 entered on another phone: Bob and Di score 55")
    expect(phone.locator("#entry h2")).to_have_text("Hand 3")
    phone.click("#undo-btn")
    expect(phone.locator("#team-totals [data-team='1'] .team-score")).to_have_text("0")


def test_an_outing_screen_pairs_rounds_and_keeps_standings(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    phone.click("#outings-link")
    phone.click("#outing-form .seg button[data-value='4']")
    width = phone.evaluate("innerWidth")
    names = [f"{n}{width}" for n in ("Ann", "Bea", "Cal", "Dot")]
    for i, name in enumerate(names):
        phone.fill(f"#outing-player-{i}", name)
    phone.fill("#outing-target", "5000")
    thumb_sized(phone, "#outing-start")
    no_sideways_scroll(phone)
    phone.click("#outing-start")
    expect(phone.locator("#round-matches li")).to_have_count(2)
    expect(phone.locator("#round-matches li").first).to_contain_text(f"{names[0]} v {names[2]}")
    expect(phone.locator("#outing-limits")).to_contain_text("ends when a side reaches 5000")
    thumb_sized(phone, "#round-matches li a")
    no_sideways_scroll(phone)
    shot(phone, "teams-outing")
    # a match is an ordinary gin game, linked both ways
    oid = phone.evaluate("location.hash.split('/')[2]")
    phone.locator("#round-matches li a").first.click()
    expect(phone.locator("#outing-link")).to_be_visible()
    gid = phone.evaluate("location.hash.split('/')[2]")
    phone.click("#outing-link")
    expect(phone.locator("#outing-standings")).to_be_visible()
    # both matches are played out on another phone: the screen follows, round 2 is paired
    token = server.pair("score keeper")
    outing = server.wait_until(f"/api/v1/outings/{oid}", lambda o: o["round"] == 1)
    for k, game in enumerate(outing["rounds"][0]):
        body = {"ender": 0, "deadwood": [0, 60]} if k == 0 else {"ender": 1, "deadwood": [60, 0]}
        while not server.get(f"/api/v1/games/{game}")["finished"]:
            server.post(f"/api/v1/games/{game}/hands", body, token)
    assert gid == outing["rounds"][0][0]
    expect(phone.locator("#outing-round h2")).to_have_text("Round 2")
    expect(phone.locator("#round-matches li").first).to_contain_text(f"{names[0]} v {names[3]}")
    expect(phone.locator("#past-matches li")).to_have_count(2)
    expect(phone.locator("#past-matches li").first).to_contain_text(f"{names[0]} won")
    expect(phone.locator("#standings tbody tr")).to_have_count(4)
    leader = phone.locator("#standings tbody tr").first
    expect(leader.locator("td").nth(1)).to_have_text("1")
    no_sideways_scroll(phone)


def test_lists_name_the_winning_team_not_one_player(phone: Page, server: LiveServer) -> None:
    """A finished partnership (team B: seats 1 and 3 win) in the games list and the
    history: both partners are named, with the team totals; never seat 1 alone."""
    width = phone.viewport_size["width"] if phone.viewport_size else 0
    names = [f"{n}{width}" for n in ("Ann", "Bob", "Cy", "Di")]
    token = server.pair("lists")
    g = server.post("/api/v1/games", {"variant": "gin", "preset": "pagat", "players": names,
                                      "options": {"team_mode": "pagat_partnership"}}, token)
    gid = g["id"]
    while not server.get(f"/api/v1/games/{gid}")["finished"]:
        server.post(f"/api/v1/games/{gid}/hands", {"ender": None, "tables": [
            {"ender": 1, "deadwood": [60, 0]}, {"ender": 3, "deadwood": [60, 0]}]}, token)
    done = server.get(f"/api/v1/games/{gid}")
    assert done["winner"] == 1 and done["winning_seats"] == [1, 3]
    final = done["teams"][1]["final"]
    join(phone, server)
    item = phone.locator(f"#game-list li[data-game='{gid}']")
    expect(item).to_contain_text(f"won by team B ({names[1]} & {names[3]})")
    expect(item).to_contain_text(f"{names[0]} & {names[2]} 0 · {names[1]} & {names[3]} {final}")
    phone.goto(f"{server.url}/#/history/{names[1]}")
    line = phone.locator(f"#history-list li[data-game='{gid}']")
    expect(line).to_contain_text(f"won by team B ({names[1]} & {names[3]})")
    no_sideways_scroll(phone)
    # the game itself says the team too
    phone.goto(f"{server.url}/#/game/{gid}")
    expect(phone.locator("#team-winner")).to_contain_text(f"Team B: {names[1]} & {names[3]} win the match")


ANN = "AD 2D 3D 2H 2C AC 7S 8S 9S 10S"   # A-2-3 of diamonds or the three 2s: deadwood 5 both ways
BOB = "5C 6C 8D 8H 4D 4H 3C 9D 10H JS"


def new_partnership(server: LiveServer, names: list[str], dealer: int = 0) -> str:
    token = server.pair("setup")
    g = server.post("/api/v1/games", {"variant": "gin", "preset": "pagat", "players": names, "dealer": dealer,
                                      "options": {"team_mode": "pagat_partnership"}}, token)
    return str(g["id"])


def test_a_partnership_hand_as_cards_with_its_dealers_ties_and_a_refusal(phone: Page, server: LiveServer) -> None:
    """Table 1 entered as cards (tapped on the grid and typed), its tied arrangements
    offered in the preview and the other one chosen; table 2 as deadwood, its dealer set
    by the flip for the first deal (pagat: the lowest card deals). The stored hand is
    checked through the API; then a declared meld the rules refuse shows the companion's
    error naming the rule and the table, and nothing is written."""
    width = phone.viewport_size["width"] if phone.viewport_size else 0
    names = [f"{n}{width}" for n in ("Ann", "Bob", "Cy", "Di")]
    gid = new_partnership(server, names, dealer=1)
    join(phone, server)
    phone.goto(f"{server.url}/#/game/{gid}")
    # the game's first dealer (Bob) deals table 1; at table 2 the seat in the same place (Di)
    expect(phone.locator("#t0-dealer")).to_have_text(f"{names[1]} deals")
    expect(phone.locator("#t1-dealer")).to_have_text(f"{names[3]} deals")
    phone.click("#t1-flip-box summary")
    phone.fill("#t1-flip-1-0", "3H")
    phone.fill("#t1-flip-1-1", "3S")
    phone.click("#t1-flip-btn")
    expect(phone.locator("#t1-flip-error")).to_contain_text("tie: flip again")
    phone.fill("#t1-flip-2-0", "2C")
    phone.fill("#t1-flip-2-1", "9D")
    phone.click("#t1-flip-btn")
    expect(phone.locator("#t1-dealer")).to_have_text(f"{names[2]} deals")
    # table 1 as cards: Ann went down; her first cards tapped on the grid, the rest typed
    phone.click("#table-0 .seg[aria-label='Table 1: who ended'] button[data-value='0']")
    phone.click("#table-0 .seg[aria-label='Table 1: entry mode'] button[data-value='cards']")
    for card in ("AD", "2D", "3D"):
        phone.click(f"#table-0 .seat-block.active .card-grid button[data-card='{card}']")
    expect(phone.locator("#t0-count-0")).to_have_text("3 cards")
    thumb_sized(phone, "#table-0 .seat-block.active .card-grid button[data-card='AD']")
    no_sideways_scroll(phone)
    phone.fill("#t0-hand-0", ANN)
    expect(phone.locator("#t0-count-0")).to_have_text("10 cards")
    phone.fill("#t0-hand-1", BOB)
    # a card in both hands at one table is refused on the grid
    phone.click("#table-0 .seat-block button:has-text('Use the card grid for')")
    phone.click("#table-0 .seat-block.active .card-grid button[data-card='AD']")
    expect(phone.locator("#t0-hand-error-1")).to_contain_text(f"is already in {names[0]}'s hand")
    phone.click("#table-1 .seg[aria-label='Table 2: who ended'] button[data-value='none']")
    phone.fill("#t1-dw-0", "12")
    phone.fill("#t1-dw-1", "20")
    phone.click("#team-preview")
    expect(phone.locator("#t0-ties button")).to_have_count(2)
    expect(phone.locator("#preview-table-1-verdict")).to_have_text("Nobody ended it: no game. No score.")
    first = phone.locator("#t0-ties button[aria-pressed='true']").get_attribute("id")
    other = "t0-tie-1" if first == "t0-tie-0" else "t0-tie-0"
    words = phone.locator(f"#{other}").inner_text()
    thumb_sized(phone, f"#{other}")
    no_sideways_scroll(phone)
    shot(phone, "teams-cards-preview")
    phone.click(f"#{other}")
    expect(phone.locator(f"#{other}")).to_have_attribute("aria-pressed", "true")
    assert server.get(f"/api/v1/games/{gid}")["hands"] == []
    phone.click("#team-save")
    expect(phone.locator("#team-sheet tbody tr")).to_have_count(1)
    g = server.get(f"/api/v1/games/{gid}")
    t1, t2 = g["hands"][0]["tables"]
    assert t1["hands"] == [ANN.split(), BOB.split()] and t1["ender"] == 0
    ties = server.post(f"/api/v1/games/{gid}/hands/1/preview", {"ender": None, "tables": [
        {"ender": 0, "hands": t1["hands"]}, {"ender": None, "deadwood": [12, 20]}]}, server.pair("check"))["table_arrangements"][0]
    assert sorted(map(sorted, t1["declared"])) == sorted(map(sorted, ties[int(other[-1])]["melds"]))
    assert words.count("·") == len(t1["declared"]) - 1
    assert sorted(map(sorted, g["hands"][0]["result"]["extra"]["tables"][0]["melds"][0])) == sorted(map(sorted, t1["declared"]))
    assert t2 == {"seats": [2, 3], "ender": None, "deadwood": [12, 20], "dealer": 2}
    assert g["hands"][0]["dealers"] == [1, 2]
    # pagat: the winner deals next at table 1 (Ann); table 2 was void: Cy deals again
    assert g["table_dealers"] == [0, 2]
    expect(phone.locator("#t0-dealer")).to_have_text(f"{names[0]} deals")
    expect(phone.locator("#t1-dealer")).to_have_text(f"{names[2]} deals")
    expect(phone.locator("#team-history li[data-hand='1']")).to_contain_text(f"dealt by {names[1]} and {names[2]}")
    # a declared meld the rules refuse: the companion's error, next to the table, nothing written
    phone.click("#table-0 .seg[aria-label='Table 1: who ended'] button[data-value='1']")
    phone.fill("#t0-dw-0", "30")
    phone.fill("#t0-dw-1", "4")
    phone.click("#table-1 .seg[aria-label='Table 2: who ended'] button[data-value='2']")
    phone.click("#table-1 .seg[aria-label='Table 2: entry mode'] button[data-value='cards']")
    phone.fill("#t1-hand-0", ANN)
    phone.fill("#t1-hand-1", BOB)
    phone.fill("#t1-declared", "AD 2H 7S")
    version = server.get(f"/api/v1/games/{gid}")["version"]
    phone.click("#team-preview")
    expect(phone.locator("#t1-error")).to_contain_text(f"team_mode pagat_partnership: table 2 ({names[2]} v {names[3]})")
    expect(phone.locator("#team-preview-box")).to_be_hidden()
    assert server.get(f"/api/v1/games/{gid}")["version"] == version
    no_sideways_scroll(phone)
    shot(phone, "teams-refused")


def test_a_past_partnership_hand_is_corrected(phone: Page, server: LiveServer) -> None:
    """Correct on a past hand fills the entry with it; the preview says it is the
    correction; saving puts it in place (PUT), and the team totals follow."""
    width = phone.viewport_size["width"] if phone.viewport_size else 0
    names = [f"{n}{width}x" for n in ("Ann", "Bob", "Cy", "Di")]
    gid = new_partnership(server, names)
    token = server.pair("first phone")
    for body in ({"ender": None, "tables": [{"ender": 0, "deadwood": [4, 30]}, {"ender": 3, "deadwood": [10, 3]}]},
                 {"ender": None, "tables": [{"ender": 1, "deadwood": [20, 5]}, {"ender": 2, "deadwood": [0, 9]}]}):
        server.post(f"/api/v1/games/{gid}/hands", body, token)
    join(phone, server)
    phone.goto(f"{server.url}/#/game/{gid}")
    before = server.get(f"/api/v1/games/{gid}")["team_scores"]
    expect(phone.locator("#team-totals [data-team='0'] .team-score")).to_have_text(str(before[0]))
    phone.click("#team-history li[data-hand='1'] button")
    expect(phone.locator("#entry h2")).to_have_text("Correct hand 1")
    expect(phone.locator("#t1-dw-0")).to_have_value("10")
    thumb_sized(phone, "#team-preview")
    phone.fill("#t1-dw-0", "2")   # Cy held 2, not 10: Cy undercuts Di's knock of 3
    phone.click("#team-preview")
    expect(phone.locator("#preview-title")).to_have_text("Preview: hand 1 corrected")
    expect(phone.locator("#preview-table-1-verdict")).to_contain_text("undercut")
    assert not server.get(f"/api/v1/games/{gid}")["hands"][0]["corrected"]
    phone.click("#team-save")
    expect(phone.locator("#entry h2")).to_have_text("Hand 3")
    g = server.get(f"/api/v1/games/{gid}")
    assert g["hands"][0]["corrected"] and g["hands"][0]["tables"][1]["deadwood"] == [2, 3]
    assert g["hands"][0]["result"]["points"] == [37, 0]  # both team-mates won: 26 + 11
    expect(phone.locator("#team-totals [data-team='0'] .team-score")).to_have_text(str(g["team_scores"][0]))
    expect(phone.locator("#team-history li[data-hand='1']")).to_contain_text("(corrected)")
    no_sideways_scroll(phone)
