"""Markers come from what a test uses (tests/conftest.py's ``brings``), not from a name:
a test reaching a fixture that brings ``live`` (directly or through another fixture) is
``live``; a test with a fixture merely *called* ``server`` is not. Run by pytest's own
pytester in a scratch folder, with a fixture that starts nothing."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]


def test_markers_follow_the_fixtures_a_test_uses(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nmarkers =\n    live: starts the service\n")
    pytester.makeconftest('''
import pytest
from tests.conftest import brings, pytest_collection_modifyitems  # noqa: F401  (the hook under test)

@pytest.fixture
@brings("live")
def anything_called():
    return 1

@pytest.fixture
def through(anything_called):
    return anything_called

@pytest.fixture
def server():  # the old rule's name, bringing nothing
    return 2
''')
    pytester.makepyfile(test_uses='''
def test_direct(anything_called): pass
def test_through_another(through): pass
def test_a_fixture_named_server(server): pass
def test_nothing(): pass
''')
    live = pytester.runpytest("-m", "live", "-v", "-p", "no:cacheprovider", "--strict-markers")
    live.assert_outcomes(passed=2, deselected=2)
    live.stdout.fnmatch_lines(["*test_direct PASSED*", "*test_through_another PASSED*"])
    rest = pytester.runpytest("-m", "not live", "-v", "-p", "no:cacheprovider", "--strict-markers")
    rest.assert_outcomes(passed=2, deselected=2)
    rest.stdout.fnmatch_lines(["*test_a_fixture_named_server PASSED*", "*test_nothing PASSED*"])
