"""A dealt game: the companion holds the deck, every seat's cards and the stock.

:class:`DealtGame` wraps a full-play engine (the one the game's Variant makes:
:meth:`~companion.games.base.Variant.dealt_play`) with the seats (which are bots, which phone token holds which seat) and the match key
the hands are shuffled from (:mod:`companion.play.deal`). It is folded from events like
every game: ``game_created`` (with ``"mode": "dealt"``, the bots and the secret key),
``seat`` (a seat claimed or freed) and ``play`` (one seat's action). It never changes in
place: :meth:`DealtGame.after` returns the game after one more event.

What anyone may see is :meth:`public`; a seat's own cards and legal actions are
:meth:`view`. The key lives only in the ``secret`` part of the first event's payload,
which no public rendering of an event shows (:func:`public_payload`).

Nothing here knows which game it deals: whose turn it is, the cards a seat holds, how a
move is played and what a hand's end shows are the Variant's to say (its ``dealt_*``
methods), so a new game that can be dealt touches no line of this module.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from companion.errors import IllegalAction
from companion import cards as C
from companion.games import Variant
from companion.games.seams import DealtModel
from companion.play.deal import HashRandom, Unpublished, commitment, hand_seed
from companion.play.levels import level_of
from companion.store.records import SECRET, public_payload
from companion.games.explain import breakdown
from companion.table.handover import RECENT, public_move

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
    engine: DealtModel  # the Variant's dealt_play engine (only the Variant reads it)
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
        engine = variant.dealt_play(names, options, dealer=dealer if "dealer" in payload else None,
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
    def on_board(self) -> bool:
        """The game is played on the companion's board (the Variant's ``on_board``) and was
        not told to skip it: its bots wait for the board to agree before a turn."""
        return self.variant.on_board and not self.skip_board

    # -- whose turn --------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.variant.dealt_finished(self.engine)

    def to_move(self) -> int | None:
        """The seat that must act now (None once the game is over)."""
        if self.finished:
            return None
        return self.variant.dealt_to_move(self.engine, len(self.names))

    def hands_over(self) -> int:
        """How many hands have ended."""
        return self.variant.dealt_hands_over(self.engine)

    @property
    def dealer(self) -> int:
        return self.variant.dealt_dealer(self.engine)

    # -- what a seat may do ------------------------------------------------------------------

    def hand_cards(self, seat: int) -> list[int]:
        return self.variant.dealt_hand(self.engine, seat)

    def legal_actions(self, seat: int | None) -> list[dict[str, Any]]:
        """The actions ``seat`` may take now, as JSON (empty when it is not its turn)."""
        if seat is None or seat != self.to_move():
            return []
        return self.variant.dealt_legal_actions(self.engine)

    def endings(self, seat: int | None) -> dict[str, str]:
        """How each knock ``seat`` may make now ends the hand, by the card it discards:
        ``"gin"`` or ``"knock"`` (the Play screen says Gin, not "Knock", for a gin)."""
        if seat is None or seat != self.to_move():
            return {}
        return self.variant.dealt_endings(self.engine, seat)

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
        move = self.variant.dealt_apply(self.engine, new.engine, seat, action)
        new.effects = move.effects
        new._noted(self, seat, move.played, move.effects, move.top, move.hand)
        return new, move.effects

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
            names = list(self.names)

            def explain(result: dict[str, Any], options: Any) -> dict[str, Any] | None:
                return breakdown(self.variant, result, options, names)

            self.hand_overs.append(self.variant.dealt_summary(before.engine, self.engine, effects, names, explain))

    # -- what anyone may see ----------------------------------------------------------------

    def seed_of(self, hand: int) -> bytes | None:
        """Hand ``hand``'s seed (0: Gin-Go's set-up, its reveal of the suits); None when
        it is not known here (an imported game knows only the published ones)."""
        return hand_seed(self.key, hand) if self.key is not None else self.published.get(hand)

    def set_up(self) -> bool:
        """The game's set-up before its first hand (Gin-Go: the reveal of the suits, and the
        flip) is done; never, in a game without one."""
        return self.variant.dealt_set_up(self.engine)

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
        out.update(self.variant.dealt_public(e))
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
