"""Buttons on gpiozero's MockFactory, driven through the mock pins."""

from __future__ import annotations

import doctest
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

import companion.hardware.buttons as buttons_mod
from companion.hardware.buttons import DEFAULT_BUTTON_PINS, Buttons, load_button_pins
from companion.hardware.config import DEFAULT_BUTTON_PINS as CONFIG_DEFAULTS
from tests.conftest import wait_for

REPO = Path(__file__).resolve().parents[1]
THREE = {"confirm": 17, "undo": 27, "next_hand": 22}


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    old = Device.pin_factory
    f = MockFactory()
    Device.pin_factory = f
    yield f
    f.reset()
    Device.pin_factory = old


def press(f: MockFactory, pin: int, hold: float = 0.03) -> None:
    p = f.pin(pin)
    p.drive_low()
    time.sleep(hold)
    p.drive_high()


def test_docstring_example_runs(factory: MockFactory) -> None:
    assert doctest.testmod(buttons_mod).failed == 0


def test_short_presses_report_on_release(factory: MockFactory) -> None:
    got: list[str] = []
    b = Buttons({**THREE, "shutdown": 23}, got.append, hold_seconds=0.2)
    try:
        factory.pin(17).drive_low()
        time.sleep(0.03)
        assert got == []  # not yet: a press counts when the button is let go
        factory.pin(17).drive_high()
        press(factory, 27)
        press(factory, 22)
        press(factory, 23)  # a short press of the shutdown button does nothing
        assert got == ["confirm", "undo", "next_hand"]
        assert b.pins == {**THREE, "shutdown": 23}
    finally:
        b.close()


def test_holding_shutdown_reports_once(factory: MockFactory) -> None:
    got: list[str] = []
    b = Buttons({**THREE, "shutdown": 23}, got.append, hold_seconds=0.1)
    try:
        pin = factory.pin(23)
        pin.drive_low()
        assert wait_for(lambda: got == ["shutdown"])
        time.sleep(0.25)  # still held: no repeat
        pin.drive_high()
        time.sleep(0.05)
        assert got == ["shutdown"]
        press(factory, 17, hold=0.3)  # confirm has no hold meaning here
        assert got == ["shutdown", "confirm"]
    finally:
        b.close()


def test_without_shutdown_button_holding_confirm_shuts_down(factory: MockFactory) -> None:
    got: list[str] = []
    # without a shutdown button the pairing-code press is half the hold (0.3 s here): far
    # longer than a 30 ms tap even when a loaded machine oversleeps
    b = Buttons(THREE, got.append, hold_seconds=0.6)
    try:
        pin = factory.pin(17)
        pin.drive_low()
        assert wait_for(lambda: got == ["shutdown"])
        pin.drive_high()
        time.sleep(0.05)
        assert got == ["shutdown"]  # the release after a hold is not a confirm
        press(factory, 17)
        assert got == ["shutdown", "confirm"]
        press(factory, 27, hold=0.25)  # holding undo is just an undo
        assert got == ["shutdown", "confirm", "undo"]
    finally:
        b.close()


def test_contact_bounce_gives_one_press(factory: MockFactory) -> None:
    got: list[str] = []
    b = Buttons(THREE, got.append, min_press=0.2)  # generous, so a busy CI machine cannot fake a press
    try:
        pin = factory.pin(22)
        for _ in range(5):  # a bouncing contact as it closes: blips far shorter than min_press
            pin.drive_low()
            pin.drive_high()
        pin.drive_low()
        time.sleep(0.25)
        pin.drive_high()  # the real release
        for _ in range(5):  # and bouncing as it opens
            pin.drive_low()
            pin.drive_high()
        assert got == ["next_hand"]
    finally:
        b.close()


def test_a_failing_handler_is_logged_and_buttons_keep_working(
    factory: MockFactory, caplog: pytest.LogCaptureFixture
) -> None:
    got: list[str] = []

    def handler(name: str) -> None:
        got.append(name)
        if name == "undo":
            raise RuntimeError("boom")

    b = Buttons(THREE, handler)
    try:
        with caplog.at_level(logging.ERROR, logger="companion.hardware.buttons"):
            press(factory, 27)
        press(factory, 22)
        assert got == ["undo", "next_hand"]
        assert "button handler failed for undo" in caplog.text
    finally:
        b.close()


def test_close_releases_the_pins(factory: MockFactory) -> None:
    got: list[str] = []
    b = Buttons(THREE, got.append)
    b.close()
    b.close()
    press(factory, 17)
    assert got == []
    with Buttons(THREE, got.append) as again:  # the pins are free again
        press(factory, 17)
    assert got == ["confirm"] and again.pins == THREE


@pytest.mark.parametrize(
    ("pins", "message"),
    [
        ({**THREE, "reset": 5}, "unknown button 'reset'"),
        ({"confirm": 17, "undo": 27}, "no pin for next_hand"),
        ({**THREE, "shutdown": 17}, "buttons.shutdown: GPIO17 is already used by buttons.confirm"),
        ({**THREE, "undo": 40}, "buttons.undo: pin must be a BCM GPIO number 0..27, got 40"),
        ({**THREE, "undo": "27"}, "buttons.undo: pin must be a BCM GPIO number"),
    ],
)
def test_bad_pins_are_refused(factory: MockFactory, pins: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Buttons(pins, print)  # type: ignore[arg-type]


def test_bad_hold_time(factory: MockFactory) -> None:
    with pytest.raises(ValueError, match="hold_seconds must be positive"):
        Buttons(THREE, print, hold_seconds=0)
    with pytest.raises(ValueError, match="min_press must be at least 0 and below hold_seconds"):
        Buttons(THREE, print, hold_seconds=1, min_press=2)


def test_pins_come_from_the_pin_map(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_button_pins() == DEFAULT_BUTTON_PINS == CONFIG_DEFAULTS
    assert load_button_pins(str(REPO / "companion/hardware/defaults/pinmap.toml")) == DEFAULT_BUTTON_PINS
    f = tmp_path / "pins.toml"
    f.write_text("[pi.buttons]\nconfirm = 5\nundo = 6\nnext_hand = 13\n")
    assert load_button_pins(str(f)) == {"confirm": 5, "undo": 6, "next_hand": 13}
    f.write_text("[pi.buttons]\nconfirm = 5\nredo = 6\n")
    with pytest.raises(ValueError, match="unknown button pi.buttons.redo"):
        load_button_pins(str(f))
    f.write_text("[pi]\n")
    with pytest.raises(ValueError, match=r"needs a \[pi.buttons\] table"):
        load_button_pins(str(f))
    monkeypatch.chdir(tmp_path)  # the packaged pin map, wherever the service runs
    assert load_button_pins() == DEFAULT_BUTTON_PINS
