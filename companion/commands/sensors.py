"""``gingo sensors``: read the sensor link and print every accepted board change.

With ``--json`` each accepted change is one line
``{"board": "<52 chars . 1 2>", "changed": [spaces], "seq": n}`` and the link's state
is a line ``{"status": "offline" | "online", "port": ..., "stats": {...}}``.
It runs until Ctrl-C, or for ``--frames N`` scans or ``--seconds S``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.cli import CommandError
from companion.hardware.debounce import Debouncer
from companion.hardware.sensing import BoardChange, SensingPipeline
from companion.hardware.sensors import SensorBackend, SensorBackendError, open_sensor_backend
from companion.paths import data_dir
from companion.commands.assemble import load_classifier, open_sensors
from companion.commands.settings import Settings, from_args


def add_source(parser: argparse.ArgumentParser, sim_help: str) -> None:
    """``--port``, ``--sim`` or ``--config`` (else the config the settings name: $GINGO_CONFIG
    or /etc/gingo/gingo.toml), and ``--data``."""
    src = parser.add_mutually_exclusive_group()
    src.add_argument("--port", metavar="URL",
                     help="device path, /dev/serial/by-id/ name, usb:VID:PID or pyserial URL of the Pico")
    src.add_argument("--sim", action="store_true", help=sim_help)
    src.add_argument("--config", metavar="FILE", help="the service's config file: use its [sensors] backend "
                     "(default $GINGO_CONFIG, else /etc/gingo/gingo.toml if present)")
    parser.add_argument("--data", metavar="DIR", help="data directory holding calibration.json (default "
                        "$GINGO_DATA, the config's service.data, else ~/.local/share/gingo)")


def configure(parser: argparse.ArgumentParser) -> None:
    add_source(parser, "read the simulated board (an empty board)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--frames", type=int, metavar="N", help="stop after N scans")
    parser.add_argument("--seconds", type=float, metavar="S", help="stop after S seconds")
    parser.add_argument("--scans", type=int, default=5, help="debounce: consecutive agreeing scans (default 5)")
    parser.add_argument("--settle-ms", type=float, default=50.0, help="debounce: settle time in ms (default 50)")


def open_backend(args: argparse.Namespace, settings: Settings, **sim_options: Any) -> tuple[SensorBackend, str]:
    """The backend chosen by ``--port`` or ``--sim``, else the one the settings' config
    names (``--config``, $GINGO_CONFIG, /etc/gingo/gingo.toml), and a name for it."""
    try:
        if args.sim:
            return open_sensor_backend("sim", **sim_options), "sim"
        if args.port:
            return open_sensor_backend("serial", port=args.port), args.port
        if settings.config is None:
            raise CommandError("say which sensors to read: --port URL (the Pico), --sim, or --config FILE "
                               "(or set GINGO_CONFIG)")
        cfg = settings.hardware
        name = str(cfg.sensor_port) if cfg.sensors == "serial" else cfg.sensors
        return open_sensors(cfg, **sim_options), name
    except SensorBackendError as exc:
        raise CommandError(str(exc)) from None


def _emit(obj: dict[str, Any], as_json: bool, text: str) -> None:
    print(json.dumps(obj, separators=(", ", ": ")) if as_json else text, flush=True)


def describe(change: BoardChange) -> str:
    parts = []
    for space in change.changed:
        row, col = space // 4 + 1, space % 4 + 1
        state = change.board[space]
        what = "empty" if state == "." else f"side {state} chip"
        parts.append(f"row {row} col {col} (space {space}): {what}")
    return f"seq {change.seq}: " + "; ".join(parts)


def run(args: argparse.Namespace) -> int:
    if args.frames is not None and args.frames < 0:
        raise CommandError("--frames must be 0 or more")
    if args.seconds is not None and not 0 <= args.seconds < float("inf"):
        # NaN passed the old "< 0" check and then never ran out
        raise CommandError("--seconds must be a number of seconds, 0 or more (leave it out to run until Ctrl-C)")
    settings = from_args(args)
    classifier, calibration = load_classifier(data_dir(settings.data))
    debouncer = Debouncer(args.scans, args.settle_ms / 1000.0)
    backend, port = open_backend(args, settings)

    def on_change(change: BoardChange) -> None:
        obj = {"board": change.board, "changed": change.changed, "seq": change.seq}
        _emit(obj, args.json, describe(change))

    def on_status(online: bool) -> None:
        status = "online" if online else "offline"
        obj: dict[str, Any] = {"status": status, "port": port}
        link = getattr(backend, "link", None)
        if link is not None:
            obj["stats"] = dict(link.stats)
        text = f"sensors {status} ({port})"
        _emit(obj, args.json, text)

    if not args.json:
        print(f"reading {port} with {'calibration' if calibration else 'default thresholds'}; Ctrl-C to stop",
              file=sys.stderr, flush=True)
    pipeline = SensingPipeline(backend, classifier, debouncer, on_change=on_change, on_status=on_status)
    try:
        pipeline.run_for(frames=args.frames, seconds=args.seconds)
    finally:
        pipeline.stop()
    return 0
