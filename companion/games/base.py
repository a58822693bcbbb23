"""What every game of the registry is: a :class:`Variant` (in the shape of
python-chess's ``variant.py``: one class per game, each saying what is particular to it).

A Variant knows its ``name`` (as the API spells it) and ``label`` (as players say it),
how many may play (``seats``), its deck (a :class:`~companion.games.deck.Deck`), how
many cards a seat holds at the end of a hand (:meth:`Variant.hand_sizes`), its options and presets (one
mechanism, :mod:`companion.games.options`), how a game of it is tracked at the table
(``play_style``: ``"hands"`` for scored hands, ``"actions"`` for Gin-Go's moves), and
how it is played in full by the companion and its bot. What the table asks of the
objects a Variant gives it (a hand's scoring, a table game's moves, team play) is
:mod:`companion.games.seams`.

**The bots.** A game gives its own bot per level (:meth:`Variant.bot`; a rummy game's
policies are :meth:`companion.games.rummy.RummyVariant.bot_policy`), and the table asks
only the Variant (:meth:`Variant.dealt_bot_action`, :meth:`Variant.dealt_hint`,
:meth:`Variant.bot_action`). A game's own bots live in its package; the machinery
they share (and the rummy bots more than one game plays) in :mod:`companion.play`, which
sits in the same layer as the games and never imports a game's package
(``tests/test_layers.py`` refuses it): the imports point from a game's package to its
bots, each inside the method that first needs them, so the registry loads without full
play and nothing in play/ or table/ picks a bot by a game's name.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from companion.errors import InvalidInput
from companion.melds import MeldRules
from companion.games.deck import GINGO, RUMSKI, STANDARD, Deck, HandSizes
from companion.games.options import BOT_LEVEL_WORDS, OptionSpec, Preset, check_overrides, option_specs, options_dict
from companion.games.seams import (ENTRY_DEFAULTS, ActionTable, DealtModel, DealtMove, GameModel, HandScoring,
                                   PlayStyle, TeamPlay, TeamRules)
from companion.rules.base import HandResult, MatchScore


class Variant(ABC):
    """One game. Subclasses set the class attributes and implement the methods."""

    name: ClassVar[str]
    label: ClassVar[str]
    #: player counts allowed, the usual one first
    seats: ClassVar[tuple[int, ...]]
    play_style: ClassVar[PlayStyle]
    deck: ClassVar[Deck]
    #: the rules module's frozen ``Options`` dataclass
    options_class: ClassVar[type]
    default_preset: ClassVar[str | None] = None
    #: plain-word labels of options and of their choices (missing ones: the name in words)
    option_labels: ClassVar[Mapping[str, str]] = {}
    choice_labels: ClassVar[Mapping[str, Mapping[Any, str]]] = {}
    #: what a player calls a seat ("player"; Gin-Go: "side")
    seat_word: ClassVar[str] = "player"
    #: played on the companion's board (the LEDs and sensors follow the active game)
    on_board: ClassVar[bool] = False
    #: what one whole game is called on the page ("the match is over"; Gin-Go: "game")
    match_word: ClassVar[str] = "match"
    #: a seat may draw the discard pile's top card (Gin-Go draws only from the stock)
    pile_draw: ClassVar[bool] = True
    #: the bots' levels in this game's words, one line each (the new-game and Play screens)
    level_words: ClassVar[Mapping[str, str]] = BOT_LEVEL_WORDS
    #: the page's words for a player count, where plain digits are not enough
    seat_labels: ClassVar[Mapping[int, str]] = {}
    #: the companion can deal it (:meth:`dealt_play`): the page's Play screen offers it
    deals: ClassVar[bool] = False
    #: how a hand ended (a result's ``kind``) in this game's words, where the page's
    #: rummy words (gin, knock, undercut...) do not say it
    kind_words: ClassVar[Mapping[str, str]] = {}
    #: how its cards meld (:mod:`companion.melds`' rule set; None: the companion does
    #: not meld its cards), the one place a game's meld rules are named
    meld_rules: ClassVar[MeldRules | None] = None

    # -- options: one mechanism ---------------------------------------------------------

    def option_specs(self) -> tuple[OptionSpec, ...]:
        """Every option, described (default, help, choices) from the Options dataclass
        (read once per game: the dataclass does not change while the program runs)."""
        cached: tuple[OptionSpec, ...] | None = self.__dict__.get("_specs")
        if cached is None:
            cached = self.__dict__["_specs"] = option_specs(self.options_class, self.option_labels,
                                                            self.choice_labels)
        return cached

    def presets(self) -> dict[str, Preset]:
        """The named rule sets, in plain words, each with all its option values."""
        cached: dict[str, Preset] | None = self.__dict__.get("_presets")
        if cached is None:
            cached = self.__dict__["_presets"] = self._make_presets()
        return dict(cached)

    def _make_presets(self) -> dict[str, Preset]:
        return {}

    def preset_label(self, preset: str | None) -> str | None:
        """The plain-word name of ``preset`` (None for none)."""
        if preset is None:
            return None
        found = self.presets().get(preset) or self.presets().get(self._preset_alias(preset) or "")
        return found.label if found is not None else preset

    def make_options(self, preset: str | None, overrides: Any, players: int) -> Any:
        """The options of a game of ``players``: ``preset`` (the default when None) with
        ``overrides`` on top. Unknown presets or options, and values an option does not
        take, raise :class:`InvalidInput` (code ``invalid_options``)."""
        clean = check_overrides(self.option_specs(), overrides if overrides is not None else {}, self.label)
        presets = self.presets()
        if preset is not None and preset not in presets:
            if not presets:
                raise InvalidInput(f"{self.label} has no presets (got preset {preset!r}); set options instead",
                                   code="invalid_options", details={"preset": _text(preset), "presets": []})
            if not isinstance(preset, str) or self._preset_alias(preset) is None:
                raise InvalidInput(f"unknown {self.label} preset {preset!r} (one of {', '.join(presets)})",
                                   code="invalid_options",
                                   details={"preset": _text(preset), "presets": list(presets)})
        try:
            return self._build_options(preset, clean, players)
        except InvalidInput:
            raise
        except (ValueError, TypeError) as exc:  # the rules module's own checks (combinations, ranges)
            raise InvalidInput(f"{self.name} options: {exc}", code="invalid_options") from None

    def _preset_alias(self, preset: str) -> str | None:
        return None

    @abstractmethod
    def _build_options(self, preset: str | None, overrides: dict[str, Any], players: int) -> Any:
        """The rules module's Options record (overrides already checked)."""

    def check_seats(self, players: int, overrides: Mapping[str, Any] | None = None) -> None:
        """Raise :class:`InvalidInput` unless ``players`` may play this game (with the
        options ``overrides`` a new game asks for: Gin Rummy's partnership seats four)."""
        if players not in self.seats:
            counts = sorted(self.seats)
            said = " or ".join(map(str, counts)) if len(counts) <= 3 else f"{counts[0]} to {counts[-1]}"
            raise InvalidInput(f"{self.name} is played by {said} players, not {players}", code="invalid_players",
                               details={"players": players, "seats": counts})

    # -- the seam: what the table switches on, asked of the game -------------------------

    #: how a hand's bonus is worded in its score's breakdown, by how the hand ended:
    #: ``{kind: (words, the option that sets the bonus)}`` (none: no breakdown of bonuses)
    bonus_words: ClassVar[Mapping[str, tuple[str, str]]] = {}
    #: an undercut scores everyone else's deadwood (Ginski), not the deadwood difference
    undercut_takes_others: ClassVar[bool] = False

    #: the game an outing (a tournament of pair matches) is played in (Gin Rummy)
    hosts_outings: ClassVar[bool] = False
    #: the ways the game is played by teams, each with the options that set it (none: a
    #: game never played by teams): ``"partnership"``, four players in two teams, each
    #: hand a pair game at each of two tables (``POST /api/v1/teams/partnership``), and
    #: ``"outing"``, the pair matches of an outing (``POST /api/v1/teams/outing``, the
    #: outings); :meth:`team_options` makes the options, :func:`~companion.games.registry.team_game`
    #: finds the game
    team_plays: ClassVar[Mapping[str, Mapping[str, Any]]] = {}

    #: the hand whose secret seed shuffles a dealt game's set-up (Gin-Go: 0, its suit reveal)
    setup_hand: ClassVar[int] = 1

    def hand_scoring(self) -> HandScoring | None:
        """How the table scores a hand of this game; None for a game tracked by its moves."""
        return None

    def action_table(self) -> ActionTable | None:
        """How the table enters this game's moves; None for a game scored by hands."""
        return None

    def team_play(self, options: Any) -> TeamPlay | None:
        """How a game with ``options`` is played by teams at several tables; None when
        it is not (every game but Gin Rummy's partnership)."""
        return None

    def team_rules(self) -> TeamRules:
        """The outing's rules and the quick team scores of the game that ``hosts_outings``;
        any other game refuses with :class:`InvalidInput`."""
        raise InvalidInput(f"{self.label} hosts no outing", code="invalid_mode")

    def team_options(self, team: str, preset: str | None, overrides: Mapping[str, Any] | None,
                     players: int) -> Any:
        """The options of a game of ``players`` played as ``team`` (one of
        :attr:`team_plays`): ``preset`` and ``overrides`` as :meth:`make_options` takes
        them, with the team play's own options on top. A game not played so is refused
        with :class:`InvalidInput` (``invalid_options``).

        >>> from companion.games import find_variant
        >>> find_variant("gin").team_options("outing", None, {"team_mode": "none"}, 2).team_mode
        'pair_tournament'
        >>> find_variant("gingo").team_options("outing", None, {}, 2)
        Traceback (most recent call last):
        ...
        companion.errors.InvalidInput: Gin-Go is not played as a team "outing"
        """
        fixed = self.team_plays.get(team)
        if fixed is None:
            raise InvalidInput(f'{self.label} is not played as a team "{team}"', code="invalid_options",
                               details={"team": _text(team), "teams": list(self.team_plays)})
        return self.make_options(preset, {**dict(overrides or {}), **fixed}, players)

    def sides(self, players: int) -> dict[str, list[int]] | None:
        """The seats of each side when the game is won by a side (a ``winner`` names a
        side, not a seat), else None."""
        return None

    def frames(self, game: GameModel) -> dict[str, dict[str, int]] | None:
        """Each side's board space for every card in ``game`` (the table game of a game of
        this variant), for a game whose cards have places on the board; else None."""
        return None

    def board_position(self, game: GameModel) -> dict[str, Any] | None:
        """What the board view (:func:`companion.boardview.board_view`) compares a board's
        chips with, for ``game`` (the table game of a game of this variant): ``board``,
        the chip on each space (52 characters), and the ``options`` the comparison reads
        (``adjacency``); None for a game not played on the board."""
        return None

    def dealt_play(self, names: list[str], options: Any, *, dealer: int | None,
                   hand_rng: Callable[[int], random.Random]) -> DealtModel:
        """A dealt game's engine: the whole game played through the companion, each hand
        shuffled by ``hand_rng(hand)``; ``dealer`` None when the game's own rule picks the
        first one. A game the companion cannot deal refuses with :class:`InvalidInput`."""
        raise InvalidInput(f"{self.label} cannot be dealt by the companion", code="invalid_mode")

    def bot(self, level: str) -> Callable[[Any, random.Random | None], Any]:
        """The companion's bot at ``level`` (``easy``, ``normal``, ``strong``): a function of
        an engine from :meth:`dealt_play` or :meth:`new_play` and a generator (where the bot
        may choose at random) to the typed action for whoever is to move, chosen on what
        that seat knows. The game picks its bots; the table and play/ never pick one by a
        game's name."""
        raise InvalidInput(f"{self.label} has no bot", code="invalid_bots")

    def dealt_bot_action(self, game: DealtModel, level: str, rng: random.Random) -> dict[str, Any]:
        """The companion's bot's next move in ``game`` (an engine from :meth:`dealt_play`)
        at ``level`` (``easy``, ``normal``, ``strong``), as the JSON action the table applies;
        ``rng`` decides where the bot may choose at random."""
        raise InvalidInput(f"{self.label} has no bot", code="invalid_bots")

    def dealt_legal_actions(self, game: DealtModel) -> list[dict[str, Any]]:
        """What the seat to move in ``game`` (an engine from :meth:`dealt_play`) may do now,
        as JSON actions."""
        raise InvalidInput(f"{self.label} cannot be dealt by the companion", code="invalid_mode")

    def dealt_hint(self, game: DealtModel, seat: int, names: list[str]) -> dict[str, Any]:
        """The strong bot's choice for ``seat`` in ``game`` (its turn) and its reason in
        words, from what that seat knows only."""
        raise InvalidInput(f"{self.label} has no hints", code="invalid_mode")

    # What a dealt game's table reads of its engine (``game``: an engine from
    # :meth:`dealt_play`; ``table/dealt.py`` asks these and never which game it is).
    # A game the companion cannot deal never gets here: :meth:`dealt_play` refuses it.

    def _not_dealt(self) -> InvalidInput:
        return InvalidInput(f"{self.label} cannot be dealt by the companion", code="invalid_mode")

    def dealt_finished(self, game: DealtModel) -> bool:
        """The game is over."""
        raise self._not_dealt()

    def dealt_to_move(self, game: DealtModel, players: int) -> int:
        """The seat that must act now in a game that is not over."""
        raise self._not_dealt()

    def dealt_hands_over(self, game: DealtModel) -> int:
        """How many hands have ended."""
        raise self._not_dealt()

    def dealt_dealer(self, game: DealtModel) -> int:
        """The seat that deals (or dealt) the hand in play."""
        raise self._not_dealt()

    def dealt_set_up(self, game: DealtModel) -> bool:
        """The game's set-up before its first hand (Gin-Go's reveal of the suits, hand 0)
        is done; False for a game without one."""
        return False

    def dealt_hand(self, game: DealtModel, seat: int) -> list[int]:
        """The cards ``seat`` holds now (none between hands or once the game is over)."""
        raise self._not_dealt()

    def dealt_endings(self, game: DealtModel, seat: int) -> dict[str, str]:
        """How each hand-ending discard the seat to move may make ends the hand, by card
        name, in the words the Play screen shows (``"gin"`` or ``"knock"``); empty for a
        game whose page needs none."""
        return {}

    def dealt_apply(self, before: DealtModel, game: DealtModel, seat: int, action: dict[str, Any]) -> DealtMove:
        """Play ``seat``'s JSON ``action`` on ``game`` (a clone of ``before``, changed in
        place): the move as played, its public effects, the top of the discard pile and
        the hand before it. ``ValueError`` naming the rule when it is not legal."""
        raise self._not_dealt()

    def dealt_summary(self, before: DealtModel, game: DealtModel, effects: list[dict[str, Any]], names: list[str],
                      explain: Callable[[dict[str, Any], Any], dict[str, Any] | None]) -> dict[str, Any]:
        """The hand-over summary of the hand the move from ``before`` to ``game`` ended
        (every hand face up, the points; ``explain(result, options)``: the winner's
        points in parts, as the table words them)."""
        raise self._not_dealt()

    def dealt_public(self, game: DealtModel) -> dict[str, Any]:
        """What of the engine every seat may see (no card of a hand in play)."""
        raise self._not_dealt()

    def dealt_table(self, game: DealtModel) -> GameModel | None:
        """The table game a dealt ``game`` keeps, for a game entered move by move (what the
        score sheet and the board read as they read a table game's); None for a game
        scored by hands."""
        return None

    def dealt_match(self, game: DealtModel) -> MatchScore | None:
        """The match so far of a dealt ``game`` scored by hands; None for one entered move
        by move (its table game keeps its own score)."""
        return None

    def dealt_results(self, game: DealtModel) -> Sequence[HandResult]:
        """The results of the hands of a dealt ``game`` that ended, for the score sheet of a
        game scored by hands (empty for one whose table game keeps its own)."""
        return ()

    def board_wait(self, view: dict[str, Any], game: GameModel) -> dict[str, Any]:
        """What a game on the board (``game``: its table game) waits for before the next
        turn, in words a player can act on, from the board ``view``'s disagreements
        (:func:`companion.boardview.board_view`). Only a game played on the board
        (``on_board``) is asked."""
        raise InvalidInput(f"{self.label} is not played on the board", code="invalid_mode")

    def dealt_turn_starts(self, game: DealtModel) -> bool:
        """A new turn is about to begin in a dealt ``game`` (a game on the board waits for
        the board to agree then, not within a turn)."""
        return False

    def selfplay_players(self, players: int | None, preset: str | None) -> int | None:
        """Check the settings of bots playing whole games (``gingo selfplay``) before the
        first one, raising :class:`InvalidInput` or ``ValueError`` for bad ones; the player
        count to play with (None: the game's own)."""
        if players is not None:
            self.check_seats(players)
        self.make_options(preset, {}, players or self.seats[0])
        return players

    # -- what the table and the phone need -------------------------------------------------

    @abstractmethod
    def hand_sizes(self, options: Any, players: int) -> HandSizes:
        """Cards each seat holds when a hand ends, under ``options``."""

    def table_rules(self, options: Any, players: int) -> dict[str, Any]:
        """What the phone needs to enter a hand of a game with these options (served in
        each game as ``rules``): hand sizes, entries it takes (a game scored by hands:
        every key of :data:`~companion.games.seams.ENTRY_DEFAULTS`), words it uses."""
        out = {"label": self.label, "seat_word": self.seat_word, "play_style": self.play_style,
               "on_board": self.on_board, "deck": self.deck.as_dict(),
               "hand_sizes": self.hand_sizes(options, players).as_dict(), **self.page_flags()}
        scoring = self.hand_scoring()
        if scoring is not None:
            out["entries"] = {**ENTRY_DEFAULTS, **scoring.entries(options)}
        # played by teams at several tables (Gin Rummy's partnership): the page's teams screen
        out["team_play"] = self.team_play(options) is not None
        return out

    def page_flags(self) -> dict[str, Any]:
        """What the phone page switches on, so that it never compares a game's name
        (served by ``GET /api/v1/variants`` and in each game's ``rules``).

        ``side_wins``: a game's winner names a side (its seats: :meth:`sides`), not a seat.

        >>> from companion.games import find_variant
        >>> find_variant("gingo").page_flags()["pile_draw"], find_variant("gin").page_flags()["match_word"]
        (False, 'match')
        >>> find_variant("gingo").page_flags()["side_wins"], find_variant("gin").page_flags()["side_wins"]
        (True, False)
        """
        return {"match_word": self.match_word, "pile_draw": self.pile_draw, "level_words": dict(self.level_words),
                "kind_words": dict(self.kind_words), "dealt_play": self.deals,
                "side_wins": self.sides(self.seats[0]) is not None}

    def seat_choices(self) -> list[dict[str, Any]]:
        """The player counts a new game offers, as the page lists them: ``players``, its
        ``label``, and the ``options`` that count sets (with the ``teams`` it makes).

        >>> from companion.games import find_variant
        >>> [c["label"] for c in find_variant("gingo").seat_choices()]
        ['2', '4 (teams)']
        """
        return [{"players": n, "label": self.seat_labels.get(n, str(n)), "options": {}, "teams": None,
                 "help": None} for n in sorted(self.seats)]

    @abstractmethod
    def selfplay(self, seed: int, players: int | None = None, *, check: bool = True,
                 preset: str | None = None) -> dict[str, Any]:
        """Bots play one whole game from ``seed`` (every invariant checked with ``check``)."""

    def describe(self) -> dict[str, Any]:
        """The variant as ``GET /api/v1/variants`` serves it."""
        presets = self.presets()
        default_players = self.seats[0]
        default = self.make_options(None, {}, default_players)
        return {
            "name": self.name,
            "label": self.label,
            "players": sorted(self.seats),
            "default_players": default_players,
            "seat_word": self.seat_word,
            "play_style": self.play_style,
            "on_board": self.on_board,
            "deck": self.deck.as_dict(),
            "hand_sizes": {str(n): self.hand_sizes(self._for_players(default, n), n).as_dict()
                           for n in sorted(self.seats)},
            "default_preset": self.default_preset,
            "presets": {name: p.values for name, p in presets.items()},
            "preset_list": [p.as_dict() for p in presets.values()],
            "options": [s.as_dict() for s in self.option_specs()],
            "seat_choices": self.seat_choices(),
            **self.page_flags(),
        }

    def _for_players(self, options: Any, players: int) -> Any:
        return options


def _text(value: Any) -> Any:
    return value if isinstance(value, (str, int, float, bool)) or value is None else repr(value)


def preset_from(name: str, label: str, help_text: str, options: Any) -> Preset:
    """A :class:`Preset` from a rules module's Options record."""
    return Preset(name, label, help_text, options_dict(options))


def players_of(options: Any, default: int) -> int:
    """The player count an options record carries (Ginski, Gin-Go), else ``default``."""
    n = getattr(options, "players", None)
    return n if isinstance(n, int) and not isinstance(n, bool) else default


# the value types and the Protocols a Variant speaks in are also importable from here
__all__ = ["ActionTable", "DealtMove", "Deck", "ENTRY_DEFAULTS", "GINGO", "HandScoring", "HandSizes", "PlayStyle",
           "RUMSKI", "STANDARD", "TeamPlay", "Variant", "players_of", "preset_from"]
