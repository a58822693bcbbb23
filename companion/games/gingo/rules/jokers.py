"""Captured jokers: where the player who went out may lay them, and a good choice.

The seed: "If a player captures a Joker from an opponent's hand, it can be laid off to
any open meld on the table. If it cannot be laid off, it cannot be used." A captured
joker may not stand for a card already in play, and the other captured cards are in
play too (they were just captured), so a joker whose only fit is another captured card
is dead. Jokers are placed one after the other: a second joker may not stand for the
card the first was laid as.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion import board as B
from companion import cards as C
from companion.games.gingo.rules.actions import JokerLay
from companion.games.gingo.rules.melds import TableMeld, hit_meld, joker_fits
from companion.games.gingo.rules.options import Options


def choose_lays(melds: Sequence[TableMeld], board: B.Board, frame: B.Frame, side: int, captured: Sequence[int],
                options: Options) -> tuple[JokerLay, ...]:
    """For each captured joker (in order) the fit whose chip brings ``side``'s link
    closest, or none (the joker is dead). Nothing is changed."""
    table = [m.copy() for m in melds]
    others = [c for c in captured if c not in C.JOKERS]
    b = board.copy()
    lays: list[JokerLay] = []
    for j in (c for c in captured if c in C.JOKERS):
        best: tuple[int, int, int] | None = None  # score, index of the meld, card
        for i, m in enumerate(table):
            for d in joker_fits(m, j, table, options, forbid=others):
                sp = frame.space(d)
                score = 0
                sup = b.supply(side)
                if b.owner(sp) != side and (sup is None or sup > 0):
                    trial = b.copy()
                    before = trial.link_distance(side)
                    trial.place(side, [sp])
                    score = before - trial.link_distance(side)
                if best is None or score > best[0]:
                    best = (score, i, d)
        if best is None:
            continue
        _, i, d = best
        table[i] = hit_meld(table[i], [j], {j: d}, table, options)[0]
        sp = frame.space(d)
        sup = b.supply(side)
        if b.owner(sp) != side and (sup is None or sup > 0):
            b.place(side, [sp])
        lays.append(JokerLay(j, table[i].id, d))
    return tuple(lays)


__all__ = ["choose_lays"]
