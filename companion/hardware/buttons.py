"""The push buttons under the board edge: confirm, undo, next hand, and shutdown.

Each button is a gpiozero :class:`~gpiozero.Button` wired between its GPIO pin and
ground (internal pull-up). A press is reported when the button is released, as
``on_press(name)`` with the name ``"confirm"``, ``"undo"`` or ``"next_hand"``.
Holding the ``shutdown`` button (or, on a board with only three buttons, the
``confirm`` button) for ``hold_seconds`` reports ``"shutdown"`` instead, and its
release then reports nothing. A long press of ``confirm`` (at least ``code_seconds``,
1.5 s by default, and released before any shutdown hold) reports ``"pair_code"``: the
companion makes a new pairing code, shows it on the paired phones and logs it. Contact bounce is filtered twice: gpiozero's
``bounce_time`` on real pins, and here a press must last ``min_press`` seconds
(20 ms by default) to count, so the few-millisecond blips of a bouncing contact are
ignored.

>>> from gpiozero import Device
>>> from gpiozero.pins.mock import MockFactory
>>> Device.pin_factory = MockFactory()
>>> pressed = []
>>> buttons = Buttons({"confirm": 17, "undo": 27, "next_hand": 22}, pressed.append)
>>> pin = Device.pin_factory.pin(27)
>>> import time
>>> pin.drive_low(); time.sleep(0.05); pin.drive_high()
>>> pressed
['undo']
>>> buttons.close()
"""

from __future__ import annotations

import logging
import threading
import time
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.hardware.defaults import read_default

NAMES: tuple[str, ...] = ("confirm", "undo", "next_hand", "shutdown")
#: The reference pins, as in the [pi.buttons] table of the packaged pinmap.toml.
DEFAULT_BUTTON_PINS: dict[str, int] = {"confirm": 17, "undo": 27, "next_hand": 22, "shutdown": 23}

log = logging.getLogger(__name__)


class Buttons:
    """gpiozero buttons reporting ``on_press(name)``; see the module docstring.

    ``pins`` maps button names to BCM GPIO numbers; ``confirm``, ``undo`` and
    ``next_hand`` are required, ``shutdown`` is optional. ``bounce_time`` (seconds)
    is passed to gpiozero; ``min_press`` is the shortest press that counts. Callbacks run on gpiozero's threads; an exception in
    ``on_press`` is logged, never raised into gpiozero.
    """

    def __init__(
        self,
        pins: Mapping[str, int],
        on_press: Callable[[str], None],
        hold_seconds: float = 3.0,
        *,
        bounce_time: float | None = 0.01,
        min_press: float = 0.02,
        code_seconds: float = 1.5,
        pin_factory: Any = None,
    ) -> None:
        unknown = sorted(set(pins) - set(NAMES))
        if unknown:
            raise ValueError(f"buttons: unknown button {unknown[0]!r}; buttons are {', '.join(NAMES)}")
        missing = [n for n in NAMES[:3] if n not in pins]
        if missing:
            raise ValueError(f"buttons: no pin for {', '.join(missing)}; set it in [buttons] of the config")
        seen: dict[int, str] = {}
        for name, pin in pins.items():
            if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 27:
                raise ValueError(f"buttons.{name}: pin must be a BCM GPIO number 0..27, got {pin!r}")
            if pin in seen:
                raise ValueError(f"buttons.{name}: GPIO{pin} is already used by buttons.{seen[pin]}")
            seen[pin] = name
        if not hold_seconds > 0:
            raise ValueError(f"buttons: hold_seconds must be positive, got {hold_seconds!r}")
        if not 0 <= min_press < hold_seconds:
            raise ValueError(f"buttons: min_press must be at least 0 and below hold_seconds, got {min_press!r}")

        from gpiozero import Button  # imported here: importing gpiozero is slow on a Pi Zero

        self._on_press = on_press
        self._pins = dict(pins)
        self._hold_name = "shutdown" if "shutdown" in pins else "confirm"
        self._held: set[str] = set()
        self._down_at: dict[str, float] = {}
        self._min_press = min_press
        # the long press that makes a new pairing code must end before a shutdown hold
        self._code_seconds = min(code_seconds, hold_seconds / 2) if self._hold_name == "confirm" else code_seconds
        self._lock = threading.Lock()
        self._buttons: dict[str, Any] = {}
        try:
            for name in NAMES:
                if name not in pins:
                    continue
                holdable = name == self._hold_name
                button = Button(
                    pins[name],
                    pull_up=True,
                    bounce_time=bounce_time,
                    hold_time=hold_seconds if holdable else 1.0,
                    pin_factory=pin_factory,
                )
                button.when_pressed = self._pressed(name)
                button.when_released = self._released(name)
                if holdable:
                    button.when_held = self._held_long(name)
                self._buttons[name] = button
        except Exception:
            self.close()
            raise

    @property
    def pins(self) -> dict[str, int]:
        """Button name -> GPIO number."""
        return dict(self._pins)

    def _emit(self, name: str) -> None:
        try:
            self._on_press(name)
        except Exception:  # a bad handler must not kill gpiozero's event thread
            log.exception("button handler failed for %s", name)

    def _pressed(self, name: str) -> Callable[[], None]:
        def handler() -> None:
            with self._lock:
                self._held.discard(name)
                self._down_at[name] = time.monotonic()

        return handler

    def _held_long(self, name: str) -> Callable[[], None]:
        def handler() -> None:
            with self._lock:
                if name in self._held:
                    return
                self._held.add(name)
            self._emit("shutdown")

        return handler

    def _released(self, name: str) -> Callable[[], None]:
        def handler() -> None:
            now = time.monotonic()
            with self._lock:
                was_held = name in self._held
                self._held.discard(name)
                down_at = self._down_at.pop(name, None)
            if down_at is None or now - down_at < self._min_press:
                return  # a bounce blip, or a release we never saw pressed
            if name == "shutdown" or was_held:
                return
            if name == "confirm" and now - down_at >= self._code_seconds:
                self._emit("pair_code")
                return
            self._emit(name)

        return handler

    def close(self) -> None:
        """Release the GPIO pins. Safe to call twice."""
        for b in self._buttons.values():
            b.close()
        self._buttons.clear()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def load_button_pins(path: str | None = None) -> dict[str, int]:
    """Button pins from the ``[pi.buttons]`` table of a pin map file.

    With no path: the packaged ``pinmap.toml`` (the reference board).

    >>> load_button_pins()["confirm"]
    17
    """
    if path is None:
        file: Any = "packaged pinmap.toml"
        try:
            data = read_default("pinmap.toml")
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ValueError(f"the packaged pinmap.toml cannot be read ({exc}); reinstall the companion") from None
    else:
        file = Path(path)
        try:
            with open(file, "rb") as fh:
                data = tomllib.load(fh)
        except FileNotFoundError:
            raise ValueError(f"pin map {file} not found") from None
        except tomllib.TOMLDecodeError as exc:
            raise ValueError(f"{file}: not valid TOML ({exc})") from None
    table = data.get("pi", {}).get("buttons")
    if not isinstance(table, Mapping):
        raise ValueError(f"{file}: needs a [pi.buttons] table")
    pins: dict[str, int] = {}
    for name, pin in table.items():
        if name not in NAMES:
            raise ValueError(f"{file}: unknown button pi.buttons.{name}; buttons are {', '.join(NAMES)}")
        if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 27:
            raise ValueError(f"{file}: pi.buttons.{name} must be a BCM GPIO number 0..27, got {pin!r}")
        pins[name] = pin
    return pins
