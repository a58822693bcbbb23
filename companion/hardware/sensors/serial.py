"""The Pico firmware over USB serial (sensor link protocol v1, docs/protocol.md).

:class:`SerialLink` owns one port: a reader thread that opens it (a device path, a
``/dev/serial/by-id/`` name, a pyserial URL such as ``loop://``, or ``usb:VID:PID``),
reopens it with back-off after an unplug, splits and checks frames, counts and drops bad
ones (logging once per kind), tracks sequence gaps, answers PING and asks for HELLO on
every connect, again every ``hello_every`` seconds until the firmware answers, and
again after any silence (a Pico that reset while the port stayed open). :class:`SerialSensors` is the sensor backend on top of it; the ``pico``
LED backend shares the same link and sends LEDS frames with
:meth:`SerialLink.send_frame`::

    link = SerialLink.shared("/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614c-if00")
    link.send_frame(LEDS, bytes(rgb))      # False when the link is down (frame dropped)

>>> from companion.hardware.framing import encode_frame, pack_readings, READINGS
>>> s = SerialSensors("loop://", wait=True)
>>> _ = s.link._serial.write(encode_frame(READINGS, 9, pack_readings([32768] * 52)))
>>> r = s.read(2.0)
>>> r.seq, r.values[0]
(9, 32768)
>>> s.close()
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.hardware.framing import LEDS
from companion.hardware.sensors import Readings, SensorBackend, SensorBackendError
from companion.hardware.sensors.link import STAT_KEYS, SerialLink, resolve_port

__all__ = ["SerialLink", "SerialSensors", "resolve_port", "LEDS", "STAT_KEYS"]


class SerialSensors(SensorBackend):
    """Sensor backend reading READINGS frames from the Pico firmware.

    ``port``: device path, ``/dev/serial/by-id/`` name, pyserial URL or ``usb:VID:PID``.
    Other keyword arguments go to :class:`SerialLink`.
    """

    name = "serial"

    def __init__(self, port: str, **options: Any) -> None:
        if not port:
            raise SensorBackendError("the serial sensor backend needs a port (e.g. /dev/serial/by-id/usb-...)")
        self.link = SerialLink.shared(port, **options)
        self._closed = False

    @property
    def online(self) -> bool:
        return not self._closed and self.link.online

    def read(self, timeout: float) -> Readings | None:
        if self._closed:
            return None
        return self.link.receiver.get(timeout)

    def send_leds(self, rgb: bytes) -> bool:
        """Send the LED colours to a Pico that drives the strip."""
        return self.link.send_leds(rgb)

    def subscribe(self, consumer: Callable[[Readings], bool | None] | None) -> bool:
        """Push every scan to ``consumer`` on the link's reader thread (see
        :meth:`FrameReceiver.set_consumer <companion.hardware.sensors.receive.FrameReceiver.set_consumer>`);
        :meth:`read` then returns nothing."""
        self.link.receiver.set_consumer(consumer)
        return True

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.link.release()
