"""The table's reads: the game list and its pages, the summary lines the history and the
statistics read, one game whole, its events, the log's health, and the Gin-Go game the
board follows. :class:`Reads` is given the :class:`~companion.table.ledger.Ledger`, which
opens the log, holds the lock and writes (a read takes the same lock, so it never sees
half a write).
"""

from __future__ import annotations

import heapq
import logging
from typing import Any

from companion.errors import Conflict, NotFound
from companion.table.errors import TableError
from companion.table.ledger import Ledger
from companion.table.library import game_write
from companion.table.state import GameState

log = logging.getLogger("companion.table")

#: after a restart the board looks for the game it followed among this many games written to last
BOARD_LOOKBACK = 20


class Reads:
    """The read commands of the games the ``ledger`` keeps (each under its lock)."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.store = ledger.store
        self.library = ledger.library
        self._lock = ledger.lock
        self._board_searched = False  # the log was searched for the board's game after start-up
        self._board_found: str | None = None  # what that search found

    def games(self, limit: int | None = None, before: str | None = None) -> list[dict[str, Any]]:
        """Summaries of the games not deleted, oldest first; ``limit``: only the newest
        that many (before the game ``before``, when given)."""
        with self._lock:
            ids = self.library.listed()
            if before is not None and before in ids:
                ids = ids[:ids.index(before)]
            if limit is not None:
                ids = ids[max(0, len(ids) - limit):]
            self.library.fetch(ids)
            return [dict(line) for gid in ids if (line := self.library.line(gid)) is not None]

    def all_lines(self) -> list[dict[str, Any]]:
        """Every listed game's summary line, oldest first, for the history and the
        statistics (:mod:`companion.stats`). A rummy game's line stored before lines
        carried their hands' ``tally`` is folded once and its line written again."""
        with self._lock:
            ids = self.library.listed()
            self.library.fetch(ids)
            out: list[dict[str, Any]] = []
            renewed = []
            for gid in ids:
                line = self.library.line(gid)
                if line is None:
                    continue
                if ("tally" not in line and "phase" not in line and line.get("hands_played")
                        and not line.get("damaged") and not self.ledger.committing(gid)):
                    g = self.library.load(gid)
                    if g is not None and g.damage is None:
                        renewed.append(game_write(g, False))
                        line = g.summary()
                out.append(line)
            # queued under the lock: a later write to one of these games commits after it
            ticket = self.store.submit([], games=renewed) if renewed else None
        if ticket is not None:
            try:
                self.store.wait(ticket)
            except Exception as exc:  # derived data: the fold stays the truth
                log.warning("could not store renewed game summaries: %s", exc)
        return out

    def games_page(self, limit: int | None = None, before: str | None = None) -> dict[str, Any]:
        """:meth:`games` with ``total`` (games not deleted) and ``next_before`` (the id to
        pass as ``before`` for the page before this one, or None)."""
        with self._lock:
            ids = self.library.listed()
            total = len(ids)
            page = self.games(limit=limit, before=before)
            first = page[0]["id"] if page else None
            more = first is not None and ids.index(first) > 0
            return {"games": page, "total": total, "next_before": first if more else None}

    def storage_health(self) -> dict[str, Any]:
        """The log's health: its counts, incidents, games quarantined, and warnings to show."""
        with self._lock:
            damaged = {gid: line["damaged"] for gid in sorted(self.library.flagged)
                       if (line := self.library.line(gid)) is not None and line.get("damaged")}
        out = self.store.health()
        out["damaged_games"] = damaged
        out["scan"] = self.ledger.scan_state
        warnings = list(out["incidents"])
        if self.store.damage is not None:
            warnings.append(self.store.damage.message())
        for gid, d in damaged.items():
            warnings.append(f"game {gid} is damaged and read-only: {d.get('reason')} (lost events: "
                            f"{', '.join(str(x) for x in d.get('lost', [])) or 'none'}; shown as of seq {d.get('as_of')})")
        out["warnings"] = warnings
        return out

    def state(self, game_id: str) -> GameState:
        """The game's folded state (the caller holds the lock); 404 when there is no such
        game, 409 ``game_damaged`` when it cannot be folded at all."""
        g = self.library.get(game_id)
        if g is None or g.deleted:
            s = self.library.line(game_id)
            if g is None and s is not None and s.get("damaged") and not s.get("deleted"):
                raise Conflict(f"game {game_id} cannot be read: {s['damaged'].get('reason')}", code="game_damaged")
            raise NotFound(f"no game with id {game_id!r}")
        return g

    def writable(self, game_id: str) -> GameState:
        """:meth:`state`, refused with 409 ``game_damaged`` when part of its log cannot be read."""
        g = self.state(game_id)
        if g.damage is not None:
            raise Conflict(f"game {game_id} is read-only: part of its log cannot be read "
                             f"({g.damage['reason']})", code="game_damaged")
        return g

    def game(self, game_id: str) -> dict[str, Any]:
        """The whole game (a game that cannot be folded at all: its summary line)."""
        with self._lock:
            try:
                return self.state(game_id).as_dict()
            except TableError as exc:
                s = self.library.line(game_id)
                if exc.code == "game_damaged" and s is not None:
                    return dict(s)
                raise

    def hands_of(self, game_id: str) -> list[Any]:
        """The game's ``hands`` as :meth:`game` gives them (a damaged game's: none)."""
        hands = self.game(game_id).get("hands")
        return list(hands) if isinstance(hands, list) else []

    def summary(self, game_id: str) -> dict[str, Any]:
        with self._lock:
            s = self.library.line(game_id)
            if s is None or s.get("deleted"):
                raise NotFound(f"no game with id {game_id!r}")
            return dict(s)

    def events(self, game_id: str, after: int = 0) -> list[dict[str, Any]]:
        self.summary(game_id)
        return [e.as_dict() for e in self.store.events(game_id, after=after)]

    def last_seq(self) -> int:
        return self.store.last_seq()

    def active_gingo(self) -> dict[str, Any] | None:
        """The Gin-Go game the board follows: the latest-touched one, finished or not (a
        finished game keeps its last board, the winning capture and link included, until
        its chips are cleared off: see :func:`companion.boardview.board_view`)."""
        with self._lock:
            gid = self.ledger.board_game
            if gid is None:  # none written to since start-up: the board still shows the one before
                if not self._board_searched:
                    self._board_searched = True
                    self._board_found = self._last_board_game()
                gid = self._board_found
            last = self.library.get(gid) if gid is not None else None
            if last is not None and last.finished and not last.deleted and last.damage is None:
                return last.as_dict()
            best: GameState | None = None
            for g in self.library.open.values():
                if g.rules.on_board and not g.deleted and not g.finished and g.damage is None:
                    if best is None or g.last_seq > best.last_seq:
                        best = g
            return None if best is None else best.as_dict()

    def _last_board_game(self) -> str | None:
        """(holding the lock) The game played on the board that was written to last, among
        the ``BOARD_LOOKBACK`` games written to last (their summary lines, read once, the
        first time the board asks after start-up)."""
        from companion.games.registry import find_variant

        seqs = self.library.seqs
        for gid in heapq.nlargest(BOARD_LOOKBACK, seqs, key=seqs.__getitem__):
            if gid in self.library.hidden:
                continue
            line = self.library.line(gid)
            try:
                if line is not None and find_variant(line.get("variant")).on_board:
                    return gid
            except Exception:  # a line of a game this version does not know: not on the board
                continue
        return None

    def held(self, game_id: str) -> GameState | None:
        """The folded state of a game, if there is one (for tests and tools)."""
        with self._lock:
            return self.library.get(game_id)

    def expected_board(self) -> str | None:
        """The board the active Gin-Go game expects, or None (mirror mode)."""
        g = self.active_gingo()
        return None if g is None else str(g["board"])
