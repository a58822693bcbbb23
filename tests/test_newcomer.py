"""The rest of a newcomer's first evening with the phone page, below the page (the page's
own side is in the browser tests): a pairing code typed with spaces or dashes pairs, and a
code of the wrong length is told how long a code is."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.pairing import Pairing, PairingError
from companion.store import open_store


@pytest.fixture()
def pairing(tmp_path: Path) -> Iterator[Pairing]:
    (tmp_path / "data").mkdir()
    store = open_store(tmp_path / "data")
    try:
        yield Pairing(store, code="135790", host_code="host")
    finally:
        store.close()


@pytest.mark.parametrize("typed", ["135 790", " 135790 ", "13 57 90", "135-790"])
def test_a_code_typed_with_spaces_or_dashes_pairs(pairing: Pairing, typed: str) -> None:
    token = pairing.pair(typed, "Ann's phone")
    assert pairing.check(token) is not None


@pytest.mark.parametrize("typed,count", [("1357", 4), ("1357901", 7), ("", 0)])
def test_a_code_of_the_wrong_length_is_told_how_long_codes_are(pairing: Pairing, typed: str, count: int) -> None:
    with pytest.raises(PairingError, match=f"pairing codes have 6 digits, and {count} were typed"):
        pairing.pair(typed, "x")


def test_a_wrong_code_of_the_right_length_is_a_wrong_code(pairing: Pairing) -> None:
    with pytest.raises(PairingError, match="wrong pairing code"):
        pairing.pair("135 791", "x")


def test_bots_are_not_offered_as_earlier_players(tmp_path: Path) -> None:
    from tests.test_dealt import Phones, create

    p = Phones(tmp_path / "data", "bots")
    try:
        create(p, "gin", ["Ann", "Bot 1"], [1])
        create(p, "gin", ["Bot 2", "Cy"], [0])
        p.client.post("/api/v1/games", json={"variant": "gin", "players": ["Bot 2", "Dee"]}, headers=p.ann)  # a person called Bot 2
        names = [x["name"] for x in p.client.get("/api/v1/players").json()["players"]]
        assert "Bot 1" not in names and {"Ann", "Cy", "Dee", "Bot 2"} <= set(names)
    finally:
        p.close()
