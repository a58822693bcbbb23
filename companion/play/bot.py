"""A rummy bot: legal, sensible and fast, for self-play and for an empty seat.

:func:`choose_action` is the seat bot: for gin it hands over to the stronger
:mod:`companion.play.strong`; the policy below is :func:`basic_action`'s (every other
rule set, and the baseline the benchmark measures the strong bot against).

It looks only at what its player may see: its own cards, the discard pile's top, the
cards each opponent has picked up from the discard pile, the stock's size and the
match score. Its policy:

* take the upcard or the top discard only when it lowers the least deadwood the hand
  can reach after the discard (a card that only replaces itself is not worth showing);
* discard by :func:`companion.melds.best_discard` (the exact least deadwood after the
  discard, which keeps melds together); between equal discards, avoid cards near those
  the next player picked up (same rank, or same suit within two ranks), then drop the
  highest value;
* go big gin or gin whenever the rules allow it;
* when it knocks, declare its melds: the least deadwood and, among ties, the melds
  the fewest unseen cards could be laid off onto (``best_declaration``);
* as the winner of the flip for the first deal, let the other deal (it plays first);
* knock when allowed and it is not behind in the match, or the deadwood is already
  low (3 or less), or the stock is running short; the rule module decides legality,
  so Color Gin's "no knock when nothing would score" is respected;
* with Color Gin's co-op jokers, a drawn joker is discarded at once to end the hand
  (the only legal action; the engine declares gin when the other ten cards meld).

>>> from companion.play.rummy import RummyGame
>>> g = RummyGame("gin", seed=11)
>>> choose_action(g) in g.legal_actions()
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion import cards as C
from companion import melds as M
from companion.play.rummy import Action, BigGin, ChooseDeal, Discard, Draw, Knock, Pass

if TYPE_CHECKING:
    from companion.play.rummy import RummyGame

LOW_DEADWOOD = 3  # knock at once with this little deadwood, whatever the score
SHORT_STOCK = 10  # knock whenever allowed once the stock is this small


def _best_after(hand: int, variant: str, forbid: int | None) -> tuple[int, int]:
    """(least deadwood after one discard, mask of discards reaching it), never
    discarding ``forbid``."""
    dw, which = M.best_discard_mask(hand, variant)
    if forbid is None or which & ~(1 << forbid):
        if forbid is not None:
            which &= ~(1 << forbid)
        return dw, which
    best = 1 << 30
    which = 0
    for c in C.iter_cards(hand):
        if c == forbid:
            continue
        v = M.deadwood_of_mask(hand & ~(1 << c), variant)
        if v < best:
            best, which = v, 1 << c
        elif v == best:
            which |= 1 << c
    return best, which


def _score(total: int | dict[str, int]) -> int:
    if isinstance(total, dict):
        return sum(int(v) for v in total.values())
    return int(total)


def _ahead(game: RummyGame, seat: int) -> bool:
    totals: list[int | dict[str, int]] = list(game.match.totals)
    mine = _score(totals[seat])
    return all(mine >= _score(t) for s, t in enumerate(totals) if s != seat)


def _danger(card: int, picked: list[int]) -> int:
    """How close ``card`` is to cards the next player took from the discard pile."""
    r, s = C.rank(card), C.suit(card)
    d = 0
    for p in picked:
        if C.rank(p) == r and r:
            d += 1
        elif C.suit(p) == s and s >= 0 and abs(C.rank(p) - r) <= 2:
            d += 1
    return d


def choose_discard(game: RummyGame, candidates: int) -> int:
    """Among the ``candidates`` mask, the card to let go (see the module notes)."""
    seat = game.turn
    nxt = (seat + 1) % game.players
    picked = [c for c in (game.last_taken[nxt],) if c is not None]
    rules = M.get_rules(game.meld_variant)
    return min(C.iter_cards(candidates),
               key=lambda c: (_danger(c, picked), -rules.card_value(c), c))


def _knock_mask(game: RummyGame, hand: int, candidates: int) -> int:
    """The cards of ``candidates`` the player may knock (or go gin) with."""
    seat = game.turn
    out = 0
    for c in C.iter_cards(candidates):
        if game.end_kind(hand & ~(1 << c), seat) in ("gin", "knock"):
            out |= 1 << c
    return out


def _declaring(game: RummyGame, hand: int, card: int) -> Knock:
    """Knock with ``card``, declaring the melds the rules module finds best for the
    player from their own seat (``best_declaration``; Color Gin declares by its
    ``auto_declare`` rule instead)."""
    best = getattr(game.rules, "best_declaration", None)
    if best is None:
        return Knock(card)
    melds = best(hand & ~(1 << card), game.hand_options)
    return Knock(card, tuple(tuple(m) for m in melds))


STRONG_VARIANTS = frozenset({"gin"})  # rule sets whose seats play companion.play.strong


def choose_action(game: RummyGame) -> Action:
    """The seat bot's action for the player to move in ``game`` (always a legal one):
    :mod:`companion.play.strong` for the rule sets in :data:`STRONG_VARIANTS` (it wins
    about 62% of gin matches against :func:`basic_action`, ``benchmarks/bots.py``),
    :func:`basic_action` for the others."""
    if game.variant in STRONG_VARIANTS:
        from companion.play.strong import choose_action as strong_action
        return strong_action(game)
    return basic_action(game)


def basic_action(game: RummyGame) -> Action:
    """The basic bot's action for the player to move in ``game`` (always a legal one).

    In the discard phase it asks the rules only about the discards it is weighing,
    which keeps self-play fast; the engine still checks the action it plays.
    """
    phase = game.phase
    if phase == "over":
        raise ValueError("the match is over; there is nothing to choose")
    if phase == "first_dealer":
        return ChooseDeal(False)  # let the other deal: the non-dealer plays first
    seat = game.turn
    variant = game.meld_variant
    hand = game.hand(seat)
    if phase in ("upcard", "draw", "rescue"):
        legal = game.legal_actions()
        if Draw("discard") in legal:
            if phase == "rescue":
                return Draw("discard")
            top = game.discard[-1]
            now = M.deadwood_of_mask(hand, variant)
            after, _ = _best_after(hand | 1 << top, variant, top)
            if after < now:
                return Draw("discard")
        return Pass() if phase in ("upcard", "rescue") else Draw("stock")
    joker = game.joker_drawn
    if joker is not None:
        return Knock(joker)  # co-op jokers: the drawn joker ends the hand at once
    if game.end_kind(hand, seat) == "big_gin":
        return BigGin()
    taken = game.barred_discard
    allowed = hand & ~(1 << taken) if taken is not None else hand
    dw, which = _best_after(hand, variant, taken)
    best_knock = _knock_mask(game, hand, which)
    short = len(game.stock) <= SHORT_STOCK
    if best_knock:
        if dw <= LOW_DEADWOOD or short or _ahead(game, seat):
            return _declaring(game, hand, choose_discard(game, best_knock))
    elif game.must_end or dw == 0 or short:
        # the least-deadwood discard cannot end the hand (Color Gin spoiling): end with
        # another discard when one still goes out
        others = _knock_mask(game, hand, allowed & ~which)
        if others:
            return _declaring(game, hand, choose_discard(game, others))
    if game.must_end:
        raise ValueError("the rescue card does not end the hand after all")  # engine bug
    return Discard(choose_discard(game, which))


__all__ = ["choose_action", "basic_action", "STRONG_VARIANTS", "choose_discard", "LOW_DEADWOOD", "SHORT_STOCK"]
