"""One place that assembles the companion from its :class:`~companion.commands.settings.Settings`:
the sensor backend and the classifier built from the calibration file, the LED backend
and layout, the store, table, pairing, board sync and web app. ``gingo serve`` runs what
:func:`build_service` returns; ``gingo sensors``, ``calibrate``, ``doctor`` and
``selftest`` take the parts they need (:func:`open_sensors`, :func:`load_classifier`,
:func:`open_hardware`) from here, so every command sees the same board.

>>> import tempfile
>>> from companion.commands.settings import Settings
>>> svc = build_service(Settings(data=tempfile.mkdtemp()))
>>> svc.sync.sensors_name, svc.sync.leds_name, svc.calibration
('offline', 'sim', None)
>>> svc.stop()
"""

from __future__ import annotations

import functools
import logging
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.play.sharp import set_budget
from companion.hardware.calibration import Calibration, CalibrationError, calibration_path, load_calibration
from companion.hardware.classify import Classifier
from companion.hardware.config import HardwareConfig
from companion.hardware.layout import LedLayout
from companion.hardware.sensors import SensorBackend, open_sensor_backend
from companion.paths import data_dir
from companion.commands.settings import Settings

log = logging.getLogger(__name__)
Say = Callable[[str], None]


def _quiet(msg: str) -> None:
    log.warning("%s", msg)


# -- the board's parts --------------------------------------------------------------------


def sensor_options(cfg: HardwareConfig, **sim_options: Any) -> dict[str, Any]:
    """Keyword arguments for :func:`~companion.hardware.sensors.open_sensor_backend`."""
    options = dict(cfg.sensor_options)
    if cfg.sensors == "sim":
        options.setdefault("rate", 200.0)
        options.update(sim_options)
    if cfg.sensor_port and cfg.sensors == "serial":
        options.setdefault("port", cfg.sensor_port)
    return options


def open_sensors(cfg: HardwareConfig, **sim_options: Any) -> SensorBackend:
    """The configured sensor backend (raises the backend's error when it cannot start).
    A Pico's link checks each HELLO against the configured LED backend and count."""
    sensors = open_sensor_backend(cfg.sensors, **sensor_options(cfg, **sim_options))
    receiver = getattr(getattr(sensors, "link", None), "receiver", None)
    if receiver is not None and hasattr(receiver, "expect_leds"):
        receiver.expect_leds = (cfg.leds, cfg.led_count)
    return sensors


def _open_sensors_or_none(cfg: HardwareConfig, say: Say) -> SensorBackend | None:
    try:
        return open_sensors(cfg)
    except Exception as exc:
        say(f"SENSORS OFFLINE: the {cfg.sensors} sensors cannot start ({exc}); the board shows 'offline', "
            "nothing is guessed, and the companion keeps trying every 5 seconds")
        return None


def load_classifier(folder: str | Path, say: Say | None = None) -> tuple[Classifier, Calibration | None]:
    """The classifier for the calibration in ``folder`` (default thresholds when there is
    none). A file that cannot be used raises :class:`CalibrationError`, unless ``say`` is
    given: then ``say`` hears why and the default thresholds are used."""
    try:
        calibration = load_calibration(folder)
    except CalibrationError as exc:
        if say is None:
            raise
        say(f"CALIBRATION IGNORED: {exc}; the sensors use the default thresholds until then")
        return Classifier(), None
    return Classifier(calibration.thresholds if calibration else None), calibration


@dataclass
class Hardware:
    """The board's hardware as the config names it: sensors (None: could not start),
    LEDs, layout, side colours and the classifier of the calibration file."""

    config: HardwareConfig
    sensors: SensorBackend | None
    leds: Any
    layout: LedLayout
    classifier: Classifier
    calibration: Calibration | None

    def close(self) -> None:
        for part in (self.leds, self.sensors):
            if part is not None:
                try:
                    part.close()
                except Exception as exc:  # closing must not hide what went wrong before
                    log.warning("closing %s failed: %s", getattr(part, "name", part), exc)


def open_hardware(settings: Settings, say: Say = _quiet) -> Hardware:
    """Open the sensors, LEDs and layout of ``settings`` and load the calibration from its
    data folder (a part that cannot start is reported through ``say``; the board runs without it)."""
    cfg = settings.hardware
    classifier, calibration = load_classifier(data_dir(settings.data), say)
    layout = cfg.led_layout()
    sensors = _open_sensors_or_none(cfg, say)
    # the pico LEDs send LEDS frames over the sensors' serial link (SerialSensors.link)
    link = getattr(sensors, "link", sensors) if cfg.leds == "pico" else None
    leds = cfg.open_leds(say, link)
    return Hardware(cfg, sensors, leds, layout, classifier, calibration)


# -- the service ----------------------------------------------------------------------------


@dataclass
class Service:
    """Everything ``gingo serve`` runs, built by :func:`build_service` (also for tests)."""

    app: Any
    table: Any
    store: Any
    pairing: Any
    sync: Any
    warnings: list[str] = field(default_factory=list)
    buttons: Any = None
    settings: Settings = field(default_factory=Settings)
    calibration: Calibration | None = None

    def start(self) -> None:
        self.sync.start()
        self.table.dealing.resume_bots()  # a dealt game stopped on a bot's turn (a restart, a crash) plays on

    def stop(self) -> None:
        if self.buttons is not None:
            try:
                self.buttons.close()
            except Exception:
                pass
        self.sync.stop()
        try:
            self.pairing.flush()
        except ValueError as exc:  # a full disk: the "last used" times of tokens wait for the next run
            print(f"gingo: WARNING: {exc}", file=sys.stderr, flush=True)
        finally:
            self.store.close()


def env_number(name: str, default: float, low: float, high: float, unit: str, environ: Any = None) -> float:
    """The number in environment variable ``name`` (``default`` when unset or blank),
    refused with a message naming the variable unless it is ``low`` to ``high`` ``unit``.

    >>> env_number("GINGO_X", 1.0, 0, 9, "seconds", {"GINGO_X": " 2.5 "})
    2.5
    >>> env_number("GINGO_X", 1.0, 0, 9, "seconds", {"GINGO_X": "ten"})
    Traceback (most recent call last):
    ValueError: GINGO_X must be a number of seconds, got 'ten'
    """
    env = os.environ if environ is None else environ
    raw = str(env.get(name, "")).strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number of {unit}, got {raw!r}") from None
    if not low <= value <= high:
        raise ValueError(f"{name} must be {low:g} to {high:g} {unit}, got {raw!r}")
    return value


def bot_delay(environ: Any = None) -> float:
    """Seconds a bot waits before each move in a dealt game: ``GINGO_BOT_DELAY`` (default
    0.8; 0 plays the bots' moves at once).

    >>> bot_delay({"GINGO_BOT_DELAY": "0"}), bot_delay({})
    (0.0, 0.8)
    """
    return env_number("GINGO_BOT_DELAY", 0.8, 0, 30, "seconds", environ)


def hand_pause(environ: Any = None) -> float:
    """Seconds a dealt table of bots only waits after each hand (with a bot delay), so the
    phones watching it show the hand-over panel: ``GINGO_HAND_PAUSE`` (default 8).

    >>> hand_pause({"GINGO_HAND_PAUSE": "2.5"}), hand_pause({})
    (2.5, 8.0)
    """
    return env_number("GINGO_HAND_PAUSE", 8.0, 0, 120, "seconds", environ)


def bot_budget(environ: Any = None) -> float:
    """Milliseconds the strong bots may spend sampling the unseen cards for one decision:
    ``GINGO_BOT_BUDGET_MS`` (default 150; 1 to 5000). A slower board (a Pi Zero 2 W is
    about 8 times slower than the desktop core the default was measured on) plays on fewer
    samples within the same time; raise it there to keep every sample.

    >>> bot_budget({"GINGO_BOT_BUDGET_MS": "400"}), bot_budget({})
    (400.0, 150.0)
    """
    return env_number("GINGO_BOT_BUDGET_MS", 150.0, 1, 5000, "milliseconds", environ)


def build_service(settings: Settings, warn: Say | None = None) -> Service:
    """Open the store, fold the games, open the board's hardware and build the app.
    Every warning goes to ``warn`` and to ``/api/v1/health``."""
    from companion.api import create_app
    from companion.pairing import Pairing
    from companion.store import open_store
    from companion.hardware.sync import BoardSync
    from companion.table import Table

    warnings: list[str] = []

    def say(msg: str) -> None:
        warnings.append(msg)
        if warn is not None:
            warn(msg)

    folder = data_dir(settings.data, writable=True)
    limit = os.environ.get("GINGO_LOG_LIMIT_MB", "").strip()
    try:
        max_bytes = int(float(limit) * 1024 * 1024) if limit else None
    except ValueError:
        raise ValueError(f"GINGO_LOG_LIMIT_MB must be a number of megabytes, got {limit!r}") from None
    store = open_store(folder, exclusive=True, max_bytes=max_bytes)
    if store.upgraded_from is not None:
        say(f"the event log was upgraded to the new format; the old file is kept as {store.upgraded_from}")
    table = Table(store)
    table.dealing.bot_delay = bot_delay()
    table.dealing.hand_pause = hand_pause()
    set_budget(bot_budget())
    for text in table.storage_health()["warnings"]:
        say(text)
    try:
        pairing = Pairing(store)
    except ValueError:  # a bad GINGO_PAIRING_WINDOW: say so before anything runs
        store.close()
        raise

    cfg = settings.hardware
    hw = open_hardware(settings, say)
    reopen = functools.partial(open_sensors, cfg) if hw.sensors is None else None
    shutdown = functools.partial(power_off, cfg.shutdown_command) if cfg.buttons else None
    sync = BoardSync(table, hw.sensors, hw.leds, layout=hw.layout, colors=dict(cfg.colors),
                     palette=cfg.led_palette(), reopen=reopen,
                     shutdown=shutdown, classifier=hw.classifier)
    app = create_app(table, pairing=pairing, sync=sync, warnings=warnings, names=settings.hostnames)
    app.state.calibration = describe_calibration(hw.calibration, folder)
    svc = Service(app, table, store, pairing, sync, warnings, settings=settings, calibration=hw.calibration)
    if cfg.mqtt is not None:
        add_home_assistant(svc, folder, say)
    if cfg.remote is not None:
        add_remote_play(svc, folder, say)
    if cfg.buttons:
        try:
            from companion.hardware.buttons import Buttons

            svc.buttons = Buttons(dict(cfg.buttons), functools.partial(board_button, pairing, sync),
                                  hold_seconds=cfg.hold_seconds)
        except Exception as exc:  # no GPIO here: the board works without buttons
            say(f"buttons not available ({exc}); use the phones instead")
    return svc


def add_home_assistant(svc: Service, folder: Path, say: Say) -> None:
    """The ``[mqtt]`` adapter (:mod:`companion.mqtt.home`), started with the web app; a
    companion without the ``[mqtt]`` extra says so and runs without it."""
    from companion import __version__
    from companion.mqtt.home import HomeAssistant
    from companion.mqtt.link import MqttMissing, client_module
    from companion.mqtt.settings import stable_board_id

    mqtt = svc.settings.hardware.mqtt
    try:
        client_module()
    except MqttMissing as exc:
        say(str(exc))
        return
    host = svc.settings.host
    url = f"http://{'gingo.local' if host in ('0.0.0.0', '::', '') else host}:{svc.settings.port}/"
    adapter = HomeAssistant(mqtt, mqtt.board_id or stable_board_id(folder), svc.table, svc.sync,
                            version=__version__, url=url)
    svc.app.state.mqtt = adapter
    svc.app.state.adapters.append(adapter)


def add_remote_play(svc: Service, folder: Path, say: Say) -> None:
    """The ``[remote]`` adapter (:mod:`companion.mqtt.remote`): two boards, one game."""
    from companion.mqtt.link import MqttMissing, client_module
    from companion.mqtt.remote import RemotePlay
    from companion.mqtt.settings import ID_PATTERN, stable_board_id

    try:
        client_module()
    except MqttMissing as exc:
        say(str(exc))
        return
    remote, mqtt = svc.settings.hardware.remote, svc.settings.hardware.mqtt
    # the board's name on the remote broker: its account there (so the broker's ACL can
    # keep each board to its own topics with %u), else its Home Assistant id or stable id
    board_id = remote.username if remote.username and ID_PATTERN.match(remote.username) else \
        (mqtt.board_id if mqtt is not None else None) or stable_board_id(folder)
    adapter = RemotePlay(remote, board_id, svc.table, svc.sync, folder)
    adapter.announce = svc.app.state.hub.publish
    svc.app.state.remote = adapter
    svc.app.state.adapters.append(adapter)


def board_button(pairing: Any, sync: Any, name: str) -> None:
    """A board button: a long press of confirm (``pair_code``) makes a new pairing code
    (logged, and announced to the paired phones, which show it); the rest go to the board."""
    if name == "pair_code":
        pairing.rotate("the board's confirm button (long press)")
        return
    sync.button(name)


def describe_calibration(calibration: Calibration | None, folder: Path) -> str:
    """What the sensors classify with, in one phrase (banner and ``/api/v1/health``).

    >>> describe_calibration(None, Path("/d"))
    'default thresholds (no /d/calibration.json: run gingo calibrate)'
    """
    path = calibration_path(folder)
    if calibration is None and path.exists():
        return f"default thresholds ({path} cannot be used: run gingo calibrate again)"
    if calibration is None:
        return f"default thresholds (no {path}: run gingo calibrate)"
    when = f" of {calibration.created}" if calibration.created else ""
    return f"{path}{when}"


def power_off(command: Sequence[str]) -> str | None:
    """Run the shutdown command of the board's long-hold button; the error text if it
    failed (the service keeps running and tells the phones), else None.

    >>> power_off(["true"]) is None
    True
    >>> power_off(["false"])
    "shutting down failed: 'false' exited with 1 (the installer allows 'systemctl poweroff' for the service user)"
    """
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"shutting down failed: cannot run {' '.join(command)!r} ({exc})"
    if done.returncode != 0:
        why = (done.stderr or "").strip().splitlines()
        return (f"shutting down failed: {' '.join(command)!r} exited with {done.returncode}"
                + (f": {why[-1]}" if why else "")
                + " (the installer allows 'systemctl poweroff' for the service user)")
    return None
