"""Whole dealt matches on the phone page in real headless Chromium (390 x 844, taps) against
the real service, one per game: every hand ends with the hand-over panel (every hand face
up with its melds, lay-offs and deadwood, how the points were made, the totals, said in
the live region) until the player taps Next hand; the match ends with the winner, the
final score with its bonuses, Rematch and the score sheet, which History opens again. On
every turn the Play screen shows the game, its rule set and the score, the other seats'
last moves in words, the card just drawn, and "Gin" for a knock that is gin; the Play tab
returns to the game in progress.

The player here plays simply but not badly: it draws from the stock, throws the card that
leaves the least deadwood (the project's own meld search, on the cards the page shows),
goes gin when it can and knocks on some hands (a seeded choice), so hands end both ways."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from companion import cards as C
from companion import melds as M
from companion.games import find_variant, rummy_variant
from tests import play_drive as D
from tests.live_server import LiveServer
from tests.test_web import join, shot
from tests.test_web_play import on_screen
from tests.web_helpers import phone_page

from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.serve(env={"GINGO_BOT_DELAY": "0"})]

SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
MAX_STEPS = 900  # taps in one match, at most (a match is far fewer)


@pytest.fixture()
def phone(browser: Browser) -> Iterator[Page]:  # noqa: F811
    with phone_page(browser, 390, 844) as pg:
        yield pg


def face(name: str) -> str:
    """A card as the page writes it: 9♣ (Ginski's colour cards and the jokers as named)."""
    card, _, stands = name.partition("=")
    m = re.fullmatch(r"(10|[A2-9JQK])([SHDC])", card)
    out = m.group(1) + SUIT[m.group(2)] if m else card
    return f"{out} as {face(stands)}" if stands else out


def tap_move(page: Page, button: Any) -> None:
    """Tap a move and wait for the game after it (and the bots' moves); an error the page
    shows instead fails the test with its words."""
    before = page.get_attribute("#play", "data-version")
    words = button.inner_text()
    button.tap()
    page.wait_for_function("""v => document.querySelector('#play').dataset.version !== v
        || ((document.querySelector('#play-error') || {}).textContent || '').trim()""", arg=before)
    err = page.locator("#play-error")
    if page.get_attribute("#play", "data-version") == before and err.count():
        raise AssertionError(f"{words!r} was refused: {err.inner_text()}")


def token(page: Page) -> str:
    return str(page.evaluate("localStorage.getItem('gingo.token')"))


def game_id(page: Page) -> str:
    return str(page.evaluate("decodeURIComponent(location.hash.split('/')[2] || '')"))


def settled(page: Page) -> str:
    """Wait until the phone has something to do: 'end' (the match end), 'hand' (a hand-over
    panel) or 'turn' (its turn)."""
    page.wait_for_function("""() => document.querySelector('#match-end #score-table, #match-end #match-winner')
        || document.querySelector('#hand-over') || /Your turn/.test((document.querySelector('.play-turn') || {}).textContent || '')""")
    if page.locator("#match-end").count():
        return "end"
    return "hand" if page.locator("#hand-over").count() else "turn"


def deal(page: Page, variant: str, players: int) -> str:
    page.click("#nav a[data-nav='play']")
    if page.locator("#play-form").count() == 0:  # a game in progress: the Play tab went back to it
        page.goto(page.url.split("#")[0] + "#/play/new")
    page.click(f"#play-form .seg[aria-label='game'] button[data-value='{variant}']")
    if players != 2:
        page.click(f"#play-form .seg[aria-label='number of players'] button[data-value='{players}']")
    page.fill("#play-name-0", "Ann")
    if variant == "gingo":
        page.check("#play-skip")
    page.click("#play-form button[type=submit]")
    expect(page.locator("#play")).to_be_visible()
    return game_id(page)


class Player:
    """Plays seat 0 of one match by taps and checks the screen as it goes."""

    def __init__(self, page: Page, server: LiveServer, variant: str, players: int) -> None:
        self.page, self.server, self.variant, self.players = page, server, variant, players
        self.rng = random.Random(variant)
        self.meld_rules = None if variant == "gingo" else rummy_variant(variant).meld_rules
        self.gid = ""
        self.panels = 0
        self.gins = 0
        self.knocks = 0
        self.drawn_marked = 0
        self.last_moves = 0
        self.steps = 0  # the phone's taps of a move
        self.knock_hand = False
        word = str(getattr(find_variant(variant), "gin_word", "gin"))
        self.gin_word = word[0].upper() + word[1:]  # what a knock that is gin says ("Ginski: discard ...")

    def view(self) -> dict[str, Any]:
        return D.view(self.server, self.gid, token(self.page))

    def game(self) -> dict[str, Any]:
        g = D.call(self.server, "GET", f"/api/v1/games/{self.gid}")
        return dict(g.get("game") or g)

    # -- the screen on every turn ----------------------------------------------------------------
    def check_turn(self, v: dict[str, Any]) -> None:
        page = self.page
        score = page.locator("#play-score")
        expect(score).to_be_visible()
        label = {"gin": "Gin Rummy", "color_gin": "Color Gin", "ginski": "Ginski", "gingo": "Gin-Go"}[self.variant]
        expect(score).to_contain_text(label)
        g = self.game()
        if g.get("rules_label"):
            expect(score).to_contain_text(str(g["rules_label"]))
        if self.variant != "gingo":  # the totals of the match, each seat's
            totals = v["public"]["match"]["totals"]
            for s, name in enumerate(g["players"]):
                t = totals[s]
                expect(score).to_contain_text(name if isinstance(t, dict) else f"{name} {t}")
        elif v["public"].get("phase") == "play":  # the board's foot says how far each side is from a link
            expect(page.locator(".play-chip-line")).to_contain_text("to link")
        recent = v["public"].get("recent") or []
        others = {m["seat"] for m in recent if m["seat"] != 0}
        for s in others:  # each other seat's last move, in words, beside its name
            m = next(m for m in reversed(recent) if m["seat"] == s)
            words = page.locator(f".play-others li[data-seat='{s}'] .play-last-move")
            expect(words).to_be_visible()
            if m["type"] == "discard":
                expect(words).to_contain_text(f"threw {face(m['card'])}")
            elif m["type"] == "draw" and m.get("source") != "discard":
                expect(words).to_contain_text("drew" if self.variant == "gingo" else "drew from the stock")
            self.last_moves += 1
        drawn = v.get("drawn")
        marked = page.locator(".play-card.drawn")
        if drawn:
            expect(marked).to_have_count(1)
            assert marked.get_attribute("data-card") == drawn
            assert "just drawn" in (marked.get_attribute("aria-label") or "")
            self.drawn_marked += 1
        else:
            expect(marked).to_have_count(0)

    # -- a hand that ends ------------------------------------------------------------------------------
    def check_hand_over(self) -> None:
        page = self.page
        panel = page.locator("#hand-over")
        expect(panel).to_be_visible()
        g = self.game()
        # every hand gets its panel, in order, even when a bot ended the next hand before
        # this phone drew again (two hands over between two looks)
        n = int(panel.get_attribute("data-hand") or 0)
        assert n == self.panels + 1, f"the panel shows hand {n}, after {self.panels} panels"
        summary = g["dealt"]["hand_overs"][n - 1]
        assert summary["hand"] == n
        expect(page.locator("#handover-title")).to_contain_text(f"Hand {n}")
        names = g["players"]
        if self.variant == "gingo":
            for seat, cards in summary["captured"].items():
                sec = panel.locator(f".handover-seat[data-seat='{seat}']")
                for c in cards:
                    expect(sec).to_contain_text(face(c))
            expect(page.locator("#handover-totals")).to_contain_text("Links")
        else:
            r = summary["result"]
            expect(panel.locator(".handover-seat")).to_have_count(self.players)
            for s in range(self.players):
                sec = panel.locator(f".handover-seat[data-seat='{s}']")
                expect(sec).to_contain_text(names[s])
                expect(sec).to_contain_text(f"Deadwood {r['deadwood'][s]}")
                text = sec.inner_text()
                every = [c for m in r["melds"][s] for c in m] + r["layoffs"][s] + r["deadwood_cards"][s]
                for c in every:  # both hands face up: every card of every hand
                    assert face(c) in text, f"hand {n}: {c} of seat {s} is not shown: {text}"
            totals = page.locator("#handover-totals")
            for s, name in enumerate(names):
                expect(totals).to_contain_text(name)
            if summary.get("breakdown"):
                expect(page.locator("#handover-breakdown")).to_contain_text(f"scores {summary['breakdown']['total']}")
            if self.variant == "color_gin" and r["extra"].get("spoiled") is not None:
                expect(page.locator("#handover-suits")).to_contain_text("Spoiled suits")
        # said to a screen reader, and Next hand in reach of a thumb
        expect(page.locator("#announcer")).to_contain_text(f"Hand {n}")
        on_screen(page, "#handover-next")
        self.panels += 1
        if self.panels == 1:
            shot(page, f"handover-{self.variant}")
        page.locator("#handover-next").tap()
        # the table again, or the next hand's panel when that hand ended too meanwhile
        page.wait_for_function("""n => { const p = document.querySelector('#hand-over');
            return !p || p.dataset.hand === String(n + 1); }""", arg=n)

    # -- one turn ----------------------------------------------------------------------------------
    def best_discard(self, hand: list[str], allowed: list[str]) -> str:
        def dw(card: str) -> int:
            rest = C.cards_mask([C.parse_card(x) for x in hand if x != card])
            return int(M.deadwood_of_mask(rest, self.meld_rules))
        return min(allowed, key=lambda c: (dw(c), hand.index(c)))

    def turn(self) -> None:
        page = self.page
        self.steps += 1
        v = self.view()
        self.check_turn(v)
        legal = v["legal_actions"]
        buttons = page.locator("#play-moves button.play-move")
        if self.variant == "gingo":
            self.gingo_turn(v, buttons)
            return
        texts = buttons.all_inner_texts() if buttons.count() else []
        endings = v.get("endings") or {}
        # a knock that is gin says the game's word for gin (Ginski: "Ginski"); any other knock says Knock
        gin = self.gin_word
        for t in texts:
            assert gin == "Gin" or not t.startswith("Gin:"), (t, "says Gin, not", gin)
            if t.startswith((f"{gin}:", "Knock")):
                card = next(c for c in endings if t.endswith(face(c)))
                assert t.startswith(f"{gin}:") == (endings[card] == "gin"), (t, endings)
        kinds = {a["type"] for a in legal}
        if "draw" in kinds or "pass" in kinds or "choose_deal" in kinds:
            pick = next((i for i, t in enumerate(texts) if "stock" in t or t == "Pass" or t.startswith("Deal")), 0)
            on_screen(page, "#play-moves button.play-move")
            tap_move(page, buttons.nth(pick))
            return
        gins = [c for c, k in endings.items() if k == "gin"]
        knocks = [c for c, k in endings.items() if k == "knock"]
        hand = list(v["hand"])
        if "big_gin" in kinds:
            tap_move(page, page.locator("#play-moves button.play-move", has_text=re.compile("^Big")).first)
            self.gins += 1
            return
        if gins or (knocks and self.knock_hand):
            card = self.best_discard(hand, gins or knocks)
            page.locator(f".play-card[data-card='{card}']").tap()
            word = f"{self.gin_word}:" if gins else "Knock"
            btn = page.locator("#play-moves button.play-move", has_text=re.compile(f"^{re.escape(word)}")).first
            expect(btn).to_be_visible()
            if gins:
                self.gins += 1
            else:
                self.knocks += 1
            tap_move(page, btn)
            return
        allowed = [a["card"] for a in legal if a["type"] == "discard"]
        card = self.best_discard(hand, allowed)
        page.locator(f".play-card[data-card='{card}']").tap()
        btn = page.locator("#play-moves button.play-move", has_text=re.compile("^Discard")).first
        expect(btn).to_be_visible()
        tap_move(page, btn)

    def gingo_turn(self, v: dict[str, Any], buttons: Any) -> None:
        page = self.page
        kinds = {a["type"] for a in v["legal_actions"]}
        if kinds & {"draw", "setup", "new_hand", "choose_deal"}:
            texts = buttons.all_inner_texts()
            pick = next((i for i, t in enumerate(texts) if "stock" in t or t.startswith(("Set up", "Deal"))), 0)
            tap_move(page, buttons.nth(pick))
            return
        melds = [a for a in v["legal_actions"] if a["type"] in ("meld", "hit")]
        if melds:
            a = melds[0]
            for c in a["cards"]:
                page.locator(f".play-card[data-card='{c}']").tap()
            btn = page.locator("#play-moves button.play-move.primary").first
            expect(btn).to_be_visible()
            tap_move(page, btn)
            return
        discards = [a for a in v["legal_actions"] if a["type"] == "discard"]
        a = discards[-1]
        page.locator(f".play-card[data-card='{a['card']}']").tap()
        btn = page.locator("#play-moves button.play-move").first
        expect(btn).to_be_visible()
        tap_move(page, btn)

    # -- the whole match -----------------------------------------------------------------------------
    def play(self) -> None:
        self.gid = deal(self.page, self.variant, self.players)
        hand = 0
        for _ in range(MAX_STEPS):
            what = settled(self.page)
            if what == "end":
                return
            if what == "hand":
                self.check_hand_over()
                continue
            v = self.view()
            n = v["public"].get("hands_over", 0)
            if n != hand:
                hand = n
                # knock on half the hands (Color Gin: on most, its matches run long), hold out for gin on the rest
                self.knock_hand = self.rng.random() < (0.8 if self.variant == "color_gin" else 0.5)
            self.turn()
        raise AssertionError(f"the {self.variant} match did not end in {MAX_STEPS} taps")

    def check_match_end(self) -> None:
        page = self.page
        g = self.game()
        names = g["players"]
        end = page.locator("#match-end")
        expect(end).to_be_visible()
        expect(page.locator("#match-winner")).to_be_visible()
        if self.variant == "gingo":
            winner = g["dealt"]["table"]["winner"]
            seats = g["rules"]["sides"][str(winner)]
            expect(page.locator("#match-winner")).to_contain_text(names[seats[0]])
            expect(page.locator("#score-table tbody tr")).to_have_count(len(g["dealt"]["hand_overs"]))
        else:
            m = g["match"]
            w = m["winner"]
            expect(page.locator("#match-winner")).to_contain_text(f"{names[w]} wins the match" if w is not None else "tie")
            expect(page.locator("#score-table tbody tr")).to_have_count(len(g["hands"]))
            if not g["rules"].get("suit_columns"):
                for s in range(len(names)):
                    expect(page.locator(f"#score-table td[data-final-seat='{s}']")).to_have_text(str(m["final"][s]))
                labels = {"game": "Game bonus", "box": "Boxes", "shutout": "Shutout bonus"}
                for b in m["bonuses"]:
                    if b["kind"] in labels:
                        expect(page.locator(f"#score-table tr.bonus[data-bonus='{labels[b['kind']]}']")).to_have_count(1)
                        expect(page.locator("#match-bonuses")).to_contain_text(labels[b["kind"]])
            expect(page.locator("#final-summary")).to_be_visible()
        expect(page.locator("#match-hands details")).to_have_count(len(g["dealt"]["hand_overs"]))
        expect(page.locator("#rematch-btn")).to_be_visible()
        if self.variant in ("gin", "gingo"):  # the two docs/play.md shows
            shot(page, f"match-end-{self.variant}", full=True)


@pytest.mark.parametrize("variant,players", [("gin", 2), ("color_gin", 2), ("ginski", 3), ("gingo", 2)])
def test_a_whole_match_ends_like_a_match(phone: Page, server: LiveServer, variant: str, players: int) -> None:
    join(phone, server)
    p = Player(phone, server, variant, players)
    p.play()
    g = p.game()
    hands = len(g["dealt"]["hand_overs"])
    # every hand that ended was shown (the last one too, before the match end), one panel each
    assert p.panels == hands, (p.panels, hands)
    # another seat's last move and the card just drawn were on screen (unless the bots ended the
    # match within the phone's first few taps: a three-player Ginski knock can, 1 run in ~20)
    assert (p.last_moves > 0 and p.drawn_marked > 0) or p.steps < 6, (p.steps, p.last_moves, p.drawn_marked)
    print(f"\n{variant}: {hands} hands, {p.panels} panels, {p.gins} gins, {p.knocks} knocks, {p.drawn_marked} drawn marks, {p.last_moves} last-move checks")
    p.check_match_end()
    # History opens the dealt game to the same sheet
    phone.goto(phone.url.split("#")[0] + "#/history")
    link = phone.locator(f"#history-list a[href='#/game/{p.gid}']")
    expect(link).to_have_count(1)
    link.click()
    expect(phone.locator("#match-end #score-table")).to_be_visible()
    expect(phone.locator("#hand-over")).to_have_count(0)
    # Rematch: a new game, dealt at once, this phone in the same seat
    phone.locator("#rematch-btn").tap()
    phone.wait_for_function("id => !location.hash.endsWith(id)", arg=p.gid)
    expect(phone.locator("#play .play-turn")).to_be_visible()
    assert D.view(server, game_id(phone), token(phone))["seat"] == 0


def test_the_play_tab_returns_to_the_game_in_progress(phone: Page, server: LiveServer) -> None:
    join(phone, server)
    gid = deal(phone, "gin", 2)
    expect(phone.locator("#play .play-turn")).to_be_visible()
    phone.click("#nav a[data-nav='games']")
    expect(phone.locator("#game-list")).to_be_attached()
    phone.click("#nav a[data-nav='play']")
    phone.wait_for_function("id => location.hash === '#/game/' + id", arg=gid)
    expect(phone.locator("#play-score")).to_contain_text("Gin Rummy")
    # #/play/new always offers a fresh deal
    phone.goto(phone.url.split("#")[0] + "#/play/new")
    expect(phone.locator("#play-form")).to_be_visible()
