"""Per-address limits on guessing: the pairing code and the host code.

Each client address may get ``limit`` wrong codes within ``window`` seconds; after that
every try from that address, the right code too, waits (429 with ``Retry-After``) until
the oldest of those failures is ``window`` seconds old. Other addresses are not
affected, so one device on the Wi-Fi cannot stop the other phones from pairing.

IPv6 addresses count per /64 network (a device picks any address in its /64 at will);
an IPv4 address mapped into IPv6 counts as the IPv4 address.

>>> clock = [0.0]
>>> t = AddressThrottle(limit=2, window=60, clock=lambda: clock[0])
>>> t.failed("10.0.0.5"); t.failed("10.0.0.5")
>>> t.retry_after("10.0.0.5"), t.retry_after("10.0.0.6")
(60, None)
>>> clock[0] = 59.5; t.retry_after("10.0.0.5")
1
>>> clock[0] = 60.0; t.retry_after("10.0.0.5") is None
True
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable


def address_key(address: str | None) -> str:
    """The key an address is counted under.

    >>> address_key("2001:db8:1:2:aa:bb:cc:dd"), address_key("::ffff:192.168.1.9"), address_key(None)
    ('2001:db8:1:2::/64', '192.168.1.9', 'unknown')
    """
    if not address:
        return "unknown"
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip), 64), strict=False))
    return str(ip)


class AddressThrottle:
    """Failures per client address in a sliding window (thread-safe).

    At most ``max_addresses`` addresses are remembered; the ones that failed longest
    ago are forgotten first, so a flood of addresses cannot fill the memory.
    """

    def __init__(self, limit: int = 10, window: float = 60.0, *, max_addresses: int = 4096,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if limit < 1 or not window > 0:
            raise ValueError("a throttle needs limit >= 1 and window > 0")
        self.limit = limit
        self.window = float(window)
        self.max_addresses = max_addresses
        self._clock = clock
        self._lock = threading.Lock()
        self._fails: OrderedDict[str, deque[float]] = OrderedDict()

    def _recent(self, key: str, now: float) -> deque[float] | None:
        times = self._fails.get(key)
        if times is None:
            return None
        while times and now - times[0] >= self.window:
            times.popleft()
        if not times:
            del self._fails[key]
            return None
        return times

    def retry_after(self, address: str | None) -> int | None:
        """Whole seconds this address must wait, or None when it may try now."""
        key = address_key(address)
        with self._lock:
            now = self._clock()
            times = self._recent(key, now)
            if times is None or len(times) < self.limit:
                return None
            wait = times[-self.limit] + self.window - now
        return max(1, math.ceil(wait))

    def failed(self, address: str | None) -> None:
        """Count one wrong code from ``address``."""
        key = address_key(address)
        with self._lock:
            now = self._clock()
            times = self._recent(key, now)
            if times is None:
                times = self._fails[key] = deque(maxlen=self.limit)
            times.append(now)
            self._fails.move_to_end(key)
            while len(self._fails) > self.max_addresses:
                self._fails.popitem(last=False)

    def forget(self, address: str | None) -> None:
        """Clear an address's failures."""
        with self._lock:
            self._fails.pop(address_key(address), None)

    @property
    def locked(self) -> list[str]:
        """The addresses (keys) that must wait now."""
        with self._lock:
            now = self._clock()
            return [k for k in list(self._fails) if (t := self._recent(k, now)) is not None and len(t) >= self.limit]


def refuse_if_locked(throttle: AddressThrottle | None, address: str | None, what: str) -> None:
    """Raise 429 ``too_many_attempts`` with ``Retry-After`` when ``address`` must wait."""
    if throttle is None:
        return
    wait = throttle.retry_after(address)
    if wait is not None:
        from companion.api.errors import ApiError

        raise ApiError(429, "too_many_attempts",
                       f"too many wrong {what} from this device: wait {wait} seconds and try again "
                       "(other phones are not affected)", {"Retry-After": str(wait)})
