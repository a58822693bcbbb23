"""Accept a space's new state only after it holds: N agreeing scans and a settle time.

Each space is debounced on its own, so a chip being wiggled on one space never delays
a change on another. Until every space has settled once the stable board is unknown.

>>> d = Debouncer(scans=3, settle=0.02)
>>> [d.feed("1" + "." * 51, t / 100) for t in range(3)]   # 0, 10, 20 ms: settled
[None, None, [0]]
>>> d.stable[:3]
'1..'
>>> d.feed("." * 52, 0.03), d.feed("1" + "." * 51, 0.04)   # one-scan flicker
(None, None)
>>> d.stable[:3]
'1..'
"""

from __future__ import annotations

SPACES = 52


class Debouncer:
    """Per-space debouncer. ``scans``: consecutive agreeing scans; ``settle``: seconds."""

    def __init__(self, scans: int = 5, settle: float = 0.05) -> None:
        if not isinstance(scans, int) or scans < 1:
            raise ValueError(f"debounce scans must be an integer >= 1, got {scans!r}")
        if not 0 <= settle < float("inf"):
            # NaN or inf passed "< 0" and then no change was ever accepted, silently
            raise ValueError(f"debounce settle time must be a finite number >= 0 seconds, got {settle!r}")
        self.scans = scans
        self.settle = settle
        self._stable: list[str | None] = [None] * SPACES
        self._cand: list[str] = ["?"] * SPACES
        self._count: list[int] = [0] * SPACES
        self._since: list[float] = [0.0] * SPACES
        self._held: list[bool] = [False] * SPACES
        self._stable_str: str | None = None
        self._ready = False
        # Fast path: once every space holds its accepted state (nothing pending), a scan
        # equal to the last one cannot change anything: one string comparison.
        self._idle = False
        self._last = ""

    @property
    def stable(self) -> str | None:
        """The accepted board, or None until every space has settled once."""
        return self._stable_str

    @property
    def ready(self) -> bool:
        """True once every space has held one state for the whole window since the
        start or the last :meth:`restart`."""
        return self._ready

    @property
    def idle(self) -> bool:
        """True when nothing is pending: every space holds its accepted state."""
        return self._idle

    def restart(self) -> None:
        """Require fresh agreement (after the link was down); keep the accepted board."""
        self._cand = ["?"] * SPACES
        self._count = [0] * SPACES
        self._held = [False] * SPACES
        self._ready = False
        self._idle = False

    def feed(self, board: str, t: float) -> list[int] | None:
        """Feed one classified scan taken at time ``t`` (seconds, monotonic).

        Returns the spaces whose accepted state changed with this scan (the first time
        the board becomes known: the spaces holding a chip), or None when nothing did.
        """
        if len(board) != SPACES:
            raise ValueError(f"a board has {SPACES} characters, got {len(board)}")
        if self._idle and board == self._last:
            return None
        self._last = board
        was_known = self._stable_str is not None
        changed: list[int] = []
        for i, c in enumerate(board):
            if c != self._cand[i]:
                self._cand[i] = c
                self._count[i] = 1
                self._since[i] = t
            elif self._count[i] < self.scans:
                self._count[i] += 1
            if self._count[i] >= self.scans and t - self._since[i] >= self.settle - 1e-6:
                self._held[i] = True
                if self._stable[i] != c:
                    self._stable[i] = c
                    changed.append(i)
        if not self._ready:
            self._ready = all(self._held)
        self._idle = self._ready and all(n >= self.scans for n in self._count) and self._cand == self._stable
        if changed and all(x is not None for x in self._stable):
            self._stable_str = "".join(x for x in self._stable if x is not None)
        if not changed:
            return None
        if not was_known:
            stable = self.stable
            if stable is None:
                return None
            return [i for i, c in enumerate(stable) if c != "."] or None
        return changed
