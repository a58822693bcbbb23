"""The SQLite event log: durability settings, idempotency, damage handling, tokens."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from companion.store import EventStore, NewEvent, StoreError, open_store


def test_wal_and_full_sync(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    conn = store._conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    store.close()


def test_append_survives_reopen_in_order(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    for i in range(5):
        store.append("g", "hand", {"i": i}, client_id=f"c{i}", result={"n": i})
    store.close()
    again = open_store(tmp_path)
    evs = again.events("g")
    assert [e.payload["i"] for e in evs] == [0, 1, 2, 3, 4]
    assert [e.seq for e in evs] == sorted(e.seq for e in evs)
    assert again.find_client("g", "c3") is not None and again.find_client("g", "c3").result == {"n": 3}
    assert again.damage is None
    assert again.events("g", after=evs[2].seq)[0].payload == {"i": 3}


def test_client_id_unique_per_game_and_batch_is_atomic(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    store.append("g", "x", {}, client_id="same")
    store.append("h", "x", {}, client_id="same")  # another game: fine
    with pytest.raises(StoreError, match="client_id"):
        store.append("g", "x", {}, client_id="same")
    before = store.count()
    with pytest.raises(StoreError):
        store.append_many([NewEvent("k", "x", {}, "a"), NewEvent("k", "x", {}, "a")])
    assert store.count() == before
    assert store.events("k") == []


def test_concurrent_appends_get_distinct_seqs(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    seqs: list[int] = []

    def work(t: int) -> None:
        for i in range(50):
            seqs.append(store.append("g", "x", {"t": t, "i": i}).seq)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(set(seqs)) == 200 and store.last_seq() == 200


def test_garbage_file_is_moved_aside_not_deleted(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    path.write_bytes(b"this is not a database at all" * 100)
    store = EventStore(path)
    assert store.damage is not None
    moved = store.damage.moved_to
    assert moved.exists() and moved.read_bytes().startswith(b"this is not a database")
    assert "DAMAGED" in store.damage.message() and str(moved) in store.damage.message()
    assert store.count() == 0
    store.append("g", "x", {})
    assert store.count() == 1


def test_corrupted_pages_detected_by_quick_check(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    store = EventStore(path)
    store.append_many([NewEvent("g", "x", {"pad": "y" * 3000}, f"c{i}") for i in range(40)])
    store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = bytearray(path.read_bytes())
    page = 4096
    # scribble over the middle of the file (index and table pages), keep the header
    for off in range(page * 3, min(len(data), page * 12)):
        data[off] = 0xA5
    path.write_bytes(bytes(data))
    again = EventStore(path)
    assert again.damage is not None
    assert again.damage.moved_to.exists()
    assert again.count() == 0


def test_tokens_hash_list_revoke(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    rec = store.tokens.add("h" * 64, "t1", "Ann's phone")
    assert store.tokens.by_hash("h" * 64) == rec
    assert [t.id for t in store.tokens.all()] == ["t1"]
    assert store.tokens.revoke("t1") is True
    assert store.tokens.revoke("t1") is False
    assert store.tokens.by_hash("h" * 64) is None
    raw = sqlite3.connect(tmp_path / "events.sqlite3").execute("SELECT * FROM tokens").fetchall()
    assert raw == []


def test_second_service_on_one_folder_is_refused(tmp_path: Path) -> None:
    import subprocess
    import sys

    from companion.store import StoreBusy

    open_store(tmp_path, exclusive=True)
    open_store(tmp_path, exclusive=True)  # the same process may open it again
    code = ("import sys; from companion.store import open_store, StoreBusy\n"
            "try:\n    open_store(sys.argv[1], exclusive=True)\nexcept StoreBusy as e:\n    print(e); sys.exit(3)\n")
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=30)
    assert r.returncode == 3 and "already using" in r.stdout
    assert issubclass(StoreBusy, ValueError)


def test_events_after_beyond_sqlite_integer_range_reads_nothing(tmp_path: Path) -> None:
    # ?after=<a number past 2**63> used to raise OverflowError inside sqlite3 (a 500)
    store = open_store(tmp_path)
    store.append("g", "hand", {"i": 0})
    assert store.events("g", after=10**30) == []
    assert store.events(after=2**63) == []
    assert [e.payload for e in store.events("g", after=-10**30)] == [{"i": 0}]
    store.close()
