"""``gingo deadwood`` and ``gingo selfplay`` through the real command line entry point."""

from __future__ import annotations

import json
import sys

import pytest

from companion import melds as M
from companion.cli import main
from companion.commands import deadwood
from companion.play import rummy
from tests.bot_matches import selfplay_match



def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


# ---------------------------------------------------------------- deadwood


def test_deadwood_ten_cards(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "deadwood", "5H", "6H", "7H", "9C", "9D", "9S", "KS", "QS",
                       "2D", "3C")
    assert rc == 0 and err == ""
    assert "least deadwood: 25" in out
    assert "[5H 6H 7H]" in out and "[9S 9D 9C]" in out
    assert "deadwood: QS KS 2D 3C = 25" in out
    assert "best discard" not in out


def test_deadwood_eleven_cards_shows_best_discards(capsys: pytest.CaptureFixture[str]) -> None:
    cards = "5H 6H 7H 9C 9D 9S KS QS 2D 3C AC".split()
    rc, out, _ = run(capsys, "deadwood", *cards)
    assert rc == 0
    assert "best discard: QS or KS -> deadwood 16" in out
    assert "after discarding QS:" in out and "deadwood: KS 2D AC 3C = 16" in out


def test_deadwood_json_agrees_with_the_solver(capsys: pytest.CaptureFixture[str]) -> None:
    cards = "7H 7S 7C 7D 8H 9H 2C 3C 4C 5S KD".split()
    rc, out, _ = run(capsys, "deadwood", "--json", *cards)
    assert rc == 0
    data = json.loads(out)
    assert data["deadwood"] == M.min_deadwood(cards)
    dw, names = M.best_discard(cards)
    assert data["deadwood_after_discard"] == dw and data["best_discards"] == names
    for arr in data["arrangements"]:
        laid = [c for m in arr["melds"] for c in m] + arr["deadwood"]
        assert sorted(laid) == sorted(data["cards"])
        assert arr["deadwood_value"] == data["deadwood"]


def test_deadwood_lists_every_best_arrangement(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "deadwood", "5D", "6D", "7D", "6H", "6C", "8H", "5C")
    assert rc == 0 and "best arrangements (2):" in out
    assert "[5D 6D 7D]" in out and "[6H 6D 6C]" in out


def test_deadwood_discard_flag_and_variants(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "deadwood", "--discard", "--variant", "gingo", "QS", "KS", "AS",
                     "5D", "9C")
    assert rc == 0 and "least deadwood: 14" in out and "best discard: 9C -> deadwood 5" in out
    rc, out, _ = run(capsys, "deadwood", "--json", "--variant", "ginski", "R1", "R2", "W",
                     "B5", "G5", "Y5")
    data = json.loads(out)
    assert rc == 0 and data["deadwood"] == 0 and data["variant"] == "ginski"


@pytest.mark.parametrize(("cards", "words"), [
    (["5H", "ZZ", "7H"], "not a card: 'ZZ'"),
    (["5H", "5h"], "duplicate card: '5h'"),
    (["5H", "JK"], "not a card of the standard deck: JK1"),
])
def test_deadwood_bad_card_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                                  cards: list[str], words: str) -> None:
    rc, out, err = run(capsys, "deadwood", *cards)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("gingo deadwood: error: ") and words in err


def test_deadwood_analyse_matches_min_deadwood_on_random_hands() -> None:
    import random

    rng = random.Random(5)
    for _ in range(40):
        cards = [M.C.card_name(c) for c in rng.sample(range(52), rng.choice((10, 11)))]
        report = deadwood.analyse(cards)
        assert report["deadwood"] == M.min_deadwood(cards)
        if len(cards) == 11:
            assert report["deadwood_after_discard"] == M.best_discard(cards)[0]


# ---------------------------------------------------------------- selfplay


def test_selfplay_json_summary_is_the_sum_of_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "selfplay", "--variant", "gin", "--games", "6", "--seed", "3",
                       "--json")
    assert rc == 0 and err == ""
    data = json.loads(out)
    games = [selfplay_match(s, "gin", check=False) for s in range(3, 9)]
    assert data["games"] == 6 and data["first_seed"] == 3
    assert data["hands"] == sum(g["hands"] for g in games)
    wins: dict[str, int] = {}
    for g in games:
        wins[str(g["winner"])] = wins.get(str(g["winner"]), 0) + 1
    assert data["wins"] == wins and data["no_winner"] == 0
    assert data["invariants_checked"] is True and data["games_per_second"] > 0


def test_selfplay_table(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "selfplay", "--games", "3", "--preset", "pagat")
    assert rc == 0
    for label in ("variant", "games", "hands per game", "wins, seat", "games per second",
                  "checked after every action"):
        assert label in out


def test_selfplay_ginski_three_players(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "selfplay", "--variant", "ginski", "--games", "2", "--json")
    assert rc == 0 and json.loads(out)["players"] == 3


def test_selfplay_bad_settings(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "selfplay", "--variant", "gin", "--players", "3", "--games", "1")
    assert rc == 2 and "gin is for 2 players, not 3" in err and out == ""
    rc, _, err = run(capsys, "selfplay", "--games", "0")
    assert rc == 2 and "--games must be at least 1" in err
    rc, _, err = run(capsys, "selfplay", "--preset", "nope", "--games", "1")
    assert rc == 2 and "unknown Gin Rummy preset 'nope'" in err


def test_selfplay_reports_a_broken_invariant(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: rummy.RummyGame) -> None:
        if self.actions > 5:
            raise AssertionError("test: a card in two places")

    monkeypatch.setattr(rummy.RummyGame, "check", broken)
    rc, _, err = run(capsys, "selfplay", "--games", "2", "--seed", "40")
    assert rc == 1
    assert "invariant broken in gin game with seed 40: test: a card in two places" in err


def test_selfplay_gingo_runs(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "selfplay", "--variant", "gingo", "--games", "2", "--json")
    data = json.loads(out)
    assert rc == 0 and data["games"] == 2 and data["variant"] == "gingo"


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    for cmd in ("deadwood", "selfplay"):
        with pytest.raises(SystemExit) as exc:
            main([cmd, "--help"])
        assert exc.value.code == 0
        assert "usage: gingo " + cmd in capsys.readouterr().out


def test_deadwood_doctest() -> None:
    import doctest

    failures, tried = doctest.testmod(deadwood)
    assert tried >= 2 and failures == 0


def test_deadwood_of_no_cards_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    # `gingo deadwood ""` used to print "0 cards ... least deadwood: 0"
    assert main(["deadwood", ""]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gingo deadwood: error: no cards given") and err.count("\n") == 1


def _catches_sigint(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) & (1 << (2 - 1)))  # bit of signal 2
    except FileNotFoundError:
        pass
    return False


def test_ctrl_c_during_selfplay_exits_130_quietly(tmp_path: object) -> None:
    import signal
    import subprocess
    import time

    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "selfplay", "--games", "100000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        # Ctrl-C before the interpreter has installed its SIGINT handler kills the process
        # the kernel's way (-2) whatever gingo does; under heavy load that start takes more
        # than the 2 s this test used to wait, so wait until Linux shows SIGINT as caught
        # (SigCgt in /proc/PID/status), then a little into the run
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not _catches_sigint(proc.pid):
            time.sleep(0.05)
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    assert proc.returncode == 130 and err == b""


def test_deadwood_of_a_whole_deck_is_refused_not_a_long_wait(capsys: pytest.CaptureFixture[str]) -> None:
    # 34 Rumski cards (or the 54 Gin-Go ones with fewer-than-naturals jokers) kept the
    # solver busy for minutes; one hand is at most 13 cards
    from companion import cards as C

    many = C.mask_names(C.RUMSKI_DECK)[:34]
    assert main(["deadwood", "--variant", "ginski", *many]) == 2
    err = capsys.readouterr().err
    assert err == f"gingo deadwood: error: 34 cards: gingo deadwood looks at one hand, give at most {deadwood.MAX_CARDS} cards\n"
    assert main(["deadwood", *[C.card_name(c) for c in range(20)]]) == 0
