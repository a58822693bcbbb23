"""Helpers for the browser tests: the real service in a subprocess, headless Chromium.

The service is started by the one live-server launcher (:mod:`tests.live_server`) as
``gingo serve`` on 127.0.0.1 (a free port, a temporary data directory, a fixed pairing
code) and stopped with SIGTERM; it can be restarted on the same port and data directory
to test a lost connection.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.live_server import ROOT, LiveServer, free_port

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "CODE", "HOST_CODE", "PHONE", "ROOT", "TIMEOUT_MS", "Server", "doc_shot",
           "free_port", "phone_page", "steady_box"]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
CODE = "1234"
HOST_CODE = "host-5678"
TIMEOUT_MS = 20000  # what a page and expect() wait for, at most (a loaded 2-core machine)


#: an init script that records everything the page's live region says (``window.__said``)
SAID = """
window.__said = [];
document.addEventListener("DOMContentLoaded", () => {
  const el = document.getElementById("announcer");
  if (el) new MutationObserver(() => { if (el.textContent) window.__said.push(el.textContent); })
    .observe(el, { childList: true, characterData: true, subtree: true });
});
"""


@contextmanager
def phone_page(browser: Browser, width: int = PHONE["width"], height: int = PHONE["height"], *,
               name: str = "the page", init: Sequence[str] = (), **context: Any) -> Iterator[Page]:
    """A page in a browser context of its own: phone-sized, touch, waiting up to
    TIMEOUT_MS. ``init``: scripts run before the page's own (a token in localStorage);
    ``context``: more of ``Browser.new_context``'s options. The context is closed
    afterwards, and the test fails if JavaScript threw on the page (``name`` says which
    page, when a test has several)."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1, has_touch=True,
                              **context)
    for script in init:
        ctx.add_init_script(script)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors on {name}: {errors}"


def Server(data: Path, port: int | None = None, env: dict[str, str] | None = None) -> LiveServer:  # noqa: N802
    """The live-server launcher with the browser tests' pairing and host codes (``env``:
    more of the service's environment, e.g. GINGO_BOT_DELAY).

    The pairing code stays good for a day, not the service's 10 minutes: one server serves
    a whole test module, which on a loaded 2-core machine can run longer than that (the
    expiry itself is tested in tests/test_security.py)."""
    return LiveServer(data, port, code=CODE, host_code=HOST_CODE, env={"GINGO_PAIRING_WINDOW": "86400", **(env or {})})


def steady_box(page: Any, selector: str, tries: int = 20) -> dict[str, float]:
    """The on-screen box of the first element matching ``selector``, once it holds still.

    The page draws a screen again whenever the game changes (the live channel, a bot's
    move), so an element can be replaced between becoming visible and being measured
    (Playwright then gives no box): measure whichever element is there, a few times."""
    for _ in range(tries):
        el = page.locator(selector).first
        el.wait_for(state="visible")
        box = el.bounding_box()
        if box is not None:
            return dict(box)
        page.wait_for_timeout(50)
    raise AssertionError(f"{selector} kept being replaced before it could be measured")


# The bars that stay on screen (sticky or fixed) would land mid-page in a full-page shot.
_SHOT_PREP = """([full]) => {
  const kept = [];
  const set = (sel, prop, value) => { for (const e of document.querySelectorAll(sel)) {
    kept.push([e, prop, e.style.getPropertyValue(prop), e.style.getPropertyPriority(prop)]);
    e.style.setProperty(prop, value, 'important'); } };
  set('#toast', 'display', 'none');
  if (full) set('.topbar, .bottombar, .gin-banner, .watch-bar', 'position', 'static');
  window.__gingoShot = kept;
}"""
_SHOT_UNDO = """() => {
  for (const [e, prop, value, prio] of window.__gingoShot || []) {
    if (value) e.style.setProperty(prop, value, prio); else e.style.removeProperty(prop);
  }
  window.__gingoShot = null;
}"""


def doc_shot(page: Any, path: Path, full: bool = False) -> None:
    """A screenshot for docs/: the toast hidden and, in a full-page shot, the top and bottom
    bars where they sit in the page, all put back afterwards.

    The page's Content-Security-Policy refuses a stylesheet added to the page (Playwright's
    ``style=`` option is one), so the shot sets the elements' own style properties instead,
    which the policy allows."""
    path.parent.mkdir(parents=True, exist_ok=True)
    page.evaluate(_SHOT_PREP, [full])
    try:
        page.screenshot(path=str(path), full_page=full, animations="disabled")
    finally:
        page.evaluate(_SHOT_UNDO)
