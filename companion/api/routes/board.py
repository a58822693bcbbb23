"""The board: ``/api/v1/board`` (expected against sensed), the simulator's
``/api/v1/board/sim`` and the simulated strip's ``/api/v1/leds``."""


from typing import Any

from fastapi import APIRouter, Depends

from companion.api import models as M
from companion.api.auth import require_token
from companion.api.deps import SyncDep, TableDep
from companion.api.errors import ApiError
from companion.api.routes import ERRORS
from companion.boardview import board_view

router = APIRouter(tags=["board"])


@router.get("/api/v1/board", response_model=M.Board)
def board(table: TableDep, sync: SyncDep) -> dict[str, Any]:
    """Expected and sensed boards, every mismatch, and both sides' links."""
    if sync is None:
        return board_view(table.active_gingo(), None)
    view: dict[str, Any] = sync.state()
    return view


@router.post("/api/v1/board/sim", response_model=M.SimPut, responses=ERRORS, dependencies=[Depends(require_token)])
def board_sim(body: M.SimPut, sync: SyncDep) -> dict[str, Any]:
    """Simulator only: put a chip of a side on a space, or lift it (side null)."""
    if sync is None:
        raise ApiError(409, "not_simulated", "this companion has no simulated board")
    done: dict[str, Any] = sync.put_sim(body.space, body.side)
    return done


@router.get("/api/v1/leds", response_model=M.LedFrame, responses={404: {"model": M.ErrorBody}})
def leds(sync: SyncDep) -> dict[str, Any]:
    """The last LED frame (simulated strip only): one [r, g, b] per LED."""
    strip = getattr(sync, "leds", None)
    if strip is None or not hasattr(strip, "pixels"):
        raise ApiError(404, "not_simulated", "no simulated LED strip to read")
    return {"pixels": [list(p) for p in strip.pixels()]}
