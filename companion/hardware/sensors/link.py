"""One serial port speaking the sensor link protocol v1 (docs/protocol.md).

:class:`SerialLink` owns the port: a reader thread that opens it (a device path, a
``/dev/serial/by-id/`` name, a pyserial URL such as ``loop://``, or ``usb:VID:PID``),
reopens it with back-off after an unplug, and asks for HELLO on every connect, again
every ``hello_every`` seconds until the firmware answers, and again after any silence
(a Pico that reset while the port stayed open). While the board is still it gathers
frames between reads (host CPU; see :meth:`FrameReceiver.set_consumer
<companion.hardware.sensors.receive.FrameReceiver.set_consumer>`). What it does with the
frames it reads (checks, counts, sequence gaps, PING, HELLO, READINGS) is its
:attr:`SerialLink.receiver`, a :class:`~companion.hardware.sensors.receive.FrameReceiver`:
the firmware's HELLO, its ERROR and the scans are read there.
The sensor backend on top of it is :class:`companion.hardware.sensors.serial.SerialSensors`.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import select
import termios
import threading
import time
from typing import Any

import serial
import serial.tools.list_ports

from companion.hardware.framing import HELLO, LEDS, encode_frame
from companion.hardware.sensors import SensorBackendError
from companion.hardware.sensors.receive import STAT_KEYS, FrameReceiver

log = logging.getLogger("companion.hardware.sensors.serial")

__all__ = ["STAT_KEYS", "PortInUse", "SerialLink", "port_holder", "resolve_port"]

WRITE_TIMEOUT = 0.5  # s a port may refuse every byte before a write is reported failed


def resolve_port(port: str) -> str:
    """The pyserial URL for ``port``; ``usb:VID:PID`` (hex) is looked up among the ports.

    >>> resolve_port("loop://")
    'loop://'
    """
    if not port.lower().startswith("usb:"):
        return port
    parts = port.split(":")
    if len(parts) != 3:
        raise ValueError(f"USB port {port!r} must look like usb:VID:PID in hex, e.g. usb:2e8a:0005")
    try:
        vid, pid = int(parts[1], 16), int(parts[2], 16)
    except ValueError:
        raise ValueError(f"USB port {port!r} must look like usb:VID:PID in hex, e.g. usb:2e8a:0005") from None
    for info in serial.tools.list_ports.comports():
        if info.vid == vid and info.pid == pid:
            return str(info.device)
    raise SensorBackendError(
        f"no USB serial device {vid:04x}:{pid:04x} found; plug in the Pico, check the cable "
        "carries data, and list devices with 'ls /dev/serial/by-id/'"
    )


class PortInUse(SensorBackendError):
    """The port is held by another program (the companion's own service, mpremote...)."""


def port_holder(device: str, proc: str = "/proc") -> tuple[int, str] | None:
    """(pid, command line) of the process holding a lock on ``device``, read from
    ``/proc/locks`` (world-readable, so it names a service running as another user), or
    None when no process holds one (or this is not Linux).

    >>> port_holder("/nonexistent/port") is None
    True
    """
    try:
        st = os.stat(device)
        with open(os.path.join(proc, "locks"), encoding="ascii", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    want = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    for line in lines:
        fields = line.split()
        if "->" in fields:  # a waiter, not the holder
            continue
        for i, field_ in enumerate(fields[:-1]):
            if field_ == want and fields[i - 1].isdigit():
                pid = int(fields[i - 1])
                try:
                    with open(os.path.join(proc, str(pid), "cmdline"), "rb") as c:
                        cmd = c.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
                except OSError:
                    cmd = "?"
                return pid, cmd
    return None


def in_use_message(port: str, device: str) -> str:
    """What to say when ``port`` (at ``device``) is held by another program."""
    holder = port_holder(device)
    if holder is None:
        return (f"the sensor link {port} is in use by another program (most likely the companion's service: "
                "stop it with 'sudo systemctl stop gingo' first, and start it again when done)")
    pid, cmd = holder
    if "gingo" in cmd or "companion.cli" in cmd:
        return (f"the sensor link {port} is in use by the companion (pid {pid}: {cmd}); stop it with "
                "'sudo systemctl stop gingo' first (or stop that program), and start it again when done")
    return f"the sensor link {port} is in use by another program (pid {pid}: {cmd}); close it first"


def _busy(exc: BaseException) -> bool:
    """True when opening failed because another program holds the port."""
    text = str(exc)
    return (getattr(exc, "errno", None) == errno.EBUSY or "exclusively lock" in text
            or "Resource temporarily unavailable" in text or "Device or resource busy" in text)


class SerialLink:
    """One serial port speaking protocol v1, kept open by a reader thread; it hands the
    bytes it reads to its :attr:`receiver` (:class:`~companion.hardware.sensors.receive.FrameReceiver`),
    which counts into the link's :attr:`stats`.

    ``wait=False`` (the default) raises :class:`SensorBackendError` if the first open
    fails; ``wait=True`` starts offline and keeps trying with back-off.
    """

    _registry: dict[str, SerialLink] = {}
    _registry_lock = threading.Lock()

    def __init__(
        self,
        port: str,
        *,
        baudrate: int = 115200,
        wait: bool = False,
        offline_after: float = 0.5,
        backoff: float = 0.05,
        backoff_max: float = 2.0,
        queue_size: int = 64,
        hello_every: float = 0.5,
        coalesce: float = 0.04,
    ) -> None:
        if not 0 <= coalesce <= 0.1:
            raise ValueError(f"coalesce must be between 0 and 0.1 seconds, got {coalesce!r}")
        self.port = port
        self.stats: dict[str, int] = dict.fromkeys(STAT_KEYS, 0)
        #: the firmware's frames: its HELLO, its ERROR, the scans (``get``, ``set_consumer``)
        self.receiver = FrameReceiver(port, self.send_frame, queue_size=queue_size, stats=self.stats)
        self._stop = threading.Event()
        self.coalesce = coalesce
        self.baudrate = baudrate
        self.offline_after = offline_after
        self.hello_every = hello_every
        self._backoff_min = backoff
        self._backoff_max = backoff_max
        self.last_error: str | None = None
        self._serial: serial.SerialBase | None = None
        self._write_lock = threading.Lock()
        self._seq = 0
        self._hello_sent = 0.0     # when we last asked for a HELLO
        self._refs = 0
        try:
            self._open()
        except (SensorBackendError, ValueError, OSError, serial.SerialException) as exc:
            if not wait:
                raise SensorBackendError(self._open_advice(exc)) from None
            self.receiver.log_once("open", "sensor link %s not available yet (%s); retrying", port, exc)
        self._thread = threading.Thread(target=self._run, name=f"gingo-serial {port}", daemon=True)
        self._thread.start()

    # ---- shared links (sensor backend and pico LED backend on one port) ----

    @classmethod
    def shared(cls, port: str, **options: Any) -> SerialLink:
        """The link for ``port``, opened on first use and shared after that.

        Each caller should :meth:`release` it when done; the last release closes it.
        """
        with cls._registry_lock:
            link = cls._registry.get(port)
            if link is None or link._stop.is_set():
                link = cls(port, **options)
                cls._registry[port] = link
            link._refs += 1
            return link

    def release(self) -> None:
        """Drop one reference taken with :meth:`shared`; close on the last."""
        with self._registry_lock:
            self._refs -= 1
            if self._refs > 0:
                return
            if self._registry.get(self.port) is self:
                del self._registry[self.port]
        self.close()

    # ---- state ----

    @property
    def connected(self) -> bool:
        return self._serial is not None

    @property
    def online(self) -> bool:
        """Connected and a READINGS frame arrived within ``offline_after`` seconds."""
        return self.connected and time.monotonic() - self.receiver.last_readings <= self.offline_after

    # ---- sending ----

    def send_frame(self, type_: int, payload: bytes = b"") -> bool:
        """Send one frame with this side's next seq. Thread-safe.

        Returns False (and counts a write failure) if the link is down or the write
        fails; the caller may simply send again later (LED frames are re-sent
        periodically anyway).
        """
        data: bytes
        with self._write_lock:
            data = encode_frame(type_, self._seq, payload)
            self._seq = (self._seq + 1) & 0xFFFF
            ser = self._serial
            if ser is None:
                self.stats["write_failures"] += 1
                return False
            try:
                self._write(ser, data)
            except (serial.SerialException, OSError) as exc:
                self.stats["write_failures"] += 1
                self.receiver.log_once("write", "sensor link %s: write failed (%s)", self.port, exc)
                return False
        return True

    def send_leds(self, rgb: bytes) -> bool:
        """Send a LEDS frame: R, G, B bytes per LED in LED index order."""
        if len(rgb) % 3:
            raise ValueError(f"LEDS data of {len(rgb)} bytes is not R, G, B triples")
        return self.send_frame(LEDS, bytes(rgb))

    # ---- receiving ----

    def _open(self) -> None:
        """Open the port for this program alone: an advisory lock (flock, as pyserial's
        ``exclusive`` and mpremote take it) and the tty's TIOCEXCL (another open() by a
        user other than root then fails with EBUSY). A second program, mpremote
        included, is refused with a clear message instead of both taking turns at the
        bytes (mpremote's "could not enter raw repl")."""
        url = resolve_port(self.port)
        device = "://" not in url
        try:
            ser = serial.serial_for_url(url, baudrate=self.baudrate, timeout=0.02, write_timeout=WRITE_TIMEOUT,
                                        **({"exclusive": True} if device else {}))
        except (OSError, serial.SerialException) as exc:
            if device and _busy(exc):
                raise PortInUse(in_use_message(self.port, url)) from None
            raise
        fd = getattr(ser, "fd", None)
        if device and isinstance(fd, int) and fd >= 0:
            try:
                fcntl.ioctl(fd, termios.TIOCEXCL)
            except OSError:  # not a tty (a FIFO in a test): the flock still holds
                pass
        now = time.monotonic()
        self.receiver.reconnected(now)
        self._serial = ser
        self.stats["connects"] += 1
        self.receiver.log_again("open")
        log.info("sensor link %s connected", self.port)
        self._ask_hello(now)

    def _ask_hello(self, now: float) -> None:
        """Send an empty HELLO: it asks the firmware to introduce itself."""
        self._hello_sent = now
        self.stats["hello_requests"] += 1
        self.send_frame(HELLO)

    def _keep_asking(self, now: float) -> None:
        """Ask for HELLO until one comes back, and again after any silence.

        A Pico that reset (watchdog, brown-out) while the port stayed open, or that was
        still booting when we first asked, is brought back without a re-plug.
        """
        rx = self.receiver
        if now - rx.last_rx > self.offline_after:
            rx.answered = False
        if not rx.answered and now - self._hello_sent >= self.hello_every:
            self._ask_hello(now)

    def _open_advice(self, exc: BaseException) -> str:
        if isinstance(exc, PortInUse):
            return str(exc)
        msg = str(exc)
        hint = "check the USB cable and the port name (ls /dev/serial/by-id/)"
        if "ermission" in msg:
            hint = "add yourself to the dialout group (sudo adduser $USER dialout) and log in again"
        return f"cannot open the sensor link {self.port}: {msg}; {hint}"

    def _drop(self, closing: bool = False) -> None:
        ser, self._serial = self._serial, None
        fd = getattr(ser, "fd", None)
        if isinstance(fd, int) and fd >= 0:
            try:
                fcntl.ioctl(fd, termios.TIOCNXCL)  # the next program may open it again
            except OSError:
                pass
        if ser is not None:
            if not closing:
                self.stats["disconnects"] += 1
                log.warning("sensor link %s lost; reconnecting", self.port)
            try:
                ser.close()
            except Exception:  # noqa: BLE001 - closing a dead port may fail any way
                pass

    def _run(self) -> None:
        backoff = self._backoff_min
        while not self._stop.is_set():
            ser = self._serial
            if ser is None:
                try:
                    self._open()
                    backoff = self._backoff_min
                except (SensorBackendError, ValueError, OSError, serial.SerialException) as exc:
                    self.last_error = str(exc)
                    self.receiver.log_once("open", "sensor link %s not available (%s); retrying", self.port, exc)
                    self._stop.wait(backoff)
                    backoff = min(self._backoff_max, backoff * 2)
                continue
            try:
                # while asking for HELLO, wake often enough to keep its cadence
                wait = 0.25 if self.receiver.answered else min(0.25, max(0.01, self.hello_every / 2))
                data = self._read(ser, wait)
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                # TypeError/AttributeError: pyserial's posix read on a port closed under it
                self.last_error = str(exc)
                self._drop()
                continue
            now = time.monotonic()
            if data:
                self.receiver.feed(data, now)
            self._keep_asking(now)
            if data and self.receiver.relaxed:
                self._stop.wait(self.coalesce)  # let a few frames gather: one wake-up for them all
        self._drop(closing=True)

    def _read(self, ser: serial.SerialBase, wait: float) -> bytes:
        """What arrived, waiting up to ``wait`` seconds. A device port is waited on with one
        select() and read with one read() of whatever is there (host CPU: no polling,
        no byte-at-a-time reads); URL ports (loop://, socket://) go through pyserial."""
        fd = getattr(ser, "fd", None)
        if not isinstance(fd, int) or fd < 0:
            return bytes(ser.read(ser.in_waiting or 1))
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            return b""
        try:
            data = os.read(fd, 4096)
        except (BlockingIOError, InterruptedError):
            return b""
        if not data:  # readable but empty: the device went away
            raise serial.SerialException("device reports readiness to read but returned no data (unplugged?)")
        return data

    def _write(self, ser: serial.SerialBase, data: bytes) -> None:
        """Write all of ``data``; fail only if the port takes nothing for WRITE_TIMEOUT s.

        pyserial's own write (serialposix.Serial.write, 3.5) raises its write timeout
        once the clock has passed the timeout *after* a complete os.write, so a thread
        descheduled for half a second on a loaded Pi reported a frame that was sent as
        failed. A device port is written here with os.write and select() on its
        non-blocking descriptor; URL ports go through pyserial.
        """
        fd = getattr(ser, "fd", None)
        if not isinstance(fd, int) or fd < 0:
            ser.write(data)
            ser.flush()
            return
        view = memoryview(data)
        while view:
            try:
                n = os.write(fd, view)
            except (BlockingIOError, InterruptedError):
                n = 0
            view = view[n:]
            if view and not select.select([], [fd], [], WRITE_TIMEOUT)[1]:
                raise serial.SerialTimeoutException(
                    f"the port took nothing for {WRITE_TIMEOUT} s ({len(view)} of {len(data)} bytes unsent)")

    def close(self) -> None:
        """Stop the reader thread and close the port."""
        self._stop.set()
        self.receiver.stop()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        self._drop(closing=True)
