"""The phone page words every refusal by its code (issue 24): the table of codes in
js/api.js, the server's own message for a code it does not list, and no reading of a
``{"detail"}`` body the companion never sends. Real headless Chromium against the real
service; the page's own modules do the asking."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import LiveServer
from tests.web_helpers import CHROMIUM, CODE, phone_page

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import Browser, Page, Route, expect  # noqa: E402

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def phone(browser: Browser, server: LiveServer) -> Iterator[Page]:
    # the service worker's own fetches would pass Playwright's routes by (and it caches nothing of the API)
    with phone_page(browser, service_workers="block") as pg:
        pg.goto(f"{server.url}/?code={CODE}")
        expect(pg.locator("#conn")).to_have_attribute("data-state", "online")
        yield pg


ASK = """async ([method, path, body]) => {
  const api = await import("/js/api.js");
  try { await api.request(method, path, body === null ? undefined : body); return null; }
  catch (e) { return {status: e.status, code: e.code, message: e.message, says: api.says(e)}; }
}"""


def ask(page: Page, method: str, path: str, body: Any = None) -> dict[str, Any]:
    out = page.evaluate(ASK, [method, path, body])
    assert out is not None, f"{method} {path} was not refused"
    return dict(out)


def test_each_409_is_worded_by_its_code_not_by_its_status(phone: Page, server: LiveServer) -> None:
    token = server.pair("set-up")
    gid = server.post("/api/v1/games", {"variant": "gin", "players": ["Ann", "Bob"]}, token)["id"]
    undo = ask(phone, "POST", f"/api/v1/games/{gid}/undo", {})
    assert (undo["status"], undo["code"]) == (409, "nothing_to_undo")
    assert undo["says"] == "There is nothing to undo in this game."
    stale = ask(phone, "POST", f"/api/v1/games/{gid}/hands", {"ender": 0, "deadwood": [0, 20], "expected_version": 7})
    assert (stale["status"], stale["code"]) == (409, "stale_version")
    assert stale["says"].startswith("The game changed on another phone first")
    assert undo["says"] != stale["says"]  # one status, two codes, two sentences
    while not server.get(f"/api/v1/games/{gid}")["finished"]:
        server.post(f"/api/v1/games/{gid}/hands", {"ender": 0, "deadwood": [0, 90]}, token)
    over = ask(phone, "POST", f"/api/v1/games/{gid}/hands", {"ender": 0, "deadwood": [0, 20]})
    assert (over["status"], over["code"]) == (409, "finished") and over["says"].startswith("This match is over")
    # a code the table does not list: the server's message, which names the rule
    bad = ask(phone, "POST", f"/api/v1/games/{gid}/hands/preview", {"ender": 7, "deadwood": [0, 20]})
    assert bad["code"] not in phone.evaluate("async () => Object.keys((await import('/js/api.js')).WORDS)")
    assert bad["says"] == bad["message"] and "ender" in bad["says"]


def test_every_code_in_the_table_is_one_the_companion_sends() -> None:
    text = (ROOT / "companion" / "web" / "js" / "api.js").read_text(encoding="utf-8")
    table = text[text.index("export const WORDS"):text.index("};", text.index("export const WORDS"))]
    codes = re.findall(r"^\s+([a-z_]+):", table, re.M)
    assert len(codes) > 20
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "companion").rglob("*.py"))
    missing = [c for c in codes if f'"{c}"' not in source]
    assert missing == [], f"codes the server never sends: {missing}"


def test_a_body_that_is_not_the_contracts_error_is_named_by_its_status(phone: Page) -> None:
    """A proxy's answer, or FastAPI's bare ``{"detail"}`` (which the companion rewrites, so it
    never reaches a phone from it): the status names it; nothing is read out of ``detail``."""
    def fulfil(route: Route) -> None:
        if route.request.url.endswith("/detail"):
            route.fulfill(status=409, content_type="application/json", body='{"detail": "the game changed"}')
        elif route.request.url.endswith("/text"):
            route.fulfill(status=502, content_type="text/html", body="<h1>Bad Gateway</h1>")
        else:
            route.fulfill(status=409, content_type="application/json",
                          body='{"error": {"code": "brand_new", "message": "words from the server", "details": {}}}')

    phone.route("**/api/v1/fake/*", fulfil)
    detail = ask(phone, "GET", "/api/v1/fake/detail")
    assert (detail["code"], detail["message"]) == ("http_409", "the companion answered 409")
    assert "changed" not in detail["says"]
    text = ask(phone, "GET", "/api/v1/fake/text")
    assert (text["code"], text["says"]) == ("http_502", "the companion answered 502")
    new = ask(phone, "GET", "/api/v1/fake/code")
    assert (new["code"], new["says"]) == ("brand_new", "words from the server")
