# Gin-Go sensor board firmware for the Raspberry Pi Pico (MicroPython).
#
# Scans 52 linear Hall sensors through four CD74HC4067 muxes and sends READINGS frames
# to the Pi over USB serial; answers HELLO and PING; drives the LED strip from LEDS
# frames when config.LED_PIN is set; runs a watchdog. Protocol: docs/protocol.md.
# Pins and settings: config.py. Flash: see firmware/README.md.

# Ctrl-C off before anything else: the Pi's frames hold 0x03 bytes, and a HELLO request
# that arrives while the imports below compile would otherwise stop the program.
import micropython

micropython.kbd_intr(-1)

import array
import json
import sys
import time

import machine
import rp2

import config
import protocol

SPACES = 52


class UsbPort:
    """The USB serial port (stdin/stdout of MicroPython), read without blocking."""

    def __init__(self):
        import select

        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read_available(self):
        data = bytearray()
        while len(data) < 256 and self._poll.poll(0):
            b = self._in.read(1)
            if not b:
                break
            data += b
        return data

    def write(self, data):
        self._out.write(data)


class Strip:
    """WS2812 strip on a PIO state machine (8 MHz: 10 cycles = 1.25 us per bit)."""

    def __init__(self, pin, count, sm_id):
        @rp2.asm_pio(
            sideset_init=rp2.PIO.OUT_LOW,
            out_shiftdir=rp2.PIO.SHIFT_LEFT,
            autopull=True,
            pull_thresh=24,
        )
        def ws2812_bits():
            # a one: 7 cycles high, 3 low; a zero: 3 high, 7 low
            wrap_target()  # noqa: F821 (names provided by rp2.asm_pio)
            label("bit")  # noqa: F821
            out(x, 1).side(0)[2]  # noqa: F821
            jmp(not_x, "zero").side(1)[2]  # noqa: F821
            jmp("bit").side(1)[3]  # noqa: F821
            label("zero")  # noqa: F821
            nop().side(0)[3]  # noqa: F821
            wrap()  # noqa: F821

        self.count = count
        self.words = array.array("I", [0] * count)
        self.sm = rp2.StateMachine(sm_id, ws2812_bits, freq=8000000, sideset_base=machine.Pin(pin))
        self.sm.active(1)

    def show_rgb(self, rgb):
        """Show R, G, B triples (LED index order); LEDs past the data go dark."""
        words = self.words
        n = min(self.count, len(rgb) // 3)
        for i in range(self.count):
            if i < n:
                r, g, b = rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]
                words[i] = (g << 16) | (r << 8) | b  # WS2812 wants G, R, B
            else:
                words[i] = 0
        self.sm.put(words, 8)  # the top 24 bits of each word go out


class Firmware:
    """The scan loop and the command handler, free of timing so tests can drive it."""

    def __init__(self, port, cfg=config, sleep_us=None):
        self.port = port
        self.cfg = cfg
        self.sleep_us = sleep_us if sleep_us is not None else getattr(time, "sleep_us", None)
        self.seq = 0
        self.rate = cfg.SCAN_RATE
        self.average = cfg.AVERAGE
        self.splitter = protocol.Splitter()
        self.values = [0] * SPACES
        self.payload = bytearray(2 * SPACES)
        self.select = [machine.Pin(p, machine.Pin.OUT, value=0) for p in cfg.MUX_SELECT_PINS]
        if cfg.MUX_ENABLE_PINS is None:
            self.enable = None
        else:
            self.enable = [machine.Pin(p, machine.Pin.OUT, value=1) for p in cfg.MUX_ENABLE_PINS]
        adcs = {}
        for p in cfg.MUX_ADC_PINS:
            if p not in adcs:
                adcs[p] = machine.ADC(machine.Pin(p))
        self.adc = [adcs[p] for p in cfg.MUX_ADC_PINS]
        if len(cfg.SPACE_MAP) != SPACES:
            raise ValueError("config.SPACE_MAP must list 52 (mux, channel) pairs")
        # group the spaces by channel so the select lines change 13-16 times per scan
        groups = {}
        for space, (mux, channel) in enumerate(cfg.SPACE_MAP):
            groups.setdefault(channel, []).append((mux, space))
        self.plan = sorted(groups.items())
        self.strip = None
        if cfg.LED_PIN is not None:
            self.strip = Strip(cfg.LED_PIN, cfg.LED_COUNT, cfg.LED_PIO_SM)
        self.stats = {"scans": 0, "leds": 0, "dropped": 0}

    # ---- sending ----

    def send(self, ftype, payload=b""):
        self.port.write(protocol.encode_frame(ftype, self.seq, payload))
        self.seq = (self.seq + 1) & 0xFFFF

    def hello(self):
        info = {"fw": self.cfg.FW_VERSION, "board": self.cfg.BOARD_ID, "spaces": SPACES}
        self.send(protocol.HELLO, json.dumps(info).encode())

    # ---- scanning ----

    def scan(self):
        """Read every sensor once (averaged) into self.values."""
        select = self.select
        enable = self.enable
        avg = self.average
        values = self.values
        sleep_us = self.sleep_us
        settle = self.cfg.SETTLE_US
        current = -1
        for channel, members in self.plan:
            for bit in range(4):
                select[bit].value((channel >> bit) & 1)
            for mux, space in members:
                if enable is not None and mux != current:
                    if current >= 0:
                        enable[current].value(1)
                    enable[mux].value(0)
                    current = mux
                if settle and sleep_us is not None:
                    sleep_us(settle)
                adc = self.adc[mux]
                total = 0
                for _ in range(avg):
                    total += adc.read_u16()
                values[space] = total // avg
        if enable is not None and current >= 0:
            enable[current].value(1)
        self.stats["scans"] += 1
        return values

    def send_readings(self):
        protocol.pack_readings(self.values, self.payload)
        self.send(protocol.READINGS, self.payload)

    # ---- commands from the Pi ----

    def poll(self):
        data = self.port.read_available()
        if data:
            for ftype, seq, payload in self.splitter.feed(data):
                self.handle(ftype, payload)
            self.stats["dropped"] = self.splitter.dropped

    def handle(self, ftype, payload):
        if ftype == protocol.PING:
            self.send(protocol.PONG)
        elif ftype == protocol.HELLO:
            if not payload:
                self.hello()
        elif ftype == protocol.LEDS:
            if self.strip is not None and len(payload) % 3 == 0:
                self.strip.show_rgb(payload)
                self.stats["leds"] += 1
        elif ftype == protocol.CONFIG:
            self.configure(payload)

    def configure(self, payload):
        try:
            settings = json.loads(payload)
            if not isinstance(settings, dict):
                raise ValueError("CONFIG must be a JSON object")
            rate = settings.get("rate", self.rate)
            avg = settings.get("avg", self.average)
            unknown = [k for k in settings if k not in ("rate", "avg")]
            if unknown:
                raise ValueError("unknown CONFIG keys: " + ", ".join(sorted(unknown)))
            if not isinstance(rate, int) or not 50 <= rate <= 500:
                raise ValueError("CONFIG rate must be an integer 50..500")
            if not isinstance(avg, int) or not 1 <= avg <= 8:
                raise ValueError("CONFIG avg must be an integer 1..8")
        except ValueError as exc:
            self.send(protocol.ERROR, str(exc).encode())
            return
        self.rate = rate
        self.average = avg

    def step(self):
        """One pass of the main loop: commands in, one scan out."""
        self.poll()
        self.scan()
        self.send_readings()


def safe_mode():
    """True when the safe-mode jumper pulls config.SAFE_MODE_PIN to GND."""
    if config.SAFE_MODE_PIN is None:
        return False
    return machine.Pin(config.SAFE_MODE_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


def run(port=None, loops=None):
    """The main loop: a scan every 1/rate seconds, the watchdog fed each pass."""
    if safe_mode():
        micropython.kbd_intr(3)  # leave the REPL (and Ctrl-C) to mpremote
        return None
    wdt = machine.WDT(timeout=config.WDT_TIMEOUT_MS)
    fw = Firmware(port if port is not None else UsbPort())
    fw.hello()
    due = time.ticks_us()
    n = 0
    while loops is None or n < loops:
        try:
            fw.step()
        except Exception as exc:  # report and carry on; the watchdog catches a hang
            fw.send(protocol.ERROR, ("firmware: " + repr(exc)).encode())
        wdt.feed()
        due = time.ticks_add(due, 1000000 // fw.rate)
        wait = time.ticks_diff(due, time.ticks_us())
        if wait > 0:
            time.sleep_us(wait)
        else:
            due = time.ticks_us()  # overran: start the schedule afresh
        n += 1
    return fw


if __name__ == "__main__":
    run()
