"""Which rules engine serves each variant, and a game's options built with it."""

from __future__ import annotations

import dataclasses
import importlib
from types import ModuleType
from typing import Any

from companion.table.errors import TableError

RUMMY_VARIANTS: tuple[str, ...] = ("gin", "color_gin", "ginski")
#: variants whose hand score depends on the hands before it (closed suits)
CONTEXT_VARIANTS: frozenset[str] = frozenset({"color_gin"})
VARIANTS: tuple[str, ...] = RUMMY_VARIANTS + ("gingo",)

_MODULES: dict[str, ModuleType] = {}


def rules_module(variant: str) -> ModuleType:
    """The rules module of a variant (imported on first use).

    >>> rules_module("gingo").__name__
    'companion.rules.gingo'
    """
    mod = _MODULES.get(variant)
    if mod is not None:
        return mod
    if variant not in VARIANTS:
        raise TableError("unknown_variant", f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    try:
        mod = _MODULES[variant] = importlib.import_module(f"companion.rules.{variant}")
    except ImportError as exc:
        raise TableError("unavailable", f"the {variant} rules are not installed ({exc})", 501) from None
    return mod



def options_dict(options: Any) -> dict[str, Any]:
    if dataclasses.is_dataclass(options) and not isinstance(options, type):
        return dataclasses.asdict(options)
    if isinstance(options, dict):
        return dict(options)
    return {}


def make_options(variant: str, preset: str | None, overrides: dict[str, Any], players: int) -> Any:
    mod = rules_module(variant)
    try:
        if variant == "gingo":
            if preset is not None:
                raise ValueError(f"Gin-Go has no presets (got preset {preset!r}); set options instead")
            return mod.make_options(players, overrides)
        fields = {f.name for f in dataclasses.fields(mod.Options)}
        if "players" in fields and "players" not in overrides:
            overrides = {**overrides, "players": players}
        return mod.make_options(preset, **overrides)
    except TypeError as exc:
        raise TableError("invalid_options", f"{variant} options: {exc}") from None
    except TableError:
        raise
    except ValueError as exc:
        raise TableError("invalid_options", f"{variant} options: {exc}") from None

