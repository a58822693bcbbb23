"""The games registry (companion.games): one Variant per game, one options mechanism,
and what /api/v1/variants and each game serve the phone from it."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion import cards as C
from companion.api.app import create_app
from companion.errors import InvalidInput, UnknownVariant
from companion.games import VARIANTS, GinGo, RummyVariant, find_variant
from companion.pairing import Pairing
from companion.store import open_store
from companion.table import HandInput, Table


def test_registry_names_and_lookup() -> None:
    assert list(VARIANTS) == ["gin", "color_gin", "ginski", "gingo"]
    assert find_variant("color_gin").label == "Color Gin"
    with pytest.raises(UnknownVariant) as err:
        find_variant("Gin")
    assert isinstance(err.value, InvalidInput) and err.value.code == "unknown_variant"
    assert err.value.details["choices"] == list(VARIANTS)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_option_of_every_game_is_described_with_words(name: str) -> None:
    v = find_variant(name)
    specs = v.option_specs()
    assert [s.name for s in specs] == [f.name for f in dataclasses.fields(v.options_class)]
    for s in specs:
        assert s.help and s.label and "_" not in s.label, s
        if s.choices is not None:
            assert s.choice_labels is not None and len(s.choice_labels) == len(s.choices)
    d = v.describe()
    assert d["label"] == v.label and d["players"] == sorted(v.seats)
    assert d["default_preset"] in (d["presets"] if v.default_preset else [None])
    for p in d["preset_list"]:
        assert p["label"] and p["label"] != p["name"] and p["options"] == d["presets"][p["name"]]


def test_one_options_mechanism_refuses_the_same_way_in_every_game() -> None:
    for v in VARIANTS.values():
        players = v.seats[0]
        with pytest.raises(InvalidInput) as err:
            v.make_options(None, {"no_such_option": 1}, players)
        assert err.value.code == "invalid_options" and err.value.details["option"] == "no_such_option"
        assert set(err.value.details["known"]) == {s.name for s in v.option_specs()}
        flag = next(s for s in v.option_specs() if s.kind == "bool")
        with pytest.raises(InvalidInput) as err:
            v.make_options(None, {flag.name: "yes"}, players)
        assert f"{v.label} option {flag.name} must be true or false, got 'yes'" == err.value.message
        assert (err.value.details["option"], err.value.details["value"]) == (flag.name, "yes")


def test_presets_aliases_and_rule_checks_go_through_the_variant() -> None:
    gin = find_variant("gin")
    assert gin.make_options("gin_pagat", {}, 2).gin_bonus == 20  # an alias of pagat
    with pytest.raises(InvalidInput, match="unknown Gin Rummy preset 'gin_999'"):
        gin.make_options("gin_999", {}, 2)
    with pytest.raises(InvalidInput, match="Gin-Go has no presets"):
        find_variant("gingo").make_options("standard", {}, 2)
    with pytest.raises(InvalidInput, match="deal size 11 not allowed"):  # the engine's own check, passed on
        find_variant("gingo").make_options(None, {"deal": 11}, 4)
    assert find_variant("gingo").make_options(None, {"chip_cap": "unlimited"}, 4).deal == 7


def test_hand_sizes_and_entries_come_from_the_options() -> None:
    ginski = find_variant("ginski")
    assert isinstance(ginski, RummyVariant)
    assert ginski.hand_sizes(ginski.make_options(None, {}, 2), 2).as_dict() == {"deal": 12, "big": 13}
    assert ginski.hand_sizes(ginski.make_options(None, {}, 3), 3).as_dict() == {"deal": 10, "big": 11}
    color = find_variant("color_gin")
    assert isinstance(color, RummyVariant)
    assert color.hand_sizes(color.make_options(None, {}, 2), 2).big is None
    assert color.entries(color.make_options("coop_jokers", {}, 2))["joker"] is True
    gin = find_variant("gin")
    assert isinstance(gin, RummyVariant)
    assert gin.entries(gin.make_options(None, {"oklahoma": True}, 2))["upcard"] is True
    assert gin.entries(gin.make_options(None, {}, 2))["upcard"] is False


def test_full_play_and_bot_through_the_registry() -> None:
    gin = find_variant("gin")
    assert isinstance(gin, RummyVariant)
    summary = gin.selfplay(3)
    assert summary["finished"] and summary["variant"] == "gin"
    gingo = find_variant("gingo")
    assert isinstance(gingo, GinGo)
    play = gingo.new_play(["Ann", "Bob"], seed=5)
    for _ in range(20):
        play.apply(gingo.bot_action(play))
    assert play.as_dict()["phase"] in ("play", "hand_over", "game_over")


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    store = open_store(tmp_path)
    c = TestClient(create_app(Table(store), pairing=Pairing(store, code="4242", host_code="h"), names=("testserver",)))
    token = c.post("/api/v1/pair", json={"code": "4242", "name": "t"}).json()["token"]
    c.headers["Authorization"] = f"Bearer {token}"
    return c


def test_variants_endpoint_serves_what_the_page_needs(client: TestClient) -> None:
    body = client.get("/api/v1/variants").json()
    by = {v["name"]: v for v in body["variants"]}
    assert [by[n]["label"] for n in VARIANTS] == ["Gin Rummy", "Color Gin", "Ginski", "Gin-Go"]
    assert by["ginski"]["players"] == [2, 3, 4] and by["ginski"]["default_players"] == 3
    assert by["ginski"]["deck"]["size"] == 70 and by["ginski"]["deck"]["extra"] == ["W1", "W2", "W3", "W4", "W5"]
    assert by["ginski"]["hand_sizes"]["2"] == {"deal": 12, "big": 13}
    assert by["gingo"]["deck"]["extra"] == ["JK1", "JK2"] and by["gingo"]["seat_word"] == "side"
    knock = next(o for o in by["gin"]["options"] if o["name"] == "knock_compare")
    assert knock["label"] == "Knock with deadwood" and knock["choice_labels"] == ["up to the limit", "below the limit"]
    assert {p["name"]: p["label"] for p in by["gin"]["preset_list"]}["gin_004"] == "Full rules with boxes (seed 004)"


def test_a_gingo_game_sends_each_sides_space_for_every_card(client: TestClient) -> None:
    g = client.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bob", "Cy", "Di"]}).json()
    assert g["frames"] is None and g["rules"]["sides"] == {"1": [0, 2], "2": [1, 3]}
    r = client.post(f"/api/v1/games/{g['id']}/actions",
                    json={"action": {"type": "setup", "suit_rows": {"1": "SHDC", "2": "DCSH"}}})
    frames = r.json()["game"]["frames"]
    engine = find_variant("gingo")
    assert isinstance(engine, GinGo)
    probe = engine.new_game(["Ann", "Bob", "Cy", "Di"], {})
    probe.apply({"type": "setup", "suit_rows": {"1": "SHDC", "2": "DCSH"}})
    for side in (1, 2):
        assert frames[str(side)] == {C.card_name(c): probe.space(side, c) for c in range(52)}
        assert sorted(frames[str(side)].values()) == list(range(52))


def test_each_game_carries_its_rules_for_the_page(tmp_path: Path) -> None:
    table = Table(open_store(tmp_path))
    g = table.create_game("ginski", players=["A", "B"])
    rules: dict[str, Any] = g["rules"]
    assert rules["label"] == "Ginski" and rules["hand_sizes"] == {"deal": 12, "big": 13}
    assert rules["gin_word"] == "Ginski" and rules["big_word"] == "Big Ginski" and rules["entries"]["deadwood"]
    assert {k: rules["entries"][k] for k in ("cards", "ender", "gin")} == {"cards": True, "ender": True, "gin": True}
    c = table.create_game("color_gin", players=["A", "B"])
    assert c["rules"]["suit_columns"] and not c["rules"]["entries"]["deadwood"]
    assert "entries" not in table.create_game("gingo", players=["A", "B"])["rules"]  # played by its moves
    with pytest.raises(InvalidInput) as err:
        table.score_hand(c["id"], HandInput(0, deadwood=[0, 10]))
    assert err.value.code == "unsupported"
    with pytest.raises(InvalidInput) as err:
        table.create_game("gingo", players=["A", "B", "C"])
    assert err.value.code == "invalid_players" and err.value.details["seats"] == [2, 4]


def test_the_game_list_gives_each_games_hands_when_asked(client: TestClient) -> None:
    # contract v1's list carried every game's hands; the list now holds summary lines, and
    # ?hands=true puts the hands back, exactly as the whole game has them
    hands = [["AS", "2S", "3S", "4S", "9D", "9H", "9C", "KH", "QH", "JH"],
             ["5C", "6C", "8D", "8S", "2D", "2H", "3C", "4D", "10S", "JS"]]
    gin = client.post("/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"]}).json()["id"]
    assert client.post(f"/api/v1/games/{gin}/hands", json={"ender": 0, "hands": hands}).status_code == 200
    assert client.post(f"/api/v1/games/{gin}/hands", json={"ender": 1, "deadwood": [30, 4]}).status_code == 200
    go = client.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bob"]}).json()["id"]
    plain = client.get("/api/v1/games").json()["games"]
    assert all("hands" not in g for g in plain) and [g["hands_played"] for g in plain] == [2, 0]
    full = client.get("/api/v1/games", params={"hands": "true"}).json()
    by = {g["id"]: g for g in full["games"]}
    assert by[gin]["hands"] == client.get(f"/api/v1/games/{gin}").json()["hands"]
    assert len(by[gin]["hands"]) == 2 and by[gin]["hands"][0]["result"]["points"][0] > 0
    assert by[go]["hands"] == client.get(f"/api/v1/games/{go}").json().get("hands", [])
    assert {k: v for k, v in by[gin].items() if k != "hands"} == next(g for g in plain if g["id"] == gin)
    paged = client.get("/api/v1/games", params={"hands": "true", "limit": 1}).json()
    assert [g["id"] for g in paged["games"]] == [go] and paged["next_before"] == go
    assert client.get("/api/v1/games", params={"hands": "maybe"}).status_code == 422
