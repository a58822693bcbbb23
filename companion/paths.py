"""Where the companion keeps its files.

The data directory holds the event log, calibration and pairing data. It is, in order:
the ``--data`` option, ``$GINGO_DATA``, ``$XDG_DATA_HOME/gingo``, ``~/.local/share/gingo``.
Under systemd the unit sets ``GINGO_DATA`` to its ``StateDirectory``.
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
    >>> d.is_dir()
    True
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
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OSError(
                f"cannot create the data directory {path}: {exc.strerror}; "
                "pass --data DIR or set GINGO_DATA to a writable folder"
            ) from None
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
