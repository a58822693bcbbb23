"""Remote play, the guest's side: joining, following the host, and proposing writes.

The guest keeps a copy of a tracked game in its own event log
(:mod:`companion.table.replica`): it appends the host's events in order, skips what it has
and asks for what is missing (``sync``). A write on the guest is a *proposal* with the
phone's ``client_id`` and ``expected_version``; the phone gets the host's verdict, or 503
``remote_unreachable`` when the broker or the host cannot be reached (nothing is written
then). :class:`Following` is a part of :class:`~companion.mqtt.remote.RemotePlay` (``play``).
"""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from typing import Any

from companion.errors import CompanionError, RateLimited
from companion.mqtt.wire import VERDICT_TIMEOUT, RemoteGame, RemoteRefused, RemoteUnreachable, read_invite
from companion.table.replica import append_copy


class Following:
    """The guest's side of this board's remote games (see the module docstring)."""

    def __init__(self, play: Any, agreement: Any) -> None:
        self.play = play
        self.agreement = agreement
        self.dealt: Any = None  # remote dealt games (:mod:`.dealt`), set by the adapter
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}  # request id -> its answer
        self._appended: dict[str, asyncio.Event] = {}  # set after each append to a copy
        #: (game id, the host's bucket) -> when the host's rate_limited refusal ends (monotonic)
        self.held_until: dict[tuple[str, str], float] = {}

    async def message(self, g: RemoteGame, kind: str, body: dict[str, Any], topic: str) -> None:
        """A message from the host: an event, its snapshot, or an answer to this board."""
        play = self.play
        if g.dealt:
            self.dealt.message(g, kind, body)
            return
        if kind == "ev":
            ev = body.get("event")
            if not isinstance(ev, dict):
                play.drop(topic, "an event message has an event")
                return
            await self._append(g, [ev], topic)
        elif kind == "state":
            v = body.get("version")
            if isinstance(v, int) and v > await play.version(g.id) and play.link.client is not None:
                await play.request(play.link.client, g, {"kind": "sync", "after": await play.version(g.id)})
        elif kind == "to" and body.get("kind") == "report_please":
            self.agreement.forget(g.id)
            self.agreement.report_soon()
        elif kind == "to":
            events = body.get("events")
            if isinstance(events, list):
                await self._append(g, events, topic)
            self.answered(body)

    def answered(self, body: dict[str, Any]) -> None:
        """The host's answer to one of this board's requests (by its ``id``)."""
        rid = body.get("id")
        fut = self.waiting.pop(rid, None) if isinstance(rid, str) else None
        if fut is not None and not fut.done():
            fut.set_result(body)

    async def _append(self, g: RemoteGame, events: list[Any], topic: str) -> None:
        play = self.play
        good = [e for e in events if isinstance(e, dict)]
        have = await play.version(g.id)
        try:
            now = await asyncio.to_thread(append_copy, play.table, g.id, good)
        except CompanionError as exc:
            play.drop(topic, f"the host's event does not fold here ({exc.message})")
            return
        wanted = max((e.get("version", 0) for e in good if isinstance(e.get("version"), int)), default=0)
        if wanted > now and play.link.client is not None:  # a gap: ask for what is missing
            await play.request(play.link.client, g, {"kind": "sync", "after": now})
        if now != have:
            self.agreement.report_soon()
            event = self._appended.get(g.id)
            if event is not None:
                event.set()

    # -- the API's side ----------------------------------------------------------------------------------

    async def join(self, invite: Any) -> dict[str, Any]:
        """Join the game of ``invite`` as its guest: its events copied here; the game."""
        play = self.play
        gid, secret, host = read_invite(invite)
        if host == play.board_id:
            raise RemoteRefused("this board made that invite: give it to the other board", code="own_invite")
        known = play.games.get(gid)
        if known is not None and known.role == "host":
            raise RemoteRefused("this board hosts that game", code="own_invite")
        client = play.link.client
        if client is None:
            raise RemoteUnreachable("the remote broker cannot be reached: check [remote] and the network, then "
                                    "try again")
        g = known or RemoteGame(gid, "guest", secret, host, play.board_id)
        play.games[gid] = g
        try:
            await play.subscribe(client, g)
            answer = await self.ask(client, g, {"kind": "join"})
        except BaseException:
            if known is None:
                play.games.pop(gid, None)
            raise
        if answer.get("status") != 201:
            if known is None:
                play.games.pop(gid, None)
            err = (answer.get("body") or {}).get("error") or {}
            raise RemoteRefused(str(err.get("message") or "the host refused"), code=str(err.get("code") or "refused"))
        if answer.get("dealt") is True:  # the host keeps the hands: no log here, its public game only
            g.dealt = True
            await asyncio.to_thread(play.save)
            self.dealt.take_packed(gid, answer.get("gz"), answer.get("line"))
            self.agreement.forget(gid)  # on the board: the host compares this board's chips too
            self.agreement.report_soon()
            return dict(self.dealt.mirror(gid))
        await asyncio.to_thread(play.save)
        game: dict[str, Any] = await asyncio.to_thread(play.table.game, gid)
        self.agreement.forget(gid)  # a report sent before the host took the join was dropped
        self.agreement.report_soon()
        return {**game, "remote": play.describe(gid)}

    async def ask(self, client: Any, g: RemoteGame, body: dict[str, Any]) -> dict[str, Any]:
        """Send a request to the host and wait for its answer (503 when none comes; 429
        :class:`~companion.errors.RateLimited` when the host said this board is over its
        rate limit, and, without asking again, until the wait it named is over)."""
        bucket = (g.id, "view" if body.get("kind") == "view" else "request")  # the host's buckets
        left = self.held_until.get(bucket, 0.0) - time.monotonic()
        if left > 0:
            raise RateLimited(f"the host board ({g.host}) asked this board to slow down: nothing was written; "
                              f"try again in {math.ceil(left)} s", retry_after=math.ceil(left))
        answer = await self._ask(client, g, body)
        if answer.get("kind") == "refused":
            wait = answer.get("retry_after")
            wait = wait if isinstance(wait, int) and not isinstance(wait, bool) and 1 <= wait <= 3600 else 10
            self.held_until[bucket] = time.monotonic() + wait
            err = (answer.get("body") or {}).get("error") or {}
            raise RateLimited(str(err.get("message") or f"the host board ({g.host}) asked this board to slow "
                                  f"down: nothing was written; try again in {wait} s"), retry_after=wait)
        return answer

    async def _ask(self, client: Any, g: RemoteGame, body: dict[str, Any]) -> dict[str, Any]:
        rid = secrets.token_hex(8)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = fut
        try:
            await self.play.request(client, g, {**body, "id": rid})
            return await asyncio.wait_for(fut, VERDICT_TIMEOUT)
        except asyncio.TimeoutError:
            raise RemoteUnreachable(f"the host board ({g.host}) did not answer in {VERDICT_TIMEOUT:.0f} s: "
                                    "nothing was written; try again when it is online") from None
        except Exception as exc:
            if isinstance(exc, CompanionError):
                raise
            raise RemoteUnreachable(f"the remote broker cannot be reached ({exc}): nothing was written") from None
        finally:
            self.waiting.pop(rid, None)

    def reachable(self, g: RemoteGame) -> Any:
        """The connected client, or :class:`RemoteUnreachable` when the broker or the host is away."""
        play = self.play
        client = play.link.client
        if client is None or play.link.status != "online":
            raise RemoteUnreachable("the remote broker cannot be reached: nothing was written; the game waits")
        if play.presence.get(g.host) == "offline":
            raise RemoteUnreachable(f"the host board ({g.host}) is offline: nothing was written; the game waits "
                                    "for it")
        return client

    async def propose(self, game_id: str, op: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """A guest's write: the host's verdict ``(status, body)``; once accepted, this
        board's copy has the new version before the answer."""
        play = self.play
        g = play.games[game_id]
        client = self.reachable(g)
        args = {k: v for k, v in body.items() if k not in ("client_id", "expected_version", "hand")}
        v = await play.version(g.id)
        agree = await asyncio.to_thread(self.agreement.own_agreement, g.id)
        answer = await self.ask(client, g, {"kind": "propose", "op": op, "body": args,
                                            "client_id": body.get("client_id"),
                                            "expected_version": body.get("expected_version"),
                                            "hand": body.get("hand"), "report": {"version": v, "agree": agree}})
        status = answer.get("status")
        out = answer.get("body")
        if not isinstance(status, int) or not isinstance(out, dict):
            raise RemoteUnreachable("the host's answer could not be read: nothing was written here")
        if status == 200:
            want = ((out.get("game") or {}).get("version"))
            if isinstance(want, int):
                await self._catch_up(g, want)
        return status, out

    async def _catch_up(self, g: RemoteGame, want: int, timeout: float = 3.0) -> None:
        """Wait (on the appends, not a clock) until this board's copy has version ``want``."""
        play = self.play
        end = time.monotonic() + timeout
        asked = False
        while await play.version(g.id) < want:
            left = end - time.monotonic()
            if left <= 0:
                return
            if not asked and play.link.client is not None:
                await play.request(play.link.client, g, {"kind": "sync", "after": await play.version(g.id)})
                asked = True
            appended = self._appended.setdefault(g.id, asyncio.Event())
            appended.clear()
            if await play.version(g.id) >= want:
                return
            try:
                await asyncio.wait_for(appended.wait(), left)
            except asyncio.TimeoutError:
                return


__all__ = ["Following"]
