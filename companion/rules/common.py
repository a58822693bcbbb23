"""Plumbing the rummy rule modules share: reading hands and checking results.

:mod:`companion.games.gin.rules`, :mod:`~companion.games.color_gin.rules` and
:mod:`~companion.games.ginski.rules` read their hands the same way (their options are
described, built and checked by :mod:`companion.games.options`);
what differs between them comes in as arguments: the ``Options`` class, the game's
name as its messages spell it (its Variant's name: ``gin``, ``color_gin``, ``ginski``),
the deck, how many cards a seat may hold and the words of the messages that differ.

Every check raises ``ValueError`` naming what is wrong (a refusal about one seat's cards an
:func:`companion.errors.refusal`, a ``ValueError`` whose details name the field and seat), as the module surface in
:mod:`companion.rules.base` promises.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.errors import IllegalAction, refusal
from companion import cards as C
from companion.rules.base import HandResult


def read_seat_hands(
    hands: Sequence[Any],
    players: int,
    deck: int,
    *,
    players_text: str,
    not_in_deck: str,
    count_error: Callable[[int, int], str | None],
) -> list[int]:
    """Each seat's cards as a mask, from ``hands`` in seat order (card names, ints or a
    mask per seat).

    There must be ``players`` hands (else ``"<players_text>: expected N hands, got
    M"``). Seat by seat the cards must parse, lie in ``deck`` (else ``"seat S: <cards>
    <not_in_deck>"``), not be in an earlier seat's hand, and number what
    ``count_error(seat, count)`` accepts: it returns None, or what the seat should hold
    (``"seat S holds N cards; <that>"``).

    >>> read_seat_hands(["AS 2S", "3S"], 2, C.STANDARD_DECK, players_text="two",
    ...                 not_in_deck="is foreign", count_error=lambda seat, n: None)
    [3, 4]
    >>> read_seat_hands(["AS 2S", "2S"], 2, C.STANDARD_DECK, players_text="two",
    ...                 not_in_deck="is foreign", count_error=lambda seat, n: None)
    Traceback (most recent call last):
    ...
    companion.errors.IllegalAction: seat 1: 2S is already in another hand
    """
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise IllegalAction("hands must be a list with each player's cards in seat order")
    if len(hands) != players:
        raise IllegalAction(f"{players_text}: expected {players} hands, got {len(hands)}")
    masks: list[int] = []
    seen = 0
    for seat, hand in enumerate(hands):
        try:
            mask = C.to_mask(hand)
        except ValueError as exc:
            raise refusal(f"seat {seat}: {exc}", field="hands", seat=seat) from None
        foreign = mask & ~deck
        if foreign:
            raise refusal(f"seat {seat}: {', '.join(C.mask_names(foreign))} {not_in_deck}", field="hands", seat=seat)
        dup = mask & seen
        if dup:
            names = ", ".join(C.mask_names(dup))
            raise refusal(f"seat {seat}: {names} is already in another hand", field="hands", seat=seat)
        seen |= mask
        count = mask.bit_count()
        expected = count_error(seat, count)
        if expected is not None:
            raise refusal(f"seat {seat} holds {count} cards; {expected}", field="hands", seat=seat)
        masks.append(mask)
    return masks


def check_result(
    result: HandResult, number: int, players: int, variant: str, game_title: str,
    noun: str = "hand",
) -> None:
    """Check that ``result``, the ``number``-th (from 1) of a match, is a ``variant``
    result with points for ``players`` seats; messages call it ``"<noun> <number>"``
    and the game ``game_title``.

    >>> check_result(HandResult("gin", "void", None, None, [0, 0], [0, 0]), 3, 2,
    ...              "ginski", "Ginski", "round")
    Traceback (most recent call last):
    ...
    companion.errors.IllegalAction: round 3 is a gin result, not Ginski
    """
    if result.variant != variant:
        raise IllegalAction(f"{noun} {number} is a {result.variant} result, not {game_title}")
    if len(result.points) != players:
        raise IllegalAction(
            f"{noun} {number} has points for {len(result.points)} seats, not {players}")


__all__ = ["read_seat_hands", "check_result"]
