"""``/api/v1/health`` and ``/api/v1/variants``."""


import functools
from typing import Any

from fastapi import APIRouter, Request

from companion import __version__
from companion.api import models as M
from companion.api.deps import SyncDep, TableDep
from companion.api.variants import describe_variants

router = APIRouter(tags=["service"])

_variants = functools.lru_cache(maxsize=1)(describe_variants)


@router.get("/api/v1/health", response_model=M.Health)
def health(request: Request, table: TableDep, sync: SyncDep) -> dict[str, Any]:
    """Liveness and which LED and sensor backends run."""
    warn = list(request.app.state.warnings)
    storage = table.storage_health()
    warn += [w for w in storage["warnings"] if w not in warn]
    if sync is not None:
        warn += [w for w in sync.hardware_warnings() if w not in warn]
    return {
        "status": "ok",
        "version": __version__,
        "leds": sync.leds_name if sync is not None else "none",
        "sensors": sync.sensors_name if sync is not None else "offline",
        "seq": table.last_seq(),
        "warnings": warn,
        "calibration": getattr(request.app.state, "calibration", None),
        "storage": storage,
        "mqtt": _mqtt_status(request),
        "remote": _mqtt_status(request, "remote"),
    }


def _mqtt_status(request: Request, which: str = "mqtt") -> str:
    """``off`` (no ``[mqtt]`` / ``[remote]`` in the config), else ``online`` or ``offline``."""
    mqtt = getattr(request.app.state, which, None)
    return "off" if mqtt is None else str(mqtt.status)


@router.get("/api/v1/variants", response_model=M.VariantList)
def variants() -> dict[str, Any]:
    """Every variant with its presets and options (default, help, choices)."""
    return _variants()
