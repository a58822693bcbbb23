"""The service's hardware config: which LED and sensor backends, pins, colours, power.

A TOML file (``gingo serve --config FILE``); every key is optional and the defaults
are a simulated board, so no file at all is a valid config. See
``hardware/gingo.example.toml`` for every key with comments.

>>> cfg = load_config(None)
>>> cfg.leds, cfg.sensors, cfg.buttons, cfg.colors[1], cfg.palette
('sim', 'sim', None, (255, 80, 0), 'default')
>>> parse_config({"colors": {"palette": "high-contrast"}}).led_palette().steady
0.7
>>> parse_config({"leds": {"backend": "spi", "supply_amps": 4.0}}).brightness_cap()
0.8722222222222222
>>> parse_config({"leds": {"brightnes": 0.5}})
Traceback (most recent call last):
...
companion.hardware.config.HardwareConfigError: config: unknown key leds.brightnes; known keys are backend, brightness, count, layout, leds_dev, pico, sim, spi, supply_amps, ws281x
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.hardware.buttons import DEFAULT_BUTTON_PINS, NAMES as BUTTON_NAMES
from companion.hardware.layout import LedLayout, load_layout
from companion.hardware.leds import LedBackend, open_led_backend_or_sim
from companion.hardware.palette import DEFAULT_PALETTE, PALETTES, LedPalette, find_palette
from companion.hardware.power import PowerBudgetError, brightness_cap
from companion.errors import ConfigError as CompanionConfigError

__all__ = [
    "BUTTON_NAMES",
    "DEFAULT_BUTTON_PINS",
    "DEFAULT_COLORS",
    "LED_BACKENDS",
    "SENSOR_BACKENDS",
    "HardwareConfigError",
    "HardwareConfig",
    "load_config",
    "parse_color",
    "parse_config",
]

Color = tuple[int, int, int]

LED_BACKENDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "sim": {},
    "ws281x": {"pin": int, "dma": int, "channel": int, "invert": bool, "freq_hz": int},
    "leds_dev": {"path": str},
    "spi": {"bus": int, "device": int, "speed_hz": int, "order": str},
    "pico": {},
}
SENSOR_BACKENDS: tuple[str, ...] = ("sim", "serial", "adc")
DEFAULT_COLORS: dict[int, Color] = DEFAULT_PALETTE.colors
NAMED_COLORS: dict[str, Color] = {
    "red": (255, 0, 0),
    "green": (0, 255, 0),
    "blue": (0, 0, 255),
    "yellow": (255, 200, 0),
    "white": (255, 255, 255),
    "purple": (160, 0, 255),
    "orange": (255, 100, 0),
    "cyan": (0, 255, 255),
}


class HardwareConfigError(CompanionConfigError):
    """A config value is wrong; the message names the key (``leds.backend``) and the fix."""


@dataclass(frozen=True)
class HardwareConfig:
    """Parsed hardware config. ``led_options`` are the chosen LED backend's own
    options; ``buttons`` is ``None`` when the board has no buttons."""

    leds: str = "sim"
    led_count: int = 60
    led_options: Mapping[str, Any] = field(default_factory=dict)
    layout: str | None = None
    brightness: float = 0.6
    supply_amps: float = 4.0
    sensors: str = "sim"
    sensor_port: str | None = None
    sensor_options: Mapping[str, Any] = field(default_factory=dict)
    buttons: Mapping[str, int] | None = None
    hold_seconds: float = 3.0
    shutdown_command: tuple[str, ...] = ("systemctl", "poweroff")
    colors: Mapping[int, Color] = field(default_factory=lambda: dict(DEFAULT_COLORS))
    palette: str = "default"
    source: str | None = None
    service: Mapping[str, Any] = field(default_factory=dict)
    #: ``[mqtt]`` and ``[remote]`` (:mod:`companion.mqtt.settings`); None: off
    mqtt: Any = None
    remote: Any = None

    def brightness_cap(self) -> float:
        """The power budget's brightness cap for this supply and LED count."""
        return brightness_cap(self.supply_amps, self.led_count)

    def led_backend_options(self) -> dict[str, Any]:
        """Keyword arguments for :func:`companion.hardware.leds.open_led_backend`.

        >>> HardwareConfig(brightness=0.9, supply_amps=2.0).led_backend_options()["brightness_cap"]
        0.42777777777777776
        """
        return {
            "count": self.led_count,
            "brightness": self.brightness,
            "brightness_cap": self.brightness_cap(),
            **dict(self.led_options),
        }


    def led_palette(self) -> LedPalette:
        """The LED palette (``colors.palette``) with this config's side colours."""
        return find_palette(self.palette).with_sides(self.colors[1], self.colors[2])

    def led_layout(self) -> LedLayout:
        """The LED layout this config names (default: the reference wiring)."""
        return load_layout(self.layout)

    def open_leds(self, warn: Callable[[str], None], link: Any = None) -> LedBackend:
        """The configured LED backend, or the simulated strip after ``warn(why)``.

        ``link`` is the sensor link (anything with ``send_frame``), or the serial sensor
        backend that holds it (its ``link``), used by ``pico``.

        >>> HardwareConfig().open_leds(print).name
        'sim'
        """
        options = self.led_backend_options()
        if self.leds == "pico":
            # the service and the self-test hand over the sensor backend: its SerialLink
            # sends the frames (before, the backend itself went in, which has no
            # send_frame, and a strip on the Pico never lit)
            options["link"] = link if callable(getattr(link, "send_frame", None)) else getattr(link, "link", link)
        return open_led_backend_or_sim(self.leds, warn, **options)


def _table(data: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise HardwareConfigError(f"{where}: {key} must be a table ([{key}])")
    return value


def _unknown(table: Mapping[str, Any], known: set[str], prefix: str, where: str) -> None:
    extra = sorted(set(table) - known)
    if extra:
        raise HardwareConfigError(f"{where}: unknown key {prefix}{extra[0]}; known keys are {', '.join(sorted(known))}")


def _number(value: Any, key: str, where: str, lo: float, hi: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise HardwareConfigError(f"{where}: {key} must be a number, got {value!r}")
    # "not lo <= value": TOML's nan passed "value < lo" and reached the LEDs and buttons
    if not lo <= value < float("inf") or (hi is not None and value > hi):
        span = f"{lo:g}..{hi:g}" if hi is not None else f"a finite number, at least {lo:g}"
        raise HardwareConfigError(f"{where}: {key} must be {span}, got {value!r}")
    return float(value)


def parse_color(value: Any, key: str = "color", where: str = "config") -> Color:
    """``"#ff8800"``, a name such as ``"red"``, or ``[r, g, b]``.

    >>> parse_color("#ff8800"), parse_color("green"), parse_color([1, 2, 3])
    ((255, 136, 0), (0, 255, 0), (1, 2, 3))
    """
    if isinstance(value, str):
        text = value.strip().lower()
        if text in NAMED_COLORS:
            return NAMED_COLORS[text]
        if len(text) == 7 and text.startswith("#"):
            try:
                return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))
            except ValueError:
                pass
    elif (
        isinstance(value, list)
        and len(value) == 3
        and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in value)
    ):
        return (value[0], value[1], value[2])
    raise HardwareConfigError(
        f"{where}: {key} must be '#rrggbb', one of {', '.join(NAMED_COLORS)}, or [r, g, b] with 0..255, got {value!r}"
    )


SERVICE_KEYS = ("data", "host", "hostnames", "log_level", "port")


def _service(table: Mapping[str, Any], where: str, base: Path | None) -> dict[str, Any]:
    """The ``[service]`` table: where the service listens, logs and keeps its data (the
    command line and the environment override each key; see :mod:`companion.commands.settings`).

    >>> _service({"port": 8080, "data": "state"}, "gingo.toml", Path("/etc/gingo"))
    {'port': 8080, 'data': '/etc/gingo/state'}
    """
    _unknown(table, set(SERVICE_KEYS), "service.", where)
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key == "port":
            if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 65536:
                raise HardwareConfigError(f"{where}: service.port must be a TCP port 1..65535, got {value!r}")
        elif key == "hostnames":
            if not isinstance(value, list) or not all(isinstance(n, str) and n for n in value):
                raise HardwareConfigError(f"{where}: service.hostnames must be a list of names such as [\"gingo.lan\"], "
                                  f"got {value!r}")
        elif key == "log_level":
            if value not in ("debug", "info", "warning", "error"):
                raise HardwareConfigError(f"{where}: service.log_level must be one of debug, info, warning, error, "
                                  f"got {value!r}")
        elif not isinstance(value, str) or not value:
            raise HardwareConfigError(f"{where}: service.{key} must be a non-empty text, got {value!r}")
        elif key == "data" and base is not None and not Path(value).expanduser().is_absolute():
            value = str(base / value)
        out[key] = value
    return out


def parse_config(data: Mapping[str, Any], where: str = "config", base: Path | None = None) -> HardwareConfig:
    """Validate parsed TOML into a :class:`HardwareConfig` (relative paths resolve
    against ``base``, the config file's folder)."""
    _unknown(data, {"leds", "sensors", "buttons", "colors", "service", "mqtt", "remote"}, "", where)
    service = _service(_table(data, "service", where), where, base)
    from companion.mqtt.settings import parse_mqtt, parse_remote

    try:
        mqtt = parse_mqtt(_table(data, "mqtt", where), where, base)
        remote = parse_remote(_table(data, "remote", where), where, base)
    except CompanionConfigError as exc:
        raise HardwareConfigError(str(exc)) from None

    leds = _table(data, "leds", where)
    _unknown(leds, {"backend", "count", "brightness", "supply_amps", "layout", *LED_BACKENDS}, "leds.", where)
    backend = leds.get("backend", "sim")
    if backend not in LED_BACKENDS:
        raise HardwareConfigError(f"{where}: leds.backend {backend!r} is not one of {', '.join(LED_BACKENDS)}")
    count = leds.get("count", 60)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise HardwareConfigError(f"{where}: leds.count must be a positive integer, got {count!r}")
    brightness = _number(leds.get("brightness", 0.6), "leds.brightness", where, 0.0, 1.0)
    supply = _number(leds.get("supply_amps", 4.0), "leds.supply_amps", where, 0.0)
    layout = leds.get("layout")
    if layout is not None:
        if not isinstance(layout, str) or not layout:
            raise HardwareConfigError(f"{where}: leds.layout must be a file path, got {layout!r}")
        if base is not None and not Path(layout).is_absolute():
            layout = str(base / layout)
    for name, allowed in LED_BACKENDS.items():  # check every backend table, chosen or not
        if name not in leds:
            continue
        table = _table(leds, name, where)
        _unknown(table, set(allowed), f"leds.{name}.", where)
        for key, value in table.items():
            want = allowed[key]
            if not isinstance(value, want) or (want is int and isinstance(value, bool)):
                kind = want.__name__ if isinstance(want, type) else "value"
                raise HardwareConfigError(f"{where}: leds.{name}.{key} must be {kind}, got {value!r}")
    options = dict(_table(leds, backend, where)) if backend in leds else {}

    sensors = _table(data, "sensors", where)
    _unknown(sensors, {"backend", "port", *SENSOR_BACKENDS}, "sensors.", where)
    sensor_backend = sensors.get("backend", "sim")
    if sensor_backend not in SENSOR_BACKENDS:
        raise HardwareConfigError(f"{where}: sensors.backend {sensor_backend!r} is not one of {', '.join(SENSOR_BACKENDS)}")
    port = sensors.get("port")
    if port is not None and (not isinstance(port, str) or not port):
        raise HardwareConfigError(f"{where}: sensors.port must be a device path or pyserial URL, got {port!r}")
    if sensor_backend == "serial" and port is None:
        raise HardwareConfigError(
            f"{where}: sensors.port is required for the serial backend "
            "(a /dev/serial/by-id/... name, a device path, or a pyserial URL)"
        )
    if backend == "pico" and sensor_backend != "serial":
        raise HardwareConfigError(f"{where}: leds.backend 'pico' sends LED frames over the sensor link; set sensors.backend = 'serial'")
    sensor_options = dict(_table(sensors, sensor_backend, where)) if sensor_backend in sensors else {}

    buttons_t = data.get("buttons")
    buttons: dict[str, int] | None = None
    hold = 3.0
    shutdown_command: tuple[str, ...] = ("systemctl", "poweroff")
    if buttons_t is not None:
        if not isinstance(buttons_t, Mapping):
            raise HardwareConfigError(f"{where}: buttons must be a table ([buttons])")
        _unknown(buttons_t, {"enabled", "hold_seconds", "shutdown_command", *BUTTON_NAMES}, "buttons.", where)
        command = buttons_t.get("shutdown_command", ["systemctl", "poweroff"])
        if (not isinstance(command, list) or not command
                or not all(isinstance(x, str) and x for x in command)):
            raise HardwareConfigError(f"{where}: buttons.shutdown_command must be a list of words such as "
                              f"[\"systemctl\", \"poweroff\"], got {command!r}")
        shutdown_command = tuple(command)
        enabled = buttons_t.get("enabled", True)
        if not isinstance(enabled, bool):
            raise HardwareConfigError(f"{where}: buttons.enabled must be true or false, got {enabled!r}")
        hold = _number(buttons_t.get("hold_seconds", 3.0), "buttons.hold_seconds", where, 0.1, 60.0)
        if enabled:
            buttons = dict(DEFAULT_BUTTON_PINS)
            for name in BUTTON_NAMES:
                if name in buttons_t:
                    pin = buttons_t[name]
                    if pin is False:
                        buttons.pop(name)
                        continue
                    if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 27:
                        raise HardwareConfigError(f"{where}: buttons.{name} must be a BCM GPIO number 0..27 (or false), got {pin!r}")
                    buttons[name] = pin
            used: dict[int, str] = {}
            for name, pin in buttons.items():
                if pin in used:
                    raise HardwareConfigError(f"{where}: buttons.{name} uses GPIO{pin}, already used by buttons.{used[pin]}")
                used[pin] = name
            for name in BUTTON_NAMES[:3]:
                if name not in buttons:
                    raise HardwareConfigError(f"{where}: buttons.{name} is required when buttons are enabled")

    colors_t = _table(data, "colors", where)
    _unknown(colors_t, {"side1", "side2", "palette"}, "colors.", where)
    palette = colors_t.get("palette", "default")
    if palette not in PALETTES:
        raise HardwareConfigError(f"{where}: colors.palette must be one of {', '.join(PALETTES)} "
                          f"(LED colours for every kind of colour vision; docs/hardware.md), got {palette!r}")
    colors = dict(PALETTES[palette].colors)
    for side in (1, 2):
        key = f"side{side}"
        if key in colors_t:
            colors[side] = parse_color(colors_t[key], f"colors.{key}", where)
    if colors[1] == colors[2]:
        raise HardwareConfigError(f"{where}: colors.side1 and colors.side2 are the same colour; the sides must differ")

    cfg = HardwareConfig(
        leds=backend,
        led_count=count,
        led_options=options,
        layout=layout,
        brightness=brightness,
        supply_amps=supply,
        sensors=sensor_backend,
        sensor_port=port,
        sensor_options=sensor_options,
        buttons=buttons,
        hold_seconds=hold,
        shutdown_command=shutdown_command,
        colors=colors,
        palette=palette,
        source=None if where == "config" else where,
        service=service,
        mqtt=mqtt,
        remote=remote,
    )
    try:
        cfg.brightness_cap()
    except PowerBudgetError as exc:
        raise HardwareConfigError(f"{where}: leds.supply_amps: {exc}") from None
    return cfg


def load_config(path: str | None) -> HardwareConfig:
    """Read the config file at ``path``; ``None`` gives the defaults (simulated board)."""
    if path is None:
        return HardwareConfig()
    file = Path(path)
    try:
        with open(file, "rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise HardwareConfigError(f"config file {file} not found; copy hardware/gingo.example.toml and edit it") from None
    except IsADirectoryError:
        raise HardwareConfigError(f"config file {file} is a folder; pass the .toml file") from None
    except tomllib.TOMLDecodeError as exc:
        raise HardwareConfigError(f"{file}: not valid TOML ({exc})") from None
    except UnicodeDecodeError:
        raise HardwareConfigError(f"{file}: not valid TOML (not UTF-8 text); save it as UTF-8") from None
    except OSError as exc:
        raise HardwareConfigError(f"cannot read config file {file}: {exc.strerror or exc}") from None
    return parse_config(data, str(file), file.resolve().parent)
