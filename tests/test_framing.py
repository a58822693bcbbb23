"""COBS + CRC32 frames: the documented vectors, round trips, and a stream full of noise."""

from __future__ import annotations

import random
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hardware.framing import (
    HELLO, LEDS, MAX_BODY, PING, PONG, READINGS, TYPE_NAMES, Frame, FrameError, FrameSplitter,
    cobs_decode, cobs_encode, crc32, decode_frame, encode_frame, pack_readings, unpack_readings,
)

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


@dataclass(frozen=True)
class Vector:
    name: str
    type: int
    seq: int
    payload: bytes
    wire: bytes


def load_vectors() -> list[Vector]:
    """The ```vectors block of docs/protocol.md (tests/test_firmware.py reads it too)."""
    block = re.search(r"```vectors\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert block, "docs/protocol.md lost its ```vectors block"
    found = re.findall(
        r"^(\S+) type=0x([0-9a-f]{2}) seq=(\d+)\n\s+payload=(\S+)\n\s+wire=([0-9a-f]+)$", block.group(1), re.M
    )
    return [
        Vector(n, int(t, 16), int(s), b"" if p == "-" else bytes.fromhex(p), bytes.fromhex(w))
        for n, t, s, p, w in found
    ]


VECTORS = load_vectors()


def test_doc_has_all_the_vectors() -> None:
    names = {v.name for v in VECTORS}
    assert {"ping", "pong-wrap", "hello", "readings", "leds", "leds-long", "config", "error"} <= names
    assert {v.type for v in VECTORS} == set(TYPE_NAMES)


@pytest.mark.parametrize("v", VECTORS, ids=lambda v: v.name)
def test_vectors_encode_and_decode(v: Vector) -> None:
    assert encode_frame(v.type, v.seq, v.payload) == v.wire
    assert v.wire[0] == 0 and v.wire[-1] == 0 and 0 not in v.wire[1:-1]
    assert decode_frame(v.wire[1:-1]) == Frame(v.type, v.seq, v.payload)


def test_readings_vector_values() -> None:
    (v,) = [v for v in VECTORS if v.name == "readings"]
    assert list(unpack_readings(v.payload)) == [k * 1260 for k in range(52)]


def test_crc_is_the_standard_crc32() -> None:
    assert crc32(b"123456789") == 0xCBF43926
    body = cobs_decode(encode_frame(PING, 7)[1:-1])
    assert int.from_bytes(body[-4:], "little") == zlib.crc32(body[:-4])


@pytest.mark.parametrize(
    "data, encoded",
    [
        (b"", "01"),
        (b"\x00", "0101"),
        (b"\x00\x00", "010101"),
        (b"\x11\x22\x00\x33", "0311220233"),
        (bytes(range(1, 255)), "ff" + bytes(range(1, 255)).hex() + "01"),
        (bytes(range(1, 256)), "ff" + bytes(range(1, 255)).hex() + "02ff"),
    ],
)
def test_cobs_known_encodings(data: bytes, encoded: str) -> None:
    assert cobs_encode(data).hex() == encoded
    assert cobs_decode(bytes.fromhex(encoded)) == data


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=700))
def test_cobs_round_trip(data: bytes) -> None:
    enc = cobs_encode(data)
    assert 0 not in enc
    assert len(enc) <= len(data) + len(data) // 254 + 1
    assert cobs_decode(enc) == data


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(TYPE_NAMES)), st.integers(0, 0xFFFF), st.binary(max_size=300))
def test_frame_round_trip(type_: int, seq: int, payload: bytes) -> None:
    if type_ == READINGS:
        payload = (payload * 104)[:104] if payload else bytes(104)
    elif type_ in (PING, PONG):
        payload = b""
    elif type_ == LEDS:
        payload = payload[: len(payload) - len(payload) % 3]
    wire = encode_frame(type_, seq, payload)
    assert list(FrameSplitter().feed(wire)) == [Frame(type_, seq, payload)]


def test_bad_frames_say_what_is_wrong() -> None:
    good = encode_frame(READINGS, 1, pack_readings([32768] * 52))[1:-1]
    flipped = bytearray(good)
    flipped[10] = flipped[10] ^ 0x40 or 1
    with pytest.raises(FrameError) as err:
        decode_frame(bytes(flipped))
    assert err.value.kind in ("crc", "cobs")
    with pytest.raises(FrameError, match="unknown frame type 0x42") as err:
        decode_frame(encode_frame(0x42, 0)[1:-1])
    assert err.value.kind == "type"
    with pytest.raises(FrameError, match="expected 104") as err:
        decode_frame(encode_frame(READINGS, 0, b"\x01\x02")[1:-1])
    assert err.value.kind == "length"
    with pytest.raises(FrameError, match="must be empty"):
        decode_frame(encode_frame(PING, 0, b"x")[1:-1])
    with pytest.raises(FrameError, match="past the end") as err:
        decode_frame(b"\x09ab")
    assert err.value.kind == "cobs"
    with pytest.raises(FrameError, match="shorter than the 7-byte minimum"):
        decode_frame(cobs_encode(b"\x03\x00"))


def test_encode_rejects_bad_fields() -> None:
    with pytest.raises(ValueError, match="seq 65536"):
        encode_frame(PING, 65536)
    with pytest.raises(ValueError, match="type 256"):
        encode_frame(256, 0)
    with pytest.raises(ValueError, match="exceeds"):
        encode_frame(LEDS, 0, bytes(MAX_BODY))
    with pytest.raises(ValueError, match="52 values"):
        pack_readings([1, 2, 3])
    with pytest.raises(ValueError, match="space 3"):
        pack_readings([0, 0, 0, 70000] + [0] * 48)


def test_splitter_resynchronises_after_noise_and_split_reads() -> None:
    rng = random.Random(4)
    frames = [Frame(READINGS, seq, pack_readings([rng.randrange(65536) for _ in range(52)])) for seq in range(200)]
    stream = bytearray()
    for f in frames:
        stream += encode_frame(f.type, f.seq, f.payload)
        if rng.random() < 0.3:
            stream += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))  # line noise
    splitter = FrameSplitter()
    got: list[Frame] = []
    errors: list[FrameError] = []
    i = 0
    while i < len(stream):  # arbitrary read sizes, as a serial port delivers them
        n = rng.randrange(1, 64)
        for item in splitter.feed(bytes(stream[i : i + n])):
            (got if isinstance(item, Frame) else errors).append(item)  # type: ignore[arg-type]
        i += n
    # Every frame survives (each is delimited on both sides); noise only yields errors.
    assert got == frames
    assert all(e.kind in ("cobs", "crc", "length", "type") for e in errors)


def test_splitter_drops_runaway_garbage_as_one_length_error() -> None:
    s = FrameSplitter()
    out = list(s.feed(b"\x07" * 5000))
    assert out == []
    out = list(s.feed(b"\x00" + encode_frame(PONG, 9)))
    assert [getattr(x, "kind", None) for x in out] == ["length", None]
    assert out[1] == Frame(PONG, 9, b"")


def test_truncated_frame_costs_only_itself() -> None:
    a = encode_frame(HELLO, 1, b'{"fw": "1.0.0"}')
    b = encode_frame(PONG, 2)
    out = list(FrameSplitter().feed(a[:9] + b))
    assert [x for x in out if isinstance(x, Frame)] == [Frame(PONG, 2, b"")]
    assert len([x for x in out if isinstance(x, FrameError)]) == 1


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=200), st.sampled_from([b"\x00", encode_frame(PING, 1)])), max_size=20))
def test_splitter_never_raises_on_any_bytes(chunks: list[bytes]) -> None:
    s = FrameSplitter()
    for chunk in chunks:
        for item in s.feed(chunk):
            assert isinstance(item, (Frame, FrameError))
            if isinstance(item, Frame):  # anything accepted is a frame that re-encodes to valid bytes
                assert decode_frame(encode_frame(item.type, item.seq, item.payload)[1:-1]) == item
