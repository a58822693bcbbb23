"""One assembly for every command: settings from the command line, the environment, the
config file and the defaults, in that order; ``gingo serve`` classifies with the
calibration file and the LED scene gets the suit rows and the side to play."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from companion.boardview import compare, scene_fields
from companion.hardware.calibration import compute_calibration, save_calibration
from companion.hardware.config import HardwareConfigError
from companion.hardware.layout import default_layout
from companion.hardware.scene import MARKER, OFF, WHITE
from companion.commands.assemble import build_service, load_classifier
from companion.commands.settings import Settings, add_arguments, from_args, resolve
from tests.live_server import LiveServer

LAYOUT = default_layout()
SLOTS = [LAYOUT.slot_led(f"side{s}_{c}") for s in (1, 2) for c in range(1, 5)]


def flipped_calibration() -> Any:
    """A real calibration of a board whose magnets read the other way up: side 2's chips
    read high (45000) and side 1's low (20000); the simulator's side 1 chip (45000) is then
    a side 2 chip, where the default thresholds would call it side 1."""
    empty = [[32768 + (s % 3) * 50 for s in range(52)] for _ in range(5)]
    return compute_calibration(empty, {1: {0: [20000] * 5, 19: [20100] * 5}, 2: {0: [45000] * 5, 19: [44900] * 5}},
                               created="2026-11-24T22:00")


# -- settings --------------------------------------------------------------------------------


def test_settings_come_from_the_command_line_then_environment_then_file_then_defaults(tmp_path: Path) -> None:
    cfg = tmp_path / "gingo.toml"
    cfg.write_text('[service]\nhost = "127.0.0.2"\nport = 8100\ndata = "state"\nlog_level = "info"\n')
    none = tmp_path / "absent.toml"
    s = resolve({"config": str(cfg)}, environ={}, system_config=none)
    assert (s.host, s.port, s.data, s.log_level) == ("127.0.0.2", 8100, str(tmp_path / "state"), "info")
    assert s.origin == {"config": "command line", "host": "config file", "port": "config file",
                        "data": "config file", "log_level": "config file", "hostnames": "default"}
    s = resolve({"config": None}, environ={"GINGO_CONFIG": str(cfg), "GINGO_PORT": "8200", "GINGO_DATA": "/d"},
                system_config=none)
    assert (s.config, s.port, s.data, s.host) == (str(cfg), 8200, "/d", "127.0.0.2")
    assert s.origin["config"] == "GINGO_CONFIG" and s.origin["port"] == "GINGO_PORT"
    s = resolve({"config": str(cfg), "port": 8300, "host": "::1"}, environ={"GINGO_PORT": "8200"}, system_config=none)
    assert (s.port, s.host) == (8300, "::1") and s.origin["port"] == "command line"
    s = resolve({}, environ={}, system_config=none)
    assert (s.config, s.host, s.port, s.data, s.log_level) == (None, "0.0.0.0", 8000, None, "warning")
    assert set(s.origin.values()) == {"default"}
    system = tmp_path / "etc-gingo.toml"
    system.write_text("[service]\nport = 8400\n")
    s = resolve({}, environ={}, system_config=system)
    assert s.config == str(system) and s.port == 8400


def test_every_command_parses_the_same_settings(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser, listen=True)
    args = parser.parse_args(["--port", "8500", "--data", str(tmp_path)])
    s = from_args(args, environ={"GINGO_HOST": "127.0.0.1", "GINGO_PORT": "1"}, listen=True)
    assert (s.host, s.port, s.data) == ("127.0.0.1", 8500, str(tmp_path))
    lean = argparse.ArgumentParser()
    add_arguments(lean)  # sensors, calibrate: no --host/--port, the environment still counts
    lean.add_argument("--port")  # gingo sensors' own --port is the Pico's serial port, not the service's
    got = from_args(lean.parse_args(["--port", "/dev/ttyACM0"]), environ={"GINGO_DATA": str(tmp_path)})
    assert got.data == str(tmp_path) and got.port == 8000


@pytest.mark.parametrize("where, value, words", [
    ("env", {"GINGO_PORT": "0"}, "GINGO_PORT must be a TCP port 1..65535, got '0'"),
    ("env", {"GINGO_LOG_LEVEL": "loud"}, "GINGO_LOG_LEVEL must be one of debug, info, warning, error"),
    ("file", "[service]\nport = 70000\n", "service.port must be a TCP port 1..65535, got 70000"),
    ("file", "[service]\nhots = 1\n", "unknown key service.hots; known keys are data, host, hostnames, log_level, port"),
    ("file", "[service]\ndata = 3\n", "service.data must be a non-empty text, got 3"),
])
def test_a_bad_setting_names_where_it_came_from(tmp_path: Path, where: str, value: Any, words: str) -> None:
    cfg = tmp_path / "gingo.toml"
    cfg.write_text(value if where == "file" else "")
    env = value if where == "env" else {}
    with pytest.raises(HardwareConfigError) as err:
        resolve({"config": str(cfg)}, environ=env, system_config=tmp_path / "none")
    assert words in str(err.value)


# -- calibration -------------------------------------------------------------------------------


def test_the_service_classifies_with_the_calibration_file(tmp_path: Path) -> None:
    save_calibration(flipped_calibration(), tmp_path)
    said: list[str] = []
    svc = build_service(Settings(data=str(tmp_path)), said.append)
    try:
        assert svc.calibration is not None and svc.sync.classifier.thresholds[0].high_side == 2
        svc.start()
        assert svc.sync.wait_sensed(lambda b: b == "." * 52, timeout=20)
        svc.sync.put_sim(0, 1)  # the simulator's "side 1" magnet reads high: side 2 on this board
        assert svc.sync.wait_sensed(lambda b: b is not None and b[0] != ".", timeout=20)
        assert svc.sync.state()["sensed"][0] == "2"
    finally:
        svc.stop()
    assert not said


def test_a_damaged_calibration_file_is_a_warning_for_the_service_and_an_error_for_sensors(tmp_path: Path) -> None:
    (tmp_path / "calibration.json").write_text("{not json")
    said: list[str] = []
    classifier, calibration = load_classifier(tmp_path, said.append)
    assert calibration is None and classifier.thresholds[0].high_enter == 40000
    assert said and "CALIBRATION IGNORED" in said[0] and "calibration.json is not valid JSON" in said[0]
    with pytest.raises(ValueError, match="not valid JSON"):
        load_classifier(tmp_path)
    svc = build_service(Settings(data=str(tmp_path)))
    try:
        assert "cannot be used" in svc.app.state.calibration
        assert any("CALIBRATION IGNORED" in w for w in svc.warnings)
    finally:
        svc.stop()


# -- the LED scene's suit rows and turn ------------------------------------------------------------


def test_scene_fields_carry_the_side_to_play_of_a_fully_played_game() -> None:
    from companion.hardware.scene import DEFAULT_COLORS, SceneInput, render_scene
    from companion.games.gingo.play import GingoPlay

    play = GingoPlay(["a", "b"], {"deal": 7}, seed=21)
    game = {"state": play.as_dict()}
    assert game["state"]["full_play"] and game["state"]["phase"] == "setup"
    fields = scene_fields(compare("." * 52, "." * 52), game=game)
    assert fields["turn"] is None and fields["suit_rows"] == {1: "....", 2: "...."}
    frame = render_scene(SceneInput(**fields), 0.0, LAYOUT)
    # no suit chosen yet: the markers stay dark, but for the dealer's (seat 0, side 1) fourth
    assert fields["dealer"] == 1
    assert [frame[i] for i in SLOTS] == [OFF] * 3 + [WHITE] + [OFF] * 4
    rows = {"1": "SHDC", "2": "CDHS"}
    state = {**play.as_dict(), "phase": "play", "turn": 1, "suit_rows": rows}
    fields = scene_fields(compare("." * 52, "." * 52), game={"state": state})
    assert fields["turn"] == 2 and fields["suit_rows"] == {1: "SHDC", 2: "CDHS"}
    frame = render_scene(SceneInput(**fields), 0.0, LAYOUT)
    side2 = fields.get("colors") or DEFAULT_COLORS
    assert [frame[i] for i in SLOTS] == [MARKER] * 3 + [WHITE] + [side2[2]] * 4  # side 2 to play, side 1 deals


@pytest.mark.live
def test_serve_uses_the_calibration_and_shows_the_suit_rows_through_the_running_service(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    save_calibration(flipped_calibration(), data)
    srv = LiveServer(data)
    srv.start()
    try:
        health = srv.get("/api/v1/health")
        assert health["calibration"].startswith(str(data / "calibration.json"))
        assert health["sensors"] == "sim" or srv.wait_until("/api/v1/health", lambda h: h["sensors"] == "sim")
        token = srv.pair()
        srv.post("/api/v1/board/sim", {"space": 5, "side": 1}, token)
        board = srv.wait_until("/api/v1/board", lambda b: b["sensed"] is not None and b["sensed"][5] != ".")
        assert board["sensed"][5] == "2"  # classified with the file: the default thresholds say "1"
        srv.post("/api/v1/board/sim", {"space": 5, "side": None}, token)
        srv.wait_until("/api/v1/board", lambda b: b["sensed"] == "." * 52)

        gid = srv.post("/api/v1/games", {"variant": "gingo", "players": ["A", "B"]}, token)["id"]
        # no suit chosen yet: every marker dark but the fourth of the dealing side (seat 0, side 1)
        dark = srv.wait_until("/api/v1/leds", lambda f: all(f["pixels"][i] == [0, 0, 0] for i in SLOTS[:3] + SLOTS[4:]))
        assert len(dark["pixels"]) == LAYOUT.count and dark["pixels"][SLOTS[3]] == list(WHITE)
        srv.post(f"/api/v1/games/{gid}/actions", {"action": {"type": "setup", "suit_rows": {"1": "SHDC", "2": "CDHS"}}},
                 token)
        # the suits are chosen: the markers light, the side to play in its own colour
        turn_side = srv.get(f"/api/v1/games/{gid}")["state"]["turn"] + 1
        lit = srv.wait_until("/api/v1/leds", lambda f: all(f["pixels"][i] != [0, 0, 0] for i in SLOTS))["pixels"]
        waiting, playing = (SLOTS[4:], SLOTS[:4]) if turn_side == 1 else (SLOTS[:4], SLOTS[4:])
        assert turn_side == 2 and lit[SLOTS[3]] == list(WHITE)   # side 1 deals: its fourth marker white
        assert all(lit[i] == list(MARKER) for i in waiting[:3])
        assert len({tuple(lit[i]) for i in playing}) == 1 and lit[playing[0]] != list(MARKER)
    finally:
        srv.stop()
    assert "Traceback" not in srv.output()
