"""``WS /api/v1/live``: the route, and what the :class:`~companion.api.live.LiveHub`
sends on connect (the snapshot) and on resume (the events missed, in pages)."""


from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, WebSocket

from companion.api.limits import MAX_SEQ
from companion.api.live import MAX_REPLAY, LiveHub
from companion.api.routes.remote import with_followed
from companion.errors import InvalidInput, NotFound
from companion.pairing import Pairing
from companion.table import Table

router = APIRouter(tags=["live"])


SNAPSHOT_GAMES = 50  # game summaries in the connect snapshot


def snapshot(table: Table, sync: Any, remote: Callable[[], Any] = lambda: None) -> dict[str, Any]:
    """The first message of every connection: the games and the board as they stand
    (``remote``: the remote-play adapter, whose followed dealt games are listed too)."""
    # the newest games' summary lines only: older ones page in with GET /api/v1/games?before=
    seq = table.last_seq()
    page = with_followed(table.games_page(limit=SNAPSHOT_GAMES), remote(), SNAPSHOT_GAMES)
    return {"type": "snapshot", "seq": seq, "games": page["games"], "games_total": page["total"],
            "games_before": page["next_before"], "board": sync.state() if sync is not None else None}


def missed(table: Table, after: int, upto: int) -> list[dict[str, Any]]:
    """The stored events with ``after < seq <= upto``, at most :data:`MAX_REPLAY` of them."""
    evs = table.store.events(after=after, limit=MAX_REPLAY)
    return [{"type": "event", "seq": e.seq, "event": e.as_dict(), "game": None, "replay": True}
            for e in evs if e.seq <= upto]


def private_views(table: Table, holder: str, game_id: str | None) -> list[dict[str, Any]]:
    """The views of the seats ``holder`` holds: in ``game_id``, or in every open dealt game."""
    out = []
    for gid in [game_id] if game_id is not None else table.dealing.seats_held(holder):
        try:
            view = table.dealing.view(gid, holder)
        except (NotFound, InvalidInput):  # a game deleted or not dealt (an engine bug still raises)
            continue
        if view.get("seat") is not None:
            out.append(view)
    return out


def make_hub(table: Table, sync: Any, pairing: Pairing | None = None,
             remote: Callable[[], Any] = lambda: None) -> LiveHub:
    """The live hub of one app, reading snapshots and missed events from ``table``
    (``remote``: the app's remote-play adapter, None without one)."""
    def authenticate(token: str) -> str | None:
        rec = pairing.check(token) if pairing is not None else None
        return rec.id if rec is not None else None

    return LiveHub(lambda: snapshot(table, sync, remote), lambda after, upto: missed(table, after, upto),
                   authenticate, lambda holder, gid: private_views(table, holder, gid))


@router.websocket("/api/v1/live")
async def live(ws: WebSocket, after: str | None = None) -> None:
    cursor = None if after is None else after_param(after)
    if isinstance(cursor, str):
        # a bad ?after= used to be a bare 403 handshake refusal: say what is wrong instead
        await ws.accept()
        await ws.send_json({"type": "error", "error": {"code": "invalid_request", "message": cursor}})
        await ws.close(code=1008, reason="bad ?after=")
        return
    hub: LiveHub = ws.app.state.hub
    await hub.serve(ws, cursor)


def after_param(raw: str) -> int | str:
    """The live channel's ``?after=N``: a whole number from 0 to :data:`MAX_SEQ`, or the
    error message (never Python's integer-string limit error: any length is read here).

    >>> after_param("12"), after_param("-1")[:43]
    (12, 'after must be a whole number from 0 to 9007')
    >>> after_param("9" * 5000).endswith("... (5000 characters)'")
    True
    """
    text = raw.strip()
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > 16 or int(text) > MAX_SEQ:
        shown = raw if len(raw) <= 40 else f"{raw[:20]}... ({len(raw)} characters)"
        return f"after must be a whole number from 0 to {MAX_SEQ} (the last seq you saw), got {shown!r}"
    return int(text)
