"""Two boards, one game: remote play through a broker both homes reach (``[remote]``).

The board that creates a remote game is its **host** and the only writer: every move of
the game, from either home, goes through the host's own table as a local write. The other
board, the **guest**, keeps a copy in its own event log (:mod:`companion.table.replica`),
so its phones, LEDs and sensors see a game like a local one (a dealt game has no copy
but the host's public game: see :mod:`.dealt` and :mod:`.guestboard`). Each board's SQLite log stays
the truth; the broker only carries messages, and a guest can always catch up from the
host's log.

:class:`RemotePlay` is the adapter of one board: what it remembers (``remote.json``),
its broker link, presence, and the checks every message passes. Its parts, one concept
each: :mod:`.wire` (topics, signatures, invites), :mod:`.hosting` (the host's side),
:mod:`.following` (the guest's side), :mod:`.agreement` (both boards' chips agree
before the next move), :mod:`.dealt` (dealt games: the host alone holds the hands, and
the guest keeps no log of them, only the public game) and :mod:`.guestboard` (the guest's
own board shows the host's game; its buttons ask the host).

A guest's write is a proposal with the phone's ``client_id`` and ``expected_version``;
the guest answers its phone with the host's verdict (200, 409 stale, 4xx refused), or
503 ``remote_unreachable`` when the broker or the host cannot be reached (nothing is
written then). Nobody is ever forfeited or timed out by a disconnect: the game waits.

Remote input is untrusted: a message over :data:`~.wire.MAX_MESSAGE` bytes, not JSON, of
the wrong shape, without the right ``sig`` or over the rate limit is dropped and logged
(a signed request over the limit is answered ``rate_limited`` first, at most
:data:`~.wire.REFUSALS` times per window).
Nothing from ``homeassistant/#`` or the local API is forwarded: only the messages above.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
from collections.abc import Coroutine
from dataclasses import asdict
from pathlib import Path
from typing import Any

from companion.errors import NotFound
from companion.mqtt.agreement import Agreement
from companion.mqtt.dealt import DealtRemote
from companion.mqtt.following import Following
from companion.mqtt.guestboard import GuestBoard
from companion.mqtt.hosting import Hosting
from companion.mqtt.link import REMOTE_BACKOFF, BrokerLink, cancel_all
from companion.mqtt.settings import RemoteSettings
from companion.mqtt.wire import (HOST_RATE_LIMIT, MAX_MESSAGE, RATE_LIMIT, RATE_WINDOW, REFUSALS, TOPIC_ROOT,
                                 RemoteGame, RemoteRefused, RemoteUnreachable, Rates, genuine, make_invite, prefix,
                                 presence_topic, read_invite, sealed, sign)
from companion.table.replica import copy_guard, version

log = logging.getLogger(__name__)


class RemotePlay:
    """The remote-play adapter of one board (see the module docstring)."""

    def __init__(self, settings: RemoteSettings, board_id: str, table: Any, sync: Any, folder: Path) -> None:
        self.settings = settings
        self.board_id = board_id
        self.table = table
        self.sync = sync
        self.path = folder / "remote.json"
        self.games: dict[str, RemoteGame] = self._load()
        self.presence: dict[str, str] = {}
        self.dropped = 0
        self.link = BrokerLink(settings, name="remote", client_id=f"{board_id}-remote",
                               will=(presence_topic(board_id), b"offline"), subscriptions=(),
                               on_connect=self._on_connect, on_message=self._on_message,
                               on_status=lambda status: self.announce({"type": "remote", "broker": status}),
                               max_backoff=REMOTE_BACKOFF)
        #: the live channel's publish (the phone pages show the other board offline, loudly)
        self.announce: Any = lambda msg: None
        self.agreement = Agreement(self)
        self.following = Following(self, self.agreement)
        self.dealt = DealtRemote(self, self.following)
        self.following.dealt = self.dealt
        self.hosting = Hosting(self, self.agreement, self.dealt)
        self.board = GuestBoard(self)
        if sync is not None and hasattr(sync, "follow"):  # the guest's LEDs show a remote dealt game too
            sync.follow(self.board)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._rates = Rates()
        self._tasks: list[asyncio.Task[Any]] = []
        self._unsubscribe: Any = None
        table.add_write_hooks(guard=copy_guard(self.is_copy))
        table.add_write_hooks(guard=self.agreement.guard)
        table.dealing.remote_wait = self.agreement.dealt_wait  # a remote dealt Gin-Go turn waits for the guest's chips too

    # -- what this board remembers --------------------------------------------------------

    def _load(self) -> dict[str, RemoteGame]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return {g["id"]: RemoteGame(**g) for g in data.get("games", [])}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, TypeError, KeyError) as exc:
            log.warning("remote: %s cannot be read (%s); no remote games are known", self.path, exc)
            return {}

    def save(self) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # it holds the invite secrets
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"games": [asdict(g) for g in self.games.values()]}, fh)
        tmp.replace(self.path)

    def is_copy(self, game_id: str) -> bool:
        g = self.games.get(game_id)
        return g is not None and g.role == "guest"

    def is_mirror(self, game_id: str) -> bool:
        """A dealt game this board follows as the guest: no log here, the host's public game."""
        g = self.games.get(game_id)
        return g is not None and g.role == "guest" and g.dealt

    @property
    def status(self) -> str:
        return self.link.status

    def describe(self, game_id: str) -> dict[str, Any] | None:
        """The ``remote`` part of a game: role, the other board and whether it is online."""
        g = self.games.get(game_id)
        if g is None:
            return None
        peer = g.guest if g.role == "host" else g.host
        online = self.link.status == "online" and peer is not None and self.presence.get(peer) == "online"
        out: dict[str, Any] = {"role": g.role, "board": self.board_id, "peer": peer, "peer_online": online,
                               "broker": self.link.status}
        if g.role == "host":  # what the guest last said: its version, and whether its chips match
            out.update(self.agreement.describe(game_id))
        return out

    # -- running ------------------------------------------------------------------------------

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self.hosting.start()
        self._unsubscribe = self.table.subscribe(self._on_table)
        self.agreement.start()
        self.spawn(self.hosting.publisher(), "gingo-remote-publisher")
        self.spawn(self.agreement.reporter(), "gingo-remote-reporter")
        self.link.start()

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

        async def goodbye(client: Any) -> None:
            await client.publish(presence_topic(self.board_id), b"offline", qos=1, retain=True)

        await self.link.stop(goodbye)
        await cancel_all(self._tasks)

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str | None = None) -> None:
        """Run ``coro`` as one of this adapter's tasks (cancelled at :meth:`stop`); from the loop."""
        assert self._loop is not None
        self._tasks = [t for t in self._tasks if not t.done()]
        self._tasks.append(self._loop.create_task(coro, name=name))

    def call(self, fn: Any, *args: Any) -> None:
        """Run ``fn(*args)`` on the adapter's loop, from any thread."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(fn, *args)
            except RuntimeError:
                pass

    def _on_table(self, ev: Any, msg: dict[str, Any]) -> None:
        g = self.games.get(getattr(ev, "game_id", ""))
        game = msg.get("game")
        if g is not None and isinstance(game, dict):
            self.agreement.committed(g.id, game)
        if g is not None:
            self.call(self.hosting.poke)

    def _topics(self, g: RemoteGame) -> list[str]:
        p = prefix(g.id)
        if g.role == "host":
            return [f"{p}/cmd/+"] + ([presence_topic(g.guest)] if g.guest else [])
        return [f"{p}/ev", f"{p}/state", f"{p}/to/{self.board_id}", presence_topic(g.host)]

    async def subscribe(self, client: Any, g: RemoteGame) -> None:
        for topic in self._topics(g):
            await client.subscribe(topic, qos=1)

    async def _on_connect(self, client: Any) -> None:
        await client.publish(presence_topic(self.board_id), b"online", qos=1, retain=True)
        for g in list(self.games.values()):
            await self.subscribe(client, g)
            if g.role == "guest" and not g.dealt:  # a dealt game's snapshot is retained: it comes by itself
                await self.request(client, g, {"kind": "sync", "after": await self.version(g.id)})
        self.hosting.sent.clear()  # the host publishes its snapshot again
        self.agreement.forget()  # and the guest says again where it is
        self.hosting.poke()
        self.agreement.report_soon()

    async def version(self, game_id: str) -> int:
        """This board's version of ``game_id`` (0: no copy yet)."""
        if self.is_mirror(game_id):
            return self.dealt.version(game_id)
        return await asyncio.to_thread(version, self.table, game_id)

    async def request(self, client: Any, g: RemoteGame, body: dict[str, Any]) -> None:
        """Send ``body`` to the host of ``g``, signed, as this board."""
        topic = f"{prefix(g.id)}/cmd/{self.board_id}"
        await client.publish(topic, sealed(g.secret, topic, body), qos=1)

    # -- messages ----------------------------------------------------------------------------------

    def drop(self, topic: str, why: str) -> None:
        self.dropped += 1
        log.warning("remote: dropped a message on %s: %s", topic, why)

    async def _on_message(self, message: Any) -> None:
        topic = str(message.topic)
        payload = message.payload if isinstance(message.payload, (bytes, bytearray)) else b""
        parts = topic.split("/")
        if len(parts) == 5 and tuple(parts[:2]) == TOPIC_ROOT and parts[2] == "b" and parts[4] == "presence":
            await self._on_presence(parts[3], bytes(payload))
            return
        if len(payload) > MAX_MESSAGE:
            self.drop(topic, f"{len(payload)} bytes, more than {MAX_MESSAGE}")
            return
        if len(parts) < 5 or tuple(parts[:3]) != (*TOPIC_ROOT, "g"):
            self.drop(topic, "not a remote-play topic")
            return
        g = self.games.get(parts[3])
        if g is None:
            return
        sender = parts[5] if len(parts) == 6 and parts[4] == "cmd" else "host"
        try:
            body = json.loads(payload)
        except (ValueError, UnicodeDecodeError):
            body = None
        # a guest's writes have the budget of RATE_LIMIT; its reports (tiny, the latest wins:
        # one per version or chip change, and a dropped last one would hold the next move up),
        # its reads of a dealt seat's view (one each time a phone there looks) and the host's
        # messages (each move is an event, a snapshot and answers) have the larger one
        kind = body.get("kind") if isinstance(body, dict) else None
        bucket = kind if kind in ("report", "view") else "request"
        limit = RATE_LIMIT if sender != "host" and parts[4] == "cmd" and bucket == "request" else HOST_RATE_LIMIT
        if not self._rates.ok(f"{g.id}/{sender}/{bucket}", limit):
            self.drop(topic, f"more than {limit} messages in {RATE_WINDOW:.0f} s from {sender}")
            # a request somebody waits for (it has an id) is told so, a few times per window
            # (REFUSALS): the phone there hears "rate_limited", not a silence taken for a host away
            if g.role == "host" and parts[4] == "cmd" and len(parts) == 6 and isinstance(body, dict) \
                    and body.get("id") is not None and kind != "report" \
                    and self._rates.ok(f"{g.id}/{sender}/refused", REFUSALS) and genuine(g.secret, topic, body):
                await self.hosting.refuse(g, sender, body, self._rates.wait(f"{g.id}/{sender}/{bucket}", limit),
                                          limit)
            return
        if not isinstance(body, dict):
            self.drop(topic, "not a JSON object" if body is not None else "not JSON")
            return
        if not genuine(g.secret, topic, body):
            self.drop(topic, "not signed with this game's invite secret")
            return
        channel = parts[4]
        if g.role == "host" and channel == "cmd" and len(parts) == 6:
            await self.hosting.request(g, parts[5], body, topic)
        elif g.role == "guest" and channel in ("ev", "state", "to"):
            await self.following.message(g, channel, body, topic)

    async def _on_presence(self, board: str, payload: bytes) -> None:
        state = payload.decode("utf-8", "replace").strip()
        if state not in ("online", "offline"):
            return
        before = self.presence.get(board)
        self.presence[board] = state
        if before != state:
            self.announce({"type": "remote", "board": board, "online": state == "online"})
        if before != state:  # a guest away holds no dealt game up; back, its chips count again
            for g in self.games.values():
                if g.role == "host" and g.dealt and g.guest == board:
                    self.agreement.board_changed(g.id)
        if state == "online" and before != "online":
            self.agreement.forget()  # a host that restarted knows nothing of this board's chips
            client = self.link.client
            for g in self.games.values():
                if client is not None and g.role == "guest" and g.host == board and not g.dealt:
                    await self.request(client, g, {"kind": "sync", "after": await self.version(g.id)})
            self.agreement.report_soon()

    # -- the API's side ----------------------------------------------------------------------------------

    def host_game(self, variant: str, players: list[str], options: dict[str, Any], dealer: int,
                  client_id: str | None, *, dealt: dict[str, Any] | None = None,
                  preset: str | None = None) -> dict[str, Any]:
        """Create a remote game hosted here (called from the API's thread); the game with
        its ``remote.invite``. ``dealt``: the companion deals (``preset``, ``bots``,
        ``skip_board`` as for a local dealt game); this board alone holds the hands."""
        gid = "r" + secrets.token_hex(16)
        if dealt is not None:
            game = dict(self.table.dealing.create_dealt(variant, players=players, options=options, dealer=dealer,
                                                client_id=client_id, game_id=gid, **dealt).body)
        else:
            game = self.table.create_game(variant, players=players, options=options, dealer=dealer,
                                          client_id=client_id, game_id=gid, preset=preset)
        gid = game["id"]  # a retried client id: the game made the first time
        g = self.games.get(gid)
        if g is None:
            g = RemoteGame(gid, "host", secrets.token_hex(16), self.board_id, dealt=dealt is not None)
            self.games[gid] = g
            self.save()
            if not g.dealt:
                self.agreement.learn(gid)  # its creation was announced before it was known here
            self._subscribe_now(g)
        return {**game, "remote": {**(self.describe(gid) or {}), "invite": make_invite(gid, g.secret, self.board_id)}}

    def _subscribe_now(self, g: RemoteGame) -> None:
        """From the API's thread: subscribe to the new game's requests before the invite is
        answered (a join sent at once must find the host listening); when the broker is
        away, the next connect subscribes."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return

        async def go() -> None:
            client = self.link.client
            if client is not None:
                await self.subscribe(client, g)
            self.hosting.poke()

        try:
            asyncio.run_coroutine_threadsafe(go(), loop).result(5)
        except Exception as exc:  # the broker went away meanwhile: subscribed at the next connect
            log.info("remote: not yet subscribed to game %s (%s)", g.id, exc)

    def invite(self, game_id: str) -> dict[str, Any]:
        """The ``remote`` part of a game hosted here with its ``invite`` again (for this
        board's own paired phones: a phone that reloaded its page has lost the code).
        Refused on a game this board does not host: only the host holds the right to give."""
        g = self.games.get(game_id)
        if g is None:
            raise NotFound(f"no remote game {game_id!r} on this board", code="not_remote")
        if g.role != "host":
            raise RemoteRefused(f"this board is the guest of game {game_id}: its invite is {g.host}'s to give",
                                code="not_host")
        return {**(self.describe(game_id) or {}), "invite": make_invite(g.id, g.secret, self.board_id)}

    async def join(self, invite: Any) -> dict[str, Any]:
        """Join the game of ``invite`` as its guest: its events copied here; the game."""
        return await self.following.join(invite)

    async def propose(self, game_id: str, op: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """A guest's write: the host's verdict ``(status, body)`` (:meth:`.Following.propose`)."""
        return await self.following.propose(game_id, op, body)


__all__ = ["RemotePlay", "RemoteGame", "RemoteUnreachable", "RemoteRefused", "make_invite", "read_invite", "sign"]
