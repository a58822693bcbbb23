"""The durable count of acknowledged events, kept beside the log.

``events.sqlite3.acked`` holds one fixed-size line: the highest sequence number and the
number of events the log has acknowledged. It is rewritten in place after each commit
(and synced to disk at each checkpoint of the WAL), so it lives outside the WAL: when a
crash is followed by the loss of the WAL, or the log file goes missing or comes back
empty, the log holds fewer events than this file says were acknowledged, and the start-up
says so instead of silently starting with less.

A power cut may leave this file behind the log (it is written after the commit); that
only makes the check weaker for that one crash, never a false alarm.
"""

from __future__ import annotations

import os
from pathlib import Path

SUFFIX = ".acked"
_WIDTH = 64


class AckCounter:
    """The count file for the log at ``log_path``.

    >>> import tempfile, pathlib
    >>> c = AckCounter(pathlib.Path(tempfile.mkdtemp()) / "events.sqlite3")
    >>> c.read()
    (0, 0)
    >>> c.write(41, 40); c.read()
    (41, 40)
    >>> c.close()
    """

    def __init__(self, log_path: Path) -> None:
        self.path = log_path.with_name(log_path.name + SUFFIX)
        self.existed = self.path.exists()
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        if os.fstat(self._fd).st_size < _WIDTH:
            # the full width is reserved now, so later rewrites need no new disk space
            os.pwrite(self._fd, self._line(*self.read()), 0)
            os.fsync(self._fd)

    @staticmethod
    def _line(seq: int, count: int) -> bytes:
        return f"{seq} {count}".ljust(_WIDTH - 1).encode("ascii") + b"\n"

    def read(self) -> tuple[int, int]:
        """(highest acknowledged seq, acknowledged events); (0, 0) when unreadable."""
        try:
            raw = os.pread(self._fd, _WIDTH, 0).decode("ascii").split()
            return int(raw[0]), int(raw[1])
        except (OSError, ValueError, IndexError, UnicodeDecodeError, AttributeError):
            return 0, 0

    def write(self, seq: int, count: int) -> None:
        """Record a commit (in place; the OS writes it out, :meth:`sync` forces it)."""
        try:
            os.pwrite(self._fd, self._line(seq, count), 0)
        except OSError:
            pass  # the commit itself is durable; the check only gets weaker

    def sync(self) -> None:
        try:
            os.fsync(self._fd)
        except OSError:
            pass

    def close(self) -> None:
        try:
            os.close(self._fd)
        except OSError:
            pass
