"""firmware/protocol.py under CPython: the same bytes as docs/protocol.md and the companion.

The firmware itself (scan, viper framing, USB, LEDs, watchdog) runs on real MicroPython
in an emulated Pico: tests/test_pico.py.
"""

from __future__ import annotations

import importlib.util
import zlib
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_framing import VECTORS, Vector

from companion.hardware import framing
from companion.hardware.framing import encode_frame

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"


def load_protocol() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gingo_fw_protocol", FIRMWARE / "protocol.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


proto = load_protocol()


# ---- protocol: same bytes as docs/protocol.md ----

@pytest.mark.parametrize("v", VECTORS, ids=lambda v: v.name)
def test_firmware_encodes_and_decodes_the_doc_vectors(v: Vector) -> None:
    assert proto.encode_frame(v.type, v.seq, v.payload) == v.wire
    assert proto.decode_body(v.wire[1:-1]) == (v.type, v.seq, v.payload)
    assert proto.Splitter().feed(v.wire) == [(v.type, v.seq, v.payload)]


def test_table_crc_matches_binascii() -> None:
    assert proto.crc32_table(b"123456789") == 0xCBF43926
    for v in VECTORS:
        assert proto.crc32_table(v.wire) == zlib.crc32(v.wire)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=600))
def test_cobs_agrees_with_the_companion(data: bytes) -> None:
    assert bytes(proto.cobs_encode(data)) == framing.cobs_encode(data)
    assert bytes(proto.cobs_decode(framing.cobs_encode(data))) == data


def test_firmware_drops_bad_frames() -> None:
    s = proto.Splitter()
    good = encode_frame(framing.PING, 1)
    bad = bytearray(good)
    bad[4] ^= 0x10
    assert s.feed(bytes(bad) + b"\x00\x07abc\x00" + bytes(3000) + b"\x05" * 2000 + b"\x00" + good) == [
        (framing.PING, 1, b"")
    ]
    assert s.dropped == 3


# ---- CONFIG ----

def test_config_parsing() -> None:
    assert proto.parse_config(b'{"rate": 250, "avg": 3}', 200, 1) == (250, 3)
    assert proto.parse_config(b'{"avg": 8}', 200, 1) == (200, 8)
    for payload, message in [
        (b'{"rate": 5000}', "rate must be an integer 50..500"),
        (b'{"avg": true}', "avg must be an integer 1..8"),
        (b'{"speed": 1}', "unknown CONFIG keys: speed"),
        (b'[1, 2]', "must be a JSON object"),
        (b'{"rate": ', "must be a JSON object"),
    ]:
        with pytest.raises(ValueError, match=message):
            proto.parse_config(payload, 200, 1)


def test_crc_table_is_zlibs() -> None:
    table = proto.crc_table()
    assert len(table) == 256 and table[1] == 0x77073096 and table[255] == 0x2D02EF8D
