"""The state of a Gin-Go table, and how a hand ends: links, Gin calls and the winner.

The winner is decided only at the end of a hand, after the capture chips are placed:
when both sides hold a link the side that went out wins; otherwise the side holding a
link wins (it held its Gin, or the capture completed the link of the side that went out).
When the stock runs out a second time there is no capture; a side holding a link wins,
and when both do, the side that called Gin first.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from companion import board as B
from companion.games.gingo.rules.errors import GingoError
from companion.games.gingo.rules.events import Event, GameWon, GinCalled, HandEnded, LinkChanged
from companion.games.gingo.rules.melds import TableMeld

PHASES = ("setup", "play", "hand_over", "game_over")


def side_of(seat: int) -> int:
    """Seat 0, 2 play for side 1; seats 1, 3 for side 2 (partners sit opposite)."""
    return 1 if seat % 2 == 0 else 2


@dataclass
class TableState:
    board: B.Board
    phase: str = "setup"
    hand: int = 1
    dealer: int = 0
    suit_rows: dict[int, str] = field(default_factory=dict)
    frames: dict[int, B.Frame] = field(default_factory=dict)
    setup_format: str | None = None
    melds: list[TableMeld] = field(default_factory=list)
    next_id: int = 1
    exhaustions: int = 0
    gin: dict[int, bool] = field(default_factory=lambda: {1: False, 2: False})
    gin_order: list[int] = field(default_factory=list)
    linked: dict[int, bool] = field(default_factory=lambda: {1: False, 2: False})
    winner: int | None = None
    win_reason: str | None = None
    hands: list[HandEnded] = field(default_factory=list)
    actions: int = 0
    #: the seat to play next as the table sees it: left of the dealer when a hand starts,
    #: then the seat after the last meld or hit (a turn ends with that player's discard,
    #: which is not entered); None when no hand is in play
    turn: int | None = None

    def copy(self) -> TableState:
        s = dataclasses.replace(self)
        s.board = self.board.copy()
        s.suit_rows = dict(self.suit_rows)
        s.frames = dict(self.frames)
        s.melds = [m.copy() for m in self.melds]
        s.gin = dict(self.gin)
        s.gin_order = list(self.gin_order)
        s.linked = dict(self.linked)
        s.hands = list(self.hands)
        return s

    def meld(self, meld_id: int) -> TableMeld:
        for m in self.melds:
            if m.id == meld_id:
                return m
        extra = " (melds from before the stock ran out can no longer be hit)" if self.exhaustions else ""
        raise GingoError(f"no meld {meld_id!r} on the table{extra}")

    def replace_meld(self, m: TableMeld) -> None:
        self.melds = [m if x.id == m.id else x for x in self.melds]

    def update_links(self, placer_side: int | None, seat: int | None) -> list[Event]:
        """Link events for each side whose link formed or broke; a link formed calls Gin."""
        events: list[Event] = []
        for side in (1, 2):
            path = self.board.link(side)
            now = path is not None
            if now == self.linked[side]:
                continue
            self.linked[side] = now
            events.append(LinkChanged(side, now, None if path is None else tuple(path)))
            if side in self.gin_order:
                self.gin_order.remove(side)
            self.gin[side] = now
            if now:
                self.gin_order.append(side)
                events.append(GinCalled(side, seat if side == placer_side else None))
        return events

    def end_hand(self, went_out: int | None, gin_before: dict[int, bool], linked_before: dict[int, bool],
                 players: list[str]) -> list[Event]:
        linked = {side: self.board.link(side) is not None for side in (1, 2)}
        winner: int | None = None
        reason: str | None = None
        if linked[1] and linked[2]:
            if went_out is not None:
                winner, reason = side_of(went_out), "both_linked"
            else:
                winner, reason = next((x for x in self.gin_order if linked[x]), 1), "gin_first"
        elif linked[1] or linked[2]:
            winner = 1 if linked[1] else 2
            reason = "gin_held" if gin_before[winner] and linked_before[winner] else "capture_link"
        end = HandEnded(self.hand, went_out, winner, reason)
        self.hands.append(end)
        events: list[Event] = [end]
        self.turn = None
        if winner is not None:
            self.winner, self.win_reason, self.phase = winner, reason, "game_over"
            events.append(GameWon(winner, tuple(p for i, p in enumerate(players) if side_of(i) == winner)))
        else:
            self.phase = "hand_over"
        return events


__all__ = ["TableState", "side_of", "PHASES"]
