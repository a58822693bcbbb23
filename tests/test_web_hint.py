"""The bots' level and the hint on the Play screen, in real headless Chromium at 390 x 844
against the real service: a Gin Rummy game dealt against an Easy bot from the deal form
(its line of help follows the choice, the game keeps the level), then on the phone's turn
a tap on Hint: its words name a move the page offers, "Hints used: 1" shows, the words go
after the next move, and a hint asked from a screen that has not caught up (another tab
of the same phone moved) is refused in plain words.

The bot waits BOT_DELAY seconds before each move, so the bot's turn lasts long enough to
be seen (and asked about) from the page."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.live_server import LiveServer
from tests.test_web import join
from tests.test_web_play import my_turn
from tests.web_helpers import phone_page

from playwright.sync_api import Browser, Page, Route, expect  # noqa: E402

BOT_DELAY = "2"
pytestmark = [pytest.mark.browser, pytest.mark.serve(env={"GINGO_BOT_DELAY": BOT_DELAY})]
HELP = {"easy": "Easy: plays for the least deadwood", "normal": "Normal: plays sound cards",
        "strong": "Strong: also reads what you took and threw"}
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@pytest.fixture()
def phone(browser: Browser) -> Iterator[Page]:  # noqa: F811
    with phone_page(browser, name="the phone") as pg:
        yield pg


def public_get(server: LiveServer, path: str) -> Any:
    with urllib.request.urlopen(server.url + path, timeout=10) as r:
        return json.loads(r.read())


def as_phone(page: Page, path: str) -> dict[str, Any]:
    """GET ``path`` with the phone's own token (its seat's view, a hint): status and body."""
    out: dict[str, Any] = page.evaluate("""async (p) => {
      const r = await fetch(p, {headers: {Authorization: 'Bearer ' + localStorage.getItem('gingo.token')}});
      return {status: r.status, body: await r.json()};
    }""", path)
    return out


def face(card: str) -> str:
    """A card as the page and the hint write it: 9C -> 9♣."""
    return card[:-1] + SUITS[card[-1]]


def move_words(action: dict[str, Any]) -> re.Pattern[str]:
    """The words of the page's button for ``action`` (a move without a card of the hand)."""
    kind = action["type"]
    if kind == "draw":
        return re.compile("^Draw from the stock$" if action.get("source") == "stock" else "^Take ")
    if kind == "pass":
        return re.compile("^(Pass|Give up the last discard)$")
    if kind == "choose_deal":
        return re.compile("^Deal first$" if action.get("deal") else "^Let the other deal$")
    if kind == "big_gin":
        return re.compile("^Big gin$")
    raise AssertionError(f"a move with no card of the hand expected, got {action}")


def deal_easy(phone: Page, server: LiveServer) -> str:
    """Deal Gin Rummy against one bot at level Easy from the Play screen's form; the game's id.
    The help line under "Bots' level" follows each choice."""
    phone.click("#nav a[data-nav='play']")
    phone.click("#play-form .seg[aria-label='game'] button[data-value='gin']")
    expect(phone.locator("#play-bot-1")).to_be_checked()
    help_line = phone.locator("#play-level-help")
    expect(help_line).to_contain_text(HELP["strong"])  # the level a new game starts with
    for level in ("normal", "easy"):
        phone.click(f"#play-level button[data-value='{level}']")
        expect(phone.locator(f"#play-level button[data-value='{level}']")).to_have_attribute("aria-pressed", "true")
        expect(help_line).to_contain_text(HELP[level])
        expect(help_line).to_have_count(1)
    phone.fill("#play-name-0", "Ann")
    with phone.expect_response(lambda r: r.url.endswith("/api/v1/games") and r.request.method == "POST") as made:
        phone.click("#play-form button[type=submit]")
    assert made.value.status in (200, 201), made.value.text()
    created = made.value.json()
    game = created.get("game", created)
    assert json.loads(made.value.request.post_data or "{}")["options"] == {"bot_level": "easy"}
    expect(phone.locator("#play")).to_be_visible()
    gid = str(game["id"])
    record = public_get(server, f"/api/v1/games/{gid}")
    record = record.get("game", record)
    assert record["dealt"]["bot_level"] == "easy", record.get("dealt")
    assert record.get("options", {}).get("bot_level", "easy") == "easy", record.get("options")
    return gid


def hinted_move(phone: Page, server: LiveServer, path: str, used: int) -> dict[str, Any]:
    """On the phone's turn: tap Hint, check its words, the count (``used``, on screen and in
    the game's record) and that it names a move the page offers, then play that move by
    taps and check the words are gone. The hinted action."""
    my_turn(phone)
    expect(phone.locator("#play-hint-text")).to_have_text("")
    hint_btn = phone.locator("#play-hint-btn")
    expect(hint_btn).to_be_visible()
    with phone.expect_response(lambda r: r.url.endswith(f"{path}/hint")) as asked:
        hint_btn.tap()
    assert asked.value.status == 200, asked.value.text()
    hint = asked.value.json()
    expect(phone.locator("#play-hint-text")).to_have_text(f"Hint: {hint['text']}.")
    expect(phone.locator("#play-hints-used")).to_have_text(f"Hints used: {used}")
    record = public_get(server, path)
    assert record.get("game", record)["dealt"]["hints"][0] == used  # counted in the game's record

    # the hinted move is one the page offers: legal for the phone's seat, its card in the hand
    view = as_phone(phone, f"{path}/view")["body"]
    action: dict[str, Any] = hint["action"]
    assert action in view["legal_actions"], (action, view["legal_actions"])
    words = phone.locator("#play-hint-text").inner_text()
    if "card" in action:
        card = phone.locator(f".play-card[data-card='{action['card']}']")
        expect(card).to_have_count(1)
        assert face(action["card"]) in words, (face(action["card"]), words)
        card.tap()
        button = phone.locator("#play-moves button.play-move", has_text=face(action["card"])).first
    else:
        button = phone.locator("#play-moves button.play-move", has_text=move_words(action)).first
    expect(button).to_be_visible()
    # the hint's words stay while the player chooses (a card tapped redraws the screen)
    expect(phone.locator("#play-hint-text")).to_have_text(words)
    before = phone.get_attribute("#play", "data-version")
    button.tap()
    phone.wait_for_function("v => document.querySelector('#play').dataset.version !== v", arg=before)
    # gone after the move; the count stays
    expect(phone.locator("#play-hint-text")).to_have_text("")
    expect(phone.locator("#play-hints-used")).to_have_text(f"Hints used: {used}")
    return action


def test_an_easy_bot_and_a_hint_by_taps(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    gid = deal_easy(phone, server)
    path = f"/api/v1/games/{gid}"
    my_turn(phone)
    # the Play screen says the bots' level, in the form's words
    expect(phone.locator("#play-level-line")).to_contain_text("Bots' level: " + HELP["easy"])
    expect(phone.locator("#play-hints-used")).to_have_count(0)
    # the hinted moves, played, to a discard (a card of the hand): the upcard, the draw, the discard
    kinds = []
    for used in range(1, 5):
        kinds.append(hinted_move(phone, server, path, used)["type"])
        if kinds[-1] in ("discard", "knock"):
            break
    assert kinds[-1] in ("discard", "knock"), kinds


def test_a_hint_off_turn_is_refused_in_words(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    gid = deal_easy(phone, server)
    path = f"/api/v1/games/{gid}"
    # a second tab of the same phone (the same token) on the same game, its Hint button showing
    my_turn(phone)
    other = phone.context.new_page()
    errors: list[str] = []
    other.on("pageerror", lambda e: errors.append(str(e)))
    other.goto(phone.url)
    my_turn(other)
    expect(other.locator("#play-hint-btn")).to_be_visible()
    # the second tab stops catching up (its view requests held), and the first plays the turn
    held: list[Route] = []
    holding = [True]

    def hold(route: Route) -> None:
        if holding[0]:
            held.append(route)
        else:
            route.continue_()

    other.route(re.compile(r"/view$"), hold)
    for _ in range(3):  # to the end of the turn: draw (or pass the upcard), then discard
        my_turn(phone)
        before = phone.get_attribute("#play", "data-version")
        moves = phone.locator("#play-moves button.play-move")
        if moves.count():
            texts = moves.all_inner_texts()
            pick = next((i for i, t in enumerate(texts) if "stock" in t or t == "Pass" or t.startswith("Let")), 0)
            moves.nth(pick).tap()
        else:
            phone.locator(".play-fan .play-card").last.tap()
            expect(phone.locator("#play-moves button.play-move").first).to_contain_text(re.compile("Discard|Knock|Gin"))
            phone.locator("#play-moves button.play-move").first.tap()
        phone.wait_for_function("v => document.querySelector('#play').dataset.version !== v", arg=before)
        if "Your turn" not in phone.locator(".play-turn").inner_text():
            break
    # the bot's turn (it waits BOT_DELAY s a move): the phone offers no Hint, and the API refuses one
    expect(phone.locator(".play-turn")).to_contain_text("Bot 1's turn")
    moved = int(phone.get_attribute("#play", "data-version") or -1)
    expect(phone.locator("#play-hint-btn")).to_have_count(0)
    expect(phone.locator("#play-level-line")).to_contain_text("Bots' level: " + HELP["easy"])
    refused = as_phone(phone, f"{path}/hint")
    assert refused["status"] == 409 and refused["body"]["error"]["code"] == "not_your_turn", refused
    assert "Bot 1" in refused["body"]["error"]["message"]
    # the second tab still shows the phone's turn: its Hint is refused in words, and it catches up
    expect(other.locator("#play-hint-btn")).to_be_visible()
    with other.expect_response(lambda r: r.url.endswith(f"{path}/hint")) as asked:
        other.locator("#play-hint-btn").tap()
    assert asked.value.status == 409
    expect(other.locator("#play-error")).to_have_text("It is not your turn now: a hint is for your own turn.")
    expect(other.locator("#play-hint-text")).to_have_text("")
    assert held, "the second tab asked for no view after the refusal"
    holding[0] = False
    for route in held:
        route.continue_()
    # once its requests go through, the second tab shows the game after the phone's move
    other.wait_for_function("v => Number(document.querySelector('#play').dataset.version) >= v", arg=moved)
    other.close()
    assert not errors, f"JavaScript errors on the second tab: {errors}"
    # the refused hint was not counted
    record = public_get(server, path)
    assert record.get("game", record)["dealt"]["hints"][0] == 0


def _second_tab_held(phone: Page) -> tuple[Page, list[Route], list[bool], list[str]]:
    """A second tab of the same phone on the same game at its turn, whose view requests are
    then held (it stops catching up): the tab, the held routes, the switch, its JS errors."""
    other = phone.context.new_page()
    errors: list[str] = []
    other.on("pageerror", lambda e: errors.append(str(e)))
    other.goto(phone.url)
    my_turn(other)
    held: list[Route] = []
    holding = [True]

    def hold(route: Route) -> None:
        if holding[0]:
            held.append(route)
        else:
            route.continue_()

    other.route(re.compile(r"/view$"), hold)
    return other, held, holding, errors


def test_a_move_from_a_screen_behind_is_refused_in_the_tables_words(phone: Page, server: LiveServer) -> None:
    """The Play screen words a refused move by its code (js/api.js's table), not with the
    server's message: a second tab that has not caught up plays a move the first tab has
    already made, the server answers stale_version, the tab says the table's sentence."""
    join(phone, server)
    deal_easy(phone, server)
    my_turn(phone)
    other, held, holding, errors = _second_tab_held(phone)
    moves = other.locator("#play-moves button.play-move")
    expect(moves.first).to_be_visible()
    offered = moves.all_inner_texts()
    # the first tab makes its move
    before = phone.get_attribute("#play", "data-version")
    pick = next((i for i, t in enumerate(offered) if "stock" in t or t == "Pass"), 0)
    phone.locator("#play-moves button.play-move").nth(pick).tap()
    phone.wait_for_function("v => document.querySelector('#play').dataset.version !== v", arg=before)
    # the second tab, still showing the turn before it, taps a move
    with other.expect_response(lambda r: r.url.endswith("/actions")) as answered:
        other.locator("#play-moves button.play-move").nth(pick).tap()
    refusal = answered.value.json()["error"]
    assert answered.value.status == 409 and refusal["code"] == "stale_version", refusal
    words = other.evaluate("async () => (await import('/js/api.js')).WORDS.stale_version")
    expect(other.locator("#play-error")).to_have_text(words)
    assert refusal["message"] not in words
    holding[0] = False
    for route in held:
        route.continue_()
    other.close()
    assert not errors, f"JavaScript errors on the second tab: {errors}"


def test_a_second_tap_on_hint_sends_no_second_request(phone: Page, server: LiveServer) -> None:
    """Hint has a double-tap guard: while a hint is on its way, more taps (a person's double
    tap, a tap on the busy button by force, a click sent to it) ask nothing more, and one
    hint is counted."""
    join(phone, server)
    gid = deal_easy(phone, server)
    path = f"/api/v1/games/{gid}"
    my_turn(phone)
    asked: list[Route] = []
    phone.route(re.compile(r"/hint$"), lambda route: asked.append(route))  # held until released
    hint_btn = phone.locator("#play-hint-btn")
    hint_btn.tap()
    phone.wait_for_function("() => document.querySelector('#play-hint-btn').getAttribute('aria-busy') === 'true'")
    hint_btn.tap(force=True)
    hint_btn.dispatch_event("click")
    phone.evaluate("document.querySelector('#play-hint-btn').click()")
    phone.wait_for_timeout(300)  # a second request would have reached the route by now
    assert len(asked) == 1, f"{len(asked)} hint requests for one hint"
    with phone.expect_response(lambda r: r.url.endswith(f"{path}/hint")) as answered:
        asked[0].continue_()
    phone.unroute(re.compile(r"/hint$"))
    assert answered.value.status == 200, answered.value.text()
    expect(phone.locator("#play-hint-text")).to_have_text(f"Hint: {answered.value.json()['text']}.")
    expect(phone.locator("#play-hints-used")).to_have_text("Hints used: 1")
    expect(phone.locator("#play-hint-btn")).not_to_have_attribute("aria-busy", "true")
    record = public_get(server, path)
    assert record.get("game", record)["dealt"]["hints"][0] == 1
    # once answered, Hint asks again
    with phone.expect_response(lambda r: r.url.endswith(f"{path}/hint")) as again:
        phone.locator("#play-hint-btn").tap()
    assert again.value.status == 200
    expect(phone.locator("#play-hints-used")).to_have_text("Hints used: 2")


def test_a_knock_that_is_gin_says_the_games_own_word(phone: Page, server: LiveServer) -> None:
    """The move button of a knock that is gin says the game's word for gin (Ginski's
    "Ginski", Gin Rummy's "Gin"), as each game's rules give it: the page's own labelling
    in Chromium on the rules GET /api/v1/variants serves."""
    phone.goto(server.url + "/")
    out: dict[str, Any] = phone.evaluate("""async () => {
      const pc = await import("/js/play_cards.js");
      const { deckFrom } = await import("/js/cards.js");
      const list = (await (await fetch("/api/v1/variants")).json()).variants.filter(v => v.gin_word);
      const out = {};
      for (const v of list) {
        const deck = deckFrom(v.deck);
        const card = deck.name(deck.columns[0].key, 5);
        const view = { endings: { [card]: "gin" }, public: {} };
        const knock = { endings: { [card]: "knock" }, public: {} };
        out[v.name] = { word: v.gin_word, big: v.big_word, card, face: pc.face(card, deck),
          gin: pc.label({ type: "knock", card }, view, deck, v), knock: pc.label({ type: "knock", card }, knock, deck, v),
          bigGin: pc.label({ type: "big_gin" }, view, deck, v) };
      }
      return out;
    }""")
    assert set(out) == {"gin", "color_gin", "ginski"}
    for name, got in out.items():
        word = got["word"][0].upper() + got["word"][1:]
        assert got["gin"] == f"{word}: discard {got['face']}", (name, got)
        assert got["knock"] == f"Knock with {got['face']}", (name, got)
        assert got["bigGin"] == got["big"][0].upper() + got["big"][1:], (name, got)
    assert out["ginski"]["gin"].startswith("Ginski: discard") and out["gin"]["gin"].startswith("Gin: discard")
