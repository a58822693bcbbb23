"""The wiring drawing, the pin summary in docs/hardware.md and firmware/config.py come
from (or agree with) one table: companion/hardware/wiring.py."""

from __future__ import annotations

import tomllib
from pathlib import Path

from companion.hardware import wiring
from companion.hardware.drawing import board_svg
from companion.hardware.layout import default_layout

ROOT = Path(__file__).resolve().parent.parent


def shipped_firmware_config() -> dict[str, object]:
    names: dict[str, object] = {}
    exec((ROOT / "firmware" / "config.py").read_text(encoding="utf-8"), names)  # plain assignments only
    return names


def test_hardware_md_pin_summary_is_the_generated_one() -> None:
    doc = (ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
    assert wiring.with_pin_summary(doc) == doc, "run python -m companion.hardware.drawing docs/img/board-wiring.svg"


def test_the_drawing_shows_every_pin_and_the_sensor_regulator() -> None:
    svg = board_svg(default_layout())
    for pin in (*wiring.PI_PINS, *wiring.PICO_PINS):
        assert pin.short.replace("->", "-&gt;") in svg, pin
    for line in next(r for r in wiring.RAILS if r.name == "sensor 3.3 V").short:
        assert line.replace("->", "-&gt;") in svg
    # the sensors are never drawn on the Pico's 3V3 pin (312-520 mA against its 300 mA)
    assert "3V3: DRV5055 supply" not in svg and "LM1117" in svg and "pull-up" in svg and "safe-mode" in svg


def test_the_pico_pins_are_firmware_configs_and_the_pinmaps() -> None:
    cfg = shipped_firmware_config()
    assert tuple(cfg["MUX_SELECT_PINS"]) == wiring.MUX_SELECT  # type: ignore[arg-type]
    assert tuple(cfg["MUX_ENABLE_PINS"]) == wiring.MUX_ENABLE  # type: ignore[arg-type]
    assert set(cfg["MUX_ADC_PINS"]) == {wiring.MUX_ADC}  # type: ignore[call-overload]
    assert cfg["LED_PIN"] == wiring.LED_DATA  # a strip wired as the docs say lights with no edit
    assert cfg["SAFE_MODE_PIN"] == wiring.SAFE_MODE
    pinmap = tomllib.loads((ROOT / "companion/hardware/defaults/pinmap.toml").read_text(encoding="utf-8"))
    pico = pinmap["pico"]
    assert tuple(pico["mux"]["select"]) == wiring.MUX_SELECT and tuple(pico["mux"]["enable"]) == wiring.MUX_ENABLE
    assert set(pico["mux"]["adc"]) == {wiring.MUX_ADC}
    assert pico["leds"]["data"] == wiring.LED_DATA and pico["safe_mode"] == wiring.SAFE_MODE
