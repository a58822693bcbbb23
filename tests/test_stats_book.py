"""The statistics kept game by game (companion.stats_book) say exactly what counting every
game again says (companion.stats.player_stats), after each step of a random sequence of
writes, undos, redos, corrections, Gin-Go plays, deletions and imports on a real table
and SQLite file; and after one write only that game is counted again."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion import stats
from companion.api.routes.people import sides_of
from companion.stats_book import StatsBook, same
from companion.store import open_store
from companion.table import HandInput, Table

PEOPLE = ["Ana", "Ben", "ana ", "Cy", "Di", "Eve"]
SETUP = {"type": "setup", "dealer": 1, "suit_rows": {"1": "SHDC", "2": "SHDC"}}
SPADES = [["AS", "2S", "3S"], ["4S", "5S", "6S"], ["7S", "8S", "9S"], ["10S", "JS", "QS"]]


def step(table: Table, rng: random.Random, games: list[str]) -> str:
    """One random thing a household does; returns what it was."""
    roll = rng.random()
    live = [g for g in games if not table.game(g)["finished"]]
    if roll < 0.12 or not live:
        variant = rng.choice(["gin", "gin", "ginski", "gingo"])
        n = 3 if variant == "ginski" else rng.choice([2, 4]) if variant == "gingo" else 2
        players = rng.sample(PEOPLE, n)
        g = table.create_game(variant, players=players, options={"gingo": {}, "gin": {"game_target": 60}, "ginski": {"target": 60}}[variant])
        games.append(g["id"])
        if variant == "gingo":
            table.action(g["id"], SETUP)
        return "create"
    redo = [g for g in games if table.game(g)["redo"]]
    if 0.2 <= roll < 0.25 and redo:
        table.redo(rng.choice(redo))
        return "redo"
    gid = rng.choice(games)
    game = table.game(gid)
    if roll < 0.2 and game["undo"]:
        table.undo(gid)
        return "undo"
    if roll < 0.29:
        table.delete_game(gid)
        games.remove(gid)
        return "delete"
    if roll < 0.33:
        imp = table.import_game(table.export(gid))
        games.append(str((imp.get("game") or imp)["id"]))
        return "import"
    if game["finished"]:
        return "nothing"
    n = len(game["players"])
    if game["variant"] == "gingo":
        if game["state"]["phase"] == "setup":   # an undo took the set-up back
            table.action(gid, SETUP)
            return "setup"
        if game["state"]["phase"] == "hand_over":
            table.action(gid, {"type": "new_hand"})
            return "new hand"
        seat = 0
        melds = [m["stands_for"] for m in game["state"]["melds"]]
        todo = [r for r in SPADES if r not in melds]
        if todo and rng.random() < 0.7:
            try:
                table.action(gid, {"type": "meld", "seat": seat, "cards": todo[0]})
            except Exception:
                table.action(gid, {"type": "pass", "seat": seat})
            return "meld"
        table.action(gid, {"type": "go_out", "seat": seat, "captured": {"1": ["9D"]}})
        return "go out"
    hands = len(game["hands"])
    if roll < 0.45 and hands:
        k = rng.randrange(n)
        dw = [rng.randint(5, 30) for _ in range(n)]
        dw[k] = 0
        table.correct_hand(gid, rng.randint(1, hands), HandInput(k, deadwood=dw))
        return "correct"
    k = rng.randrange(n)
    dw = [rng.randint(5, 40) for _ in range(n)]
    dw[k] = rng.choice([0, 0, 3])
    try:
        table.score_hand(gid, HandInput(k, deadwood=dw))
    except Exception:
        dw[k] = 0
        table.score_hand(gid, HandInput(k, deadwood=dw))
    return "hand"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kept_game_by_game_equals_counted_again(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    table = Table(open_store(tmp_path))
    book = StatsBook(sides_of)
    per_variant = {v: StatsBook(sides_of) for v in ("gin", "gingo")}
    games: list[str] = []
    did: dict[str, int] = {}
    for i in range(160):
        what = step(table, rng, games)
        did[what] = did.get(what, 0) + 1
        lines = table.all_lines()
        full = stats.player_stats(lines, sides_of)
        kept = book.update(lines)
        assert same(kept, full), f"step {i} ({what}) differs"
        if i % 10 == 0:
            for v, b in per_variant.items():
                sel = [ln for ln in lines if ln.get("variant") == v]
                assert same(b.update(sel), stats.player_stats(sel, sides_of)), f"step {i}, {v} only"
    # the sequence did every kind of thing, and some games were finished
    missing = [w for w in ("create", "hand", "correct", "undo", "redo", "delete", "import", "meld") if not did.get(w)]
    assert not missing, f"never did {missing}"
    assert any(p.games for p in book.update(table.all_lines()))
    # a fresh book over the same lines agrees too (nothing left over from the steps)
    assert same(StatsBook(sides_of).update(table.all_lines()), book.update(table.all_lines()))


def test_one_write_counts_one_game_again(tmp_path: Path) -> None:
    table = Table(open_store(tmp_path))
    ids = [table.create_game("gin", players=["Ana", "Ben"])["id"] for _ in range(30)]
    book = StatsBook(sides_of)
    book.update(table.all_lines())
    assert book.recounted == 30
    book.update(table.all_lines())
    assert book.recounted == 0
    table.score_hand(ids[7], HandInput(0, deadwood=[0, 20]))
    ana = book.update(table.all_lines())[0]
    assert book.recounted == 1 and ana.variants[0].hands == 1
    table.undo(ids[7])
    assert book.update(table.all_lines())[0].variants[0].hands == 0 and book.recounted == 1
