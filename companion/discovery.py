"""Finding the companion on the local network: addresses and mDNS.

The service is advertised over mDNS as ``gingo._http._tcp.local.`` with
python-zeroconf, so laptops and iPhones can open ``http://gingo.local:8000``. Many
Android browsers cannot resolve ``.local`` names, so the service also prints its IP
addresses (and a QR code of the first). Nothing here may stop the service: with no
network at all :func:`advertise` returns None and says why through ``warn``.

>>> addrs = local_addresses()
>>> all(isinstance(a, str) for a in addrs)
True
>>> url_for("192.168.1.20", 8000)
'http://192.168.1.20:8000/'
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

SERVICE_TYPE = "_http._tcp.local."
NAME = "gingo"


def local_addresses() -> list[str]:
    """The machine's non-loopback IPv4 addresses, best guess first (may be empty)."""
    found: list[str] = []
    try:  # the address used for the default route; no packet is sent
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = str(info[4][0])
            if addr not in found:
                found.append(addr)
    except OSError:
        pass
    return [a for a in found if not a.startswith("127.") and a != "0.0.0.0"]


def url_for(address: str, port: int) -> str:
    """The URL a phone opens."""
    return f"http://{address}:{port}/"


class Advertiser:
    """A running mDNS advertisement; :meth:`close` withdraws it."""

    def __init__(self, zc: Any, info: Any) -> None:
        self._zc = zc
        self._info = info

    def close(self) -> None:
        try:
            self._zc.unregister_service(self._info)
        except Exception:
            pass
        try:
            self._zc.close()
        except Exception:
            pass


def advertise(port: int, addresses: list[str] | None = None, *, name: str = NAME,
              warn: Callable[[str], None] = lambda msg: None) -> Advertiser | None:
    """Advertise ``name._http._tcp.local.`` on ``port``; None (and a warning) on failure."""
    addrs = addresses if addresses is not None else local_addresses()
    if not addrs:
        warn("mDNS not advertised: no network address found (phones can still use the IP address)")
        return None
    try:
        from zeroconf import ServiceInfo, Zeroconf

        info = ServiceInfo(
            SERVICE_TYPE,
            f"{name}.{SERVICE_TYPE}",
            addresses=[socket.inet_aton(a) for a in addrs],
            port=port,
            properties={"path": "/", "api": "/api/v1"},
            server=f"{name}.local.",
        )
        zc = Zeroconf()
        try:
            zc.register_service(info, allow_name_change=True)
        except Exception:
            zc.close()
            raise
        return Advertiser(zc, info)
    except Exception as exc:  # no multicast, no interface, name clash...
        warn(f"mDNS not advertised ({exc}); phones can still use the IP address")
        return None
