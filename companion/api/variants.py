"""``GET /api/v1/variants``: every variant, its presets and every option with its
default, help text and choices, read from the rules modules' ``Options`` dataclasses."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from companion.table import VARIANTS, TableError, rules_module


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return "choice"
    if tp in (bool, "bool"):
        return "bool"
    if tp in (int, "int"):
        return "int"
    if tp in (float, "float"):
        return "float"
    if tp in (str, "str"):
        return "str"
    return str(getattr(tp, "__name__", tp))


def _jsonable(v: Any) -> Any:
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    return str(v)


def describe_variant(name: str) -> dict[str, Any]:
    """One variant's description (raises TableError when its module is missing)."""
    mod = rules_module(name)
    out: dict[str, Any] = {"name": name, "presets": {}, "default_preset": getattr(mod, "DEFAULT_PRESET", None),
                           "options": [], "players": list(getattr(mod, "PLAYERS", (2, 4) if name == "gingo" else ()))}
    opts_cls: Any = getattr(mod, "Options", None)
    if opts_cls is not None and dataclasses.is_dataclass(opts_cls):
        try:
            hints = typing.get_type_hints(opts_cls)
        except Exception:
            hints = {}
        defaults = typing.cast(Any, opts_cls)() if all(
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
            for f in dataclasses.fields(opts_cls)
        ) else None
        for f in dataclasses.fields(opts_cls):
            tp = hints.get(f.name, f.type)
            meta = dict(f.metadata)
            choices = meta.get("choices")
            if choices is None and typing.get_origin(tp) is typing.Literal:
                choices = list(typing.get_args(tp))
            out["options"].append({
                "name": f.name,
                "type": _type_name(tp),
                "default": _jsonable(getattr(defaults, f.name)) if defaults is not None else None,
                "help": str(meta.get("help", "")),
                "choices": _jsonable(choices) if choices is not None else None,
            })
    presets = getattr(mod, "PRESETS", {}) or {}
    for pname, popts in presets.items():
        is_instance = dataclasses.is_dataclass(popts) and not isinstance(popts, type)
        out["presets"][pname] = _jsonable(dataclasses.asdict(popts) if is_instance else popts)
    return out


def describe_variants() -> dict[str, Any]:
    """Every installed variant (missing ones are listed under ``unavailable``)."""
    found: list[dict[str, Any]] = []
    missing: list[dict[str, str]] = []
    for name in VARIANTS:
        try:
            found.append(describe_variant(name))
        except TableError as exc:
            missing.append({"name": name, "reason": exc.message})
    return {"variants": found, "unavailable": missing}
