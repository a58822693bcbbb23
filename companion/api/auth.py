"""Who may write: bearer tokens from pairing, and the host code for destructive calls."""


from fastapi import Request

from companion.api.errors import ApiError
from companion.api.throttle import AddressThrottle, refuse_if_locked
from companion.pairing import Pairing
from companion.store import TokenRecord


def _pairing(request: Request) -> Pairing:
    pairing: Pairing = request.app.state.pairing
    return pairing


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


async def require_token(request: Request) -> TokenRecord:
    """Dependency for every write: a valid bearer token, else 401."""
    token = bearer(request)
    if token is None:
        raise ApiError(401, "unauthorized", "this needs a paired phone: send 'Authorization: Bearer <token>' "
                                            "(get a token with POST /api/v1/pair and the pairing code)")
    rec = _pairing(request).check(token)
    if rec is None:
        raise ApiError(401, "unauthorized", "unknown or revoked token: pair this phone again")
    return rec


def client_address(request: Request) -> str | None:
    """The address the request came from (the TCP peer: forwarded-for headers are not trusted)."""
    return request.client.host if request.client is not None else None


async def require_host(request: Request) -> None:
    """Dependency for destructive and settings calls: the host code in ``X-Host-Code``.
    Ten wrong host codes from one address in a minute and that address waits (429)."""
    code = request.headers.get("x-host-code")
    if not code:
        raise ApiError(401, "host_code_required", "this needs the host code in the 'X-Host-Code' header "
                                                  "(printed when the companion starts)")
    throttle: AddressThrottle | None = getattr(request.app.state, "host_throttle", None)
    address = client_address(request)
    refuse_if_locked(throttle, address, "host codes")
    if not _pairing(request).is_host(code):
        if throttle is not None:
            throttle.failed(address)
        raise ApiError(401, "unauthorized", "wrong host code: read it from the companion's start-up output "
                                            "or its log ('journalctl -u gingo')")
