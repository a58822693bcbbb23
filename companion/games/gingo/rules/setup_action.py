"""The Gin-Go set-up action: the suit rows (turned up from the deck, in one of the
formats, maybe secret, or given directly), the chips a recording form resumes, and the
flip for the first deal. :mod:`companion.games.gingo.rules.actions` offers :class:`Setup` with
the other actions.

>>> Setup.from_dict({"suit_rows": {"1": "SHDC", "2": "CDHS"}}).to_dict()
{'type': 'setup', 'suit_rows': {'1': 'SHDC', '2': 'CDHS'}}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion import cards as C
from companion import suit_rows as R
from companion.games.gingo.rules.errors import GingoInputError
from companion.games.gingo.rules.reading import Cards, bind_jokers, names, read_cards


@dataclass(frozen=True)
class Setup:
    """The suit-row set-up: ``reveal`` (cards turned until four suits showed) with an
    optional ``format`` and ``secret`` rows, or ``suit_rows`` directly; ``board`` resumes
    chips from a recording form. Full play reads the reveal from its deck."""

    dealer: int | None = None  # None: seat 0 (table tracking) or the game's first dealer (full play)
    reveal: Cards | None = None
    format: str | None = None
    secret: dict[int, str] | None = None
    suit_rows: dict[int, str] | None = None
    board: str | None = None
    # the flip for the first deal (option first_dealer): the cards flipped, round by
    # round, and the winner's choice under flip_high_chooses ("deal" or "pass")
    flips: tuple[tuple[str, ...], ...] | None = None
    choice: str | None = None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Setup:
        dealer = d.get("dealer")
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int) or dealer < 0):
            raise GingoInputError(f"dealer must be a seat number, got {dealer!r}")
        reveal = None
        if "suit_rows" in d:
            if any(k in d for k in ("reveal", "format", "secret")):
                raise GingoInputError("setup: give either suit_rows directly or reveal (with format and secret)")
        elif "reveal" in d:
            raw = d["reveal"]
            if not isinstance(raw, list) or not raw:
                raise GingoInputError("setup: reveal is the list of cards turned up until all four suits showed")
            reveal = bind_jokers(read_cards(raw, "setup reveal"), (), free=C.JOKERS, what="setup reveal",
                                 designate=False, none_left="both jokers were already turned")[0]
        fmt = d.get("format")
        if fmt is not None and not isinstance(fmt, str):
            raise GingoInputError(f"setup: format is normal, suit_for_suit or secrecy, not {fmt!r}")
        board = d.get("board")
        if board is not None and not isinstance(board, str):
            raise GingoInputError("setup board: a board string has 52 characters of . 1 2 in space order")
        secret = None if d.get("secret") is None else _rows(d["secret"], "secret suit row", "secret")
        rows = _rows(d["suit_rows"], "suit row", "suit_rows") if "suit_rows" in d else None
        flips = None
        if d.get("flips") is not None:
            raw_flips = d["flips"]
            if not isinstance(raw_flips, list) or not all(
                    isinstance(r, list) and all(isinstance(c, str) for c in r) for r in raw_flips):
                raise GingoInputError('setup flips: a list of rounds, each the list of cards flipped in seat order '
                                      '([["7H", "KD"], ...])')
            flips = tuple(tuple(r) for r in raw_flips)
        choice = d.get("choice")
        if choice is not None and choice not in ("deal", "pass"):
            raise GingoInputError(f"setup: the flip winner's choice is 'deal' or 'pass', not {choice!r}")
        return cls(dealer, reveal, fmt, secret, rows, board, flips, choice)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "setup"}
        if self.dealer is not None:
            out["dealer"] = self.dealer
        if self.reveal is not None:
            out["reveal"] = names(self.reveal)
        for key, value in (("format", self.format), ("board", self.board)):
            if value is not None:
                out[key] = value
        for key, rows in (("secret", self.secret), ("suit_rows", self.suit_rows)):
            if rows is not None:
                out[key] = {str(k): v for k, v in sorted(rows.items())}
        if self.flips is not None:
            out["flips"] = [list(r) for r in self.flips]
        if self.choice is not None:
            out["choice"] = self.choice
        return out


def _rows(raw: object, what: str, key: str) -> dict[int, str]:
    if not isinstance(raw, Mapping):
        raise GingoInputError(f'setup: {key} is {{"1": "SHDC", "2": "CDHS"}}')
    if set(map(str, raw)) - {"1", "2"}:
        raise GingoInputError(f'setup: {key} has keys "1" and "2" only')
    out = {}
    for side in (1, 2):
        v = raw.get(str(side), raw.get(side))
        if not isinstance(v, str):
            raise GingoInputError(f'setup: {what} of side {side}: write the four suits left to right, like "SHDC"')
        try:
            out[side] = R.parse_suit_row(v)
        except ValueError as exc:
            raise GingoInputError(f"setup: {what} of side {side}: {exc}") from None
    return out


__all__ = ["Setup"]
