"""The games the table holds: a summary line of every game, the folded state of the
open ones, and finished games folded when first asked for (a few stay cached).

At start-up every game's line comes from the ``games`` table; a game whose line is
missing or disagrees with its events (an upgraded file, a crash between writes of
derived data) is folded from its events and its line written again. Open games are
loaded from their last checkpoint plus the events after it. A game with an unreadable
row is quarantined: it shows what it was before that row, says what was lost, and
refuses new writes; every other game carries on.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from typing import Any

from companion.store import EventStore, GameWrite, StoredEvent
from companion.store.damage import scan_damage
from companion.table import checkpoint
from companion.table.fold import NeedsRefold, fold_game, step
from companion.table.state import GameState

log = logging.getLogger("companion.table")

#: finished games kept folded after they were read
CACHE = 8


def game_write(g: GameState, with_checkpoint: bool) -> GameWrite:
    """What a commit writes for ``g`` beside its event: its line, maybe a checkpoint."""
    cp = None
    if with_checkpoint and g.damage is None:
        cp = checkpoint_of(g)
    return GameWrite(g.id, g.created_seq, g.last_seq, g.version, g.finished, g.deleted, g.summary(), cp)


def checkpoint_of(g: GameState) -> Any:
    from companion.store import Checkpoint

    return Checkpoint(g.id, g.last_seq, g.version, checkpoint.snapshot(g))


class Library:
    """Summaries of every game and the folded states of some (not thread-safe: the
    table's lock guards it)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        #: every game's summary line, in the order the games were created; lines read at
        #: start-up stay JSON bytes until they are shown
        self.summaries: dict[str, dict[str, Any] | bytes | None] = {}
        self.seqs: dict[str, int] = {}  # each game's last seq
        self.hidden: set[str] = set()  # deleted games
        self.flagged: set[str] = set()  # damaged games
        self.open: dict[str, GameState] = {}
        self.cache: OrderedDict[str, GameState] = OrderedDict()
        self.damaged: dict[str, list[tuple[int, str]]] = {}
        self.checkpointed: dict[str, int] = {}  # game -> version of its last checkpoint
        self.replay_errors: list[str] = []

    # -- start-up ---------------------------------------------------------------------

    def start(self) -> None:
        if self.store.projected():  # the games table was written with every event: trust it
            for r in self.store.game_rows(with_summary=False):
                self.summaries[r.id] = None
                self.seqs[r.id] = r.last_seq
                if r.deleted:
                    self.hidden.add(r.id)
                if not r.finished and not r.deleted:
                    self.load(r.id)
            return
        heads = self.store.game_heads()
        rows = {r.id: r for r in self.store.game_rows(with_summary=False)}
        rebuilt: list[GameWrite] = []
        order: list[tuple[int, str]] = []
        for gid, (last, n) in heads.items():
            row = rows.get(gid)
            if gid in self.damaged or row is None or row.last_seq != last or row.version != n:
                g = self.load(gid)
                if g is None:
                    continue
                if g.damage is None:
                    with_cp = g.version >= checkpoint.EVERY
                    rebuilt.append(game_write(g, with_cp))
                    if with_cp:
                        self.checkpointed[gid] = g.version
                order.append((g.created_seq, gid))
                continue
            self.summaries[gid] = None
            self.seqs[gid] = row.last_seq
            if row.deleted:
                self.hidden.add(gid)
            order.append((row.created_seq, gid))
            if not row.finished and not row.deleted:
                self.load(gid)
        self.summaries = {gid: self.summaries[gid] for _, gid in sorted(order) if gid in self.summaries}
        self.store.write_games(rebuilt)
        self.store.mark_projected()

    def scan(self) -> dict[str, list[tuple[int, str]]]:
        """Read every row once for damage :func:`~companion.store.damage.scan_damage` (slow
        on a long log: the table runs it in the background after start-up)."""
        return scan_damage(self.store)

    def quarantine(self, found: dict[str, list[tuple[int, str]]]) -> None:
        """Fold again, from their events, the games the scan found damaged rows in."""
        for gid, rows in found.items():
            if gid in self.damaged:
                continue
            self.damaged[gid] = rows
            self.open.pop(gid, None)
            self.cache.pop(gid, None)
            self.load(gid)

    # -- folding ----------------------------------------------------------------------

    def load(self, gid: str) -> GameState | None:
        """Fold ``gid`` from its checkpoint and the events after it (or from all its
        events); keeps it (open or cached) and its summary. None: no such game, or it
        cannot be folded at all (then its summary says why)."""
        g = None
        if gid not in self.damaged:
            g = self._from_checkpoint(gid)
        if g is None:
            events = self.store.events(gid)
            if not events:
                return None
            g = self._fold(gid, events)
        if g is not None:
            self.keep(g)
        return g

    def _from_checkpoint(self, gid: str) -> GameState | None:
        cp = self.store.checkpoint(gid)
        if cp is None:
            return None
        try:
            g = checkpoint.restore(gid, cp.state)
            tail = self.store.events(gid, after=cp.seq)
            if any(ev.damage for ev in tail):
                return None
            for ev in tail:
                g = step(g, ev)
        except NeedsRefold:
            return None
        except Exception as exc:  # an unreadable checkpoint: fold the events instead
            log.warning("checkpoint of game %s not used: %s", gid, exc)
            return None
        self.checkpointed[gid] = cp.version
        return g

    def _fold(self, gid: str, events: list[StoredEvent]) -> GameState | None:
        bad = [ev for ev in events if ev.damage]
        good = events if not bad else events[:events.index(bad[0])]
        damage = None
        if bad:
            damage = {"lost": [ev.seq for ev in bad], "reason": "; ".join(f"event {ev.seq}: {ev.damage}" for ev in bad[:5]),
                      "as_of": good[-1].seq if good else None,
                      "not_applied": [ev.seq for ev in events[len(good):] if not ev.damage]}
        try:
            g = fold_game(good)
        except Exception as exc:  # one bad game must not stop the others
            if not bad:
                log.exception("game %s does not replay", gid)
                self.replay_errors.append(f"game {gid}: {exc}")
                damage = {"lost": [], "reason": f"the game does not replay: {exc}", "as_of": None,
                          "not_applied": [ev.seq for ev in events]}
            self._stub(gid, events, damage or {})
            return None
        if damage is not None:
            g.damage = damage
            log.error("game %s is quarantined: %s", gid, damage["reason"])
        return g

    def _stub(self, gid: str, events: list[StoredEvent], damage: dict[str, Any]) -> None:
        """A line for a game that cannot be folded at all: what the log still says."""
        first = events[0].payload if events and events[0].type == "game_created" and not events[0].damage else {}
        old = self.line(gid) if isinstance(self.summaries.get(gid), dict) else None
        old = old or {}
        self.flagged.add(gid)
        self.seqs[gid] = events[-1].seq if events else 0
        self.summaries[gid] = {
            "id": gid, "variant": first.get("variant", old.get("variant", "unknown")),
            "players": list(first.get("players", old.get("players", []))), "version": len(events),
            "seq": events[-1].seq if events else 0, "created": events[0].time if events else 0.0,
            "finished": False, "winner": None, "scores": None, "summary": True, "damaged": damage,
        }

    # -- summary lines ------------------------------------------------------------------

    def fetch(self, gids: list[str]) -> None:
        """Read the stored summary lines of ``gids`` not read yet, in one query."""
        missing = [gid for gid in gids if gid in self.summaries and self.summaries[gid] is None]
        if missing:
            for gid, raw in self.store.summaries(missing).items():
                if gid in self.summaries and self.summaries[gid] is None:
                    self.summaries[gid] = raw

    def line(self, gid: str) -> dict[str, Any] | None:
        """The summary line of ``gid`` (None: no such game). A team game's line stored
        before lines said ``team_play`` (the page's flag) gets it: only a team game's
        line carries ``team_mode``."""
        if gid in self.summaries and self.summaries[gid] is None:
            self.fetch([gid])
        got = self.summaries.get(gid)
        if got is None and gid in self.summaries:  # a line lost: fold the game for a new one
            g = self.load(gid)
            return None if g is None else g.summary()
        if isinstance(got, bytes):
            try:
                parsed = json.loads(got.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                parsed = None
            if not isinstance(parsed, dict):  # an unreadable line: fold the game for a new one
                g = self.load(gid)
                return None if g is None else self.line(gid)
            if "team_mode" in parsed and "team_play" not in parsed:
                parsed["team_play"] = True
            self.summaries[gid] = got = parsed
        return got

    def listed(self) -> list[str]:
        """The ids of the games not deleted, oldest first."""
        return [gid for gid in self.summaries if gid not in self.hidden]

    # -- holding ----------------------------------------------------------------------

    def keep(self, g: GameState, summary: dict[str, Any] | None = None) -> None:
        """Hold ``g`` as the current state of its game (``summary``: its summary line when
        the caller made it already, for the write: a long match's tally is counted once)."""
        self.summaries[g.id] = dict(summary) if summary is not None else g.summary()
        self.seqs[g.id] = g.last_seq
        if g.deleted:
            self.hidden.add(g.id)
        else:
            self.hidden.discard(g.id)
        if g.damage is not None:
            self.flagged.add(g.id)
        if not g.finished and not g.deleted:
            self.cache.pop(g.id, None)
            self.open[g.id] = g
            return
        self.open.pop(g.id, None)
        self.cache[g.id] = g
        self.cache.move_to_end(g.id)
        while len(self.cache) > CACHE:
            self.cache.popitem(last=False)

    def get(self, gid: str) -> GameState | None:
        g = self.open.get(gid)
        if g is not None:
            return g
        g = self.cache.get(gid)
        if g is not None:
            self.cache.move_to_end(gid)
            return g
        if gid not in self.summaries:
            return None
        return self.load(gid)

    def forget(self, gid: str) -> None:
        """Drop what is held of ``gid`` (a write to it failed): the log says again."""
        self.open.pop(gid, None)
        self.cache.pop(gid, None)
        self.summaries.pop(gid, None)
        self.seqs.pop(gid, None)
        self.hidden.discard(gid)
        self.checkpointed.pop(gid, None)
        rows = self.store.game_rows(gid)
        if rows:
            self.summaries[gid] = rows[0].raw or None
            self.seqs[gid] = rows[0].last_seq
            if rows[0].deleted:
                self.hidden.add(gid)
        if self.load(gid) is None and not rows:
            self.summaries.pop(gid, None)
            self.seqs.pop(gid, None)

    def needs_checkpoint(self, g: GameState) -> bool:
        # a finished game is folded only when someone opens it: its events are enough
        return g.version - self.checkpointed.get(g.id, 0) >= checkpoint.EVERY
