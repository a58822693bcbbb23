"""The [mqtt] and [remote] config sections: off unless configured, every bad value named."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.hardware.config import HardwareConfigError as ConfigError, parse_config
from companion.mqtt.homeassistant import Topics, discovery
from companion.mqtt.settings import stable_board_id


def test_off_unless_a_section_names_a_host() -> None:
    cfg = parse_config({})
    assert cfg.mqtt is None and cfg.remote is None
    cfg = parse_config({"mqtt": {"host": "127.0.0.1"}, "remote": {"host": "club.example", "tls": True}})
    assert (cfg.mqtt.host, cfg.mqtt.port, cfg.mqtt.discovery_prefix, cfg.mqtt.commands) == \
        ("127.0.0.1", 1883, "homeassistant", False)
    assert (cfg.remote.port, cfg.remote.tls) == (8883, True)


@pytest.mark.parametrize(("data", "message"), [
    ({"mqtt": {"port": 1883}}, "mqtt.host must name the broker"),
    ({"mqtt": {"host": "h", "port": 0}}, "mqtt.port must be a TCP port"),
    ({"mqtt": {"host": "h", "password": "p"}}, "mqtt.password needs mqtt.username"),
    ({"mqtt": {"host": "h", "ca": "ca.crt"}}, "mqtt.ca is only used with mqtt.tls = true"),
    ({"mqtt": {"host": "h", "tls": "yes"}}, "mqtt.tls must be true or false"),
    ({"mqtt": {"host": "h", "board_id": "a/b"}}, "mqtt.board_id may use only"),
    ({"mqtt": {"host": "h", "discovery_prefix": "ha/#"}}, "mqtt.discovery_prefix must be"),
    ({"mqtt": {"host": "h", "commands": 1}}, "mqtt.commands must be true or false"),
    ({"mqtt": {"host": "h", "user": "x"}}, "unknown key mqtt.user"),
    ({"remote": {"host": "h", "discovery_prefix": "x"}}, "unknown key remote.discovery_prefix"),
    ({"mqtt": "on"}, "mqtt must be a table"),
])
def test_bad_values_name_the_key(data: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace(".", r"\.")):
        parse_config(data, "gingo.toml")


def test_relative_ca_is_beside_the_config_file() -> None:
    cfg = parse_config({"remote": {"host": "h", "tls": True, "ca": "club.crt"}}, "gingo.toml", Path("/etc/gingo"))
    assert cfg.remote.ca == "/etc/gingo/club.crt"


def test_board_id_is_kept_in_the_data_folder(tmp_path: Path) -> None:
    first = stable_board_id(tmp_path)
    assert (tmp_path / "board_id").read_text().strip() == first
    assert stable_board_id(tmp_path) == first
    (tmp_path / "board_id").write_text("not valid!\n")
    assert stable_board_id(tmp_path) != first  # an unusable file is replaced


def test_discovery_unique_ids_are_distinct_and_prefixed() -> None:
    for commands in (False, True):
        comps = discovery(Topics("gingo_x", "ha"), commands=commands, version="1", url="http://gingo.local:8000/")
        ids = [c["unique_id"] for c in comps["components"].values()]
        assert len(ids) == len(set(ids)) and all(i.startswith("gingo_x_") for i in ids)
        assert comps["device"]["configuration_url"] == "http://gingo.local:8000/"


def test_home_assistant_states_of_a_dealt_game_name_no_card(tmp_path: Path) -> None:
    """A dealt game's hands are secret: the state and attributes sent to Home Assistant
    carry scores, turn and names, never a card (not even the public discard pile)."""
    import json
    import re

    from companion.mqtt.homeassistant import attributes, state
    from companion.store import open_store
    from companion.table import Table

    table = Table(open_store(tmp_path))
    checked = []
    for variant in ("gin", "gingo", "ginski", "color_gin"):
        players = ["Ann", "Bot"] if variant != "color_gin" else ["Ann", "Bot", "Cy"]
        try:
            gid = table.dealing.create_dealt(variant, players=players, bots=[1], skip_board=variant == "gingo").body["id"]
        except ValueError:
            continue
        game = table.game(gid)
        text = json.dumps([state(game, None, sensors_online=True, brightness=0.5), attributes(game)])
        cards = re.findall(r'"(?:10|[2-9AJQK])[SHDC]"|"[RGBYP]\d{1,2}"|"JK\d?"', json.dumps(game))
        for card in set(cards):  # whatever card names the game dict itself holds
            assert card not in text, (variant, card)
        assert not re.search(r'"(?:10|[2-9AJQK])[SHDC]"', text), (variant, text)
        checked.append((variant, len(cards)))
    assert len(checked) >= 3 and any(n for _, n in checked), checked  # games whose dicts do name cards
