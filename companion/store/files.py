"""The event log's file on disk: who may read it."""

from __future__ import annotations

import os
from pathlib import Path


def private_file(path: Path) -> None:
    """Create ``path`` readable and writable by its owner only (0600), or take group and
    other permissions off it: it holds the token hashes and every game."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return  # sqlite3.connect says what is wrong
    try:
        st = os.fstat(fd)
        if st.st_uid == os.getuid() and st.st_mode & 0o077:
            os.fchmod(fd, 0o600)
    except OSError:
        pass
    finally:
        os.close(fd)
