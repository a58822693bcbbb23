"""``gingo deadwood CARDS...``: the best melds of a hand, its deadwood and best discards.

Examples::

    gingo deadwood 5H 6H 7H 9C 9D 9S KS QS 2D 3C
    gingo deadwood 5H 6H 7H 9C 9D 9S KS QS 2D 3C AC      # 11 cards: best discards too
    gingo deadwood R1 R2 W 5B 5G 5Y --variant ginski --json

A bad card prints one line naming it and exits with status 2.
"""

from __future__ import annotations

import argparse
import json

from companion import cards as C
from companion import melds as M
from companion.games import VARIANTS

SHOW_MAX = 12  # arrangements printed (JSON carries up to this many too)
MAX_CARDS = 20  # one hand (Ginski's 13 at most); 34 Rumski cards took minutes, 54 Gin-Go ones too


def meld_rules() -> dict[str, M.MeldRules]:
    """The meld rules ``--variant`` names: each game's that melds its cards (its Variant
    carries them), then the rule sets by their own names (``jokers_fewer``: Gin-Go with
    the option ``max_jokers_per_meld = fewer_than_naturals``)."""
    out = {name: v.meld_rules for name, v in VARIANTS.items() if v.meld_rules is not None}
    for name, rules in M.RULE_SETS.items():
        out.setdefault(name, rules)
    return out


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cards", nargs="+", metavar="CARD",
                        help="cards such as 5H 10D QS AS (or 10♦, ♦10); JK for a joker, "
                             "R5/W for Rumski cards")
    parser.add_argument("--variant", default="gin", choices=list(meld_rules()),
                        help="the game whose meld rules to use, or a rule set (default gin)")
    parser.add_argument("--discard", action="store_true",
                        help="also show the best discards (automatic for 11 cards)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def analyse(cards: list[str], variant: str = "gin", discard: bool | None = None) -> dict[str, object]:
    """Everything ``gingo deadwood`` reports, as plain data.

    >>> r = analyse(["5H", "6H", "7H", "9C", "9D", "9S", "KS", "QS", "2D", "3C", "AC"])
    >>> r["deadwood"], r["best_discards"], r["deadwood_after_discard"]
    (26, ['QS', 'KS'], 16)
    """
    found = meld_rules()
    if variant not in found:
        raise ValueError(f"unknown variant {variant!r}: choose one of {', '.join(found)}")
    rules = found[variant]
    text = " ".join(cards)
    parsed = C.parse_cards(text)
    if not parsed:
        # `gingo deadwood ""` used to report "0 cards ... deadwood 0"
        raise ValueError("no cards given: list the hand's cards, like: gingo deadwood AS 2S 3S 10H")
    if len(parsed) > MAX_CARDS:
        raise ValueError(f"{len(parsed)} cards: gingo deadwood looks at one hand, give at most {MAX_CARDS} cards")
    mask = M._hand_mask(C.cards_mask(parsed), rules)
    arrs = M.arrangements(mask, rules, limit=SHOW_MAX + 1)
    out: dict[str, object] = {
        "variant": variant,
        "cards": C.mask_names(mask),
        "count": mask.bit_count(),
        "deadwood": arrs[0].value,
        "arrangements": [a.as_dict() for a in arrs[:SHOW_MAX]],
        "more_arrangements": len(arrs) > SHOW_MAX,
    }
    if discard or (discard is None and mask.bit_count() == 11):
        dw, which = M.best_discard_mask(mask, rules)
        names = C.mask_names(which)
        out["best_discards"] = names
        out["deadwood_after_discard"] = dw
        first = C.mask_cards(which)[0]
        out["after_discard"] = {
            "discard": C.card_name(first),
            "arrangement": M.best_arrangement(mask & ~(1 << first), rules).as_dict(),
        }
    return out


def _arrangement_line(a: dict[str, object]) -> str:
    melds = "  ".join("[" + " ".join(m) + "]" for m in a["melds"])  # type: ignore[attr-defined]
    dead = " ".join(a["deadwood"]) or "none"  # type: ignore[arg-type]
    return f"{melds or '(no melds)'}   deadwood: {dead} = {a['deadwood_value']}"


def run(args: argparse.Namespace) -> int:
    report = analyse(args.cards, args.variant, True if args.discard else None)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return 0
    print(f"{report['count']} cards ({report['variant']}): {' '.join(report['cards'])}")  # type: ignore[arg-type]
    print(f"least deadwood: {report['deadwood']}")
    arrs = report["arrangements"]
    assert isinstance(arrs, list)
    label = "best arrangement" if len(arrs) == 1 else f"best arrangements ({len(arrs)}"
    if len(arrs) > 1:
        label += ", more not shown)" if report["more_arrangements"] else ")"
    print(label + ":")
    for a in arrs:
        print("  " + _arrangement_line(a))
    if "best_discards" in report:
        names = report["best_discards"]
        assert isinstance(names, list)
        print(f"best discard: {' or '.join(names)} -> deadwood {report['deadwood_after_discard']}")
        after = report["after_discard"]
        assert isinstance(after, dict)
        print(f"  after discarding {after['discard']}: {_arrangement_line(after['arrangement'])}")
    return 0
