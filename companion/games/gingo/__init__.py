"""Gin-Go in the registry: tracked at the table move by move (``play_style =
"actions"``), on a board whose spaces each side counts in its own frame.

>>> from companion.games import find_variant
>>> v = find_variant("gingo")
>>> g = v.new_game(["Ann", "Bob"], {})
>>> _ = g.apply({"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}})
>>> frames = v.frames(g)
>>> frames["1"]["AS"], frames["2"]["AS"], len(frames["2"])
(0, 51, 52)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion import cards as C
from companion import melds as M
from companion.errors import IllegalAction
from companion.games.base import Variant
from companion.games.deck import GINGO, HandSizes
from companion.games.gingo.boardwait import board_wait
from companion.games.seams import DealtModel, DealtMove, GameModel
from companion.games.options import BOT_LEVEL_WORDS
from companion.games.gingo import rules

if TYPE_CHECKING:  # full play loads when a game is first played, not with the registry
    from companion.games.gingo import play


class GinGo(Variant):
    name = "gingo"
    label = "Gin-Go"
    seats = (2, 4)
    play_style = "actions"
    deck = GINGO
    options_class = rules.Options
    default_preset = None
    seat_word = "side"
    on_board = True
    setup_hand = 0  # the reveal of the suit rows is shuffled from hand 0's seed
    match_word = "game"
    #: one joker to a meld (the option max_jokers_per_meld = fewer_than_naturals plays
    #: M.JOKERS_FEWER instead: its options' ``meld_rules``)
    meld_rules = M.JOKERS
    level_words = {
        "easy": "Easy: melds what it can and throws the card that leaves the least deadwood; a beginner can beat it.",
        "normal": "Normal: also throws for the board, keeping the cards on its own link and off yours.",
        "strong": ("Strong: also plays its best draws and discards out to the end of the hand, over deals "
                   "you could be holding, and keeps the one that leaves the best board."),
    }
    deals = True
    pile_draw = False  # the stock only: the pile is dug, a card at a time
    seat_labels = {4: "4 (teams)"}
    option_labels = {"deal": "Cards dealt", "jokers": "Jokers", "max_jokers_per_meld": "Jokers in one meld",
                     "rank_axis": "Rank order", "suit_rows": "Suit rows when nobody chooses",
                     "adjacency": "Link steps", "chip_cap": "Chips per side",
                     "second_exhaustion": "Stock runs out twice", "first_dealer": "First dealer"}
    choice_labels = {
        "deal": {0: "9 for two players, 7 for four"},
        "max_jokers_per_meld": {1: "one", "fewer_than_naturals": "fewer than the natural cards"},
        "rank_axis": {"opposed": "each side from its own end", "shared": "both from side 1's end"},
        "adjacency": {"king8": "with diagonals", "ortho4": "no diagonals"},
        "chip_cap": {50: "50", "unlimited": "unlimited"},
        "second_exhaustion": {"end_hand_no_capture": "the hand ends with no capture"},
        "suit_rows": {"normal": "normal", "suit_for_suit": "suit for suit", "secrecy": "secrecy"},
        "first_dealer": {"given": "named at the set-up", "flip_high_chooses": "flip: highest chooses",
                         "flip_low_deals": "flip: lowest deals"},
    }

    def _build_options(self, preset: str | None, overrides: dict[str, Any], players: int) -> rules.Options:
        return rules.make_options(players, overrides)

    def _for_players(self, options: Any, players: int) -> Any:
        return rules.make_options(players, {})

    def hand_sizes(self, options: Any, players: int) -> HandSizes:
        deal = int(getattr(options, "deal", 0) or rules.default_deal(players))
        return HandSizes(deal, None)

    def sides(self, players: int) -> dict[str, list[int]]:
        """The seats of each side: partners sit opposite, so turns alternate between sides."""
        return {"1": [s for s in range(players) if s % 2 == 0], "2": [s for s in range(players) if s % 2 == 1]}

    def table_rules(self, options: Any, players: int) -> dict[str, Any]:
        return {**super().table_rules(options, players), "sides": self.sides(players)}

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "sides": {str(n): self.sides(n) for n in self.seats}}

    # -- the table engine --------------------------------------------------------------------

    def action_table(self) -> GinGo:
        return self

    def dealt_play(self, names: list[str], options: Any, *, dealer: int | None,
                   hand_rng: Callable[[int], random.Random]) -> play.GingoPlay:
        from companion.games.gingo import play

        return play.GingoPlay(list(names), options, dealer=dealer, hand_rng=hand_rng)

    def bot(self, level: str) -> Callable[[play.GingoPlay, random.Random | None], Any]:
        """Gin-Go's bot at ``level``: the first bot when easy, the board-minded one when
        normal, and when strong that one's best draws and discards weighed by playing the
        hand out over deals the seat could be facing (:mod:`companion.games.gingo.play.search`).

        >>> [GinGo().bot(level).__name__ for level in ("easy", "normal", "strong")]
        ['bot_move', 'strong_move', 'search_move']
        """
        from companion.play.levels import check_level

        level = check_level(level)
        if level == "easy":
            from companion.games.gingo.play.bot import bot_move

            return bot_move
        if level == "strong":
            from companion.games.gingo.play.search import search_move

            return search_move
        from companion.games.gingo.play.strong import strong_move

        return strong_move

    def dealt_bot_action(self, game: DealtModel, level: str, rng: random.Random) -> dict[str, Any]:
        game = _dealt(game)
        out: dict[str, Any] = self.bot(level)(game, rng).to_dict()
        return out

    def dealt_legal_actions(self, game: DealtModel) -> list[dict[str, Any]]:
        from companion.games.gingo.play import legal_actions

        game = _dealt(game)
        return legal_actions(game)

    def dealt_hint(self, game: DealtModel, seat: int, names: list[str]) -> dict[str, Any]:
        from companion.games.gingo.play.hint import gingo_hint
        from companion.play.hints import HINT_LEVEL

        game = _dealt(game)
        return gingo_hint(game, seat, self.bot(HINT_LEVEL)(game, random.Random(0)))

    def dealt_finished(self, game: DealtModel) -> bool:
        game = _dealt(game)
        return bool(game.phase == "game_over")

    def dealt_to_move(self, game: DealtModel, players: int) -> int:
        game = _dealt(game)
        if game.phase in ("play", "first_dealer"):  # first_dealer: the flip's winner chooses
            return int(game.turn)
        if game.phase == "setup":  # the dealer calls the set-up when the reveal says so, else the opponent
            first = int(game._first_dealer)
            return first if game.reveal.chooser == "dealer" else (first + 1) % players
        return (int(game.table.dealer) + 1) % players  # the next deal, after a hand with no winner

    def dealt_hands_over(self, game: DealtModel) -> int:
        game = _dealt(game)
        return len(game.table.as_dict().get("hands", []))

    def dealt_set_up(self, game: DealtModel) -> bool:
        game = _dealt(game)
        return game.phase not in ("setup", "first_dealer")

    def dealt_dealer(self, game: DealtModel) -> int:
        game = _dealt(game)
        if not self.dealt_set_up(game):  # the table names its dealer at the set-up
            return int(game._first_dealer)
        return int(game.table.dealer)

    def dealt_hand(self, game: DealtModel, seat: int) -> list[int]:
        game = _dealt(game)
        return list(game.hands[seat]) if game.phase == "play" else []

    def dealt_apply(self, before: DealtModel, game: DealtModel, seat: int,
                    action: dict[str, Any]) -> DealtMove:
        before = _dealt(before)
        game = _dealt(game)
        act = dict(action)
        if act.get("type") not in ("setup", "new_hand"):
            if "seat" in act and act["seat"] != seat:
                raise IllegalAction(f"the action names seat {act['seat']!r}, but you hold seat {seat}")
            act["seat"] = seat
        effects = list(game.apply(act))
        top = C.card_name(before.pile[-1]) if before.pile else None
        return DealtMove(act, effects, top, int(before.table.as_dict().get("hand") or 0))

    def dealt_summary(self, before: DealtModel, game: DealtModel, effects: list[dict[str, Any]],
                      names: list[str], explain: Callable[[dict[str, Any], Any], dict[str, Any] | None]
                      ) -> dict[str, Any]:
        """The hand that just ended: who went out, the cards captured from each hand and
        the chips they placed, the jokers laid or dead, the links, and who won the game if
        anyone did. The hands not captured (a hand that ends at the stock) are shown as
        they were held."""
        before = _dealt(before)
        game = _dealt(game)
        end = next((e for e in effects if e.get("type") == "hand_end"), {})
        capture = next((e for e in effects if e.get("type") == "capture"), None)
        chips = [e for e in effects if e.get("type") == "chips"]
        held = {str(s): [C.card_name(c) for c in cs] for s, cs in enumerate(before.hands) if cs}
        captured = dict(capture.get("cards", {})) if capture else {}
        st = game.table.as_dict()
        return {
            "hand": end.get("hand"),
            "went_out": end.get("went_out"),
            "winner": end.get("winner"),
            "reason": end.get("reason"),
            "captured": captured,
            "held": {s: cs for s, cs in held.items() if s not in captured and s != str(end.get("went_out"))},
            "jokers_laid": list(capture.get("jokers_laid", [])) if capture else [],
            "jokers_dead": list(capture.get("jokers_dead", [])) if capture else [],
            "placed": sum(len(e.get("placed", [])) for e in chips),
            "bumped": sum(len(e.get("bumped", [])) for e in chips),
            "links": st.get("links"),
            "link_distance": st.get("link_distance"),
            "gin": st.get("gin"),
            "finished": game.phase == "game_over",
        }

    def dealt_public(self, game: DealtModel) -> dict[str, Any]:
        game = _dealt(game)
        st = game.table.as_dict()
        return {"phase": game.phase, "turn": game.turn, "stage": game.stage, "dealer": st.get("dealer"),
                "hand_number": st.get("hand"), "stock": len(game.stock), "pile": [C.card_name(c) for c in game.pile],
                "discard_top": C.card_name(game.pile[-1]) if game.pile else None,
                "keep": None if game.keep is None else C.card_name(game.keep),
                "hand_sizes": [len(h) for h in game.hands] if game.phase == "play" else [0] * len(game.players),
                "table": st, "frames": self.frames(game.table)}

    def dealt_table(self, game: DealtModel) -> rules.GingoGame:
        game = _dealt(game)
        return game.table

    def board_wait(self, view: dict[str, Any], game: GameModel) -> dict[str, Any]:
        """Every space the board still has wrong, by name, number and the card it stands
        for in the frame of the side whose chip belongs there (:mod:`.boardwait`)."""
        return board_wait(view, self.frames(game))

    def dealt_turn_starts(self, game: DealtModel) -> bool:
        game = _dealt(game)
        return bool(game.phase == "play" and game.stage == "draw")  # a turn: draw, meld, then discard

    def selfplay_players(self, players: int | None, preset: str | None) -> int:
        if preset is not None:
            raise ValueError("--preset applies to the rummy games, not gingo")
        n = 2 if players is None else players
        self.check_seats(n)
        return n

    def new_game(self, players: list[str], overrides: Any) -> rules.GingoGame:
        """A table game (moves entered as they happen at the real table)."""
        return rules.new_game(list(players), dict(overrides or {}))

    def apply_action(self, game: GameModel, action: dict[str, Any]) -> list[dict[str, Any]]:
        return list(_table(game).apply(action))

    def hand_number(self, game: GameModel) -> int:
        return int(_table(game).hand)

    def table_dealer(self, game: GameModel, created_dealer: int) -> int:
        """The dealer chosen when the game was created until the set-up names the dealer
        of the first hand, then the dealer of the hand in play (or just played)."""
        t = _table(game)
        return created_dealer if t.phase == "setup" else int(t.dealer)

    def finished(self, game: GameModel) -> bool:
        return bool(_table(game).as_dict().get("phase") == "game_over")

    def game_fields(self, game: GameModel) -> dict[str, Any]:
        """What the whole game shows of ``game``: hands won by each side, the hands, the
        board and its links, the turn and the engine's own state."""
        st = _table(game).as_dict()
        return {"scores": _sides_won(st), "hands": st.get("hands", []), "finished": st.get("phase") == "game_over",
                "winner": st.get("winner"), "board": st.get("board"), "links": st.get("links"),
                "link_distance": st.get("link_distance"), "state": st, "turn": st.get("turn")}

    def summary_fields(self, game: GameModel) -> dict[str, Any]:
        """What the summary line (the game list, the live channel) shows of ``game``."""
        st = _table(game).as_dict()
        return {"scores": _sides_won(st), "winner": st.get("winner"), "hands_played": len(st.get("hands", [])),
                "phase": st.get("phase"), "hand": st.get("hand"), "board": st.get("board"),
                "links": st.get("links"), "link_distance": st.get("link_distance")}

    def frames(self, game: GameModel) -> dict[str, dict[str, int]] | None:
        """Each side's space for every card (``{"1": {"AS": 0, ...}, "2": {...}}``), once the
        suit rows are set; None before."""
        t = _table(game)
        out: dict[str, dict[str, int]] = {}
        for side in (1, 2):
            try:
                out[str(side)] = {C.card_name(c): t.space(side, c) for c in range(52)}
            except ValueError:  # the suit rows are not set up yet
                return None
        return out

    def board_position(self, game: GameModel) -> dict[str, Any]:
        """The chips the board should show for ``game`` and how its spaces link
        (:meth:`~companion.games.base.Variant.board_position`).

        >>> GinGo().board_position(GinGo().new_game(["Ann", "Bob"], {})) == {
        ...     "board": "." * 52, "options": {"adjacency": "king8"}}
        True
        """
        t = _table(game)
        return {"board": t.board.to_string52(), "options": {"adjacency": t.options.adjacency}}

    def play_line(self, n: int, hand: int, action: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
        """What one table action did, in a line a page can show: who played which cards,
        the spaces that got a chip (``placed``), those taken from the other side (``bumped``),
        the forfeited cards, the captured cards, the links formed or broken and how the
        hand ended. ``n`` counts the standing actions from 1; ``hand`` is the hand it was in (a new hand's own number).

        >>> GinGo().play_line(3, 1, {"type": "meld", "seat": 1, "cards": ["5H", "6H", "7H"]},
        ...     [{"type": "meld", "seat": 1, "side": 2, "meld": {"id": 2, "cards": ["5H", "6H", "7H"]}},
        ...      {"type": "chips", "side": 2, "spaces": [30, 34, 38], "placed": [30, 34], "bumped": [38],
        ...       "forfeited": []}])
        {'n': 3, 'hand': 1, 'type': 'meld', 'seat': 1, 'side': 2, 'cards': ['5H', '6H', '7H'], 'meld': 2, 'placed': [30, 34], 'bumped': [38]}
        """
        line: dict[str, Any] = {"n": n, "hand": hand, "type": str(action.get("type")), "seat": action.get("seat")}
        for ev in events:
            t = ev.get("type")
            if t in ("meld", "hit"):
                line["side"] = ev["side"]
                line["cards"] = list(ev.get("cards") or ev["meld"]["cards"])
                line["meld"] = ev["meld"]["id"]
            elif t == "chips":
                line["side"] = ev["side"]
                for key in ("placed", "bumped", "forfeited"):
                    if ev.get(key):
                        line[key] = list(ev[key])
            elif t == "capture":
                line["side"] = ev["side"]
                line["captured"] = {k: list(v) for k, v in ev["cards"].items() if v}
                if ev.get("jokers_dead"):
                    line["jokers_dead"] = list(ev["jokers_dead"])
            elif t == "link":
                line.setdefault("links", []).append({"side": ev["side"], "formed": ev["formed"], "path": ev["path"]})
            elif t == "hand_end":
                line["hand_end"] = {"went_out": ev["went_out"], "winner": ev["winner"], "reason": ev["reason"]}
            elif t in ("setup", "new_hand"):
                line["dealer"] = ev["dealer"]
                if t == "setup":
                    line["suit_rows"] = dict(ev["suit_rows"])
        return line

    # -- full play and its bot ------------------------------------------------------------------

    def new_play(self, players: list[str], *, seed: int = 0, options: Any = None,
                 dealer: int | None = None) -> play.GingoPlay:
        """A whole game dealt from ``seed`` (see :mod:`companion.games.gingo.play`); with no
        ``dealer``, seat 0 deals, or the players flip for it (option ``first_dealer``)."""
        from companion.games.gingo import play
        return play.GingoPlay(list(players), options, seed=seed, dealer=dealer)

    def bot_action(self, game: play.GingoPlay, rng: random.Random | None = None) -> dict[str, Any]:
        from companion.games.gingo import play
        return play.bot_action(game, rng)

    def selfplay(self, seed: int, players: int | None = None, *, check: bool = True,
                 preset: str | None = None) -> dict[str, Any]:
        if preset is not None:
            raise IllegalAction("presets apply to the rummy games, not Gin-Go")
        from companion.games.gingo import play
        return play.selfplay_game(seed, players or 2, check=check)


def _table(game: GameModel) -> rules.GingoGame:
    """The Gin-Go table game the table handed back (it holds only what this Variant made:
    anything else is a bug, a 500)."""
    if not isinstance(game, rules.GingoGame):
        raise TypeError(f"a Gin-Go table game was expected, not {type(game).__name__}")
    return game


def _dealt(game: DealtModel) -> play.GingoPlay:
    """The Gin-Go engine the table handed back for a dealt game (it holds only what
    :meth:`GinGo.dealt_play` made: anything else is a bug, a 500)."""
    from companion.games.gingo.play import GingoPlay

    if not isinstance(game, GingoPlay):
        raise TypeError(f"a dealt Gin-Go engine was expected, not {type(game).__name__}")
    return game


def _sides_won(st: dict[str, Any]) -> list[int]:
    """The hands each side (1, 2) has won, from a table game's state."""
    return [sum(1 for h in st.get("hands", []) if h.get("winner") == side) for side in (1, 2)]


__all__ = ["GinGo"]
