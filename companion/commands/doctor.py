"""``gingo doctor``: check groups, devices and backends, and say what to fix.

Prints one line per check, ``OK``, ``WARN`` or ``FAIL``, with the fix after ``->``.
A check FAILs only when the hardware config needs the missing piece (an LED backend,
the sensor port, buttons); otherwise a missing piece is a WARN. Exit status 0 when
nothing FAILs, 1 otherwise.

The checks themselves are :mod:`companion.hardware.checks`; this module reads the config
the service would use, prints the report and runs the LED test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict
from pathlib import Path

from companion.commands.settings import resolve
from companion.hardware.checks import (
    FAIL,
    OK,
    WARN,
    Check,
    Environment,
    ProbeResult,
    advice,
    check_pico,
    probe_gpio,
    run_checks,
)
from companion.hardware.config import HardwareConfigError, HardwareConfig
from companion.hardware.layout import SLOT_NAMES, LayoutError, LedLayout
from companion.hardware.leds import LedBackend

__all__ = ["Check", "Environment", "ProbeResult", "advice", "probe_gpio", "run_checks"]

DEFAULT_CONFIG = "etc/gingo/gingo.toml"  # under --root

def led_test(
    leds: LedBackend,
    layout: LedLayout,
    colors: Mapping[int, tuple[int, int, int]],
    *,
    step: float = 0.05,
    hold: float = 3.0,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Walk a light along the chain, then show the board's orientation, then go dark.

    Orientation frame: space 0 (side 1, ace row, column 1) in side 1's colour, space 3
    (same row, column 4) white, space 51 (side 2's far corner) in side 2's colour, the
    marker slots dim blue.
    """
    dark = [(0, 0, 0)] * leds.count
    for i in range(leds.count):
        frame = list(dark)
        frame[i] = (255, 255, 255)
        leds.set_pixels(frame)
        leds.show()
        sleep(step)
    frame = list(dark)
    frame[layout.space_led(0)] = colors[1]
    frame[layout.space_led(3)] = (255, 255, 255)
    frame[layout.space_led(51)] = colors[2]
    for name in SLOT_NAMES:
        if layout.has_slot(name):
            frame[layout.slot_led(name)] = (0, 0, 96)
    leds.set_pixels(frame)
    leds.show()
    sleep(hold)
    leds.set_pixels(dark)
    leds.show()


LED_TEST_HELP = (
    "LED test: a white light runs along the chain from LED 0 to the last LED; then side 1's "
    "ace-row corner at column 1 shows side 1's colour, column 4 of that row is white, side 2's far "
    "corner shows side 2's colour and the marker squares are blue. Anything else: check the wiring "
    "or edit the LED layout (docs/hardware.md)."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="hardware config to check against (default: $GINGO_CONFIG, else /etc/gingo/gingo.toml "
                             "if present, else the simulated board)")
    parser.add_argument("--root", metavar="DIR", default="/",
                        help="look for /dev, /proc and /etc under DIR (for testing; default /)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per check instead")
    parser.add_argument("--led-test", action="store_true",
                        help="after the checks, light the LEDs in chain order and then show the board's orientation")
    parser.add_argument("--led-step", type=float, default=0.05, metavar="SECONDS",
                        help="time per LED in the LED test (default 0.05)")
    parser.add_argument("--led-hold", type=float, default=3.0, metavar="SECONDS",
                        help="how long the LED test shows the orientation (default 3)")


def _config(args: argparse.Namespace) -> tuple[HardwareConfig, Check]:
    """The config the service would use: the same settings resolution as ``gingo serve``
    (``--config``, $GINGO_CONFIG, then ``/etc/gingo/gingo.toml`` under ``--root``)."""
    try:
        settings = resolve({"config": args.config}, system_config=Path(args.root) / DEFAULT_CONFIG)
    except HardwareConfigError as exc:
        return HardwareConfig(), Check("config", FAIL, str(exc), "fix the config (see hardware/gingo.example.toml)")
    cfg, path = settings.hardware, settings.config
    where = path or "none (simulated board)"
    buttons = "buttons" if cfg.buttons is not None else "no buttons"
    return cfg, Check("config", OK, f"{where}: {cfg.leds} LEDs, {cfg.sensors} sensors, {buttons}")


def run(args: argparse.Namespace) -> int:
    for flag, value, top in (("--led-step", args.led_step, 10.0), ("--led-hold", args.led_hold, 3600.0)):
        # checked before any output; NaN, inf and 1e300 used to reach time.sleep (a traceback)
        if not 0 <= value <= top:
            raise ValueError(f"{flag} must be a number of seconds from 0 to {top:g}, got {value}")
    cfg, config_check = _config(args)
    env = Environment.current(args.root)
    checks = [config_check, *run_checks(cfg, env), *check_pico(cfg)]
    for c in checks:
        print(json.dumps(asdict(c)) if args.json else c.line())
    failed = sum(c.status == FAIL for c in checks)
    warned = sum(c.status == WARN for c in checks)
    if not args.json:
        print(f"{len(checks)} checks: {failed} failed, {warned} warnings")
    if args.led_test:
        failed += _run_led_test(cfg, args)
    return 1 if failed else 0


def _run_led_test(cfg: HardwareConfig, args: argparse.Namespace) -> int:
    """Run the LED test on the configured backend; 1 if it could not run."""
    warnings: list[str] = []
    try:
        layout = cfg.led_layout()
    except (LayoutError, OSError) as exc:
        print(Check("LED test", FAIL, f"no layout: {exc}").line())
        return 1
    link = None
    if cfg.leds == "pico" and cfg.sensor_port:  # the frames go to the Pico over its port
        from companion.hardware.sensors import SensorBackendError
        from companion.hardware.sensors.link import SerialLink

        try:
            link = SerialLink(cfg.sensor_port)
        except (SensorBackendError, ValueError) as exc:
            print(Check("LED test", FAIL, str(exc)).line())
            return 1
    leds = cfg.open_leds(warnings.append, link)
    try:
        if warnings:
            print(Check("LED test", FAIL, warnings[0]).line())
            return 1
        print(LED_TEST_HELP, file=sys.stderr)
        led_test(leds, layout, cfg.colors, step=args.led_step, hold=args.led_hold)
        print(Check("LED test", OK, f"{leds.count} LEDs lit in chain order on the {leds.name} backend").line())
        return 0
    finally:
        leds.close()
        if link is not None:
            link.close()
