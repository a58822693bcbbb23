"""Frames of the sensor link protocol v1 (see docs/protocol.md).

On the wire every frame is ``0x00, COBS(body), 0x00``; ``body`` is
``type (u8), seq (u16 LE), payload, crc32 (u32 LE)`` where the CRC-32 (zlib's) covers
type, seq and payload. :class:`FrameSplitter` turns a byte stream into frames and
resynchronises on the next ``0x00`` after noise; each bad frame becomes a
:class:`FrameError` whose ``kind`` says what was wrong ("cobs", "crc", "length", "type").

>>> wire = encode_frame(PING, 7)
>>> wire.hex()
'00030307058cf146b200'
>>> wire[0] == wire[-1] == 0
True
>>> decode_frame(wire[1:-1])
Frame(type=3, seq=7, payload=b'')
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from companion.errors import BackendError

HELLO = 0x01
READINGS = 0x02
PING = 0x03
PONG = 0x04
LEDS = 0x10
CONFIG = 0x11
ERROR = 0x7F

TYPE_NAMES: dict[int, str] = {
    HELLO: "HELLO",
    READINGS: "READINGS",
    PING: "PING",
    PONG: "PONG",
    LEDS: "LEDS",
    CONFIG: "CONFIG",
    ERROR: "ERROR",
}

SPACES = 52
READINGS_PAYLOAD = 2 * SPACES
#: The longest body accepted (type + seq + payload + crc); LEDS for 300 pixels fits.
MAX_BODY = 1024
#: The longest encoded frame between delimiters (COBS adds one byte per 254).
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 2

ERROR_KINDS = ("cobs", "crc", "length", "type")
_U32 = struct.Struct("<I")
_HEAD = struct.Struct("<BH")
_READINGS = struct.Struct(f"<{SPACES}H")


class FrameError(BackendError, ValueError):
    """A frame that cannot be used. ``kind`` is one of "cobs", "crc", "length", "type".

    >>> try:
    ...     decode_frame(b"\\x02\\x01")
    ... except FrameError as exc:
    ...     print(exc.kind)
    length
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"bad frame ({kind}): {message}")
        self.kind = kind


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame: its type, sequence number and payload."""

    type: int
    seq: int
    payload: bytes


def crc32(data: bytes) -> int:
    """CRC-32 as zlib and binascii compute it.

    >>> hex(crc32(b"123456789"))
    '0xcbf43926'
    """
    return zlib.crc32(data) & 0xFFFFFFFF


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result holds no zero byte.

    >>> cobs_encode(b"\\x11\\x00\\x22").hex()
    '02110222'
    """
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block.clear()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out += block
                block.clear()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo :func:`cobs_encode`; raise :class:`FrameError` (kind "cobs") on bad input.

    >>> cobs_decode(bytes.fromhex("02110222"))
    b'\\x11\\x00"'
    """
    out = bytearray()
    i = 0
    n = len(data)
    if n == 0:
        raise FrameError("cobs", "empty frame")
    while i < n:
        code = data[i]
        if code == 0:
            raise FrameError("cobs", f"zero byte inside the frame at offset {i}")
        end = i + code
        if end > n:
            raise FrameError("cobs", f"code byte {code} at offset {i} runs past the end ({n} bytes)")
        block = data[i + 1 : end]
        if 0 in block:
            raise FrameError("cobs", "zero byte inside the frame")
        out += block
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)


def encode_body(type_: int, seq: int, payload: bytes = b"") -> bytes:
    """The unstuffed body: type, seq (LE), payload and the CRC-32 (LE)."""
    if not 0 <= type_ <= 255:
        raise ValueError(f"frame type {type_} is not a byte (0..255)")
    if not 0 <= seq <= 0xFFFF:
        raise ValueError(f"frame seq {seq} is outside 0..65535 (protocol v1 wraps at 65536)")
    head = struct.pack("<BH", type_, seq) + bytes(payload)
    if len(head) + 4 > MAX_BODY:
        raise ValueError(f"frame payload of {len(payload)} bytes exceeds the {MAX_BODY - 7}-byte limit")
    return head + struct.pack("<I", crc32(head))


def encode_frame(type_: int, seq: int, payload: bytes = b"") -> bytes:
    """A complete frame as it goes on the wire, with a ``0x00`` before and after.

    >>> encode_frame(HELLO, 0, b"{}").hex()
    '00020101077b7d11733d1900'
    """
    return b"\x00" + cobs_encode(encode_body(type_, seq, payload)) + b"\x00"


def decode_frame(encoded: bytes) -> Frame:
    """Decode the bytes between two ``0x00`` delimiters; check CRC, type and length.

    Raises :class:`FrameError` with the kind of fault.
    """
    if len(encoded) > MAX_ENCODED:
        raise FrameError("length", f"{len(encoded)} bytes is longer than any valid frame")
    body = cobs_decode(encoded)
    if len(body) < 7:
        raise FrameError("length", f"body of {len(body)} bytes is shorter than the 7-byte minimum")
    head = body[:-4]
    (crc,) = _U32.unpack_from(body, len(body) - 4)
    if zlib.crc32(head) != crc:
        raise FrameError("crc", f"CRC {crc:08x} does not match the body ({crc32(head):08x})")
    type_, seq = _HEAD.unpack_from(head)
    payload = head[3:]
    if type_ not in TYPE_NAMES:
        raise FrameError("type", f"unknown frame type 0x{type_:02x}")
    if type_ == READINGS and len(payload) != READINGS_PAYLOAD:
        raise FrameError("length", f"READINGS payload is {len(payload)} bytes, expected {READINGS_PAYLOAD}")
    if type_ in (PING, PONG) and payload:
        raise FrameError("length", f"{TYPE_NAMES[type_]} payload must be empty, got {len(payload)} bytes")
    if type_ == LEDS and len(payload) % 3:
        raise FrameError("length", f"LEDS payload of {len(payload)} bytes is not a multiple of 3")
    return Frame(type_, seq, payload)


def pack_readings(values: list[int] | tuple[int, ...]) -> bytes:
    """52 raw u16 readings as a READINGS payload.

    >>> len(pack_readings([32768] * 52))
    104
    """
    if len(values) != SPACES:
        raise ValueError(f"READINGS needs {SPACES} values, got {len(values)}")
    for i, v in enumerate(values):
        if not 0 <= v <= 0xFFFF:
            raise ValueError(f"reading {v} for space {i} is outside the u16 range 0..65535")
    return struct.pack(f"<{SPACES}H", *values)


def unpack_readings(payload: bytes) -> tuple[int, ...]:
    """The 52 readings of a READINGS payload, in space order."""
    if len(payload) != READINGS_PAYLOAD:
        raise FrameError("length", f"READINGS payload is {len(payload)} bytes, expected {READINGS_PAYLOAD}")
    return _READINGS.unpack(payload)


class FrameSplitter:
    """Split a byte stream into frames; noise costs at most the frame it hits.

    :meth:`feed` yields a :class:`Frame` for each good frame and a :class:`FrameError`
    for each bad one (never raises). Bytes between delimiters that grow past
    :data:`MAX_ENCODED` are dropped as one "length" error and the splitter waits for
    the next ``0x00``.

    >>> s = FrameSplitter()
    >>> wire = encode_frame(PONG, 1) + b"\\x09junk\\x00" + encode_frame(PONG, 2)
    >>> [getattr(x, "seq", None) or x.kind for x in s.feed(wire)]
    [1, 'cobs', 2]
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overflow = False

    def reset(self) -> None:
        """Forget any partial frame (after a reconnect)."""
        self._buf.clear()
        self._overflow = False

    def feed(self, data: bytes) -> Iterator[Frame | FrameError]:
        start = 0
        while True:
            idx = data.find(b"\x00", start)
            if idx > start and not self._buf and not self._overflow:
                # the common case, a whole frame in this chunk: no copy through the buffer
                encoded = data[start:idx]
                start = idx + 1
                try:
                    yield decode_frame(encoded)
                except FrameError as exc:
                    yield exc
                continue
            chunk = data[start:] if idx < 0 else data[start:idx]
            if not self._overflow:
                self._buf += chunk
                if len(self._buf) > MAX_ENCODED:
                    self._overflow = True
                    self._buf.clear()
            if idx < 0:
                return
            start = idx + 1
            if self._overflow:
                self._overflow = False
                yield FrameError("length", "no delimiter within the longest frame length")
            elif self._buf:
                encoded = bytes(self._buf)
                self._buf.clear()
                try:
                    yield decode_frame(encoded)
                except FrameError as exc:
                    yield exc
