"""The one exception tree (companion.errors) and its one mapping to HTTP (companion.api.errors)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion import cards as C
from companion import errors as E
from companion.api.app import create_app
from companion.api.errors import STATUS, http_status
from companion.hardware.config import HardwareConfigError
from companion.hardware.leds import LedBackendError
from companion.pairing import Pairing, PairingError
from companion.games.gingo import rules as gingo
from companion.store import StoreBusy, open_store
from companion.table import HandInput, Table, TableError

CODE, HOST = "4242", "host"


def test_every_class_has_a_code_and_a_status_and_input_errors_stay_value_errors() -> None:
    classes = {c for c in vars(E).values() if isinstance(c, type) and issubclass(c, E.CompanionError)}
    codes = {c.code for c in classes if c is not E.ChipShortfall}  # a shortfall is "illegal", as in v1
    assert len(codes) == len(classes) - 1, "each class names its own code"
    for c in (E.InvalidInput, E.IllegalAction, E.NotFound, E.Conflict, E.StorageError, E.ConfigError):
        assert issubclass(c, ValueError)  # code written before the tree catches ValueError
    assert issubclass(E.BackendError, RuntimeError)
    assert {http_status(c("x")) for c in (E.InvalidInput, E.IllegalAction, E.NotFound, E.Conflict)} == {
        400, 422, 404, 409}
    assert http_status(E.StorageFull("the disk is full")) == 507
    assert set(STATUS) <= set(classes)


def test_the_old_classes_are_branches_of_the_tree() -> None:
    assert isinstance(PairingError("wrong code"), E.Unauthorized)
    assert isinstance(StoreBusy("busy"), E.StorageBusy) and StoreBusy("busy").code == "storage_busy"
    assert isinstance(HardwareConfigError("leds.backend"), E.ConfigError)
    assert isinstance(LedBackendError("no strip"), E.BackendError)
    assert isinstance(gingo.GingoError("no"), E.IllegalAction)
    # the old TableError(code, message, status) form is gone: a class of the tree names the kind
    with pytest.raises(TypeError):
        TableError("finished", "the match is over", 409)  # type: ignore[call-arg]
    err = E.Conflict("the match is over", code="finished")
    assert err.code == "finished" and str(err) == "the match is over" and err.details == {}


def test_no_raise_uses_the_old_constructor_form_and_no_class_name_is_used_twice() -> None:
    """Every raise names a class of the tree (never ``TableError(code, message, status)``),
    and no two different error classes share a name (StorageFull, ChipShortfall, ConfigError
    each had a twin)."""
    import ast
    import importlib
    import pkgutil

    import companion

    root = Path(E.__file__).resolve().parent
    legacy = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
                    "TableError", "CompanionError") and len(node.args) >= 2:
                legacy.append(f"{path.relative_to(root)}:{node.lineno}")
    assert legacy == []
    seen: dict[str, type] = {}
    twins = []
    for info in pkgutil.walk_packages(companion.__path__, "companion."):
        if info.name.startswith(("companion.web", "companion.hardware.defaults")):
            continue
        try:
            mod = importlib.import_module(info.name)
        except ImportError:  # a module for hardware this machine lacks
            continue
        for obj in vars(mod).values():
            if isinstance(obj, type) and issubclass(obj, Exception) and obj.__module__ == mod.__name__:
                other = seen.setdefault(obj.__name__, obj)
                if other is not obj:
                    twins.append(f"{obj.__module__}.{obj.__name__} and {other.__module__}.{other.__name__}")
    assert twins == []


def test_chip_shortfall_carries_side_supply_need_and_cards() -> None:
    g = gingo.new_game(["Ann", "Bob"], {})
    g.apply({"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}})
    free = [g.space(1, C.parse_card(c)) for c in ("AH", "2H", "3H", "4H")]
    board = "".join("." if i in free else "1" for i in range(52))
    g = gingo.new_game(["Ann", "Bob"], {})
    g.apply({"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}, "board": board})
    with pytest.raises(E.ChipShortfall) as err:
        g.apply({"type": "meld", "seat": 0, "cards": ["AH", "2H", "3H"]})
    assert err.value.code == "illegal"
    assert err.value.details == {"reason": "chip_shortfall", "side": 1, "supply": 2, "need": 3, "short": 1,
                                 "cards": ["AH", "2H", "3H"]}
    assert "RULES.md" not in err.value.message


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    store = open_store(tmp_path)
    app = create_app(Table(store), pairing=Pairing(store, code=CODE, host_code=HOST), names=("testserver",))
    c = TestClient(app)
    token = c.post("/api/v1/pair", json={"code": CODE, "name": "t"}).json()["token"]
    c.headers["Authorization"] = f"Bearer {token}"
    return c


def test_an_engine_bug_is_a_500_with_json_and_a_log_line_not_an_illegal_answer(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    gid = client.post("/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"]}).json()["id"]
    from companion.games.gin import rules as gin

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("a bug in the engine")

    monkeypatch.setattr(gin, "score_hand", broken)
    with caplog.at_level(logging.ERROR):
        r = client.post(f"/api/v1/games/{gid}/hands", json={
            "ender": 0, "hands": [["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"],
                                  ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"]]})
    assert r.status_code == 500 and r.headers["content-type"].startswith("application/json")
    err = r.json()["error"]
    assert err["code"] == "internal_error" and "ZeroDivisionError" in err["message"]
    assert "Traceback" not in r.text and "a bug in the engine" not in r.text
    assert any("ZeroDivisionError" in rec.getMessage() or rec.exc_info for rec in caplog.records)
    assert client.get(f"/api/v1/games/{gid}").json()["version"] == 1  # nothing written


def test_a_shortfall_over_http_has_structured_details(client: TestClient) -> None:
    g = gingo.new_game(["Ann", "Bob"], {})
    g.apply({"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}})
    free = [g.space(1, C.parse_card(c)) for c in ("AH", "2H", "3H")]
    board = "".join("." if i in free else "1" for i in range(52))
    gid = client.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bob"]}).json()["id"]
    client.post(f"/api/v1/games/{gid}/actions",
                json={"action": {"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}, "board": board}})
    r = client.post(f"/api/v1/games/{gid}/actions",
                    json={"action": {"type": "meld", "seat": 0, "cards": ["AH", "2H", "3H"]}})
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["code"] == "illegal"
    assert err["details"] == {"reason": "chip_shortfall", "side": 1, "supply": 1, "need": 3, "short": 2,
                              "cards": ["AH", "2H", "3H"]}


def test_stale_version_and_validation_errors_carry_details(client: TestClient) -> None:
    gid = client.post("/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"]}).json()["id"]
    r = client.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "deadwood": [0, 10], "expected_version": 9})
    assert r.status_code == 409 and r.json()["error"]["details"] == {"version": 1, "expected": 9}
    r = client.post(f"/api/v1/games/{gid}/hands", json={"ender": "x", "deadwood": [0, 10]})
    assert r.status_code == 422
    fields = r.json()["error"]["details"]["fields"]
    assert fields[0]["field"] == "ender" and fields[0]["message"]
    r = client.get("/api/v1/games/nope")
    assert r.status_code == 404 and r.json()["error"] == {
        "code": "not_found", "message": "no game with id 'nope'", "details": {}}


def test_unknown_hand_entry_refusals_keep_their_v1_codes_and_statuses(client: TestClient) -> None:
    gid = client.post("/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"]}).json()["id"]
    # refused before scoring: 400; refused by the engine's rules: 422 (both invalid_hand, as in v1)
    r = client.post(f"/api/v1/games/{gid}/hands", json={"ender": 0})
    assert (r.status_code, r.json()["error"]["code"]) == (400, "invalid_hand")
    r = client.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "deadwood": [11, 30]})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "invalid_hand")


def test_table_refusals_are_tree_errors(tmp_path: Path) -> None:
    table = Table(open_store(tmp_path))
    gid = table.create_game("gin", players=["Ann", "Bob"])["id"]
    table.score_hand(gid, HandInput(0, deadwood=[0, 10]))
    with pytest.raises(E.Conflict) as err:
        table.undo(gid, expected_version=1)
    assert isinstance(err.value, E.StaleVersion)


def test_no_docstring_or_comment_cites_a_file_users_do_not_have() -> None:
    """The package restates a rule where it applies it: RULES.md and DESIGN.md are the
    builders' notes, which a player or a reader of the installed package does not have."""
    root = Path(E.__file__).resolve().parent
    cited = [f"{p.relative_to(root)}:{n}" for p in sorted(root.rglob("*")) if p.suffix in (".py", ".js", ".html")
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if "RULES.md" in line or "DESIGN.md" in line]
    assert cited == []


def test_no_error_message_cites_a_file_the_player_does_not_have() -> None:
    """Messages say the rule itself, never "RULES.md 5C #n" (players do not have that file)."""
    import ast

    root = Path(E.__file__).resolve().parent
    cited: list[str] = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and node.exc is not None:
                for sub in ast.walk(node.exc):
                    if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and "RULES.md" in sub.value:
                        cited.append(f"{path.relative_to(root)}:{sub.lineno}")
    assert cited == []


def test_hand_refusals_name_their_field_and_seat(client: TestClient) -> None:
    """The page puts a refusal next to the field it is about from these details, not the words."""
    gid = client.post("/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"]}).json()["id"]
    ann = ["KS", "QS", "10D", "8C", "6C", "4S", "2D", "JC", "9D", "7C"]
    bob = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"]
    r = client.post(f"/api/v1/games/{gid}/hands/preview", json={"ender": 0, "hands": [ann, bob]})
    assert r.status_code == 422 and r.json()["error"]["details"] == {"field": "hands", "seat": 0}
    r = client.post(f"/api/v1/games/{gid}/hands/preview", json={"ender": 0, "hands": [ann, ann]})
    assert r.json()["error"]["details"] == {"field": "hands", "seat": 1}  # the same cards twice
    r = client.post(f"/api/v1/games/{gid}/hands/preview", json={"ender": 0, "deadwood": [3]})
    assert (r.status_code, r.json()["error"]["details"]) == (400, {"field": "deadwood"})
    ok = client.post("/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"], "options": {"oklahoma": True}})
    r = client.post(f"/api/v1/games/{ok.json()['id']}/hands/preview",
                    json={"ender": 0, "deadwood": [9, 20], "upcard": "7D"})
    assert r.json()["error"]["details"] == {"field": "upcard", "seat": 0}
    cg = client.post("/api/v1/games", json={"variant": "color_gin", "players": ["Ann", "Bob"]}).json()["id"]
    r = client.post(f"/api/v1/games/{cg}/hands/preview",
                    json={"ender": 0, "hands": [bob, ann], "declared": [["AH", "2H", "JS"]]})
    assert r.json()["error"]["details"]["field"] == "declared"


@pytest.mark.parametrize("action, words", [
    ({"type": "dance"}, "unknown action type 'dance'"),
    ({"type": "meld", "seat": 0, "cards": ["AH", "ZZ", "3H"]}, "not a card: 'ZZ'"),
    ({"type": "meld", "seat": 0, "cards": ["AH", "2H", "JK"], "designations": ["3H"]},
     "designations map a joker to a card"),
    ({"type": "meld", "seat": 0, "cards": ["AH", "2H", "3H"], "colour": "red"}, "does not take colour"),
])
def test_a_malformed_action_is_invalid_input_not_an_illegal_move(client: TestClient, action: dict[str, Any],
                                                                  words: str) -> None:
    # python-chess's split: an action that cannot be read is 400 invalid_action; a move the
    # rules forbid is 422 illegal; neither writes anything
    gid = client.post("/api/v1/games", json={"variant": "gingo", "players": ["Ann", "Bob"]}).json()["id"]
    client.post(f"/api/v1/games/{gid}/actions", json={"action": {"type": "setup", "suit_rows": {"1": "SHDC", "2": "SHDC"}}})
    version = client.get(f"/api/v1/games/{gid}").json()["version"]
    r = client.post(f"/api/v1/games/{gid}/actions", json={"action": action})
    assert r.status_code == 400, r.text
    assert r.json()["error"]["code"] == "invalid_action" and words in r.json()["error"]["message"]
    assert client.get(f"/api/v1/games/{gid}").json()["version"] == version
    r = client.post(f"/api/v1/games/{gid}/actions", json={"action": {"type": "hit", "seat": 0, "meld": 7, "cards": ["4S"]}})
    assert r.status_code == 422 and r.json()["error"]["code"] == "illegal"


@pytest.mark.parametrize("path", ["/api/v1/games/{gid}/hands", "/api/v1/games/{gid}/hands/preview"])
def test_a_value_error_inside_an_engine_is_a_bug_not_an_illegal_hand(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, path: str) -> None:
    """A ValueError an engine did not mean (``int("x")`` deep inside) is a 500 with a JSON
    body and a log line: never a 422 blaming the player's cards."""
    gid = client.post("/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"]}).json()["id"]
    from companion.games.gin import rules as gin

    def broken(*args: object, **kwargs: object) -> None:
        int("not a number")  # a bug: ValueError, raised by nobody on purpose

    monkeypatch.setattr(gin, "score_from_deadwood", broken)
    with caplog.at_level(logging.ERROR):
        r = client.post(path.format(gid=gid), json={"ender": 0, "deadwood": [0, 20]})
    assert r.status_code == 500 and r.headers["content-type"].startswith("application/json"), r.text
    assert r.json()["error"]["code"] == "internal_error" and "ValueError" in r.json()["error"]["message"]
    assert any(rec.exc_info for rec in caplog.records)
    assert client.get(f"/api/v1/games/{gid}").json()["version"] == 1
    monkeypatch.undo()  # the engine's own refusal is still the player's: 422 naming the rule
    r = client.post(path.format(gid=gid), json={"ender": 0, "deadwood": [30, 20]})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_hand" and "knock" in r.json()["error"]["message"]


def test_an_engine_refusal_is_typed_so_a_bug_can_be_told_from_it() -> None:
    """The engines raise the tree's errors for what they refuse (still ValueErrors, for
    code written before); a plain ValueError from them is a bug."""
    from companion.games.gin import rules as gin_rules

    with pytest.raises(E.IllegalAction, match="not a card"):
        C.parse_card("ZZ")
    with pytest.raises(E.IllegalAction):
        gin_rules.score_from_deadwood([30, 20], 0)
    with pytest.raises(E.IllegalAction):
        gin_rules.score_hand(["AS 2S 3S", "4S 5S 6S"], 0)


@pytest.mark.parametrize("method,path", [("PUT", "/api/v1/games/g1/hands/{n}"),
                                         ("POST", "/api/v1/games/g1/hands/{n}/preview"),
                                         ("POST", "/api/v1/games/g1/seats/{n}"),
                                         ("GET", "/api/v1/games/g1/events?after={n}")])
def test_a_malformed_number_in_a_path_or_query_is_a_json_422(client: TestClient, method: str, path: str) -> None:
    """A number of 5,000 digits (beyond Python's integer-string limit) or a word where a
    number goes is a JSON 422 naming the parameter, never a text/plain 500."""
    for n in ("1" * 5000, "two"):
        r = client.request(method, path.format(n=n), json={"ender": 0, "deadwood": [0, 20]})
        assert r.status_code == 422, (n[:10], r.status_code, r.text[:200])
        assert r.headers["content-type"].startswith("application/json")
        err = r.json()["error"]
        assert err["code"] == "invalid_request" and err["details"]["fields"][0]["field"] in ("path.n", "query.after"), err
