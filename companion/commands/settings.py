"""The service's settings, each from the first place that gives it: the command line,
then the environment, then the config file's ``[service]`` table, then the defaults.

=============  ==================  ===================  ===========================
setting        command line        environment          config file ``[service]``
=============  ==================  ===================  ===========================
``config``     ``--config FILE``   ``GINGO_CONFIG``     (default ``/etc/gingo/gingo.toml`` if it exists)
``data``       ``--data DIR``      ``GINGO_DATA``       ``data`` (relative to the file)
``host``       ``--host``          ``GINGO_HOST``       ``host``
``port``       ``--port``          ``GINGO_PORT``       ``port``
``log_level``  ``--log-level``     ``GINGO_LOG_LEVEL``  ``log_level``
``hostnames``  ``--host NAME``     ``GINGO_HOSTNAMES``  ``hostnames``
=============  ==================  ===================  ===========================

Without any of them the data folder is ``$XDG_DATA_HOME/gingo`` or
``~/.local/share/gingo`` (:func:`companion.paths.data_dir`). :attr:`Settings.origin` says
where each value came from, so a start-up line can say why the service listens where it does.
``hostnames`` are the extra names the service answers to (:mod:`companion.api.security`):
``--host`` when it is a name rather than an address, plus ``GINGO_HOSTNAMES`` (comma
separated, a name your router gives the Pi) or else the file's list.

>>> s = resolve({"port": 9000}, environ={"GINGO_HOST": "127.0.0.1", "GINGO_PORT": "7000"})
>>> s.host, s.port, s.origin["host"], s.origin["port"], s.origin["log_level"]
('127.0.0.1', 9000, 'GINGO_HOST', 'command line', 'default')
>>> resolve({}, environ={"GINGO_PORT": "eighty"})
Traceback (most recent call last):
...
companion.hardware.config.HardwareConfigError: GINGO_PORT must be a TCP port 1..65535, got 'eighty'
"""

from __future__ import annotations

import argparse
import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.hardware.config import HardwareConfigError, HardwareConfig, load_config

#: where the installer puts the config file (used when nothing names one)
SYSTEM_CONFIG = Path("/etc/gingo/gingo.toml")
ENV: dict[str, str] = {
    "config": "GINGO_CONFIG", "data": "GINGO_DATA", "host": "GINGO_HOST", "port": "GINGO_PORT",
    "log_level": "GINGO_LOG_LEVEL",
}
LOG_LEVELS = ("debug", "info", "warning", "error")
DEFAULTS: dict[str, Any] = {"host": "0.0.0.0", "port": 8000, "data": None, "log_level": "warning"}


@dataclass(frozen=True)
class Settings:
    """Resolved settings (see the module docstring) and the parsed hardware config."""

    config: str | None = None
    data: str | None = None
    host: str = "0.0.0.0"
    port: int = 8000
    log_level: str = "warning"
    hardware: HardwareConfig = field(default_factory=HardwareConfig)
    hostnames: tuple[str, ...] = ()
    origin: Mapping[str, str] = field(default_factory=dict)


def _port(value: Any, where: str) -> int:
    try:
        port = int(value) if not isinstance(value, bool) else -1
    except (TypeError, ValueError):
        port = -1
    if isinstance(value, float) or not 0 < port < 65536:
        raise HardwareConfigError(f"{where} must be a TCP port 1..65535, got {value!r}")
    return port


def _check(name: str, value: Any, where: str) -> Any:
    if name == "port":
        return _port(value, where)
    if name == "log_level":
        level = str(value).lower()
        if level not in LOG_LEVELS:
            raise HardwareConfigError(f"{where} must be one of {', '.join(LOG_LEVELS)}, got {value!r}")
        return level
    if not isinstance(value, str) or not value:
        raise HardwareConfigError(f"{where} must be a non-empty text, got {value!r}")
    return value


def resolve(cli: Mapping[str, Any], environ: Mapping[str, str] | None = None,
            system_config: Path = SYSTEM_CONFIG) -> Settings:
    """Settings from ``cli`` (option name -> value, None when not given), ``environ``
    (default ``os.environ``) and the config file they name, else the defaults.
    Raises :class:`~companion.hardware.config.HardwareConfigError` naming the bad value."""
    env = os.environ if environ is None else environ
    origin: dict[str, str] = {}
    config = cli.get("config")
    if config:
        origin["config"] = "command line"
    elif env.get(ENV["config"]):
        config, origin["config"] = env[ENV["config"]], ENV["config"]
    elif system_config.is_file():
        config, origin["config"] = str(system_config), "default"
    else:
        config, origin["config"] = None, "default"
    hardware = load_config(config)
    values: dict[str, Any] = {}
    for name, default in DEFAULTS.items():
        if cli.get(name) is not None:
            values[name], origin[name] = _check(name, cli[name], f"--{name.replace('_', '-')}"), "command line"
        elif env.get(ENV[name]):
            values[name], origin[name] = _check(name, env[ENV[name]], ENV[name]), ENV[name]
        elif name in hardware.service:
            values[name], origin[name] = hardware.service[name], "config file"
        else:
            values[name], origin[name] = default, "default"
    names = host_names(values["host"])
    if env.get("GINGO_HOSTNAMES"):
        names += [n.strip() for n in env["GINGO_HOSTNAMES"].split(",") if n.strip()]
        origin["hostnames"] = "GINGO_HOSTNAMES"
    elif hardware.service.get("hostnames"):
        names += list(hardware.service["hostnames"])
        origin["hostnames"] = "config file"
    else:
        origin["hostnames"] = "default"
    return Settings(config=config, hardware=hardware, origin=origin, hostnames=tuple(names), **values)


def host_names(host: str) -> list[str]:
    """``--host`` given as a name (not an address) is a name the companion answers to.

    >>> host_names("gingo.lan"), host_names("0.0.0.0"), host_names("::1")
    (['gingo.lan'], [], [])
    """
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return [host] if host else []
    return []


def from_args(args: argparse.Namespace, environ: Mapping[str, str] | None = None, *,
              listen: bool = False) -> Settings:
    """:func:`resolve` with the shared options of :func:`add_arguments` (``--config``,
    ``--data``, and with ``listen`` ``--host``, ``--port``, ``--log-level``; a command's own
    ``--port``, such as the Pico's serial port of ``gingo sensors``, is not the service's)."""
    names = ("config", *DEFAULTS) if listen else ("config", "data")
    return resolve({name: getattr(args, name, None) for name in names}, environ)


def add_arguments(parser: argparse.ArgumentParser, *, listen: bool = False) -> None:
    """The shared options: ``--config`` and ``--data`` (and ``--host``, ``--port``,
    ``--log-level`` with ``listen``). They default to None so :func:`resolve` can tell
    "not given" from a value."""
    parser.add_argument("--config", metavar="FILE", help="hardware config TOML (default $GINGO_CONFIG, "
                        f"else {SYSTEM_CONFIG} if present, else the simulated board)")
    parser.add_argument("--data", metavar="DIR", help="data directory (default $GINGO_DATA, the config's "
                        "service.data, $XDG_DATA_HOME/gingo or ~/.local/share/gingo)")
    if listen:
        parser.add_argument("--host", help="address to listen on (default $GINGO_HOST, the config's "
                            "service.host, else 0.0.0.0: the whole LAN)")
        parser.add_argument("--port", type=int, help="TCP port (default $GINGO_PORT, the config's "
                            "service.port, else 8000)")
        parser.add_argument("--log-level", choices=LOG_LEVELS, help="how much the server logs (default "
                            "$GINGO_LOG_LEVEL, the config's service.log_level, else warning)")
