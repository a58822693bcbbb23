"""Who deals first: the flip for the deal (seed 004, the option ``first_dealer``).

Seed 004: "Each player flips one CARDomino face up. The player turning the highest
CARDomino has his choice to deal first or not"; players who tie for the highest flip again.
The rule is an option of every rummy game (``first_dealer``):

* ``"random"``: the dealer is drawn at random (the engine's seed);
* ``"flip_high_chooses"`` (``gin_004``): every player flips a card; the highest
  chooses to deal or not; players tied for the highest flip again, until one is
  highest. A player who does not deal leaves the deal to the player on their right,
  so they play first (with two players: the other player deals);
* ``"flip_low_deals"`` (``pagat``): the lowest card deals; a tie for the lowest flips
  again.

Cards count by rank, the ace low (1) and the king high (13); suits never break a tie.
A Rumski wild counts 0. A flipped card stays face up, so no card is flipped twice.

Quick entry (what the players flipped, round by round) goes through
:func:`first_dealer_from_flips`; full play draws the flips with :func:`draw_flips`.

>>> fd = first_dealer_from_flips([["7H", "7S"], ["2C", "KD"]], 2, "flip_high_chooses", "pass")
>>> fd.winner, fd.dealer
(1, 0)
>>> first_dealer_from_flips([["7H", "7S"]], 2, "flip_high_chooses", "deal")
Traceback (most recent call last):
...
companion.errors.IllegalAction: first dealer (flip_high_chooses): seats 0 and 1 tie with 7 in round 1 and flip again; give round 2
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from companion import cards as C
from companion.errors import IllegalAction

RULES: Final = ("random", "flip_high_chooses", "flip_low_deals")
FLIP_RULES: Final = ("flip_high_chooses", "flip_low_deals")


@dataclass(frozen=True)
class FirstDeal:
    """The flips for the first deal: ``rounds`` of ``(seat, card)``, the ``winner``
    (highest, or lowest under ``flip_low_deals``) and the ``dealer`` (None while the
    winner of ``flip_high_chooses`` has not chosen)."""

    rule: str
    rounds: tuple[tuple[tuple[int, int], ...], ...]
    winner: int
    dealer: int | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "rounds": [[{"seat": s, "card": C.card_name(c)} for s, c in r] for r in self.rounds],
            "winner": self.winner,
            "dealer": self.dealer,
        }


def flip_value(card: int) -> int:
    """What a flipped card counts: its rank, ace 1 ... king 13; a wild 0."""
    return C.rank(card)


def _err(rule: str, text: str) -> IllegalAction:
    return IllegalAction(f"first dealer ({rule}): {text}")


def _seats_words(seats: Sequence[int]) -> str:
    names = [str(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _check_rule(rule: str) -> None:
    if rule not in FLIP_RULES:
        raise IllegalAction(f"first dealer: {rule!r} is not a flip rule (one of {', '.join(FLIP_RULES)})")


def _round_leaders(flips: Sequence[tuple[int, int]], rule: str) -> list[int]:
    values = [flip_value(c) for _, c in flips]
    best = max(values) if rule == "flip_high_chooses" else min(values)
    return [s for (s, _), v in zip(flips, values) if v == best]


def dealer_after_choice(winner: int, deal: bool, players: int) -> int:
    """The dealer once the winner of the flip chose to ``deal`` or not: not dealing
    leaves the deal to the player on the winner's right, so the winner plays first."""
    return winner if deal else (winner - 1) % players


def first_dealer_from_flips(
    flips: Sequence[Sequence[str | int]], players: int, rule: str = "flip_high_chooses",
    choice: str | None = None, deck: int = C.STANDARD_DECK | C.RUMSKI_DECK,
) -> FirstDeal:
    """Who deals first from what was flipped (quick entry).

    ``flips``: one list per round; round 1 holds one card per player in seat order,
    each later round one card per player still tied, in seat order. ``choice``: under
    ``flip_high_chooses``, ``"deal"`` or ``"pass"`` for the winner (None: not chosen
    yet, ``dealer`` stays None). Raises :class:`~companion.errors.IllegalAction` naming the rule when a round
    has the wrong number of cards, a card is flipped twice, a tie is left unbroken,
    or a round follows a clear winner.
    """
    _check_rule(rule)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 8:
        raise _err(rule, f"players must be a number from 2 to 8, got {players!r}")
    if isinstance(flips, (str, bytes)) or not isinstance(flips, Sequence) or not flips:
        raise _err(rule, "give the flips as a list of rounds, each a list of cards")
    if choice not in (None, "deal", "pass"):
        raise _err(rule, f"the winner's choice is 'deal' or 'pass', not {choice!r}")
    if rule == "flip_low_deals" and choice is not None:
        raise _err(rule, "the lowest card deals: there is no choice to make")
    seats = list(range(players))
    seen = 0
    rounds: list[tuple[tuple[int, int], ...]] = []
    for i, cards_in in enumerate(flips):
        if not seats or len(seats) == 1 and rounds:
            raise _err(rule, f"round {i + 1} comes after seat {seats[0]} won the flip in round {i}")
        if isinstance(cards_in, str):
            cards_in = cards_in.replace(",", " ").split()
        if isinstance(cards_in, bytes) or not isinstance(cards_in, Sequence):
            raise _err(rule, f"round {i + 1} must be a list of cards")
        if len(cards_in) != len(seats):
            who = "every player" if i == 0 else f"seats {_seats_words(seats)} (still tied)"
            raise _err(rule, f"round {i + 1} needs one card for {who}: {len(seats)} cards, "
                             f"got {len(cards_in)}")
        round_flips: list[tuple[int, int]] = []
        for seat, text in zip(seats, cards_in):
            try:
                card = C.parse_card(text)
            except ValueError as exc:
                raise _err(rule, f"round {i + 1}, seat {seat}: {exc}") from None
            if not deck >> card & 1:
                raise _err(rule, f"round {i + 1}, seat {seat}: {C.card_name(card)} is not in this deck")
            if seen >> card & 1:
                raise _err(rule, f"round {i + 1}, seat {seat}: {C.card_name(card)} was flipped "
                                 "already (a flipped card stays face up)")
            seen |= 1 << card
            round_flips.append((seat, card))
        rounds.append(tuple(round_flips))
        seats = _round_leaders(round_flips, rule)
    if len(seats) > 1:
        value = flip_value(dict(rounds[-1])[seats[0]])
        # the seats to flip again, for a page to ask them (details)
        raise IllegalAction(str(_err(rule, f"seats {_seats_words(seats)} tie with {value} in round {len(rounds)} "
                                           f"and flip again; give round {len(rounds) + 1}")),
                            details={"tied": list(seats), "round": len(rounds) + 1})
    winner = seats[0]
    if rule == "flip_low_deals":
        dealer: int | None = winner
    else:
        dealer = None if choice is None else dealer_after_choice(winner, choice == "deal", players)
    return FirstDeal(rule, tuple(rounds), winner, dealer)


def draw_flips(rng: random.Random, deck: int, players: int, rule: str) -> FirstDeal:
    """The flips of full play: each player (then each still tied) turns a card from
    the shuffled ``deck`` (a card mask) until one is highest (lowest); the winner has
    not chosen yet under ``flip_high_chooses`` (``dealer`` None)."""
    _check_rule(rule)
    pool = C.mask_cards(deck)
    rng.shuffle(pool)
    seats = list(range(players))
    rounds: list[tuple[tuple[int, int], ...]] = []
    while len(seats) > 1 or not rounds:
        if len(pool) < len(seats):  # a tie through the whole deck: start again
            pool = C.mask_cards(deck)
            rng.shuffle(pool)
        round_flips = tuple((s, pool.pop()) for s in seats)
        rounds.append(round_flips)
        seats = _round_leaders(round_flips, rule)
    winner = seats[0]
    return FirstDeal(rule, tuple(rounds), winner, winner if rule == "flip_low_deals" else None)


__all__ = ["RULES", "FLIP_RULES", "FirstDeal", "flip_value", "dealer_after_choice",
           "first_dealer_from_flips", "draw_flips"]
