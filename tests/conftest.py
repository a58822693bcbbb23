"""Shared test set-up. Area-specific fixtures live beside their tests; the one launcher
for a live server is :mod:`tests.live_server`."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

# gpiozero must never look for real pins in the tests.
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that takes the ``server`` fixture talks to the real service: it is ``live``
    (left out of ``make test-fast``) wherever it is written."""
    for item in items:
        if "server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.live)


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
