"""The LED palettes against a colour-vision simulation (Brettel, Viénot and Mollon 1997)
and CIEDE2000: the sides, the warning flash and the pulse stay apart for protanopia,
deuteranopia and tritanopia; the high-contrast palette reaches the running service."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.hardware import colorvision as cv
from companion.hardware.layout import default_layout
from companion.hardware.palette import PALETTES, RED_GREEN, find_palette, scaled, separations
from companion.hardware.scene import SceneInput, render_scene
from companion.commands.assemble import build_service
from companion.commands.settings import resolve

LAY = default_layout()
DICHROMATS = ("protanopia", "deuteranopia", "tritanopia")


# Sharma, Wu and Dalal (2005), Table 1: (Lab 1, Lab 2, CIEDE2000)
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
]


@pytest.mark.parametrize("lab1, lab2, expected", SHARMA)
def test_ciede2000_matches_the_published_test_data(lab1: cv.Vec, lab2: cv.Vec, expected: float) -> None:
    assert cv.delta_e2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert cv.delta_e2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("vision", DICHROMATS)
def test_the_simulation_keeps_greys_and_changes_only_the_missing_cone(vision: str) -> None:
    for level in (10, 100, 255):
        grey = cv.led_xyz((level, level, level))
        assert cv.simulate_xyz(grey, vision) == pytest.approx(grey, abs=1e-9)
    missing = {"protanopia": 0, "deuteranopia": 1, "tritanopia": 2}[vision]
    for color in ((255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 160, 0), (90, 30, 200)):
        before = cv._mul(cv._XYZ_TO_LMS, cv.led_xyz(color))  # noqa: SLF001
        after = cv._mul(cv._XYZ_TO_LMS, cv.simulate_xyz(cv.led_xyz(color), vision))  # noqa: SLF001
        for cone in range(3):
            if cone != missing:
                assert after[cone] == pytest.approx(before[cone], abs=1e-9)
        # a dichromat's colour is its own simulation (the projection is idempotent)
        again = cv.simulate_xyz(cv.simulate_xyz(cv.led_xyz(color), vision), vision)
        assert again == pytest.approx(cv.simulate_xyz(cv.led_xyz(color), vision), abs=1e-9)


def test_the_simulation_finds_the_known_confusions() -> None:
    # red and green differ mostly in lightness for a deuteranope; green against the old
    # amber warning becomes nearly the same colour, as colour-blind players reported
    normal = cv.led_difference((0, 255, 0), (255, 160, 0), "normal")
    deutan = cv.led_difference((0, 255, 0), (255, 160, 0), "deuteranopia")
    assert normal > 30 and deutan < 10
    # tritanopes confuse blue with green-blue, not red with green
    assert cv.led_difference((255, 0, 0), (0, 255, 0), "tritanopia") > 40
    assert cv.led_difference((0, 40, 255), (0, 60, 90), "tritanopia") < cv.led_difference(
        (0, 40, 255), (0, 60, 90), "normal")
    with pytest.raises(ValueError, match="unknown colour vision 'mono'"):
        cv.simulate_xyz((0.5, 0.5, 0.5), "mono")


@pytest.mark.parametrize("name", list(PALETTES))
def test_every_palette_keeps_its_states_apart_for_every_colour_vision(name: str) -> None:
    rows = separations(PALETTES[name])
    for pair, by_vision in rows.items():
        floor = 40.0 if pair.startswith("side 1 / side 2") else 25.0
        for vision, d in by_vision.items():
            assert d >= floor, (name, pair, vision, d)


def test_the_red_green_palette_fails_the_same_check() -> None:
    rows = separations(RED_GREEN)
    worst = min(d for by_vision in rows.values() for v, d in by_vision.items() if v in DICHROMATS)
    assert worst < 10  # what the new palettes are measured against


def test_high_contrast_is_at_least_as_far_apart_as_the_default_in_the_worst_case() -> None:
    def worst(name: str) -> float:
        return min(d for by_vision in separations(PALETTES[name]).values() for d in by_vision.values())

    assert worst("high-contrast") >= worst("default")
    assert PALETTES["high-contrast"].steady > PALETTES["default"].steady  # brighter resting chips


def test_pulse_and_flash_differ_by_pattern_as_well_as_colour() -> None:
    empty = "." * 52
    chip = "1" + "." * 51
    pal = find_palette("default")
    place = SceneInput(expected=chip, sensed=empty, colors=pal.colors, warning=pal.warning, steady=pal.steady)
    wrong = SceneInput(expected=empty, sensed=chip, colors=pal.colors, warning=pal.warning, steady=pal.steady)
    times = [k / 50 for k in range(50)]  # one second, every 20 ms
    pulse = [render_scene(place, t, LAY)[LAY.space_led(0)] for t in times]
    flash = [render_scene(wrong, t, LAY)[LAY.space_led(0)] for t in times]
    assert len(set(pulse)) >= 20 and all(p != (0, 0, 0) for p in pulse)  # a smooth ramp, never dark
    assert set(flash) == {pal.warning, (0, 0, 0)}  # hard on/off
    assert sum(1 for a, b in zip(flash, flash[1:]) if a != b) >= 4  # 2.5 Hz: at least 4 edges a second


def test_the_scene_draws_with_the_palette_it_is_given() -> None:
    pal = find_palette("high-contrast")
    chip = "2" + "." * 51
    sc = SceneInput(expected=chip, sensed=chip, colors=pal.colors, warning=pal.warning, steady=pal.steady)
    assert render_scene(sc, 0.0, LAY)[LAY.space_led(0)] == scaled(pal.side2, 0.7)
    with pytest.raises(ValueError, match="scene.steady must be a level between 0.05 and 1"):
        SceneInput(expected=chip, sensed=chip, steady=3)
    with pytest.raises(ValueError, match=r"scene.warning must be an \(r, g, b\) tuple"):
        SceneInput(expected=chip, sensed=chip, warning=(1, 2))  # type: ignore[arg-type]


def test_gingo_serve_honours_the_high_contrast_palette(tmp_path: Path) -> None:
    cfg = tmp_path / "gingo.toml"
    cfg.write_text('[colors]\npalette = "high-contrast"\n')
    settings = resolve({"config": str(cfg), "data": str(tmp_path / "data")}, environ={},
                       system_config=tmp_path / "none")
    svc = build_service(settings)
    try:
        svc.start()
        assert svc.sync.wait_sensed(lambda b: b == "." * 52, timeout=20)
        svc.sync.put_sim(0, 1)
        assert svc.sync.wait_sensed(lambda b: b is not None and b[0] == "1", timeout=20)
        frame = svc.sync.frame(0.0)
        assert frame[LAY.space_led(0)] == scaled((255, 0, 0), 0.7)  # red at the 70 % resting level
    finally:
        svc.stop()
