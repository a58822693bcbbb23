"""LEDs hanging off the Pico: LEDS frames (type 0x10) over the sensor link.

The payload is R, G, B bytes per LED in LED index order (version 1 of the link's protocol);
the firmware sends them to the strip with the rp2 PIO driver. ``link`` is the
sensor backend's :class:`~companion.hardware.sensors.serial.SerialLink`, or any
object with ``send_frame(type, payload) -> bool``. While the link is down frames
are dropped and counted; the service re-sends the frame periodically, so the strip
catches up after a re-plug or a brown-out.

>>> class Link:
...     def __init__(self): self.sent = []
...     def send_frame(self, type_, payload): self.sent.append((type_, payload)); return True
>>> link = Link()
>>> leds = PicoLeds(count=2, link=link)
>>> leds.set_pixels([(1, 2, 3), (4, 5, 6)]); leds.show()
>>> link.sent
[(16, b'\\x01\\x02\\x03\\x04\\x05\\x06')]
"""

from __future__ import annotations

from typing import Any

from companion.hardware.leds import DEFAULT_COUNT, Color, LedBackend, LedBackendError

LEDS_FRAME = 0x10


def encode_leds_payload(frame: list[Color]) -> bytes:
    """The LEDS frame payload: R, G, B per LED.

    >>> encode_leds_payload([(255, 0, 1)]).hex()
    'ff0001'
    """
    return bytes(v for color in frame for v in color)


class PicoLeds(LedBackend):
    """Strip driven by the Pico firmware; frames go out through ``link.send_frame``."""

    name = "pico"

    def __init__(
        self,
        count: int = DEFAULT_COUNT,
        *,
        link: Any = None,
        brightness: float = 1.0,
        brightness_cap: float = 1.0,
    ) -> None:
        super().__init__(count, brightness=brightness, brightness_cap=brightness_cap)
        if link is None or not callable(getattr(link, "send_frame", None)):
            raise LedBackendError(
                "the pico LED backend sends frames over the sensor link; set sensors.backend = 'serial' with its port"
            )
        self._link = link
        self.dropped: int = 0

    def _write(self, frame: list[Color], scaled: list[Color]) -> None:
        ok = self._link.send_frame(LEDS_FRAME, encode_leds_payload(scaled))
        if ok is False:
            self.dropped += 1
