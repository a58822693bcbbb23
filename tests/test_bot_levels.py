"""The bots' levels and the hint: each bot decides from its seat's knowledge only (the
unseen cards swapped, the same decision), each is deterministic for a seed, the levels
order themselves over a seeded set, and the hint never leaks another seat's cards; the
level and the hint through the real app (a real SQLite file)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.games.gingo.play import search
from companion.games.gingo.play.play import GingoPlay
from companion.games import find_variant, rummy_game
from companion.play.knowledge import knowledge
from companion.play.levels import LEVELS
from companion.play.rummy import RummyGame
from companion.play.sharp import budget, set_budget
from companion.games.gingo.rules.state import side_of
from test_dealt import Phones, create

RUMMY = [("gin", 2), ("color_gin", 2), ("ginski", 3)]


@pytest.fixture(autouse=True)
def unhurried() -> Any:
    """The strong bots' sampling stops at its time budget (a loaded machine would sample
    fewer hands, and choose by time); these tests give it all the time it needs, so what
    they check is the choice itself."""
    before, deals = budget(), search.SAMPLES
    set_budget(60_000)
    search.SAMPLES = 4  # the strong Gin-Go bot plays out 4 deals a decision, not 12: the same code, quicker
    yield
    set_budget(before)
    search.SAMPLES = deals


def seat_action(game: RummyGame, level: str) -> Any:
    """The ``level`` bot's action, as a dealt game asks the game's Variant for it."""
    return find_variant(game.variant).bot(level)(game, None)


def gingo_move(play: GingoPlay, level: str, rng: random.Random) -> Any:
    return find_variant("gingo").bot(level)(play, rng)


def rummy_hint(game: RummyGame, names: list[str]) -> dict[str, Any]:
    return find_variant(game.variant).dealt_hint(game, game.turn, names)


def gingo_hint(play: GingoPlay, seat: int) -> dict[str, Any]:
    return find_variant("gingo").dealt_hint(play, seat, [])


def positions(variant: str, players: int, seed: int, every: int = 3, limit: int = 60) -> list[RummyGame]:
    """Copies of a self-played match at every ``every``-th action (normal bots)."""
    game = rummy_game(variant, players=players, seed=seed)
    out: list[RummyGame] = []
    for i in range(limit * every):
        if game.over:
            break
        if i % every == 0 and game.phase != "first_dealer":
            out.append(game.clone())
        game.apply(seat_action(game, "normal"))
    return out


def swapped(game: RummyGame, seat: int, rng: random.Random) -> RummyGame:
    """``game`` with every card ``seat`` cannot see dealt again (other hands, less the
    cards they are known to hold, and the stock), as another deal that the seat could
    not tell from this one."""
    k = knowledge(game, seat)
    other = game.clone()
    pool = [c for s in range(game.players) if s != seat for c in _cards(game.hands[s] & ~k.held[s])]
    pool += [c for c in game.stock if not game.jokers >> c & 1]
    rng.shuffle(pool)
    for s in range(game.players):
        if s == seat:
            continue
        need = game.hands[s].bit_count() - k.held[s].bit_count()
        mask = k.held[s]
        for c in pool[:need]:
            mask |= 1 << c
        pool = pool[need:]
        other.hands[s] = mask
    stock = pool + [c for c in game.stock if game.jokers >> c & 1]
    rng.shuffle(stock)
    other.stock = stock
    other.rng = random.Random(rng.random())
    assert sorted(stock) != sorted(game.stock) or other.hands != game.hands or len(stock) < 2
    return other


def _cards(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("variant,players", RUMMY)
def test_a_rummy_bot_decides_from_its_seats_knowledge_only(variant: str, players: int, level: str) -> None:
    rng = random.Random(7)
    checked = 0
    for seed in (1, 2, 3):
        for game in positions(variant, players, seed, every=4, limit=25):
            mine = seat_action(game, level)
            for _ in range(2):
                assert seat_action(swapped(game, game.turn, rng), level) == mine, (seed, game.phase)
            checked += 1
    assert checked > 15


@pytest.mark.parametrize("level", LEVELS)
def test_a_gingo_bot_decides_from_its_seats_knowledge_only(level: str) -> None:
    rng = random.Random(3)
    play = GingoPlay(["a", "b"], {}, seed=5)
    checked = 0
    every = 6 if level == "strong" else 1  # the strong bot plays each hand out many times: fewer positions
    for i in range(300):
        if play.phase == "game_over":
            break
        if play.phase == "play" and i % every == 0:
            seat = play.turn
            mine = gingo_move(play, level, random.Random(1)).to_dict()
            other = play.clone()
            opp = 1 - seat
            pool = list(other.hands[opp]) + list(other._st.stock)
            rng.shuffle(pool)
            n = len(other.hands[opp])
            other._st.hands[opp] = pool[:n]
            other._st.stock = pool[n:]
            theirs = gingo_move(other, level, random.Random(1)).to_dict()
            if mine["type"] == "discard" and len(play.hands[seat]) == 1:
                # going out captures every card still held: where captured jokers go and
                # which chips a short supply forfeits are chosen once those cards are seen
                mine = {k: v for k, v in mine.items() if k not in ("jokers", "skip")}
                theirs = {k: v for k, v in theirs.items() if k not in ("jokers", "skip")}
            assert theirs == mine
            checked += 1
        play.perform(gingo_move(play, "normal", random.Random(play.table.hand)))
    assert checked > 20 // every


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("variant,players", [*RUMMY, ("gingo", 2)])
def test_each_bot_is_deterministic_for_a_seed(variant: str, players: int, level: str) -> None:
    def run() -> list[Any]:
        out: list[Any] = []
        if variant == "gingo":
            play = GingoPlay(["a", "b"], {}, seed=9)
            for _ in range(50 if level == "strong" else 150):  # the strong bot searches: fewer moves
                if play.phase == "game_over":
                    break
                move = gingo_move(play, level, random.Random(4))
                out.append(move.to_dict())
                play.perform(move)
            return out
        game = rummy_game(variant, players=players, seed=9)
        for _ in range(150):
            if game.over:
                break
            action = seat_action(game, level)
            out.append(action)
            game.apply(action)
        return out

    first = run()
    assert len(first) > 20 and run() == first


def _rummy_match(variant: str, seed: int, a: str, b: str, a_seat: int) -> int | None:
    game = rummy_game(variant, seed=seed)
    for _ in range(20000):
        if game.over:
            break
        game.apply(seat_action(game, a if game.turn == a_seat else b))
    w = game.match.winner
    return None if w is None else int(w == a_seat)


def _gingo_match(seed: int, a: str, b: str, a_side: int) -> int | None:
    play = GingoPlay(["a", "b"], {}, seed=seed)
    rng = random.Random(seed)
    while play.phase != "game_over":
        if play.phase == "hand_over" and play.table.hand >= 60:
            return None
        play.perform(gingo_move(play, a if side_of(play.turn) == a_side else b, rng))
    w = play.table.winner
    return None if w is None else int(w == a_side)


@pytest.mark.slow  # about a minute: duplicate matches over a fixed set of deals
@pytest.mark.parametrize("variant", ["gin", "gingo"])
def test_the_levels_order_themselves_over_a_seeded_set(variant: str) -> None:
    def rate(a: str, b: str, seeds: range) -> float:
        wins = decided = 0
        for s in seeds:
            for seat in (0, 1):
                r = _gingo_match(s, a, b, 1 + seat) if variant == "gingo" else _rummy_match(variant, s, a, b, seat)
                if r is not None:
                    wins += r
                    decided += 1
        return wins / decided

    seeds = range(101, 116)
    assert rate("normal", "easy", seeds) > 0.5
    if variant == "gin":
        assert rate("strong", "normal", seeds) > 0.5


@pytest.mark.parametrize("variant,players", RUMMY)
def test_the_hint_never_uses_another_seats_cards(variant: str, players: int) -> None:
    rng = random.Random(11)
    names = [f"P{i}" for i in range(players)]
    checked = 0
    for game in positions(variant, players, 4, every=5, limit=20):
        mine = rummy_hint(game, names)
        bare = {k: v for k, v in mine["action"].items() if k != "declared"}  # a knock may declare its melds
        assert bare in [_dict(x) for x in game.legal_actions()]
        for other_seat in range(players):  # every other seat's hand tried
            if other_seat == game.turn:
                continue
            for _ in range(2):
                assert rummy_hint(swapped(game, game.turn, rng), names) == mine
        checked += 1
    assert checked > 5


def test_the_gingo_hint_never_uses_the_other_hand() -> None:
    play = GingoPlay(["a", "b"], {}, seed=6)
    rng = random.Random(2)
    checked = 0
    for i in range(200):
        if play.phase == "game_over":
            break
        if play.phase == "play" and i % 3 == 0:  # the hint is the strong bot's: it searches
            seat = play.turn
            mine = gingo_hint(play, seat)
            other = play.clone()
            pool = list(other.hands[1 - seat]) + list(other._st.stock)
            rng.shuffle(pool)
            n = len(other.hands[1 - seat])
            other._st.hands[1 - seat] = pool[:n]
            other._st.stock = pool[n:]
            assert gingo_hint(other, seat) == mine and mine["text"]
            checked += 1
        play.perform(gingo_move(play, "normal", random.Random(0)))
    assert checked > 10


def _dict(action: Any) -> dict[str, Any]:
    from companion.play.rummy import action_to_dict

    return action_to_dict(action)


# -- through the app ------------------------------------------------------------------------


@pytest.fixture()
def phones(tmp_path: Path, request: pytest.FixtureRequest) -> Any:
    p = Phones(tmp_path / "data", request.node.name)
    try:
        yield p
    finally:
        p.close()


def test_the_level_is_kept_with_the_game_and_a_bad_one_is_named(phones: Phones) -> None:
    game = create(phones, "gin", ["Ann", "Bot"], [1], options={"bot_level": "easy"})
    assert game["dealt"]["bot_level"] == "easy"
    assert phones.client.get(f"/api/v1/games/{game['id']}").json()["dealt"]["bot_level"] == "easy"
    r = phones.client.post("/api/v1/games", json={"variant": "ginski", "players": ["a", "b", "c"], "mode": "dealt",
                                                  "bots": [1, 2], "options": {"bot_level": "hard"}}, headers=phones.ann)
    assert r.status_code == 400 and "bot_level" in r.json()["error"]["message"]
    assert "easy, normal, strong" in r.json()["error"]["message"]
    spec = [o for v in phones.client.get("/api/v1/variants").json()["variants"] for o in v["options"]
            if o["name"] == "bot_level"]
    assert len(spec) == 4 and all(o["dealt_only"] and o["choices"] == list(LEVELS) for o in spec)


@pytest.mark.parametrize("variant,players,bots", [("gin", ["Ann", "Bot"], [1]), ("ginski", ["Ann", "B", "C"], [1, 2]),
                                                  ("gingo", ["Ann", "Bot"], [1])])
def test_the_hint_answers_the_callers_turn_and_is_counted(phones: Phones, variant: str, players: list[str],
                                                          bots: list[int]) -> None:
    extra: dict[str, Any] = {"skip_board": True} if variant == "gingo" else {}
    game = create(phones, variant, players, bots, options={"bot_level": "strong"}, **extra)
    gid = game["id"]
    v = phones.client.post(f"/api/v1/games/{gid}/seats/0", headers=phones.ann).json()
    assert not v["finished"] and v["public"]["to_move"] == 0
    r = phones.client.get(f"/api/v1/games/{gid}/hint", headers=phones.ann)
    assert r.status_code == 200, r.text
    h = r.json()
    assert h["seat"] == 0 and h["action"] in v["legal_actions"] and h["text"] and h["hints_used"] == 1
    again = phones.client.get(f"/api/v1/games/{gid}/hint", headers=phones.ann).json()
    assert again["action"] == h["action"] and again["hints_used"] == 2
    record = phones.client.get(f"/api/v1/games/{gid}").json()
    assert record["dealt"]["hints"][0] == 2 and record["version"] == again["version"]
    events = phones.client.get(f"/api/v1/games/{gid}/events").json()["events"]
    hints = [e for e in events if e["type"] == "hint"]
    assert len(hints) == 2 and all(e["payload"]["seat"] == 0 and "text" not in e["payload"] for e in hints)
    # the hinted action is legal: play it (with the version the hint answered)
    r = phones.client.post(f"/api/v1/games/{gid}/actions", json={"action": h["action"],
                                                                 "expected_version": again["version"]},
                           headers=phones.ann)
    assert r.status_code == 200, r.text
    # no seat: refused by name; a seat whose turn it is not: refused by name
    r = phones.client.get(f"/api/v1/games/{gid}/hint", headers=phones.bob)
    assert r.status_code == 422 and r.json()["error"]["code"] == "no_seat"
    view = phones.client.get(f"/api/v1/games/{gid}/view", headers=phones.ann).json()
    if not view["finished"] and view["public"]["to_move"] != 0:
        r = phones.client.get(f"/api/v1/games/{gid}/hint", headers=phones.ann)
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"


def test_hints_are_counted_after_a_restart(tmp_path: Path) -> None:
    first = Phones(tmp_path / "data", "restart")
    try:
        gid = create(first, "gin", ["Ann", "Bot"], [1])["id"]
        first.client.post(f"/api/v1/games/{gid}/seats/0", headers=first.ann)
        assert first.client.get(f"/api/v1/games/{gid}/hint", headers=first.ann).status_code == 200
    finally:
        first.close()
    again = Phones(tmp_path / "data", "restart")
    try:
        assert again.client.get(f"/api/v1/games/{gid}").json()["dealt"]["hints"] == [1, 0]
    finally:
        again.close()


def _same_decisions(variant: str, players: int, a: str, b: str) -> bool:
    """Whether levels ``a`` and ``b`` choose the same at every position of a few seeded games."""
    for seed in (11, 12, 13):
        if variant == "gingo":
            play = GingoPlay(["a", "b"], {}, seed=seed)
            for _ in range(120):
                if play.phase == "game_over":
                    break
                mine = gingo_move(play, a, random.Random(4))
                if mine.to_dict() != gingo_move(play, b, random.Random(4)).to_dict():
                    return False
                play.perform(mine)
            continue
        for game in positions(variant, players, seed, every=1, limit=150):
            if seat_action(game, a) != seat_action(game, b):
                return False
    return True


@pytest.mark.parametrize("variant,players", [*RUMMY, ("gingo", 2)])
def test_each_games_level_words_say_what_its_bots_do(variant: str, players: int) -> None:
    """The line the page shows for Strong says "the same bot as Normal" exactly in the
    games whose strong bot decides as the normal one does (played, not looked up)."""
    from companion.games import find_variant

    words = find_variant(variant).page_flags()["level_words"]
    assert set(words) == set(LEVELS) and all(words[lv].startswith(lv.capitalize() + ":") for lv in LEVELS)
    same = _same_decisions(variant, players, "normal", "strong")
    assert ("the same bot as Normal" in words["strong"]) == same, (variant, same, words["strong"])
    assert not _same_decisions(variant, players, "easy", "normal"), f"{variant}: easy plays as normal"


def test_a_gingo_hint_says_why_a_weighed_meld_was_chosen() -> None:
    """In the team game the strong bot weighs the melds it could lay by playing the hand
    out, so the hint gives that reason, not the chips' score the normal bot goes by
    (which another meld may beat); with two players a meld is the normal bot's, for its chips."""
    from companion.games.gingo.rules import actions as A
    from tests.test_gingo_search import lay_points

    said: dict[str, set[str]] = {"weighed": set(), "one": set()}
    for players in (2, 4):
        for play, moves in lay_points(players, 4):
            if isinstance(moves[0], A.Meld):
                text = gingo_hint(play, play.turn)["text"]
                if text.startswith("meld "):
                    said["weighed" if len(moves) > 1 else "one"].add(text.split(":", 1)[1].strip())
    assert said["weighed"] and all(t.startswith("of the melds you can make, it left the best board") for t in said["weighed"]), said
    assert said["one"] == {"its chips are the best on the board for you"}, said
