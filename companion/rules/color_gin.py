"""Color Gin (Sid Sackson, as retold by seed 001): four scores per player, one per suit.

A hand ends with gin or a knock like gin rummy, but the points go into each suit the
ender's *declared* arrangement leaves unspoiled: a run spoils its suit, a three-card
set the suit it lacks, a four-card set nothing, and every deadwood card its own suit.
A suit closes for everyone once a player reaches the target (default 100) in it; the
first to reach it wins the suit, and three suits win the game (RULES.md section 3).

The module surface is the one of :mod:`companion.rules.base`. Seats are 0 and 1.
``score_hand`` takes, besides the common arguments:

* ``declared``: the ender's melds as lists of card names; spoiling and the ender's
  deadwood come from it. Without it the engine declares for the ender (see
  :func:`choose_arrangement`);
* ``closed``: the suits already closed, as letters (``"SH"`` or ``["S", "H"]``) or a
  :class:`~companion.rules.base.MatchScore`; a knock or gin is refused when every
  suit the declared hand leaves unspoiled is closed;
* ``joker``: co-op joker variant only (``coop_jokers``): the ender drew a joker and
  discarded it, so the hand ends whatever its deadwood (a knock above the limit is
  accepted) and even if nothing can score.

>>> r = score_hand(["QH QS QC 10D JD QD 3D 4D 5D 6D", "7S 8S 9S KH KS KC KD 5S 5H 8C"],
...                ender=0)
>>> r.kind, r.points[0], r.extra["spoiled"]
('gin', {'S': 38, 'H': 38, 'D': 0, 'C': 38}, ['D'])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final, Literal

from companion.errors import refusal
from companion import cards as C
from companion import melds as M
from companion.rules.base import HandResult, MatchScore
from companion.games.options import check_record, option_field, preset_options, resolve_options, with_overrides
from companion.rules.common import check_result, read_seat_hands

VARIANT: Final = "color_gin"
SUIT_LETTERS: Final = C.SUITS  # "SHDC"
DECK: Final = C.STANDARD_DECK
PLAYERS: Final = range(2, 3)
HAND_SIZE: Final = 10

TieRule = Literal["undercut", "knocker_wins_zero", "no_score"]
Tiebreak = Literal["none", "total_points"]
StockEnd = Literal["void_at_2", "alternate_anyway"]
AutoDeclare = Literal["best_score", "least_deadwood", "most_open_suits"]


@dataclass(frozen=True)
class Options:
    """Color Gin options; every field carries a one-line ``help`` for the new-game
    screen and enumerated fields their ``choices``."""

    target: int = option_field(100, "points in a suit that close it; the first to reach it wins the suit",
                               minimum=1)
    knock_limit: int = option_field(10, "most deadwood a player may knock with")
    gin_bonus: int = option_field(20, "bonus for gin, added to the opponent's deadwood")
    undercut_bonus: int = option_field(10, "bonus to the defender who has less deadwood than the knocker")
    tie: TieRule = option_field(
        "undercut",
        "equal deadwood after a knock: the defender undercuts (0 + bonus), the knocker wins 0, or nobody scores",
        ("undercut", "knocker_wins_zero", "no_score"),
    )
    tiebreak: Tiebreak = option_field(
        "none",
        "a 2-2 game: stays a tie, or goes to the higher total over all four suits",
        ("none", "total_points"),
    )
    stock_end: StockEnd = option_field(
        "void_at_2",
        "after a void hand (stock down to 2): the same dealer deals again, or the deal alternates anyway",
        ("void_at_2", "alternate_anyway"),
    )
    void_cap: int = option_field(3, "this many void hands in a row end the game as it stands (0: no cap)")
    auto_declare: AutoDeclare = option_field(
        "best_score",
        "arrangement the engine declares for an ender who declares none: the one that scores the ender most, "
        "least deadwood first, or most open unspoiled suits first",
        ("best_score", "least_deadwood", "most_open_suits"),
    )
    no_same_card_discard: bool = option_field(True, "a card taken from the discard pile may not be discarded (nor knocked with) in the same turn")
    first_dealer: str = option_field(
        "random", "who deals first: drawn at random, or each player flips a card and the highest chooses to deal or not, or the lowest card deals (a tie flips again)",
        ("random", "flip_high_chooses", "flip_low_deals"),
    )
    coop: bool = option_field(False, "co-op variant: both players aim for a 2-2 tie; the team score is all eight columns added up")
    coop_jokers: bool = option_field(False, "co-op with jokers shuffled in: drawing one forces gin or a knock, even above the limit; the joker is the discard")

    def __post_init__(self) -> None:
        check_record(self, VARIANT)
        if self.target < 1:
            raise ValueError("color_gin option target must be at least 1")
        if self.coop_jokers and not self.coop:
            raise ValueError("color_gin option coop_jokers needs coop (the joker rule belongs to the co-op variant)")


PRESETS: Final[dict[str, Options]] = {
    "sackson": Options(),
    "coop": Options(coop=True),
    "coop_jokers": Options(coop=True, coop_jokers=True),
}
DEFAULT_PRESET: Final = "sackson"


def make_options(preset: str | None = None, **overrides: object) -> Options:
    """The options of ``preset`` (default ``sackson``) with ``overrides`` applied.

    >>> make_options(target=150).target
    150
    >>> make_options("cutthroat")
    Traceback (most recent call last):
    ...
    companion.errors.InvalidInput: unknown color_gin preset 'cutthroat' (one of sackson, coop, coop_jokers)
    """
    base = preset_options(PRESETS, preset, DEFAULT_PRESET, VARIANT)
    return with_overrides(base, overrides, VARIANT)


def _resolve(preset: str | None, options: Options | None, overrides: dict[str, object]) -> Options:
    """``options`` (with ``overrides`` on top) or the preset's options."""
    return resolve_options(preset, options, overrides, cls=Options, game=VARIANT, make=make_options)


def deck(options: Options) -> int:
    """The cards shuffled for a deal: the 52-card deck, plus both jokers with
    ``coop_jokers``."""
    return DECK | C.JOKER_MASK if options.coop_jokers else DECK


def deal_size(players: int, options: Options) -> int:
    """Cards dealt to each player: always 10."""
    _check_players(players)
    return HAND_SIZE


def next_dealer(result: HandResult, dealer: int, players: int, options: Options) -> int:
    """The deal alternates; after a void hand the same dealer deals again unless
    ``stock_end`` is ``alternate_anyway``."""
    _check_players(players)
    if result.kind == "void" and options.stock_end == "void_at_2":
        return dealer
    return (dealer + 1) % players


def _check_players(players: int) -> None:
    if players not in PLAYERS:
        raise ValueError(f"Color Gin is a game for 2 players, not {players}")


# ---------------------------------------------------------------------------
# Spoiling and arrangements


def spoiled_suits(melds: Iterable[M.Meld], deadwood: Iterable[int]) -> int:
    """The suits (a 4-bit mask, bit 0 spades ... bit 3 clubs) an arrangement spoils.

    >>> run = M.check_meld(C.parse_cards("5H 6H 7H"), M.COLOR_GIN)
    >>> trio = M.check_meld(C.parse_cards("9S 9H 9C"), M.COLOR_GIN)
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
            raise ValueError(f"not a suit: {letter!r} (use S, H, D or C)")
        mask |= 1 << SUIT_LETTERS.index(key)
    return mask


def closed_mask(closed: str | Iterable[str] | MatchScore | None) -> int:
    """Closed suits as a 4-bit mask from letters or a Color Gin match."""
    if closed is None:
        return 0
    if isinstance(closed, MatchScore):
        if closed.variant != VARIANT:
            raise ValueError(f"closed suits must come from a Color Gin match, not {closed.variant}")
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
        tied, key=lambda d: M.best_layoffs(defender, d.arrangement.melds, "color_gin").deadwood
    )


def _net_score(d: Declaration, defender: int, options: Options) -> int:
    """What declaring ``d`` is worth to the ender this hand: the points the ender would
    score minus the points the defender would score, over the open unspoiled suits."""
    arr = d.arrangement
    suits = d.open_unspoiled.bit_count()
    if arr.value == 0:
        return (options.gin_bonus + M.deadwood_of_mask(defender, "color_gin")) * suits
    opp = M.best_layoffs(defender, arr.melds, "color_gin").deadwood
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
    if M.deadwood_of_mask(kept, "color_gin") > options.knock_limit:
        return None
    kind = None
    for arr in all_arrangements(kept, options.knock_limit):
        if _declare(arr, closed).open_unspoiled:
            if arr.value == 0:
                return "gin"
            kind = "knock"
    return kind


# ---------------------------------------------------------------------------
# Scoring one hand


def _read_hands(hands: Sequence[object], allow_empty: bool) -> list[int]:
    def count_error(seat: int, n: int) -> str | None:
        if n == HAND_SIZE or (allow_empty and n == 0):
            return None
        return ("Color Gin hands are scored with 10 each "
                "(the ender's 10 after the discard; there is no big gin)")

    return read_seat_hands(
        hands, 2, DECK, players_text="Color Gin has 2 players",
        not_in_deck="is not a Color Gin card "
                    "(52 standard cards; a co-op joker is discarded when drawn, never held)",
        count_error=count_error,
    )


def _read_declared(declared: Sequence[Iterable[str | int]], hand: int) -> M.Arrangement:
    if isinstance(declared, (str, bytes)) or not isinstance(declared, Sequence):
        raise ValueError("declared must be a list of melds, each a list of card names")
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
            meld = M.check_meld(cards, M.COLOR_GIN)
        except ValueError as exc:
            raise refusal(f"declared meld {i + 1}: {exc}", field="declared") from None
        used |= mask
        melds.append(meld)
    dead = tuple(C.mask_cards(hand & ~used))
    return M.Arrangement(tuple(melds), dead, sum(C.gin_value(c) for c in dead))


def _points_row(amount: int, scoring_suits: int) -> dict[str, int]:
    return {SUIT_LETTERS[s]: (amount if scoring_suits >> s & 1 else 0) for s in range(4)}


def _zero_row() -> dict[str, int]:
    return {s: 0 for s in SUIT_LETTERS}


def score_hand(
    hands: Sequence[object],
    ender: int | None,
    preset: str | None = None,
    *,
    options: Options | None = None,
    declared: Sequence[Iterable[str | int]] | None = None,
    closed: str | Iterable[str] | MatchScore | None = None,
    joker: bool = False,
    **overrides: object,
) -> HandResult:
    """Score one Color Gin hand.

    ``hands``: both players' 10 cards in seat order (the ender's after the discard),
    each as card names, card ints or a card bitmask.
    ``ender``: the seat that knocked or went gin, or None when the stock ran out (a
    void hand: nobody scores). ``points`` per seat are a dict suit -> points before
    suit closing; ``extra["spoiled"]`` lists the suits the ender's hand spoils.

    >>> r = score_hand(["AS 2S 3S 9H 9D 9C KC QC JC 4D", "5S 6S 7S 8H 8D 8C 2H 3C 4C 10S"], 0)
    >>> r.kind, r.winner, r.deadwood, r.points[0]
    ('knock', 0, [4, 19], {'S': 0, 'H': 15, 'D': 0, 'C': 0})
    """
    opts = _resolve(preset, options, overrides)
    if ender is None:
        if declared is not None or joker:
            raise ValueError("a void hand (stock ran out) has no ender to declare or draw a joker")
        return _void(hands)
    if isinstance(ender, bool) or not isinstance(ender, int) or ender not in (0, 1):
        raise ValueError(f"ender must be seat 0 or 1 (or None for a void hand), got {ender!r}")
    if joker and not opts.coop_jokers:
        raise ValueError("joker=True needs the co-op joker variant (coop_jokers)")
    masks = _read_hands(hands, allow_empty=False)
    closed_m = closed_mask(closed)
    own = masks[ender]
    other = 1 - ender
    if declared is not None:
        d = _declare(_read_declared(declared, own), closed_m)
        if d.arrangement.value > opts.knock_limit and not joker:
            raise refusal(
                f"seat {ender} may not knock: the declared deadwood is {d.arrangement.value}, "
                f"above the knock limit {opts.knock_limit}", field="hands", seat=ender)
        if not d.open_unspoiled and not joker:
            raise refusal(
                f"seat {ender} may not knock or go gin: the declared melds leave no suit both "
                f"unspoiled and open (spoiled {''.join(suit_letters(d.spoiled)) or 'none'}, "
                f"closed {''.join(suit_letters(closed_m)) or 'none'})", field="declared")
    else:
        chosen = choose_arrangement(own, opts, closed_m, forced=joker, defender=masks[1 - ender])
        if chosen is None:
            least = M.deadwood_of_mask(own, "color_gin")
            if least > opts.knock_limit:
                raise refusal(
                    f"seat {ender} may not knock: least deadwood {least} is above the knock "
                    f"limit {opts.knock_limit}", field="hands", seat=ender)
            raise refusal(
                f"seat {ender} may not knock or go gin: every arrangement within the limit "
                f"leaves no suit both unspoiled and open (closed {''.join(suit_letters(closed_m))})",
                field="hands", seat=ender)
        d = chosen
    arr = d.arrangement
    gin = arr.value == 0
    notes: list[str] = []
    if joker:
        notes.append("co-op joker: the ender had to end the hand")
    layoffs: list[list[str]] = [[], []]
    if gin:
        opp_arr = M.best_arrangement(masks[other], "color_gin")
        opp_dw = opp_arr.value
    else:
        lay = M.best_layoffs(masks[other], arr.melds, "color_gin")
        opp_arr = lay.arrangement
        opp_dw = lay.deadwood
        layoffs[other] = [C.card_name(c) for c in sorted(lay.cards)]
    own_dw = arr.value
    winner: int | None
    if gin:
        kind, winner, amount = "gin", ender, opts.gin_bonus + opp_dw
    elif own_dw < opp_dw:
        kind, winner, amount = "knock", ender, opp_dw - own_dw
    elif own_dw > opp_dw:
        kind, winner, amount = "undercut", other, own_dw - opp_dw + opts.undercut_bonus
    elif opts.tie == "undercut":
        kind, winner, amount = "undercut", other, opts.undercut_bonus
        notes.append("equal deadwood: the defender undercuts (tie=undercut)")
    elif opts.tie == "knocker_wins_zero":
        kind, winner, amount = "knock", ender, 0
        notes.append("equal deadwood: the knocker wins and scores 0 (tie=knocker_wins_zero)")
    else:
        kind, winner, amount = "knock", None, 0
        notes.append("equal deadwood: nobody scores (tie=no_score)")
    unspoiled = 0xF & ~d.spoiled
    points = [_zero_row(), _zero_row()]
    if winner is not None:
        points[winner] = _points_row(amount, unspoiled)
    ordered = [arr, opp_arr] if ender == 0 else [opp_arr, arr]
    deadwood = [own_dw, opp_dw] if ender == 0 else [opp_dw, own_dw]
    return HandResult(
        variant=VARIANT,
        kind=kind,  # type: ignore[arg-type]
        ender=ender,
        winner=winner,
        points=points,
        deadwood=deadwood,
        layoffs=layoffs,
        melds=[[m.names() for m in a.melds] for a in ordered],
        deadwood_cards=[a.deadwood_names for a in ordered],
        extra={
            "spoiled": suit_letters(d.spoiled),
            "amount": amount if winner is not None else 0,
            "scoring_suits": suit_letters(unspoiled & ~closed_m),
            "joker": joker,
        },
        notes=notes,
    )


def _void(hands: Sequence[object]) -> HandResult:
    masks = _read_hands(hands, allow_empty=True)
    arrs = [M.best_arrangement(m, "color_gin") if m else None for m in masks]
    return HandResult(
        variant=VARIANT,
        kind="void",
        ender=None,
        winner=None,
        points=[_zero_row(), _zero_row()],
        deadwood=[a.value if a else 0 for a in arrs],
        layoffs=[[], []],
        melds=[[m.names() for m in a.melds] if a else [] for a in arrs],
        deadwood_cards=[a.deadwood_names if a else [] for a in arrs],
        extra={"spoiled": []},
        notes=["the stock ran out: a void hand, nobody scores"],
    )


# ---------------------------------------------------------------------------
# Scoring the match


def score_match(results: Sequence[HandResult], players: int, options: Options) -> MatchScore:
    """Fold the hand results, in order, into the match.

    Points go only into suits still open when the hand is scored; a suit closes for
    everyone once someone reaches ``target`` in it (the overshoot stays) and is won by
    whoever got there. The game ends when a player holds three suits, when all four
    are closed, or after ``void_cap`` void hands in a row. A result after the end
    raises ``ValueError``.

    >>> r = score_hand(["QH QS QC 10D JD QD 3D 4D 5D 6D", "7S 8S 9S KH KS KC KD 5S 5H 8C"], 0)
    >>> m = score_match([r] * 3, 2, Options())
    >>> m.totals[0], m.extra["closed"], m.finished, m.winner
    ({'S': 114, 'H': 114, 'D': 0, 'C': 114}, ['S', 'H', 'C'], True, 0)
    """
    _check_players(players)
    totals = [_zero_row(), _zero_row()]
    suit_winner: dict[str, int | None] = {s: None for s in SUIT_LETTERS}
    hands_won = [0, 0]
    void_streak = 0
    finished = False
    end_reason: str | None = None
    for i, res in enumerate(results):
        if finished:
            raise ValueError(f"hand {i + 1} comes after the end of the game ({end_reason})")
        check_result(res, i + 1, players, VARIANT, "Color Gin")
        if res.kind == "void":
            void_streak += 1
            if options.void_cap and void_streak >= options.void_cap:
                finished, end_reason = True, "void_cap"
            continue
        void_streak = 0
        if res.winner is not None:
            hands_won[res.winner] += 1
        for seat in range(players):
            row = res.points[seat]
            if not isinstance(row, dict):
                raise ValueError(f"hand {i + 1}: Color Gin points are a dict suit -> points per seat")
            for s in SUIT_LETTERS:
                if suit_winner[s] is None:
                    totals[seat][s] += int(row.get(s, 0))
        for s in SUIT_LETTERS:
            if suit_winner[s] is not None:
                continue
            reached = [seat for seat in range(players) if totals[seat][s] >= options.target]
            if reached:
                # one seat scores per hand, so at most one seat reaches a suit at once;
                # should both, the higher column takes it, then the lower seat
                suit_winner[s] = max(reached, key=lambda seat: (totals[seat][s], -seat))
        won = [sum(1 for s in SUIT_LETTERS if suit_winner[s] == seat) for seat in range(players)]
        if max(won) >= 3:
            finished, end_reason = True, "three_suits"
        elif all(suit_winner[s] is not None for s in SUIT_LETTERS):
            finished, end_reason = True, "all_closed"
    won = [sum(1 for s in SUIT_LETTERS if suit_winner[s] == seat) for seat in range(players)]
    sums = [sum(t.values()) for t in totals]
    winner: int | None = None
    extra: dict[str, object] = {
        "suit_winner": dict(suit_winner),
        "closed": [s for s in SUIT_LETTERS if suit_winner[s] is not None],
        "suits_won": won,
        "void_streak": void_streak,
        "end_reason": end_reason,
    }
    if finished:
        if won[0] != won[1]:
            winner = 0 if won[0] > won[1] else 1
        elif options.tiebreak == "total_points" and sums[0] != sums[1]:
            winner = 0 if sums[0] > sums[1] else 1
            extra["tiebreak"] = "total_points"
        if options.coop:
            success = won[0] == won[1] == 2
            extra["coop_success"] = success
            extra["team_score"] = sum(sums) if success else 0
            winner = None
    return MatchScore(
        variant=VARIANT,
        players=players,
        totals=totals,
        hands_won=hands_won,
        finished=finished,
        winner=winner,
        final=sums,
        bonuses=[],
        hands=len(results),
        extra=extra,
    )


__all__ = [
    "Options", "PRESETS", "DEFAULT_PRESET", "DECK", "PLAYERS", "make_options", "deck",
    "deal_size", "next_dealer", "score_hand", "score_match", "end_kind",
    "choose_arrangement", "all_arrangements", "spoiled_suits", "suit_letters",
    "closed_mask", "Declaration",
]
