"""Where the companion keeps its files.

The data directory holds the event log, calibration and pairing data. It is, in order:
the ``--data`` option, ``$GINGO_DATA``, ``$XDG_DATA_HOME/gingo``, ``~/.local/share/gingo``.
Under systemd the unit sets ``GINGO_DATA`` to its ``StateDirectory``.

The folder holds the hashes of the phones' tokens and every game, so it is created
readable by its owner only (``0700``); a folder found open to others is closed down to
that when the companion can.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def data_dir(override: str | os.PathLike[str] | None = None, *, create: bool = True,
             writable: bool = False) -> Path:
    """The data directory, created if missing; with ``writable``, checked by writing a
    scratch file in it (a read-only folder is refused up front, not at the first save).

    >>> import tempfile
    >>> d = data_dir(tempfile.mkdtemp() + "/x")
    >>> d.is_dir(), oct(d.stat().st_mode & 0o777)
    (True, '0o700')
    """
    if override:
        path = Path(override)
    elif os.environ.get("GINGO_DATA"):
        path = Path(os.environ["GINGO_DATA"])
    elif os.environ.get("XDG_DATA_HOME"):
        path = Path(os.environ["XDG_DATA_HOME"]) / "gingo"
    else:
        path = Path.home() / ".local" / "share" / "gingo"
    path = path.expanduser()
    if create:
        try:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise OSError(
                f"cannot create the data directory {path}: {exc.strerror}; "
                "pass --data DIR or set GINGO_DATA to a writable folder"
            ) from None
        owner_only(path, 0o700)
    if writable:
        try:
            with tempfile.TemporaryFile(dir=path):
                pass
        except OSError as exc:
            raise OSError(
                f"cannot write in the data directory {path}: {exc.strerror or exc}; "
                "pass --data DIR or set GINGO_DATA to a writable folder"
            ) from None
    return path


def owner_only(path: Path, mode: int) -> None:
    """Take group and other permissions off ``path`` when we own it and it has any
    (best effort: a folder owned by someone else is left as it is)."""
    try:
        st = path.stat()
        if st.st_uid == os.getuid() and st.st_mode & 0o077:
            os.chmod(path, mode)
    except OSError:
        pass
