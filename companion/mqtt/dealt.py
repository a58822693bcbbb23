"""Remote play of a dealt game: the host holds the hands; the guest holds no copy of them.

In a dealt game the companion shuffles and holds every seat's cards; its first event
carries the secret key every hand is shuffled from. So the guest keeps **no log** of a
remote dealt game (a log would hold the key, and so every hand). Instead:

- the host publishes, after each commit, the game as every player sees it (its public
  rendering, :meth:`~companion.table.dealt.DealtGame.public`: no card of a hand in play,
  no stock order, no key) on ``P/state``, retained, with its summary line (``line``, what
  ``GET /api/v1/games`` lists); the guest keeps the latest of both in memory (its *mirror*),
  which its phones read as ``GET /api/v1/games/{id}``, and lists the line among its own
  games (``GET /api/v1/games``, the live channel's snapshot);
- a seat is held by a phone of one home. A guest's phone that claims a seat is known to
  the host as ``<guest board>:<token id>``. The guest asks the host for that seat's view
  (``kind: view``) each time its phone reads ``GET .../view``; the host answers on
  ``P/to/<guest>`` (only the guest's account may read it, docs/remote.md) with the view
  of that holder only, and only a seat held by that board's phone has cards in it;
- a move, a seat claim, a seat freed or a hint from the guest is a proposal the host
  writes through its own table, exactly as for its own phones; the verdict carries the
  seat's view and the public game.

:class:`DealtRemote` is a part of :class:`~companion.mqtt.remote.RemotePlay` (``play``).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import logging
import zlib
from typing import Any

from companion.errors import CompanionError, Conflict
from companion.mqtt.wire import RemoteGame, RemoteUnreachable, error_body, prefix, sealed

log = logging.getLogger("companion.mqtt.remote")

#: what a guest may ask of a dealt game: a seat's view, and the writes its phones make
DEALT_OPS = ("view", "play", "claim", "free", "hint", "undo", "redo")
#: the longest token id (a guest phone's) the host accepts as part of a holder
MAX_HOLDER = 64
#: bytes: the longest public game a guest unpacks (a long Color Gin game is ~80 KB of JSON,
#: ~10 KB packed, under the 64 KB a message may have)
MAX_UNPACKED = 2 * 1024 * 1024


def pack(game: dict[str, Any]) -> str:
    """The public game, deflated and in base64 (what the messages carry).

    >>> unpack(pack({"id": "r1", "version": 3})) == {"id": "r1", "version": 3}
    True
    >>> unpack("not base64!") is None, unpack(base64.b64encode(zlib.compress(b"0" * (MAX_UNPACKED + 1))).decode())
    (True, None)
    """
    return base64.b64encode(zlib.compress(json.dumps(game, separators=(",", ":")).encode(), 6)).decode()


def unpack(text: Any) -> dict[str, Any] | None:
    """:func:`pack`'s game, or None when ``text`` is not one (or unpacks past :data:`MAX_UNPACKED`)."""
    if not isinstance(text, str):
        return None
    try:
        inflater = zlib.decompressobj()
        raw = inflater.decompress(base64.b64decode(text, validate=True), MAX_UNPACKED)
        if inflater.unconsumed_tail or not inflater.eof:
            return None
        game = json.loads(raw)
    except (ValueError, binascii.Error, zlib.error):
        return None
    return game if isinstance(game, dict) else None


def http_status(exc: CompanionError) -> int:
    from companion.api.errors import http_status as status

    return int(status(exc))


class DealtRemote:
    """Remote dealt games on one board (see the module docstring)."""

    def __init__(self, play: Any, following: Any) -> None:
        self.play = play
        self.following = following
        #: guest: each dealt game as everyone sees it, the latest the host sent (memory only)
        self.mirrors: dict[str, dict[str, Any]] = {}
        #: guest: each dealt game's summary line, as the host lists it (memory only)
        self.lines: dict[str, dict[str, Any]] = {}

    # -- the host -----------------------------------------------------------------------------

    def _public(self, gid: str) -> dict[str, Any]:
        """The public game (packed) and its summary line, as the messages carry them (and
        the game's version, which :meth:`publish` takes out)."""
        table = self.play.table
        game = table.game(gid)
        return {"gz": pack(game), "line": table.summary(gid), "version": game["version"]}

    async def publish(self, client: Any, g: RemoteGame) -> int:
        """Publish the public game and its summary line (retained); its version."""
        public = await asyncio.to_thread(self._public, g.id)
        version = int(public["version"])
        topic = f"{prefix(g.id)}/state"
        await client.publish(topic, sealed(g.secret, topic, {"version": version, **public}), qos=1, retain=True)
        return version

    async def joined(self, g: RemoteGame, rid: Any) -> dict[str, Any]:
        public = await asyncio.to_thread(self._public, g.id)
        return {"kind": "joined", "id": rid, "status": 201, "dealt": True, "gz": public["gz"], "line": public["line"]}

    async def request(self, client: Any, g: RemoteGame, board: str, body: dict[str, Any], topic: str) -> None:
        """The guest's request on a dealt game: ``sync`` (the public game), ``view`` or
        ``propose`` (the host's answer with the verdict)."""
        kind, rid = body.get("kind"), body.get("id")
        reply = f"{prefix(g.id)}/to/{board}"
        if kind == "sync":
            public = await asyncio.to_thread(self._public, g.id)
            answer: dict[str, Any] = {"kind": "snapshot", "id": rid, "gz": public["gz"], "line": public["line"]}
        elif kind in ("view", "propose"):
            verdict = await self._verdict(g, board, body)
            out = verdict["body"]
            line = verdict.pop("line", None)
            if isinstance(out.get("game"), dict):  # the public game after a move: packed, with its line
                verdict = {**verdict, "body": {k: v for k, v in out.items() if k != "game"}, "gz": pack(out["game"]),
                           "line": line}
            answer = {"kind": "verdict", "id": rid, **verdict}
        elif kind == "report":  # the chips the guest's board reads: the host compares them (agreement.py)
            if not self.play.agreement.note_sensed(g.id, body.get("sensed")):
                self.play.drop(topic, "a dealt game's report is {sensed}: 52 characters of '.', '1', '2', or null")
            return
        else:
            self.play.drop(topic, f"unknown request {kind!r}")
            return
        await client.publish(reply, sealed(g.secret, reply, answer), qos=1)

    async def _verdict(self, g: RemoteGame, board: str, body: dict[str, Any]) -> dict[str, Any]:
        op = "view" if body.get("kind") == "view" else body.get("op")
        holder, seat, args = body.get("holder"), body.get("seat"), body.get("body") or {}
        cid, expected = body.get("client_id"), body.get("expected_version")
        problem = None
        if op not in DEALT_OPS:
            problem = f"a dealt game's request is one of {', '.join(DEALT_OPS)}"
        elif not isinstance(holder, str) or not 0 < len(holder) <= MAX_HOLDER:
            problem = f"holder is the guest phone's token id (up to {MAX_HOLDER} characters)"
        elif seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 8):
            problem = "seat is a seat number"
        elif op in ("claim", "free") and seat is None:
            problem = f"{op} needs a seat"
        elif not isinstance(args, dict) or len(args) > 8:
            problem = "body is an object"
        elif cid is not None and (not isinstance(cid, str) or len(cid) > 100):
            problem = "client_id is a text of up to 100 characters"
        elif expected is not None and (isinstance(expected, bool) or not isinstance(expected, int)):
            problem = "expected_version is a number"
        if problem is not None:
            return {"status": 422, "body": error_body("invalid_proposal", problem)}
        try:
            out, line = await asyncio.to_thread(self._written, g.id, board, str(op), str(holder), seat, args, cid,
                                                expected)
        except CompanionError as exc:
            return {"status": http_status(exc), "body": error_body(exc.code, exc.message, exc.details)}
        return {"status": 200, "body": out, "line": line}

    def _written(self, gid: str, board: str, op: str, holder: str, seat: int | None, args: dict[str, Any],
                 cid: str | None, expected: int | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """:meth:`_write`, and after a write the game's summary line (on the same thread)."""
        out = self._write(gid, board, op, holder, seat, args, cid, expected)
        return out, (self.play.table.summary(gid) if isinstance(out.get("game"), dict) else None)

    def _write(self, gid: str, board: str, op: str, holder: str, seat: int | None, args: dict[str, Any],
               cid: str | None, expected: int | None) -> dict[str, Any]:
        """The guest's request on this board's table, as this board's API makes it; the
        guest's phones are holders of their own (``<board>:<token id>``), so a guest's
        request can read or move only the seats its own phones hold."""
        table = self.play.table
        who = f"{board}:{holder}"
        key = None if cid is None else f"{board}:{cid}"
        if op == "view":
            return dict(table.dealing.view(gid, who))
        if op == "play":
            return dict(table.dealing.play(gid, who, args.get("action"), client_id=key, expected_version=expected))
        if op == "claim":
            assert seat is not None
            return dict(table.dealing.claim_seat(gid, seat, who, client_id=key))
        if op == "free":
            assert seat is not None
            held = table.held(gid)
            current = None if held is None or held.dealt is None else held.dealt.seats.get(seat)
            if current is not None and not str(current).startswith(f"{board}:"):
                raise Conflict(f"seat {seat} is held by a phone at the host's board: only its host frees it",
                               code="seat_elsewhere", details={"seat": seat})
            return {"game": table.dealing.free_seat(gid, seat)}  # the game, packed on the way (:meth:`request`)
        if op == "hint":
            return dict(table.dealing.hint(gid, who))
        if op == "undo":
            return dict(table.undo(gid, client_id=key, expected_version=expected, by=f"board {board}"))
        return dict(table.redo(gid, client_id=key, expected_version=expected, by=f"board {board}"))

    # -- the guest ------------------------------------------------------------------------------

    def take(self, gid: str, game: Any, line: Any = None) -> None:
        """Keep ``game`` (the host's public game) as the mirror, unless an older one, and
        ``line``, its summary line, when it is of the same game and not older."""
        if not isinstance(game, dict) or game.get("id") != gid or not isinstance(game.get("version"), int):
            return
        if game.get("mode") != "dealt":
            return  # a dealt game's mirror is its public rendering only
        if isinstance(line, dict) and line.get("id") == gid and line.get("mode") == "dealt" \
                and isinstance(line.get("version"), int) and line["version"] <= game["version"] \
                and line["version"] >= self.lines.get(gid, {}).get("version", 0):
            self.lines[gid] = line
        current = self.mirrors.get(gid)
        if current is None or game["version"] > current["version"]:
            self.mirrors[gid] = game
            self.play.announce({"type": "remote_game", "game_id": gid, "version": game["version"],
                                "game": self.line(gid)})
            board = getattr(self.play, "board", None)
            if board is not None:
                board.changed(gid)  # the guest's own LEDs show it

    def take_packed(self, gid: str, text: Any, line: Any = None) -> None:
        self.take(gid, unpack(text), line)

    def line(self, gid: str) -> dict[str, Any] | None:
        """The game's summary line as the host lists it, with its ``remote`` part (None:
        none heard yet). Its ``seq`` is the host's log's."""
        line = self.lines.get(gid)
        return None if line is None else {**line, "remote": self.play.describe(gid)}

    def listed(self) -> list[dict[str, Any]]:
        """The summary lines of the dealt games this board follows, oldest first."""
        lines = [line for gid in list(self.lines) if self.play.is_mirror(gid) and (line := self.line(gid))]
        return sorted(lines, key=lambda line: (float(line.get("created") or 0), str(line["id"])))

    def version(self, gid: str) -> int:
        m = self.mirrors.get(gid)
        return int(m["version"]) if m is not None else 0

    def mirror(self, gid: str) -> dict[str, Any]:
        """The game as the host last published it, with its ``remote`` part."""
        m = self.mirrors.get(gid)
        if m is None:
            g = self.play.games[gid]
            raise RemoteUnreachable(f"this board has not heard from the host board ({g.host}) since it started: "
                                    "the game shows once the host is online")
        return {**m, "remote": self.play.describe(gid)}

    def message(self, g: RemoteGame, kind: str, body: dict[str, Any]) -> None:
        """A message from the host about a dealt game this board follows."""
        game = unpack(body.get("gz")) if "gz" in body else None
        if kind == "state":
            self.take(g.id, game, body.get("line"))
        elif kind == "to":
            self.take(g.id, game, body.get("line"))
            out = body.get("body")
            if isinstance(out, dict) and game is not None and body.get("kind") == "verdict":
                out["game"] = game  # the answer to the phone, as the host's API gives it
            self.following.answered(body)

    async def ask(self, gid: str, op: str, holder: str, body: dict[str, Any] | None = None,
                  seat: int | None = None) -> tuple[int, dict[str, Any]]:
        """A guest phone's request (``holder``: its token id): the host's ``(status, body)``."""
        g = self.play.games[gid]
        client = self.following.reachable(g)
        body = dict(body or {})
        args = {k: v for k, v in body.items() if k not in ("client_id", "expected_version")}
        request: dict[str, Any] = {"kind": "view" if op == "view" else "propose", "op": op, "holder": holder,
                                   "seat": seat, "body": args, "client_id": body.get("client_id"),
                                   "expected_version": body.get("expected_version")}
        answer = await self.following.ask(client, g, request)
        status, out = answer.get("status"), answer.get("body")
        if not isinstance(status, int) or not isinstance(out, dict):
            raise RemoteUnreachable("the host's answer could not be read: nothing was written here")
        if status == 200:
            if op == "free":  # the answer is the game, as DELETE .../seats/{n} gives it
                out = dict(out.get("game") or out)
            want = out.get("version", (out.get("game") or {}).get("version"))
            if isinstance(want, int) and self.version(gid) < want:  # the snapshot is on its way: ask for it
                try:
                    await self.following.ask(client, g, {"kind": "sync"})
                except CompanionError as exc:  # the write is done: the retained snapshot brings the mirror
                    log.info("remote: game %s's snapshot after a write not asked for (%s)", gid, exc.code)
        return status, out


__all__ = ["DealtRemote", "DEALT_OPS"]
