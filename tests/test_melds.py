"""The meld solver against a brute-force search, and worked cases."""

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bruteforce import brute_best_discard, brute_min
from companion import cards as C
from companion import melds as M

RULES = M.RULE_SETS


def _dense_pool(rules: M.MeldRules, lo: int, span: int) -> list[int]:
    nat = [rules.base + 13 * s + r for s in range(rules.nsuits) for r in range(lo, min(13, lo + span))]
    return nat + C.mask_cards(rules.wild_mask)


@st.composite
def hands(draw, variant: str, max_size: int = 11):
    rules = RULES[variant]
    if draw(st.booleans()):
        pool = C.mask_cards(rules.natural_mask | rules.wild_mask)
    else:
        lo = draw(st.integers(0, 9))
        pool = _dense_pool(rules, lo, draw(st.integers(3, 6)))
    size = draw(st.integers(0, min(max_size, len(pool))))
    return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))


SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("variant", ["standard", "rumski", "jokers", "jokers_fewer"])
def test_min_deadwood_matches_brute_force(variant):
    @SETTINGS
    @given(hands(variant))
    def check(hand):
        assert M.min_deadwood(hand, variant) == brute_min(hand, RULES[variant])

    check()


@pytest.mark.parametrize("variant", ["standard", "rumski", "jokers"])
def test_best_discard_matches_brute_force(variant):
    @settings(max_examples=80, deadline=None)
    @given(hands(variant, 11).filter(lambda h: len(h) >= 2))
    def check(hand):
        got = M.best_discard(hand, variant)
        want = brute_best_discard(hand, RULES[variant])
        assert got[0] == want[0]
        assert sorted(got[1]) == sorted(want[1])

    check()


@pytest.mark.parametrize("variant", ["standard", "rumski", "jokers", "jokers_fewer"])
def test_every_arrangement_is_legal_and_optimal(variant):
    rules = RULES[variant]

    @settings(max_examples=120, deadline=None)
    @given(hands(variant, 10))
    def check(hand):
        best = M.min_deadwood(hand, variant)
        arrs = M.arrangements(hand, variant)
        assert arrs, "an optimal arrangement always exists"
        for a in arrs:
            assert a.value == best
            used = []
            designated = []
            for meld in a.melds:
                M.check_meld(list(meld.cards), rules, dict(meld.wilds))
                used += list(meld.cards)
                designated += [d for _, d in meld.wilds]
            used += list(a.deadwood)
            assert sorted(used) == sorted(hand)
            assert len(set(designated)) == len(designated)
            if not rules.wild_may_duplicate_hand:
                assert not set(designated) & set(hand)
            assert sum(rules.card_value(c) for c in a.deadwood) == a.value

    check()


def test_all_optimal_arrangements_listed():
    arrs = M.arrangements("5D 6D 7D 6H 6C 8H 5C")
    assert sorted(sorted(str(m) for m in a.melds) for a in arrs) == [["5D 6D 7D"], ["6H 6D 6C"]]


def test_ace_rules():
    assert M.min_deadwood("QS KS AS") == 21  # gin: ace low only
    assert M.min_deadwood("QS KS AS", "jokers") == 0
    assert M.min_deadwood("KS AS 2S", "jokers") == 13  # never round the corner
    assert M.min_deadwood("AS 2S 3S") == 0


def test_sets_and_runs_compete():
    # 7s used in the run beats the four of a kind
    assert M.min_deadwood("7S 7H 7D 7C 8C 9C") == 0
    assert M.best_arrangement("7S 7H 7D 7C 8C 9C").melds[0].kind in ("set", "run")


def test_ginski_wild_rules():
    # one wild per meld, and no all-wild meld
    assert M.min_deadwood("R5 R6 W1", "rumski") == 0
    assert M.min_deadwood("R5 W1 W2", "rumski") == 45
    assert M.min_deadwood("W1 W2 W3", "rumski") == 60
    # two sets of one rank in a five-colour deck
    assert M.min_deadwood("R5 B5 W1 Y5 P5 W2", "rumski") == 0
    # wild counts 20 and cards count their number
    assert M.min_deadwood("R13 W1", "rumski") == 33


def test_gingo_joker_cannot_stand_for_a_card_in_hand():
    # 8S is the only free 8; one joker can take it, not two
    assert M.min_deadwood("7S 9S 8H 7D 8D 8C JK1 JK2", "jokers") == 9


def test_big_hand_is_exact_against_brute_force():
    rng = random.Random(5)
    for _ in range(5):
        hand = rng.sample(range(52), 14) + [52]
        assert M.min_deadwood(hand, "jokers") == brute_min(hand, RULES["jokers"])


def test_bad_input_names_the_card():
    with pytest.raises(ValueError, match="not a card of the standard deck: JK1"):
        M.min_deadwood("5H JK", "standard")
    with pytest.raises(ValueError, match="duplicate"):
        M.min_deadwood("5H 5H")
    with pytest.raises(ValueError, match="unknown meld rules .canasta."):
        M.min_deadwood("5H", "canasta")
    with pytest.raises(ValueError, match="not a card of the Rumski deck"):
        M.min_deadwood("5H", "rumski")


def test_check_meld_messages():
    p = C.parse_cards
    with pytest.raises(ValueError, match="at least 3"):
        M.check_meld(p("5H 6H"), M.STANDARD)
    with pytest.raises(ValueError, match="not in sequence"):
        M.check_meld(p("5H 6H 8H"), M.STANDARD)
    with pytest.raises(ValueError, match="round the corner"):
        M.check_meld(p("KH AH 2H"), M.JOKERS)
    with pytest.raises(ValueError, match="say which card"):
        M.check_meld(p("5H 6H JK"), M.JOKERS)
    meld = M.check_meld(p("5H JK 7H"), M.JOKERS, {52: C.parse_card("6H")})
    assert meld.stands_for() == tuple(p("5H 6H 7H"))
    assert M.check_meld(p("QH KH AH"), M.JOKERS).kind == "run"


def test_layoffs_chain_and_compete_with_own_melds():
    k = [M.check_meld(C.parse_cards("5H 6H 7H"), M.STANDARD)]
    r = M.best_layoffs("8H 9H KS QS", k)
    assert r.deadwood == 20 and sorted(C.card_name(c) for c in r.cards) == ["8H", "9H"]
    # 8H is better kept in the defender's own set than laid off
    r = M.best_layoffs("8H 8S 8D 4C", k)
    assert r.deadwood == 4 and r.cards == ()
    # a fourth card onto the knocker's set
    k2 = [M.check_meld(C.parse_cards("JS JH JD"), M.STANDARD)]
    assert M.best_layoffs("JC 2C", k2).deadwood == 2


@pytest.mark.slow  # enumerates large hands: the full run
def test_large_hands_rank_programme_matches_enumeration(monkeypatch):
    """The rank-by-rank programme used for large hands agrees with the set enumeration
    (itself checked against brute force above), pruning forced on."""
    monkeypatch.setattr("companion.melds.block._PRUNE_AT", 0)
    rng = random.Random(11)
    tb = M._tables(M.JOKERS)
    ace_heavy = [13 * s + r for s in range(4) for r in list(range(0, 4)) + list(range(8, 13))]
    for i in range(60):
        pool = ace_heavy if i % 2 else list(range(52))
        hand = C.cards_mask(rng.sample(pool, rng.randint(14, 17)))
        hand |= (1 << 52) | ((1 << 53) if i % 3 else 0)
        assert M._block_min(hand, M.JOKERS) == M._wild_min(hand, M.JOKERS)
    for _ in range(100):
        hand = C.cards_mask(rng.sample(range(52), rng.randint(18, 40)))
        assert M._block_min(hand, M.JOKERS) == M._natural_min(hand, M.JOKERS, tb)
        assert M._block_min(hand, M.STANDARD) == M._natural_min(hand, M.STANDARD, M._tables(M.STANDARD))


def test_whole_deck():
    assert M.min_deadwood(C.STANDARD_DECK) == 0
    # holding every natural card, a joker has no card left to stand for: both are dead
    assert M.min_deadwood(C.GINGO_DECK, "jokers") == 30
    assert M.best_discard(C.STANDARD_DECK)[0] == 0


def test_ginski_wild_may_stand_for_a_held_card_in_another_run():
    # G1 G2 W=G3 and G3 G4 W=G5: the first wild stands for the G3 the other run holds
    hand = "R6 G1 G2 G3 G4 W1 W5"
    assert M.min_deadwood(hand, "rumski") == 6
    assert M.best_discard(hand, "rumski") == (0, ["R6"])
    assert M.min_deadwood(hand, "rumski") == brute_min(C.parse_cards(hand), M.RUMSKI)


def test_best_discard_on_a_whole_deck_is_quick_and_exact():
    # thirteen set ranks: the set enumeration would take 6^13 steps
    assert M.best_discard(C.STANDARD_DECK) == (0, C.mask_names(C.STANDARD_DECK))


@pytest.mark.parametrize("variant", ["standard", "jokers"])
def test_four_suit_fast_path_matches_brute_force_on_dense_hands(variant):
    """Hands of neighbouring ranks hold ranks three and four times whose cards also
    fit runs: the closed form for the last rank and the whole-set shortcut must agree
    with the brute force, for the least deadwood and for every best discard."""
    rules = RULES[variant]
    rng = random.Random(f"dense-{variant}")
    for _ in range(300):
        lo = rng.randint(0, 9)
        pool = [13 * s + r for s in range(4) for r in range(lo, min(13, lo + rng.choice((3, 4, 5))))]
        hand = rng.sample(pool, rng.randint(3, min(11, len(pool))))
        want = brute_min(hand, rules)
        assert M.min_deadwood(hand, variant) == want, C.mask_names(C.cards_mask(hand))
        assert M.min_deadwood(C.cards_mask(hand), variant) == want, C.mask_names(C.cards_mask(hand))
        assert M.deadwood_of_mask(C.cards_mask(hand), variant) == want
        got = M.best_discard(hand, variant)
        want = brute_best_discard(hand, rules)
        assert (got[0], sorted(got[1])) == (want[0], sorted(want[1]))


def test_min_deadwood_reads_lists_of_card_ints_like_masks():
    rng = random.Random(12)
    for _ in range(500):
        hand = rng.sample(range(52), rng.randint(0, 12))
        want = M.min_deadwood(C.cards_mask(hand))
        assert M.min_deadwood(hand) == want
        assert M.min_deadwood(tuple(hand)) == want
        assert M.deadwood_of_mask(C.cards_mask(hand)) == want
    for bad, words in (([True, 5, 9], "not a card: True"), ([False, 5, 9], "not a card: False"),
                       ([3, 3, 9], "duplicate card"), ([1, 2, -1], "not a card number: -1"),
                       ([1, 2, 200], "not a card number: 200"), ([1, 2, 52], "not a card of the standard deck: JK1"),
                       ([1, 2.5], "not a card"), (-3, "cannot be negative")):
        with pytest.raises(ValueError, match=words):
            M.min_deadwood(bad)


@pytest.mark.parametrize("variant", ["standard", "jokers"])
def test_four_suit_solver_agrees_with_the_set_enumeration_on_set_heavy_hands(variant):
    """The four-suit solver (closed form for one rank, triples enumerated before quads,
    whole sets of cards no run can use, the rank-by-rank programme past five set
    ranks) against the plain enumeration of every set choice, for the least deadwood
    and every best discard, on hands of 10 to 20 cards from few ranks."""
    from companion.melds.natural import _natural_discard

    rules = RULES[variant]
    tb = M._tables(rules)
    solver = M.solve._solver(rules)
    rng = random.Random(f"sets-{variant}")
    for i in range(400):
        lo = rng.randint(0, 8)
        pool = [13 * s + r for s in range(4) for r in range(lo, min(13, lo + rng.randint(4, 7)))]
        hand = C.cards_mask(rng.sample(pool, rng.randint(10, min(20, len(pool)))))
        assert solver(hand) == M._natural_min(hand, rules, tb), C.mask_names(hand)
        if i % 4 == 0:
            got = M.best_discard_mask(hand, variant)
            assert got == _natural_discard(hand, rules, tb), C.mask_names(hand)


def _solver_hands(rng: random.Random, n: int) -> list[list[int]]:
    """Hands of 10 and 11 cards that reach every path of the four-suit solver: random
    (mostly no rank held three times), meld-dense (five or six neighbouring ranks of
    all suits: one, two or three set ranks, quads) and two set ranks with runs through
    them (the two-rank closed form)."""
    out = []
    for i in range(n):
        size = 10 + i % 2
        kind = i % 3
        if kind == 0:
            hand = rng.sample(range(52), size)
        elif kind == 1:
            lo = rng.randint(0, 7)
            pool = [13 * s + r for s in range(4) for r in range(lo, lo + rng.choice((5, 6)))]
            hand = rng.sample(pool, size)
        else:
            r1, r2 = rng.sample(range(13), 2)
            held = set(rng.sample([13 * s + r1 for s in range(4)], rng.choice((3, 4))))
            held |= set(rng.sample([13 * s + r2 for s in range(4)], rng.choice((3, 3, 4))))
            near = [13 * s + r for s in range(4) for r in range(13)
                    if min(abs(r - r1), abs(r - r2)) <= 2 and 13 * s + r not in held]
            hand = list(held) + rng.sample(near, size - len(held))
        out.append(hand)
    return out


@pytest.mark.slow
def test_gin_solver_matches_brute_force_on_thousands_of_hands():
    """Every entry point of the Gin Rummy solver (mask, list and tuple of card ints,
    the unchecked mask form, the four-suit solver itself) against the brute force on
    3000 hands of 10 and 11 cards, and the best discard on every tenth 11-card hand."""
    from companion.melds.fast import four_suit

    fs = four_suit(M.STANDARD)
    rng = random.Random("solver-brute")
    for i, hand in enumerate(_solver_hands(rng, 3000)):
        mask = C.cards_mask(hand)
        want = brute_min(hand, M.STANDARD)
        got = (M.min_deadwood(mask), M.min_deadwood(hand), M.min_deadwood(tuple(hand)),
               M.deadwood_of_mask(mask), fs.min(mask))
        assert got == (want,) * 5, (C.mask_names(mask), got, want)
        if len(hand) == 11 and i % 10 == 1:
            v, which = M.best_discard_mask(mask)
            bv, bcards = brute_best_discard(hand, M.STANDARD)
            assert (v, C.mask_names(which)) == (bv, bcards), C.mask_names(mask)


@pytest.mark.parametrize("variant", ["standard", "jokers"])
def test_four_suit_solver_agrees_with_the_set_enumeration_on_many_hands(variant):
    """The four-suit solver against the plain set enumeration (written separately, in
    companion.melds.natural) on 12,000 hands of 0 to 16 cards, random and meld-dense."""
    from companion.melds.fast import four_suit
    from companion.melds.natural import _natural_min

    rules = RULES[variant]
    fs = four_suit(rules)
    tb = M._tables(rules)
    rng = random.Random(f"enum-{variant}")
    hands = _solver_hands(rng, 6000)
    for i in range(6000):
        k = rng.randint(0, 16)
        lo = rng.randint(0, 9)
        pool = (list(range(52)) if i % 2 else
                [13 * s + r for s in range(4) for r in range(lo, min(13, lo + rng.randint(3, 7)))])
        hands.append(rng.sample(pool, min(k, len(pool))))
    for hand in hands:
        mask = C.cards_mask(hand)
        assert fs.min(mask) == _natural_min(mask, rules, tb), C.mask_names(mask)
        if variant == "standard":
            assert M.min_deadwood(mask) == M.min_deadwood(hand) == fs.min(mask)


def _crowded_ginski_hands(n_hands: int, seed: int) -> list[int]:
    """Eleven-card Ginski hands with 0-3 wilds; every other one crowded (a colour's
    neighbours and a rank in several colours), where sets and runs compete."""
    rng = random.Random(seed)
    deck = C.mask_cards(C.RUMSKI_DECK)
    naturals = [c for c in deck if not C.is_wild(c)]
    wilds = [c for c in deck if C.is_wild(c)]
    hands = []
    for n in range(n_hands):
        w = n % 4
        if n % 2:
            colour, low = rng.randrange(5), rng.randrange(1, 10)
            core = [C.make_rumski(colour, low + i) for i in range(4)]
            core += [C.make_rumski(k, low + 1) for k in range(5) if k != colour][:2]
            cards = core + rng.sample([c for c in naturals if c not in core], 11 - w - len(core))
        else:
            cards = rng.sample(naturals, 11 - w)
        hands.append(C.cards_mask(cards + rng.sample(wilds, w)))
    return hands


def test_least_after_discard_in_one_search_is_the_best_single_discard() -> None:
    """Ginski's one-pass search (a wild may stand for a card the hand holds) against
    one search per discard, on hands where it matters."""
    for mask in _crowded_ginski_hands(240, 3):
        brute = min(M.deadwood_of_mask(mask & ~(1 << c), "rumski") for c in C.iter_cards(mask))
        assert M.least_after_discard_mask(mask, "rumski") == brute == M.best_discard_mask(mask, "rumski")[0], \
            C.mask_names(mask)


@pytest.mark.parametrize("variant", ["standard", "jokers", "jokers_fewer"])
def test_least_after_discard_in_the_other_games(variant: str) -> None:
    """Gin (no wilds) and Gin-Go (a joker may not stand for a card the hand holds, so a
    discard frees a designation): the same answer as one search per discard."""
    rng = random.Random(5)
    deck = list(range(52)) + ([C.JOKER1, C.JOKER2] if variant != "standard" else [])
    for _ in range(150):
        mask = C.cards_mask(rng.sample(deck, 11))
        brute = min(M.deadwood_of_mask(mask & ~(1 << c), variant) for c in C.iter_cards(mask))
        assert M.least_after_discard_mask(mask, variant) == brute, C.mask_names(mask)
    with pytest.raises(ValueError, match="no card"):
        M.least_after_discard_mask(0, variant)


def test_the_wild_memo_stays_bounded_and_gives_the_same_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A service that runs for years: the wild search's suit-pattern memo starts afresh at
    ``MEMO_LIMIT`` entries (with the run searches' caches), and no answer changes."""
    from companion.melds import wild
    rng = random.Random(17)
    gingo_deck = list(range(52)) + [C.JOKER1, C.JOKER2]
    games = [("rumski", h) for h in _crowded_ginski_hands(120, 11)]
    games += [("jokers", C.cards_mask(rng.sample(gingo_deck, 11))) for _ in range(60)]
    unbounded = [(M.deadwood_of_mask(h, v), M.least_after_discard_mask(h, v)) for v, h in games]
    limit = 300
    monkeypatch.setattr(wild, "MEMO_LIMIT", limit)
    searches = [wild._run_wild(M.get_rules(v)) for v in ("rumski", "jokers")]
    for search in searches:
        search.memo.clear()
    restarts = sum(search.restarts for search in searches)
    peak = 0
    got = []
    for v, h in games:
        got.append((M.deadwood_of_mask(h, v), M.least_after_discard_mask(h, v)))
        peak = max(peak, *(len(search.memo) for search in searches))
    restarts = sum(search.restarts for search in searches) - restarts
    assert got == unbounded
    assert restarts and peak <= limit, (restarts, peak)


@pytest.mark.parametrize("first_call, expected", [
    ("min_deadwood(C.to_mask('AS 2S 3S KD'))", 10),            # the mask path's inline look-up
    ("min_deadwood(C.to_mask('AS AH AD 5C 9H'))", 14),         # the mask path's sets branch
    ("min_deadwood([0, 1, 2, 38])", 10),                       # the list path
    ("deadwood_of_mask(C.to_mask('AS AH AD 5C 9H'))", 14),     # the fast entry point
    ("min_deadwood(C.to_mask('AS 2S 3S KD'), 'standard')", 10),
])
def test_gin_tables_load_on_whichever_call_comes_first(first_call: str, expected: int) -> None:
    # The Gin Rummy tables are built on the first call, not at import (start-up time,
    # issue 23); each entry point must load them when it is the first, in a fresh process
    import subprocess
    import sys

    code = ("import companion.melds.solve as s\nfrom companion import cards as C\n"
            "from companion.melds.solve import min_deadwood, deadwood_of_mask\n"
            "assert s._T == [], 'the tables were built at import'\n"
            f"print({first_call})\nprint(len(s._T))\n"
            "print(min_deadwood(C.to_mask('5H 6H 7H 8H 2C 2D 2S KC QC')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [str(expected), "8192", "20"]
