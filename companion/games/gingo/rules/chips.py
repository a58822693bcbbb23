"""Chips going down for a play, and the chip cap's forfeits.

A side owns 50 chips (option ``chip_cap``). When a play needs more new spaces than the
side has chips left, the player chooses which spaces to fill and only the rest, what the
supply cannot cover, is forfeited; chips already on the board are never moved. So a play
names exactly ``need - supply`` forfeits in ``skip``: none when the supply covers it,
never more than the shortfall, and never a card whose space already holds the side's chip
(it needs no chip).

>>> from companion.board import Board, Frame
>>> b = Board(chip_cap=2)
>>> ev = place_chips(b, Frame(1, "SHDC"), 1, C.parse_cards("7H 8H 9H"), C.parse_cards("8H"), "meld")
>>> ev.placed, C.card_name(ev.forfeited[0]), b.supply(1)
((25, 33), '8H', 0)
"""

from __future__ import annotations

from collections.abc import Sequence

from companion import board as B
from companion import cards as C
from companion.games.gingo.rules.errors import GingoChipShortfall, GingoError
from companion.games.gingo.rules.events import ChipsPlaced
from companion.games.gingo.rules.reading import name


def _plural(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


def shortfall(board: B.Board, frame: B.Frame, side: int, cards: Sequence[int]) -> int:
    """How many chips ``side`` lacks to cover ``cards`` (natural cards) now."""
    sup = board.supply(side)
    if sup is None:
        return 0
    new = {frame.space(c) for c in cards} - set(B.mask_spaces(board.mask(side)))
    return max(0, len(new) - sup)


def place_chips(board: B.Board, frame: B.Frame, side: int, cards: Sequence[int], skip: Sequence[int],
                what: str) -> ChipsPlaced:
    """Put ``side``'s chips on the spaces of ``cards`` (natural cards, in table order),
    forfeiting those of ``skip``; changes ``board`` only when the play is legal."""
    for c in skip:
        if c not in cards:
            raise GingoError(f"{what}: cannot skip {name(c)}, no chip goes there in this play")
    targets = list(dict.fromkeys(frame.space(c) for c in cards))
    skipped = [frame.space(c) for c in skip]
    new_needed = [sp for sp in targets if board.owner(sp) != side]
    cap = board.supply(side)
    supply = len(new_needed) if cap is None else cap
    need = len(new_needed)
    short = max(0, need - supply)
    needing = [C.card_name(c) for c in dict.fromkeys(cards) if board.owner(frame.space(c)) != side]
    if skip:
        owned = [c for c in skip if board.owner(frame.space(c)) == side]
        if owned:
            raise GingoError(f"{what}: cannot forfeit {C.card_name(owned[0])}: its space already holds side {side}'s "
                             "chip, so it needs no chip")
        if not short:
            raise GingoChipShortfall(
                f"{what}: chips may be forfeited only when the supply runs short (side {side} has {supply} left and "
                f"this play needs {need})", side=side, supply=supply, need=need, cards=needing)
        if len(skip) > short:
            raise GingoChipShortfall(
                f"{what}: side {side} has {supply} chips left and this play needs {need}, so only "
                f"{_plural(short)} may be forfeited, not {len(skip)} ({' '.join(C.card_name(c) for c in skip)}): "
                "the player chooses which spaces to fill, and only what the supply cannot cover is forfeited (chip cap)",
                side=side, supply=supply, need=need, cards=needing)
    fill = [sp for sp in targets if sp not in skipped]
    new_fill = [sp for sp in fill if board.owner(sp) != side]
    if len(new_fill) > supply:
        raise GingoChipShortfall(
            f"{what}: side {side} has {supply} chips left but this play needs {len(new_fill)}; name the "
            f"{_plural(len(new_fill) - supply).replace('chip', 'card')} whose chips are forfeited in 'skip' (chip "
            f"cap: a side owns {board.chip_cap} chips; the player chooses which spaces to fill and what the supply "
            "cannot cover is forfeited)", side=side, supply=supply, need=len(new_fill),
            cards=[C.card_name(c) for c in dict.fromkeys(cards) if frame.space(c) in new_fill])
    bumped = board.place(side, fill)
    board.pop_link_events()  # the engine compares links itself
    return ChipsPlaced(side, tuple(fill), tuple(new_fill), tuple(bumped), tuple(skip))


__all__ = ["place_chips", "shortfall"]
