"""The public numbers: minimum deadwood and best discard. Each game's solver works on
a card bitmask (the four-suit games through :mod:`companion.melds.fast`, others
through the wild-card search or the rank-by-rank programme); the functions here only
read the caller's cards into a mask (checked) and hand it over, but for the commonest
call, ``min_deadwood`` of a Gin Rummy mask, which :class:`FourSuit.min` answers written
out in place (no call)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from operator import itemgetter

from companion.errors import IllegalAction
from companion import cards as C
from companion.melds.block import _block_min, _block_ok
from companion.melds.fast import four_suit
from companion.melds.natural import _bits, _natural_discard, _natural_min
from companion.melds.rules import STANDARD, MeldRules, RulesArg, _hand_mask, get_rules
from companion.melds.tables import _BIG, _tables
from companion.melds.wild import _wild_min

Solver = Callable[[int], int]


def _four_suit_ok(rules: MeldRules) -> bool:
    return rules.base == 0 and rules.nsuits == 4


@lru_cache(maxsize=None)
def _build_solver(rules: MeldRules) -> Solver:
    wm = rules.wild_mask
    if _four_suit_ok(rules):
        nat_fast = four_suit(rules).min
    else:
        tb = _tables(rules)

        def nat_fast(mask: int) -> int:
            return _natural_min(mask, rules, tb)
    if not wm:
        return nat_fast

    block = _block_ok(rules)

    def solve(mask: int) -> int:
        if mask & wm:
            if block and (mask & wm).bit_count() <= 2:
                return _block_min(mask, rules)
            return _wild_min(mask, rules)
        return nat_fast(mask)

    return solve


# rule set (or its name) -> (solver, allowed card bits); filled on first use of each
_FAST: dict[object, tuple[Solver, int]] = {}


def _fast_entry(variant: RulesArg) -> tuple[Solver, int]:
    rules = get_rules(variant)
    entry = (_build_solver(rules), rules.natural_mask | rules.wild_mask)
    _FAST[variant] = entry
    return entry


def _solver(rules: MeldRules) -> Solver:
    return _build_solver(rules)


def _generic_min(cards: object, variant: RulesArg) -> int:
    entry = _FAST.get(variant) or _fast_entry(variant)
    if type(cards) is int:
        if cards & ~entry[1] or cards < 0:
            _hand_mask(cards, get_rules(variant))
        return entry[0](cards)
    return entry[0](_hand_mask(cards, get_rules(variant)))  # type: ignore[arg-type]


# The Gin Rummy solver's parts that min_deadwood reads inline, as module globals (a
# closure's cells are copied into every call's frame; a global is read only where used).
# They are filled on the first Gin Rummy call, not at import: building the tables is
# some 20 ms of CPU (over 0.15 s of a Pi Zero's), which the service's start-up does not
# need (issue 23). Until then ``_T`` is empty, so the inline look-up raises IndexError,
# whose branch loads them, and ``_sets``/``_solve`` load them on their first call.


def _load_gin() -> None:
    global _T, _sets, _solve
    gin = four_suit(STANDARD)
    _T, _sets, _solve = gin.T, gin.sets, gin.min  # _T: a list, which 3.11 specialises


def _sets_first(a: int, b: int, c: int, d: int, trip: int) -> int:
    _load_gin()
    return _sets(a, b, c, d, trip)


def _solve_first(mask: int) -> int:
    _load_gin()
    return _solve(mask)


_T: list[int] = []
_sets: Callable[[int, int, int, int, int], int] = _sets_first
_solve: Solver = _solve_first
_BIT = {card: 1 << card for card in range(52)}  # a Gin Rummy card int -> its bit
_gather = itemgetter


def deadwood_of_mask(mask: int, variant: RulesArg = STANDARD) -> int:
    """Minimum deadwood of a card bitmask (no validation; the fast entry point)."""
    if variant is STANDARD or variant == "standard":
        return _solve(mask)
    entry = _FAST.get(variant) or _fast_entry(variant)
    return entry[0](mask)


def min_deadwood(cards: int | str | Iterable[str | int],
                 variant: RulesArg = STANDARD) -> int:
    """Least deadwood value over every arrangement of ``cards`` into melds.

    ``cards`` is a bitmask, a string (``"5H 6H 7H"``) or a list of names or ints.

    >>> min_deadwood(["AS", "2S", "3S", "KD"])
    10
    >>> min_deadwood([0, 1, 2, 38])
    10
    >>> min_deadwood("QS KS AS", "jokers"), min_deadwood("QS KS AS", "standard")
    (0, 21)
    """
    # The common call, a Gin Rummy hand as a mask, is answered here: fast.FourSuit.min
    # written out (no call). The mask is split into two 26-bit halves (one-digit ints,
    # quicker) and those into the suits a b | c d; with no rank held three times (three
    # hands in four at random) the answer is four look-ups of the run table, otherwise
    # FourSuit.sets. A list or tuple of card ints goes to _gin_list_min, and every
    # other input, game, or bad hand to the checked reading (_generic_min). Only the
    # mask path's common case lives here: written out here too, the one-set-rank
    # closed form made the mask path about 4% slower beside OpenSpiel
    # (benchmarks/solver.py, 10-card random), and the list reading about 1%.
    if variant is STANDARD or variant == "standard":
        if type(cards) is int:
            lo = cards & 0x3FFFFFF
            hi = cards >> 26
            b = lo >> 13
            d = hi >> 13
            # a rank held 3+ times is a pair in suits a and b held in c or d too, or a
            # pair in c and d held in a or b (lo & b and hi & d are under 8192, so
            # the junk above bit 13 of hi | d and lo | b drops out); two tests of
            # three steps, the second skipped when the first finds one
            if not (lo & b & (hi | d) or hi & d & (lo | b)):
                if hi >= 0:  # (a negative mask's top suit would wrap round the table)
                    T = _T  # (one global read, not four: measurably quicker)
                    try:
                        return T[lo & 8191] + T[b] + T[hi & 8191] + T[d]
                    except IndexError:  # a mask beyond the deck: past the table
                        if not T:  # (or the tables not loaded yet: see _load_gin)
                            _load_gin()
                            return min_deadwood(cards, variant)
            elif not hi >> 26:  # neither beyond the deck nor negative
                return _sets(lo & 8191, b, hi & 8191, d,
                             (lo & b | hi & d) & (lo | b) & (hi | d))  # the set ranks
        elif type(cards) is list or type(cards) is tuple:
            return _gin_list_min(cards)
    return _generic_min(cards, variant)


def _gin_list_min(cards: list[str | int] | tuple[str | int, ...]) -> int:
    """``min_deadwood`` of a list or tuple for Gin Rummy. Card ints are read in one
    C-level pass (their bits gathered from a dict and summed); anything else (names,
    foreign numbers, one card alone, repeats, True/False) is read the checked way. (A
    float equal to a card int reads as that card, as it would as a dict key.)"""
    try:
        mask: int = sum(_gather(*cards)(_BIT))
    except (KeyError, TypeError):
        return _generic_min(cards, STANDARD)
    if mask.bit_count() != len(cards) or mask & 3 and (
            mask & 1 and cards[cards.index(0)] is False
            or mask & 2 and cards[cards.index(1)] is True):
        return _generic_min(cards, STANDARD)
    # min_deadwood's mask path, for a mask known to be a hand of the deck
    lo = mask & 0x3FFFFFF
    hi = mask >> 26
    b = lo >> 13
    d = hi >> 13
    if not (lo & b & (hi | d) or hi & d & (lo | b)):
        if not _T:
            _load_gin()
        return _T[lo & 8191] + _T[b] + _T[hi & 8191] + _T[d]
    return _sets(lo & 8191, b, hi & 8191, d, (lo & b | hi & d) & (lo | b) & (hi | d))


def _best_discard_mask(mask: int, rules: MeldRules) -> tuple[int, int]:
    """(least deadwood after one discard, mask of every discard reaching it)."""
    if not mask:
        raise IllegalAction("no card to discard")
    if not mask & rules.wild_mask:
        if _four_suit_ok(rules):
            return four_suit(rules).discard(mask)
        return _natural_discard(mask, rules, _tables(rules))
    # wild cards: solve once per discard with the exact solver
    f = _solver(rules)
    best = _BIG
    which = 0
    for c in _bits(mask):
        v = f(mask ^ c)
        if v < best:
            best, which = v, c
        elif v == best:
            which |= c
    return best, which


def best_discard_mask(mask: int, variant: RulesArg = STANDARD) -> tuple[int, int]:
    """Fast entry point: ``(deadwood, discards mask)`` for a card bitmask."""
    return _best_discard_mask(mask, get_rules(variant))


def least_after_discard_mask(mask: int, variant: RulesArg = STANDARD) -> int:
    """The least deadwood of the hand ``mask`` after one discard: the first half of
    :func:`best_discard_mask`, without the discards that reach it. A hand with wilds in
    a game where a wild may stand for a card the hand holds (Ginski) is solved in one
    search instead of one per discard (four to five times faster).

    >>> least_after_discard_mask(C.to_mask("R1 R2 W1 B5 B6 B7 G9 G10 G11 Y8 P13"), "rumski")
    8
    """
    rules = get_rules(variant)
    if not mask:
        raise IllegalAction("no card to discard")
    if not mask & rules.wild_mask or not rules.wild_may_duplicate_hand or not rules.max_wilds_per_meld:
        return _best_discard_mask(mask, rules)[0]
    return _wild_min(mask, rules, discard=True)


def best_discard(
    cards: int | str | Iterable[str | int], variant: RulesArg = STANDARD
) -> tuple[int, list[str]]:
    """The least deadwood after discarding one card, and every discard that reaches it.

    >>> best_discard("AS 2S 3S 4S 9D 9H 9C KH QH JH 5C")
    (0, ['5C'])
    """
    rules = get_rules(variant)
    mask = _hand_mask(cards, rules)
    v, which = _best_discard_mask(mask, rules)
    return v, C.mask_names(which)
