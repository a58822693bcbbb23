"""The link-wise Gin-Go bot (companion.play.gingo.linkwise): melds chosen for the link,
no going out into the opponent's win, forfeits chosen together, the cards an opponent
dug from the pile kept in mind, and legal whole games."""

from __future__ import annotations

import doctest
import random

from companion import cards as C
from companion.play.gingo import linkwise
from companion.play.gingo.play import GingoPlay
from companion.play.gingo.strong import strong_move
from companion.rules.gingo import actions as A
from companion.rules.gingo.state import side_of

ROWS = {"1": "SHDC", "2": "SHDC"}  # side 1: spades in column 1, ranks up the rows


def board_of(side1: list[int], side2: list[int] = ()) -> str:  # type: ignore[assignment]
    return "".join("1" if s in side1 else "2" if s in side2 else "." for s in range(52))


def column(col: int, rows: range, but: tuple[int, ...] = ()) -> list[int]:
    """The spaces of board column ``col`` (1-4) in ``rows`` (1-13), but those rows."""
    return [(r - 1) * 4 + col - 1 for r in rows if r not in but]


def deal(hands: list[str], board: str, draw: str, pile: str = "2D") -> GingoPlay:
    """Seat 0 (side 1) to play with ``hands``, having drawn ``draw``, on ``board``."""
    hs = [h.split() for h in hands]
    used = {C.parse_card(c) for c in [c for h in hs for c in h] + [pile, draw]}
    rest = [C.card_name(c) for c in range(54) if c not in used]
    p = GingoPlay.from_deal(["N", "E"], {"deal": 3}, suit_rows=ROWS, hands=hs, pile=[pile], stock=rest + [draw],
                            dealer=1, board=board)
    p.perform(A.Draw(0))
    return p


def test_doctests_pass() -> None:
    failures, tried = doctest.testmod(linkwise)
    assert tried and not failures


def test_it_lays_the_meld_that_completes_its_link_rather_than_a_longer_one() -> None:
    # side 1 holds column 1 (spades) but row 7: the 7s complete its link, the clubs run does not
    p = deal(["7S 7H 7D 9C 10C JC QC", "AH"], board_of(column(1, range(1, 14), but=(7,))), "KD")
    move = linkwise.link_move(p)
    assert isinstance(move, A.Meld) and sorted(move.cards) == sorted(C.parse_cards("7S 7H 7D"))
    options = dict((a, v) for v, a in linkwise.lays(p))
    run = next(a for a in options if isinstance(a, A.Meld) and C.parse_card("9C") in a.cards)
    assert options[move] > options[run]
    p.perform(move)
    assert p.table.board.link(1) is not None


def test_it_does_not_go_out_into_the_opponents_link() -> None:
    # side 2 is linked (column 4); side 1's run would leave one card, whose discard ends the
    # hand with only side 2 linked: the link-wise bot keeps its cards, the strong bot goes out
    p = deal(["2S 3S 4S", "AH"], board_of([], column(4, range(1, 14))), "9D")
    assert isinstance(strong_move(p), A.Meld)
    move = linkwise.link_move(p)
    assert isinstance(move, A.Discard) and len(p.hands[0]) - 1 > 0
    # once it would link too, going out wins the hand: then it lays down
    q = deal(["5S 5H 5D", "AH"], board_of(column(1, range(1, 14), but=(5,)), column(4, range(1, 14))), "9D")
    assert isinstance(linkwise.link_move(q), A.Meld)


def test_forfeits_are_chosen_together_for_the_link() -> None:
    # side 1 holds column 1 but rows 5 and 9; 5S or 5H (diagonal steps) closes row 5, only 9S row 9
    p = deal(["2C 3C", "AH"], board_of(column(1, range(1, 14), but=(5, 9))), "KD")
    game = p.table
    cards = C.parse_cards("9S 5S 5H")
    one_by_one = sorted(cards, key=lambda c: linkwise._chip_value(game, 1, [c]))[:1]
    assert one_by_one == C.parse_cards("9S")  # every chip alone shortens the link by one: a tie
    skip = linkwise.choose_forfeits(game, 1, cards, 1)
    assert skip in (tuple(C.parse_cards("5S")), tuple(C.parse_cards("5H")))
    b = game.board.copy()
    b.place(1, [game.space(1, c) for c in cards if c not in skip])
    assert b.link(1) is not None
    assert linkwise.choose_forfeits(game, 1, cards, 0) == ()


def test_the_cards_an_opponent_dug_are_tracked_and_not_fed() -> None:
    # E (seat 1) digs the 8H, taking the 9H and the JH above it, melds 8S 8D 8H and keeps the others
    hands = [["10H", "3S", "4S"], ["8S", "8D", "QC"]]
    pile = ["8H", "9H", "JH"]
    used = {c for h in hands for c in h} | set(pile) | {"3D"}
    p = GingoPlay.from_deal(["N", "E"], {"deal": 3}, suit_rows=ROWS, hands=hands, pile=pile, dealer=0,
                            stock=[C.card_name(c) for c in range(54) if C.card_name(c) not in used] + ["3D"])
    assert p.turn == 1 and p.dug_by(1) == []
    p.perform(A.Take(1, C.parse_card("8H"), meld=A.Meld(1, tuple(C.parse_cards("8S 8D 8H")))))
    assert p.dug_by(1) == C.parse_cards("9H JH")  # public: everyone saw them taken
    p.perform(A.Discard(1, C.parse_card("QC")))
    # N draws the 3D: the 10H is the card its meld hopes need least, but it melds with E's 9H and JH
    p.perform(A.Draw(0))
    assert strong_move(p) == A.Discard(0, C.parse_card("10H"))
    assert linkwise.feeds(C.parse_card("10H"), p.dug_by(1)) == linkwise.FEEDS
    assert linkwise.feeds(C.parse_card("3D"), p.dug_by(1)) == 0
    assert linkwise.choose_discard(p) != C.parse_card("10H")
    assert linkwise.link_move(p) == A.Discard(0, linkwise.choose_discard(p))
    # a dug card discarded (or laid down) is no longer known
    p.perform(A.Discard(0, linkwise.choose_discard(p)))
    p.perform(A.Draw(1))
    p.perform(A.Discard(1, C.parse_card("9H")))
    assert p.dug_by(1) == C.parse_cards("JH")


def test_plays_legal_whole_games_against_the_strong_bot() -> None:
    for players, seed in ((2, 5), (4, 6)):
        play = GingoPlay([f"p{i}" for i in range(players)], {}, seed=seed)
        rng = random.Random(seed)
        while play.phase != "game_over" and play.table.hand < 40:
            move = linkwise.link_move(play, rng) if side_of(play.turn) == 1 else strong_move(play, rng)
            play.perform(move)  # an illegal move would be refused (GingoError)
            play.check()
