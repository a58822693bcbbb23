"""What the Play screen reads between moves and hands, through the real app: the latest moves
in public form (``public.recent``), the card a seat just drew (its own ``drawn``), how each
knock ends (``endings``) and the hand-over summaries (``public.last_hand``,
``dealt.hand_overs``). Whole matches of every game: no move of the hand in play ever names
a hidden card, the drawn card goes to its holder only, a summary appears only once its
hand is over and agrees with the scored hand, and a knock is called gin exactly when the
cards kept all meld."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import cards as C
from companion import melds as M
from companion.games.gingo.play import bot_action
from tests.test_dealt import Phones, create
from tests.test_dealt_hidden import Hidden, cards_in


@pytest.fixture()
def phones(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Phones]:
    p = Phones(tmp_path / "data", request.node.name)
    try:
        yield p
    finally:
        p.close()


def current_hand(d: Any) -> int:
    by_moves = d.variant.play_style == "actions"
    return int(d.engine.table.as_dict().get("hand") or 0) if by_moves else int(d.engine.hand_number)


@pytest.mark.parametrize("variant,players", [("gin", 2), ("color_gin", 2), ("ginski", 3), ("gingo", 2)])
def test_a_whole_match_shows_moves_and_hand_overs_without_a_hidden_card(phones: Phones, variant: str,
                                                                         players: int) -> None:
    c = phones.client
    names = ["Ann", "Bot 1", "Bot 2", "Bot 3"][:players]
    extra = {"skip_board": True} if variant == "gingo" else {}
    g = create(phones, variant, names, list(range(1, players)), **extra)
    gid = g["id"]
    c.post(f"/api/v1/games/{gid}/seats/0", headers=phones.ann)
    rng = random.Random(variant)
    hidden, hand, steps, summaries, drawn_seen = Hidden(), -1, 0, 0, 0
    while steps < 3000:
        held = phones.table.held(gid)
        d = held.dealt
        if current_hand(d) != hand:  # a new hand: what was face up in the last one is not any more
            hand, hidden = current_hand(d), Hidden()
        secret = hidden.update(d.engine, d.variant.play_style == "actions")
        own = {C.card_name(x) for x in d.hand_cards(0)}
        mine = c.get(f"/api/v1/games/{gid}/view", headers=phones.ann).json()
        anon = c.get(f"/api/v1/games/{gid}/view").json()
        bob = c.get(f"/api/v1/games/{gid}/view", headers=phones.bob).json()
        for who, v in (("seat 0", mine), ("no token", anon), ("a phone without a seat", bob)):
            pub = v["public"]
            now = [m for m in pub["recent"] if m["hand"] == hand]
            for m in now:  # a draw from the stock names no card; from the pile, the card taken
                if m["type"] == "draw" and m.get("source") != "discard":
                    assert set(m) <= {"seat", "hand", "type", "source"}, m
            # what a move laid face up (a discard, a meld, a hit, a dig) was public when it was
            # played, even if a bot took it back into a hand within the same request
            shown = cards_in([{k: m.get(k) for k in ("card", "cards", "meld")} for m in now
                              if m["type"] in ("discard", "meld", "hit", "take")])
            leaked = cards_in(now) & secret - shown
            assert not leaked, f"{who}: the moves of hand {hand} name hidden cards {sorted(leaked)}: {now}"
            last = pub["last_hand"]
            assert (last is None) == (pub["hands_over"] == 0)
            if last is not None:
                assert last["hand"] == pub["hands_over"], "a summary of a hand that is not over"
        assert anon["drawn"] is None and bob["drawn"] is None and anon["endings"] == {} and bob["endings"] == {}
        if mine["drawn"] is not None:  # seat 0's own card, never another's
            assert mine["drawn"] in own and mine["drawn"] in mine["hand"]
            drawn_seen += 1
        if d.finished:
            break
        legal = mine["legal_actions"]
        assert legal, "seat 0 has nothing to do but the game waits for it"
        if d.variant.play_style != "actions":
            check_endings(mine, d)
            knocks = [a for a in legal if a["type"] in ("knock", "big_gin")]
            draws = [a for a in legal if a["type"] == "draw" and a.get("source") == "stock"]
            action = knocks[0] if knocks and rng.random() < 0.5 else (draws[0] if draws else rng.choice(
                [a for a in legal if a["type"] != "knock"] or legal))
        else:
            action = bot_action(d.engine, rng)
        before = d.hands_over()
        r = c.post(f"/api/v1/games/{gid}/actions", json={"action": action}, headers=phones.ann)
        assert r.status_code == 200, r.text
        steps += 1
        if phones.table.held(gid).dealt.hands_over() > before:
            summaries += 1
    game = c.get(f"/api/v1/games/{gid}").json()
    game = game.get("game") or game
    assert game["finished"], f"the {variant} match did not end in {steps} moves"
    overs = game["dealt"]["hand_overs"]
    assert len(overs) == phones.table.held(gid).dealt.hands_over() >= 1
    assert summaries >= 1 and drawn_seen >= 1
    if variant == "gingo":
        ends = game["dealt"]["table"]["hands"]
        assert [s["hand"] for s in overs] == [e["hand"] for e in ends]
        assert [s["winner"] for s in overs] == [e["winner"] for e in ends]
        assert overs[-1]["finished"] and overs[-1]["winner"] == game["dealt"]["table"]["winner"]
        return
    # each summary is the hand as scored, every card of every hand in it, the points explained
    assert [s["result"] for s in overs] == [x["result"] for x in game["hands"]]
    assert overs[-1]["match"] == game["match"] and overs[-1]["finished"]
    deal = phones.table.held(gid).dealt.engine.deal_size
    for s in overs:
        r = s["result"]
        for seat in range(players):
            every = [x for m in r["melds"][seat] for x in m] + r["layoffs"][seat] + r["deadwood_cards"][seat]
            assert len(every) == deal or not every, (seat, r)
        b = s["breakdown"]
        if b is not None:
            pts = r["points"][b["seat"]]
            assert b["total"] == (max(pts.values()) if isinstance(pts, dict) else pts)


def check_endings(view: dict[str, Any], d: Any) -> None:
    """Every knock offered has an ending, "gin" exactly when the kept cards all meld."""
    knocks = [a["card"] for a in view["legal_actions"] if a["type"] == "knock"]
    assert sorted(view["endings"]) == sorted(knocks)
    hand = C.cards_mask([C.parse_card(x) for x in view["hand"]])
    for card, kind in view["endings"].items():
        kept = hand & ~(1 << C.parse_card(card))
        if d.engine.joker_drawn is not None:
            continue  # a co-op joker ends the hand whatever the deadwood
        zero = M.deadwood_of_mask(kept, d.engine.meld_rules) == 0
        assert (kind == "gin") == zero, (card, kind, view["hand"])


def test_the_drawn_card_is_marked_for_its_holder_only_and_not_after_the_turn(phones: Phones) -> None:
    c = phones.client
    g = create(phones, "gin", ["Ann", "Bob"], [])
    gid = g["id"]
    c.post(f"/api/v1/games/{gid}/seats/0", headers=phones.ann)
    c.post(f"/api/v1/games/{gid}/seats/1", headers=phones.bob)
    marked = 0
    for _ in range(40):
        d = phones.table.held(gid).dealt
        seat = d.to_move()
        me, other = (phones.ann, phones.bob) if seat == 0 else (phones.bob, phones.ann)
        v = c.get(f"/api/v1/games/{gid}/view", headers=me).json()
        legal = v["legal_actions"]
        stock = [a for a in legal if a["type"] == "draw" and a.get("source") == "stock"]
        if stock:
            before = set(v["hand"])
            v = c.post(f"/api/v1/games/{gid}/actions", json={"action": stock[0]}, headers=me).json()["view"]
            new = set(v["hand"]) - before
            assert v["drawn"] is not None and {v["drawn"]} == new
            assert c.get(f"/api/v1/games/{gid}/view", headers=other).json()["drawn"] is None
            marked += 1
            continue
        discard = next(a for a in legal if a["type"] in ("discard", "pass"))
        v = c.post(f"/api/v1/games/{gid}/actions", json={"action": discard}, headers=me).json()["view"]
        assert v["drawn"] is None, "the drawn card is still marked after the turn"
    assert marked >= 5


def test_a_table_of_bots_only_waits_after_each_hand_and_one_with_a_phone_does_not(
        phones: Phones, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a bot delay, a table of bots only pauses ``hand_pause`` after each hand (the
    watching phones show the hand-over panel); with a phone in a seat it never does (its
    player taps Next hand). The waits are recorded, not slept."""
    import companion.table.dealing as dealing

    slept: list[float] = []
    monkeypatch.setattr(dealing, "time", type("Clock", (), {"sleep": staticmethod(slept.append)}))
    t = phones.table
    monkeypatch.setattr(t.dealing, "after_dealt", lambda gid: None)  # the bots wait for run_bots below
    t.dealing.hand_pause = 5.0
    gid = t.dealing.create_dealt("gin", players=["Bot A", "Bot B"], bots=[0, 1]).body["id"]
    t.dealing.run_bots(gid, delay=0.01)
    d = t.held(gid).dealt
    assert d.finished and d.hands_over() >= 1
    assert slept.count(5.0) == d.hands_over(), (slept.count(5.0), d.hands_over())
    assert set(slept) == {0.01, 5.0}
    slept.clear()
    g = create(phones, "gin", ["Ann", "Bot 1"], [1])
    phones.client.post(f"/api/v1/games/{g['id']}/seats/0", headers=phones.ann)
    for _ in range(300):  # seat 0 draws and throws; the bot plays on the delay path
        t.dealing.run_bots(g["id"], delay=0.01)
        v = phones.client.get(f"/api/v1/games/{g['id']}/view", headers=phones.ann).json()
        if v["finished"] or phones.table.held(g["id"]).dealt.hands_over() >= 2:
            break
        legal = v["legal_actions"]
        a = next((x for x in legal if x["type"] == "draw" and x.get("source") == "stock"), None) or \
            next((x for x in legal if x["type"] in ("knock", "discard", "pass")), legal[0])
        assert phones.client.post(f"/api/v1/games/{g['id']}/actions", json={"action": a},
                                  headers=phones.ann).status_code == 200
    assert phones.table.held(g["id"]).dealt.hands_over() >= 1
    assert slept and 5.0 not in slept
