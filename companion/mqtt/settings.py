"""The ``[mqtt]`` (Home Assistant) and ``[remote]`` (remote play) sections of the config
file, and the board's stable id.

Both are off unless their section names a ``host``; nothing here imports the MQTT client,
so a companion installed without the ``[mqtt]`` extra reads the same config.

>>> s = parse_mqtt({"host": "127.0.0.1", "port": 1884}, "gingo.toml")
>>> s.host, s.port, s.tls, s.discovery_prefix, s.commands
('127.0.0.1', 1884, False, 'homeassistant', False)
>>> parse_mqtt({}, "gingo.toml") is None
True
>>> parse_mqtt({"host": "h", "comands": True}, "gingo.toml")
Traceback (most recent call last):
...
companion.errors.ConfigError: gingo.toml: unknown key mqtt.comands; known keys are board_id, ca, commands, discovery_prefix, host, password, port, tls, username
>>> parse_remote({"host": "club.example", "tls": True, "ca": "club-ca.crt"}, "gingo.toml", None).port
8883
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import ConfigError

#: what Home Assistant allows in a discovery id (and so in a board id)
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
BOARD_ID_FILE = "board_id"


@dataclass(frozen=True)
class BrokerSettings:
    """Where a broker is and how to log in: ``tls`` checks the broker's certificate
    against ``ca`` (a CA file) or the system's CAs when ``ca`` is None."""

    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca: str | None = None


@dataclass(frozen=True)
class MqttSettings(BrokerSettings):
    """``[mqtt]``: the home broker Home Assistant listens on."""

    discovery_prefix: str = "homeassistant"
    board_id: str | None = None
    commands: bool = False


@dataclass(frozen=True)
class RemoteSettings(BrokerSettings):
    """``[remote]``: the broker both homes of a remote game reach."""


_BROKER_KEYS = {"host", "port", "username", "password", "tls", "ca"}


def _broker(table: Mapping[str, Any], section: str, where: str, base: Path | None,
            extra: set[str]) -> dict[str, Any] | None:
    known = _BROKER_KEYS | extra
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(f"{where}: unknown key {section}.{unknown[0]}; known keys are {', '.join(sorted(known))}")
    if not table:
        return None
    host = table.get("host")
    if not isinstance(host, str) or not host.strip():
        raise ConfigError(f"{where}: {section}.host must name the broker (such as \"192.168.1.10\" or "
                          f"\"homeassistant.local\"), got {host!r}")
    tls = table.get("tls", False)
    if not isinstance(tls, bool):
        raise ConfigError(f"{where}: {section}.tls must be true or false, got {tls!r}")
    port = table.get("port", 8883 if tls else 1883)
    if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
        raise ConfigError(f"{where}: {section}.port must be a TCP port 1..65535, got {port!r}")
    out: dict[str, Any] = {"host": host.strip(), "port": port, "tls": tls}
    for key in ("username", "password"):
        value = table.get(key)
        if value is not None and (not isinstance(value, str) or not value):
            raise ConfigError(f"{where}: {section}.{key} must be a non-empty text, got {value!r}")
        out[key] = value
    ca = table.get("ca")
    if ca is not None:
        if not isinstance(ca, str) or not ca:
            raise ConfigError(f"{where}: {section}.ca must be the path of a CA certificate file, got {ca!r}")
        if base is not None and not Path(ca).expanduser().is_absolute():
            ca = str(base / ca)
        if not tls:
            raise ConfigError(f"{where}: {section}.ca is only used with {section}.tls = true")
    out["ca"] = ca
    if out["password"] is not None and out["username"] is None:
        raise ConfigError(f"{where}: {section}.password needs {section}.username")
    return out


def parse_mqtt(table: Mapping[str, Any], where: str, base: Path | None = None) -> MqttSettings | None:
    """``[mqtt]``, or None when the section is absent or empty (MQTT off)."""
    values = _broker(table, "mqtt", where, base, {"discovery_prefix", "board_id", "commands"})
    if values is None:
        return None
    prefix = table.get("discovery_prefix", "homeassistant")
    if not isinstance(prefix, str) or not re.fullmatch(r"[A-Za-z0-9_/-]{1,64}", prefix) or "//" in prefix \
            or prefix.startswith("/") or prefix.endswith("/"):
        raise ConfigError(f"{where}: mqtt.discovery_prefix must be a topic prefix such as \"homeassistant\", "
                          f"got {prefix!r}")
    board_id = table.get("board_id")
    if board_id is not None and (not isinstance(board_id, str) or not ID_PATTERN.match(board_id)):
        raise ConfigError(f"{where}: mqtt.board_id may use only letters, digits, _ and - (1 to 64), got {board_id!r}")
    commands = table.get("commands", False)
    if not isinstance(commands, bool):
        raise ConfigError(f"{where}: mqtt.commands must be true or false, got {commands!r}")
    return MqttSettings(**values, discovery_prefix=prefix, board_id=board_id, commands=commands)


def parse_remote(table: Mapping[str, Any], where: str, base: Path | None = None) -> RemoteSettings | None:
    """``[remote]``, or None when the section is absent or empty (no remote play)."""
    values = _broker(table, "remote", where, base, set())
    return None if values is None else RemoteSettings(**values)


def stable_board_id(folder: Path) -> str:
    """The board's id, made once and kept in ``folder/board_id`` (so Home Assistant keeps
    the same device across restarts and updates).

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> first = stable_board_id(d)
    >>> first.startswith("gingo_"), stable_board_id(d) == first
    (True, True)
    """
    path = folder / BOARD_ID_FILE
    try:
        text = path.read_text(encoding="utf-8").strip()
        if ID_PATTERN.match(text):
            return text
    except FileNotFoundError:
        pass
    except (OSError, UnicodeDecodeError):
        pass  # unreadable: make a new one below (Home Assistant will see a new device)
    board_id = "gingo_" + secrets.token_hex(6)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(board_id + "\n", encoding="utf-8")
    tmp.replace(path)
    return board_id


__all__ = ["BrokerSettings", "MqttSettings", "RemoteSettings", "parse_mqtt", "parse_remote", "stable_board_id",
           "ID_PATTERN"]
