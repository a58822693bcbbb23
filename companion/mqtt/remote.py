"""Two boards, one game: remote play through a broker both homes reach (``[remote]``).

The board that creates a remote game is its **host** and the only writer: every move of
the game, from either home, goes through the host's own table as a local write. The other
board, the **guest**, keeps a copy in its own event log (:mod:`companion.table.replica`),
so its phones, LEDs and sensors see a game like a local one. Each board's SQLite log stays
the truth; the broker only carries messages, and a guest can always catch up from the
host's log.

Topics (``P`` = ``gingo/v1/g/<game id>``; ``<board>`` is a board id):

- ``P/cmd/<board>``: the guest's requests to the host (join, propose, sync, report);
- ``P/to/<board>``: the host's answers (verdicts, events to catch up);
- ``P/ev``: each event the host commits, with its version and the board after it;
- ``P/state``: the host's retained snapshot (version, board, links, finished);
- ``gingo/v1/b/<board>/presence``: ``online``, and the Will ``offline`` (retained).

Every message of a game carries ``sig`` (:func:`sign`), made with the invite's secret.

A guest's write is a proposal with the phone's ``client_id`` and ``expected_version``;
the guest answers its phone with the host's verdict (200, 409 stale, 4xx refused), or
503 ``remote_unreachable`` when the broker or the host cannot be reached (nothing is
written then). Nobody is ever forfeited or timed out by a disconnect: the game waits.

Remote input is untrusted: a message over :data:`MAX_MESSAGE` bytes, not JSON, of the
wrong shape, without the right ``sig`` or over the rate limit is dropped and logged.
Nothing from ``homeassistant/#`` or the local API is forwarded: only the messages above.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import hmac
import json
import logging
import os
import secrets
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from companion.errors import BackendError, CompanionError, Conflict
from companion.mqtt.link import REMOTE_BACKOFF, BrokerLink, cancel_all
from companion.mqtt.settings import ID_PATTERN, RemoteSettings
from companion.table.replica import append_copy, copy_guard, version, wire_events

log = logging.getLogger(__name__)

#: bytes: a remote message longer than this is dropped
MAX_MESSAGE = 64 * 1024
#: messages from one board about one game per :data:`RATE_WINDOW` seconds before more are dropped
RATE_LIMIT = 100
#: messages from the host about one game per :data:`RATE_WINDOW` seconds, on the guest
HOST_RATE_LIMIT = 1000
RATE_WINDOW = 10.0
#: seconds a guest waits for the host's verdict before answering 503
VERDICT_TIMEOUT = 5.0
INVITE_PREFIX = "gingo1-"
OPS = ("action", "undo", "redo")
GAME_ID_LENGTH = 33  # "r" and 32 hex digits: 128 random bits


class RemoteUnreachable(BackendError):
    """The broker or the host board cannot be reached: nothing was written (503)."""

    code = "remote_unreachable"


class RemoteRefused(Conflict):
    """A remote request this board or the host refuses (409; the code says why)."""

    code = "remote_refused"


@dataclass
class RemoteGame:
    """What a board remembers of one remote game (``remote.json`` in the data folder)."""

    id: str
    role: str  # "host" or "guest"
    secret: str
    host: str
    guest: str | None = None


def prefix(game_id: str) -> str:
    return f"gingo/v1/g/{game_id}"


def presence_topic(board_id: str) -> str:
    return f"gingo/v1/b/{board_id}/presence"


def sign(secret: str, topic: str, body: dict[str, Any]) -> str:
    """The ``sig`` of a message: HMAC-SHA256 under the game's invite secret of its topic
    (which names the sender) and its JSON without ``sig``. Only the two boards know the
    secret (the invite goes from player to player, never over the broker), so neither the
    broker's operator nor another board can forge or redirect a message.

    >>> s = sign("00" * 16, "gingo/v1/g/r1/cmd/b", {"kind": "sync", "after": 3})
    >>> s == sign("00" * 16, "gingo/v1/g/r1/cmd/b", {"after": 3, "kind": "sync", "sig": s}), len(s)
    (True, 64)
    >>> s == sign("00" * 16, "gingo/v1/g/r1/cmd/c", {"kind": "sync", "after": 3})
    False
    """
    rest = {k: v for k, v in body.items() if k != "sig"}
    text = topic + "\n" + json.dumps(rest, sort_keys=True, separators=(",", ":"))
    return hmac.new(bytes.fromhex(secret), text.encode(), hashlib.sha256).hexdigest()


def sealed(secret: str, topic: str, body: dict[str, Any]) -> bytes:
    """``body`` with its ``sig``, as the bytes to publish on ``topic``."""
    return json.dumps({**body, "sig": sign(secret, topic, body)}).encode()


def genuine(secret: str, topic: str, body: dict[str, Any]) -> bool:
    sig = body.get("sig")
    return isinstance(sig, str) and hmac.compare_digest(sig, sign(secret, topic, body))


def make_invite(game_id: str, secret: str, host: str) -> str:
    """The invite code: the game's 128-bit id, the secret that is the right to join it, and
    the host board's id (URL-safe text, about 130 characters).

    >>> code = make_invite("r" + "1" * 32, "ab" * 16, "gingo_host")
    >>> read_invite(code) == ("r" + "1" * 32, "ab" * 16, "gingo_host")
    True
    >>> read_invite("gingo1-not base64!")
    Traceback (most recent call last):
    ...
    companion.errors.InvalidInput: not an invite code (it starts with gingo1- and is copied whole from the host's page)
    """
    raw = json.dumps({"g": game_id, "k": secret, "h": host}, separators=(",", ":")).encode()
    return INVITE_PREFIX + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def read_invite(code: Any) -> tuple[str, str, str]:
    from companion.errors import InvalidInput

    bad = InvalidInput("not an invite code (it starts with gingo1- and is copied whole from the host's page)",
                       code="invalid_invite")
    if not isinstance(code, str) or not code.startswith(INVITE_PREFIX) or len(code) > 400:
        raise bad
    body = code[len(INVITE_PREFIX):].strip()
    try:
        data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except (ValueError, binascii.Error):
        raise bad from None
    if not isinstance(data, dict):
        raise bad
    gid, secret, host = data.get("g"), data.get("k"), data.get("h")
    if not (_game_id_ok(gid) and isinstance(secret, str) and len(secret) == 32 and _hex(secret)
            and isinstance(host, str) and ID_PATTERN.match(host)):
        raise bad
    return gid, secret, host  # type: ignore[return-value]


def _hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def _game_id_ok(gid: Any) -> bool:
    return isinstance(gid, str) and len(gid) == GAME_ID_LENGTH and gid[0] == "r" and _hex(gid[1:])


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
        self.reports: dict[str, dict[str, Any]] = {}  # game id -> the guest's last report
        self.dropped = 0
        self.link = BrokerLink(settings, name="remote", client_id=f"{board_id}-remote",
                               will=(presence_topic(board_id), b"offline"), subscriptions=(),
                               on_connect=self._on_connect, on_message=self._on_message,
                               on_status=lambda status: self.announce({"type": "remote", "broker": status}),
                               max_backoff=REMOTE_BACKOFF)
        #: the live channel's publish (the phone pages show the other board offline, loudly)
        self.announce: Any = lambda msg: None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._rates: dict[str, list[float]] = {}
        self._sent: dict[str, int] = {}  # host: the last version published per game
        self._reported: dict[str, Any] = {}
        self._appended: dict[str, asyncio.Event] = {}  # set after each append to a copy
        self._asked: dict[str, float] = {}  # host: when it last asked a guest for its report
        self._report_dirty: asyncio.Event | None = None
        self._wake: asyncio.Event | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self._unsubscribe: Any = None
        #: host: each hosted game's (version, board) after its last commit, and the board
        #: this board's sensors read last (None: offline); what the write guard compares
        self._boards: dict[str, tuple[int, str]] = {}
        self._sensed: str | None = None
        table.add_write_hooks(guard=copy_guard(self.is_copy))
        table.add_write_hooks(guard=self._agreement_guard)

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

    def _save(self) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # it holds the invite secrets
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"games": [asdict(g) for g in self.games.values()]}, fh)
        tmp.replace(self.path)

    def is_copy(self, game_id: str) -> bool:
        g = self.games.get(game_id)
        return g is not None and g.role == "guest"

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
            report = self.reports.get(game_id) or {}
            out["peer_version"], out["peer_agrees"] = report.get("version"), report.get("agree")
            known = self._boards.get(game_id)
            out["own_agrees"] = None if self._sensed is None or known is None else known[1] == self._sensed
        return out

    # -- running ------------------------------------------------------------------------------

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._unsubscribe = self.table.subscribe(self._on_table)
        for g in self.games.values():
            if g.role == "host":
                try:
                    summary = self.table.summary(g.id)
                    self._boards[g.id] = (int(summary["version"]), str(summary["board"]))
                except CompanionError:
                    pass
        if self.sync is not None:
            previous = self.sync.publish
            self._sensed = self.sync.state().get("sensed")

            def fan(msg: dict[str, Any]) -> None:
                previous(msg)
                if msg.get("type") == "board":
                    view = msg.get("board") or {}
                    self._sensed = view.get("sensed")
                    self._call(self._report_soon)

            self.sync.publish = fan
        self._report_dirty = asyncio.Event()
        self._tasks.append(self._loop.create_task(self._publisher(), name="gingo-remote-publisher"))
        self._tasks.append(self._loop.create_task(self._reporter(), name="gingo-remote-reporter"))
        self.link.start()

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

        async def goodbye(client: Any) -> None:
            await client.publish(presence_topic(self.board_id), b"offline", qos=1, retain=True)

        await self.link.stop(goodbye)
        await cancel_all(self._tasks)

    def _call(self, fn: Any, *args: Any) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(fn, *args)
            except RuntimeError:
                pass

    def _on_table(self, ev: Any, msg: dict[str, Any]) -> None:
        g = self.games.get(getattr(ev, "game_id", ""))
        game = msg.get("game")
        if g is not None and isinstance(game, dict) and isinstance(game.get("version"), int):
            self._boards[g.id] = (game["version"], str(game.get("board")))
        if g is not None and self._wake is not None:
            self._call(self._wake.set)

    def _topics(self, g: RemoteGame) -> list[str]:
        p = prefix(g.id)
        if g.role == "host":
            return [f"{p}/cmd/+"] + ([presence_topic(g.guest)] if g.guest else [])
        return [f"{p}/ev", f"{p}/state", f"{p}/to/{self.board_id}", presence_topic(g.host)]

    async def _subscribe(self, client: Any, g: RemoteGame) -> None:
        for topic in self._topics(g):
            await client.subscribe(topic, qos=1)

    async def _on_connect(self, client: Any) -> None:
        await client.publish(presence_topic(self.board_id), b"online", qos=1, retain=True)
        for g in list(self.games.values()):
            await self._subscribe(client, g)
            if g.role == "guest":
                await self._request(client, g, {"kind": "sync", "after": await self._version(g.id)})
        self._sent.clear()  # the host publishes its snapshot again
        self._reported.clear()  # and the guest says again where it is
        if self._wake is not None:
            self._wake.set()
        self._report_soon()

    async def _version(self, game_id: str) -> int:
        return await asyncio.to_thread(version, self.table, game_id)

    async def _request(self, client: Any, g: RemoteGame, body: dict[str, Any]) -> None:
        topic = f"{prefix(g.id)}/cmd/{self.board_id}"
        await client.publish(topic, sealed(g.secret, topic, body), qos=1)

    # -- host: publishing the game ---------------------------------------------------------------

    async def _publisher(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            client = self.link.client
            if client is None:
                continue
            for g in [g for g in self.games.values() if g.role == "host"]:
                try:
                    await self._publish_game(client, g)
                except Exception as exc:
                    log.info("remote: game %s not published (%s); the guest catches up on reconnect", g.id, exc)

    async def _publish_game(self, client: Any, g: RemoteGame) -> None:
        after = self._sent.get(g.id)
        events = await asyncio.to_thread(wire_events, self.table, g.id, after if after is not None else 0)
        if after is None:
            events = events[-1:]  # after a (re)connect: the last event and the snapshot say where it is
        game = await asyncio.to_thread(self.table.game, g.id)
        snap = {"version": game["version"], "board": game.get("board"), "links": game.get("links"),
                "finished": bool(game.get("finished"))}
        ev_topic, state_topic = f"{prefix(g.id)}/ev", f"{prefix(g.id)}/state"
        for ev in events:
            await client.publish(ev_topic, sealed(g.secret, ev_topic, {"event": ev, **snap}), qos=1)
        await client.publish(state_topic, sealed(g.secret, state_topic, snap), qos=1, retain=True)
        self._sent[g.id] = int(game["version"])

    # -- messages ----------------------------------------------------------------------------------

    def _rate_ok(self, who: str, limit: int = 0) -> bool:
        now = time.monotonic()
        recent = [t for t in self._rates.get(who, []) if now - t < RATE_WINDOW]
        self._rates[who] = recent
        if len(recent) >= (limit or RATE_LIMIT):
            return False
        recent.append(now)
        return True

    def _drop(self, topic: str, why: str) -> None:
        self.dropped += 1
        log.warning("remote: dropped a message on %s: %s", topic, why)

    async def _on_message(self, message: Any) -> None:
        topic = str(message.topic)
        payload = message.payload if isinstance(message.payload, (bytes, bytearray)) else b""
        parts = topic.split("/")
        if len(parts) == 5 and parts[:2] == ["gingo", "v1"] and parts[2] == "b" and parts[4] == "presence":
            await self._on_presence(parts[3], bytes(payload))
            return
        if len(payload) > MAX_MESSAGE:
            self._drop(topic, f"{len(payload)} bytes, more than {MAX_MESSAGE}")
            return
        if len(parts) < 5 or parts[:3] != ["gingo", "v1", "g"]:
            self._drop(topic, "not a remote-play topic")
            return
        g = self.games.get(parts[3])
        if g is None:
            return
        sender = parts[5] if len(parts) == 6 and parts[4] == "cmd" else "host"
        try:
            body = json.loads(payload)
        except (ValueError, UnicodeDecodeError):
            body = None
        # a guest's reports (tiny, the latest wins) have their own budget beside its requests;
        # the host's messages (each move is an event, a snapshot and answers) a larger one
        bucket = "report" if isinstance(body, dict) and body.get("kind") == "report" else "request"
        limit = RATE_LIMIT if sender != "host" and parts[4] == "cmd" else HOST_RATE_LIMIT
        if not self._rate_ok(f"{g.id}/{sender}/{bucket}", limit):
            self._drop(topic, f"more than {limit} messages in {RATE_WINDOW:.0f} s from {sender}")
            return
        if not isinstance(body, dict):
            self._drop(topic, "not a JSON object" if body is not None else "not JSON")
            return
        if not genuine(g.secret, topic, body):
            self._drop(topic, "not signed with this game's invite secret")
            return
        kind = parts[4]
        if g.role == "host" and kind == "cmd" and len(parts) == 6:
            await self._host_request(g, parts[5], body, topic)
        elif g.role == "guest" and kind in ("ev", "state", "to"):
            await self._guest_message(g, kind, body, topic)

    async def _on_presence(self, board: str, payload: bytes) -> None:
        state = payload.decode("utf-8", "replace").strip()
        if state not in ("online", "offline"):
            return
        before = self.presence.get(board)
        self.presence[board] = state
        if before != state:
            self.announce({"type": "remote", "board": board, "online": state == "online"})
        if state == "online" and before != "online":
            self._reported.clear()  # a host that restarted knows nothing of this board's chips
            client = self.link.client
            for g in self.games.values():
                if client is not None and g.role == "guest" and g.host == board:
                    await self._request(client, g, {"kind": "sync", "after": await self._version(g.id)})
            self._report_soon()

    # -- host: the guest's requests ----------------------------------------------------------------

    async def _host_request(self, g: RemoteGame, board: str, body: dict[str, Any], topic: str) -> None:
        if not ID_PATTERN.match(board):
            self._drop(topic, "not a board id")
            return
        kind, rid = body.get("kind"), body.get("id")
        if rid is not None and (not isinstance(rid, str) or len(rid) > 64):
            self._drop(topic, "a request id is a short text")
            return
        client = self.link.client
        if client is None:
            return
        reply = f"{prefix(g.id)}/to/{board}"
        if kind == "join":
            if g.guest not in (None, board):
                answer: dict[str, Any] = {"kind": "joined", "id": rid, "status": 409,
                                          "body": _error("seat_taken", "another board has joined this game")}
            else:
                if g.guest is None:
                    g.guest = board
                    await asyncio.to_thread(self._save)
                    await client.subscribe(presence_topic(board), qos=1)
                events = await asyncio.to_thread(wire_events, self.table, g.id, 0)
                answer = {"kind": "joined", "id": rid, "status": 201, "events": events}
            await client.publish(reply, sealed(g.secret, reply, answer), qos=1)
            return
        if board != g.guest:
            self._drop(topic, f"{board} has not joined this game")
            return
        if kind == "sync":
            after = body.get("after")
            if isinstance(after, bool) or not isinstance(after, int) or not 0 <= after <= 10 ** 9:
                self._drop(topic, "sync needs after: a version")
                return
            events = await asyncio.to_thread(wire_events, self.table, g.id, after)
            await client.publish(reply, sealed(g.secret, reply, {"kind": "events", "id": rid, "events": events}), qos=1)
        elif kind == "report":
            v, agree = body.get("version"), body.get("agree")
            if isinstance(v, int) and not isinstance(v, bool) and agree in (True, False, None):
                self.reports[g.id] = {"version": v, "agree": agree}
            else:
                self._drop(topic, "a report is {version, agree}")
        elif kind == "propose":
            report = body.get("report")  # where the guest is as it proposes: no separate report needed
            if isinstance(report, dict) and isinstance(report.get("version"), int) and \
                    report.get("agree") in (True, False, None):
                self.reports[g.id] = {"version": report["version"], "agree": report["agree"]}
            verdict = await self._proposal(g, board, body)
            await client.publish(reply, sealed(g.secret, reply, {"kind": "verdict", "id": rid, **verdict}), qos=1)
        else:
            self._drop(topic, f"unknown request {kind!r}")

    async def _proposal(self, g: RemoteGame, board: str, body: dict[str, Any]) -> dict[str, Any]:
        op, args = body.get("op"), body.get("body")
        cid, expected = body.get("client_id"), body.get("expected_version")
        if op not in OPS or not isinstance(args, dict) or len(args) > 8:
            return {"status": 422, "body": _error("invalid_proposal", f"a proposal's op is one of {', '.join(OPS)}, "
                                                  "with a body object")}
        if cid is not None and (not isinstance(cid, str) or len(cid) > 100):
            return {"status": 422, "body": _error("invalid_proposal", "client_id is a text of up to 100 characters")}
        if expected is not None and (isinstance(expected, bool) or not isinstance(expected, int)):
            return {"status": 422, "body": _error("invalid_proposal", "expected_version is a number")}
        try:
            out = await asyncio.to_thread(self._write, g.id, op, args, cid, expected, board)
        except CompanionError as exc:
            from companion.api.errors import http_status

            return {"status": http_status(exc), "body": _error(exc.code, exc.message, exc.details)}
        return {"status": 200, "body": out}

    def _write(self, gid: str, op: str, args: dict[str, Any], cid: str | None, expected: int | None,
               board: str) -> dict[str, Any]:
        """The guest's proposal as a write on this board's table, as the API makes it."""
        # a client id is the guest's phone's: kept apart from this board's own phones' ids
        key = None if cid is None else f"{board}:{cid}"
        if op == "action":
            return dict(self.table.action(gid, args.get("action"), client_id=key, expected_version=expected))
        if op == "undo":
            return dict(self.table.undo(gid, client_id=key, expected_version=expected, by=f"board {board}"))
        return dict(self.table.redo(gid, client_id=key, expected_version=expected, by=f"board {board}"))

    # -- both boards agree before the next move --------------------------------------------------------

    def _agreement_guard(self, before: Any, after: Any, etype: str) -> None:
        """Host only: a move waits until both boards' chips show the game (each board's own
        sensors check its own chips); while the guest is offline the host plays on."""
        gid = getattr(before, "id", None)
        g = self.games.get(gid) if isinstance(gid, str) else None
        if g is None or not isinstance(gid, str) or g.role != "host" or etype == "game_deleted":
            return
        mine = self._host_agrees(gid, before.version)
        if mine is False:
            raise Conflict("the chips on this board differ from the game: move them as the "
                             "LEDs show first", code="boards_disagree")
        if g.guest is None or self.presence.get(g.guest) != "online" or self.link.status != "online":
            return
        report = self.reports.get(gid)
        if report is None or report["version"] != before.version or report["agree"] is False:
            if report is None or report["version"] != before.version:
                self._call(self._ask_report, g)  # a report lost on the way: ask for it again
            raise Conflict("the other board has not caught up or its chips differ from the "
                             "game: its LEDs show what to move", code="boards_disagree", details={"peer": g.guest, "peer_report": report, "version": before.version})

    def _ask_report(self, g: RemoteGame) -> None:
        """Host: ask the guest to say again where it is (at most once a second per game)."""
        now = time.monotonic()
        if now - self._asked.get(g.id, 0.0) < 1.0 or self._loop is None or g.guest is None:
            return
        self._asked[g.id] = now
        guest = g.guest

        async def go() -> None:
            client = self.link.client
            if client is not None:
                topic = f"{prefix(g.id)}/to/{guest}"
                await client.publish(topic, sealed(g.secret, topic, {"kind": "report_please"}), qos=1)

        self._tasks.append(self._loop.create_task(go()))

    def _host_agrees(self, gid: str, version: int) -> bool | None:
        """The host's own chips against ``gid`` at ``version`` (from the last commit's board
        and the last sensed board: a trial under the table's lock must not read the game,
        whose engine may already hold the move being tried). None: no sensors to check."""
        sensed = self._sensed
        if sensed is None or self.sync is None:
            return None
        known = self._boards.get(gid)
        return known is not None and known[0] == version and known[1] == sensed

    def _own_agreement(self, gid: str) -> bool | None:
        """True: this board's sensed chips match ``gid``; False: they differ; None: no
        sensors online, or the board follows another game (nothing to check)."""
        if self.sync is None:
            return None
        view = self.sync.state()
        if view.get("sensed") is None or view.get("game") != gid:
            return None
        return not view.get("mismatches")

    def _report_soon(self) -> None:
        """Guest: say where this board is (its version, whether its chips match) once the
        reporter gets to it; many calls before then make one report."""
        if self._report_dirty is not None:
            self._report_dirty.set()

    async def _reporter(self) -> None:
        assert self._report_dirty is not None
        while True:
            await self._report_dirty.wait()
            self._report_dirty.clear()
            for g in [g for g in self.games.values() if g.role == "guest"]:
                try:
                    await self._report(g)
                except Exception as exc:
                    log.info("remote: report for %s not sent (%s)", g.id, exc)

    async def _report(self, g: RemoteGame) -> None:
        client = self.link.client
        if client is None:
            return
        v = await self._version(g.id)
        agree = await asyncio.to_thread(self._own_agreement, g.id)
        if self._reported.get(g.id) == (v, agree):
            return
        self._reported[g.id] = (v, agree)
        await self._request(client, g, {"kind": "report", "version": v, "agree": agree})

    # -- guest: following the host -----------------------------------------------------------------------

    async def _guest_message(self, g: RemoteGame, kind: str, body: dict[str, Any], topic: str) -> None:
        if kind == "ev":
            ev = body.get("event")
            if not isinstance(ev, dict):
                self._drop(topic, "an event message has an event")
                return
            await self._append(g, [ev], topic)
        elif kind == "state":
            v = body.get("version")
            if isinstance(v, int) and v > await self._version(g.id) and self.link.client is not None:
                await self._request(self.link.client, g, {"kind": "sync", "after": await self._version(g.id)})
        elif kind == "to" and body.get("kind") == "report_please":
            self._reported.pop(g.id, None)
            self._report_soon()
        elif kind == "to":
            events = body.get("events")
            if isinstance(events, list):
                await self._append(g, events, topic)
            rid = body.get("id")
            fut = self._waiting.pop(rid, None) if isinstance(rid, str) else None
            if fut is not None and not fut.done():
                fut.set_result(body)

    async def _append(self, g: RemoteGame, events: list[Any], topic: str) -> None:
        good = [e for e in events if isinstance(e, dict)]
        have = await self._version(g.id)
        try:
            now = await asyncio.to_thread(append_copy, self.table, g.id, good)
        except CompanionError as exc:
            self._drop(topic, f"the host's event does not fold here ({exc.message})")
            return
        wanted = max((e.get("version", 0) for e in good if isinstance(e.get("version"), int)), default=0)
        if wanted > now and self.link.client is not None:  # a gap: ask for what is missing
            await self._request(self.link.client, g, {"kind": "sync", "after": now})
        if now != have:
            self._report_soon()
            event = self._appended.get(g.id)
            if event is not None:
                event.set()

    # -- the API's side ----------------------------------------------------------------------------------

    def host_game(self, variant: str, players: list[str], options: dict[str, Any], dealer: int,
                  client_id: str | None) -> dict[str, Any]:
        """Create a remote game hosted here (called from the API's thread); the game with
        its ``remote.invite``."""
        gid = "r" + secrets.token_hex(16)
        game = self.table.create_game(variant, players=players, options=options, dealer=dealer, client_id=client_id,
                                      game_id=gid)
        gid = game["id"]  # a retried client id: the game made the first time
        g = self.games.get(gid)
        if g is None:
            g = RemoteGame(gid, "host", secrets.token_hex(16), self.board_id)
            self.games[gid] = g
            self._save()
            summary = self.table.summary(gid)  # its creation was announced before it was known here
            self._boards.setdefault(gid, (int(summary["version"]), str(summary["board"])))
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
                await self._subscribe(client, g)
            if self._wake is not None:
                self._wake.set()

        try:
            asyncio.run_coroutine_threadsafe(go(), loop).result(5)
        except Exception as exc:  # the broker went away meanwhile: subscribed at the next connect
            log.info("remote: not yet subscribed to game %s (%s)", g.id, exc)

    async def join(self, invite: Any) -> dict[str, Any]:
        """Join the game of ``invite`` as its guest: its events copied here; the game."""
        gid, secret, host = read_invite(invite)
        if host == self.board_id:
            raise RemoteRefused("this board made that invite: give it to the other board", code="own_invite")
        known = self.games.get(gid)
        if known is not None and known.role == "host":
            raise RemoteRefused("this board hosts that game", code="own_invite")
        client = self.link.client
        if client is None:
            raise RemoteUnreachable("the remote broker cannot be reached: check [remote] and the network, then "
                                    "try again")
        g = known or RemoteGame(gid, "guest", secret, host, self.board_id)
        self.games[gid] = g
        try:
            await self._subscribe(client, g)
            answer = await self._ask(client, g, {"kind": "join"})
        except BaseException:
            if known is None:
                self.games.pop(gid, None)
            raise
        if answer.get("status") != 201:
            if known is None:
                self.games.pop(gid, None)
            err = (answer.get("body") or {}).get("error") or {}
            raise RemoteRefused(str(err.get("message") or "the host refused"), code=str(err.get("code") or "refused"))
        await asyncio.to_thread(self._save)
        game: dict[str, Any] = await asyncio.to_thread(self.table.game, gid)
        self._reported.pop(gid, None)  # a report sent before the host took the join was dropped
        self._report_soon()
        return {**game, "remote": self.describe(gid)}

    async def _ask(self, client: Any, g: RemoteGame, body: dict[str, Any]) -> dict[str, Any]:
        assert self._loop is not None
        rid = secrets.token_hex(8)
        fut: asyncio.Future[dict[str, Any]] = self._loop.create_future()
        self._waiting[rid] = fut
        try:
            await self._request(client, g, {**body, "id": rid})
            return await asyncio.wait_for(fut, VERDICT_TIMEOUT)
        except asyncio.TimeoutError:
            raise RemoteUnreachable(f"the host board ({g.host}) did not answer in {VERDICT_TIMEOUT:.0f} s: "
                                    "nothing was written; try again when it is online") from None
        except Exception as exc:
            if isinstance(exc, CompanionError):
                raise
            raise RemoteUnreachable(f"the remote broker cannot be reached ({exc}): nothing was written") from None
        finally:
            self._waiting.pop(rid, None)

    async def propose(self, game_id: str, op: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """A guest's write: the host's verdict ``(status, body)``; once accepted, this
        board's copy has the new version before the answer."""
        g = self.games[game_id]
        client = self.link.client
        if client is None or self.link.status != "online":
            raise RemoteUnreachable("the remote broker cannot be reached: nothing was written; the game waits")
        if self.presence.get(g.host) == "offline":
            raise RemoteUnreachable(f"the host board ({g.host}) is offline: nothing was written; the game waits "
                                    "for it")
        args = {k: v for k, v in body.items() if k not in ("client_id", "expected_version")}
        v = await self._version(g.id)
        agree = await asyncio.to_thread(self._own_agreement, g.id)
        answer = await self._ask(client, g, {"kind": "propose", "op": op, "body": args,
                                             "client_id": body.get("client_id"),
                                             "expected_version": body.get("expected_version"),
                                             "report": {"version": v, "agree": agree}})
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
        end = time.monotonic() + timeout
        asked = False
        while await self._version(g.id) < want:
            left = end - time.monotonic()
            if left <= 0:
                return
            if not asked and self.link.client is not None:
                await self._request(self.link.client, g, {"kind": "sync", "after": await self._version(g.id)})
                asked = True
            appended = self._appended.setdefault(g.id, asyncio.Event())
            appended.clear()
            if await self._version(g.id) >= want:
                return
            try:
                await asyncio.wait_for(appended.wait(), left)
            except asyncio.TimeoutError:
                return


def _error(code: str, message: str, details: Any = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details or {}}}


__all__ = ["RemotePlay", "RemoteGame", "RemoteUnreachable", "RemoteRefused", "make_invite", "read_invite", "sign"]
