"""Security of the service on the home network, against the real server (`gingo serve` on
loopback, see tests/test_server_live.py): per-address limits probed from several loopback
addresses (Linux routes all of 127.0.0.0/8 to loopback), the Host allow-list, WebSocket
origins, the page's headers, pairing codes that expire and rotate, and the data folder's
permissions."""

from __future__ import annotations

import json
import os
import socket
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.conftest import brings
from tests.test_server_live import CODE, HOST_CODE, Server, recv_until

A, B, C = "127.0.0.2", "127.0.0.3", "127.0.0.4"


def test_doctests() -> None:
    import doctest

    import companion.api.security as security
    import companion.api.throttle as throttle
    import companion.pairing as pairing
    import companion.paths as paths

    for mod in (security, throttle, pairing, paths):
        assert doctest.testmod(mod).failed == 0, mod.__name__


def test_throttle_forgets_the_oldest_addresses_first() -> None:
    from companion.api.throttle import AddressThrottle

    now = [0.0]
    t = AddressThrottle(limit=1, window=60, max_addresses=3, clock=lambda: now[0])
    for i in range(5):
        now[0] += 1
        t.failed(f"10.0.0.{i}")
    assert sorted(t.locked) == ["10.0.0.2", "10.0.0.3", "10.0.0.4"]
    # IPv6: one /64 is one device's choice of addresses, counted together
    t.failed("2001:db8::1")
    assert t.retry_after("2001:db8::ffff:2") is not None and t.retry_after("2001:db8:0:1::1") is None


@pytest.fixture(scope="module")
@brings("live")  # its own server: the service's own pairing window and codes, not the shared fixture's
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("security") / "data")
    srv.start()
    try:
        yield srv
    finally:
        srv.kill()


def client_from(address: str, server: Server, **kw: Any) -> httpx.Client:
    """An HTTP client whose connections come from ``address``."""
    return httpx.Client(base_url=server.url, transport=httpx.HTTPTransport(local_address=address), timeout=5, **kw)


def error_of(r: httpx.Response) -> dict[str, str]:
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"} and body["error"]["message"], body
    return dict(body["error"])


@pytest.mark.live
def test_pairing_limit_is_per_address(server: Server) -> None:
    with client_from(A, server) as a, client_from(B, server) as b:
        for i in range(10):
            r = a.post("/api/v1/pair", json={"code": f"{i:06d}" if f"{i:06d}" != CODE else "999999", "name": "x"})
            assert r.status_code == 401, r.text
        r = a.post("/api/v1/pair", json={"code": "000000", "name": "x"})
        assert r.status_code == 429 and error_of(r)["code"] == "too_many_attempts"
        assert 1 <= int(r.headers["retry-after"]) <= 60 and "wait" in error_of(r)["message"]
        # the right code from the locked address waits too
        r = a.post("/api/v1/pair", json={"code": CODE, "name": "locked"})
        assert r.status_code == 429 and "retry-after" in r.headers
        # another address is not affected: it pairs, and its own wrong code is a plain 401
        assert b.post("/api/v1/pair", json={"code": "424242", "name": "x"}).status_code == 401
        r = b.post("/api/v1/pair", json={"code": CODE, "name": "phone B"})
        assert r.status_code == 200 and r.json()["token"]
    tokens = httpx.get(server.url + "/api/v1/tokens", headers={"X-Host-Code": HOST_CODE}).json()["tokens"]
    assert [t["name"] for t in tokens] == ["phone B"]  # nothing was written for the locked address


@pytest.mark.live
def test_host_code_limit_is_per_address(server: Server) -> None:
    with client_from(B, server) as b, client_from(C, server) as c:
        for _ in range(10):
            r = b.get("/api/v1/tokens", headers={"X-Host-Code": "guess"})
            assert r.status_code == 401 and error_of(r)["code"] == "unauthorized"
        r = b.get("/api/v1/tokens", headers={"X-Host-Code": "guess"})
        assert r.status_code == 429 and error_of(r)["code"] == "too_many_attempts"
        assert 1 <= int(r.headers["retry-after"]) <= 60
        # the right host code from the locked address waits too, on every host call
        assert b.get("/api/v1/tokens", headers={"X-Host-Code": HOST_CODE}).status_code == 429
        r = b.post("/api/v1/pair/rotate", headers={"X-Host-Code": HOST_CODE})
        assert r.status_code == 429
        # another address is not affected
        r = c.get("/api/v1/tokens", headers={"X-Host-Code": HOST_CODE})
        assert r.status_code == 200 and "tokens" in r.json()
        # a forwarded-for header cannot move the count to another address
        r = b.get("/api/v1/tokens", headers={"X-Host-Code": HOST_CODE, "X-Forwarded-For": "10.9.8.7"})
        assert r.status_code == 429


@pytest.mark.live
def test_host_header_allow_list(server: Server) -> None:
    port = server.port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"gingo.local:{port}", f"GINGO.LOCAL.:{port}",
                 f"192.168.1.20:{port}", f"[::1]:{port}"):
        r = httpx.get(server.url + "/api/v1/health", headers={"Host": host})
        assert r.status_code == 200, (host, r.text)
    for host in (f"evil.example:{port}", "attacker.test", f"gingo.local.evil.example:{port}", "a b"):
        r = httpx.get(server.url + "/api/v1/health", headers={"Host": host})
        assert r.status_code == 421, (host, r.status_code)
        assert error_of(r)["code"] == "misdirected_request" and "address" in error_of(r)["message"]
    # a write with a foreign Host is refused before anything is read or written
    token = httpx.post(server.url + "/api/v1/pair", json={"code": CODE, "name": "rebind"}).json()["token"]
    r = httpx.post(server.url + "/api/v1/games", json={"variant": "gin", "players": ["A", "B"]},
                   headers={"Host": "evil.example", "Authorization": f"Bearer {token}"})
    assert r.status_code == 421
    assert httpx.get(server.url + "/api/v1/games").json()["games"] == []
    # the live channel too
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws://evil.example:{server.port}/api/v1/live", sock=sock, open_timeout=5)
    sock.close()
    assert refused.value.response.status_code == 421
    assert json.loads(refused.value.response.body)["error"]["code"] == "misdirected_request"


@pytest.mark.live
def test_websocket_from_a_foreign_origin_is_refused(server: Server) -> None:
    ws_url = server.url.replace("http", "ws") + "/api/v1/live"
    for origin in ("http://evil.example", f"http://evil.example:{server.port}", "null",
                   f"http://127.0.0.1:{server.port + 1}", f"https://127.0.0.1:{server.port}"):
        with pytest.raises(InvalidStatus) as refused:
            connect(ws_url, origin=origin, open_timeout=5)  # type: ignore[arg-type]
        resp = refused.value.response
        assert resp.status_code == 403, origin
        assert json.loads(resp.body)["error"]["code"] == "forbidden_origin"
    with connect(ws_url, origin=f"http://127.0.0.1:{server.port}", open_timeout=5) as ws:  # type: ignore[arg-type]
        assert json.loads(ws.recv(timeout=5))["type"] == "snapshot"
    with connect(ws_url, open_timeout=5) as ws:  # no Origin: not a browser
        assert json.loads(ws.recv(timeout=5))["type"] == "snapshot"


@pytest.mark.live
def test_page_headers_and_no_cdn(server: Server) -> None:
    r = httpx.get(server.url + "/")
    assert r.status_code == 200 and "<script" in r.text
    csp = r.headers["content-security-policy"]
    directives = dict((d.strip().split(" ", 1) + [""])[:2] for d in csp.split(";"))
    assert directives["script-src"] == "'self'" and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert directives["frame-ancestors"] == "'none'"
    assert directives["connect-src"].split()[0] == "'self'"
    assert f"ws://127.0.0.1:{server.port}" in directives["connect-src"].split()
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-frame-options"] == "DENY"
    # the page has no inline script
    assert "<script>" not in r.text.replace(" ", "") and "onclick=" not in r.text
    api = httpx.get(server.url + "/api/v1/health")
    assert api.headers["x-content-type-options"] == "nosniff"
    # no Swagger UI or ReDoc from a CDN on the token's origin: the OpenAPI file instead
    for path in ("/docs", "/redoc"):
        r = httpx.get(server.url + path)
        assert r.status_code == 404 and error_of(r)["code"] == "not_found"
        assert "cdn" not in r.text.lower()
    assert httpx.get(server.url + "/openapi.json").json()["paths"]


@pytest.mark.live
def test_data_folder_and_database_are_owner_only(server: Server) -> None:
    assert stat.S_IMODE(server.data.stat().st_mode) == 0o700
    files = [p for p in server.data.iterdir() if p.name.startswith("events.sqlite3")]
    assert any(p.name == "events.sqlite3" for p in files)
    for p in files:
        assert stat.S_IMODE(p.stat().st_mode) & 0o077 == 0, (p.name, oct(p.stat().st_mode))


@pytest.mark.live
def test_rotating_the_pairing_code(server: Server) -> None:
    with client_from(C, server) as c:
        token = c.post("/api/v1/pair", json={"code": CODE, "name": "old phone"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        ws_url = server.url.replace("http", "ws") + "/api/v1/live"
        with connect(ws_url, open_timeout=5) as ws:
            assert json.loads(ws.recv(timeout=5))["type"] == "snapshot"
            assert c.post("/api/v1/pair/rotate").status_code == 401
            r = c.post("/api/v1/pair/rotate", headers={"X-Host-Code": HOST_CODE})
            assert r.status_code == 200
            new = r.json()
            assert new["valid"] and new["code"] != CODE and new["code"].isdigit() and len(new["code"]) == 6
            assert 0 < new["expires_in"] <= new["window"] == 600
            news = recv_until(ws, lambda m: m.get("type") == "pairing_code")
            assert "code" not in news and news["valid"]  # the open live channel never carries the code
        # the old code is refused, the new one works, the phone paired before keeps working
        r = c.post("/api/v1/pair", json={"code": CODE, "name": "late"})
        assert r.status_code == 401 and error_of(r)["code"] == "unauthorized"
        assert c.post("/api/v1/pair", json={"code": new["code"], "name": "new phone"}).status_code == 200
        assert c.get("/api/v1/tokens/me", headers=auth).json()["name"] == "old phone"
        # a paired phone reads the code to show it, and can make a new one
        assert c.get("/api/v1/pair/code").status_code == 401
        assert c.get("/api/v1/pair/code", headers=auth).json()["code"] == new["code"]
        again = c.post("/api/v1/pair/code", headers=auth).json()
        assert again["code"] != new["code"] and again["valid"]
    assert "new pairing code" in _log_so_far(server)


def _log_so_far(server: Server) -> str:
    """What the server printed so far (the launcher keeps it in a log file), read without stopping it."""
    return server.output()


@pytest.mark.live  # starts the real service and waits out a 10 s window
def test_a_pairing_code_expires(tmp_path: Path) -> None:
    srv = Server(tmp_path / "data", env={"GINGO_PAIRING_WINDOW": "10"})
    srv.start()
    try:
        r = httpx.post(srv.url + "/api/v1/pair", json={"code": CODE, "name": "in time"})
        assert r.status_code == 200
        token = r.json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        left = httpx.get(srv.url + "/api/v1/pair/code", headers=auth).json()
        assert left["code"] == CODE and 0 < left["expires_in"] <= 10
        time.sleep(left["expires_in"] + 0.2)
        r = httpx.post(srv.url + "/api/v1/pair", json={"code": CODE, "name": "too late"})
        assert r.status_code == 401 and error_of(r)["code"] == "pairing_code_expired"
        assert "confirm button" in error_of(r)["message"]
        status = httpx.get(srv.url + "/api/v1/pair/code", headers=auth).json()
        assert status == {"code": None, "valid": False, "expires_in": 0, "window": 10}
        fresh = httpx.post(srv.url + "/api/v1/pair/code", headers=auth).json()
        assert fresh["valid"] and fresh["code"]
        assert httpx.post(srv.url + "/api/v1/pair", json={"code": fresh["code"]}).status_code == 200
    finally:
        srv.kill()


def test_long_press_of_confirm_makes_a_new_code_for_the_paired_phones(tmp_path: Path) -> None:
    """gpiozero's mock pins -> Buttons -> board_button -> Pairing.rotate -> the live channel."""
    from fastapi.testclient import TestClient
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    old, Device.pin_factory = Device.pin_factory, MockFactory()
    config = tmp_path / "gingo.toml"
    config.write_text('[buttons]\nhold_seconds = 0.8\nshutdown = false\nshutdown_command = ["true"]\n',
                      encoding="utf-8")
    from companion.commands.assemble import build_service
    from companion.commands.settings import resolve

    settings = resolve({"config": str(config), "data": str(tmp_path / "data")},
                       environ={"GINGO_HOSTNAMES": "testserver"}, system_config=tmp_path / "none")
    svc = build_service(settings)
    try:
        # confirm, undo, next_hand: confirm's hold is the shutdown (here the command 'true')
        assert svc.buttons is not None and set(svc.buttons.pins) == {"confirm", "undo", "next_hand"}
        pin = Device.pin_factory.pin(svc.buttons.pins["confirm"])
        svc.start()
        with TestClient(svc.app) as client:
            first = svc.pairing.code
            token = client.post("/api/v1/pair", json={"code": first, "name": "Ann"}).json()["token"]
            auth = {"Authorization": f"Bearer {token}"}
            with client.websocket_connect("/api/v1/live") as ws:
                assert ws.receive_json()["type"] == "snapshot"
                pin.drive_low(); time.sleep(0.05); pin.drive_high()  # a short press: "the board is set"
                assert _next_of(ws, "confirm") and svc.pairing.code == first
                pin.drive_low(); time.sleep(0.55); pin.drive_high()  # a long press, shorter than the hold
                msg = _next_of(ws, "pairing_code")
                assert msg["by"].startswith("the board's confirm button") and "code" not in msg
            assert svc.pairing.code != first
            shown = client.get("/api/v1/pair/code", headers=auth).json()
            assert shown["code"] == svc.pairing.code and shown["valid"]
            assert client.get("/api/v1/tokens/me", headers=auth).status_code == 200  # still paired
            assert client.post("/api/v1/pair", json={"code": first}).status_code == 401
            # holding on to the shutdown time still shuts down, and makes no new code
            code = svc.pairing.code
            with client.websocket_connect("/api/v1/live") as ws:
                assert ws.receive_json()["type"] == "snapshot"
                pin.drive_low(); time.sleep(1.0); pin.drive_high()
                assert _next_of(ws, "shutdown")
            assert svc.pairing.code == code
    finally:
        svc.stop()
        Device.pin_factory.reset()
        Device.pin_factory = old


def _next_of(ws: Any, kind: str) -> dict[str, Any]:
    """The next live message of type ``kind`` (sensor and board news may come first)."""
    for _ in range(200):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return dict(msg)
    raise AssertionError(f"no {kind!r} message")


# ---- strict inputs and client ids (in-process: the real app, store and engines) ---------------

@pytest.fixture()
def api(tmp_path: Path) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from companion.api import create_app
    from companion.pairing import Pairing
    from companion.store import open_store
    from companion.table import Table

    store = open_store(tmp_path)
    app = create_app(Table(store), pairing=Pairing(store, code="2468", host_code="h"), names=("testserver",))
    with TestClient(app) as client:
        token = client.post("/api/v1/pair", json={"code": "2468"}).json()["token"]
        client.headers["Authorization"] = f"Bearer {token}"
        client.store = store  # type: ignore[attr-defined]
        yield client
    store.close()


def test_numbers_are_numbers_and_options_have_their_real_range(api: Any) -> None:
    gid = api.post("/api/v1/games", json={"variant": "gin", "players": ["A", "B"]}).json()["id"]
    before = api.store.count()
    for body, field in (({"ender": "0", "deadwood": [0, 20]}, "ender"),
                        ({"ender": 0, "deadwood": [0, 20], "expected_version": "1"}, "expected_version"),
                        ({"ender": 0, "deadwood": ["0", 20]}, "deadwood"),
                        ({"ender": 0, "deadwood": [0, 20], "big_gin": "true"}, "big_gin"),
                        ({"ender": 0, "deadwood": [0, 501]}, "deadwood.1")):
        r = api.post(f"/api/v1/games/{gid}/hands", json=body)
        assert r.status_code == 422 and error_of(r)["message"].startswith(field + ":"), (body, r.text)
    r = api.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "deadwood": [0, "20"]})
    assert "item 1" in error_of(r)["message"]
    r = api.post("/api/v1/games", json={"variant": "gin", "players": ["A", "B"], "dealer": "1"})
    assert r.status_code == 422 and error_of(r)["message"].startswith("dealer:")
    r = api.post("/api/v1/games", json={"variant": "gin", "players": ["A", "B"], "options": {"game_target": 0}})
    assert r.status_code == 400 and "game_target" in error_of(r)["message"] and "from 1" in error_of(r)["message"]
    for variant, option in (("color_gin", "target"), ("ginski", "target")):
        r = api.post("/api/v1/games", json={"variant": variant, "players": ["A", "B", "C"][: 2 if variant == "color_gin" else 3],
                                            "options": {option: 0}})
        assert r.status_code == 400 and option in error_of(r)["message"], r.text
    # the range is told to whoever builds the new-game form
    gin = api.get("/api/v1/variants").json()["variants"][0]
    target = next(o for o in gin["options"] if o["name"] == "game_target")
    assert target["min"] == 1 and target["max"] == 100_000
    # a Gin-Go meld's cards are a list, not one string
    gg = api.post("/api/v1/games", json={"variant": "gingo", "players": ["A", "B"]}).json()["id"]
    r = api.post(f"/api/v1/games/{gg}/actions", json={"action": {"type": "meld", "seat": 0, "cards": "3S 4S 5S"}})
    assert r.status_code == 422 and "cards" in error_of(r)["message"] and "one string" in error_of(r)["message"]
    r = api.post(f"/api/v1/games/{gg}/actions", json={"action": {"type": "meld", "seat": "0", "cards": ["3S"]}})
    assert r.status_code == 422 and "seat" in error_of(r)["message"]
    assert api.store.count() == before + 1  # only the Gin-Go game was written


def test_a_reused_client_id_is_refused_not_answered_with_another_request(api: Any) -> None:
    created = api.post("/api/v1/games", json={"variant": "gin", "players": ["A", "B"], "client_id": "c1"})
    gid = created.json()["id"]
    # the same request again is a retry: the first answer, nothing written
    again = api.post("/api/v1/games", json={"variant": "gin", "players": ["A", "B"], "client_id": "c1"})
    assert again.status_code == 201 and again.json() == created.json()
    count = api.store.count()
    # the same client_id for a new game with other players, or for a hand: 409
    r = api.post("/api/v1/games", json={"variant": "gin", "players": ["A", "C"], "client_id": "c1"})
    assert r.status_code == 409 and error_of(r)["code"] == "client_id_reused" and "new client_id" in error_of(r)["message"]
    r = api.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "deadwood": [0, 20], "client_id": "c1"})
    assert r.status_code == 409 and error_of(r)["code"] == "client_id_reused"
    assert api.store.count() == count
    hand = api.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "deadwood": [0, 20], "client_id": "h1"})
    assert hand.status_code == 200
    retry = api.post(f"/api/v1/games/{gid}/hands", json={"ender": 0, "deadwood": [0, 20], "client_id": "h1"})
    assert retry.json() == hand.json()
    # client ids are per game; a new game's (create, import, rematch) names the new game
    for path, body in ((f"/api/v1/games/{gid}/hands", {"ender": 1, "deadwood": [20, 0], "client_id": "h1"}),
                       (f"/api/v1/games/{gid}/undo", {"client_id": "h1"}),
                       (f"/api/v1/games/{gid}/rematch", {"client_id": "c1"}),
                       ("/api/v1/games/import", {**api.get(f"/api/v1/games/{gid}/export.json").json(), "client_id": "c1"})):
        r = api.post(path, json=body)
        assert r.status_code == 409 and error_of(r)["code"] == "client_id_reused", (path, r.text)
    r = api.put(f"/api/v1/games/{gid}/hands/1", json={"ender": 0, "deadwood": [0, 20], "client_id": "h1"})
    assert r.status_code == 409 and error_of(r)["code"] == "client_id_reused"
    assert len(api.get(f"/api/v1/games/{gid}").json()["hands"]) == 1


def test_answers_stored_before_fingerprints_are_told_apart_by_their_type(api: Any) -> None:
    """A log written by an older companion has no request fingerprints."""
    from companion.table.retries import first_answer

    assert first_answer({"game": 1}, "hand", "hand", "f" * 32, "old") == {"game": 1}
    with pytest.raises(ValueError, match="a new game"):
        first_answer({"id": "g1"}, "game_created", "hand", "f" * 32, "old")


def test_methods_options_and_the_documented_statuses(api: Any) -> None:
    r = api.options("/api/v1/tokens")
    assert r.status_code == 204 and r.headers["allow"] == "GET, HEAD, DELETE, OPTIONS"
    assert api.options("/api/v1/tokens/me").headers["allow"] == "GET, HEAD, OPTIONS"  # not /tokens/{id}'s DELETE
    gid = api.post("/api/v1/games", json={"variant": "gin", "players": ["A", "B"]}).json()["id"]
    r = api.put(f"/api/v1/games/{gid}/hands/preview", json={"ender": 0, "deadwood": [0, 20]})
    assert r.status_code == 405 and r.headers["allow"] == "POST, OPTIONS"
    assert error_of(r)["code"] == "method_not_allowed" and "POST" in error_of(r)["message"]
    r = api.get("/api/v1/board/sim")
    assert r.status_code == 405 and r.headers["allow"] == "POST, OPTIONS"
    r = api.head("/api/v1/health")
    assert r.status_code == 200 and r.content == b"" and r.headers["content-type"] == "application/json"
    spec = api.get("/openapi.json").json()
    pair = spec["paths"]["/api/v1/pair"]["post"]["responses"]
    assert "Retry-After" in pair["429"]["headers"]
    assert spec["paths"]["/api/v1/tokens"]["get"]["responses"]["429"]
    assert list(spec["paths"]["/api/v1/games/{game_id}/export.csv"]["get"]["responses"]["200"]["content"]) == ["text/csv"]
    assert spec["paths"]["/api/v1/games"]["post"]["security"] == [{"token": []}]
    assert spec["paths"]["/api/v1/pair/rotate"]["post"]["security"] == [{"hostCode": []}]
    hand = spec["components"]["schemas"]["HandRequest"]["properties"]
    assert "maximum" in str(hand["deadwood"]) and "maxLength" in str(hand["hands"])
    assert spec["paths"]["/api/v1/games/{game_id}/events"]["get"]["parameters"][1]["schema"]["maximum"] == 2**53 - 1
