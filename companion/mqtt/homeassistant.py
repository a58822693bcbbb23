"""What the board tells Home Assistant: the device-discovery message, the retained states
and the events, as plain dicts (no I/O; :mod:`companion.mqtt.home` sends them).

Home Assistant's MQTT device discovery (HA 2024.11 and later) takes one message on
``<prefix>/device/<board_id>/config`` with the ``device``, the ``origin`` and a map of
``components``, each with its ``platform`` and a distinct ``unique_id``. Every entity reads
the one retained state topic ``gingo/<board_id>/state`` through a ``value_template``.

Nothing here ever carries a card of a hand in play: the states are built from a short
list of public fields (scores, whose turn, links, the board's chips), never from a hand.

>>> t = Topics("gingo_ab12", "homeassistant")
>>> t.config, t.availability, t.state
('homeassistant/device/gingo_ab12/config', 'gingo/gingo_ab12/availability', 'gingo/gingo_ab12/state')
>>> msg = discovery(t, commands=False, version="0.1.0", url=None)
>>> sorted(msg["components"])[:4]
['events', 'game', 'leds', 'link_1']
>>> msg["components"]["leds"]["platform"], "new_hand" in msg["components"]
('sensor', False)
>>> discovery(t, commands=True, version="0.1.0", url=None)["components"]["leds"]["platform"]
'light'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

ORIGIN = "gingo-companion"
SUPPORT_URL = "https://github.com/gingo-companion"
#: the event entity's event types
EVENT_TYPES = ("gin", "link", "hand_scored", "game_over", "chip_mismatch")
TURN_OPTIONS = ["none", "seat_0", "seat_1", "seat_2", "seat_3"]


@dataclass(frozen=True)
class Topics:
    """Every topic of one board (``board_id``) under a discovery ``prefix``."""

    board_id: str
    prefix: str = "homeassistant"

    @property
    def base(self) -> str:
        return f"gingo/{self.board_id}"

    @property
    def config(self) -> str:
        return f"{self.prefix}/device/{self.board_id}/config"

    @property
    def birth(self) -> str:
        """Home Assistant's own ``online``/``offline`` status."""
        return f"{self.prefix}/status"

    @property
    def availability(self) -> str:
        return f"{self.base}/availability"

    @property
    def state(self) -> str:
        return f"{self.base}/state"

    @property
    def attributes(self) -> str:
        return f"{self.base}/game"

    @property
    def event(self) -> str:
        return f"{self.base}/event"

    @property
    def leds_state(self) -> str:
        return f"{self.base}/leds/state"

    @property
    def leds_set(self) -> str:
        return f"{self.base}/leds/set"

    def command(self, name: str) -> str:
        return f"{self.base}/cmd/{name}"


def _value(key: str) -> str:
    return "{{ value_json.%s }}" % key


def discovery(t: Topics, *, commands: bool, version: str, url: str | None) -> dict[str, Any]:
    """The device-discovery payload. ``commands``: the LEDs as a light and the new
    hand / new game buttons (else the LED brightness is a read-only sensor, and there
    are no buttons); ``url``: the phone page, shown in Home Assistant's device page."""
    uid = t.board_id

    def sensor(name: str, key: str, **extra: Any) -> dict[str, Any]:
        return {"platform": "sensor", "name": name, "unique_id": f"{uid}_{key}", "state_topic": t.state,
                "value_template": _value(key), **extra}

    def binary(name: str, key: str, **extra: Any) -> dict[str, Any]:
        return {"platform": "binary_sensor", "name": name, "unique_id": f"{uid}_{key}", "state_topic": t.state,
                "value_template": "{{ 'ON' if value_json.%s else 'OFF' }}" % key, **extra}

    components: dict[str, dict[str, Any]] = {
        "game": sensor("Game", "game", json_attributes_topic=t.attributes, icon="mdi:cards-playing"),
        "score_1": sensor("Score 1", "score_1", state_class="measurement"),
        "score_2": sensor("Score 2", "score_2", state_class="measurement"),
        "turn": sensor("Turn", "turn", device_class="enum", options=TURN_OPTIONS),
        "link_1": binary("Link side 1", "link_1"),
        "link_2": binary("Link side 2", "link_2"),
        "link_distance_1": sensor("Link distance side 1", "link_distance_1"),
        "link_distance_2": sensor("Link distance side 2", "link_distance_2"),
        "sensors_online": binary("Sensors", "sensors_online", device_class="connectivity"),
        "mismatch": binary("Board mismatch", "mismatch", device_class="problem"),
        "events": {"platform": "event", "name": "Game events", "unique_id": f"{uid}_events",
                   "state_topic": t.event, "event_types": list(EVENT_TYPES)},
    }
    if commands:
        components["leds"] = {"platform": "light", "name": "LEDs", "unique_id": f"{uid}_leds", "schema": "json",
                              "state_topic": t.leds_state, "command_topic": t.leds_set,
                              "brightness": True, "brightness_scale": 255,
                              "supported_color_modes": ["brightness"]}
        for key, name in (("new_hand", "New hand"), ("new_game", "New game")):
            components[key] = {"platform": "button", "name": name, "unique_id": f"{uid}_{key}",
                               "command_topic": t.command(key), "payload_press": "PRESS"}
    else:
        components["leds"] = sensor("LED brightness", "brightness", unit_of_measurement="%",
                                    icon="mdi:led-on")
    device: dict[str, Any] = {"identifiers": [uid], "name": f"Gin-Go board {uid.removeprefix('gingo_')}",
                              "manufacturer": "Gin-Go Companion", "model": "Gin-Go board",
                              "sw_version": version, "serial_number": uid}
    if url:
        device["configuration_url"] = url
    return {"device": device,
            "origin": {"name": ORIGIN, "sw_version": version, "support_url": SUPPORT_URL},
            "availability": [{"topic": t.availability}],
            "qos": 1,
            "components": components}


def _turn(game: Mapping[str, Any] | None) -> str:
    turn = None if game is None else game.get("turn")
    if isinstance(turn, int) and not isinstance(turn, bool) and 0 <= turn <= 3:
        return f"seat_{turn}"
    return "none"


def state(game: Mapping[str, Any] | None, board: Mapping[str, Any] | None, *,
          sensors_online: bool, brightness: float | None) -> dict[str, Any]:
    """The retained state: from the current ``game`` (``GET /api/v1/games/{id}``, or None)
    and the ``board`` view (``GET /api/v1/board``, or None), only public fields.

    >>> s = state({"id": "g1", "variant": "gingo", "scores": [3, 5], "turn": 1,
    ...            "links": {"1": [0, 4], "2": None}, "link_distance": {"1": 0, "2": 6},
    ...            "hands": [{"cards": ["AS"]}]}, {"mismatches": [4]}, sensors_online=True, brightness=0.5)
    >>> s["score_2"], s["turn"], s["link_1"], s["link_2"], s["link_distance_2"], s["mismatch"], s["brightness"]
    (5, 'seat_1', True, False, 6, True, 50)
    >>> "hands" in str(s) or "AS" in str(s)
    False
    """
    scores = list(game.get("scores") or []) if game else []
    links = (game.get("links") or {}) if game else {}
    # the game's distances (what the committed chips give); the board view's while no game is on
    distance = (game or {}).get("link_distance") or (board or {}).get("link_distance") or {}
    mismatches = (board or {}).get("mismatches") or []
    return {
        "game": _game_label(game),
        "score_1": _int(scores[0]) if len(scores) > 0 else None,
        "score_2": _int(scores[1]) if len(scores) > 1 else None,
        "turn": _turn(game),
        "link_1": links.get("1") is not None,
        "link_2": links.get("2") is not None,
        "link_distance_1": _int(distance.get("1")),
        "link_distance_2": _int(distance.get("2")),
        "sensors_online": bool(sensors_online),
        "mismatch": bool(mismatches),
        "brightness": None if brightness is None else round(brightness * 100),
    }


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _game_label(game: Mapping[str, Any] | None) -> str:
    if not game:
        return "none"
    label = str(((game.get("rules") or {}).get("label")) or game.get("variant") or "game")
    state = "finished" if game.get("finished") else "playing"
    return f"{label} ({state})"


def attributes(game: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game sensor's attributes (public fields only).

    >>> attributes({"id": "g1", "variant": "gin", "players": ["Ann", "Bob"], "version": 4,
    ...             "finished": False, "winner": None, "scores": [10, 0], "hands": [1, 2]})["hands_played"]
    2
    """
    if not game:
        return {"id": None}
    players = [str(p) for p in (game.get("players") or [])]
    hands = game.get("hands")
    return {"id": game.get("id"), "variant": game.get("variant"), "players": players,
            "version": _int(game.get("version")), "finished": bool(game.get("finished")),
            "winner": _int(game.get("winner")), "scores": [_int(s) for s in (game.get("scores") or [])],
            "hands_played": len(hands) if isinstance(hands, list) else _int(game.get("hands_played")),
            "turn_player": _turn_player(game, players)}


def _turn_player(game: Mapping[str, Any], players: list[str]) -> str | None:
    turn = game.get("turn")
    if isinstance(turn, int) and not isinstance(turn, bool) and 0 <= turn < len(players):
        return players[turn]
    return None


def events_between(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The events from one game state to the next (same game): gin, hand scored, game over.

    >>> a = {"id": "g", "hands": [], "finished": False, "state": {"gin": {"1": False, "2": False}}}
    >>> b = {"id": "g", "hands": [{}], "finished": True, "winner": 0, "state": {"gin": {"1": True, "2": False}}}
    >>> [e["event_type"] for e in events_between(a, b)]
    ['gin', 'hand_scored', 'game_over']
    """
    if not after or not before or before.get("id") != after.get("id"):
        return []
    out: list[dict[str, Any]] = []
    gin_before = ((before.get("state") or {}).get("gin")) or {}
    gin_after = ((after.get("state") or {}).get("gin")) or {}
    for side in ("1", "2"):
        if gin_after.get(side) and not gin_before.get(side):
            out.append({"event_type": "gin", "side": int(side)})
    hb, ha = before.get("hands"), after.get("hands")
    if isinstance(hb, list) and isinstance(ha, list) and len(ha) > len(hb):
        out.append({"event_type": "hand_scored", "hand": len(ha), "scores": list(after.get("scores") or [])})
    if after.get("finished") and not before.get("finished"):
        out.append({"event_type": "game_over", "winner": _int(after.get("winner")),
                    "scores": list(after.get("scores") or [])})
    return out


__all__ = ["Topics", "discovery", "state", "attributes", "events_between", "EVENT_TYPES"]
