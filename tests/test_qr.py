"""The pairing QR code ``gingo serve`` prints scans on a light and on a dark terminal.

The printed text is drawn the way a terminal draws it (each character cell 8 px wide and
16 px tall; a half block inks its half in the foreground colour; ANSI colours set the
foreground and background, otherwise the terminal's own colours apply, with the
terminal's background all around) and the picture is read by zxing-cpp, a maintained QR
decoder, as a phone camera would read it.
"""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from companion.commands.serve import QUIET, banner, colour_wanted, qr_text

zxingcpp = pytest.importorskip("zxingcpp")

URL = "http://192.168.1.20:8000/?code=483920"
CELL = 8
# (foreground, background) of each theme, as grey levels
LIGHT = (20, 250)
DARK = (215, 25)
# the 16 ANSI colours a QR text may use, as grey levels (30 black ... 107 bright white)
SGR_GREY = {30: 0, 37: 190, 90: 110, 97: 255, 40: 0, 47: 190, 100: 110, 107: 255}
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def draw(text: str, theme: tuple[int, int], margin: int = 3) -> np.ndarray:
    """The terminal's picture of ``text`` in ``theme`` (its default colours)."""
    lines = text.rstrip("\n").split("\n")
    width = max(len(SGR.sub("", ln)) for ln in lines) + 2 * margin
    height = len(lines) + 2 * margin
    img = np.full((height * 2 * CELL, width * CELL), theme[1], dtype=np.uint8)
    for row, ln in enumerate(lines, start=margin):
        fg, bg = theme
        col = margin
        pos = 0
        while pos < len(ln):
            m = SGR.match(ln, pos)
            if m:
                for code in (int(c) for c in (m.group(1) or "0").split(";") if c):
                    if code == 0:
                        fg, bg = theme
                    elif 30 <= code <= 37 or 90 <= code <= 97:
                        fg = SGR_GREY.get(code, fg)
                    elif 40 <= code <= 47 or 100 <= code <= 107:
                        bg = SGR_GREY.get(code, bg)
                pos = m.end()
                continue
            ch = ln[pos]
            top = fg if ch in "\u2588\u2580" else bg
            bottom = fg if ch in "\u2588\u2584" else bg
            y, x = row * 2 * CELL, col * CELL
            img[y:y + CELL, x:x + CELL] = top
            img[y + CELL:y + 2 * CELL, x:x + CELL] = bottom
            col += 1
            pos += 1
    return img


def decoded(img: np.ndarray) -> list[str]:
    """What a camera app reads: dark modules on a light ground only (many apps never try a
    negative code, so neither does this)."""
    return [r.text for r in zxingcpp.read_barcodes(img, formats=zxingcpp.BarcodeFormat.QRCode, try_invert=False)]


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light terminal", "dark terminal"])
def test_the_coloured_code_scans_on_light_and_dark_terminals(theme: tuple[int, int]) -> None:
    assert decoded(draw(qr_text(URL, colour=True), theme)) == [URL]


def test_the_old_inverted_print_failed_on_a_light_terminal() -> None:
    """The test can fail: qrcode's own inverted print (what gingo serve printed before)
    draws light modules as ink, so a light terminal shows a negative code."""
    import qrcode

    qr = qrcode.QRCode(border=1)
    qr.add_data(URL)
    buf = io.StringIO()
    qr.print_ascii(out=buf, invert=True)
    assert decoded(draw(buf.getvalue(), DARK)) == [URL]
    assert decoded(draw(buf.getvalue(), LIGHT)) == []


def test_the_code_has_its_quiet_zone_and_plain_text_is_dark_on_light() -> None:
    text = qr_text(URL, colour=False)
    lines = text.rstrip("\n").split("\n")
    assert not any("\x1b" in ln for ln in lines)
    assert all(ln == " " * len(ln) for ln in lines[:QUIET // 2] + lines[-(QUIET // 2):])   # 4 modules = 2 lines
    assert all(ln[:QUIET] == " " * QUIET and ln[-QUIET:] == " " * QUIET for ln in lines)
    assert decoded(draw(text, LIGHT)) == [URL]            # blocks are the dark modules
    # a coloured code keeps its quiet zone on a dark terminal: it is painted white, not left to the terminal
    img = draw(qr_text(URL, colour=True), DARK, margin=0)
    assert (img[: QUIET * CELL] == 255).all() and (img[:, : QUIET * CELL] == 255).all()


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colours_only_where_a_terminal_shows_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert colour_wanted(Tty()) and not colour_wanted(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_wanted(Tty())


def test_the_banner_prints_a_code_that_scans(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """gingo serve's start-up text, on a terminal: the code in it opens the pairing link."""
    from types import SimpleNamespace

    monkeypatch.delenv("NO_COLOR", raising=False)
    svc = SimpleNamespace(pairing=SimpleNamespace(code="483920", window=600, host_code="h-1"),
                          sync=SimpleNamespace(leds_name="sim", sensors=SimpleNamespace(name="sim")),
                          app=SimpleNamespace(state=SimpleNamespace(calibration="defaults")), warnings=[])
    out = Tty()
    banner(svc, "0.0.0.0", 8000, ["192.168.1.20"], qr=True, out=out)  # type: ignore[arg-type]
    text = out.getvalue()
    code = "\n".join(ln for ln in text.split("\n") if "\x1b[" in ln)
    for theme in (LIGHT, DARK):
        assert decoded(draw(code, theme)) == [URL]
