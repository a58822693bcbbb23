# Sensor link protocol v1, the Pico's side (see docs/protocol.md).
# This runs on MicroPython: no typing, no dataclasses, no imports from the companion.
# The steady loop's framing is in fast.py (viper); this file is the plain reference the
# tests check against docs/protocol.md, and it encodes the rare frames.

import json

try:
    from binascii import crc32 as _crc32
except ImportError:  # a MicroPython build without binascii.crc32
    _crc32 = None

HELLO = 0x01
READINGS = 0x02
PING = 0x03
PONG = 0x04
LEDS = 0x10
CONFIG = 0x11
ERROR = 0x7F
KNOWN = (HELLO, READINGS, PING, PONG, LEDS, CONFIG, ERROR)

MAX_BODY = 1024
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 2

_TABLE = None


def _make_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table.append(c)
    return table


def crc_table():
    """The 256 CRC-32 table entries (a list; the firmware copies it into an array)."""
    global _TABLE
    if _TABLE is None:
        _TABLE = _make_table()
    return _TABLE


def crc32_table(data):
    """CRC-32 (zlib's) computed with a table; used when binascii has no crc32."""
    global _TABLE
    if _TABLE is None:
        _TABLE = _make_table()
    table = _TABLE
    c = 0xFFFFFFFF
    for b in data:
        c = table[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def crc32(data):
    if _crc32 is not None:
        return _crc32(data) & 0xFFFFFFFF
    return crc32_table(data)


def cobs_encode(data):
    out = bytearray()
    code_at = 0
    out.append(0)
    code = 1
    for b in data:
        if b:
            out.append(b)
            code += 1
            if code == 255:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
        else:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return out


def cobs_decode(data):
    """Decoded bytes, or None if the data is not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    if n == 0:
        return None
    while i < n:
        code = data[i]
        if code == 0 or i + code > n:
            return None
        for j in range(i + 1, i + code):
            if data[j] == 0:
                return None
            out.append(data[j])
        i += code
        if code != 255 and i < n:
            out.append(0)
    return out


def encode_frame(ftype, seq, payload=b""):
    body = bytearray(3 + len(payload) + 4)
    body[0] = ftype
    body[1] = seq & 0xFF
    body[2] = (seq >> 8) & 0xFF
    body[3:3 + len(payload)] = payload
    c = crc32(memoryview(body)[: 3 + len(payload)])
    k = 3 + len(payload)
    body[k] = c & 0xFF
    body[k + 1] = (c >> 8) & 0xFF
    body[k + 2] = (c >> 16) & 0xFF
    body[k + 3] = (c >> 24) & 0xFF
    return b"\x00" + bytes(cobs_encode(body)) + b"\x00"


def decode_body(encoded):
    """(type, seq, payload) of one frame between delimiters, or None if it is bad."""
    if len(encoded) > MAX_ENCODED:
        return None
    body = cobs_decode(encoded)
    if body is None or len(body) < 7:
        return None
    k = len(body) - 4
    c = body[k] | (body[k + 1] << 8) | (body[k + 2] << 16) | (body[k + 3] << 24)
    if crc32(memoryview(body)[:k]) != c:
        return None
    ftype = body[0]
    if ftype not in KNOWN:
        return None
    return ftype, body[1] | (body[2] << 8), bytes(body[3:k])


class Splitter:
    """Collects bytes from the host; feed() returns the good frames, bad ones dropped."""

    def __init__(self):
        self.buf = bytearray()
        self.overflow = False
        self.dropped = 0

    def feed(self, data):
        frames = []
        for b in data:
            if b == 0:
                if self.overflow:
                    self.overflow = False
                    self.dropped += 1
                elif self.buf:
                    frame = decode_body(self.buf)
                    if frame is None:
                        self.dropped += 1
                    else:
                        frames.append(frame)
                self.buf = bytearray()
            elif not self.overflow:
                self.buf.append(b)
                if len(self.buf) > MAX_ENCODED:
                    self.overflow = True
                    self.buf = bytearray()
        return frames


def pack_readings(values, out):
    """Write 52 u16 readings little-endian into the bytearray ``out`` (104 bytes)."""
    i = 0
    for v in values:
        out[i] = v & 0xFF
        out[i + 1] = (v >> 8) & 0xFF
        i += 2
    return out


def parse_config(payload, rate, avg):
    """(rate, avg) from a CONFIG payload, starting from the current ones; ValueError
    with a message for the Pi if the payload is not a valid CONFIG."""
    try:
        settings = json.loads(payload)
    except ValueError:
        raise ValueError("CONFIG must be a JSON object")
    if not isinstance(settings, dict):
        raise ValueError("CONFIG must be a JSON object")
    unknown = [k for k in settings if k not in ("rate", "avg")]
    if unknown:
        raise ValueError("unknown CONFIG keys: " + ", ".join(sorted(unknown)))
    rate = settings.get("rate", rate)
    avg = settings.get("avg", avg)
    if not isinstance(rate, int) or isinstance(rate, bool) or not 50 <= rate <= 500:
        raise ValueError("CONFIG rate must be an integer 50..500")
    if not isinstance(avg, int) or isinstance(avg, bool) or not 1 <= avg <= 8:
        raise ValueError("CONFIG avg must be an integer 1..8")
    return rate, avg
