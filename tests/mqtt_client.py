"""A plain MQTT client for the tests (paho-mqtt 2, the engine under aiomqtt): what Home
Assistant or a curious neighbour would see on the broker, and a way to publish as them."""

from __future__ import annotations

import json
import ssl
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import paho.mqtt.client as paho


@dataclass(frozen=True)
class Message:
    topic: str
    payload: bytes
    retain: bool
    at: float

    def json(self) -> Any:
        return json.loads(self.payload)

    @property
    def text(self) -> str:
        return self.payload.decode("utf-8", "replace")


class Watcher:
    """Connects to 127.0.0.1:``port``, subscribes to ``topics`` and keeps every message."""

    def __init__(self, port: int, topics: tuple[str, ...] = ("#",), *, username: str | None = None,
                 password: str | None = None, ca: Path | None = None, client_id: str = "") -> None:
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=paho.MQTTv311)
        if username is not None:
            self.client.username_pw_set(username, password)
        if ca is not None:
            self.client.tls_set(ca_certs=str(ca), cert_reqs=ssl.CERT_REQUIRED)
        self.messages: list[Message] = []
        self.refused: Any = None
        self._cond = threading.Condition()
        self._connected = threading.Event()
        self._subscribed = threading.Event()
        self.topics = topics
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *a: self._subscribed.set()
        self.port = port

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            self.refused = reason
            self._connected.set()
            return
        if self.topics:
            client.subscribe([(t, 1) for t in self.topics])
        else:
            self._subscribed.set()
        self._connected.set()

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        with self._cond:
            self.messages.append(Message(msg.topic, bytes(msg.payload), bool(msg.retain), time.monotonic()))
            self._cond.notify_all()

    def start(self, timeout: float = 10.0) -> Watcher:
        self.client.connect("127.0.0.1", self.port, keepalive=30)
        self.client.loop_start()
        if not self._connected.wait(timeout):
            raise AssertionError("the test client could not connect")
        if self.refused is not None:
            raise ConnectionRefusedError(str(self.refused))
        if not self._subscribed.wait(timeout):
            raise AssertionError("the test client's subscription was not acknowledged")
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def __enter__(self) -> Watcher:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def publish(self, topic: str, payload: bytes | str, *, retain: bool = False, qos: int = 1) -> None:
        info = self.client.publish(topic, payload, qos=qos, retain=retain)
        info.wait_for_publish(10)

    def on(self, topic: str) -> list[Message]:
        with self._cond:
            return [m for m in self.messages if m.topic == topic]

    def wait_for(self, check: Callable[[Message], bool], timeout: float = 10.0, *, after: float = 0.0,
                 what: str = "a message") -> Message:
        """The first message (received after monotonic time ``after``) that passes ``check``."""
        end = time.monotonic() + timeout
        with self._cond:
            while True:
                for m in self.messages:
                    if m.at >= after and check(m):
                        return m
                left = end - time.monotonic()
                if left <= 0:
                    seen = sorted({m.topic for m in self.messages})
                    raise AssertionError(f"no {what} in {timeout} s; topics seen: {seen}")
                self._cond.wait(left)

    def wait_topic(self, topic: str, timeout: float = 10.0, *, after: float = 0.0,
                   check: Callable[[Message], bool] = lambda m: True) -> Message:
        return self.wait_for(lambda m: m.topic == topic and check(m), timeout, after=after, what=f"message on {topic}")


def try_connect(port: int, *, username: str | None = None, password: str | None = None, ca: Path | None = None,
                timeout: float = 10.0) -> str:
    """Connect once and say how it went: "ok", or why not (refused, TLS failure)."""
    w = Watcher(port, (), username=username, password=password, ca=ca)
    try:
        w.start(timeout)
    except ConnectionRefusedError as exc:
        return f"refused: {exc}"
    except (ssl.SSLError, OSError, AssertionError) as exc:
        return f"failed: {exc}"
    w.stop()
    return "ok"
