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

The table calls :meth:`LiveHub.publish` from whatever thread ran the command; the hub
hands the message to each connection's queue on the event loop. A phone too slow to keep
up (queue full) is disconnected with code 1013 and reconnects with ``?after=``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Optional

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from companion.api.responses import dumps_text

log = logging.getLogger(__name__)

QUEUE_SIZE = 2000
_Item = tuple[Optional[int], str]  # (event seq or None, the message as JSON text)
MAX_REPLAY = 5000


class LiveHub:
    """Fan-out of table events and board news to the connected WebSockets."""

    def __init__(self, snapshot: Callable[[], dict[str, Any]], missed: Callable[[int, int], list[dict[str, Any]]]) -> None:
        self._snapshot = snapshot
        self._missed = missed
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
        item = (seq if isinstance(seq, int) else None, dumps_text(msg))
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
        reader = asyncio.create_task(self._drain(ws))
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
                seq, text = item
                if seq is not None:
                    if seq <= last:
                        continue
                    last = seq
                await ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError, ConnectionError):
            return
        finally:
            self._queues.discard(q)
            reader.cancel()

    @staticmethod
    async def _drain(ws: WebSocket) -> None:
        """Read (and ignore) what the phone sends, to notice when it leaves."""
        try:
            while True:
                msg = await ws.receive()
                if msg.get("type") == "websocket.disconnect":
                    return
        except (WebSocketDisconnect, RuntimeError):
            return
