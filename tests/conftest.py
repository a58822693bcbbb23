"""Shared test set-up: the live server, the browser and the helpers every area uses.

- ``server``: ``gingo serve`` on 127.0.0.1 for one test module (its own data folder, the
  browser tests' pairing and host codes, :func:`tests.web_helpers.Server`), launched by
  the one launcher, :mod:`tests.live_server`. A module asks for more of the service's
  environment with ``pytest.mark.serve(env={"GINGO_BOT_DELAY": "0"})``.
- ``browser``: Debian's headless Chromium (/usr/bin/chromium) through Playwright, one per
  module; :func:`tests.web_helpers.phone_page` makes a phone-sized page of it.
- :func:`wait_for`: poll a real condition, bounded.

Markers come from what a test uses, not from how anything is named: a fixture declares
the markers it brings with :func:`brings`, and every test whose fixtures include that
fixture (directly or through another fixture) gets them at collection, so that
``-m "not live"`` and ``-m "not browser"`` leave it out.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

from tests.live_server import LiveServer
from tests.web_helpers import CHROMIUM, CHROMIUM_ARGS, Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

# gpiozero must never look for real pins in the tests.
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

F = TypeVar("F", bound=Callable[..., Any])
_BRINGS = "_gingo_brings"  # the attribute brings() sets on a fixture's function


def brings(*markers: str) -> Callable[[F], F]:
    """Declare the markers every test using the decorated fixture gets (put it under
    ``@pytest.fixture``). A fixture elsewhere (one that restarts its own server per
    test, say) declares ``@brings("live")`` the same way."""
    def tag(fn: F) -> F:
        setattr(fn, _BRINGS, tuple(markers))
        return fn
    return tag


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test gets the markers of the fixtures it uses (see :func:`brings`): keyed on
    the fixture's own function, whatever the fixture is called or however it is reached."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:  # not a Python test function (a doctest item)
            continue
        wanted: set[str] = set()
        for defs in info.name2fixturedefs.values():
            for fixturedef in defs:
                wanted.update(getattr(fixturedef.func, _BRINGS, ()))
        for name in sorted(wanted):
            item.add_marker(name)


def wait_for(check: Callable[[], object], timeout: float = 5.0, what: str | None = None, *,
             every: float = 0.01) -> bool:
    """Poll ``check`` every ``every`` seconds until it holds (the real condition, never a
    bare sleep), at most ``timeout`` seconds. Without ``what``: whether it held (checked a
    last time at the end). With ``what``: AssertionError naming it if it never held.

    >>> wait_for(lambda: True)
    True
    >>> wait_for(lambda: False, 0.05)
    False
    """
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(every)
    held = bool(check())
    if not held and what is not None:
        raise AssertionError(f"timed out after {timeout} s waiting for {what}")
    return held


@pytest.fixture(scope="module")
@brings("live")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The real service for this module (see the module docstring); stopped (SIGTERM, then
    SIGKILL) after the module's last test, even when one failed."""
    mark = request.node.get_closest_marker("serve")
    env = dict(mark.kwargs.get("env", {})) if mark is not None else {}
    name = request.module.__name__.rsplit(".", 1)[-1].removeprefix("test_")
    srv = Server(Path(tmp_path_factory.mktemp(f"{name}-data")), env=env)
    try:
        yield srv.start()
    finally:
        srv.stop()


@pytest.fixture(scope="module")
@brings("browser")
def browser() -> Iterator[Browser]:
    """Debian's headless Chromium for this module (never a browser download)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


_PYTEST_OWN = {"PYTEST_CURRENT_TEST"}  # pytest itself sets this one around each test


@pytest.fixture(autouse=True)
def _no_environment_leaks(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test may change ``os.environ`` only through ``monkeypatch`` (undone before this
    check runs): anything else it leaves behind would change every later test in the same
    process (with xdist, whichever tests share its worker). The leak fails the test that
    made it, and the environment is put back."""
    before = dict(os.environ)
    yield
    after = dict(os.environ)
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k) and k not in _PYTEST_OWN)
    if not changed:
        return
    os.environ.clear()
    os.environ.update(before)
    pytest.fail(f"{request.node.nodeid} left environment variables changed: {', '.join(changed)} "
                "(use monkeypatch.setenv, or pass env= to the subprocess)", pytrace=False)
