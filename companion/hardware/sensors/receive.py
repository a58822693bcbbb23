"""The receiving half of the sensor link: the firmware's bytes split into frames and
checked, bad frames counted and dropped (logged once per kind), sequence gaps and
duplicates tracked, READINGS handed to a consumer or queued for :meth:`FrameReceiver.get`,
PING answered, HELLO read (the firmware's rate dates the scans). A
:class:`~companion.hardware.sensors.link.SerialLink` holds one (its ``receiver``) and
feeds it what its reader thread reads; the link owns the port and the sending.

>>> from companion.hardware.framing import PONG, READINGS, encode_frame, pack_readings
>>> sent = []
>>> rx = FrameReceiver("test", lambda type_, payload=b"": sent.append(type_) is None)
>>> rx.feed(encode_frame(PING, 0) + encode_frame(READINGS, 1, pack_readings([32768] * 52)), now=1.0)
>>> sent == [PONG], rx.get(timeout=0).seq, rx.stats["frames"]
(True, 1, 2)
"""

from __future__ import annotations

import collections
import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.hardware.framing import (
    ERROR,
    HELLO,
    PING,
    PONG,
    READINGS,
    TYPE_NAMES,
    Frame,
    FrameError,
    FrameSplitter,
    unpack_readings,
)
from companion.hardware.sensors import Readings

log = logging.getLogger("companion.hardware.sensors.serial")

__all__ = ["STAT_KEYS", "FrameReceiver", "hello_problems"]

#: seconds a scan may be read after its place on the firmware's scan clock before the
#: clock is set again from the read (see :meth:`FrameReceiver._date`)
SLIP = 0.25

#: counters kept in :attr:`SerialLink.stats`
STAT_KEYS = (
    "frames",        # good frames of any type
    "readings",      # READINGS accepted
    "crc", "cobs", "length", "type",   # bad frames dropped, by kind
    "gaps",          # frames missing according to seq
    "duplicates",    # frames with the same seq as the previous one (dropped)
    "pings", "pongs", "hellos", "errors",
    "connects", "disconnects", "write_failures",
    "hello_requests",  # empty HELLOs sent (on connect, until answered, after silence)
    "reads",         # reads that returned data (reader wake-ups with work)
)


def hello_problems(hello: dict[str, Any], leds_backend: str, led_count: int) -> list[str]:
    """What is wrong between the firmware's HELLO and the Pi's LED config, one line each
    with what to do (empty when they agree).

    >>> hello_problems({"leds": 60}, "pico", 60)
    []
    >>> hello_problems({"leds": 0}, "pico", 60)[0][:64]
    "the Pico's firmware drives no LEDs (its HELLO says leds 0), but "
    >>> hello_problems({"leds": 60}, "pico", 62)[0][:60]
    "the Pico's firmware drives 60 LEDs (LED_COUNT in its config."
    """
    leds = hello.get("leds")
    if isinstance(leds, bool) or not isinstance(leds, int):
        return [f"the Pico's HELLO has no LED count ({hello.get('leds')!r}): flash the firmware of this "
                "version (firmware/README.md)"]
    flash = "edit firmware/config.py, stop the service and flash the Pico again (firmware/README.md)"
    if leds_backend == "pico":
        if leds == 0:
            return ["the Pico's firmware drives no LEDs (its HELLO says leds 0), but leds.backend = 'pico': "
                    "the strip stays dark; set LED_PIN = 16 (the strip's data pin) in firmware/config.py, "
                    "then stop the service and flash the Pico again (firmware/README.md)"]
        if leds != led_count:
            return [f"the Pico's firmware drives {leds} LEDs (LED_COUNT in its config.py), but leds.count = "
                    f"{led_count}: LEDs past {min(leds, led_count)} stay dark or frames are cut; make them "
                    f"equal: {flash}, or change leds.count"]
        return []
    if leds > 0:
        return [f"the Pico's firmware also drives {leds} LEDs on its LED_PIN (GP16), but leds.backend = "
                f"'{leds_backend}' (the Pi drives the strip): harmless while nothing is wired to that pin; "
                "set LED_PIN = None in firmware/config.py and flash the Pico again to silence this, "
                "or use leds.backend = 'pico' if the strip hangs off the Pico"]
    return []


class FrameReceiver:
    """What the link does with the bytes it reads; ``port`` names it in the log, ``send``
    sends a frame back (a PONG) and says whether it went out, ``stats`` are the counters
    it adds to (the link's, by default its own :data:`STAT_KEYS`)."""

    def __init__(self, port: str, send: Callable[[int], bool], *, queue_size: int = 64,
                 stats: dict[str, int] | None = None) -> None:
        self.port = port
        self._send = send
        self.stats: dict[str, int] = dict.fromkeys(STAT_KEYS, 0) if stats is None else stats
        self.hello: dict[str, Any] | None = None
        #: the last ERROR frame's text until the firmware says HELLO or scans again (a
        #: firmware that refuses to run, e.g. on a chip it does not know, sends no
        #: READINGS and answers every HELLO with one)
        self.firmware_error: str | None = None
        #: (leds.backend, leds.count) of the Pi's config, to check the HELLO against
        self.expect_leds: tuple[str, int] | None = None
        self._splitter = FrameSplitter()
        self._last_seq: int | None = None
        #: when the last READINGS came (the link is online while they come)
        self.last_readings = 0.0
        self._dated: tuple[int, float] | None = None  # (seq, when it arrived) of the last READINGS dated
        self._others = 0           # frames of other types (which share the seq counter) since then
        #: when a good frame last came from the firmware
        self.last_rx = 0.0
        #: a HELLO came back since the link last asked after silence
        self.answered = False
        self._logged: set[str] = set()
        self._queue: collections.deque[Readings] = collections.deque(maxlen=queue_size)
        self._cond = threading.Condition()
        #: when set, READINGS go straight to this callable on the reader thread instead
        #: of the queue (host CPU: one thread wake per frame instead of two)
        self._consumer: Callable[[Readings], bool | None] | None = None
        #: the consumer said nothing is pending (returned False): the reader may gather
        #: a few frames per wake-up (see :meth:`set_consumer`)
        self.relaxed = False
        #: seconds between READINGS frames (from HELLO's rate; the protocol default until then)
        self._period = 1.0 / 200
        self._stop = threading.Event()

    def reconnected(self, now: float) -> None:
        """The link opened its port again at ``now``: a frame cut by the unplug is dropped,
        the firmware's seq and scan clock start again, and it is asked for a HELLO anew."""
        self._splitter.reset()
        self._last_seq = None
        self._dated = None
        self.answered = False
        self.relaxed = False
        self.last_rx = now

    def stop(self) -> None:
        """Wake whoever waits in :meth:`get` (it returns None from now on)."""
        self._stop.set()
        with self._cond:
            self._cond.notify_all()

    def set_consumer(self, consumer: Callable[[Readings], bool | None] | None) -> None:
        """Hand every READINGS scan to ``consumer`` on the reader thread (None: back to
        the queue that :meth:`get` reads). An exception in it is logged, never fatal.

        A consumer that returns ``False`` says nothing is pending (a still board): the
        reader then sleeps ``coalesce`` seconds after each read and takes the frames
        that gathered meanwhile in one wake-up (host CPU: at 200 frames/s and 40 ms,
        one wake per 8 frames instead of one per frame). As soon as it returns anything
        else (a change is being debounced) every frame is read the moment it arrives,
        so coalescing never delays the frame that completes a change."""
        with self._cond:
            self._consumer = consumer
            self.relaxed = False
            self._queue.clear()

    def get(self, timeout: float) -> Readings | None:
        """The next READINGS scan, or None after ``timeout`` seconds."""
        deadline = time.monotonic() + max(0.0, timeout)
        with self._cond:
            while not self._queue:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self._stop.is_set():
                    return None
                self._cond.wait(remaining)
            return self._queue.popleft()

    def feed(self, data: bytes, now: float) -> None:
        """Handle the frames in ``data``, read at ``now``.

        Each READINGS scan is dated on the firmware's scan clock (:meth:`_date`), whether
        it was read the moment it came or gathered with others while the board was still.
        """
        self.stats["reads"] += 1
        items = list(self._splitter.feed(data))
        for item in items:
            if isinstance(item, FrameError):
                self.stats[item.kind] += 1
                self.log_once(item.kind, "sensor link %s: dropped %s (counted in stats)", self.port, item)
                continue
            self.stats["frames"] += 1
            self.last_rx = now
            t = self._date(item.seq, now) if item.type == READINGS else now
            self._handle(item, now, t)

    def _date(self, seq: int, now: float) -> float:
        """When scan ``seq`` (read at ``now``) was taken, on the firmware's scan clock.

        The firmware scans every 1/rate seconds (its HELLO's rate), so a scan is dated the
        scan before it plus one period for each scan between them (frames of other types
        share the seq counter and are not counted). A read more than half a period
        earlier than the clock says sets the clock back to it (so a date is never much
        after the read; moving it back by less would shorten the settle time of a change
        under way by a few microseconds, enough to need one more scan), and the clock
        stays exactly one period a scan apart however late the reader wakes or the
        kernel hands the bytes on (the tty layer
        passes them on from a worker thread, which a busy machine delays and then
        delivers several at once). The debouncer's settle time is thus counted in the
        firmware's scans: at 200 scans a second a chip is accepted on the 10th scan after
        the first that shows it, every time; dated by read times it took the 10th or the
        11th by the luck of two wake-ups, 5 ms more for a change in a few (issue 23).
        A scan read more than ``SLIP`` seconds after its place on the clock (a Pico
        whose scans slipped, a stall) or after a gap of a second sets the clock again
        from ``now``.
        """
        t = now
        dated = self._dated
        if dated is not None:
            if seq == dated[0] and not self._others:
                return dated[1]  # a duplicate (dropped by _handle): the clock stays
            steps = ((seq - dated[0]) & 0xFFFF) - self._others
            expected = dated[1] + steps * self._period
            if 0 < steps and steps * self._period < 1.0 and -self._period / 2 <= now - expected <= SLIP:
                t = expected
        self._dated = (seq, t)
        self._others = 0
        return t

    def _handle(self, frame: Frame, now: float, t: float) -> None:
        # The firmware counts every frame it sends (READINGS, PONG, HELLO...) with one seq.
        last = self._last_seq
        if last is not None and frame.type != HELLO:
            gap = (frame.seq - last - 1) & 0xFFFF
            if gap == 0xFFFF:  # the same seq again
                self.stats["duplicates"] += 1
                self.log_once("duplicate", "sensor link %s: duplicate frame seq %d dropped", self.port, frame.seq)
                return
            self.stats["gaps"] += gap
        self._last_seq = frame.seq
        if frame.type != READINGS:
            self._others += 1
        if frame.type == READINGS:
            self.last_readings = now
            if self.firmware_error is not None:
                self.firmware_error = None  # it scans: whatever it reported has passed
            self.stats["readings"] += 1
            readings = Readings(frame.seq, unpack_readings(frame.payload), t)
            consumer = self._consumer
            if consumer is not None:
                try:
                    self.relaxed = consumer(readings) is False
                except Exception:  # a consumer bug must not stop the link
                    self.relaxed = False
                    log.exception("sensor link %s: the readings consumer failed; continuing", self.port)
                return
            with self._cond:
                self._queue.append(readings)
                self._cond.notify()
        elif frame.type == PING:
            self.stats["pings"] += 1
            self._send(PONG)
        elif frame.type == PONG:
            self.stats["pongs"] += 1
        elif frame.type == HELLO:
            if not frame.payload:
                return  # a request to introduce ourselves: the companion has nothing to say
            self.stats["hellos"] += 1  # the firmware may have restarted: its seq counts on from here
            self._dated = None  # and its scan clock starts again (its rate may have changed too)
            self.answered = True
            try:
                hello = json.loads(frame.payload.decode("utf-8"))
                if not isinstance(hello, dict):
                    raise ValueError("not an object")
                self.hello = hello
                self.firmware_error = None
                for problem in self.problems():
                    self.log_once("hello:" + problem, "sensor link %s: %s", self.port, problem)
                rate = hello.get("rate")
                if isinstance(rate, (int, float)) and not isinstance(rate, bool) and 1 <= rate <= 10000:
                    self._period = 1.0 / rate
                log.info("sensor link %s: firmware %s", self.port, hello)
            except (UnicodeDecodeError, ValueError) as exc:
                self.stats["type"] += 1
                self.log_once("hello", "sensor link %s: unreadable HELLO payload (%s)", self.port, exc)
        elif frame.type == ERROR:
            self.stats["errors"] += 1
            text = frame.payload.decode("utf-8", "replace")
            self.firmware_error = text
            self.log_once("error:" + text, "sensor link %s: the Pico reports: %s", self.port, text)
        else:
            self.stats["type"] += 1
            self.log_once(f"type{frame.type}", "sensor link %s: unexpected %s frame from the firmware",
                           self.port, TYPE_NAMES.get(frame.type, hex(frame.type)))

    def problems(self) -> list[str]:
        """What is wrong with the firmware as it last introduced itself: the ERROR it
        reports (a firmware that refuses to run), and its HELLO against the LED config."""
        out: list[str] = []
        if self.firmware_error is not None:
            out.append(f"the Pico on {self.port} reports: {self.firmware_error}")
        if self.hello is not None and self.expect_leds is not None:
            out += hello_problems(self.hello, *self.expect_leds)
        return out

    def log_again(self, kind: str) -> None:
        """Let a warning of this ``kind`` be logged once more."""
        self._logged.discard(kind)

    def log_once(self, kind: str, fmt: str, *args: object) -> None:
        """Log a warning of this ``kind`` the first time only (the link's own too)."""
        if kind not in self._logged:
            self._logged.add(kind)
            log.warning(fmt, *args)
