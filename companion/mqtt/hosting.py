"""Remote play, the host's side: publishing the game, and the guest's requests.

The host is the only writer of a remote game. :class:`Hosting` publishes each event it
commits (``P/ev``) and its snapshot (``P/state``, retained), and answers the guest's
requests on ``P/to/<guest>``: ``join``, ``sync`` (the events after a version), ``report``
(where the guest is, :mod:`.agreement`) and ``propose`` (a write, which goes through this
board's own table exactly as a local write and is answered with the verdict). A part of
:class:`~companion.mqtt.remote.RemotePlay` (``play``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from companion.errors import CompanionError
from companion.mqtt.settings import ID_PATTERN
from companion.mqtt.wire import RATE_WINDOW, RemoteGame, error_body, prefix, presence_topic, sealed
from companion.table.replica import wire_events

log = logging.getLogger("companion.mqtt.remote")

#: a guest's writes on a game with real cards: Gin-Go's actions, a rummy score sheet's hands
OPS = ("action", "undo", "redo", "hand", "correct")


def hand_entry(args: dict[str, Any]) -> Any:
    """A hand from the guest, checked by the API's own schema (``POST .../hands``): a body
    the schema refuses is 422 with the code and words the API gives."""
    from pydantic import ValidationError

    from companion.api import models as M
    from companion.api.errors import validation_message
    from companion.api.routes.games import hand_input
    from companion.errors import IllegalAction

    try:
        return hand_input(M.HandRequest.model_validate(args))
    except ValidationError as exc:
        code, message = validation_message([dict(e) for e in exc.errors()])
        raise IllegalAction(message, code=code) from None


def http_status(exc: CompanionError) -> int:
    from companion.api.errors import http_status as status

    return int(status(exc))


class Hosting:
    """The host's side of this board's remote games (see the module docstring)."""

    def __init__(self, play: Any, agreement: Any, dealt: Any) -> None:
        self.play = play
        self.agreement = agreement
        self.dealt = dealt  # remote dealt games (:mod:`.dealt`)
        self.sent: dict[str, int] = {}  # the last version published per game
        self.wake: asyncio.Event | None = None

    def start(self) -> None:
        self.wake = asyncio.Event()

    def poke(self) -> None:
        """Something changed: the publisher looks at every hosted game."""
        if self.wake is not None:
            self.wake.set()

    async def publisher(self) -> None:
        assert self.wake is not None
        while True:
            await self.wake.wait()
            self.wake.clear()
            client = self.play.link.client
            if client is None:
                continue
            for g in [g for g in self.play.games.values() if g.role == "host"]:
                try:
                    await self.publish_game(client, g)
                except Exception as exc:
                    log.info("remote: game %s not published (%s); the guest catches up on reconnect", g.id, exc)

    async def publish_game(self, client: Any, g: RemoteGame) -> None:
        if g.dealt:  # never its events: the first one holds the key of every hand
            self.sent[g.id] = await self.dealt.publish(client, g)
            return
        table = self.play.table
        after = self.sent.get(g.id)
        events = await asyncio.to_thread(wire_events, table, g.id, after if after is not None else 0)
        if after is None:
            events = events[-1:]  # after a (re)connect: the last event and the snapshot say where it is
        game = await asyncio.to_thread(table.game, g.id)
        snap = {"version": game["version"], "board": game.get("board"), "links": game.get("links"),
                "finished": bool(game.get("finished"))}
        ev_topic, state_topic = f"{prefix(g.id)}/ev", f"{prefix(g.id)}/state"
        for ev in events:
            await client.publish(ev_topic, sealed(g.secret, ev_topic, {"event": ev, **snap}), qos=1)
        await client.publish(state_topic, sealed(g.secret, state_topic, snap), qos=1, retain=True)
        self.sent[g.id] = int(game["version"])

    # -- the guest's requests ----------------------------------------------------------------

    async def request(self, g: RemoteGame, board: str, body: dict[str, Any], topic: str) -> None:
        play = self.play
        if not ID_PATTERN.match(board):
            play.drop(topic, "not a board id")
            return
        kind, rid = body.get("kind"), body.get("id")
        if rid is not None and (not isinstance(rid, str) or len(rid) > 64):
            play.drop(topic, "a request id is a short text")
            return
        client = play.link.client
        if client is None:
            return
        reply = f"{prefix(g.id)}/to/{board}"
        if kind == "join":
            answer = await self._join(client, g, board, rid)
            await client.publish(reply, sealed(g.secret, reply, answer), qos=1)
            return
        if board != g.guest:
            play.drop(topic, f"{board} has not joined this game")
            return
        if g.dealt:
            await self.dealt.request(client, g, board, body, topic)
        elif kind == "sync":
            after = body.get("after")
            if isinstance(after, bool) or not isinstance(after, int) or not 0 <= after <= 10 ** 9:
                play.drop(topic, "sync needs after: a version")
                return
            events = await asyncio.to_thread(wire_events, play.table, g.id, after)
            await client.publish(reply, sealed(g.secret, reply, {"kind": "events", "id": rid, "events": events}), qos=1)
        elif kind == "report":
            if not self.agreement.note(g.id, {"version": body.get("version"), "agree": body.get("agree")}):
                play.drop(topic, "a report is {version, agree}")
        elif kind == "propose":
            self.agreement.note(g.id, body.get("report"))  # where the guest is as it proposes
            verdict = await self._proposal(g, board, body)
            await client.publish(reply, sealed(g.secret, reply, {"kind": "verdict", "id": rid, **verdict}), qos=1)
        else:
            play.drop(topic, f"unknown request {kind!r}")

    async def refuse(self, g: RemoteGame, board: str, body: dict[str, Any], wait: int, limit: int) -> None:
        """Answer a request over the rate limit: 429 ``rate_limited``, with the seconds to wait."""
        rid, client = body.get("id"), self.play.link.client
        if client is None or not ID_PATTERN.match(board) or not isinstance(rid, str) or len(rid) > 64:
            return
        reply = f"{prefix(g.id)}/to/{board}"
        message = (f"the host board ({self.play.board_id}) takes at most {limit} requests about a game in "
                   f"{RATE_WINDOW:.0f} s from one board: nothing was written; try again in {wait} s")
        answer = {"kind": "refused", "id": rid, "status": 429, "retry_after": wait,
                  "body": error_body("rate_limited", message, {"retry_after": wait})}
        await client.publish(reply, sealed(g.secret, reply, answer), qos=1)

    async def _join(self, client: Any, g: RemoteGame, board: str, rid: Any) -> dict[str, Any]:
        if g.guest not in (None, board):
            return {"kind": "joined", "id": rid, "status": 409,
                    "body": error_body("seat_taken", "another board has joined this game")}
        if g.guest is None:
            g.guest = board
            await asyncio.to_thread(self.play.save)
            await client.subscribe(presence_topic(board), qos=1)
            self.play.announce({"type": "remote", "game": g.id, "joined": board})  # the host's phones hear it
        if g.dealt:
            return dict(await self.dealt.joined(g, rid))
        events = await asyncio.to_thread(wire_events, self.play.table, g.id, 0)
        return {"kind": "joined", "id": rid, "status": 201, "events": events}

    async def _proposal(self, g: RemoteGame, board: str, body: dict[str, Any]) -> dict[str, Any]:
        op, args = body.get("op"), body.get("body")
        cid, expected, n = body.get("client_id"), body.get("expected_version"), body.get("hand")
        if op not in OPS or not isinstance(args, dict) or len(args) > 12:
            return {"status": 422, "body": error_body("invalid_proposal", f"a proposal's op is one of "
                                                      f"{', '.join(OPS)}, with a body object")}
        if op == "correct" and (isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 10 ** 6):
            return {"status": 422, "body": error_body("invalid_proposal", "a correction names its hand: a number")}
        if cid is not None and (not isinstance(cid, str) or len(cid) > 100):
            return {"status": 422, "body": error_body("invalid_proposal", "client_id is a text of up to 100 characters")}
        if expected is not None and (isinstance(expected, bool) or not isinstance(expected, int)):
            return {"status": 422, "body": error_body("invalid_proposal", "expected_version is a number")}
        try:
            out = await asyncio.to_thread(self._write, g.id, op, args, cid, expected, board, n)
        except CompanionError as exc:
            return {"status": http_status(exc), "body": error_body(exc.code, exc.message, exc.details)}
        return {"status": 200, "body": out}

    def _write(self, gid: str, op: str, args: dict[str, Any], cid: str | None, expected: int | None,
               board: str, n: Any = None) -> dict[str, Any]:
        """The guest's proposal as a write on this board's table, as the API makes it."""
        table = self.play.table
        # a client id is the guest's phone's: kept apart from this board's own phones' ids
        key = None if cid is None else f"{board}:{cid}"
        if op == "action":
            return dict(table.action(gid, args.get("action"), client_id=key, expected_version=expected))
        if op in ("hand", "correct"):
            entry = hand_entry(args)
            if op == "hand":
                return dict(table.score_hand(gid, entry, client_id=key, expected_version=expected, by=f"board {board}"))
            return dict(table.correct_hand(gid, int(n), entry, client_id=key, expected_version=expected,
                                           by=f"board {board}"))
        if op == "undo":
            return dict(table.undo(gid, client_id=key, expected_version=expected, by=f"board {board}"))
        return dict(table.redo(gid, client_id=key, expected_version=expected, by=f"board {board}"))


__all__ = ["Hosting", "OPS"]
