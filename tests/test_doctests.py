"""Every docstring example in the package runs: each module's doctests, one test per
module (modules that need hardware this machine lacks, such as rpi_ws281x, are skipped
with the reason)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import companion

MODULES = sorted(m.name for m in pkgutil.walk_packages(companion.__path__, "companion."))


def test_every_module_is_listed() -> None:
    assert "companion.boardview" in MODULES and "companion.api.routes.games" in MODULES
    assert len(MODULES) > 60


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ImportError as exc:  # a Pi-only library
        pytest.skip(f"{name} needs {exc.name or exc} (not on this machine)")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False, report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed (see above)"
