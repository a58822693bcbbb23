"""What a route needs from the running service, as FastAPI dependencies.

:func:`companion.api.app.create_app` keeps the table, pairing, board sync and live hub on
``app.state``; routes ask for them here instead of closing over them, so each resource's
routes live in their own module under :mod:`companion.api.routes`.

They are ``async``: FastAPI runs a plain ``def`` dependency in a worker thread, one
thread hop per dependency per request for what is an attribute read.
"""


from typing import Annotated, Any

from fastapi import Depends, Request

from companion.api.live import LiveHub
from companion.pairing import Pairing
from companion.table import Table


async def get_table(request: Request) -> Table:
    table: Table = request.app.state.table
    return table


async def get_pairing(request: Request) -> Pairing:
    pairing: Pairing = request.app.state.pairing
    return pairing


async def get_sync(request: Request) -> Any:
    """The :class:`~companion.hardware.sync.BoardSync`, or None when the companion runs without a board."""
    return request.app.state.sync


async def get_hub(request: Request) -> LiveHub:
    hub: LiveHub = request.app.state.hub
    return hub


TableDep = Annotated[Table, Depends(get_table)]
PairingDep = Annotated[Pairing, Depends(get_pairing)]
SyncDep = Annotated[Any, Depends(get_sync)]
HubDep = Annotated[LiveHub, Depends(get_hub)]
