"""The table: the one entry point for every command (phones, buttons, tests).

A command is checked through the rules engines, written to the event log
(:mod:`companion.store`) and only then applied; the state of every game is a pure fold
over its events (:func:`fold_game`), so a restart, an undo or a correction to a hand two
rounds back all come out of the same code. Bad input raises an error of :mod:`companion.errors`
(the root is also called :class:`TableError`) with a ``code`` and ``details``, and writes nothing.

The package, one job per module, listed so that each imports only modules listed before
it (``tests/test_layers.py`` checks this order, and that no import goes round a cycle):

* :mod:`~companion.table.errors`: :class:`TableError`, and what to do when an engine breaks
* :mod:`~companion.table.retries`: a retried ``client_id`` answered with its first answer, a reused one refused; new ids
* :mod:`~companion.table.subscriptions`: who hears about each commit
* :mod:`~companion.table.history`: which events stand after undos and redos, what each did
* :mod:`~companion.table.handover`: a dealt game's latest moves in public form (a hand's end is its Variant's ``dealt_summary``)
* :mod:`~companion.table.dealt`: :class:`DealtGame`, a dealt game's seats, cards and play
* :mod:`~companion.table.state`: :class:`GameState`, shown whole or as a summary line
* :mod:`~companion.table.tracking`: how a game's events move its state on (dealt, move by move,
  hand by hand), asked of what its Variant gives; a new hand moves the match on by itself
* :mod:`~companion.table.fold`: :func:`fold_game`, a game's state from its events: a loop over its track
* :mod:`~companion.table.checkpoint`: a game's folded state saved as JSON, so a start-up replays only the tail
* :mod:`~companion.table.checks`: players and seats of a new game
* :mod:`~companion.table.library`: every game's summary line, the open games' state, finished ones folded when asked
* :mod:`~companion.table.ledger`: :class:`~companion.table.ledger.Ledger`, the write path (the log, the lock,
  the folded games; trial fold, group commit, answer)
* :mod:`~companion.table.reads`: :class:`~companion.table.reads.Reads`, given the ledger: the game list,
  one game, its events, the log's health
* :mod:`~companion.table.dealing`: :class:`~companion.table.dealing.Dealing`, given the ledger and the reads:
  the commands of dealt games (create, seats, a seat's view and action, the bots)
* :mod:`~companion.table.hands`: :class:`HandInput`, checked and scored
* :mod:`~companion.table.dealt_transfer` and :mod:`~companion.table.transfer`: export and import
* :mod:`~companion.table.outing_fold`: seed 004's outing folded from its stored steps
* :mod:`~companion.table.outing_reads`: :class:`~companion.table.outing_reads.OutingReads`, an outing
  read (its rules state from its games, its view); the outings reach the games through the
  commands of :class:`~companion.table.outing_reads.GameTable`
* :mod:`~companion.table.outing_steps`: :class:`~companion.table.outing_steps.Steps`, the outings'
  write path (the lock, retries, listeners, a round paired, the games it creates and deletes)
* :mod:`~companion.table.outing_trigger`: :class:`~companion.table.outing_trigger.Trigger`, an outing
  settled after every game write and at start-up
* :mod:`~companion.table.outing_transfer`: :class:`~companion.table.outing_transfer.Transfer`, an
  outing exported and imported with its games
* :mod:`~companion.table.outings`: :class:`~companion.table.outings.Outings` (:attr:`Table.outings`),
  made of those four parts, and the changes people ask for
* :mod:`~companion.table.service`: :class:`Table`, the commands of tracked games, made of a
  ``ledger``, its ``reads`` (passed on by one-line methods), its ``dealing`` (called as
  ``table.dealing.play(...)``) and its ``outings``
* :mod:`~companion.table.replica`: a remote game's copy on the guest board, appended from the host's log

:class:`Table` holds its parts rather than inheriting them: no class of the package is
split across modules by inheritance (``tests/test_layers.py`` checks this).

Event types (payloads are JSON):

* ``game_created`` ``{"variant", "preset", "options", "players", "dealer", "rematch_of"?}``;
  a dealt game adds ``"mode": "dealt"``, ``"bots"``, ``"skip_board"``, ``"next"`` and
  ``"commitments"`` (the first hands' commitments), ``"seats"``? (a rematch's phones), the
  secret key under ``"secret"`` (never shown), or, imported once over, ``"seeds"`` (the
  published ones, see :mod:`~companion.table.dealt_transfer`)
* ``seat`` ``{"seat", "holder"}`` and ``play`` ``{"seat", "action", "by", "revealed"?, "next"?}``
  (dealt games, see :mod:`~companion.table.dealing`)
* ``hand`` ``{"ender", "hands" | "deadwood", "result"}`` (rummy variants; the result is
  the engine's :class:`~companion.rules.base.HandResult` as a dict)
* ``hand_corrected`` ``{"hand": n (1-based), "ender", "hands" | "deadwood", "result"}``
* ``action`` ``{"action": {...}}`` (Gin-Go, see :mod:`companion.games.gingo.rules`)
* ``undo`` ``{"undone": seq}``: cancels the latest event not yet undone
* ``game_deleted`` ``{}``

>>> import tempfile, pathlib
>>> from companion.store import open_store
>>> table = Table(open_store(pathlib.Path(tempfile.mkdtemp())))
>>> g = table.create_game("gingo", players=["Ann", "Bob"], client_id="new-1")
>>> g["variant"], g["version"], g["players"]
('gingo', 1, ['Ann', 'Bob'])
>>> out = table.action(g["id"], {"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}})
>>> table.game(g["id"])["version"]
2
>>> table.undo(g["id"])["game"]["version"]
3
"""

from __future__ import annotations

from companion.table.checks import MAX_PLAYER_NAME
from companion.table.errors import TableError
from companion.table.fold import fold_game
from companion.table.hands import HandInput, score_deadwood
from companion.table.service import Outcome, Table
from companion.table.state import GameState, HandEntry
from companion.table.subscriptions import Subscriber
from companion.table.transfer import EXPORT_FORMAT

__all__ = [
    "EXPORT_FORMAT", "MAX_PLAYER_NAME", "GameState", "HandEntry", "HandInput", "Outcome", "Subscriber", "Table",
    "TableError", "fold_game", "score_deadwood",
]
