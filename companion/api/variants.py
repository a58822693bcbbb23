"""``GET /api/v1/variants``: every game of the registry (:mod:`companion.games`) as the
phone needs it: labels, seat counts, deck, hand sizes, presets in plain words and every
option with its default, help text and choices."""

from __future__ import annotations

from typing import Any

from companion.games import VARIANTS, find_variant


def describe_variant(name: str) -> dict[str, Any]:
    """One game's description (:class:`~companion.errors.UnknownVariant` for another name)."""
    return find_variant(name).describe()


def describe_variants() -> dict[str, Any]:
    """Every game; ``unavailable`` stays in the answer (empty) for clients of contract v1."""
    return {"variants": [v.describe() for v in VARIANTS.values()], "unavailable": []}
