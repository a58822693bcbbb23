"""The searching Ginski bot (:mod:`companion.games.ginski.search`; it plays no level yet:
it has not beaten the normal bot, docs/play.md): it decides from its seat's knowledge only
(every card it cannot see dealt again, the same decision), it is deterministic for a
seed, its play-outs never change the real game, and it weighs real alternatives (it
does not always throw the normal bot's card)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from companion import cards as C
from companion.games import find_variant, rummy_game
from companion.games.ginski import search as ginski_search
from companion.play.knowledge import knowledge
from companion.play.levels import seat_action
from companion.play.rummy import Discard, RummyGame
from companion.play.sharp import budget, set_budget

STRONG = ginski_search.GINSKI_SEARCH
NORMAL = find_variant("ginski").bot_policy("normal")


@pytest.fixture(autouse=True)
def unhurried() -> Iterator[None]:
    """The search stops at its time budget; these tests give it all the time it needs
    (a loaded machine would play out fewer deals and choose by time)."""
    before, deals = budget(), ginski_search.GinskiSearch.samples
    set_budget(60_000)
    ginski_search.GinskiSearch.samples = 4  # 4 deals a decision: the same code, quicker
    yield
    set_budget(before)
    ginski_search.GinskiSearch.samples = deals


def discards(seed: int, players: int, limit: int) -> Iterator[RummyGame]:
    """Positions of a normal-bot match where the player to move discards (the choice the
    search weighs), at most ``limit`` of them."""
    game = rummy_game("ginski", players=players, seed=seed)
    found = 0
    for _ in range(400):
        if game.over or found >= limit:
            return
        if game.phase == "discard":
            found += 1
            yield game.clone()
        game.apply(seat_action(game, NORMAL))


def hidden_swapped(game: RummyGame, rng: random.Random) -> RummyGame:
    """``game`` with every card its player to move cannot see dealt again (the other
    hands less the cards they are known to hold, and the stock): a game that seat could
    not tell from this one."""
    seat = game.turn
    k = knowledge(game, seat)
    other = game.clone()
    pool = [c for s in range(game.players) if s != seat for c in C.iter_cards(game.hands[s] & ~k.held[s])]
    pool += list(game.stock)
    rng.shuffle(pool)
    for s in range(game.players):
        if s != seat:
            need = game.hands[s].bit_count() - k.held[s].bit_count()
            mask = k.held[s]
            for c in pool[:need]:
                mask |= 1 << c
            other.hands[s], pool = mask, pool[need:]
    assert len(pool) == len(game.stock)  # the seat sees the stock's size: it stays
    other.stock = pool
    other.rng = random.Random(rng.random())
    return other


@pytest.mark.parametrize("bot", [STRONG, ginski_search.GINSKI_INFER], ids=["search", "infer"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_search_decides_from_its_seats_knowledge_only(players: int, bot: ginski_search.GinskiSearch) -> None:
    rng = random.Random(5)
    checked = 0
    for game in discards(31 + players, players, limit=6):
        mine = seat_action(game, bot)
        other = hidden_swapped(game, rng)
        assert other.hands[game.turn] == game.hands[game.turn]
        assert other.hands != game.hands or other.stock != game.stock
        assert seat_action(other, bot) == mine
        checked += 1
    assert checked == 6


def test_weighted_deals_hold_fewer_cards_near_what_the_others_threw() -> None:
    """Over real three-player positions: in the seat games the inference picks, the other
    hands hold fewer cards that meld with a card their player threw than in blind ones."""
    from companion.play.knowledge import seat_game
    from companion.play.rummy_inference import weighted_seat_game
    from companion.play.strong import reach

    def near_thrown(g: RummyGame, seat: int, thrown: tuple[int, ...]) -> int:
        n = 0
        for s in range(g.players):
            if s != seat:
                for d in C.iter_cards(thrown[s]):
                    n += (g.hands[s] & reach(1 << d, 0) & ~(1 << d)).bit_count()
        return n

    weighted = blind = 0
    for game in discards(51, 3, limit=40):
        k = knowledge(game, game.turn)
        if not any(k.thrown):
            continue
        rng = random.Random(3)
        for _ in range(10):
            weighted += near_thrown(weighted_seat_game(game, game.turn, rng, k), game.turn, k.thrown)
            blind += near_thrown(seat_game(game, game.turn, rng, k), game.turn, k.thrown)
    assert blind > 50 and weighted < 0.9 * blind, (weighted, blind)


def test_the_search_is_deterministic_for_a_seed() -> None:
    def run() -> list[object]:
        game = rummy_game("ginski", players=3, seed=12)
        out: list[object] = []
        for _ in range(60):
            if game.over:
                break
            action = seat_action(game, STRONG if game.turn == 0 else NORMAL)
            out.append(action)
            game.apply(action)
        return out

    first = run()
    assert len(first) > 20 and run() == first


def real_state(g: RummyGame) -> str:
    """Everything of a game the search could touch: hands, stock, pile, moves, scores,
    the deck's generator."""
    return repr((g.hands, g.stock, g.discard, g.phase, g.turn, g.taken, g.moves, g.last_taken, g.passes,
                 g.hand_number, g.dealer, [r.as_dict() for r in g.results], g.rng.getstate(), g.actions,
                 g.view(g.turn)))


def test_the_search_never_changes_the_real_game() -> None:
    """The search plays out its own copies only: the real game is the same before and
    after each decision, over whole matches (the search asked on the real game, not
    only on the seat's copy)."""
    checked = 0
    for seed in range(2):
        game = rummy_game("ginski", players=3, seed=seed)
        for _ in range(300):
            if game.over:
                break
            before = real_state(game)
            from companion.play.policy import play_turn

            action = play_turn(game, STRONG)
            assert real_state(game) == before
            checked += game.phase == "discard"
            game.apply(action)
    assert checked > 10


def test_the_search_weighs_other_discards_than_the_normal_bots() -> None:
    differ = same = 0
    for seed in (41, 42, 43):
        for game in discards(seed, 3, limit=8):
            mine = seat_action(game, STRONG)
            if mine == seat_action(game, NORMAL):
                same += 1
            else:
                differ += 1
                assert isinstance(mine, Discard)
    assert differ >= 1 and same >= 1, (differ, same)
