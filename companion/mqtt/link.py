"""One broker connection that comes back by itself (aiomqtt 2.5 on paho-mqtt 2).

:class:`BrokerLink` runs as one asyncio task in the service's event loop: it connects with
a Will, subscribes, calls ``on_connect`` and hands every message to ``on_message``. When
the broker is away it waits (``asyncio.sleep``: no thread, no polling) 1, 2, 4, 8 and then
``max_backoff`` seconds between tries (15 for Home Assistant, 5 for remote play), so it is
connected again within that many seconds of the broker coming back, and spends no CPU
meanwhile.

aiomqtt is the optional ``[mqtt]`` extra: it is imported only when a link starts.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from companion.mqtt.settings import BrokerSettings

log = logging.getLogger(__name__)

#: the longest wait between two tries to reach the broker, in seconds (Home Assistant's
#: link; remote play, where a game waits on it, tries every :data:`REMOTE_BACKOFF` seconds)
MAX_BACKOFF = 15.0
REMOTE_BACKOFF = 5.0
KEEPALIVE = 20

OnConnect = Callable[[Any], Awaitable[None]]
OnMessage = Callable[[Any], Awaitable[None]]


async def cancel_all(tasks: Sequence[asyncio.Task[Any]]) -> None:
    """Cancel ``tasks`` and wait for each to end; a task that ends with an error is
    ending anyway (the adapter is stopping), so the error is dropped."""
    for task in tasks:
        task.cancel()
    for task in tasks:
        try:
            await task
        except (asyncio.CancelledError, Exception):
            pass


class MqttMissing(RuntimeError):
    """The ``[mqtt]`` extra is not installed."""


def client_module() -> Any:
    """aiomqtt, or :class:`MqttMissing` saying how to install it."""
    try:
        import aiomqtt
    except ImportError:
        raise MqttMissing("MQTT is configured but aiomqtt is not installed: "
                          "pip install 'gingo-companion[mqtt]' (or remove the [mqtt] and [remote] sections)") from None
    return aiomqtt


def tls_context(broker: BrokerSettings) -> ssl.SSLContext | None:
    """The TLS context of ``broker``: the certificate and host name checked against its CA
    file (or the system's CAs); None without TLS."""
    if not broker.tls:
        return None
    ctx = ssl.create_default_context(cafile=broker.ca)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    return ctx


class BrokerLink:
    """A connection to ``broker`` (see the module docstring). ``will``: ``(topic, payload)``
    sent retained by the broker if this side vanishes; ``status`` is ``"offline"`` until
    connected and again whenever the link drops."""

    def __init__(self, broker: BrokerSettings, *, name: str, client_id: str, will: tuple[str, bytes] | None,
                 subscriptions: Sequence[str], on_connect: OnConnect, on_message: OnMessage,
                 clean_session: bool = True, on_status: Callable[[str], None] | None = None,
                 max_backoff: float = MAX_BACKOFF) -> None:
        self.broker = broker
        self.name = name
        self.client_id = client_id
        self.will = will
        self.subscriptions = tuple(subscriptions)
        self.on_connect = on_connect
        self.on_message = on_message
        self.clean_session = clean_session
        self.on_status = on_status
        self.max_backoff = max_backoff
        self.client: Any = None
        self.status = "offline"
        self.last_error: str | None = None
        self.connects = 0
        self._task: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"gingo-mqtt-{self.name}")

    async def stop(self, last: Callable[[Any], Awaitable[None]] | None = None) -> None:
        """``last(client)`` first while connected (the explicit ``offline``: a normal
        disconnect sends no Will), then close."""
        if last is not None and self.client is not None and self.status == "online":
            try:
                await asyncio.wait_for(last(self.client), 3)
            except Exception as exc:
                log.info("%s: could not say goodbye to the broker (%s)", self.name, exc)
        if self._task is not None:
            await cancel_all([self._task])
            self._task = None

    def _set_status(self, status: str) -> None:
        changed = status != self.status
        self.status = status
        if changed and self.on_status is not None:
            try:
                self.on_status(status)
            except Exception:
                log.exception("%s: a status listener failed", self.name)

    async def wait_connected(self, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self._connected.wait(), timeout)
        except asyncio.TimeoutError:
            return False
        return True

    async def _run(self) -> None:
        aiomqtt = client_module()
        backoff = 1.0
        while True:
            will = None if self.will is None else aiomqtt.Will(self.will[0], self.will[1], qos=1, retain=True)
            client = aiomqtt.Client(self.broker.host, self.broker.port, username=self.broker.username,
                                    password=self.broker.password, identifier=self.client_id, will=will,
                                    keepalive=KEEPALIVE, clean_session=self.clean_session,
                                    tls_context=tls_context(self.broker), timeout=10,
                                    # small messages at once, not held back by Nagle's algorithm
                                    # (with the peer's delayed ACK, ~40 ms a round trip on Linux)
                                    socket_options=((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),),
                                    logger=logging.getLogger(f"{__name__}.{self.name}.paho"))
            try:
                async with client:
                    self.client = client
                    for topic in self.subscriptions:
                        await client.subscribe(topic, qos=1)
                    self._set_status("online")
                    self.last_error = None
                    self.connects += 1
                    self._connected.set()
                    backoff = 1.0
                    log.info("%s: connected to %s:%s", self.name, self.broker.host, self.broker.port)
                    await self.on_connect(client)
                    async for message in client.messages:
                        try:
                            await self.on_message(message)
                        except Exception:  # one bad message must not drop the link
                            log.exception("%s: a message on %s could not be handled", self.name, message.topic)
            except aiomqtt.MqttError as exc:
                if self.status == "online" or self.last_error != str(exc):
                    log.warning("%s: broker %s:%s unreachable (%s); trying again in %.0f s",
                                self.name, self.broker.host, self.broker.port, exc, backoff)
                self.last_error = str(exc)
            except ssl.SSLError as exc:
                self.last_error = f"TLS: {exc}"
                log.warning("%s: TLS with %s failed (%s)", self.name, self.broker.host, exc)
            finally:
                self.client = None
                self._set_status("offline")
                self._connected.clear()
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, self.max_backoff)


__all__ = ["BrokerLink", "MqttMissing", "MAX_BACKOFF", "REMOTE_BACKOFF", "client_module", "tls_context"]
