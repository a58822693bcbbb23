"""A scored hand moves the match on by itself alone (issue 24, O(1) writes): the match one
hand further equals the match folded from every hand, for each game; a write scores its
hand once and folds no match again; a long game's answer encodes each hand once. All on
the real table and a real SQLite file, checked against a plain fold of the log."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import orjson
import pytest

from companion.api.responses import dumps_bytes
from companion.games import RummyVariant, find_variant
from companion.rules.base import HandResult
from companion.store import open_store
from companion.table import HandInput, Table, fold_game
from companion.table.state import ShownHands
from tests.test_table import COLOR_HANDS, GIN_HANDS, GINSKI_HANDS


def _gin_result(rng: random.Random, opts: Any) -> HandResult:
    v = find_variant("gin")
    assert isinstance(v, RummyVariant)
    ender = rng.choice([0, 1, None])
    if ender is None:
        return HandResult.from_dict(v.score_from_deadwood([rng.randint(0, 40), rng.randint(0, 40)], None, opts))
    dw = [rng.randint(0, 40), rng.randint(0, 40)]
    dw[ender] = rng.randint(0, 9)
    return HandResult.from_dict(v.score_from_deadwood(dw, ender, opts))


@pytest.mark.parametrize("preset", ["gin_002", "gin_004", "pagat", "modern"])
@pytest.mark.parametrize("seed", range(6))
def test_gin_match_one_hand_further_is_the_fold_of_every_hand(preset: str, seed: int) -> None:
    v = find_variant("gin")
    assert isinstance(v, RummyVariant)
    rng = random.Random(seed)
    opts = v.make_options(preset, {}, 2)
    results: list[HandResult] = []
    m = v.start_match(2, opts)
    while not m.finished:
        r = _gin_result(rng, opts)
        before = m.as_dict()
        m2 = v.add_hand(m, r, opts)
        assert m.as_dict() == before  # the match before is left as it was
        results.append(r)
        m = m2
        assert m.as_dict() == v.score_match(results, 2, opts).as_dict()
    with pytest.raises(ValueError, match="after the match ended"):
        v.add_hand(m, results[-1], opts)


@pytest.mark.parametrize("preset", ["sackson", "coop"])
def test_color_gin_match_one_hand_further_is_the_fold_of_every_hand(preset: str) -> None:
    v = find_variant("color_gin")
    assert isinstance(v, RummyVariant)
    opts = v.make_options(preset, {}, 2)
    rng = random.Random(5)
    results: list[HandResult] = []
    m = v.start_match(2, opts)
    swapped = [COLOR_HANDS[1], COLOR_HANDS[0]]
    while not m.finished:
        roll = rng.random()
        if roll < 0.2:
            r = HandResult.from_dict(v.score_hand(COLOR_HANDS, None, opts, match=m))
        else:
            r = HandResult.from_dict(v.score_hand(*((COLOR_HANDS, 0) if roll < 0.6 else (swapped, 1)), opts,
                                                  match=m))
        # the hand scored on the match before it equals the hand scored on its hands before it
        assert r == HandResult.from_dict(v.score_hand(*((COLOR_HANDS, 0) if 0.2 <= roll < 0.6 else
                                                         (swapped, 1) if roll >= 0.6 else (COLOR_HANDS, None)),
                                                      opts, prior=results))
        results.append(r)
        m = v.add_hand(m, r, opts)
        assert m.as_dict() == v.score_match(results, 2, opts).as_dict()
        assert len(results) < 200


def test_ginski_and_partnership_matches_one_hand_further_are_the_fold() -> None:
    v = find_variant("ginski")
    assert isinstance(v, RummyVariant)
    opts = v.make_options("ginski", {}, 3)
    r = HandResult.from_dict(v.score_hand(GINSKI_HANDS, 0, opts))
    results: list[HandResult] = []
    m = v.start_match(3, opts)
    while not m.finished:
        results.append(r)
        m = v.add_hand(m, r, opts)
        assert m.as_dict() == v.score_match(results, 3, opts).as_dict()
    gin = find_variant("gin")
    assert isinstance(gin, RummyVariant)
    popts = gin.make_options("pagat", {"team_mode": "pagat_partnership"}, 4)
    from companion.games.gin import partnership

    tables = partnership.check_entry([{"ender": 0, "deadwood": [4, 30]},
                                      {"seats": [2, 3], "ender": 3, "deadwood": [10, 3]}], {})
    team = HandResult.from_dict(partnership.score_entry(gin, popts, tables))
    results = []
    m = gin.start_match(4, popts)
    while not m.finished:
        results.append(team)
        m = gin.add_hand(m, team, popts)
        assert m.as_dict() == gin.score_match(results, 4, popts).as_dict()
    with pytest.raises(ValueError, match="not a partnership hand"):
        gin.add_hand(gin.start_match(4, popts), _gin_result(random.Random(1), popts), popts)


def _long_game(table: Table, variant: str, players: list[str], entry: HandInput, n: int,
               options: dict[str, Any] | None = None) -> str:
    gid: str = table.create_game(variant, players=players, options=options)["id"]
    for _ in range(n):
        out = table.score_hand(gid, entry)
        assert out["game"] == fold_game(table.store.events(gid)).as_dict()
        if out["game"]["finished"]:
            break
    return gid


def test_every_write_is_the_fold_of_the_log_and_the_summary_too(tmp_path: Path) -> None:
    table = Table(open_store(tmp_path))
    rng = random.Random(3)
    gin = table.create_game("gin", players=["A", "B"], options={"game_target": 100000})["id"]
    for i in range(80):
        roll = rng.random()
        if roll < 0.06 and i:
            table.undo(gin)
        elif roll < 0.12 and table.game(gin)["hands"]:
            table.correct_hand(gin, rng.randint(1, len(table.game(gin)["hands"])),
                               HandInput(1, deadwood=[25, rng.randint(0, 5)]))
        else:
            ender = rng.randint(0, 1)
            table.score_hand(gin, HandInput(ender, hands=GIN_HANDS if ender == 0 else GIN_HANDS[::-1]))
        folded = fold_game(table.store.events(gin))
        assert table.game(gin) == folded.as_dict() and table.summary(gin) == folded.summary()
    color = _long_game(table, "color_gin", ["C", "D"], HandInput(0, hands=COLOR_HANDS), 10)
    ginski = _long_game(table, "ginski", ["E", "F", "G"], HandInput(0, hands=GINSKI_HANDS), 10)
    team = table.create_game("gin", players=["H", "I", "J", "K"], preset="pagat",
                             options={"team_mode": "pagat_partnership"})["id"]
    for d in range(6):
        tables = [{"ender": 0, "deadwood": [4, 30], **({"dealer": 1} if d == 2 else {})},
                  {"seats": [2, 3], "ender": 3, "deadwood": [10, 3]}]
        out = table.score_hand(team, HandInput(None, tables=tables))
        assert out["game"] == fold_game(table.store.events(team)).as_dict()
        assert out["game"]["hands"][-1]["dealers"] == fold_game(table.store.events(team)).hand_dealers[-1]
    for gid in (color, ginski, team):
        folded = fold_game(table.store.events(gid))
        assert table.summary(gid) == folded.summary()
    table.store.close()
    again = Table(open_store(tmp_path))  # restarted from checkpoints and tails: the same games
    for gid in (gin, color, ginski, team):
        assert again.game(gid) == fold_game(again.store.events(gid)).as_dict()
        assert again.summary(gid) == fold_game(again.store.events(gid)).summary()


def test_a_write_scores_its_hand_once_and_folds_no_match_again(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The 60th hand of a game costs one scoring of its cards and one step of the match:
    neither the trial fold nor the summary folds the hands before it again."""
    table = Table(open_store(tmp_path))
    games = {"gin": (["A", "B"], HandInput(0, hands=GIN_HANDS), {"game_target": 100000}),
             "color_gin": (["C", "D"], HandInput(None, hands=COLOR_HANDS), {"void_cap": 0}),
             "ginski": (["E", "F", "G"], HandInput(0, hands=GINSKI_HANDS), {"target": 100000})}
    for variant, (players, entry, options) in games.items():
        gid = table.create_game(variant, players=players, options=options)["id"]
        for _ in range(60):
            table.score_hand(gid, entry)
        v = find_variant(variant)
        assert isinstance(v, RummyVariant)
        calls: dict[str, int] = {"score_hand": 0, "add_hand": 0}
        real_score, real_add = v.rules.score_hand, v.rules.add_hand

        def score_hand(*a: Any, **k: Any) -> Any:
            calls["score_hand"] += 1
            return real_score(*a, **k)

        def add_hand(*a: Any, **k: Any) -> Any:
            calls["add_hand"] += 1
            return real_add(*a, **k)

        def refold(*a: Any, **k: Any) -> Any:
            raise AssertionError("a new hand folded the whole match again")

        with monkeypatch.context() as mp:
            mp.setattr(v.rules, "score_hand", score_hand)
            mp.setattr(v.rules, "add_hand", add_hand)
            mp.setattr(type(v), "score_match", refold)
            mp.setattr("companion.table.state.tally_of", refold)
            out = table.score_hand(gid, entry)
        assert calls == {"score_hand": 1, "add_hand": 1}, variant
        assert out["game"]["version"] == 62 and len(out["game"]["hands"]) == 61
        assert out["game"] == fold_game(table.store.events(gid)).as_dict()


def test_a_long_games_answer_encodes_each_hand_once_and_reads_as_plain_json(tmp_path: Path) -> None:
    table = Table(open_store(tmp_path))
    gid = table.create_game("gin", players=["A", "B"], options={"game_target": 100000})["id"]
    for _ in range(30):
        out = table.score_hand(gid, HandInput(0, hands=GIN_HANDS))
    hands = out["game"]["hands"]
    assert isinstance(hands, ShownHands) and hands == [h.as_dict() for h in table.held(gid).hands]
    body = dumps_bytes(out)
    # the same bytes as encoding plain dicts and lists, and what the standard library reads back
    assert body == orjson.dumps(json.loads(json.dumps(out)), option=orjson.OPT_NON_STR_KEYS)
    assert json.loads(body) == json.loads(json.dumps(out))
    first = table.held(gid).hands[0]
    assert first.__dict__.get("_encoded") is not None  # kept: the next answer takes it as it is
    assert hands[0] is table.held(gid).hands[0].shown()  # nothing new made per hand
    assert table.held(gid).hands[0].as_dict() is not hands[0]  # as_dict alone is a copy
    # a corrected hand is a new entry: its JSON is made afresh
    fixed = table.correct_hand(gid, 1, HandInput(1, deadwood=[30, 0]))
    assert json.loads(dumps_bytes(fixed))["game"]["hands"][0]["corrected"] is True
    assert json.loads(dumps_bytes(fixed))["game"] == fold_game(table.store.events(gid)).as_dict()
