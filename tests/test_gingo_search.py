"""The searching Gin-Go bot (the strong level): it decides from its seat's knowledge only
(every card it cannot see dealt again, the same decision), it is deterministic for a
seed, its sampled deals keep what the seat sees, and it weighs real alternatives (it
does not always play the normal bot's move)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from companion.games.gingo.play import search
from companion.games.gingo.play.play import GingoPlay
from companion.games.gingo.play.search import candidates, sample_deal, search_move
from companion.games.gingo.play.strong import strong_move
from companion.play.sharp import budget, set_budget


@pytest.fixture(autouse=True)
def unhurried() -> Iterator[None]:
    """The search stops at its time budget; these tests give it all the time it needs
    (a loaded machine would play out fewer deals and choose by time)."""
    before, deals = budget(), search.SAMPLES
    set_budget(60_000)
    search.SAMPLES = 4  # 4 deals a decision, not 12: the same code, quicker
    yield
    set_budget(before)
    search.SAMPLES = deals


def positions(players: int, seed: int, limit: int) -> Iterator[GingoPlay]:
    """Positions of a normal-bot game where the player to move has more than one move
    to weigh, at most ``limit`` of them."""
    play = GingoPlay([f"p{i}" for i in range(players)], {}, seed=seed)
    rng = random.Random(seed)
    found = 0
    for _ in range(400):
        if play.phase == "game_over" or found >= limit:
            return
        if play.phase == "play" and len(candidates(play)) > 1:
            found += 1
            yield play.clone()
        play.perform(strong_move(play, rng))


def hidden_swapped(play: GingoPlay, rng: random.Random) -> GingoPlay:
    """``play`` with the cards its player to move cannot see (every other hand and the
    stock) dealt again: a game that seat could not tell from this one."""
    other = play.clone()
    st = other._st
    seat = play.turn
    pool = [c for s, h in enumerate(st.hands) if s != seat for c in h] + list(st.stock)
    rng.shuffle(pool)
    for s, h in enumerate(st.hands):
        if s != seat:
            st.hands[s], pool = pool[:len(h)], pool[len(h):]
    st.stock = pool
    st.rng = random.Random(rng.random())
    return other


@pytest.mark.parametrize("players", [2, 4])
def test_the_search_decides_from_its_seats_knowledge_only(players: int) -> None:
    rng = random.Random(5)
    checked = 0
    for play in positions(players, 31, limit=5):
        mine = search_move(play, random.Random(2)).to_dict()
        other = hidden_swapped(play, rng)
        assert other.hands[play.turn] == play.hands[play.turn]
        assert [sorted(h) for h in other.hands] != [sorted(h) for h in play.hands] or len(play.stock) < 2
        assert search_move(other, random.Random(2)).to_dict() == mine
        checked += 1
    assert checked == 5


def test_the_search_is_deterministic_for_a_seed() -> None:
    def run() -> list[dict[str, object]]:
        play = GingoPlay(["a", "b"], {}, seed=12)
        rng = random.Random(4)
        out = []
        for _ in range(40):
            if play.phase == "game_over":
                break
            move = search_move(play, rng) if play.turn == 0 or play.phase != "play" else strong_move(play, rng)
            out.append(move.to_dict())
            play.perform(move)
        return out

    first = run()
    assert len(first) == 40 and run() == first


def test_a_sampled_deal_keeps_what_the_seat_sees() -> None:
    for play in positions(4, 8, limit=4):
        seat = play.turn
        deal = sample_deal(play, random.Random(1))
        deal.check()  # every card in exactly one place
        assert deal.hands[seat] == play.hands[seat] and deal.pile == play.pile
        assert [len(h) for h in deal.hands] == [len(h) for h in play.hands]
        assert len(deal.stock) == len(play.stock)
        assert deal.table.table_cards() == play.table.table_cards()


def test_the_search_weighs_other_moves_than_the_normal_bots() -> None:
    differ = same = 0
    for seed in (41, 42):
        for play in positions(2, seed, limit=8):
            move = search_move(play, random.Random(seed))
            assert move in candidates(play)
            if move == strong_move(play):
                same += 1
            else:
                differ += 1
    assert differ >= 1 and same >= 1, (differ, same)


def lay_points(players: int, games: int) -> Iterator[tuple[GingoPlay, list[Any]]]:
    """Games ``0 .. games - 1`` (seeds) of ``players`` played by the normal bot in every
    seat: each position where the search's first candidate is a meld or a hit, with the
    candidates (look, do not change the play)."""
    from companion.games.gingo.rules import actions as A

    for seed in range(games):
        play = GingoPlay([f"p{i}" for i in range(players)], {}, seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if play.phase == "game_over":
                break
            if play.phase == "play" and play.stage == "play":
                moves = candidates(play)
                if isinstance(moves[0], A.Meld | A.Hit):
                    yield play, moves
            play.perform(strong_move(play, rng))


def test_with_four_players_the_search_weighs_the_melds_it_lays() -> None:
    """In the team game the search also weighs, at a meld or hit, the normal bot's next
    best ones (legal moves, the normal bot's own first); with two players it lays what
    the normal bot lays."""
    from companion.games.gingo.play.bot import lay_options
    from companion.games.gingo.rules import actions as A

    weighed = {2: 0, 4: 0}
    for players in (2, 4):
        for play, moves in lay_points(players, 3):
            assert moves[0] == strong_move(play) == lay_options(play)[0][1]
            assert all(isinstance(m, A.Meld | A.Hit) for m in moves)
            for m in moves:
                play.clone().perform(m)  # legal: raises otherwise
            weighed[players] += len(moves) > 1
    assert weighed[2] == 0 and weighed[4] >= 3, weighed


def real_state(p: GingoPlay) -> str:
    """Everything of a play the search could touch: hands, stock, pile, turn, the table
    (melds, board, links), the deck's generator and its public JSON."""
    import json

    from companion.games.gingo.play import legal_actions

    t = p.table
    return repr((p.hands, p.stock, p.pile, p.phase, p.turn, p.stage, p.keep, p._st.actions,
                 p._st.rng.getstate(), p._hand_rng, [(m.id, m.seat, m.kind, list(m.cards), dict(m.designations))
                                                     for m in t.table_melds],
                 t.board.mask(1), t.board.mask(2), json.dumps(t.as_dict(), sort_keys=True),
                 json.dumps(legal_actions(p), sort_keys=True)))


@pytest.mark.parametrize("players", [2, 4])
def test_the_search_never_changes_the_real_game(players: int) -> None:
    """The search plays out its own copies only: the real game is the same before and
    after each decision, over many positions of whole games."""
    search.SAMPLES = 2  # the copies are the same with fewer deals (the fixture restores it)
    checked = 0
    for seed in range(2):
        p = GingoPlay([str(s) for s in range(players)], {}, seed=seed)
        rng = random.Random(seed)
        for step in range(60):
            if p.phase == "game_over":
                break
            before = real_state(p)
            move = search_move(p, random.Random(step))
            assert real_state(p) == before, f"seed {seed}, step {step}: the search changed the game"
            checked += 1
            p.perform(move if p.phase == "play" else strong_move(p, rng))
    assert checked >= 80
