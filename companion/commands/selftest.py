"""``gingo selftest``: light each space in turn, walk a chip of each colour over the
board, print every space's readings, a weak-magnet map and the neighbour cross-talk,
and end with PASS or the list of spaces to fix (exit status 0 or 1).

Stop the service first (``sudo systemctl stop gingo``): the two would fight over the
sensor link and the LEDs. ``--sim`` runs the whole walk on the simulated board, which
places its own chips. A sensor link that cannot open, or an LED device that is missing
or not writable, is one line saying what to do; the LEDs then stay dark and the walk
goes on by space names.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.cli import CommandError
from companion.commands.sensors import add_source
from companion.hardware.layout import LayoutError, load_layout
from companion.hardware.scene import DEFAULT_COLORS
from companion.hardware.selftest import run_selftest, sim_hand
from companion.hardware.sensors import SensorBackendError, open_sensor_backend
from companion.hardware.sensors.sim import SimSensors
from companion.paths import data_dir
from companion.commands.assemble import load_classifier, open_sensors
from companion.commands.settings import Settings, from_args


def configure(parser: argparse.ArgumentParser) -> None:
    add_source(parser, "the simulated board and LEDs; it places its own chips")
    parser.add_argument("--samples", type=int, default=10, metavar="N", help="scans averaged per step (default 10)")
    parser.add_argument("--space-timeout", type=float, default=30.0, metavar="S",
                        help="seconds to wait for the chip on each space (default 30)")
    parser.add_argument("--yes", action="store_true", help="do not wait for Enter between steps")


def _open(args: argparse.Namespace, settings: Settings) -> tuple[Any, Any, Any, dict[int, tuple[int, int, int]]]:
    """(sensors, leds or None, layout or None, colours), as the service would build them."""
    colors: dict[int, tuple[int, int, int]] = dict(DEFAULT_COLORS)
    try:
        if args.sim:
            from companion.hardware.leds.sim import SimLeds

            return SimSensors(rate=1000, seed=1), SimLeds(), load_layout(None), colors
        if args.port:
            return open_sensor_backend("serial", port=args.port), None, None, colors
        if settings.config is None:
            raise CommandError("say which board to test: --config FILE (sensors and LEDs), --port URL "
                               "(the Pico, no LEDs) or --sim (or set GINGO_CONFIG)")
        cfg = settings.hardware
        colors = dict(cfg.colors)
        sensors = open_sensors(cfg)
    except SensorBackendError as exc:
        raise CommandError(str(exc)) from None
    warnings: list[str] = []
    leds: Any = cfg.open_leds(warnings.append, sensors if cfg.leds == "pico" else None)
    if warnings:
        print(f"gingo selftest: {warnings[0].replace('using the simulated strip instead', 'the LEDs stay dark')}; "
              "follow the space names instead", file=sys.stderr)
        leds.close()
        leds = None
    try:
        layout: Any = cfg.led_layout()
    except (LayoutError, OSError) as exc:
        print(f"gingo selftest: LED layout: {exc}; the LEDs stay dark", file=sys.stderr)
        layout = None
    return sensors, leds, layout, colors


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.samples <= 1000:
        raise CommandError("--samples must be 1 to 1000")
    if not 0.5 <= args.space_timeout <= 600:
        raise CommandError("--space-timeout must be 0.5 to 600 seconds")
    settings = from_args(args)
    _, calibration = load_classifier(data_dir(settings.data))
    sensors, leds, layout, colors = _open(args, settings)
    interactive = not (args.yes or isinstance(sensors, SimSensors))

    def ask(prompt: str) -> None:
        print(prompt, flush=True)
        if interactive:
            try:
                input()
            except EOFError:
                raise CommandError("input ended before the self-test finished; run it again with --yes") from None

    try:
        report = run_selftest(
            sensors,
            leds=leds,
            layout=layout if leds is not None else None,
            colors=colors,
            thresholds=calibration.thresholds if calibration else None,
            hand=sim_hand(sensors) if isinstance(sensors, SimSensors) else None,
            ask=ask,
            say=lambda line: print(line, flush=True),
            samples=args.samples,
            space_timeout=args.space_timeout,
        )
    finally:
        if leds is not None:
            leds.close()
        sensors.close()
    print(f"thresholds: {'calibration.json' if calibration else 'the defaults (no calibration yet)'}")
    for line in report.lines():
        print(line)
    return 0 if report.passed else 1
