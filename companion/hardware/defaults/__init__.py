"""The board's default TOML files, shipped inside the package.

``pinmap.toml`` (which GPIO does what) and ``led_layout.toml`` (which LED sits under
which space) are package data, read with :mod:`importlib.resources`, so a companion
installed from a wheel behaves exactly like one run from a checkout. A board built
differently points the config at its own copy (``leds.layout``); these stay the
reference.

>>> default_path("pinmap.toml").name
'pinmap.toml'
>>> read_default("led_layout.toml")["layout"]["leds"][:5]
['side1_1', 'side1_2', 'side1_3', 'side1_4', 3]
>>> default_path("wiring.toml")
Traceback (most recent call last):
...
ValueError: no packaged default named 'wiring.toml'; the defaults are led_layout.toml, pinmap.toml
"""

from __future__ import annotations

import tomllib
from importlib import resources
from importlib.abc import Traversable
from typing import Any

NAMES: tuple[str, ...] = ("led_layout.toml", "pinmap.toml")


def default_path(name: str) -> Traversable:
    """The packaged default file ``name`` (one of :data:`NAMES`)."""
    if name not in NAMES:
        raise ValueError(f"no packaged default named {name!r}; the defaults are {', '.join(NAMES)}")
    return resources.files(__name__).joinpath(name)


def read_default(name: str) -> dict[str, Any]:
    """The packaged default file ``name`` parsed as TOML."""
    with default_path(name).open("rb") as fh:
        return tomllib.load(fh)
