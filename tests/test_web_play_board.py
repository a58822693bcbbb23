"""Dealt Gin-Go on the simulated board, on the Play screen in real headless Chromium
against the real service: after a meld the page lists what the board waits for (chips to
place, to bump, unexpected), named by the card each space is in the player's frame and
outlined on the page's board, for the seat's phone and for a phone watching without a
seat; the moves wait with the reason instead of being refused; the list shrinks as chips
go down through the simulated sensors (POST /api/v1/board/sim), clears when the board
agrees, and the game goes on. With skip_board nothing ever waits."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests import play_drive as D
from tests.live_server import LiveServer
from tests.test_web import TIMEOUT_MS, join, shot
from tests.test_web_play import deal, gingo_to_a_meld, hand_in_reach, tap_move, version
from tests.web_helpers import phone_page

from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.serve(env={"GINGO_BOT_DELAY": "0"})]


def _page(browser: Browser, paired: bool) -> Iterator[Page]:  # noqa: F811
    with phone_page(browser, 390, 844, name="the phone" if paired else "the watcher") as pg:
        yield pg


@pytest.fixture()
def phone(browser: Browser) -> Iterator[Page]:  # noqa: F811
    yield from _page(browser, True)


@pytest.fixture()
def watcher(browser: Browser) -> Iterator[Page]:  # noqa: F811
    yield from _page(browser, False)


def sim(srv: LiveServer, token: str, space: int, side: int | None) -> None:
    srv.post("/api/v1/board/sim", {"space": space, "side": side}, token)


def fix_board(srv: LiveServer, token: str, wait: dict[str, Any]) -> None:
    """Do what the board waits for: place the pending chips, bump, lift the unexpected."""
    for x in wait["bumps"]:
        sim(srv, token, x["space"], None)
        sim(srv, token, x["space"], x["to"])
    for x in wait["pending"]:
        sim(srv, token, x["space"], x["side"])
    for x in wait["unexpected"]:
        sim(srv, token, x["space"], None)


def moved_on(srv: LiveServer, gid: str, v: dict[str, Any]) -> None:
    """Until the game (seen as the view ``v``) no longer waits for what ``v`` waits for: the
    board agrees, or a wait that asks for other spaces, or the game moved on (a bot played
    once the board agreed: its chips may lie on spaces the old wait named, as when a game
    starts on the last game's chips). Chips sensed one by one are still the same wait."""
    old = wait_spaces(v["waiting_for_board"])
    srv.wait_until(f"/api/v1/games/{gid}/view", lambda b: not b["waiting_for_board"]
                   or not wait_spaces(b["waiting_for_board"]) <= old or b["version"] != v["version"])


def wait_spaces(wait: dict[str, Any] | None) -> set[int]:
    return {x["space"] for k in ("pending", "bumps", "unexpected") for x in (wait or {}).get(k, [])}


def page_spaces(page: Page, selector: str) -> set[int]:
    return {int(s) for s in page.locator(selector).evaluate_all("els => els.map(e => e.dataset.space)")}


def shows_wait(page: Page, wait: dict[str, Any]) -> None:
    """The page lists every space the board waits for (and only those), and outlines them."""
    spaces = wait_spaces(wait)
    expect(page.locator("#play-wait")).to_have_attribute("data-count", str(len(spaces)))
    # the same count may still be an older wait the live channel has not replaced yet
    # (a loaded machine): the sets are polled until they agree, then compared
    # (a hand-over panel lists them above the hand that ended, with no board to outline on)
    end = time.monotonic() + TIMEOUT_MS / 1000
    listed, outlined, board = set(), set(), True
    while time.monotonic() < end:
        listed = page_spaces(page, "#play-wait .play-wait-space")
        board = page.locator("#hand-over").count() == 0
        outlined = page_spaces(page, "#play-board .space.wait") if board else spaces
        if listed == spaces and outlined == spaces:
            return
        time.sleep(0.05)
    assert listed == spaces, ("listed", listed, spaces)
    assert outlined == spaces, ("outlined", outlined, spaces)


def past_hand_over(page: Page, srv: LiveServer, gid: str, token: str) -> None:
    """Once the page has drawn the game as the service has it: a hand that ended on the way
    (a bot went out) shows its panel, which the player leaves with Next hand."""
    v = D.view(srv, gid, token)
    page.wait_for_function("v => Number(document.querySelector('#play').dataset.version) >= v", arg=v["version"])
    while page.locator("#hand-over").count():
        n = page.get_attribute("#hand-over", "data-hand")
        page.locator("#handover-next").tap()
        page.wait_for_function("""n => { const p = document.querySelector('#hand-over');
            return !p || p.dataset.hand !== n; }""", arg=n)


def my_turn_free(srv: LiveServer, gid: str, token: str, page: Page | None = None, timeout: float = 30) -> dict[str, Any]:
    """Until seat 0 may act with nothing to wait for: every wait on the way is shown on
    ``page`` and fixed through the simulated sensors. Seat 0's view then."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = D.view(srv, gid, token)
        if v["waiting_for_board"]:
            if page is not None:
                shows_wait(page, v["waiting_for_board"])
            fix_board(srv, token, v["waiting_for_board"])
            moved_on(srv, gid, v)
            continue
        if v["legal_actions"]:
            return v
        time.sleep(0.05)  # the bots move once the sensors agree
    raise AssertionError("seat 0 never got its turn back")


def to_a_meld(page: Page, srv: LiveServer, gid: str, token: str, turns: int = 60) -> None:
    """Play by taps (set-up, draw, discard), the board kept in step, until seat 0 can meld."""
    def wait() -> None:
        my_turn_free(srv, gid, token, page)
        past_hand_over(page, srv, gid, token)
        expect(page.locator("#play-wait")).to_have_count(0)
    gingo_to_a_meld(page, turns, wait)


def test_the_play_screen_shows_what_the_board_waits_for(phone: Page, watcher: Page, server: LiveServer) -> None:
    join(phone, server)
    token = phone.evaluate("localStorage.getItem('gingo.token')")
    gid = deal(phone, "gingo", skip_board=False)
    watcher.goto(f"{server.url}/#/game/{gid}")
    expect(watcher.locator("#play")).to_be_visible()
    to_a_meld(phone, server, gid, token)

    # a meld: its chips are the board's to place (the turn under way is not held up)
    phone.locator("#play-moves .play-pick").first.tap()
    primary = phone.locator("#play-moves button.play-move.primary")
    expect(primary).to_be_visible()
    before = D.view(server, gid, token)
    tap_move(phone, primary)
    after = D.view(server, gid, token)
    frame = before["public"]["frames"]["1"]  # the phone holds seat 0: side 1
    board_before, board_after = before["public"]["table"]["board"], after["public"]["table"]["board"]
    placed = {c for c, s in frame.items() if board_after[s] == "1" and board_before[s] != "1"}
    assert placed, "the meld placed no chip of the phone's side"
    assert after["waiting_for_board"] is None, "the turn under way waits for nothing"
    expect(phone.locator("#play-wait")).to_have_count(0)
    # the discard: the next turn (the bot's) waits for the board
    if not phone.locator("#play-moves button.play-move", has_text="Discard").count():
        phone.locator(".play-card:not([data-card^='JK'])").first.tap()
    discard = phone.locator("#play-moves button.play-move", has_text="Discard").first
    expect(discard).to_be_visible()
    tap_move(phone, discard)
    wait = D.view(server, gid, token)["waiting_for_board"]
    # the meld's chips go on empty spaces (to place) or onto side 2's chips (to bump): which
    # depends on the deal, so both are checked as they come
    fresh = {c for c in placed if board_before[frame[c]] == "."}
    hits = placed - fresh
    assert wait is not None and (wait["pending"] or wait["bumps"]), "the bot's turn does not wait for the meld's chips"
    for page in (phone, watcher):  # the seat's phone and a phone watching: the same list, outlined
        expect(page.locator(".play-turn")).to_contain_text("Bot 1's turn: waiting for the board")
        shows_wait(page, wait)
        # named in side 1's frame (the phone's, and a watcher's): the meld's own cards
        for kind, cards in (("place", fresh), ("bump", hits)):
            named = set(page.locator(f"#play-wait .play-wait-{kind} .play-wait-space").evaluate_all("els => els.map(e => e.dataset.card)"))
            assert named == cards, (kind, named, placed)
    if fresh:
        expect(phone.locator("#play-wait .play-wait-place")).to_contain_text("Place your chip")
        expect(watcher.locator("#play-wait .play-wait-place")).to_contain_text("Place Ann's chip")
    if hits:
        # one sentence for all of them
        expect(phone.locator("#play-wait .play-wait-bump")).to_have_text(re.compile(r"^Bump Bot 1's chips? off .+, put your chips? there\.$"))
        expect(watcher.locator("#play-wait .play-wait-bump")).to_have_text(re.compile(r"^Bump Bot 1's chips? off .+, put Ann's chips? there\.$"))
    expect(watcher.locator("#play-wait .play-wait-frame")).to_contain_text("Ann's cards")
    hand_in_reach(phone)
    shot(phone, "play-wait")
    # chips go down one at a time: the list and the outlines follow the sensors
    steps = [("pending", x) for x in wait["pending"]] + [("bumps", x) for x in wait["bumps"]]
    (kind, first), rest = steps[0], steps[1:]
    # read before the first chip: with one chip to place the board then agrees and the bot
    # plays at once, which changes the version
    v0 = version(phone)
    if kind == "bumps":
        sim(server, token, first["space"], None)
    sim(server, token, first["space"], first["side"] if kind == "pending" else first["to"])
    n = len(wait_spaces(wait))
    for page in (phone, watcher):
        if n > 1:
            expect(page.locator("#play-wait")).to_have_attribute("data-count", str(n - 1))
            assert first["space"] not in page_spaces(page, "#play-board .space.wait")
    fix_board(server, token, {**wait, "pending": [x for k, x in rest if k == "pending"],
                              "bumps": [x for k, x in rest if k == "bumps"]})
    # the board agrees: the lists clear and the game goes on (the bot plays its turn)
    phone.wait_for_function("v => Number(document.querySelector('#play').dataset.version) > v", arg=v0)
    my_turn_free(server, gid, token, phone)
    for page in (phone, watcher):
        expect(page.locator("#play-wait")).to_have_count(0)
        expect(page.locator("#play-board .space.wait")).to_have_count(0)

    # the phone's own turn waits too: a chip nobody asked for, and the moves say why
    board = server.get("/api/v1/board")
    stray = next(s for s in range(52) if board["expected"][s] == "." and board["sensed"][s] == ".")
    sim(server, token, stray, 2)
    expect(phone.locator(".play-turn")).to_contain_text("Your turn: waiting for the board")
    expect(phone.locator("#play-wait .play-wait-lift")).to_contain_text("Lift Bot 1's chip off")
    assert page_spaces(phone, "#play-wait .play-wait-space") == {stray}
    # the moves are held back, said in one line under the reason
    expect(phone.locator("#play-held")).to_contain_text("Once the board agrees: ")
    moves = phone.locator("#play-moves button.play-move")
    expect(moves).to_have_count(0)
    expect(watcher.locator("#play-wait .play-wait-lift")).to_contain_text("Lift Bot 1's chip off")
    hand_in_reach(phone)
    sim(server, token, stray, None)
    expect(phone.locator("#play-wait")).to_have_count(0)
    expect(moves.first).to_be_enabled()
    v1 = D.view(server, gid, token)["version"]
    tap_move(phone, moves.first)
    assert D.view(server, gid, token)["version"] > v1, "the turn after the board agreed was not played"
    expect(watcher.locator("#play-wait")).to_have_count(0)


def to_a_hand_end_on_the_board(srv: LiveServer, gid: str, token: str, max_steps: int = 3000) -> dict[str, Any] | None:
    """Play seat 0 by the API (melding when it can), the board kept in step, until the
    board waits for chips after a hand has ended (the going out's, or, after a hand that
    ended with none to move, the next hand's): the view then; None when the game ended
    first (a going out with gin in hand wins the game at once)."""
    for _ in range(max_steps):
        v = D.view(srv, gid, token)
        if v["finished"]:
            return None
        wait = v["waiting_for_board"]
        if wait and v["public"].get("hands_over"):
            return v
        if wait:
            fix_board(srv, token, wait)
            moved_on(srv, gid, v)
            continue
        legal = v["legal_actions"]
        if not legal:
            time.sleep(0.02)  # a bot's turn
            continue
        melds = [a for a in legal if a["type"] in ("meld", "go_out")]
        plain = [a for a in legal if a["type"] in ("draw", "setup", "new_hand", "choose_deal")]
        discards = [a for a in legal if a["type"] == "discard" and not a["card"].startswith("JK")]
        D.act(srv, gid, token, (melds or plain or discards or legal)[0])
    raise AssertionError(f"no hand ended in {max_steps} steps")


def test_a_hand_over_panel_lists_what_the_board_waits_for(phone: Page, server: LiveServer) -> None:
    """A hand ends by a going out: before the next hand, the board must take the going
    out's chips. The hand-over panel says so and lists the spaces, as a turn does; the list
    follows the sensors, the panel stays until the player moves on."""
    join(phone, server)
    token = phone.evaluate("localStorage.getItem('gingo.token')")
    for _ in range(8):  # a game can end with its first hand (gin held): deal again
        gid = deal(phone, "gingo", skip_board=False)
        phone.goto(f"{server.url}/#/")  # away while the API plays the hand out
        v = to_a_hand_end_on_the_board(server, gid, token)
        if v is not None:
            break
    else:
        raise AssertionError("eight games ended with their first hand")
    assert v is not None
    wait = v["waiting_for_board"]
    phone.goto(f"{server.url}/#/game/{gid}")
    expect(phone.locator("#hand-over")).to_be_visible()
    expect(phone.locator(".play-turn")).to_contain_text(re.compile(r"Hand \d+ is over: waiting for the board"))
    shows_wait(phone, wait)
    # the list sits above the panel, under the heading
    box = phone.evaluate("""() => [document.querySelector('#play-wait').getBoundingClientRect().bottom,
        document.querySelector('#hand-over').getBoundingClientRect().top]""")
    assert box[0] <= box[1] + 1, box
    shot(phone, "handover-wait")
    fix_board(server, token, wait)
    expect(phone.locator("#play-wait")).to_have_count(0)
    expect(phone.locator("#hand-over")).to_be_visible()  # until the player moves on
    past_hand_over(phone, server, gid, token)
    expect(phone.locator("#hand-over")).to_have_count(0)


def to_a_full_turn(phone: Page, server: LiveServer, gid: str, token: str, melds: int = 0) -> dict[str, Any]:
    """Play seat 0 (the board kept in step) to the start of one of its turns with a full
    hand and at least ``melds`` melds on the table; its view then."""
    for _ in range(400):
        v = my_turn_free(server, gid, token, phone)
        if len(v["hand"]) >= 6 and any(a["type"] == "draw" for a in v["legal_actions"]) \
                and len(v["public"]["table"]["melds"]) >= melds:
            return v
        D._step(server, v=v, gid=gid, token=token, keep=not melds)  # noqa: SLF001
    raise AssertionError(f"seat 0 never started a turn with a full hand and {melds} melds on the table")


def test_held_back_moves_are_one_line_and_leave_the_hand_in_reach(phone: Page, server: LiveServer) -> None:
    """The phone's own turn, with a full hand, waits for the board (a chip nobody asked
    for): its moves are held back as one line under the reason, naming the first and
    counting the rest (as disabled buttons they pushed the hand under the moves at
    390x844); once the board agrees they are buttons again, the same moves."""
    join(phone, server)
    token = phone.evaluate("localStorage.getItem('gingo.token')")
    gid = deal(phone, "gingo", skip_board=False)
    to_a_full_turn(phone, server, gid, token)
    board = server.get("/api/v1/board")
    stray = next(s for s in range(52) if board["expected"][s] == "." and board["sensed"][s] == ".")
    sim(server, token, stray, 2)
    try:
        expect(phone.locator(".play-turn")).to_contain_text("Your turn: waiting for the board")
        held = phone.locator("#play-held")
        expect(held).to_contain_text(re.compile(r"^Once the board agrees: .+(, and \d+ more moves?)?\.$"))
        said = held.inner_text()
        expect(phone.locator("#play-moves button.play-move, #play-moves button.play-dig")).to_have_count(0)
        hand_in_reach(phone)
    finally:
        sim(server, token, stray, None)
    expect(phone.locator("#play-wait")).to_have_count(0)
    expect(phone.locator("#play-held")).to_have_count(0)
    buttons = phone.locator("#play-moves button.play-move, #play-moves button.play-dig")
    expect(buttons.first).to_be_enabled()
    texts = [b.inner_text() for b in buttons.all()]
    more = len(texts) - 1
    assert said == f"Once the board agrees: {texts[0]}" + (f", and {more} more move{'s' if more > 1 else ''}." if more else "."), \
        (said, texts)
    hand_in_reach(phone)


def test_skip_the_board_never_waits(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    token = phone.evaluate("localStorage.getItem('gingo.token')")
    gid = deal(phone, "gingo")  # Skip the board ticked
    v = my_turn_free(server, gid, token)
    board = server.get("/api/v1/board")
    stray = next(s for s in range(52) if (board.get("expected") or "." * 52)[s] == "." and (board["sensed"] or "." * 52)[s] == ".")
    sim(server, token, stray, 2)  # a chip the game never asked for
    try:
        server.wait_until("/api/v1/board", lambda b: (b["sensed"] or ".")[stray:stray + 1] == "2")
        assert D.view(server, gid, token)["waiting_for_board"] is None
        moves = phone.locator("#play-moves button.play-move")
        expect(moves.first).to_be_enabled()
        expect(phone.locator("#play-wait")).to_have_count(0)
        tap_move(phone, moves.first)  # the game goes on
        assert D.view(server, gid, token)["version"] > v["version"]
        expect(phone.locator("#play-wait")).to_have_count(0)
    finally:
        sim(server, token, stray, None)


def test_a_long_wait_on_your_own_turn_keeps_the_hand_and_the_whole_list_in_reach(phone: Page, server: LiveServer) -> None:
    """Chips knocked about at the start of the phone's own turn: the other side's chip on
    several of the game's chips (to bump) and stray chips of both sides on many empty
    spaces. At 390x844 the list of what to do stays readable in full and the hand stays
    in reach above it."""
    join(phone, server)
    token = phone.evaluate("localStorage.getItem('gingo.token')")
    gid = deal(phone, "gingo", skip_board=False)
    to_a_full_turn(phone, server, gid, token, melds=1)
    board = server.get("/api/v1/board")
    expected, sensed = board["expected"], board["sensed"]
    chips = [s for s in range(52) if expected[s] != "."][:4]
    empty = [s for s in range(52) if expected[s] == "." and sensed[s] == "."]
    strays = [(s, 2) for s in empty[:6]] + [(s, 1) for s in empty[6:12]]
    moved = [(s, 3 - int(expected[s])) for s in chips] + strays
    try:
        for s, side in moved:
            sim(server, token, s, side)
        expect(phone.locator("#play-wait")).to_have_attribute("data-count", str(len(moved)))
        expect(phone.locator("#play-held")).to_contain_text("Once the board agrees: ")
        shows_wait(phone, D.view(server, gid, token)["waiting_for_board"])
        # one sentence per kind and side: the bumps, the stray chips of each side
        expect(phone.locator("#play-wait .play-wait-bump")).to_have_count(len({expected[s] for s in chips}))
        expect(phone.locator("#play-wait .play-wait-lift")).to_have_count(2)
        hand_in_reach(phone)
        # the list is on screen, and what does not fit scrolls inside it (by touch, or by
        # the keyboard: it takes the focus)
        box = phone.evaluate("""() => { const w = document.querySelector('#play-wait'), b = w.getBoundingClientRect();
                                        return {top: b.top, bottom: b.bottom, screen: innerHeight, tab: w.tabIndex,
                                                scroll: w.scrollHeight, client: w.clientHeight}; }""")
        assert box["top"] >= 0 and box["bottom"] <= box["screen"], f"the list runs off the screen: {box}"
        assert box["scroll"] > box["client"] and box["tab"] == 0, f"the long list does not scroll in its box: {box}"
        expect(phone.locator("#play-wait")).to_have_class(re.compile(r"\bmore\b"))  # its bottom edge glows
        phone.locator("#play-wait").evaluate("w => { w.scrollTop = w.scrollHeight; }")
        expect(phone.locator("#play-wait .play-wait-lift").last).to_be_in_viewport()
        expect(phone.locator("#play-wait")).not_to_have_class(re.compile(r"\bmore\b"))  # the end: no glow
    finally:
        for s, _ in moved:
            sim(server, token, s, None if expected[s] == "." else int(expected[s]))
    expect(phone.locator("#play-wait")).to_have_count(0)
