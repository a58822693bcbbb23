"""Pairing a phone and managing its token: ``/api/v1/pair`` and ``/api/v1/tokens``."""


from typing import Any

from fastapi import APIRouter, Depends, Query, Request

from companion.api import models as M
from companion.api.auth import client_address, require_host, require_token
from companion.api.deps import HubDep, PairingDep
from companion.api.errors import ApiError
from companion.api.routes import ERRORS, HOST_ERRORS, PAIR_ERRORS
from companion.api.throttle import AddressThrottle, refuse_if_locked
from companion.pairing import PairingError
from companion.store import TokenRecord

router = APIRouter(tags=["pairing"])


@router.post("/api/v1/pair", response_model=M.PairResponse, responses=PAIR_ERRORS)
def pair(body: M.PairRequest, request: Request, pairing: PairingDep) -> dict[str, Any]:
    """Trade the pairing code for a bearer token. Ten wrong codes from one address in a
    minute and that address waits (429 with Retry-After); other addresses do not."""
    throttle: AddressThrottle = request.app.state.pair_throttle
    address = client_address(request)
    refuse_if_locked(throttle, address, "pairing codes")
    try:
        token = pairing.pair(body.code, body.name)
    except PairingError:
        throttle.failed(address)
        raise
    rec = pairing.check(token)
    assert rec is not None
    return {"token": token, "id": rec.id, "name": rec.name}


@router.get("/api/v1/pair/code", response_model=M.PairCode, responses=ERRORS, dependencies=[Depends(require_token)])
def pair_code(pairing: PairingDep) -> dict[str, Any]:
    """The pairing code for a paired phone to show a new one (``code`` null once expired)."""
    return pairing.code_status()


@router.post("/api/v1/pair/code", response_model=M.PairCode, responses=ERRORS)
def new_pair_code(pairing: PairingDep, rec: TokenRecord = Depends(require_token)) -> dict[str, Any]:
    """A new pairing code, good for the whole window, shown on this paired phone."""
    pairing.rotate(f"the paired phone {rec.name!r}")
    return pairing.code_status()


@router.post("/api/v1/pair/rotate", response_model=M.PairCode, responses=HOST_ERRORS,
             dependencies=[Depends(require_host)])
def rotate_pair_code(pairing: PairingDep) -> dict[str, Any]:
    """A new pairing code (host code): the old one stops working; paired phones keep working."""
    pairing.rotate("the host (POST /api/v1/pair/rotate)")
    return pairing.code_status()


@router.get("/api/v1/tokens", response_model=M.TokenList, responses=HOST_ERRORS,
            dependencies=[Depends(require_host)])
def tokens(pairing: PairingDep) -> dict[str, Any]:
    """Paired phones (host code)."""
    return {"tokens": [t.as_dict() for t in pairing.tokens()]}


@router.get("/api/v1/tokens/me", response_model=M.TokenInfo, responses=ERRORS)
def token_me(rec: TokenRecord = Depends(require_token)) -> dict[str, Any]:
    """This phone's own token (its bearer token): 401 once it is revoked."""
    return dict(rec.as_dict())


@router.delete("/api/v1/tokens/{token_id}", response_model=M.Deleted, responses=HOST_ERRORS,
               dependencies=[Depends(require_host)])
def revoke(token_id: str, pairing: PairingDep, hub: HubDep) -> dict[str, Any]:
    """Revoke a paired phone's token (host code); the live channel says so."""
    if not pairing.revoke(token_id):
        raise ApiError(404, "not_found", f"no token with id {token_id!r}")
    hub.publish({"type": "token_revoked", "id": token_id})
    return {"deleted": token_id}


@router.delete("/api/v1/tokens", response_model=M.Deleted, responses=HOST_ERRORS,
               dependencies=[Depends(require_host)])
def revoke_by_query(pairing: PairingDep, hub: HubDep,
                    id: str = Query(..., max_length=64, description="the token id from GET /api/v1/tokens"),
                    ) -> dict[str, Any]:
    """The same as ``DELETE /api/v1/tokens/{id}``."""
    return revoke(id, pairing, hub)
