"""Dealt play on the phone page in real headless Chromium against the real service (bots
move at once): start a game from the Play screen, the hand as a fanned row and by suit,
turns played by taps with the moves on screen at 390 x 844 (one thumb, no scrolling),
the bot's turn shown, the other players' card counts, every variant on the same screen,
Gin-Go's board above the hand with the spaces a meld's chips go to, a joker's card
chosen among the legal ones, a card dragged onto the pile, the host freeing a seat and a
reload that gets the hand back."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator

import pytest

from tests import play_drive as D
from tests.conftest import wait_for
from tests.live_server import LiveServer
from tests.test_web import join, shot
from tests.web_helpers import HOST_CODE, phone_page, steady_box

from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.serve(env={"GINGO_BOT_DELAY": "0"})]


def _phone(browser: Browser, width: int = 390, height: int = 844) -> Iterator[Page]:  # noqa: F811
    # the screenshots for the docs hide the toast with a style tag, which the page's CSP refuses
    with phone_page(browser, width, height, bypass_csp=bool(os.environ.get("GINGO_SCREENSHOTS"))) as pg:
        yield pg


@pytest.fixture()
def phone(browser: Browser) -> Iterator[Page]:  # noqa: F811
    yield from _phone(browser)


@pytest.fixture()
def narrow(browser: Browser) -> Iterator[Page]:  # noqa: F811
    yield from _phone(browser, 320)


def bottom_limit(page: Page) -> float:
    return float(page.evaluate("innerHeight - document.querySelector('.bottombar').getBoundingClientRect().height"))


def on_screen(page: Page, selector: str) -> None:
    """``selector`` is visible without scrolling, above the bottom bar (one thumb)."""
    box = steady_box(page, selector)
    bottom = bottom_limit(page)
    assert box["y"] >= 0 and box["y"] + box["height"] <= bottom + 0.5, f"{selector} is off screen: {box}"
    assert box["height"] >= 44 and box["width"] >= 44, f"{selector} is smaller than a thumb: {box}"


def hand_in_reach(page: Page, scrolled: bool = False) -> None:
    """Every card of the hand and the moves under it are on screen without scrolling: no
    card under the moves (which stay at the bottom) and nothing wider than the screen.
    ``scrolled``: the same once the page is scrolled to its end (a 320 px phone may scroll)."""
    page.evaluate("scrollTo(0, document.scrollingElement.scrollHeight)" if scrolled else "scrollTo(0, 0)")
    boxes = page.evaluate("""() => {
      const r = (el) => { const b = el.getBoundingClientRect(); return {y: b.y, bottom: b.bottom, left: b.left, right: b.right}; };
      return {cards: [...document.querySelectorAll('.play-card')].map(r), moves: r(document.querySelector('#play-moves')),
              width: document.scrollingElement.scrollWidth, inner: innerWidth};
    }""")
    assert boxes["width"] <= boxes["inner"], f"the page is wider than the screen: {boxes['width']} > {boxes['inner']}"
    assert boxes["cards"], "no cards in the hand"
    moves_top = boxes["moves"]["y"]
    for c in boxes["cards"]:
        assert c["y"] >= 0 and c["bottom"] <= moves_top + 1, f"a card is hidden under the moves or off screen: {c}, moves at {moves_top}"
        assert c["left"] >= 0 and c["right"] <= boxes["inner"] + 0.5, f"a card sticks out of the screen: {c}"
    assert boxes["moves"]["bottom"] <= bottom_limit(page) + 0.5, f"the moves are under the bottom bar: {boxes['moves']}"


def version(page: Page) -> int:
    return int(page.get_attribute("#play", "data-version") or -1)


def tap_move(page: Page, button: object) -> None:
    """Tap a move and wait for the page to show the game after it (and the bot's moves)."""
    before = page.get_attribute("#play", "data-version")
    button.tap()  # type: ignore[attr-defined]
    page.wait_for_function("v => document.querySelector('#play').dataset.version !== v", arg=before)


def deal(page: Page, variant: str, players: int = 2, skip_board: bool = True) -> str:
    """A dealt game from the Play screen (every seat but the phone's a bot); its id.
    Gin-Go skips the board unless ``skip_board`` is False (then it waits for the chips)."""
    for _ in range(5):  # the bots can end a game before the phone moves (a Ginski knock may score the match)
        page.click("#nav a[data-nav='play']")
        page.click(f"#play-form .seg[aria-label='game'] button[data-value='{variant}']")
        if players != 2:
            page.click(f"#play-form .seg[aria-label='number of players'] button[data-value='{players}']")
        page.fill("#play-name-0", "Ann")
        if variant == "gingo" and skip_board:
            page.check("#play-skip")
        page.click("#play-form button[type=submit]")
        expect(page.locator("#play")).to_be_visible()
        expect(page.locator("#play .play-turn")).not_to_have_text(re.compile(r":\s*$"))
        if "The game is over." not in page.locator("#play .play-turn").inner_text():
            return str(page.evaluate("location.hash").split("/")[-1])
    raise AssertionError(f"five {variant} games ended before the phone could move")


def my_turn(page: Page) -> None:
    """Wait for the phone's turn; a hand that ended on the way shows its hand-over panel,
    which the player leaves with Next hand (tests/test_web_handover.py checks the panel)."""
    assert my_turn_or_over(page), "the match ended before the phone's turn"


def my_turn_or_over(page: Page) -> bool:
    """:func:`my_turn`, but a match the bots end on the way (a short three-player Ginski
    match can end before the phone's turn comes round) answers False instead of failing."""
    for _ in range(10):
        page.wait_for_function("""() => document.querySelector('#hand-over')
            || /Your turn|The game is over/.test((document.querySelector('.play-turn') || {}).textContent || '')""")
        if not page.locator("#hand-over").count():
            break
        n = page.get_attribute("#hand-over", "data-hand")
        page.locator("#handover-next").tap()
        # the table again, or the next hand's panel when the bots ended that hand too meanwhile
        # (three-player Ginski: a CI run saw a second panel come up where the test wanted none)
        page.wait_for_function("""n => { const p = document.querySelector('#hand-over');
            return !p || p.dataset.hand !== n; }""", arg=n)
    turn = page.locator(".play-turn")
    expect(turn).to_contain_text(re.compile(r"Your turn|The game is over\."))
    return "The game is over." not in turn.inner_text()


def play_one(page: Page) -> str:
    """Play one legal move by taps: a move button when there is one (drawing first), else
    a card of the hand and the move it offers. The move's words."""
    my_turn(page)
    moves = page.locator("#play-moves button.play-move")
    expect(page.locator("#play-moves button, #play-moves .play-hint").first).to_be_visible()
    if moves.count():
        texts = moves.all_inner_texts()
        pick = next((i for i, t in enumerate(texts) if "stock" in t or t.startswith(("Set up", "Deal", "Pass"))), 0)
        on_screen(page, "#play-moves button.play-move")
        tap_move(page, moves.nth(pick))
        return texts[pick]
    page.locator(".play-card").last.tap()
    expect(page.locator("#play-moves button.play-move").first).to_be_visible()
    words = page.locator("#play-moves button.play-move").first.inner_text()
    tap_move(page, page.locator("#play-moves button.play-move").first)
    return words


def test_a_gin_game_against_the_bot_by_taps(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    deal(phone, "gin")
    my_turn(phone)
    expect(phone.locator(".play-fan .play-card")).to_have_count(10)
    expect(phone.locator(".play-others li[data-seat]")).to_contain_text("Bot 1")
    expect(phone.locator(".play-others li[data-seat]")).to_contain_text("10 cards")
    expect(phone.locator(".play-stock")).to_contain_text(re.compile(r"Stock\s*\d+"))
    hand_in_reach(phone)
    shot(phone, "play-gin")
    turns = 0
    for _ in range(12):  # take or pass the upcard, then draw and discard by taps
        moves = phone.locator("#play-moves button")
        my_turn(phone)
        if moves.count():
            first = moves.first.inner_text()
            on_screen(phone, "#play-moves button")
            tap_move(phone, moves.first if first.startswith("Knock") or "stock" in first or first == "Pass"
                     else moves.last)
        else:  # time to discard: choose a card, then the move it offers
            expect(phone.locator(".play-hint")).to_contain_text("Tap a card")
            hand_in_reach(phone)
            phone.locator(".play-fan .play-card").last.tap()
            expect(phone.locator("#play-moves button").first).to_contain_text("Discard")
            on_screen(phone, "#play-moves button")
            tap_move(phone, phone.locator("#play-moves button").first)
            turns += 1
        if phone.locator(".play-turn").inner_text().endswith("The game is over."):
            break
        if turns >= 3:
            break
    assert turns >= 1
    my_turn(phone)  # past a hand-over panel, if the bot ended the hand meanwhile
    expect(phone.locator(".play-fan .play-card")).to_have_count(10)
    phone.click("#play-layout button[data-value='grid']")
    expect(phone.locator(".play-grid .play-col")).to_have_count(4)
    expect(phone.locator(".play-grid .play-card")).to_have_count(10)
    hand_in_reach(phone)
    shot(phone, "play-gin-grid")
    # a reload gets the hand back from the companion, in the layout the phone remembers
    hand = phone.locator(".play-card").all_inner_texts()
    phone.reload()
    expect(phone.locator(".play-grid .play-card")).to_have_count(10)
    assert phone.locator(".play-card").all_inner_texts() == hand
    phone.click("#play-layout button[data-value='fan']")
    expect(phone.locator(".play-fan .play-card")).to_have_count(10)


def drag_onto(page: Page, name: str, zone: str) -> None:
    """Drag the hand's card ``name`` onto the drop zone ``zone`` in steps, as a finger
    moves (pointer events), checking the zone is marked under the card before the drop."""
    start = steady_box(page, f".play-card[data-card='{name}']")
    box = steady_box(page, zone)
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    for k in range(1, 9):
        page.mouse.move(start["x"] + (box["x"] + box["width"] / 2 - start["x"]) * k / 8,
                        start["y"] + (box["y"] + box["height"] / 2 - start["y"]) * k / 8)
    expect(page.locator(f"{zone}.drop-over")).to_have_count(1)
    page.mouse.up()


def test_board_news_does_not_rebuild_the_play_screen_under_a_finger(phone: Page, server: LiveServer) -> None:
    """Every live message makes the Play screen ask for its view again; when nothing it shows
    changed (here the board's news during a Gin Rummy game) the screen keeps its buttons:
    rebuilt between a finger's down and up, a button loses the tap (a CI run lost a move so)."""
    join(phone, server)
    deal(phone, "gin")
    my_turn(phone)
    phone.evaluate("""() => {
        window.__views = 0;
        window.__busy = 0;
        window.__last = performance.now();
        const f = window.fetch;
        window.fetch = (...a) => {
            if (!String(a[0]).endsWith('/view')) return f(...a);
            window.__views += 1; window.__busy += 1; window.__last = performance.now();
            return f(...a).finally(() => { window.__busy -= 1; window.__last = performance.now(); });
        };
    }""")
    # the bots' moves may still be on their way to the screen: wait for a quiet screen first
    phone.wait_for_function("() => window.__busy === 0 && performance.now() - window.__last > 1000")
    phone.evaluate("() => { window.__views = 0; document.querySelector('#play-moves button').__marked = true; }")
    token = str(phone.evaluate("localStorage.getItem('gingo.token')"))
    for side, shows in ((1, "1"), (None, ".")):  # a chip put on the simulated board, then lifted
        server.post("/api/v1/board/sim", {"space": 0, "side": side}, token)
        wait_for(lambda: server.get("/api/v1/board")["sensed"][0] == shows, 20, f"the sensed board showing {shows!r}")
    # the board's news: the screen asked for its view again (news close together come as one)
    phone.wait_for_function("() => window.__views >= 1 && window.__busy === 0")
    phone.wait_for_timeout(300)  # and had the time to draw what it got
    assert phone.evaluate("() => document.querySelector('#play-moves button').__marked === true"), \
        "the Play screen was rebuilt for news that changed nothing on it"
    before = version(phone)  # the kept button still plays its move
    phone.locator("#play-moves button").first.tap()
    phone.wait_for_function("v => Number(document.querySelector('#play').dataset.version) > v", arg=before)


def test_a_card_dragged_onto_the_pile_is_discarded(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    gid = deal(phone, "gin")
    for _ in range(4):  # to the first discard: take, pass or draw by taps
        my_turn(phone)
        if not phone.locator("#play-moves button").count():
            break
        texts = phone.locator("#play-moves button").all_inner_texts()
        pick = next((i for i, t in enumerate(texts) if "stock" in t or t == "Pass"), 0)
        tap_move(phone, phone.locator("#play-moves button").nth(pick))
    expect(phone.locator(".play-hint")).to_contain_text("Tap a card")
    card = phone.locator(".play-fan .play-card").last
    name = card.get_attribute("data-card")
    before = version(phone)
    drag_onto(phone, str(name), "#play-pile")
    phone.wait_for_function("v => Number(document.querySelector('#play').dataset.version) > v", arg=before)
    expect(phone.locator(".play-ghost")).to_have_count(0)
    assert name not in phone.locator(".play-card").evaluate_all("els => els.map(e => e.dataset.card)")
    # the companion's own record: seat 0's latest play is the discard of that card
    played = [e["payload"] for e in server.get(f"/api/v1/games/{gid}/events")["events"]
              if e["type"] == "play" and e["payload"].get("seat") == 0]
    assert played[-1]["action"]["type"] in ("discard", "knock") and played[-1]["action"]["card"] == name, played[-3:]
    # a tap still chooses a card after a drag
    my_turn(phone)
    if not phone.locator("#play-moves button").count():
        phone.locator(".play-fan .play-card").first.tap()
        expect(phone.locator(".play-card.chosen")).to_have_count(1)


def gingo_to_a_meld(page: Page, turns: int = 40, wait: Callable[[], None] | None = None) -> None:
    """Play a dealt Gin-Go hand by taps (set-up, draw, discard) until the phone's seat can
    meld or hit: the plays it can make are offered. ``wait`` waits for the phone's turn
    (by default, the page saying so)."""
    for _ in range(turns):
        (wait or (lambda: my_turn(page)))()
        expect(page.locator("#play-moves button, #play-moves .play-hint").first).to_be_visible()
        if page.locator("#play-moves .play-pick").count():
            return
        texts = page.locator("#play-moves button.play-move").all_inner_texts()
        if texts:
            pick = next((i for i, t in enumerate(texts) if "stock" in t or t.startswith(("Set up", "Deal", "Let"))), 0)
            tap_move(page, page.locator("#play-moves button.play-move").nth(pick))
            continue
        page.locator(".play-card:not([data-card^='JK'])").first.tap()
        discard = page.locator("#play-moves button.play-move", has_text="Discard")
        expect(discard).to_be_visible()
        tap_move(page, discard)
    raise AssertionError(f"no meld or hit in {turns} turns")


def target_cards(page: Page) -> set[str]:
    return set(page.locator("#play-board .space.target").evaluate_all("els => els.map(e => e.dataset.card)"))


def test_gingo_board_above_the_hand_shows_where_a_melds_chips_go(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    gid = deal(phone, "gingo")
    gingo_to_a_meld(phone)
    board = steady_box(phone, "#play-board")
    hand = steady_box(phone, ".play-card")
    assert board["y"] + board["height"] <= hand["y"], "the board is not above the hand"
    expect(phone.locator("#play-board .space")).to_have_count(52)
    expect(phone.locator("#play-board .play-chip-line")).to_contain_text("You:")
    hand_in_reach(phone)
    phone.locator("#play-moves .play-pick").first.tap()
    primary = phone.locator("#play-moves button.play-move.primary")
    expect(primary).to_be_visible()
    words = primary.inner_text()
    hand_in_reach(phone)
    chosen = phone.locator(".play-card.chosen").evaluate_all("els => els.map(e => e.dataset.card)")
    # a joker's chip goes on the card it stands for; every other card's on its own space
    jokers = dict(re.findall(r"(JK\d) as ([^\s,)]+)", words))
    symbols = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
    stands = {c if c not in jokers else jokers[c][:-1] + symbols[jokers[c][-1]] for c in chosen}
    view = server.get(f"/api/v1/games/{gid}/view")
    side = "1"  # the phone holds seat 0: side 1
    mine = {c for c in stands if view["public"]["table"]["board"][view["public"]["frames"][side][c]] != side}
    assert target_cards(phone) == stands, (words, chosen)
    shot(phone, "play-gingo")
    tap_move(phone, primary)
    board_now = server.get(f"/api/v1/games/{gid}/view")["public"]["table"]["board"]
    frames = view["public"]["frames"][side]
    if words.startswith(("Meld", "Hit")):  # the chips are down where the outline showed
        assert all(board_now[frames[c]] == side for c in mine), (words, mine)
        for c in mine:
            expect(phone.locator(f"#play-board .space[data-card='{c}']")).to_have_attribute("data-chip", side)
    expect(phone.locator("#play-board .space.target")).to_have_count(0)
    # a reload in the middle of the hand gets the same hand back
    my_turn(phone)
    held = sorted(phone.locator(".play-card").evaluate_all("els => els.map(e => e.dataset.card)"))
    phone.reload()
    expect(phone.locator(".play-card").first).to_be_visible()
    assert sorted(phone.locator(".play-card").evaluate_all("els => els.map(e => e.dataset.card)")) == held


def test_a_joker_stands_for_the_card_the_player_picks(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    token = phone.evaluate("localStorage.getItem('gingo.token')")
    other = server.pair("Bob's phone")
    gid = D.dealt(server, token, "gingo", ["Ann", "Bob"], [], skip_board=True)
    D.call(server, "POST", f"/api/v1/games/{gid}/seats/0", {}, token)
    D.call(server, "POST", f"/api/v1/games/{gid}/seats/1", {}, other)
    options = D.joker_choice(server, gid, [token, other])
    cards = options[0]["cards"]
    joker = next(iter(options[0]["designations"]))
    stands = [o["designations"][joker] for o in options]
    phone.goto(f"{server.url}/#/game/{gid}")
    my_turn(phone)
    for c in cards:  # tap the cards of the meld, one by one
        phone.locator(f".play-card[data-card='{c}']").tap()
    expect(phone.locator("#play-joker")).to_be_visible()
    choice = phone.locator("#play-joker .seg button")
    expect(choice).to_have_count(len(options))
    expect(choice.first).to_have_attribute("aria-pressed", "true")
    naturals = {c for c in cards if not c.startswith("JK")}
    assert target_cards(phone) == naturals | {stands[0]}
    hand_in_reach(phone)
    shot(phone, "play-joker")
    choice.last.tap()
    expect(choice.last).to_have_attribute("aria-pressed", "true")
    expect(phone.locator("#play-board .space.target")).to_have_count(len(cards))
    assert target_cards(phone) == naturals | {stands[-1]}
    meld = phone.locator("#play-moves button.play-move.primary")
    expect(meld).to_contain_text(f"{joker} as")
    on_screen(phone, "#play-moves button.play-move.primary")
    tap_move(phone, meld)
    melds = D.view(server, gid, token)["public"]["table"]["melds"]
    mine = [m for m in melds if m["seat"] == 0 and sorted(m["cards"]) == sorted(cards)]
    assert mine and mine[-1]["designations"] == {joker: stands[-1]}, melds


def test_cards_dragged_onto_the_gingo_board_are_chosen_for_a_meld(phone: Page, server: LiveServer) -> None:
    """Dropping a card on the board chooses it (as a tap does) and plays nothing; with the
    cards of a legal meld dropped there, the meld is offered and plays."""
    join(phone, server)
    gid = deal(phone, "gingo")
    gingo_to_a_meld(phone)
    token = phone.evaluate("localStorage.getItem('gingo.token')")
    melds = [a for a in D.view(server, gid, token)["legal_actions"] if a["type"] in ("meld", "hit")]
    assert melds, "gingo_to_a_meld stopped with no meld or hit to play"
    plain = [a for a in melds if not any(c.startswith("JK") for c in a["cards"])]
    cards = list((plain or melds)[0]["cards"])
    before = version(phone)
    for c in cards:
        drag_onto(phone, c, "#play-board")
        expect(phone.locator(f".play-card[data-card='{c}']")).to_have_attribute("aria-pressed", "true")
    expect(phone.locator(".play-ghost")).to_have_count(0)
    assert version(phone) == before, "a drop on the board played something"
    assert sorted(phone.locator(".play-card.chosen").evaluate_all("els => els.map(e => e.dataset.card)")) == sorted(cards)
    primary = phone.locator("#play-moves button.play-move.primary")
    expect(primary).to_be_visible()
    assert primary.inner_text().startswith(("Meld", "Hit", "Go out")), primary.inner_text()
    tap_move(phone, primary)
    # the companion's record: the cards left the hand and lie in a meld on the table
    after = D.view(server, gid, token)
    assert not set(cards) & set(after["hand"]), (cards, after["hand"])
    on_table = {c for m in after["public"]["table"]["melds"] for c in m["cards"]}
    assert set(cards) <= on_table, (cards, after["public"]["table"]["melds"])


VARIANTS = [("gin", 2), ("color_gin", 2), ("ginski", 3), ("gingo", 2), ("gingo", 4)]


@pytest.mark.parametrize(("variant", "players"), VARIANTS, ids=[f"{v}-{n}" for v, n in VARIANTS])
def test_every_variant_on_the_same_screen(phone: Page, server: LiveServer, variant: str, players: int) -> None:
    join(phone, server)
    for _ in range(5):  # the bots may end the match before or right after the phone's first move (Ginski)
        gid = deal(phone, variant, players)
        if not my_turn_or_over(phone):
            continue
        expect(phone.locator(".play-others li[data-seat]")).to_have_count(players - 1)
        for li in phone.locator(".play-others li[data-seat]").all():
            expect(li).to_contain_text(re.compile(r"\d+ cards"))
        expect(phone.locator(".play-stock")).to_be_visible()
        expect(phone.locator("#play-pile")).to_be_visible()
        before = server.get(f"/api/v1/games/{gid}")["version"]
        words = play_one(phone)
        assert server.get(f"/api/v1/games/{gid}")["version"] > before, f"{words} changed nothing"
        # the phone's turn again (past a hand the bots ended meanwhile), or the match is over
        if my_turn_or_over(phone):
            break
    else:
        raise AssertionError(f"five {variant} matches ended before the phone's second turn")
    if variant == "gingo":  # after the set-up, the board and the hand
        while not phone.locator(".play-card").count():
            play_one(phone)
        expect(phone.locator("#play-board .space")).to_have_count(52)
        side_cards = phone.locator("#play-board .space[data-card]").count()
        assert side_cards == 52, "the board shows the player's cards on its spaces"
        play_one(phone)
    my_turn(phone)
    expect(phone.locator(".play-card").first).to_be_visible()
    hand_in_reach(phone)
    view = server.get(f"/api/v1/games/{gid}/view")
    sizes = view["public"]["hand_sizes"]
    for i, li in enumerate(phone.locator(".play-others li[data-seat]").all(), start=1):
        expect(li).to_contain_text(f"{sizes[i]} cards")
    if variant == "gingo" and players == 4:
        shot(phone, "play-gingo-4")


def test_on_a_short_screen_the_board_scrolls_under_the_hand_and_its_moves(browser: Browser, server: LiveServer) -> None:
    """Four players' Gin-Go on a 375x667 phone (an iPhone SE) is taller than the screen:
    the hand and the moves under it stay stuck together at the bottom, and the board
    scrolls under them (before, the moves stuck alone and covered the hand's cards)."""
    for short in _phone(browser, 375, 667):
        join(short, server)
        deal(short, "gingo", 4)
        while not short.locator(".play-card").count():
            play_one(short)
        my_turn(short)
        expect(short.locator(".play-card").first).to_be_visible()
        page_height = short.evaluate("document.scrollingElement.scrollHeight")
        assert page_height > short.viewport_size["height"], f"the page fits the short screen ({page_height} px): nothing to show"
        hand_in_reach(short)
        # the board is what scrolls: at the top of the page the dock covers its lower part
        dock = steady_box(short, "#play-dock")
        board = short.locator("#play-board").bounding_box()
        assert board is not None and board["y"] + board["height"] > dock["y"], "the board is not under the dock"


@pytest.mark.parametrize("variant", ["gin", "gingo"])
def test_the_play_screen_fits_320_px(narrow: Page, server: LiveServer, variant: str) -> None:
    """At 320 px nothing is wider than the screen and no card hides under the moves (the
    page may scroll there: four players' Gin-Go is taller than a small phone)."""
    join(narrow, server)
    deal(narrow, variant, 4 if variant == "gingo" else 2)
    while not narrow.locator(".play-card").count():
        play_one(narrow)
    my_turn(narrow)
    hand_in_reach(narrow, scrolled=True)
    narrow.click("#play-layout button[data-value='grid']")
    expect(narrow.locator(".play-grid")).to_be_visible()
    assert narrow.evaluate("document.scrollingElement.scrollWidth") <= 320
    narrow.click("#play-layout button[data-value='fan']")


def test_the_host_frees_a_seat_and_another_phone_takes_it(browser: Browser, server: LiveServer) -> None:  # noqa: F811
    pages = [p for p in (_phone(browser), _phone(browser))]
    host, guest = next(pages[0]), next(pages[1])
    try:
        join(host, server)
        gid = deal(host, "gin")
        my_turn(host)
        hand = sorted(host.locator(".play-card").evaluate_all("els => els.map(e => e.dataset.card)"))
        expect(host.locator("#play-host")).to_have_count(0)  # the host settings are locked
        host.click("#nav a[data-nav='host']")
        host.fill("#host-code", HOST_CODE)
        host.click("#host-open")
        expect(host.locator("#token-list li").first).to_be_attached()
        host.goto(f"{server.url}/#/game/{gid}")
        expect(host.locator("#play-host button")).to_have_text("Free Ann's seat")
        join(guest, server)
        guest.goto(f"{server.url}/#/game/{gid}")
        expect(guest.locator("#play .play-moves button")).to_have_count(0)  # seat 0 is Ann's
        expect(guest.locator("#play-host")).to_have_count(0)  # not the host's phone
        host.locator("#play-host button").tap()
        expect(host.locator("#play")).to_contain_text("Take a seat")
        guest.reload()
        guest.locator("#play .play-moves button", has_text="Sit as Ann").tap()
        expect(guest.locator(".play-card")).to_have_count(len(hand))
        assert sorted(guest.locator(".play-card").evaluate_all("els => els.map(e => e.dataset.card)")) == hand
        my_turn(guest)
    finally:
        for p in pages:
            for _ in p:
                pass
