"""The searching Gin-Go bot's inference of the hands it cannot see: the public record of
a hand (what each seat dug and kept, threw, let lie on the pile) follows real play, and
the deals the search samples from it keep the known cards and hold what their players
would have laid down or dug less often than deals drawn blind, and are the same for two
games the seat cannot tell apart."""

from __future__ import annotations

import random
from collections.abc import Iterator

from companion import cards as C
from companion.games.gingo.play import inference as I
from companion.games.gingo.play.play import GingoPlay
from companion.games.gingo.play import search
from companion.games.gingo.play.search import sample_deal, search_move
from companion.play.sharp import budget, set_budget
from companion.games.gingo.play.strong import strong_move
from companion.games.gingo.rules import actions as A


def played(players: int, seed: int, moves: int = 600) -> Iterator[tuple[GingoPlay, A.Action]]:
    """Each position of a normal-bot game and the move played from it."""
    play = GingoPlay([f"p{i}" for i in range(players)], {}, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if play.phase == "game_over":
            return
        move = strong_move(play, rng)
        yield play, move
        play.perform(move)


def test_the_record_follows_what_each_seat_did_in_public() -> None:
    takes = throws = draws = 0
    for players in (2, 4):
        for seed in (1, 2, 3):
            for play, move in played(players, seed):
                if play.phase != "play":
                    continue
                before = play.record
                seat = play.turn
                pile = play.pile
                hand = play.hands[seat]
                after = play.clone()
                after.perform(move)
                rec = after.record
                others = [s for s in range(players) if s != seat]
                assert all(rec.held[s] == before.held[s] and rec.thrown[s] == before.thrown[s]
                           and rec.passed[s] == before.passed[s] for s in others)
                if isinstance(move, A.Take):
                    kept = [c for c in after.hands[seat] if c not in hand]
                    now = C.cards_mask(after.hands[seat])
                    assert rec.held[seat] == before.held[seat] & now | C.cards_mask(kept)
                    takes += bool(kept)
                elif isinstance(move, A.Draw) and after.phase == "play":
                    top = C.cards_mask(c for c in pile[-3:] if c < 52)
                    assert rec.passed[seat] == before.passed[seat] | top
                    draws += 1
                elif isinstance(move, A.Discard):
                    assert rec.thrown[seat] == before.thrown[seat] | 1 << move.card
                    assert not rec.held[seat] >> move.card & 1
                    throws += 1
                if after.phase == "play":  # every card known held is in that hand
                    for s in range(players):
                        assert rec.held[s] & ~C.cards_mask(after.hands[s]) == 0
    assert takes > 5 and throws > 50 and draws > 50, (takes, throws, draws)


def test_a_new_hand_starts_a_new_record() -> None:
    for play, move in played(2, 4):
        if isinstance(move, A.NewHand):
            after = play.clone()
            after.perform(move)
            assert after.record == after.record.empty(2)
            assert play.record != after.record
            return
    raise AssertionError("no second hand in the game")


def positions(seed: int, limit: int) -> Iterator[GingoPlay]:
    """Two-player positions after a few turns of the hand, where the record says something."""
    found = 0
    for play, _ in played(2, seed):
        rec = play.record
        if play.phase == "play" and rec.held and rec.thrown[1 - play.turn] and len(play.stock) > 10:
            found += 1
            yield play.clone()
            if found >= limit:
                return


def test_sampled_deals_keep_the_known_cards_and_hold_fewer_melds_than_blind_deals() -> None:
    """Over real positions: every sampled deal puts the cards the opponent dug and kept in
    its hand, and the opponent's hand holds a whole meld (which it would have laid down)
    or a card that fits a meld on the table in far fewer deals than when the unseen cards
    are dealt blind."""
    weighted = blind = checked = known = 0
    for seed in (21, 22, 23, 24):
        for play in positions(seed, limit=6):
            seat = play.turn
            opp = 1 - seat
            fits = I.fits_mask(play.table)
            rng = random.Random(seed)
            for i in range(40):
                deal = sample_deal(play, rng)
                hand = C.cards_mask(deal.hands[opp])
                assert play.record.held[opp] & ~hand == 0
                known += play.record.held[opp] != 0
                weighted += I.holds_meld(hand) or bool(hand & fits)
                pool = [c for c in play.stock + play.hands[opp]]
                rng.shuffle(pool)
                blind_hand = C.cards_mask(pool[:len(play.hands[opp])])
                blind += I.holds_meld(blind_hand) or bool(blind_hand & fits)
                checked += 1
    assert checked >= 600
    assert weighted < 0.6 * blind, (weighted, blind, checked)


def hidden_swapped(play: GingoPlay, rng: random.Random) -> GingoPlay:
    """``play`` with every card its player to move cannot see dealt again (the cards the
    others are known to hold too: a game that seat could not tell from this one)."""
    seat = play.turn
    other = play.clone()
    st = other._st
    pool = [c for s, h in enumerate(st.hands) if s != seat for c in h] + list(st.stock)
    rng.shuffle(pool)
    for s, h in enumerate(st.hands):
        if s != seat:
            st.hands[s], pool = pool[:len(h)], pool[len(h):]
    st.stock = pool
    return other


def test_the_inference_reads_only_what_the_seat_sees() -> None:
    """Two games that differ only in the cards the seat cannot see (the known cards moved
    to the stock too) give the same sampled deals, and the same search decision."""
    rng = random.Random(9)
    checked = known = 0
    before, deals = budget(), search.SAMPLES
    set_budget(60_000)  # decide by the deals, not by the clock
    search.SAMPLES = 3
    try:
        for seed in (31, 32):
            for play in positions(seed, limit=5):
                other = hidden_swapped(play, rng)
                a, b = sample_deal(play, random.Random(5)), sample_deal(other, random.Random(5))
                assert a.hands == b.hands and a.stock == b.stock
                assert search_move(play, random.Random(2)) == search_move(other, random.Random(2))
                known += play.record.held[1 - play.turn] != 0
                checked += 1
    finally:
        set_budget(before)
        search.SAMPLES = deals
    assert checked == 10 and known >= 1, (checked, known)


def test_a_hand_weight_falls_with_each_piece_of_evidence() -> None:
    hand = C.cards_mask(C.parse_cards(["5H", "6H", "9S", "KD"]))
    base = I.hand_weight(hand, 0, 0, 0)
    assert I.hand_weight(hand | 1 << C.parse_card("7H"), 0, 0, 0) < base  # a whole run held
    assert I.hand_weight(hand, 0, 1 << C.parse_card("4H"), 0) < base  # 4H let lie, 5H 6H held
    assert I.hand_weight(hand, 1 << C.parse_card("8S"), 0, 0) < base  # threw 8S, holds 9S
    assert I.hand_weight(hand, 0, 0, 1 << C.parse_card("KD")) < base  # KD goes onto the table
    assert I.hand_weight(hand, 1 << C.parse_card("2C"), 1 << C.parse_card("JC"), 0) == base


def test_a_joker_thrown_or_let_lie_is_weighed_without_error() -> None:
    """A Gin-Go deck has two jokers (cards 52 and 53): a seat that threw one or let one
    lie on the pile once made the strong bot's weighing index past the 52 naturals
    (IndexError, a 500 in a CI run of a four-player dealt game). A joker says nothing
    about the hand, so the weight is the one without it, and a whole deal is weighed."""

    hand = (1 << 0) | (1 << 1) | (1 << 14)  # A♣ 2♣ and a 2 of another suit
    for thrown, passed in ((1 << 52, 0), (0, 1 << 53), ((1 << 52) | (1 << 5), (1 << 53) | (1 << 20))):
        plain = I.hand_weight(hand, thrown & I.NATURALS, passed & I.NATURALS, 0)
        assert I.hand_weight(hand, thrown, passed, 0) == plain
    pool = list(range(54))
    hands, stock = I.weighted_deal(pool, [0, 11, 11], [0, 0, 0], [0, 1 << 52, 1 << 53], [0, 1 << 53, 1 << 52],
                                   [0, 0, 0], random.Random(3))
    assert [len(h) for h in hands] == [0, 11, 11] and len(stock) == 54 - 22


def test_the_record_keeps_what_each_seat_could_have_hit_when_it_threw() -> None:
    """At each throw the record keeps the cards that would then have gone onto the table
    for that seat (and for it alone): what it could have hit and did not."""
    throws = 0
    for players in (2, 4):
        for play, move in played(players, 5, moves=300):
            if play.phase != "play" or not isinstance(move, A.Discard):
                continue
            after = play.clone()
            after.perform(move)
            if after.phase != "play":
                continue
            seat = play.turn
            fits = list(play.record.fits)
            fits[seat] = I.fits_mask(play.table)
            assert list(after.record.fits) == fits
            throws += 1
    assert throws > 40, throws


def test_melds_laid_this_turn_say_nothing_of_the_other_hands() -> None:
    """A meld or hit the seat to move lays before its discard was never before the other
    players: the deals sampled for its discard are the ones sampled before it laid it
    (each hand is weighed against the table its player saw when it last threw). Before,
    the cards that fit the new meld were taken to be unlikely in the other hands."""
    laid = changed = 0
    for players in (2, 4):
        for seed in (41, 42, 43):
            for play, move in played(players, seed):
                if play.phase != "play" or not isinstance(move, (A.Meld, A.Hit)):
                    continue
                if not any(play.record.thrown[s] for s in range(players) if s != play.turn):
                    continue
                after = play.clone()
                after.perform(move)
                changed += I.fits_mask(after.table) != I.fits_mask(play.table)
                for k in range(3):
                    a, b = sample_deal(play, random.Random(k)), sample_deal(after, random.Random(k))
                    seat = play.turn
                    assert [h for s, h in enumerate(a.hands) if s != seat] == \
                        [h for s, h in enumerate(b.hands) if s != seat] and a.stock == b.stock
                laid += 1
    assert laid >= 10 and changed >= 5, (laid, changed)


def team_positions(seed: int, limit: int) -> Iterator[GingoPlay]:
    """Four-player (two teams) positions after a few turns of the hand, where the record
    says something of the partner and of both opponents."""
    found = 0
    for play, _ in played(4, seed):
        rec = play.record
        seat = play.turn
        if play.phase == "play" and rec.held and all(rec.thrown[(seat + k) % 4] for k in (1, 2, 3)) \
                and len(play.stock) > 8:
            found += 1
            yield play.clone()
            if found >= limit:
                return


def test_the_team_game_inference_reads_only_what_the_seat_sees() -> None:
    """In the four-player team game, two games that differ only in the cards the seat
    cannot see (the partner's hand among them) give the same sampled deals and the same
    search decision, and every sampled deal keeps each other hand's known cards."""
    rng = random.Random(19)
    checked = 0
    before, deals = budget(), search.SAMPLES
    set_budget(60_000)  # decide by the deals, not by the clock
    search.SAMPLES = 2
    try:
        for seed in (51, 52):
            for play in team_positions(seed, limit=4):
                other = hidden_swapped(play, rng)
                a, b = sample_deal(play, random.Random(5)), sample_deal(other, random.Random(5))
                assert a.hands == b.hands and a.stock == b.stock
                for s in range(4):
                    if s != play.turn:
                        assert play.record.held[s] & ~C.cards_mask(a.hands[s]) == 0
                assert search_move(play, random.Random(2)) == search_move(other, random.Random(2))
                checked += 1
    finally:
        set_budget(before)
        search.SAMPLES = deals
    assert checked == 8, checked
