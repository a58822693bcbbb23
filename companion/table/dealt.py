"""A dealt game: the companion holds the deck, every seat's cards and the stock.

:class:`DealtGame` wraps a full-play engine (:class:`~companion.play.rummy.RummyGame` for
Gin Rummy, Color Gin and Ginski; :class:`~companion.play.gingo.GingoPlay` for Gin-Go)
with the seats (which are bots, which phone token holds which seat) and the match key
the hands are shuffled from (:mod:`companion.play.deal`). It is folded from events like
every game: ``game_created`` (with ``"mode": "dealt"``, the bots and the secret key),
``seat`` (a seat claimed or freed) and ``play`` (one seat's action). It never changes in
place: :meth:`DealtGame.after` returns the game after one more event.

What anyone may see is :meth:`public`; a seat's own cards and legal actions are
:meth:`view`. The key lives only in the ``secret`` part of the first event's payload,
which no public rendering of an event shows (:func:`public_payload`).
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from companion.errors import IllegalAction
from companion import cards as C
from companion.games import Variant
from companion.play.deal import HashRandom, Unpublished, commitment, hand_seed
from companion.play.levels import level_of
from companion.store.records import SECRET, public_payload
from companion.table.handover import RECENT, gingo_summary, public_move, rummy_summary

def check_bots(bots: Any, players: int) -> list[int]:
    """The bot seats, sorted; ``ValueError`` naming what is wrong."""
    if not isinstance(bots, list) or not all(isinstance(b, int) and not isinstance(b, bool) for b in bots):
        raise IllegalAction(f"bots is a list of seat numbers, like [1], not {bots!r}")
    for b in bots:
        if not 0 <= b < players:
            raise IllegalAction(f"bot seat {b} does not exist: seats are 0..{players - 1}")
    if len(set(bots)) != len(bots):
        raise IllegalAction("a bot seat is listed twice")
    return sorted(bots)


@dataclass
class DealtGame:
    """One dealt game's play state (see the module notes)."""

    variant: Variant
    names: list[str]
    key: bytes | None  # None: a game imported once it was over, replayed from its published seeds
    bots: frozenset[int]
    engine: Any  # RummyGame | GingoPlay
    #: the seeds published in the log, by hand (what an imported game is replayed from)
    published: dict[int, bytes] = field(default_factory=dict)
    skip_board: bool = False
    seats: dict[int, str] = field(default_factory=dict)  # seat -> the token id holding it
    log: list[dict[str, Any]] = field(default_factory=list)  # the standing events after game_created
    effects: list[dict[str, Any]] = field(default_factory=list)  # what the latest action did (public)
    #: the sequence number of the event that ended each hand (for the score sheet)
    ended_at: list[int] = field(default_factory=list)
    #: the latest moves, oldest first, as everyone may read them (at most RECENT)
    recent: list[dict[str, Any]] = field(default_factory=list)
    #: seat -> the card it has just drawn from the stock (shown in its own view only)
    drawn: dict[int, int] = field(default_factory=dict)
    #: what each hand that ended showed (its hand-over summary), in order
    hand_overs: list[dict[str, Any]] = field(default_factory=list)
    #: hints asked for, by seat (``hint`` events: GET .../hint)
    hints: dict[int, int] = field(default_factory=dict)

    # -- making ---------------------------------------------------------------------------

    @classmethod
    def create(cls, variant: Variant, payload: dict[str, Any], options: Any) -> DealtGame:
        names = list(payload["players"])
        secret = payload.get(SECRET) or {}
        published = {int(k): bytes.fromhex(str(v)) for k, v in dict(payload.get("seeds") or {}).items()}
        key: bytes | None = None  # imported: every hand from its published seed
        if "seeds" not in payload:
            key = bytes.fromhex(str(secret.get("key", "")))
            if len(key) < 16:
                raise IllegalAction("a dealt game's first event has lost its key: the deal cannot be replayed")
        bots = frozenset(check_bots(list(payload.get("bots") or []), len(names)))
        dealer = int(payload.get("dealer", 0))

        def hand_rng(k: int) -> random.Random:
            seed = hand_seed(key, k) if key is not None else published.get(k)
            return Unpublished(k) if seed is None else HashRandom(seed)

        # no dealer named: the game's own rule (seat 0, or the flip when the options say so)
        engine: Any = variant.dealt_play(names, options, dealer=dealer if "dealer" in payload else None,
                                         hand_rng=hand_rng)
        seats = {int(s): str(h) for s, h in dict(payload.get("seats") or {}).items()}  # a rematch's phones
        return cls(variant, names, key, bots, engine, published=published, seats=seats,
                   skip_board=bool(payload.get("skip_board", False)))

    def clone(self) -> DealtGame:
        other = copy.copy(self)
        other.engine = self.engine.clone()
        other.seats = dict(self.seats)
        other.log = list(self.log)
        other.ended_at = list(self.ended_at)
        other.recent = list(self.recent)
        other.drawn = dict(self.drawn)
        other.hand_overs = list(self.hand_overs)
        other.hints = dict(self.hints)
        return other

    @property
    def by_moves(self) -> bool:
        """The game is tracked move by move (its engine speaks JSON actions and waits for
        the board), not scored by hands."""
        return self.variant.play_style == "actions"

    # -- whose turn --------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        if self.by_moves:
            return bool(self.engine.phase == "game_over")
        return bool(self.engine.over)

    def to_move(self) -> int | None:
        """The seat that must act now (None once the game is over)."""
        if self.finished:
            return None
        e = self.engine
        if not self.by_moves:
            return int(e.turn)
        if e.phase in ("play", "first_dealer"):  # first_dealer: the flip's winner chooses
            return int(e.turn)
        n = len(self.names)
        if e.phase == "setup":  # the dealer calls the set-up when the reveal says so, else the opponent
            first = int(e._first_dealer)
            return first if e.reveal.chooser == "dealer" else (first + 1) % n
        return (int(e.table.dealer) + 1) % n  # the next deal, after a hand with no winner

    def hands_over(self) -> int:
        """How many hands have ended."""
        if self.by_moves:
            return len(self.engine.table.as_dict().get("hands", []))
        return len(self.engine.results)

    @property
    def dealer(self) -> int:
        if self.by_moves and not self.set_up():  # the table names its dealer at the set-up
            return int(self.engine._first_dealer)
        return int(self.engine.table.dealer if self.by_moves else self.engine.dealer)

    # -- what a seat may do ------------------------------------------------------------------

    def hand_cards(self, seat: int) -> list[int]:
        if self.by_moves:
            return list(self.engine.hands[seat]) if self.engine.phase == "play" else []
        return C.mask_cards(self.engine.hands[seat]) if not self.engine.over else []

    def legal_actions(self, seat: int | None) -> list[dict[str, Any]]:
        """The actions ``seat`` may take now, as JSON (empty when it is not its turn)."""
        if seat is None or seat != self.to_move():
            return []
        return self.variant.dealt_legal_actions(self.engine)

    def endings(self, seat: int | None) -> dict[str, str]:
        """How each knock ``seat`` may make now ends the hand, by the card it discards:
        ``"gin"`` or ``"knock"`` (the Play screen says Gin, not "Knock", for a gin)."""
        if self.by_moves or seat is None or seat != self.to_move():
            return {}
        from companion.play.rummy import Knock

        e = self.engine
        out: dict[str, str] = {}
        for a in e.legal_actions():
            if isinstance(a, Knock):
                kind = e.end_kind(e.hands[seat] & ~(1 << a.card), seat)
                out[C.card_name(a.card)] = "gin" if kind in ("gin", "big_gin") else "knock"
        return out

    def after(self, seat: int, action: Any) -> tuple[DealtGame, list[dict[str, Any]]]:
        """The game after ``seat`` plays ``action`` (a JSON action) and what it did, as public
        events; ``ValueError`` naming the rule when it is not legal (nothing changes)."""
        if self.finished:
            raise IllegalAction("the game is over: no more actions")
        mover = self.to_move()
        if seat != mover:
            who = self.names[mover] if mover is not None else "nobody"
            raise IllegalAction(f"it is seat {mover}'s turn ({who}), not seat {seat}'s: wait for your turn")
        if not isinstance(action, dict):
            raise IllegalAction("an action is an object from legal_actions, like {\"type\": \"draw\", ...}")
        new = self.clone()
        if self.by_moves:
            act = dict(action)
            if act.get("type") not in ("setup", "new_hand"):
                if "seat" in act and act["seat"] != seat:
                    raise IllegalAction(f"the action names seat {act['seat']!r}, but you hold seat {seat}")
                act["seat"] = seat
            effects = list(new.engine.apply(act))
            played = act
            top = C.card_name(self.engine.pile[-1]) if self.engine.pile else None
            hand = self.engine.table.as_dict().get("hand") or 0
        else:
            from companion.play.rummy import action_from_dict, action_to_dict

            typed = action_from_dict(action)
            new.engine.apply(typed)
            played = action_to_dict(typed)
            effects = [{"type": "played", "seat": seat, "action": played}]
            top = C.card_name(self.engine.discard[-1]) if self.engine.discard else None
            hand = self.engine.hand_number
        new.effects = effects
        new._noted(self, seat, played, effects, top, int(hand))
        return new, effects

    def _noted(self, before: DealtGame, seat: int, played: dict[str, Any], effects: list[dict[str, Any]],
               top: str | None, hand: int) -> None:
        """Keep what the Play screen shows of ``seat``'s move: the move in public form, the
        card it drew from the stock (for its own view) and, when the move ended a hand,
        the hand-over summary."""
        self.recent = (self.recent + [public_move(seat, played, hand=hand, top=top)])[-RECENT:]
        kind = played.get("type")
        if kind == "draw" and played.get("source", "stock") != "discard":
            fresh = [c for c in self.hand_cards(seat) if c not in set(before.hand_cards(seat))]
            if len(fresh) == 1:
                self.drawn[seat] = fresh[0]
        elif kind not in ("meld", "hit", "take"):  # the turn is over: the card is not new any more
            self.drawn.pop(seat, None)
        if self.hands_over() > before.hands_over():
            self.drawn.clear()
            summary = (gingo_summary(before.engine, self.engine, effects) if self.by_moves
                       else rummy_summary(self.engine, self.names))
            self.hand_overs.append(summary)

    # -- what anyone may see ----------------------------------------------------------------

    def seed_of(self, hand: int) -> bytes | None:
        """Hand ``hand``'s seed (0: Gin-Go's set-up, its reveal of the suits); None when
        it is not known here (an imported game knows only the published ones)."""
        return hand_seed(self.key, hand) if self.key is not None else self.published.get(hand)

    def set_up(self) -> bool:
        """Gin-Go: the set-up (the reveal of the suits, and the flip) is done."""
        return self.by_moves and self.engine.phase not in ("setup", "first_dealer")

    def revealed(self) -> list[int]:
        """The hands whose seed is public now: every hand that is over, and Gin-Go's set-up
        (hand 0) once it is done (the suits it revealed are on the table)."""
        return ([0] if self.set_up() else []) + list(range(1, self.hands_over() + 1))

    def deals(self) -> list[dict[str, Any]]:
        """Each hand's commitment and, once the hand is over, its seed (to check the deal);
        Gin-Go's set-up is hand 0."""
        done = set(self.revealed())
        current = self.hands_over() + (0 if self.finished else 1)
        out = []
        for k in range(self.variant.setup_hand, current + 1):
            seed = self.seed_of(k)
            if seed is None:
                continue
            out.append({"hand": k, "commitment": commitment(seed), "seed": seed.hex() if k in done else None})
        return out

    def seat_list(self) -> list[dict[str, Any]]:
        return [{"seat": s, "name": self.names[s], "bot": s in self.bots, "taken": s in self.seats or s in self.bots}
                for s in range(len(self.names))]

    def public(self) -> dict[str, Any]:
        """The table as every player sees it: no card of a hand in play, no stock order."""
        e = self.engine
        out: dict[str, Any] = {"to_move": self.to_move(), "seats": self.seat_list(), "deals": self.deals(),
                               "skip_board": self.skip_board, "recent": list(self.recent),
                               "hands_over": self.hands_over(),
                               "last_hand": self.hand_overs[-1] if self.hand_overs else None,
                               "bot_level": level_of(e.options),
                               "hints": [self.hints.get(s, 0) for s in range(len(self.names))]}
        if self.by_moves:
            st = e.table.as_dict()
            out.update(phase=e.phase, turn=e.turn, stage=e.stage, dealer=st.get("dealer"), hand_number=st.get("hand"),
                       stock=len(e.stock), pile=[C.card_name(c) for c in e.pile],
                       discard_top=C.card_name(e.pile[-1]) if e.pile else None,
                       keep=None if e.keep is None else C.card_name(e.keep),
                       hand_sizes=[len(h) for h in e.hands] if e.phase == "play" else [0] * len(self.names),
                       table=st, frames=self.variant.frames(e.table))
        else:
            v = e.view(None)
            v.pop("variant", None)
            v.pop("players", None)
            out.update(v)
        return out

    def hint(self, seat: int) -> dict[str, Any]:
        """The strong bot's choice for ``seat`` (whose turn it is) and its reason in words,
        from what the seat knows only (:mod:`companion.play.hints`); ``ValueError`` when it
        is not the seat's turn."""
        if self.finished:
            raise ValueError("the game is over: there is no move to hint at")
        mover = self.to_move()
        if seat != mover:
            who = self.names[mover] if mover is not None else "nobody"
            raise ValueError(f"a hint is for your own turn: it is seat {mover}'s turn ({who}), not seat {seat}'s")
        return self.variant.dealt_hint(self.engine, seat, list(self.names))

    def view(self, seat: int | None) -> dict[str, Any]:
        """``seat``'s own view (a seat of None sees what everybody sees)."""
        cards = self.hand_cards(seat) if seat is not None else []
        drawn = self.drawn.get(seat) if seat is not None else None
        return {"seat": seat, "hand": [C.card_name(c) for c in cards],
                "drawn": C.card_name(drawn) if drawn is not None and drawn in cards else None,
                "legal_actions": self.legal_actions(seat), "endings": self.endings(seat),
                "public": self.public(), "finished": self.finished}


__all__ = ["DealtGame", "public_payload", "check_bots", "SECRET"]
