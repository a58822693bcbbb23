"""The LED scene renderer: exact colours at chosen times."""

from __future__ import annotations

import copy
import doctest

import pytest

import companion.hardware.scene as scene_mod
from companion.hardware.layout import SLOT_NAMES, LedLayout, default_layout, wiring_targets
from companion.hardware.scene import MARKER, OFF, WARNING, WHITE, SceneInput, render_scene

LAY = default_layout()
# the default palette's side colours (orange and blue; once red and green, hence the names)
RED, GREEN = scene_mod.DEFAULT_COLORS[1], scene_mod.DEFAULT_COLORS[2]
DIM_RED, DIM_GREEN = scene_mod.scale(RED, 0.4), scene_mod.scale(GREEN, 0.4)  # 40 %


def board(**chips: str) -> str:
    """A board string from s<space>=side keyword arguments."""
    cells = ["."] * 52
    for key, side in chips.items():
        cells[int(key[1:])] = side
    return "".join(cells)


def at(scene: SceneInput, t: float, space: int) -> tuple[int, int, int]:
    return render_scene(scene, t, LAY)[LAY.space_led(space)]


def slot(scene: SceneInput, t: float, name: str) -> tuple[int, int, int]:
    return render_scene(scene, t, LAY)[LAY.slot_led(name)]


def test_docstring_examples_run() -> None:
    assert doctest.testmod(scene_mod).failed == 0


def test_agreed_chips_are_steady_and_empty_spaces_dark() -> None:
    b = board(s0="1", s51="2")
    sc = SceneInput(expected=b, sensed=b)
    for t in (0.0, 0.13, 0.5, 0.77, 12.3):
        assert at(sc, t, 0) == DIM_RED
        assert at(sc, t, 51) == DIM_GREEN
        assert at(sc, t, 25) == OFF
    frame = render_scene(sc, 0.0, LAY)
    assert len(frame) == 60
    assert sum(1 for c in frame if c not in (OFF, MARKER)) == 2


def test_link_spaces_are_bright() -> None:
    path = [1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49]
    b = board(**{f"s{s}": "1" for s in path}, s2="1")
    sc = SceneInput(expected=b, sensed=b, links={1: path, 2: None})
    assert all(at(sc, 0.3, s) == RED for s in path)
    assert at(sc, 0.3, 2) == DIM_RED  # own chip, not on the link


def test_pending_placement_pulses_until_the_chip_arrives() -> None:
    empty = board()
    sc = SceneInput(expected=empty, sensed=empty, pending={6: 2})
    assert at(sc, 0.0, 6) == scene_mod.scale(GREEN, 0.1)  # 10 %
    assert at(sc, 0.25, 6) == scene_mod.scale(GREEN, 0.55)  # 55 %
    assert at(sc, 0.5, 6) == GREEN  # peak
    assert at(sc, 1.0, 6) == scene_mod.scale(GREEN, 0.1)  # period 1 s
    placed = SceneInput(expected=empty, sensed=board(s6="2"), pending={6: 2})
    assert at(placed, 0.0, 6) == DIM_GREEN and at(placed, 0.5, 6) == DIM_GREEN
    wrong = SceneInput(expected=empty, sensed=board(s6="1"), pending={6: 2})
    assert at(wrong, 0.0, 6) == WARNING and at(wrong, 0.2, 6) == OFF


def test_chip_to_bump_alternates_colours_until_it_is_gone() -> None:
    exp = board(s5="1")
    sensed = board(s5="2")
    sc = SceneInput(expected=exp, sensed=sensed, bump={5: 2}, pending={5: 1})
    assert at(sc, 0.0, 5) == GREEN
    assert at(sc, 0.25, 5) == RED
    assert at(sc, 0.5, 5) == GREEN
    gone = SceneInput(expected=exp, sensed=board(), bump={5: 2}, pending={5: 1})
    assert at(gone, 0.5, 5) == RED  # now a red chip to place: pulse peak
    assert at(gone, 0.0, 5) == scene_mod.scale(RED, 0.1)


def test_unexpected_or_wrong_colour_chip_flashes_warning() -> None:
    exp = board(s10="1")
    sensed = board(s10="2", s11="1")
    sc = SceneInput(expected=exp, sensed=sensed)
    for space in (10, 11):
        assert at(sc, 0.0, space) == WARNING
        assert at(sc, 0.1, space) == WARNING
        assert at(sc, 0.2, space) == OFF
        assert at(sc, 0.4, space) == WARNING


def test_missing_expected_chip_pulses_to_be_put_back() -> None:
    sc = SceneInput(expected=board(s20="2"), sensed=board())
    assert at(sc, 0.5, 20) == GREEN and at(sc, 0.0, 20) == scene_mod.scale(GREEN, 0.1)


def test_sensors_offline_shows_expected_board_and_blinks_markers() -> None:
    exp = board(s3="1", s4="2")
    sc = SceneInput(expected=exp, sensed=None, pending={7: 1}, bump={4: 2})
    assert at(sc, 0.0, 3) == DIM_RED  # shown, cannot be checked
    assert at(sc, 0.0, 4) == GREEN and at(sc, 0.25, 4) == RED  # bump still shown
    assert at(sc, 0.5, 7) == RED  # pending still pulses
    for name in SLOT_NAMES:
        assert slot(sc, 0.0, name) == WARNING
        assert slot(sc, 0.5, name) == OFF


def test_gin_chases_along_the_link_and_flashes_the_side_markers() -> None:
    path = [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48]
    b = board(**{f"s{s}": "2" for s in path})
    sc = SceneInput(expected=b, sensed=b, links={2: path}, gin=2, turn=1)
    f0 = render_scene(sc, 0.0, LAY)
    assert f0[LAY.space_led(0)] == WHITE
    assert [f0[LAY.space_led(s)] for s in path[1:]] == [GREEN] * 12
    f1 = render_scene(sc, 0.25, LAY)  # 12 spaces/s: head on path[3]
    assert f1[LAY.space_led(12)] == WHITE
    assert f1[LAY.space_led(0)] == GREEN
    assert render_scene(sc, 13 / 12, LAY)[LAY.space_led(0)] == WHITE  # wraps round
    assert slot(sc, 0.0, "side2_1") == WHITE and slot(sc, 0.25, "side2_1") == GREEN
    assert slot(sc, 0.0, "side1_1") == RED  # side 1 to play


def test_markers_show_turn_and_unchosen_suits() -> None:
    empty = board()
    sc = SceneInput(expected=empty, sensed=empty, turn=2, suit_rows={1: "SH..", 2: "DCHS"})
    assert [slot(sc, 0.0, f"side2_{c}") for c in range(1, 5)] == [GREEN] * 4
    assert [slot(sc, 0.0, f"side1_{c}") for c in range(1, 5)] == [MARKER, MARKER, OFF, OFF]
    idle = SceneInput(expected=empty, sensed=empty)
    assert all(slot(idle, 0.7, n) == MARKER for n in SLOT_NAMES)


def test_the_dealing_side_has_a_white_fourth_marker() -> None:
    empty = board()
    # side 2 deals, side 1 plays: side 1's markers in its colour, side 2's fourth white
    sc = SceneInput(expected=empty, sensed=empty, turn=1, dealer=2, suit_rows={1: "SHDC", 2: "DCHS"})
    assert [slot(sc, 0.0, f"side1_{c}") for c in range(1, 5)] == [RED] * 4
    assert [slot(sc, 0.0, f"side2_{c}") for c in range(1, 5)] == [MARKER, MARKER, MARKER, WHITE]
    # the dealer to play: its colour on three markers, the fourth still white, all the time
    sc = SceneInput(expected=empty, sensed=empty, turn=2, dealer=2)
    assert [slot(sc, t, f"side2_{c}") for t in (0.0, 0.3, 0.7) for c in range(1, 5)] == [GREEN, GREEN, GREEN, WHITE] * 3
    # in the set-up (no suit chosen yet) the dealer's marker is lit, the others dark
    sc = SceneInput(expected=empty, sensed=empty, dealer=1, suit_rows={1: "....", 2: "...."})
    assert [slot(sc, 0.0, f"side1_{c}") for c in range(1, 5)] == [OFF, OFF, OFF, WHITE]
    # Gin and sensors offline say more than who deals
    gin = SceneInput(expected=empty, sensed=empty, dealer=1, gin=1)
    assert slot(gin, 0.3, "side1_4") == RED
    off = SceneInput(expected=empty, sensed=None, dealer=1)
    assert slot(off, 0.7, "side1_4") == OFF


def test_mirror_mode_never_warns() -> None:
    b = board(s0="1", s1="2", s30="1")
    sc = SceneInput(expected=b, sensed=b)
    for t in (0.0, 0.1, 0.2, 0.3, 0.35):
        frame = render_scene(sc, t, LAY)
        assert WARNING not in frame


def test_custom_colours_and_layout_without_markers() -> None:
    lay = LedLayout(tuple([None, *wiring_targets(markers=False)]))
    b = board(s0="1", s1="2")
    sc = SceneInput(expected=b, sensed=b, colors={1: (0, 0, 250), 2: (250, 250, 0)})
    frame = render_scene(sc, 0.0, lay)
    assert len(frame) == 53 and frame[0] == OFF
    assert frame[lay.space_led(0)] == (0, 0, 100)
    assert frame[lay.space_led(1)] == (100, 100, 0)


def test_render_is_pure() -> None:
    sc = SceneInput(expected=board(s2="1"), sensed=board(s3="2"), links={1: [2]}, pending={9: 1}, bump={3: 2})
    before = copy.deepcopy(sc)
    assert render_scene(sc, 0.42, LAY) == render_scene(sc, 0.42, LAY)
    assert sc == before


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"expected": "." * 51}, "scene.expected must be 52 characters"),
        ({"expected": "." * 51 + "3"}, "scene.expected must be 52 characters"),
        ({"sensed": "x" * 52}, "scene.sensed must be 52 characters"),
        ({"pending": {52: 1}}, r"scene.pending: space must be 0..51, got 52"),
        ({"pending": {3: 3}}, r"scene.pending\[3\]: side must be 1 or 2, got 3"),
        ({"bump": {-1: 1}}, "scene.bump: space must be 0..51"),
        ({"links": {1: [0, 99]}}, r"scene.links\[1\]: space must be 0..51, got 99"),
        ({"links": {3: None}}, "scene.links: side must be 1 or 2"),
        ({"turn": 0}, "scene.turn: side must be 1 or 2"),
        ({"gin": True}, "scene.gin: side must be 1 or 2"),
        ({"dealer": 3}, "scene.dealer: side must be 1 or 2"),
        ({"colors": {1: (255, 0, 0)}}, r"scene.colors\[2\] must be an \(r, g, b\) tuple"),
        ({"colors": {1: (256, 0, 0), 2: (0, 0, 0)}}, r"scene.colors\[1\]"),
        ({"suit_rows": {1: "SHD"}}, r"scene.suit_rows\[1\] must be 4 characters"),
    ],
)
def test_bad_scene_input_names_the_field(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"expected": "." * 52, "sensed": "." * 52}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        SceneInput(**args)  # type: ignore[arg-type]


def test_columns_display_for_the_rummy_variants() -> None:
    from companion.hardware.scene import render_columns

    cols = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]
    frame = render_columns([1.0, 0.0, 3 / 13, 12 / 13], cols, LAY)
    assert all(frame[LAY.space_led(r * 4)] == (102, 0, 0) for r in range(13))
    assert all(frame[LAY.space_led(r * 4 + 1)] == OFF for r in range(13))
    assert [frame[LAY.space_led(r * 4 + 2)] for r in range(4)] == [(0, 0, 102)] * 3 + [OFF]
    assert frame[LAY.space_led(11 * 4 + 3)] == (102, 102, 0) and frame[LAY.space_led(12 * 4 + 3)] == OFF
    assert all(frame[LAY.slot_led(n)] == OFF for n in SLOT_NAMES)
    with pytest.raises(ValueError, match="need 4 levels between 0 and 1"):
        render_columns([1.2, 0, 0, 0], cols, LAY)
    with pytest.raises(ValueError, match="need 4 colours"):
        render_columns([0, 0, 0, 0], cols[:3], LAY)
