"""A game's state as the fold leaves it: :class:`GameState` (players, options, the hands
or the Gin-Go engine, the undo and redo stacks, damage) and how it is shown, whole
(:meth:`GameState.as_dict`, ``GET /api/v1/games/{id}``) or as a summary line
(:meth:`GameState.summary`, the game list and the live channel). The fold itself is
:mod:`companion.table.fold`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.games import Variant, find_variant
from companion.games.options import options_dict
from companion.stats import add_to_tally, hand_tally
from companion.games.seams import GameModel, GameOptions, TeamPlay
from companion.rules.base import MatchScore
from companion.store import StoredEvent
from companion.table.dealt import DealtGame


class GameTrack(Protocol):
    """How a game's events move its :class:`GameState` on, as the fold and the
    checkpoints call it (:class:`companion.table.tracking.Track` and its kinds; a
    Protocol here, as the tracks' module imports this one)."""

    def start(self, g: GameState, payload: dict[str, Any]) -> None: ...

    def apply(self, g: GameState, ev: StoredEvent) -> int | None: ...

    def settle(self, g: GameState, dirty: int | None) -> None: ...

    def stepped(self, g: GameState, ev: StoredEvent, dirty: int | None) -> None: ...

    def undo(self) -> None: ...

    def snapshot(self, g: GameState) -> dict[str, Any]: ...

    def restore(self, g: GameState, state: dict[str, Any]) -> None: ...


def tally_of(hands: Sequence[HandEntry], players: int, partnership: TeamPlay | None) -> dict[str, list[int]]:
    """The summary's tally of a rummy game's hands (per seat: points, hands won, gins...;
    a partnership's per seat at their own table), see :func:`companion.stats.hand_tally`."""
    if partnership is not None:
        return hand_tally(partnership.seat_results([h.result for h in hands]), players)
    return hand_tally((h.result for h in hands), players)


def add_tally(tally: dict[str, list[int]] | None, result: dict[str, Any], players: int,
              partnership: TeamPlay | None) -> dict[str, list[int]]:
    """A new tally: ``tally`` (left as it was; None: no hands yet) and one more hand."""
    out = {k: list(v) for k, v in tally.items()} if tally is not None else hand_tally((), players)
    for r in partnership.seat_results([result]) if partnership is not None else (result,):
        add_to_tally(out, r, players)
    return out


@dataclass(frozen=True)
class HandEntry:
    """One scored hand as the game shows it (never changed: a hand scored again is a new
    entry, so what it shows is worked out once)."""

    n: int
    seq: int
    ender: int | None
    entry: dict[str, Any]
    result: dict[str, Any]
    corrected: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "_shown", {"n": self.n, "seq": self.seq, "ender": self.ender,
                                            "corrected": self.corrected, **self.entry, "result": self.result})

    def as_dict(self) -> dict[str, Any]:
        return dict(self.shown())

    def shown(self) -> dict[str, Any]:
        """:meth:`as_dict` itself, kept with the entry (read it, never change it)."""
        return self._shown  # type: ignore[attr-defined,no-any-return]

    def encoded(self, encode: Callable[[dict[str, Any]], bytes]) -> bytes:
        """:meth:`as_dict` as JSON made by ``encode``, kept after the first time (a long
        game's answer carries every hand; each is encoded once)."""
        got: bytes | None = self.__dict__.get("_encoded")
        if got is None:
            got = encode(self.as_dict())
            object.__setattr__(self, "_encoded", got)
        return got


_SHOWN = operator.attrgetter("_shown")
_ENCODED = operator.attrgetter("_encoded")


class ShownHands(list[dict[str, Any]]):
    """A game's hands as :meth:`GameState.as_dict` shows them: a list of each hand's
    :meth:`HandEntry.shown` (the entry's own dict: read it, never change it), which also
    holds the entries, so the API's encoder takes each hand's JSON from
    :meth:`HandEntry.encoded` (see :mod:`companion.api.responses`). Neither makes anything
    new per hand: a long game's answer costs about what a short game's does (a thousand
    fresh dicts an answer cost more in the garbage collector's passes than in their making)."""

    def __init__(self, entries: Sequence[HandEntry]) -> None:
        super().__init__(map(_SHOWN, entries))
        self.entries = tuple(entries)

    def encoded(self, encode: Callable[[dict[str, Any]], bytes]) -> bytes:
        """The JSON array of the hands, each hand's JSON made by ``encode`` once and kept."""
        for h in reversed(self.entries):  # the hands new since the last answer: at the end
            if "_encoded" in h.__dict__:
                break
            h.encoded(encode)
        try:
            parts = list(map(_ENCODED, self.entries))
        except AttributeError:  # a corrected hand further back
            parts = [h.encoded(encode) for h in self.entries]
        return b"[" + b",".join(parts) + b"]"


@dataclass
class GameState:
    """A game folded from its events (see :func:`fold_game`)."""

    id: str
    variant: str
    preset: str | None
    overrides: dict[str, Any]
    players: list[str]
    dealer: int
    created: float
    #: the game's options record (its Variant's ``make_options``; the table reads none of its fields)
    options: GameOptions
    #: how its events move it on (a :class:`~companion.table.tracking.Track`, chosen by
    #: :func:`~companion.table.fold.new_state` when the game is created; stateless)
    track: GameTrack
    created_dealer: int = 0
    version: int = 0
    last_seq: int = 0
    deleted: bool = False
    rematch_of: str | None = None
    hands: list[HandEntry] = field(default_factory=list)
    match: MatchScore | None = None
    #: the table game of a game entered move by move (its Variant's ``action_table()``
    #: makes it and reads it; a dealt one's is the Variant's ``dealt_table``), else None
    engine: GameModel | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)
    effects: list[dict[str, Any]] = field(default_factory=list)  # what the latest action did
    #: Gin-Go: one line per standing action, what it did on the board (see the Variant's ``action_table().play_line``)
    plays: list[dict[str, Any]] = field(default_factory=list)
    created_payload: dict[str, Any] = field(default_factory=dict)
    created_seq: int = 0
    #: (seq, type) of the events still standing (not undone), oldest first
    standing: list[tuple[int, str]] = field(default_factory=list)
    #: (seq, type, hand) of the events undone since the last new entry, the next to redo last
    undone: list[tuple[int, str, int | None]] = field(default_factory=list)
    #: set when the game's log has unreadable rows: what was lost (the game is read-only)
    damage: dict[str, Any] | None = None
    #: a dealt game's play (the companion holds the cards), see companion.table.dealt
    dealt: DealtGame | None = None
    #: a partnership: the seat dealing at each table in the next hand, and in each hand
    table_dealers: list[int] = field(default_factory=list)
    hand_dealers: list[list[int]] = field(default_factory=list)
    #: a rummy game's tally for its summary line, kept as the hands are folded (see tally_of)
    tally: dict[str, list[int]] | None = None

    @property
    def rules(self) -> Variant:
        """The game this is (from the registry)."""
        return find_variant(self.variant)

    @property
    def table_game(self) -> GameModel:
        """:attr:`engine`, asked of a game that has one (entered move by move, or dealt by a
        Variant that keeps a table game); a bug (TypeError) when it has none."""
        if self.engine is None:
            raise TypeError(f"game {self.id} has no table game")
        return self.engine

    @property
    def match_score(self) -> MatchScore:
        """:attr:`match`, asked of a game scored by hands (its track scores the match from
        its first event); a bug (TypeError) in a game without one."""
        if self.match is None:
            raise TypeError(f"game {self.id} keeps no match score")
        return self.match

    @property
    def finished(self) -> bool:
        if self.dealt is not None:
            return bool(self.dealt.finished)
        if (moves := self.rules.action_table()) is not None and self.engine is not None:
            return moves.finished(self.engine)
        return bool(self.match is not None and self.match.finished)

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "variant": self.variant,
            "preset": self.preset,
            "preset_label": self.rules.preset_label(self.preset),
            # the rule set in play in plain words: the preset's, or the game's default one when none was named
            "rules_label": self.rules.preset_label(self.preset or self.rules.default_preset),
            "options": options_dict(self.options),
            "players": list(self.players),
            "dealer": self.dealer,
            "version": self.version,
            "seq": self.last_seq,
            "created": self.created,
            "rematch_of": self.rematch_of,
            "outing": self.created_payload.get("outing"),
            "rules": self.rules.table_rules(self.options, len(self.players)),
            "undo": self._undoable(),
            "redo": None if not self.undone else {"seq": self.undone[-1][0], "type": self.undone[-1][1],
                                                  "hand": self.undone[-1][2]},
        }
        if self.damage is not None:
            d["damaged"] = dict(self.damage)
        if self.dealt is not None:
            d.update(mode="dealt", bots=sorted(self.dealt.bots),
                     dealt=dict(self.dealt.public(), hand_overs=list(self.dealt.hand_overs)))
        v = self.rules
        if (moves := v.action_table()) is not None:  # tracked move by move: the table game's own summary
            d.update(moves.game_fields(self.table_game), plays=list(self.plays), actions=len(self.actions),
                     frames=v.frames(self.table_game))
        else:
            m = self.match_score
            d.update(
                scores=m.totals,
                final=m.final,
                hands=ShownHands(self.hands),
                finished=m.finished,
                winner=m.winner,
                match=m.as_dict(),
            )
            if (teams := v.team_play(self.options)) is not None:
                # team_play: the page shows the teams' screen on this flag (never on a team mode's name)
                d.update(teams.team_fields(self.players, m), team_play=True, table_dealers=list(self.table_dealers))
                shown = d["hands"]  # each hand with the dealers at its tables: plain dicts
                d["hands"] = [{**h, "dealers": list(dealers)} for h, dealers in zip(shown, self.hand_dealers)] \
                    + shown[len(self.hand_dealers):]
        return d

    def _undoable(self) -> dict[str, Any] | None:
        """What an undo would take back: the latest event still standing (and its hand)."""
        if not self.standing or self.dealt is not None:  # a dealt game never undoes
            return None
        seq, typ = self.standing[-1]
        hand = next((h.n for h in reversed(self.hands) if h.seq == seq), None)
        return {"seq": seq, "type": typ, "hand": hand}

    def summary(self) -> dict[str, Any]:
        """The game in a few hundred bytes: what the game list and the live channel carry
        (``GET /api/v1/games/{id}`` gives the whole game)."""
        d: dict[str, Any] = {
            "id": self.id, "variant": self.variant, "preset": self.preset, "players": list(self.players),
            "dealer": self.dealer, "version": self.version, "seq": self.last_seq, "created": self.created,
            "rematch_of": self.rematch_of, "finished": self.finished, "summary": True,
        }
        if self.created_payload.get("outing"):
            d["outing"] = self.created_payload["outing"]
        # what the history and the statistics read (companion.stats): the original date of
        # an imported game and where it came from
        if self.created_payload.get("imported_from"):
            d["imported_from"] = self.created_payload["imported_from"]
        played = self.created_payload.get("played_at")
        if isinstance(played, (int, float)) and not isinstance(played, bool):
            d["played_at"] = played
        if self.deleted:
            d["deleted"] = True
        if self.damage is not None:
            d["damaged"] = dict(self.damage)
        if self.dealt is not None:
            d.update(mode="dealt", bots=sorted(self.dealt.bots), to_move=self.dealt.to_move())
        if self.engine is not None:
            moves = self.rules.action_table()
            assert moves is not None  # a game with a table game is entered move by move
            d.update(moves.summary_fields(self.engine), actions=len(self.actions))
        else:
            m = self.match_score
            partners = self.rules.team_play(self.options)
            tally = self.tally if self.tally is not None else tally_of(self.hands, len(self.players), partners)
            d.update(scores=m.totals, final=m.final, winner=m.winner, hands_played=len(self.hands),
                     tally={k: list(v) for k, v in tally.items()})
            if partners is not None:
                team = partners.team_fields(self.players, m)
                d.update(scores=team["scores"], final=team["final"], team_mode=team["team_mode"], team_play=True,
                         team_scores=team["team_scores"], winning_seats=team["winning_seats"],
                         table_dealers=list(self.table_dealers))
        return d
