"""Which Raspberry Pi this is, read from ``/proc`` (the root is injectable for tests).

>>> import pathlib, tempfile
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> (root / "proc/device-tree").mkdir(parents=True)
>>> _ = (root / "proc/device-tree/model").write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\\x00")
>>> read_pi_model(root), is_pi5(read_pi_model(root))
('Raspberry Pi 5 Model B Rev 1.0', True)
"""

from __future__ import annotations

from pathlib import Path

#: Boards built on the RP1 I/O chip, where rpi_ws281x does not work.
RP1_MARKERS: tuple[str, ...] = ("Raspberry Pi 5", "Raspberry Pi 500", "Compute Module 5")


def read_pi_model(root: str | Path = "/") -> str | None:
    """The board model string, or ``None`` when this is not a Raspberry Pi (or unreadable)."""
    base = Path(root)
    try:
        text = (base / "proc/device-tree/model").read_bytes().rstrip(b"\x00").decode("utf-8", "replace").strip()
        if text:
            return text
    except OSError:
        pass
    try:
        for line in (base / "proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "Model" and value.strip():
                return value.strip()
    except OSError:
        pass
    return None


def is_raspberry_pi(model: str | None) -> bool:
    return model is not None and "Raspberry Pi" in model


def is_pi5(model: str | None) -> bool:
    """True for boards with the RP1 chip (Pi 5, Pi 500, CM5)."""
    return model is not None and any(m in model for m in RP1_MARKERS)
