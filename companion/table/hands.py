"""Hand input: the end of a rummy hand as a player enters it, checked and scored.

:func:`hand_payload` turns a :class:`HandInput` into the payload of a ``hand`` event
(the input plus the engine's score), or raises :class:`TableError` naming what is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import CompanionError, IllegalAction, InvalidInput
from companion.games import find_variant
from companion.games.seams import ENTRY_DEFAULTS
from companion.table.errors import engine_failure
from companion.table.tracking import hand_result, rescore
from companion.table.state import GameState


def score_deadwood(variant: str, deadwood: Sequence[int], ender: int | None, options: Any, *,
                   big_gin: bool = False, upcard: str | None = None) -> dict[str, Any]:
    """Score a hand from deadwood counts only (no cards), with the variant's
    ``score_from_deadwood`` (gin and Ginski have one; Color Gin needs the cards, since
    the spoiled suits come from them). Every option of the game applies.

    >>> from companion.games import find_variant
    >>> opts = find_variant("gin").make_options("gin_004", {}, 2)
    >>> r = score_deadwood("gin", [4, 20], 0, opts)
    >>> r["kind"], r["points"]
    ('knock', [16, 0])
    >>> score_deadwood("gin", [9, 6], 0, opts)["points"]
    [0, 28]
    """
    v = find_variant(variant).hand_scoring()
    if v is None:
        raise InvalidInput(f"{variant} is played with actions, not scored hands", code="wrong_variant")
    try:
        return v.score_from_deadwood(list(deadwood), ender, options, big_gin=big_gin, upcard=upcard)
    except IllegalAction as exc:  # the engine refused the counts: its message names the rule
        raise IllegalAction(str(exc), code="invalid_hand", details=exc.details) from None
    except CompanionError:
        raise
    except Exception as exc:  # anything else is a bug (a ValueError too): 500, logged
        raise engine_failure(exc)


@dataclass(frozen=True)
class HandInput:
    """The end of a rummy hand as a player enters it.

    ``ender``: the seat that knocked or went gin (None: a void hand); ``hands``: each
    player's cards in seat order, or ``deadwood``: one number per seat (quick entry);
    ``declared``: the ender's melds, any legal arrangement within the limit (Gin Rummy, Color Gin, Ginski);
    Color Gin only: ``joker`` (co-op jokers);
    ``big_gin``: with ``deadwood``, the ender melded all eleven cards; ``upcard``: the
    hand's upcard, for Oklahoma gin.
    """

    ender: int | None
    hands: list[list[str]] | None = None
    deadwood: list[int] | None = None
    declared: list[list[str]] | None = None
    joker: bool = False
    big_gin: bool = False
    upcard: str | None = None
    #: a partnership hand (Gin Rummy, team_mode pagat_partnership): its two pair games,
    #: each ``{"seats", "ender", "hands" | "deadwood", ...}`` (see companion.games.gin.partnership)
    tables: list[Any] | None = None


def hand_payload(g: GameState, entry: HandInput, upto: int | None = None) -> dict[str, Any]:
    """Check and score one hand's input; ``upto`` = hands before it (corrections)."""
    v = g.rules.hand_scoring()
    if v is None:
        raise InvalidInput(f"{g.variant} hands are played with actions, not scored hands", code="wrong_variant")
    partnership = g.rules.team_play(g.options)
    if partnership is not None:
        top = {"ender": entry.ender, "hands": entry.hands, "deadwood": entry.deadwood, "declared": entry.declared,
               "joker": entry.joker, "big_gin": entry.big_gin, "upcard": entry.upcard}
        tables = partnership.check_entry(entry.tables, top)
        return {"ender": None, "tables": tables, "result": partnership.score_entry(v, g.options, tables)}
    if entry.tables is not None:
        raise InvalidInput("\"tables\" are for a partnership (Gin Rummy with team_mode pagat_partnership): "
                           "this game takes one hand's cards or deadwood", code="invalid_team_entry",
                           details={"field": "tables"})
    takes = {**ENTRY_DEFAULTS, **v.entries(g.options)}
    n = len(g.players)
    ender = entry.ender
    if ender is not None and (not isinstance(ender, int) or isinstance(ender, bool) or not 0 <= ender < n):
        raise InvalidInput(f"ender must be a seat 0..{n - 1} (or null for a void hand), got {ender!r}",
                           code="invalid_hand", details={"field": "ender"})
    if (entry.hands is None) == (entry.deadwood is None):
        raise InvalidInput("give either \"hands\" (each player's cards) or \"deadwood\" (numbers)",
                           code="invalid_hand", details={"field": "hands"})
    if entry.big_gin and entry.hands is not None:
        raise InvalidInput("\"big_gin\" goes with \"deadwood\"; with the cards, "
                         "give the ender's 11 cards for a big gin", code="invalid_hand", details={"field": "big_gin"})
    if entry.upcard is not None and "oklahoma" not in {s.name for s in v.option_specs()}:
        raise InvalidInput("\"upcard\" is for Oklahoma gin only", code="invalid_hand", details={"field": "upcard"})
    if entry.upcard is not None and not takes["upcard"]:
        # it used to be accepted and silently ignored
        raise InvalidInput("\"upcard\" is for Oklahoma gin only, and this game's "
                           "option oklahoma is off: leave the upcard out",
                           code="invalid_hand", details={"field": "upcard"})
    if entry.declared is not None and not takes["declared"]:
        raise InvalidInput(f"\"declared\" is not an entry of {g.variant}", code="invalid_hand",
                           details={"field": "declared"})
    if entry.joker and not takes["joker"]:
        raise InvalidInput("\"joker\" is a Color Gin entry only (co-op jokers)", code="invalid_hand",
                           details={"field": "joker"})
    if entry.declared is not None and entry.hands is None:
        raise InvalidInput("\"declared\" goes with \"hands\": the declared melds "
                           "are checked against the ender's cards", code="invalid_hand",
                           details={"field": "declared"})
    if entry.hands is not None:
        hands = entry.hands
        if not isinstance(hands, list) or len(hands) != n:
            got = len(hands) if isinstance(hands, list) else type(hands).__name__
            raise InvalidInput(f"\"hands\" needs one list of cards per player ({n}), got {got}",
                               code="invalid_hand", details={"field": "hands"})
        payload: dict[str, Any] = {"ender": ender, "hands": hands}
        if entry.declared is not None:
            payload["declared"] = entry.declared
        if entry.joker:
            payload["joker"] = True
        if entry.upcard is not None:
            payload["upcard"] = entry.upcard
        # the match before this hand: the one held (a new hand), or folded again (a correction)
        prior = [hand_result(h.result) for h in g.hands[:upto]] if upto is not None and v.context_scoring else []
        try:
            payload["result"] = rescore(g, v, {**payload, "result": None}, prior,
                                        match=g.match if upto is None else None)
        except IllegalAction as exc:  # the engine refused the cards: its message names the rule
            raise IllegalAction(str(exc), code="invalid_hand", details=exc.details) from None
        except CompanionError:
            raise
        except Exception as exc:  # anything else is a bug (a ValueError too): 500, logged
            raise engine_failure(exc)
        return payload
    deadwood = entry.deadwood
    if not isinstance(deadwood, list) or len(deadwood) != n or not all(
        isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 500 for x in deadwood
    ):
        raise InvalidInput(f"\"deadwood\" needs {n} whole numbers from 0 to 500",
                           code="invalid_hand", details={"field": "deadwood"})
    out: dict[str, Any] = {"ender": ender, "deadwood": deadwood}
    if entry.big_gin:
        out["big_gin"] = True
    if entry.upcard is not None:
        out["upcard"] = entry.upcard
    out["result"] = score_deadwood(g.variant, deadwood, ender, g.options,
                                   big_gin=entry.big_gin, upcard=entry.upcard)
    return out


def hand_input(payload: dict[str, Any]) -> HandInput:
    return HandInput(ender=payload.get("ender"), hands=payload.get("hands"), deadwood=payload.get("deadwood"),
                     declared=payload.get("declared"), joker=bool(payload.get("joker", False)),
                     big_gin=bool(payload.get("big_gin", False)), upcard=payload.get("upcard"),
                     tables=payload.get("tables"))

