"""The deal of a dealt Gin-Go game, checked from what is public: during a hand only its
commitment is public (neither its seed nor the match key shows anywhere a player can
read); the set-up's seed (hand 0) is published once the set-up is done and each hand's
seed when the hand ends, both matching the commitments shown before; and recomputing the
deal from the published seeds, by hand as docs/play.md tells, gives the cards that were dealt."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from companion import cards as C
from companion.play.deal import HashRandom, hand_seed
from companion.games.gingo.play import GingoPlay, bot_action
from tests.test_dealt import Phones, create, phones  # noqa: F401  (the fixture)
from tests.test_dealt_lifecycle import export_texts


def published(events: list[dict[str, Any]]) -> tuple[dict[int, str], dict[int, str]]:
    """The commitments and the seeds the log published, by hand."""
    promised = {c["hand"]: c["commitment"] for c in events[0]["payload"]["commitments"]}
    promised |= {e["payload"]["next"]["hand"]: e["payload"]["next"]["commitment"]
                 for e in events if "next" in e["payload"]}
    seeds = {r["hand"]: r["seed"] for e in events for r in e["payload"].get("revealed", [])}
    return promised, seeds


def test_gingo_publishes_each_seed_after_its_hand_and_the_deal_checks_out(phones: Phones) -> None:  # noqa: F811
    c = phones.client
    gid = create(phones, "gingo", ["Ann", "Bot"], [1], dealer=1, skip_board=True)["id"]
    v = c.post(f"/api/v1/games/{gid}/seats/0", headers=phones.ann).json()
    if v["public"]["phase"] == "setup":  # Ann calls the set-up when the reveal says so (else the bot did)
        setup = v["legal_actions"][0]
        assert setup["type"] == "setup"
        v = c.post(f"/api/v1/games/{gid}/actions", json={"action": setup}, headers=phones.ann).json()["view"]
    # hand 1 is dealt; Ann (left of the dealer) has not moved: her cards and the upcard as dealt
    assert v["public"]["phase"] == "play" and v["public"]["to_move"] == 0 and v["public"]["hand_number"] == 1
    dealt_hand, upcard = sorted(v["hand"]), v["public"]["pile"]
    assert len(upcard) == 1
    key = phones.table.held(gid).dealt.key
    assert key is not None
    events = c.get(f"/api/v1/games/{gid}/events").json()["events"]
    promised, seeds = published(events)
    assert set(promised) == {0, 1} and set(seeds) == {0}  # the set-up is done: its seed is out, hand 1's is not
    text = export_texts(phones, gid) + str(c.get(f"/api/v1/games/{gid}/view", headers=phones.ann).json())
    assert key.hex() not in text and hand_seed(key, 1).hex() not in text
    assert promised[1] in text and [d["seed"] for d in v["public"]["deals"]] == [seeds[0], None]
    # Ann plays hand 1 out (as the bot would)
    rng = random.Random(3)
    for _ in range(2000):
        view = c.get(f"/api/v1/games/{gid}/view", headers=phones.ann).json()
        if view["public"]["deals"][1]["seed"] is not None:
            break
        action = bot_action(phones.table.held(gid).dealt.engine, rng)
        assert c.post(f"/api/v1/games/{gid}/actions", json={"action": action}, headers=phones.ann).status_code == 200
    else:
        raise AssertionError("hand 1 never ended")
    events = c.get(f"/api/v1/games/{gid}/events").json()["events"]
    promised, seeds = published(events)
    assert {0, 1} <= set(seeds) and 2 in promised
    for k, seed in seeds.items():  # every published seed is the one promised before its hand
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == promised[k]
    assert seeds[1] == hand_seed(key, 1).hex()
    assert 2 not in seeds, "hand 2's seed was published while it is being played"
    # by hand, with nothing of the companion but the shuffle (docs/play.md): the deck in card
    # order (jokers 52, 53), shuffled with hand 1's seed, dealt one at a time from the end,
    # starting left of dealer 1 (seat 0); the next card from the end is the upcard
    options = c.get(f"/api/v1/games/{gid}").json()["options"]
    deck = list(range(54 if options["jokers"] else 52))
    HashRandom(bytes.fromhex(seeds[1])).shuffle(deck)
    size = options["deal"] or 9
    hands: list[list[int]] = [[], []]
    for i in range(2 * size):
        hands[(1 + 1 + i) % 2].append(deck.pop())
    assert sorted(C.card_name(x) for x in hands[0]) == dealt_hand
    assert [C.card_name(deck.pop())] == upcard
    # and the set-up too: the published seeds of hands 0 and 1 replay the set-up the log shows
    first = next(e for e in events if e["type"] == "play")["payload"]
    assert first["action"]["type"] == "setup"
    again = GingoPlay(["Ann", "Bot"], options, dealer=1, hand_rng=lambda k: HashRandom(bytes.fromhex(seeds[k])))
    again.apply(first["action"])
    state = c.get(f"/api/v1/games/{gid}").json()["state"]
    assert again.table.as_dict()["suit_rows"] == state["suit_rows"]
    assert sorted(C.card_name(x) for x in again.hands[0]) == dealt_hand
