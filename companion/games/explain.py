"""A hand's score in players' words: "25 gin bonus + 8 deadwood difference".

:func:`breakdown` splits what the winner of a rummy hand scores into its parts (the bonus,
the deadwood) from the result and the game's options. It is shown, never trusted: the
parts must add up to the points the engine gave, else there is no breakdown (a rule this
module does not know about must not be explained wrongly). :func:`tied_arrangements` are
the ender's arrangements that tie on the least deadwood. Both serve every rummy game of the
registry, each asked with the game's Variant (its ``bonus_words``, ``undercut_takes_others``
and ``meld_rules``), so this module names no game and imports none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeGuard

from companion.errors import CompanionError


def _whole(x: Any) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def breakdown(v: Any, result: dict[str, Any], options: Any,
              players: Sequence[str]) -> dict[str, Any] | None:
    """The winner's score of one hand in parts, or None (no winner, or parts that do not
    add up). ``{"seat", "parts": [{"label", "points"}], "total", "times", "per_suit"}``:
    the total is the sum of the parts ``times`` (2 for Oklahoma's spade upcard); in Color
    Gin it is what each open suit scores.

    >>> from companion.games import find_variant
    >>> opts = find_variant("gin").make_options("gin_004", {}, 2)
    >>> r = {"kind": "gin", "ender": 0, "winner": 0, "points": [33, 0], "deadwood": [0, 8], "notes": []}
    >>> [(p["points"], p["label"]) for p in breakdown(find_variant("gin"), r, opts, ["Ana", "Ben"])["parts"]]
    [(25, 'gin bonus'), (8, "Ben's deadwood")]
    >>> r = {"kind": "knock", "ender": 0, "winner": 0, "points": [8, 0], "deadwood": [4, 12], "notes": []}
    >>> [p["label"] for p in breakdown(find_variant("gin"), r, opts, ["Ana", "Ben"])["parts"]]
    ['deadwood difference (12 - 4)']
    """
    extra = result.get("extra")
    if isinstance(extra, dict) and extra.get("team_mode"):  # a partnership hand: its notes explain it
        return None
    winner = result.get("winner")
    points = result.get("points")
    dws = result.get("deadwood")
    kind = str(result.get("kind"))
    ender = result.get("ender")
    if not _whole(winner) or not isinstance(points, list) or not isinstance(dws, list) \
            or not all(_whole(d) for d in dws) or not 0 <= winner < len(points):
        return None
    per_suit = isinstance(points[winner], dict)
    if per_suit:
        values = {v for v in points[winner].values() if v}
        if len(values) != 1:
            return None
        got = values.pop()
    else:
        got = points[winner]
    if not _whole(got) or got <= 0:
        return None
    times = 2 if any("doubled" in str(n) for n in result.get("notes") or []) else 1
    parts: list[dict[str, Any]] = []
    bonus = v.bonus_words.get(kind)
    if bonus is not None and kind != "undercut":
        parts.append({"label": bonus[0], "points": int(getattr(options, bonus[1], 0))})
        others = [s for s in range(len(dws)) if s != winner]
        if len(others) == 1:
            label = f"{players[others[0]]}'s deadwood" if others[0] < len(players) else "deadwood"
        else:
            label = "the others' deadwood"
        parts.append({"label": label, "points": sum(dws[s] for s in others)})
    elif kind == "undercut" and _whole(ender):
        parts.append({"label": "undercut bonus", "points": int(getattr(options, "undercut_bonus", 0))})
        others = [s for s in range(len(dws)) if s != winner]
        if v.undercut_takes_others:  # Ginski: the undercutter takes everyone else's deadwood
            label = f"{players[ender]}'s deadwood" if len(others) == 1 and ender < len(players) \
                else "the others' deadwood"
            parts.append({"label": label, "points": sum(dws[s] for s in others)})
        else:
            diff = dws[ender] - dws[winner]
            parts.append({"label": f"deadwood difference ({dws[ender]} - {dws[winner]})", "points": diff})
    elif kind in ("knock", "showdown"):
        others = [s for s in range(len(dws)) if s != winner]
        if len(others) == 1:
            o = others[0]
            if kind == "showdown" and dws[winner] == 0:
                parts.append({"label": "gin bonus", "points": int(getattr(options, "gin_bonus", 0))})
            parts.append({"label": f"deadwood difference ({dws[o]} - {dws[winner]})", "points": dws[o] - dws[winner]})
        else:
            parts.append({"label": f"the others' deadwood ({sum(dws[s] for s in others)}) "
                                   f"less the knocker's ({dws[winner]})",
                          "points": sum(dws[s] for s in others) - dws[winner]})
    parts = [p for p in parts if p["points"]]
    if not parts or sum(p["points"] for p in parts) * times != got:
        return None
    out: dict[str, Any] = {"seat": winner, "parts": parts, "total": got, "times": times, "per_suit": per_suit}
    if per_suit:
        out["suits"] = sorted(s for s, v in points[winner].items() if v)
    return out


def tied_arrangements(v: Any, payload: dict[str, Any], limit: int = 6) -> list[dict[str, Any]] | None:
    """The ender's arrangements that tie on the least deadwood, when there is more than one
    (the player chooses among tied arrangements; the phone offers them as declarations), else
    None. Each is ``{"melds", "deadwood", "deadwood_value"}``.

    >>> from companion.games import find_variant
    >>> ties = tied_arrangements(find_variant("gin"), {"ender": 0, "hands": [
    ...     "AD 2D 3D 2H 2C AC 7S 8S 9S 10S".split(), []]})
    >>> [a["melds"][1] for a in ties]
    [['AD', '2D', '3D'], ['2H', '2D', '2C']]
    """
    from companion.melds.arrange import arrangements

    ender = payload.get("ender")
    hands = payload.get("hands")
    if not _whole(ender) or not isinstance(hands, list) or not 0 <= ender < len(hands):
        return None
    try:
        rules = v.meld_rules  # how the game's cards meld (its Variant says)
        if rules is None:
            return None
        found = arrangements(hands[ender], rules, limit=limit)
    except CompanionError:  # not a variant with melds, or cards the engine refused already
        return None
    if len(found) < 2:
        return None
    return [a.as_dict() for a in found]


__all__ = ["breakdown", "tied_arrangements"]
