"""The hardware config file: defaults, the example file, and errors naming the key."""

from __future__ import annotations

import dataclasses
import doctest
from pathlib import Path

import pytest

import companion.hardware.config as config_mod
from companion.hardware.config import HardwareConfigError, HardwareConfig, load_config, parse_color, parse_config
from companion.hardware.leds import open_led_backend
from companion.hardware.power import brightness_cap

REPO = Path(__file__).resolve().parents[1]


def test_docstring_examples_run() -> None:
    assert doctest.testmod(config_mod).failed == 0


def test_no_file_means_a_simulated_board() -> None:
    cfg = load_config(None)
    assert cfg == HardwareConfig()
    assert (cfg.leds, cfg.sensors, cfg.sensor_port, cfg.buttons) == ("sim", "sim", None, None)
    assert cfg.colors == {1: (255, 80, 0), 2: (0, 40, 255)} and cfg.palette == "default"  # orange, blue
    leds = open_led_backend(cfg.leds, **cfg.led_backend_options())
    assert leds.name == "sim" and leds.count == 60 and leds.brightness == 0.6


def test_example_file_loads() -> None:
    cfg = load_config(str(REPO / "hardware/gingo.example.toml"))
    assert cfg.leds == "spi"
    assert cfg.led_options == {"bus": 0, "device": 0, "speed_hz": 2_850_000, "order": "GRB"}
    assert cfg.sensors == "serial" and cfg.sensor_port == "usb:2e8a:0005"
    assert cfg.buttons == {"confirm": 17, "undo": 27, "next_hand": 22, "shutdown": 23}
    assert cfg.hold_seconds == 3.0
    assert cfg.brightness_cap() == pytest.approx(brightness_cap(4.0, 60))
    opts = cfg.led_backend_options()
    assert opts["count"] == 60 and opts["order"] == "GRB" and opts["brightness_cap"] < 1


def test_brightness_above_cap_is_held_at_cap() -> None:
    cfg = parse_config({"leds": {"brightness": 1.0, "supply_amps": 2.0}})
    leds = open_led_backend("sim", **cfg.led_backend_options())
    assert leds.brightness == pytest.approx(brightness_cap(2.0, 60))


def test_relative_layout_resolves_against_the_config_folder(tmp_path: Path) -> None:
    f = tmp_path / "gingo.toml"
    f.write_text('[leds]\nlayout = "my_layout.toml"\n')
    assert load_config(str(f)).layout == str(tmp_path / "my_layout.toml")


def test_buttons_defaults_overrides_and_three_button_boards() -> None:
    assert parse_config({"buttons": {}}).buttons == {"confirm": 17, "undo": 27, "next_hand": 22, "shutdown": 23}
    cfg = parse_config({"buttons": {"confirm": 5, "shutdown": False, "hold_seconds": 2}})
    assert cfg.buttons == {"confirm": 5, "undo": 27, "next_hand": 22} and cfg.hold_seconds == 2.0
    assert parse_config({"buttons": {"enabled": False}}).buttons is None


def test_colours() -> None:
    cfg = parse_config({"colors": {"side1": "blue", "side2": [1, 2, 3]}})
    assert cfg.colors == {1: (0, 0, 255), 2: (1, 2, 3)}
    assert parse_color("#FFa000") == (255, 160, 0)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"led": {}}, "unknown key led; known keys are buttons, colors, leds, mqtt, remote, sensors"),
        ({"leds": {"backend": "neopixel"}}, "leds.backend 'neopixel' is not one of sim, ws281x, leds_dev, spi, pico"),
        ({"leds": {"count": 0}}, "leds.count must be a positive integer"),
        ({"leds": {"brightness": 1.5}}, r"leds.brightness must be 0..1, got 1.5"),
        ({"leds": {"brightness": "high"}}, "leds.brightness must be a number"),
        ({"leds": {"supply_amps": 0.01}}, "leds.supply_amps: .*use a bigger 5 V supply"),
        ({"leds": {"backend": "spi", "spi": {"speed": 1}}}, "unknown key leds.spi.speed"),
        ({"leds": {"backend": "spi", "spi": {"bus": "0"}}}, "leds.spi.bus must be int, got '0'"),
        ({"leds": {"backend": "sim", "ws281x": {"pin": True}}}, "leds.ws281x.pin must be int"),
        ({"leds": {"spi": 3}}, r"spi must be a table"),
        ({"leds": {"layout": 5}}, "leds.layout must be a file path"),
        ({"leds": {"backend": "pico"}}, "leds.backend 'pico' sends LED frames over the sensor link"),
        ({"sensors": {"backend": "i2c"}}, "sensors.backend 'i2c' is not one of sim, serial, adc"),
        ({"sensors": {"backend": "serial"}}, "sensors.port is required for the serial backend"),
        ({"sensors": {"port": ""}}, "sensors.port must be a device path"),
        ({"buttons": {"undo": 17}}, "buttons.undo uses GPIO17, already used by buttons.confirm"),
        ({"buttons": {"undo": 30}}, "buttons.undo must be a BCM GPIO number 0..27"),
        ({"buttons": {"undo": False}}, "buttons.undo is required when buttons are enabled"),
        ({"buttons": {"hold_seconds": 0}}, "buttons.hold_seconds must be 0.1..60"),
        ({"buttons": {"enabled": "yes"}}, "buttons.enabled must be true or false"),
        ({"buttons": {"shutdwn": 4}}, "unknown key buttons.shutdwn"),
        ({"buttons": 1}, r"buttons must be a table"),
        ({"colors": {"side1": "mauve"}}, "colors.side1 must be '#rrggbb'"),
        ({"colors": {"side2": [0, 0]}}, "colors.side2 must be"),
        ({"colors": {"side1": [0, 40, 255]}}, "colors.side1 and colors.side2 are the same colour"),
        ({"colors": {"palette": "pastel"}}, "colors.palette must be one of default, high-contrast"),
        ({"colors": {"palette": 1}}, "colors.palette must be one of default, high-contrast"),
        ({"colors": {"side3": "red"}}, "unknown key colors.side3"),
    ],
)
def test_bad_values_name_the_key(data: dict[str, object], message: str) -> None:
    with pytest.raises(HardwareConfigError, match=message):
        parse_config(data)


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(HardwareConfigError, match="not found; copy hardware/gingo.example.toml"):
        load_config(str(tmp_path / "missing.toml"))
    with pytest.raises(HardwareConfigError, match="is a folder"):
        load_config(str(tmp_path))
    bad = tmp_path / "bad.toml"
    bad.write_text("[leds\nbackend = 'sim'\n")
    with pytest.raises(HardwareConfigError, match="not valid TOML"):
        load_config(str(bad))
    named = tmp_path / "named.toml"
    named.write_text("[leds]\nbackend = 'laser'\n")
    with pytest.raises(HardwareConfigError, match=f"^{named}: leds.backend 'laser'"):
        load_config(str(named))


def test_config_is_immutable() -> None:
    cfg = load_config(None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.leds = "spi"  # type: ignore[misc]


def test_bill_of_materials_matches_the_design() -> None:
    import csv

    with open(REPO / "hardware/bom.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert rows and list(rows[0]) == ["part", "manufacturer part number", "quantity", "notes"]
    qty: dict[str, int] = {}
    for row in rows:
        assert row["part"] and row["manufacturer part number"] and row["notes"], row
        n = int(row["quantity"])
        assert n > 0
        qty[row["manufacturer part number"]] = qty.get(row["manufacturer part number"], 0) + n
    by_part = " ".join(r["part"] + " " + r["manufacturer part number"] for r in rows)
    for needed in ("74AHCT125", "330 ohm", "1000 uF", "Pico", "DRV5055", "CD74HC4067", "magnet"):
        assert needed in by_part, needed
    leds = next(r for r in rows if "WS2812B" in r["manufacturer part number"])
    assert int(leds["quantity"]) == load_config(None).led_count == 60
    assert qty["DRV5055A2QLPG"] == 52
    assert qty["CD74HC4067E"] * 16 >= 52
    assert qty["D42-N52 (K&J Magnetics)"] == 100  # 50 chips per side, two polarities
    supply = next(r for r in rows if r["part"].startswith("LED power supply"))
    amps = float(supply["part"].split()[-2])
    assert f"brightness cap of {brightness_cap(amps, 60):.2f}" in supply["notes"]


def test_open_leds_uses_the_config_and_falls_back(tmp_path: Path) -> None:
    warnings: list[str] = []
    cfg = parse_config({"leds": {"backend": "leds_dev", "count": 60, "brightness": 0.5,
                                 "leds_dev": {"path": str(tmp_path / "leds0")}}})
    leds = cfg.open_leds(warnings.append)
    assert leds.name == "sim" and leds.brightness == 0.5 and leds.count == 60
    assert len(warnings) == 1 and "leds0 does not exist" in warnings[0]
    (tmp_path / "leds0").write_bytes(b"")
    real = cfg.open_leds(warnings.append)
    assert real.name == "leds_dev" and len(warnings) == 1
    real.close()

    class Link:
        def __init__(self) -> None:
            self.frames: list[tuple[int, bytes]] = []

        def send_frame(self, type_: int, payload: bytes) -> bool:
            self.frames.append((type_, payload))
            return True

    pico_cfg = parse_config({"leds": {"backend": "pico"}, "sensors": {"backend": "serial", "port": "loop://"}})
    link = Link()
    pico = pico_cfg.open_leds(warnings.append, link=link)
    pico.show()
    assert pico.name == "pico" and link.frames[0][0] == 0x10 and len(link.frames[0][1]) == 180
    assert pico_cfg.open_leds(warnings.append).name == "sim"  # no link given
    assert "sensor link" in warnings[-1]
    assert pico_cfg.led_layout().count == 60


def test_config_options_match_the_backend_signatures() -> None:
    import importlib
    import inspect

    from companion.hardware.config import LED_BACKENDS
    from companion.hardware.leds import BACKENDS

    assert set(LED_BACKENDS) == set(BACKENDS)
    for name, options in LED_BACKENDS.items():
        module, cls_name = BACKENDS[name].split(":")
        params = inspect.signature(getattr(importlib.import_module(module), cls_name)).parameters
        for key in [*options, "count", "brightness", "brightness_cap"]:
            assert key in params, f"leds.{name}.{key} is not an option of {cls_name}"


def test_shutdown_command_is_a_list_of_words():
    from companion.hardware.config import HardwareConfigError, parse_config

    cfg = parse_config({"buttons": {"shutdown_command": ["sudo", "poweroff"]}})
    assert cfg.shutdown_command == ("sudo", "poweroff")
    assert parse_config({"buttons": {}}).shutdown_command == ("systemctl", "poweroff")
    with pytest.raises(HardwareConfigError, match="buttons.shutdown_command"):
        parse_config({"buttons": {"shutdown_command": "poweroff"}})


def test_config_or_layout_not_utf8_names_the_file(tmp_path: Path) -> None:
    # a binary or Latin-1 file used to surface as a bare UnicodeDecodeError (no file name),
    # and made `gingo doctor` stop instead of printing its FAIL line
    from companion.hardware.layout import LayoutError, load_layout

    raw = tmp_path / "latin1.toml"
    raw.write_bytes(b"[colors]\nside1 = \"r\xe9d\"\n")
    with pytest.raises(HardwareConfigError, match=f"^{raw}: not valid TOML \\(not UTF-8 text\\)"):
        load_config(str(raw))
    with pytest.raises(LayoutError, match=f"^{raw}: not valid TOML \\(not UTF-8 text\\)"):
        load_layout(str(raw))
    with pytest.raises(LayoutError, match="cannot read LED layout file"):
        load_layout(str(tmp_path))


@pytest.mark.parametrize("table, key, value", [("leds", "brightness", "nan"), ("leds", "supply_amps", "nan"),
                                               ("leds", "supply_amps", "inf"), ("buttons", "hold_seconds", "nan")])
def test_toml_nan_and_inf_are_refused(tmp_path: Path, table: str, key: str, value: str) -> None:
    # TOML allows nan and inf: nan passed "< lo" (brightness nan, hold_seconds nan were
    # accepted; supply_amps nan stopped doctor with an error naming no file)
    cfg = tmp_path / "gingo.toml"
    cfg.write_text(f"[{table}]\n{key} = {value}\n")
    with pytest.raises(HardwareConfigError, match=f"^{cfg}: {table}.{key} must be .*got {value}"):
        load_config(str(cfg))


def test_power_parts_are_rated_above_what_they_carry() -> None:
    """Issue 10: the LED power path must carry the supply's current (no JST XH for
    18 AWG power, no 2.5 A jack on a 4 A supply), and the sensors' 3.3 V must cover 52
    DRV5055 at their datasheet maximum, which the Pico's 3V3 pin cannot."""
    import csv
    import re

    with open(REPO / "hardware/bom.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    supply = next(r for r in rows if r["part"].startswith("LED power supply"))
    amps = float(supply["part"].split()[-2])

    def rated(row: dict[str, str]) -> float:
        m = re.search(r"rated (\d+(?:\.\d+)?) (m?A)", row["notes"])
        assert m, f"{row['part']}: the notes must say what it is rated for"
        return float(m.group(1)) / (1000 if m.group(2) == "mA" else 1)

    jack = next(r for r in rows if "barrel jack" in r["part"])
    assert rated(jack) > amps
    power = [r for r in rows if r["part"].startswith("LED power header")]
    assert power and all(rated(r) > amps for r in power)
    assert not any("XH" in r["manufacturer part number"] and "power" in r["part"].lower() for r in rows)
    crimps = next(r for r in rows if r["part"].startswith("LED power crimp"))
    assert "18" in crimps["part"]  # takes the 18 AWG power wire
    assert any(r["manufacturer part number"].startswith("XHP-") for r in rows)  # housings where XH stays
    assert any(r["manufacturer part number"].startswith("SXH-") for r in rows)  # and crimps
    sensors = sum(int(r["quantity"]) for r in rows if r["manufacturer part number"].startswith("DRV5055"))
    regulator = next(r for r in rows if r["part"].startswith("3.3 V regulator for the sensors"))
    assert rated(regulator) >= sensors * 0.010 > 0.300  # 10 mA max each; the Pico's 3V3 gives 300 mA
    pullups = next(r for r in rows if "/E" in r["notes"] and "kohm" in r["part"])
    assert int(pullups["quantity"]) == 4
    assert any("100 uF" in r["part"] and "3.3 V" in r["notes"] for r in rows)  # bulk on the sensor rail
    assert any("GP22" in r["notes"] and "jumper" in r["part"].lower() for r in rows)  # safe mode
    assert any("OTG" in r["part"] for r in rows)  # the Zero 2 W's data port


def test_the_high_contrast_palette_and_side_colours_over_it(tmp_path: Path) -> None:
    f = tmp_path / "gingo.toml"
    f.write_text('[colors]\npalette = "high-contrast"\n')
    cfg = load_config(str(f))
    pal = cfg.led_palette()
    assert (pal.name, pal.side1, pal.side2, pal.warning, pal.steady) == (
        "high-contrast", (255, 0, 0), (0, 40, 255), (255, 255, 255), 0.7)
    f.write_text('[colors]\npalette = "high-contrast"\nside2 = "#00ff00"\n')
    pal = load_config(str(f)).led_palette()
    assert (pal.side1, pal.side2, pal.steady) == ((255, 0, 0), (0, 255, 0), 0.7)  # a side named in the file wins
