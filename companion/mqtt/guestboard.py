"""Remote play on the guest's own board: its LEDs show the host's game, its buttons ask the host.

The guest's board sync (:class:`~companion.hardware.sync.BoardSync`) follows the remote
games of this board through :class:`GuestBoard`, its
:class:`~companion.hardware.sync.Followed`:

- a tracked remote game is a copy in the guest's own log: the table finds it like a local
  game, and each event the host sends is a commit here;
- a remote dealt Gin-Go game has no log here (:mod:`.dealt`): the board shows the host's
  public game, the guest's *mirror* (the board as everyone sees it: chips, links, suit
  rows, whose turn; never a card of a hand), and shows it from the moment a newer one
  arrives, as the table's game shows from its last commit.

The host owns the game, so the guest's board writes nothing itself. A button pressed on it
asks the host, exactly as a phone at the guest would (docs/remote.md, "The guest's
board"): **undo** is a proposal to undo the game's last move (the host's rules and its
both-boards check decide); **next hand** is a proposal of the ``new_hand`` action in a
tracked game, and in a dealt game, as on a local one, is refused (the seat to play deals
from its phone). A refusal, or a host out of reach, is published on the guest's live
channel as a ``button`` message with its ``error``; nothing is retried behind the
players' backs.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from companion.errors import CompanionError
from companion.mqtt.agreement import on_board

log = logging.getLogger("companion.mqtt.remote")

#: the holder the host knows a guest's board buttons by (``<guest board>:board``): an undo
#: names no seat, and this holder holds none
BUTTON_HOLDER = "board"


class GuestBoard:
    """What the guest's board shows and where its buttons go (see the module docstring);
    a part of :class:`~companion.mqtt.remote.RemotePlay` (``play``)."""

    def __init__(self, play: Any) -> None:
        self.play = play

    def board_games(self) -> list[dict[str, Any]]:
        """The remote dealt Gin-Go games this board follows: the host's public games."""
        play = self.play
        out = []
        for gid, game in list(play.dealt.mirrors.items()):
            if play.is_mirror(gid) and on_board(game.get("variant")):
                out.append(game)
        return out

    def owner_of(self, game_id: str) -> str | None:
        """The host board of a remote game this board follows (None: not one)."""
        g = self.play.games.get(game_id)
        return None if g is None or g.role != "guest" else str(g.host)

    def changed(self, game_id: str) -> None:
        """The host sent a newer public game of ``game_id``: the board shows it now."""
        sync = self.play.sync
        game = self.play.dealt.mirrors.get(game_id)
        if sync is not None and game is not None and on_board(game.get("variant")):
            sync.followed_changed(game_id)

    def button(self, game_id: str, name: str) -> None:
        """A board button on a remote game (from the button thread): asked of the host on
        the adapter's loop; a refusal published, never raised here."""
        play = self.play
        loop = play._loop
        if loop is None or loop.is_closed():
            self._refused(name, "remote play has not started yet: press it again in a moment")
            return
        fut = asyncio.run_coroutine_threadsafe(self._ask(game_id, name), loop)
        fut.add_done_callback(lambda f: self._done(name, f))

    async def _ask(self, game_id: str, name: str) -> tuple[int, dict[str, Any]]:
        play = self.play
        if play.is_mirror(game_id):
            if name == "next_hand":
                return 409, {"error": {"code": "illegal_action", "message":
                                       "a dealt game deals the next hand when the seat to play does it, "
                                       "from its phone"}}
            return await play.dealt.ask(game_id, "undo", BUTTON_HOLDER)  # type: ignore[no-any-return]
        if name == "undo":
            return await play.propose(game_id, "undo", {})  # type: ignore[no-any-return]
        return await play.propose(game_id, "action", {"action": {"type": "new_hand"}})  # type: ignore[no-any-return]

    def _done(self, name: str, fut: Any) -> None:
        try:
            status, out = fut.result()
        except CompanionError as exc:
            self._refused(name, exc.message)
            return
        except Exception as exc:  # a bug must not pass silently: the players are told
            log.exception("remote: the %s button failed", name)
            self._refused(name, f"the {name} button failed ({exc})")
            return
        if status != 200:
            err = out.get("error") if isinstance(out, dict) else None
            message = err.get("message") if isinstance(err, dict) else None
            self._refused(name, str(message or f"the host board refused ({status})"))

    def _refused(self, name: str, message: str) -> None:
        sync = self.play.sync
        if sync is not None:
            sync.publish({"type": "button", "name": name, "error": message})


__all__ = ["GuestBoard", "BUTTON_HOLDER"]
