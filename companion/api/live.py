"""The live channel: ``WS /api/v1/live``.

On connect the phone gets ``{"type": "snapshot", "seq": N, "games": [...], "games_total": T,
"games_before": id | null, "board": {...}}``: the summary lines of the newest games
(older ones page in with ``GET /api/v1/games?before=<games_before>``). With ``?after=M``
it then gets every stored event with ``M < seq <= N`` (what it missed,
``{"type": "event", "seq", "event", "game": null, "replay": true}``). After that it gets
each new event as the table commits it, ``{"type": "event", "seq", "event", "game"}``,
where ``game`` is the game's summary line (version, scores, finished, winner, for Gin-Go
the board and links: a few hundred bytes, whatever the length of the game); a phone
fetches ``GET /api/v1/games/{id}`` when it shows that game. Board news from the sync loop
(``{"type": "board", ...}``, ``{"type": "link", ...}``) carries no event seq.

Dealt games keep each hand private. A connection that sends ``{"type": "auth", "token":
"<its bearer token>"}`` gets ``{"type": "auth", "ok": true}`` and then, for every dealt
game where that token holds a seat, ``{"type": "private", "game_id", "view"}`` (the seat's
cards and legal actions, as ``GET /api/v1/games/{id}/view``) at once and after each event
of that game. A connection that has not authenticated never gets a private message.

The table calls :meth:`LiveHub.publish` from whatever thread ran the command; the hub
hands the message to each connection's queue on the event loop. A phone too slow to keep
up (queue full) is disconnected with code 1013 and reconnects with ``?after=``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any, Optional

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from companion.api.responses import dumps_text

log = logging.getLogger(__name__)

QUEUE_SIZE = 2000
#: (event seq or None, the message as JSON text, the dealt game it concerns or None)
_Item = tuple[Optional[int], str, Optional[str]]
MAX_REPLAY = 5000
#: event types only dealt games write (a seat's private view may have changed)
DEALT_EVENTS = frozenset({"play", "seat"})
#: authenticate(token) -> the token's id or None; private(token id, game id or None) -> views
Authenticate = Callable[[str], Optional[str]]
Private = Callable[[str, Optional[str]], list[dict[str, Any]]]


class LiveHub:
    """Fan-out of table events and board news to the connected WebSockets."""

    def __init__(self, snapshot: Callable[[], dict[str, Any]], missed: Callable[[int, int], list[dict[str, Any]]],
                 authenticate: Authenticate | None = None, private: Private | None = None) -> None:
        self._snapshot = snapshot
        self._missed = missed
        self._authenticate = authenticate
        self._private = private
        self._queues: set[asyncio.Queue[_Item | None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def clients(self) -> int:
        return len(self._queues)

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def publish(self, msg: dict[str, Any]) -> None:
        """Send ``msg`` to every connection (thread-safe, never blocks)."""
        loop = self._loop
        if loop is None or loop.is_closed() or not self._queues:
            return
        try:
            loop.call_soon_threadsafe(self._deliver, msg)
        except RuntimeError:  # loop shutting down
            pass

    def _deliver(self, msg: dict[str, Any]) -> None:
        if not self._queues:
            return
        seq = msg.get("seq") if msg.get("type") == "event" else None
        ev = msg.get("event") if msg.get("type") == "event" else None
        gid = ev.get("game_id") if isinstance(ev, dict) and ev.get("type") in DEALT_EVENTS else None
        item = (seq if isinstance(seq, int) else None, dumps_text(msg),
                gid if isinstance(gid, str) else None)
        for q in list(self._queues):
            try:
                q.put_nowait(item)
            except asyncio.QueueFull:
                self._queues.discard(q)
                with contextlib.suppress(asyncio.QueueEmpty):
                    q.get_nowait()
                q.put_nowait(None)  # tells the sender to close this connection

    async def serve(self, ws: WebSocket, after: int | None) -> None:
        """Run one connection until the phone goes away."""
        await ws.accept()
        if self._loop is None:
            self.bind(asyncio.get_running_loop())
        q: asyncio.Queue[_Item | None] = asyncio.Queue(QUEUE_SIZE)
        self._queues.add(q)
        holder: list[str] = []  # the token id this connection authenticated as
        reader = asyncio.create_task(self._drain(ws, q, holder))
        try:
            snap = await run_in_threadpool(self._snapshot)
            await ws.send_text(dumps_text(snap))
            last = int(snap["seq"])
            cursor = after
            while cursor is not None and cursor < last:
                # what was missed, in pages of MAX_REPLAY events
                missed = await run_in_threadpool(self._missed, cursor, last)
                if not missed:
                    break
                for m in missed:
                    await ws.send_text(dumps_text(m))
                cursor = int(missed[-1]["seq"])
            while True:
                getter = asyncio.ensure_future(q.get())
                done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
                if reader in done:
                    getter.cancel()
                    return
                item = getter.result()
                if item is None:
                    await ws.close(code=1013, reason="too slow: reconnect with ?after=")
                    return
                seq, text, gid = item
                if seq is not None:
                    if seq <= last:
                        continue
                    last = seq
                await ws.send_text(text)
                if gid is not None and holder and self._private is not None:
                    for view in await run_in_threadpool(self._private, holder[0], gid):
                        await ws.send_text(dumps_text({"type": "private", "game_id": gid, "view": view}))
        except (WebSocketDisconnect, RuntimeError, ConnectionError):
            return
        finally:
            self._queues.discard(q)
            reader.cancel()

    async def _drain(self, ws: WebSocket, q: asyncio.Queue[_Item | None], holder: list[str]) -> None:
        """Read what the phone sends: an ``auth`` message, and its leaving."""
        try:
            while True:
                msg = await ws.receive()
                if msg.get("type") == "websocket.disconnect":
                    return
                text = msg.get("text")
                if text:
                    await self._heard(text, q, holder)
        except (WebSocketDisconnect, RuntimeError):
            return

    async def _heard(self, text: str, q: asyncio.Queue[_Item | None], holder: list[str]) -> None:
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if not isinstance(data, dict) or data.get("type") != "auth":
            return  # anything else a phone sends is ignored, as before
        token = data.get("token")
        who = None
        if isinstance(token, str) and token and self._authenticate is not None:
            who = await run_in_threadpool(self._authenticate, token)
        if who is None:
            reply = {"type": "auth", "ok": False,
                     "error": {"code": "unauthorized", "message": "unknown or revoked token: pair this phone again"}}
            self._put(q, (None, dumps_text(reply), None))
            return
        holder[:] = [who]
        self._put(q, (None, dumps_text({"type": "auth", "ok": True}), None))
        if self._private is not None:
            for view in await run_in_threadpool(self._private, who, None):
                msg = {"type": "private", "game_id": view.get("game_id"), "view": view}
                self._put(q, (None, dumps_text(msg), None))

    @staticmethod
    def _put(q: asyncio.Queue[_Item | None], item: _Item) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            q.put_nowait(item)
