"""The board's pins and power rails, once: the wiring drawing
(:mod:`companion.hardware.drawing`, ``docs/img/board-wiring.svg``) and the pin summary in
``docs/hardware.md`` are both made from these tables, and the tests check the Pico's
pins against ``firmware/config.py``.

Each row has the pin or rail, what it does in full (the doc's table) and a short label
(the drawing's box).

>>> [p.pin for p in PICO_PINS][:3]
['GP2, GP3, GP4, GP5', 'GP6, GP7, GP8, GP9', 'GP26 (ADC0)']
>>> pin_summary().splitlines()[0]
'Raspberry Pi (BCM GPIO numbers):'
"""

from __future__ import annotations

from dataclasses import dataclass

#: the Pico's GP numbers (firmware/config.py ships the same; tests/test_wiring.py checks)
MUX_SELECT = (2, 3, 4, 5)
MUX_ENABLE = (6, 7, 8, 9)
MUX_ADC = 26
LED_DATA = 16
SAFE_MODE = 22


@dataclass(frozen=True)
class Pin:
    """One pin (or group of pins) and what it is wired to."""

    pin: str
    use: str
    short: str
    header: str = ""  # the Pi's header pin numbers


@dataclass(frozen=True)
class Rail:
    """One supply rail: where it comes from and what it feeds."""

    name: str
    source: str
    feeds: str
    short: tuple[str, ...]


def _gp(pins: tuple[int, ...]) -> str:
    return ", ".join(f"GP{p}" for p in pins)


PI_PINS = (
    Pin("GPIO18", "LED data (`ws281x`, `leds_dev`), through the 74AHCT125", "GPIO18 (pin 12): LED data, ws281x / Pi 5", "12"),
    Pin("GPIO10", "LED data (`spi`), through the 74AHCT125", "GPIO10 (pin 19): LED data, spi backend", "19"),
    Pin("GPIO17, 27, 22, 23", "buttons confirm, undo, next hand, shutdown; each to GND (pull-ups inside)",
        "GPIO17/27/22/23: confirm, undo, next, off", "11, 13, 15, 16"),
    Pin("GND", "common ground with the LED supply and the Pico", "GND: common with the LED supply", "6"),
    Pin("USB", "the Pico, plugged in directly (never through a hub)", "USB: the Pico, directly (no hub)", "-"),
)

PICO_PINS = (
    Pin(_gp(MUX_SELECT), "mux select S0-S3 (all four muxes)", f"{_gp(MUX_SELECT)}: S0-S3 of all muxes"),
    Pin(_gp(MUX_ENABLE), "/E of mux 0, 1, 2, 3, each with a 10 kΩ pull-up to the sensor 3.3 V",
        f"GP{MUX_ENABLE[0]}-GP{MUX_ENABLE[-1]}: /E of mux 0-3, 10k pull-ups"),
    Pin(f"GP{MUX_ADC} (ADC0)", "SIG of all muxes (joined last, after the rails are measured)",
        f"GP{MUX_ADC} (ADC0): SIG of all muxes"),
    Pin(f"GP{LED_DATA}", "LED data when the Pico drives the LEDs (`LED_PIN`), through the 74AHCT125",
        f"GP{LED_DATA}: LED data (pico backend)"),
    Pin(f"GP{SAFE_MODE}", "safe-mode jumper to GND (pin 29 to pin 28)", f"GP{SAFE_MODE}: safe-mode jumper to GND"),
    Pin("VBUS (pin 40)", "the LM1117-3.3's IN (its pin 3): the sensors' supply", "VBUS (pin 40): LM1117 IN"),
    Pin("GND (pin 38)", "the LM1117's GND (its pin 1), sensors, muxes, the Pi and the LED supply",
        "GND (pin 38): LM1117, sensors, muxes"),
    Pin("3V3 (pin 36)", "nothing of the board's: never the sensors (300 mA at most, the ADC's reference)",
        "3V3 (pin 36): not the sensors"),
)

RAILS = (
    Rail("LED 5 V", "the 5 V 4 A supply through the 5 A barrel jack",
         "the 60 LEDs (at LED 0, and LED 30 on a long chain) and the 74AHCT125; 1000 µF across it at LED 0",
         ("LED supply -> LEDs, 74AHCT125",)),
    Rail("sensor 3.3 V", "an LM1117-3.3 fed from the Pico's VBUS (the Pi's USB 5 V)",
         "the 52 DRV5055, the 4 CD74HC4067 and the /E pull-ups; 10 µF tantalum at its IN and OUT, "
         "100 µF at the far end, 100 nF at each sensor",
         ("Pico VBUS -> LM1117-3.3 IN (pin 3)", "LM1117 OUT (pin 2, tab) -> sensor 3.3 V",
          "LM1117 GND (pin 1) -> Pico GND (pin 38)", "10 uF at IN and OUT, 100 uF far end")),
    Rail("Pico", "the Pi's USB port (5 V), directly", "the Pico and, through VBUS, the sensor 3.3 V: about 0.56 A at worst",
         ("Pi USB -> Pico VBUS, about 0.56 A at worst",)),
)


def pin_summary() -> str:
    """The "Pin summary" of docs/hardware.md (between its ``wiring:`` markers)."""
    lines = ["Raspberry Pi (BCM GPIO numbers):", "", "| GPIO | header pin | use |", "|---|---|---|"]
    lines += [f"| {p.pin} | {p.header} | {p.use} |" for p in PI_PINS]
    lines += ["", "Pico:", "", "| pin | use |", "|---|---|"]
    lines += [f"| {p.pin} | {p.use} |" for p in PICO_PINS]
    lines += ["", "Power rails:", "", "| rail | from | feeds |", "|---|---|---|"]
    lines += [f"| {r.name} | {r.source} | {r.feeds} |" for r in RAILS]
    return "\n".join(lines) + "\n"


BEGIN = "<!-- wiring: made by python -m companion.hardware.drawing from companion/hardware/wiring.py -->"
END = "<!-- wiring: end -->"


def with_pin_summary(doc: str) -> str:
    """``doc`` with the text between the markers replaced by :func:`pin_summary`."""
    start, end = doc.find(BEGIN), doc.find(END)
    if start < 0 or end < start:
        raise ValueError("docs/hardware.md has no wiring markers around its pin summary")
    return doc[: start + len(BEGIN)] + "\n\n" + pin_summary() + "\n" + doc[end:]
