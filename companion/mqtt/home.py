"""Home Assistant over MQTT: the board appears as a device, its game as entities.

:class:`HomeAssistant` is an adapter beside the API. It hears the table's change
notifications and the board's live messages (no polling), reads the table as the API does,
and publishes through one :class:`~companion.mqtt.link.BrokerLink`:

- at connect: the Will ``offline`` (retained) on ``gingo/<board_id>/availability``, then
  ``online`` (retained), the device-discovery message (not retained) and the states;
- on Home Assistant's birth message (``online`` on ``<prefix>/status``): the discovery
  again after a random delay of up to :data:`BIRTH_JITTER` seconds, then the states;
- on every change: the retained state, and the events (gin, link, hand scored, game over,
  chip mismatch) on the event entity's topic;
- with ``commands = true`` only: the LEDs' brightness (a JSON light) and the new hand /
  new game buttons. A command that is not JSON, too big, of the wrong shape or too
  frequent is ignored and logged, and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from typing import Any

from companion.mqtt import homeassistant as ha
from companion.mqtt.link import BrokerLink, cancel_all
from companion.mqtt.settings import MqttSettings

log = logging.getLogger(__name__)

#: seconds: the longest random wait before answering Home Assistant's birth message
BIRTH_JITTER = 3.0
#: bytes: a command payload longer than this is ignored (a light command is ~40 bytes)
MAX_COMMAND = 512
#: commands per :data:`RATE_WINDOW` seconds before more are ignored
RATE_LIMIT = 10
RATE_WINDOW = 10.0


class HomeAssistant:
    """The Home Assistant adapter of one board (see the module docstring)."""

    def __init__(self, settings: MqttSettings, board_id: str, table: Any, sync: Any, *,
                 version: str, url: str | None = None) -> None:
        self.settings = settings
        self.board_id = board_id
        self.table = table
        self.sync = sync
        self.version = version
        self.url = url
        self.topics = ha.Topics(board_id, settings.discovery_prefix)
        subs = [self.topics.birth]
        if settings.commands:
            subs += [self.topics.leds_set, self.topics.command("new_hand"), self.topics.command("new_game")]
        self.link = BrokerLink(settings, name="home-assistant", client_id=f"{board_id}-ha",
                               will=(self.topics.availability, b"offline"), subscriptions=subs,
                               on_connect=self._on_connect, on_message=self._on_message)
        self.ignored = 0
        self.discoveries = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._dirty: asyncio.Event | None = None
        self._events: asyncio.Queue[dict[str, Any]] | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self._unsubscribe: Any = None
        self._previous_publish: Any = None
        self._current: str | None = None
        self._last_game: dict[str, Any] | None = None
        self._board: dict[str, Any] | None = None
        self._mismatch = False
        self._last_brightness = 0.6
        self._commands: list[float] = []
        self._publishing: asyncio.Lock | None = None

    @property
    def status(self) -> str:
        """``online`` while connected to the broker, else ``offline``."""
        return self.link.status

    # -- running -------------------------------------------------------------------------

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._dirty = asyncio.Event()
        self._events = asyncio.Queue(maxsize=256)
        self._publishing = asyncio.Lock()
        latest = self.table.games_page(limit=1)["games"]
        self._current = latest[-1]["id"] if latest else None
        self._unsubscribe = self.table.subscribe(self._on_table)
        if self.sync is not None:
            self._previous_publish = self.sync.publish
            previous = self._previous_publish

            def fan(msg: dict[str, Any]) -> None:
                previous(msg)
                self._on_board(msg)

            self.sync.publish = fan
        self._tasks.append(self._loop.create_task(self._publisher(), name="gingo-ha-publisher"))
        self.link.start()

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

        async def goodbye(client: Any) -> None:
            await client.publish(self.topics.availability, b"offline", qos=1, retain=True)

        await self.link.stop(goodbye)
        await cancel_all(self._tasks)
        self._tasks.clear()

    # -- what changes (called from any thread) -------------------------------------------

    def _call(self, fn: Any, *args: Any) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:  # the loop is closing: nothing more to send
            pass

    def _wake(self) -> None:
        if self._dirty is not None:
            self._call(self._dirty.set)

    def _event(self, event: dict[str, Any]) -> None:
        def put() -> None:
            if self._events is not None and not self._events.full():
                self._events.put_nowait(event)
        self._call(put)

    def _on_table(self, ev: Any, msg: dict[str, Any]) -> None:
        game_id = getattr(ev, "game_id", None)
        if isinstance(game_id, str):
            self._current = game_id
        self._wake()

    def _on_board(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "board" and isinstance(msg.get("board"), dict):
            view = msg["board"]
            self._board = view
            mismatch = bool(view.get("mismatches"))
            if mismatch and not self._mismatch:
                self._event({"event_type": "chip_mismatch", "spaces": list(view.get("mismatches") or [])[:52]})
            self._mismatch = mismatch
            self._wake()
        elif kind == "link":
            if msg.get("formed"):
                self._event({"event_type": "link", "side": msg.get("side")})
            self._wake()
        elif kind == "sensors":
            self._wake()

    # -- publishing ------------------------------------------------------------------------

    def _snapshot(self) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
        """The state, the game's attributes and the events since the last snapshot (in a
        worker thread: the table's reads take its lock)."""
        game: dict[str, Any] | None = None
        if self._current is not None:
            try:
                game = self.table.game(self._current)
            except Exception:  # deleted or damaged: no current game
                game = None
        if game is not None and game.get("deleted"):
            game = None
        events = ha.events_between(self._last_game, game)
        self._last_game = game
        board = self.sync.state() if self.sync is not None else None
        online = self.sync is not None and self.sync.sensors_name != "offline"
        leds = getattr(self.sync, "leds", None)
        brightness = getattr(leds, "brightness", None)
        return (ha.state(game, board, sensors_online=online, brightness=brightness),
                ha.attributes(game), events)

    async def _publish_states(self, client: Any) -> None:
        assert self._publishing is not None
        async with self._publishing:  # one snapshot at a time: each event is sent once
            await self._send_states(client)

    async def _send_states(self, client: Any) -> None:
        state, attrs, events = await asyncio.to_thread(self._snapshot)
        await client.publish(self.topics.state, json.dumps(state), qos=1, retain=True)
        await client.publish(self.topics.attributes, json.dumps(attrs), qos=1, retain=True)
        if self.settings.commands:
            await client.publish(self.topics.leds_state, json.dumps(self._light_state()), qos=1, retain=True)
        for event in events:
            await client.publish(self.topics.event, json.dumps(event), qos=1)

    async def _publisher(self) -> None:
        """Publish the state whenever something changed (coalesced), and each event."""
        assert self._dirty is not None and self._events is not None
        dirty, events = self._dirty, self._events

        async def states() -> None:
            while True:
                await dirty.wait()
                dirty.clear()
                client = self.link.client
                if client is None:
                    continue  # sent in full at the next connect
                try:
                    await self._publish_states(client)
                except Exception as exc:
                    log.info("home-assistant: state not sent (%s); it is sent again at the next connect", exc)

        async def send_events() -> None:
            while True:
                event = await events.get()
                client = self.link.client
                if client is None:
                    continue  # an event is news of the moment: not kept for later
                try:
                    await client.publish(self.topics.event, json.dumps(event), qos=1)
                except Exception as exc:
                    log.info("home-assistant: event not sent (%s)", exc)

        await asyncio.gather(states(), send_events())

    async def _send_discovery(self, client: Any) -> None:
        payload = ha.discovery(self.topics, commands=self.settings.commands, version=self.version, url=self.url)
        await client.publish(self.topics.config, json.dumps(payload), qos=1, retain=False)
        self.discoveries += 1

    async def _on_connect(self, client: Any) -> None:
        await client.publish(self.topics.availability, b"online", qos=1, retain=True)
        await self._send_discovery(client)
        await self._publish_states(client)

    async def _answer_birth(self) -> None:
        await asyncio.sleep(random.uniform(0.2, BIRTH_JITTER))
        client = self.link.client
        if client is None:
            return
        await self._send_discovery(client)
        await self._publish_states(client)

    # -- commands ----------------------------------------------------------------------------

    async def _on_message(self, message: Any) -> None:
        topic = str(message.topic)
        payload = message.payload if isinstance(message.payload, (bytes, bytearray)) else \
            str(message.payload or "").encode()
        if topic == self.topics.birth:
            if payload.strip() == b"online" and self._loop is not None:
                self._tasks.append(self._loop.create_task(self._answer_birth()))
                self._tasks = [t for t in self._tasks if not t.done()]
            return
        if not self.settings.commands:
            return
        try:
            await self._command(topic, bytes(payload))
        except CommandIgnored as exc:
            self.ignored += 1
            log.warning("home-assistant: ignored a command on %s: %s", topic, exc)

    def _rate_ok(self) -> bool:
        now = time.monotonic()
        self._commands = [t for t in self._commands if now - t < RATE_WINDOW]
        if len(self._commands) >= RATE_LIMIT:
            return False
        self._commands.append(now)
        return True

    async def _command(self, topic: str, payload: bytes) -> None:
        if len(payload) > MAX_COMMAND:
            raise CommandIgnored(f"{len(payload)} bytes, more than {MAX_COMMAND}")
        if not self._rate_ok():
            raise CommandIgnored(f"more than {RATE_LIMIT} commands in {RATE_WINDOW:.0f} s")
        if topic == self.topics.leds_set:
            try:
                body = json.loads(payload)
            except (ValueError, UnicodeDecodeError):
                raise CommandIgnored("not JSON") from None
            self._set_leds(body)
            await self._publish_light()
        elif topic == self.topics.command("new_hand"):
            self._press(payload)
            if self.sync is None:
                raise CommandIgnored("no board")
            await asyncio.to_thread(self.sync.button, "next_hand")
        elif topic == self.topics.command("new_game"):
            self._press(payload)
            current = self._current
            if current is None:
                raise CommandIgnored("no game to start again")
            try:
                await asyncio.to_thread(self.table.rematch, current)
            except ValueError as exc:
                raise CommandIgnored(str(exc)) from None

    @staticmethod
    def _press(payload: bytes) -> None:
        if payload.strip() != b"PRESS":
            raise CommandIgnored("a button takes the payload PRESS")

    def _set_leds(self, body: Any) -> None:
        if not isinstance(body, dict) or set(body) - {"state", "brightness", "transition"}:
            raise CommandIgnored("a light command is {\"state\": \"ON\"|\"OFF\", \"brightness\": 0..255}")
        state = body.get("state")
        if state not in ("ON", "OFF"):
            raise CommandIgnored(f"state must be ON or OFF, got {state!r}")
        level = body.get("brightness")
        if level is not None and (isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 255):
            raise CommandIgnored(f"brightness must be 0..255, got {level!r}")
        leds = getattr(self.sync, "leds", None)
        if leds is None or not hasattr(leds, "brightness"):
            raise CommandIgnored("this board has no LEDs")
        if state == "OFF":
            if leds.brightness > 0:
                self._last_brightness = leds.brightness
            leds.brightness = 0.0
        else:
            leds.brightness = level / 255 if level is not None else (leds.brightness or self._last_brightness)
        self._wake()

    def _light_state(self) -> dict[str, Any]:
        leds = getattr(self.sync, "leds", None)
        level = float(getattr(leds, "brightness", 0.0) or 0.0)
        return {"state": "ON" if level > 0 else "OFF", "brightness": round(level * 255)}

    async def _publish_light(self) -> None:
        client = self.link.client
        if client is not None:
            await client.publish(self.topics.leds_state, json.dumps(self._light_state()), qos=1, retain=True)


class CommandIgnored(ValueError):
    """A command from the broker that is not carried out (the message says why)."""


__all__ = ["HomeAssistant", "CommandIgnored", "BIRTH_JITTER", "MAX_COMMAND"]
