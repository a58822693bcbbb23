"""What a player may see of a rummy match (:func:`game_view`) and the invariants checked
after every action in self-play and the tests (:func:`check_game`).

>>> from companion.games import rummy_game
>>> g = rummy_game("gin", seed=3)
>>> check_game(g)
"""

from __future__ import annotations

from typing import Any, Final

from companion import cards as C
from companion.errors import IllegalAction
from companion.play.rummy_state import RummyMatch
from companion.play.rummy_actions import action_to_dict

STOCK_END_AT: Final = 2  # the last two stock cards are never drawn
MAX_HANDS: Final = 400  # a match that has not ended by then is a bug


def game_view(game: RummyMatch, seat: int | None = None) -> dict[str, Any]:
    """What a player may see, as JSON-ready data: the table (phase, turn, dealer,
    stock size, the discard pile's top, hand sizes, the cards each seat took from
    the discard pile, the match) and, for ``seat``, that player's cards and, on
    their turn, their legal actions (see :func:`action_to_dict`). With ``seat``
    None nobody's cards are shown.

    >>> from companion.games import rummy_game
    >>> v = game_view(rummy_game("gin", seed=7, dealer=0), 1)
    >>> v["phase"], v["turn"], v["stock"], len(v["hand"]), v["legal"]
    ('upcard', 1, 31, 10, [{'type': 'draw', 'source': 'discard'}, {'type': 'pass'}])
    """
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < game.players):
        raise IllegalAction(f"seat must be 0..{game.players - 1}, not {seat!r}")
    top = game.top_discard
    out: dict[str, Any] = {
        "variant": game.variant,
        "players": game.players,
        "hand_number": game.hand_number,
        "phase": game.phase,
        "turn": game.turn,
        "dealer": game.dealer,
        "stock": len(game.stock),
        "discard_top": None if top is None else C.card_name(top),
        "hand_sizes": [h.bit_count() for h in game.hands],
        "picked_up": [None if c is None else C.card_name(c) for c in game.last_taken],
        "first_deal": None if game.first_deal is None else game.first_deal.as_dict(),
        "match": game.match.as_dict(),
    }
    if seat is not None:
        out["seat"] = seat
        out["hand"] = C.mask_names(game.hands[seat])
        out["legal"] = ([action_to_dict(a) for a in game.legal_actions()]
                        if seat == game.turn else [])
    return out

# ------------------------------------------------------------------ checks

def check_game(game: RummyMatch) -> None:
    """Raise ``AssertionError`` if any invariant is broken: every card of the deck
    in exactly one place, hand sizes right for the phase, the match score equal to
    ``score_match`` over the hand results, and the match not running forever."""
    if game.phase == "first_dealer":
        if game.results or any(game.hands) or game.stock or game.discard:
            raise AssertionError("cards are dealt before the first dealer is chosen")
        return
    stock_mask = C.cards_mask(game.stock)
    discard_mask = C.cards_mask(game.discard)
    places = list(game.hands) + [stock_mask, discard_mask]
    seen = 0
    count = 0
    for m in places:
        if m & seen:
            raise AssertionError(
                f"hand {game.hand_number}: {', '.join(C.mask_names(m & seen))} in two places")
        seen |= m
        count += m.bit_count()
    if len(game.stock) + len(game.discard) != stock_mask.bit_count() + \
            discard_mask.bit_count():
        raise AssertionError(f"hand {game.hand_number}: a card repeats in a pile")
    if seen != game.deck:
        lost = game.deck & ~seen
        extra = seen & ~game.deck
        raise AssertionError(
            f"hand {game.hand_number}: cards lost {C.mask_names(lost)} "
            f"or foreign {C.mask_names(extra)}")
    for s, h in enumerate(game.hands):
        held = h & C.JOKER_MASK
        if held and (game.over or s != game.turn or game.phase != "discard"
                     or held & (held - 1) or not held & game.jokers):
            raise AssertionError(
                f"hand {game.hand_number}: seat {s} holds {', '.join(C.mask_names(held))}"
                " outside the moment of drawing it (a co-op joker never stays in a hand)")
    # a discarded joker ends the hand, so it lies on the pile only once the match is
    # over (as its last discard)
    in_pile = discard_mask & C.JOKER_MASK
    if in_pile and (not game.over or in_pile != 1 << game.discard[-1]):
        raise AssertionError(f"hand {game.hand_number}: a joker is in the discard pile "
                             "during play")
    if not game.over:
        for s, h in enumerate(game.hands):
            want = game.deal_size + (1 if game.phase == "discard" and s == game.turn else 0)
            if h.bit_count() != want:
                raise AssertionError(
                    f"hand {game.hand_number}: seat {s} holds {h.bit_count()} cards, "
                    f"expected {want} in the {game.phase} phase")
        if len(game.stock) < STOCK_END_AT:
            raise AssertionError(f"hand {game.hand_number}: the stock went below two")
    # The fold is redone whenever the results or the match object changed since the
    # last check (the match changes only when a hand ends).
    key = (len(game.results), id(game.match), game.over)
    if key != game._checked:
        again = game.rules.score_match(game.results, game.players, game.options)
        if again.as_dict() != game.match.as_dict():
            raise AssertionError("the match score differs from score_match over the hands")
        if game.over != again.finished:
            raise AssertionError("the match is over without score_match saying so (or not)")
        game._checked = key
    if len(game.results) > MAX_HANDS:
        raise AssertionError(f"the match has not ended after {MAX_HANDS} hands")


__all__ = ["game_view", "check_game"]
