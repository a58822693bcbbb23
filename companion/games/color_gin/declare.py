"""Color Gin's declarations: which suits an arrangement spoils, every arrangement of a
hand, the one the engine declares for an ender (``auto_declare``), how a kept hand may
end, and reading a declaration the ender gives. :mod:`companion.games.color_gin.rules` scores
with them and offers every public name here too.

>>> d = choose_arrangement(C.to_mask("QH QS QC 10D JD QD 3D 4D 5D 6D"), Options())
>>> d.arrangement.value, suit_letters(d.spoiled)
(0, ['D'])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from companion.errors import IllegalAction, refusal
from companion import cards as C
from companion import melds as M
from companion.rules.base import MatchScore
from companion.games.color_gin.options import DECK, HAND_SIZE, MELD_RULES, SUIT_LETTERS, VARIANT, Options


def spoiled_suits(melds: Iterable[M.Meld], deadwood: Iterable[int]) -> int:
    """The suits (a 4-bit mask, bit 0 spades ... bit 3 clubs) an arrangement spoils.

    >>> run = M.check_meld(C.parse_cards("5H 6H 7H"), MELD_RULES)
    >>> trio = M.check_meld(C.parse_cards("9S 9H 9C"), MELD_RULES)
    >>> suit_letters(spoiled_suits([run, trio], C.parse_cards("KC")))
    ['H', 'D', 'C']
    """
    mask = 0
    for meld in melds:
        if meld.kind == "run":
            mask |= 1 << C.suit(meld.cards[0])
        elif len(meld.cards) == 3:
            present = {C.suit(c) for c in meld.cards}
            mask |= sum(1 << s for s in range(4) if s not in present)
    for card in deadwood:
        mask |= 1 << C.suit(card)
    return mask


def suit_letters(mask: int) -> list[str]:
    """Suit letters of a 4-bit suit mask, in ``S H D C`` order."""
    return [SUIT_LETTERS[s] for s in range(4) if mask >> s & 1]


def _suit_mask(letters: Iterable[str]) -> int:
    mask = 0
    for letter in letters:
        key = str(letter).strip().upper()
        if len(key) != 1 or key not in SUIT_LETTERS:
            raise IllegalAction(f"not a suit: {letter!r} (use S, H, D or C)")
        mask |= 1 << SUIT_LETTERS.index(key)
    return mask


def closed_mask(closed: str | Iterable[str] | MatchScore | None) -> int:
    """Closed suits as a 4-bit mask from letters or a Color Gin match."""
    if closed is None:
        return 0
    if isinstance(closed, MatchScore):
        if closed.variant != VARIANT:
            raise IllegalAction(f"closed suits must come from a Color Gin match, not {closed.variant}")
        return _suit_mask(closed.extra.get("closed", []))  # type: ignore[arg-type]
    if isinstance(closed, str):
        return _suit_mask(ch for ch in closed if ch not in ", ")
    return _suit_mask(closed)


def _candidate_melds(mask: int) -> list[M.Meld]:
    """Every meld the cards of ``mask`` can form (sets of 3 and 4, runs of 3+, ace low)."""
    out: list[M.Meld] = []
    for r in range(13):
        same = [s * 13 + r for s in range(4) if mask >> (s * 13 + r) & 1]
        for k in (3, 4):
            for combo in combinations(same, k):
                out.append(M.Meld("set", combo))
    for s in range(4):
        for start in range(11):
            run: list[int] = []
            for r in range(start, 13):
                card = s * 13 + r
                if not mask >> card & 1:
                    break
                run.append(card)
                if len(run) >= 3:
                    out.append(M.Meld("run", tuple(run)))
    return out


def all_arrangements(cards: int, limit: int | None = None) -> Iterator[M.Arrangement]:
    """Every way to lay out a Color Gin hand (not only the least-deadwood ones) whose
    deadwood is at most ``limit`` (None: any)."""
    cands = _candidate_melds(cards)
    by_low: dict[int, list[M.Meld]] = {}
    for m in cands:
        by_low.setdefault(min(m.cards), []).append(m)
    cap = limit if limit is not None else 1 << 30

    def rec(rest: int, dead: list[int], value: int, chosen: list[M.Meld]) -> Iterator[M.Arrangement]:
        if value > cap:
            return
        if not rest:
            yield M.Arrangement(tuple(chosen), tuple(dead), value)
            return
        low = rest & -rest
        c = low.bit_length() - 1
        dead.append(c)
        yield from rec(rest ^ low, dead, value + C.gin_value(c), chosen)
        dead.pop()
        for m in by_low.get(c, ()):
            mm = m.mask
            if rest & mm == mm:
                chosen.append(m)
                yield from rec(rest & ~mm, dead, value, chosen)
                chosen.pop()

    yield from rec(cards, [], 0, [])


@dataclass(frozen=True)
class Declaration:
    """The ender's arrangement and what it spoils; ``open_unspoiled`` are the suits
    it can score in (unspoiled and not closed), as a 4-bit mask."""

    arrangement: M.Arrangement
    spoiled: int
    open_unspoiled: int


def _declare(arr: M.Arrangement, closed: int) -> Declaration:
    sp = spoiled_suits(arr.melds, arr.deadwood)
    return Declaration(arr, sp, 0xF & ~sp & ~closed)


def choose_arrangement(
    cards: int, options: Options, closed: int = 0, forced: bool = False,
    defender: int | None = None,
) -> Declaration | None:
    """The arrangement the engine declares for an ender, or None if the ender may not
    end the hand (deadwood above the limit, or nothing could score).

    Among arrangements within the knock limit that leave a suit open and unspoiled,
    ``auto_declare=best_score`` (with the ``defender``'s cards known) takes the one
    that scores the ender most against the defender this hand (points times the suits
    that score, after the defender's best lay-offs), then the least deadwood;
    ``least_deadwood`` takes the least deadwood, then the most open unspoiled suits;
    ``most_open_suits`` the other way round. Without the defender's cards
    ``best_score`` orders as ``least_deadwood``. Between arrangements still equal, the
    one that leaves the ``defender`` (a card mask) the most deadwood after lay-offs
    wins, then the first found. ``forced`` (a co-op joker) lifts the limit and the
    scoring check: every arrangement is a candidate.

    >>> hand = C.to_mask("AS 2S 3S 9H 9D 9C KC QC JC 4D")
    >>> d = choose_arrangement(hand, Options())
    >>> d.arrangement.value, suit_letters(d.spoiled), suit_letters(d.open_unspoiled)
    (4, ['S', 'D', 'C'], ['H'])
    >>> choose_arrangement(hand, Options(), closed=closed_mask("H")) is None
    True
    """
    best_key: tuple[int, ...] | None = None
    tied: list[Declaration] = []
    limit = None if forced else options.knock_limit
    by_score = options.auto_declare == "best_score" and defender is not None
    for arr in all_arrangements(cards, limit):
        d = _declare(arr, closed)
        if not d.open_unspoiled and not forced:
            continue
        nopen = d.open_unspoiled.bit_count()
        key: tuple[int, ...]
        if by_score:
            assert defender is not None
            key = (-_net_score(d, defender, options), arr.value, -nopen)
        elif options.auto_declare == "most_open_suits":
            key = (-nopen, arr.value)
        else:
            key = (arr.value, -nopen)
        if best_key is None or key < best_key:
            best_key, tied = key, [d]
        elif key == best_key:
            tied.append(d)
    if not tied:
        return None
    if defender is None or len(tied) == 1 or tied[0].arrangement.value == 0:
        return tied[0]
    return max(
        tied, key=lambda d: M.best_layoffs(defender, d.arrangement.melds, MELD_RULES).deadwood
    )


def _net_score(d: Declaration, defender: int, options: Options) -> int:
    """What declaring ``d`` is worth to the ender this hand: the points the ender would
    score minus the points the defender would score, over the open unspoiled suits."""
    arr = d.arrangement
    suits = d.open_unspoiled.bit_count()
    if arr.value == 0:
        return (options.gin_bonus + M.deadwood_of_mask(defender, MELD_RULES)) * suits
    opp = M.best_layoffs(defender, arr.melds, MELD_RULES).deadwood
    if arr.value < opp:
        return (opp - arr.value) * suits
    if arr.value > opp:
        return -(arr.value - opp + options.undercut_bonus) * suits
    return -options.undercut_bonus * suits if options.tie == "undercut" else 0


def end_kind(kept: int, options: Options, match: MatchScore | None = None, seat: int = 0) -> str | None:
    """``"gin"``, ``"knock"`` or None: how a player keeping the 10 cards ``kept`` may
    end the hand, given the suits ``match`` has closed (a hand that could score
    nothing may not end it). Cards outside the 52-card deck (a co-op joker is never
    kept) never end a hand.

    >>> end_kind(C.to_mask("QH QS QC 10D JD QD 3D 4D 5D 6D"), Options())
    'gin'
    """
    closed = closed_mask(match)
    if kept < 0 or kept & ~DECK or kept.bit_count() != HAND_SIZE:
        return None
    if M.deadwood_of_mask(kept, MELD_RULES) > options.knock_limit:
        return None
    kind = None
    for arr in all_arrangements(kept, options.knock_limit):
        if _declare(arr, closed).open_unspoiled:
            if arr.value == 0:
                return "gin"
            kind = "knock"
    return kind


def _read_declared(declared: Sequence[Iterable[str | int]], hand: int) -> M.Arrangement:
    if isinstance(declared, (str, bytes)) or not isinstance(declared, Sequence):
        raise IllegalAction("declared must be a list of melds, each a list of card names")
    melds: list[M.Meld] = []
    used = 0
    for i, meld_cards in enumerate(declared):
        try:
            cards = C.parse_cards(meld_cards)
        except ValueError as exc:
            raise refusal(f"declared meld {i + 1}: {exc}", field="declared") from None
        mask = C.cards_mask(cards)
        missing = mask & ~hand
        if missing:
            raise refusal(f"declared meld {i + 1}: {', '.join(C.mask_names(missing))} is not in the ender's hand",
                          field="declared")
        if mask & used:
            raise refusal(f"declared meld {i + 1}: {', '.join(C.mask_names(mask & used))} is in two melds",
                          field="declared")
        try:
            meld = M.check_meld(cards, MELD_RULES)
        except ValueError as exc:
            raise refusal(f"declared meld {i + 1}: {exc}", field="declared") from None
        used |= mask
        melds.append(meld)
    dead = tuple(C.mask_cards(hand & ~used))
    return M.Arrangement(tuple(melds), dead, sum(C.gin_value(c) for c in dead))


__all__ = [
    "spoiled_suits", "suit_letters", "closed_mask", "all_arrangements", "Declaration",
    "choose_arrangement", "end_kind",
]
