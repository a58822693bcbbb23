"""Events that stay small, checkpoints and lazy loading, the upgrade of a version 1 file,
and group commit: all on a real SQLite file, checked against a plain fold of the log."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.store import open_store
from companion.table import HandInput, Table, fold_game
from companion.table import checkpoint as cp
from tests.test_table import COLOR_HANDS, GIN_HANDS, GINGO_ACTIONS


def folded(table: Table, gid: str) -> dict[str, Any]:
    """The game as a plain fold of every event in the file."""
    return fold_game(table.store.events(gid)).as_dict()


def _play_rummy(table: Table, gid: str, rng: random.Random, n: int) -> None:
    for _ in range(n):
        roll = rng.random()
        game = table.game(gid)
        hands = len(game["hands"])
        if roll < 0.1 and hands:
            table.undo(gid)
        elif roll < 0.16 and game["redo"]:
            table.redo(gid)
        elif roll < 0.25 and hands:
            table.correct_hand(gid, rng.randint(1, hands), HandInput(0, deadwood=[rng.randint(0, 4), 20]))
        else:
            ender = rng.randint(0, 1)
            dw = [rng.randint(11, 30), rng.randint(11, 30)]
            dw[ender] = rng.randint(0, 4)
            table.score_hand(gid, HandInput(ender, deadwood=dw))


def test_events_store_the_command_not_the_game(tmp_path: Path) -> None:
    table = Table(open_store(tmp_path))
    gid = table.create_game("gin", players=["A", "B"], options={"game_target": 100000})["id"]
    for _ in range(60):
        table.score_hand(gid, HandInput(0, hands=GIN_HANDS))
    raw = sqlite3.connect(tmp_path / "events.sqlite3")
    sizes = [len(p) + len(r or "") for p, r in raw.execute("SELECT payload, result FROM events")]
    # the 60th hand's game is over 20 KB; its event stays the size of one hand
    assert len(json.dumps(table.game(gid))) > 20_000 and max(sizes) < 1500
    row = json.loads(raw.execute("SELECT result FROM events ORDER BY seq DESC LIMIT 1").fetchone()[0])
    assert row["v"] == 2 and "game" not in row["body"] and row["game_key"] == "game"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_checkpoint_plus_tail_equals_the_fold(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    table = Table(open_store(tmp_path))
    gin = table.create_game("gin", players=["A", "B"], options={"game_target": 100000})["id"]
    color = table.create_game("color_gin", players=["C", "D"])["id"]
    _play_rummy(table, gin, rng, 3 * cp.EVERY + 7)
    for _ in range(2):
        table.score_hand(color, HandInput(0, hands=COLOR_HANDS))
    table.correct_hand(color, 1, HandInput(None, hands=COLOR_HANDS))
    go = table.create_game("gingo", players=["Ann", "Bob"])["id"]
    for a in GINGO_ACTIONS[:-1]:
        table.action(go, a)
    table.undo(go)
    table.redo(go)   # the Gin-Go action comes back, then goes again
    table.undo(go)
    assert table.game(go)["redo"] is not None
    for gid in (gin, color, go):  # the state each write stepped to is the fold of the log
        assert table.game(gid) == folded(table, gid)
    table.store.close()
    again = Table(open_store(tmp_path))
    assert again.ledger.library.checkpointed.get(gin, 0) > 0  # started from a checkpoint, not from the first event
    for gid in (gin, color, go):
        assert again.game(gid) == folded(again, gid)
        assert again.game(gid)["version"] == len(again.store.events(gid))
    # a checkpoint that cannot be read is ignored: the game folds from its events
    raw = sqlite3.connect(tmp_path / "events.sqlite3")
    raw.execute("UPDATE checkpoints SET state = '{\"format\": 99}'")
    raw.commit()
    again.store.close()
    third = Table(open_store(tmp_path))
    assert third.game(gin) == folded(third, gin)


def test_finished_games_load_when_first_asked_for(tmp_path: Path) -> None:
    table = Table(open_store(tmp_path))
    done = table.create_game("gin", players=["A", "B"])["id"]
    while not table.game(done)["finished"]:
        table.score_hand(done, HandInput(0, hands=GIN_HANDS))
    running = table.create_game("gin", players=["A", "B"])["id"]
    table.store.close()
    again = Table(open_store(tmp_path))
    assert running in again.ledger.library.open and done not in again.ledger.library.open and done not in again.ledger.library.cache
    listed = {g["id"]: g for g in again.games()}
    assert listed[done]["finished"] and listed[done]["summary"] is True and "hands" not in listed[done]
    assert again.game(done) == folded(again, done)  # folded now
    assert done in again.ledger.library.cache


def test_summary_is_small_and_rebuilt_when_missing(tmp_path: Path) -> None:
    table = Table(open_store(tmp_path))
    gid = table.create_game("gin", players=["A", "B"], options={"game_target": 100000})["id"]
    for _ in range(40):
        table.score_hand(gid, HandInput(0, hands=GIN_HANDS))
    heard: list[dict[str, Any]] = []
    table.subscribe(lambda ev, msg: heard.append(msg))
    table.score_hand(gid, HandInput(0, hands=GIN_HANDS))
    assert len(json.dumps(heard[-1])) <= 8 * 1024 and heard[-1]["game"]["hands_played"] == 41
    table.store.close()
    raw = sqlite3.connect(tmp_path / "events.sqlite3")
    raw.execute("DELETE FROM games")
    raw.execute("DELETE FROM checkpoints")
    raw.commit()
    again = Table(open_store(tmp_path))
    assert [g["id"] for g in again.games()] == [gid] and again.game(gid) == folded(again, gid)
    assert again.store.game_rows()[0].version == 42  # the line was written again


def _to_version_1(path: Path, table: Table) -> None:
    """Rewrite a version 2 file the way version 1 kept it: every answer whole."""
    raw = sqlite3.connect(path)
    rows = raw.execute("SELECT seq, game_id, result, payload FROM events ORDER BY seq").fetchall()
    for seq, gid, result, payload in rows:
        res = json.loads(result) if result else None
        if isinstance(res, dict) and res.get("v") == 2:
            old = dict(res["body"])
            for k in res.get("from_payload", []):
                old[k] = json.loads(payload)[k]
            if isinstance(res["game_at"], int):
                game = fold_game(table.store.events(gid, upto=res["game_at"])).as_dict()
                if res["game_key"]:
                    old[res["game_key"]] = game
                else:
                    old = game
            raw.execute("UPDATE events SET result = ? WHERE seq = ?", (json.dumps(old), seq))
    raw.execute("DROP TABLE games")
    raw.execute("DROP TABLE checkpoints")
    raw.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
    raw.commit()
    raw.execute("VACUUM")
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()


def test_a_version_1_folder_is_upgraded_in_place_and_the_old_file_kept(tmp_path: Path) -> None:
    table = Table(open_store(tmp_path))
    gid = table.create_game("gin", players=["A", "B"], client_id="new", options={"game_target": 100000})["id"]
    answers = [table.score_hand(gid, HandInput(0, hands=GIN_HANDS), client_id=f"h{i}") for i in range(30)]
    go = table.create_game("gingo", players=["Ann", "Bob"], client_id="new-go")["id"]
    for a in GINGO_ACTIONS[:3]:
        table.action(go, a)
    before = {g: table.game(g) for g in (gid, go)}
    table.store.close()
    path = tmp_path / "events.sqlite3"
    reader = Table(open_store(tmp_path))
    _to_version_1(path, reader)
    reader.store.close()
    old_size = path.stat().st_size
    store = open_store(tmp_path)
    assert store.upgraded_from is not None and store.upgraded_from.exists()
    kept = sqlite3.connect(store.upgraded_from)
    assert kept.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "1"
    again = Table(store)
    assert {g: again.game(g) for g in (gid, go)} == before
    # a client id retried after the upgrade gets its first answer, game included, and adds nothing
    count = again.store.count()
    assert again.score_hand(gid, HandInput(0, hands=GIN_HANDS), client_id="h4") == answers[4]
    assert again.create_game("gin", players=["A", "B"], client_id="new")["id"] == gid
    assert again.store.count() == count
    assert path.stat().st_size < old_size / 3


def test_thirty_writers_share_commits_and_every_answer_is_on_disk(tmp_path: Path) -> None:
    table = Table(open_store(tmp_path))
    games = [table.create_game("gin", players=["A", "B"], options={"game_target": 100000})["id"] for _ in range(6)]
    answers: dict[str, dict[str, Any]] = {}
    errors: list[BaseException] = []

    def writer(w: int) -> None:
        try:
            for i in range(10):
                cid = f"w{w}-{i}"
                answers[cid] = table.score_hand(games[w % 6], HandInput(0, deadwood=[w % 5, 20]), client_id=cid)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    table.store.close()
    again = Table(open_store(tmp_path))
    for gid in games:
        evs = again.store.events(gid)
        assert again.game(gid) == folded(again, gid) and len(evs) == 51
    by_cid = {e.client_id: e for e in again.store.events() if e.client_id}
    assert all(by_cid[c].seq == a["game"]["seq"] for c, a in answers.items())
