# Gin-Go sensor board firmware for the Raspberry Pi Pico (MicroPython).
#
# Scans 52 linear Hall sensors through four CD74HC4067 muxes and sends READINGS frames
# to the Pi over USB serial; answers HELLO, PING and CONFIG; drives the LED strip from
# LEDS frames when config.LED_PIN is set; runs a watchdog. Protocol: docs/protocol.md.
# Pins and settings: config.py. Flash: see firmware/README.md.

# Ctrl-C off before anything else: the Pi's frames hold 0x03 bytes, and a HELLO request
# that arrives while the imports below compile would otherwise stop the program.
import micropython

micropython.kbd_intr(-1)

import array
import gc
import io
import json
import os
import select
import sys
import time

import machine
import rp2

import config
import fast
import protocol

SPACES = 52
PIO0_TXF0 = 0x50200010      # PIO0's TX FIFO of state machine 0 (+4 per machine)
DREQ_PIO0_TX0 = 0           # its DMA request line (+1 per machine)
FIFO_ROOM = 256             # MicroPython's USB TX FIFO: what we may queue once the IN endpoint is idle
READS_PER_PASS = 16         # reads of the Pi's bytes per scan pass (a LEDS frame takes 2-4)


def cobs_length(n):
    """Length of COBS(n bytes), at most: one code byte, plus one per 254 data bytes."""
    return n + 1 + n // 254


# The LED bit timing, from one whole-number clock divider so every bit is the same:
# 125 MHz / 10 = 12.5 MHz, one PIO cycle 80 ns, a bit 4 + 5 + 6 = 15 cycles (1.2 us).
#   a 0: high T0H = 4 cycles = 320 ns, low T0L = 5 + 6 = 11 cycles = 880 ns
#   a 1: high T1H = 4 + 5 = 9 cycles = 720 ns, low T1L = 6 cycles = 480 ns
# The LED decides 0 or 1 from the high time; the high-time windows (datasheets, ns):
#   WS2812B-V5 (Worldsemi):  T0H 220-380, T1H 580-1000; reset low >= 280 us
#   SK6812 (Opsco):          T0H 300 +-150 = 150-450, T1H 600 +-150 = 450-750
#   WS2812B (older sheet):   T0H 400 +-150 = 250-550, T1H 800 +-150 = 650-950
#   320 is inside 250-380 (all three), 720 inside 650-750 (all three).
# Low times: 880 and 480 ns sit inside the SK6812's (T0L 750-1050, T1L 450-750) and the
# older WS2812B's (T0L 700-1000, T1L 300-600) windows; the bit of 1.2 us is inside the
# WS2812B's 1.25 us +-600 ns.
# (The 8 MHz clock used before needed the divider 15.625: its fraction made the short
# pulse jitter to 368-376 ns against the V5's 380 ns, and its 875 ns long pulse was over
# the SK6812's 750 ns.) At 125 MHz, MicroPython's default clock, freq=LED_PIO_HZ gives
# the divider 10 exactly; Strip refuses a clock it does not divide.
LED_PIO_HZ = 12_500_000


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
             autopull=True, pull_thresh=24)
def ws2812_bits():
    # Delays are literals: asm_pio runs this body with its own globals. [n] adds n cycles.
    # a 0: 4 high, then 5 + 6 low; a 1: 4 + 5 high, then 6 low (see LED_PIO_HZ)
    wrap_target()  # noqa: F821 (names provided by rp2.asm_pio)
    label("bit")  # noqa: F821
    out(x, 1).side(0)[5]  # noqa: F821          6 cycles low (the end of the previous bit)
    jmp(not_x, "zero").side(1)[3]  # noqa: F821  4 cycles high
    jmp("bit").side(1)[4]  # noqa: F821          a 1: 5 more high
    label("zero")  # noqa: F821
    nop().side(0)[4]  # noqa: F821               a 0: 5 low (then the 6 of the next out)
    wrap()  # noqa: F821


class Strip:
    """WS2812 strip on a PIO state machine, fed by DMA so the CPU never waits for it."""

    def __init__(self, pin, count, sm_id):
        self.count = count
        self.words = array.array("I", bytes(4 * count))
        if machine.freq() % LED_PIO_HZ:
            raise ValueError("the LED timing needs a CPU clock that is a whole multiple of 12.5 MHz, not "
                             + str(machine.freq()) + " Hz")
        self.sm = rp2.StateMachine(sm_id, ws2812_bits, freq=LED_PIO_HZ, sideset_base=machine.Pin(pin))
        self.sm.active(1)
        self.dma = rp2.DMA()
        self.ctrl = self.dma.pack_ctrl(size=2, inc_write=False, treq_sel=DREQ_PIO0_TX0 + sm_id)
        self.txf = PIO0_TXF0 + 4 * sm_id
        self.busy = 0   # frames that came while the previous one was still going out

    def show(self, body, start, leds):
        """Start sending leds R, G, B triples from body[start:]; False if still busy."""
        if self.dma.active():
            self.busy += 1
            return False
        fast.grb_words(body, start, leds, self.words, self.count)
        self.dma.config(read=self.words, write=self.txf, count=self.count, ctrl=self.ctrl, trigger=True)
        return True


class CutShort(io.IOBase):
    """Ends a frame the Pi cut short, so a read never waits more than ``ms`` for it.

    MicroPython's stdin ``readinto(buf, n)`` waits until all n bytes came. While a bulk
    read is under way this object is attached with ``os.dupterm``: MicroPython asks it for
    a byte whenever the Pi's data has run dry. Until the deadline it has none; after it,
    it answers 0x00 (a frame delimiter) and hands over to a stream of zeros (native code,
    no Python call per byte) for every byte still missing. The read returns, the cut frame
    fails its check and is counted, and the next frame is read afresh. A one-shot timer
    wakes the CPU at the deadline (the waiting read sleeps until an interrupt).
    """

    def __init__(self, ms, size):
        self.ms = ms
        self.deadline = 0
        self.cut = False
        self.zeros = io.BytesIO(bytes(size))
        self.timer = machine.Timer()
        self.wake = self._wake

    def _wake(self, timer):
        pass

    def readinto(self, buf):
        if time.ticks_diff(time.ticks_ms(), self.deadline) < 0:
            return None      # nothing yet: MicroPython waits for the Pi (or the timer)
        buf[0] = 0
        self.cut = True
        self.zeros.seek(0)
        os.dupterm(self.zeros)
        return 1

    def write(self, buf):
        return len(buf)      # nothing is written while a read is under way

    def ioctl(self, op, arg):
        return 0


class Link:
    """The USB serial port: frames in and out without allocating and without blocking.

    Writes never wait for the Pi: while the USB IN endpoint still holds data the Pi has
    not taken, at most FIFO_ROOM bytes are queued; frames that do not fit are dropped and
    counted (MicroPython's own write would block up to 500 ms per frame).
    """

    def __init__(self, ep_in, led_count, frame_timeout_ms):
        self.inp = sys.stdin.buffer
        self.out = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.ep_in = ep_in
        self.room = FIFO_ROOM
        self.dropped = 0     # frames to the Pi dropped because it was not reading
        self.bad = 0         # frames from the Pi dropped as damaged
        self.frames_in = 0   # frames from the Pi, good or bad
        self.cut = 0         # frames from the Pi that stopped half way (timed out)
        self.chunk = bytearray(256)
        self.guard = CutShort(frame_timeout_ms, len(self.chunk))
        self.table = array.array("I", protocol.crc_table())
        self.frame = bytearray(protocol.MAX_ENCODED)
        self.state = array.array("i", [0, 0, 0])
        self.body = bytearray(protocol.MAX_BODY + 8)
        self.wire = bytearray(2 + cobs_length(protocol.MAX_BODY))
        self.seq = 0
        # a LEDS frame for our LED count: read it in one go once its type is known
        self.leds_len = cobs_length(3 + 3 * led_count + 4) if led_count else 0

    def send_body(self, body, n, wire):
        """Send body[:n] (type and payload; seq and CRC filled in) as one frame."""
        length = fast.finish(body, n, self.seq, self.table, wire)
        self.seq = (self.seq + 1) & 0xFFFF
        if not fast.usb_in_busy(self.ep_in):
            self.room = FIFO_ROOM
        if length > self.room:
            self.dropped += 1
            return False
        self.room -= length
        self.out.write(wire if length == len(wire) else memoryview(wire)[:length])
        return True

    def send(self, ftype, payload=b""):
        """Any frame (allocates: for the rare ones)."""
        n = 3 + len(payload)
        body = bytearray(n + 4)
        body[0] = ftype
        body[3:n] = payload
        return self.send_body(body, n, bytearray(2 + cobs_length(n + 4)))

    def readable(self):
        for _ in self.poller.ipoll(0):
            return True
        return False

    def read(self, want):
        """Read want bytes into chunk; bytes the Pi does not send within the frame
        timeout come back as 0x00 (see CutShort). One byte never waits: poll saw it."""
        if want <= 1:
            self.inp.readinto(self.chunk, want)
            return
        guard = self.guard
        guard.cut = False
        guard.deadline = time.ticks_add(time.ticks_ms(), guard.ms)
        guard.timer.init(mode=machine.Timer.ONE_SHOT, period=guard.ms + 1, callback=guard.wake)
        os.dupterm(guard)
        try:
            self.inp.readinto(self.chunk, want)
        finally:
            os.dupterm(None)
            guard.timer.deinit()
        if guard.cut:
            self.cut += 1

    def receive(self, handle):
        """Read what the Pi sent; handle(type, body, length) for each good frame.

        At most READS_PER_PASS reads a pass: a Pi that sends faster than the Pico takes
        its frames (LEDS at a high rate) fills the USB buffer and its writes wait, while
        the scan goes on every pass and the watchdog stays fed. A frame cut by the limit
        is finished on the next pass (the framing state stays in self.state)."""
        state = self.state
        frame = self.frame
        reads = 0
        while reads < READS_PER_PASS and self.readable():
            reads += 1
            # read whole COBS blocks at once, a whole LEDS frame once its type is known
            want = state[1] + 1
            if self.leds_len and state[0] >= 2 and frame[1] == protocol.LEDS and frame[0] > 1:
                want = max(want, self.leds_len + 1 - state[0])
            want = min(want, len(self.chunk))
            self.read(want)
            at = 0
            while at >= 0:
                at = fast.feed(self.chunk, at, want, frame, state, len(frame))
                if at >= 0:
                    n = fast.unstuff(frame, state[0], self.body, self.table)
                    state[0] = 0
                    self.frames_in += 1
                    if n < 0:
                        self.bad += 1
                    else:
                        handle(self.body[0], self.body, n)


class Board:
    """The muxes and the ADC: a scan plan the viper scan runs through."""

    def __init__(self, cfg):
        if len(cfg.SPACE_MAP) != SPACES:
            raise ValueError("config.SPACE_MAP must list 52 (mux, channel) pairs")
        select_pins = cfg.MUX_SELECT_PINS
        enable_pins = cfg.MUX_ENABLE_PINS
        for p in select_pins:
            machine.Pin(p, machine.Pin.OUT, value=0)
        idle = 0
        if enable_pins is not None:
            for p in enable_pins:
                machine.Pin(p, machine.Pin.OUT, value=1)
                idle |= 1 << p
        self.adcs = [machine.ADC(machine.Pin(p)) for p in set(cfg.MUX_ADC_PINS)]  # sets up the pads
        # group the spaces by channel so the select lines change 13-16 times per scan
        order = sorted(range(SPACES), key=lambda s: (cfg.SPACE_MAP[s][1], cfg.SPACE_MAP[s][0]))
        self.n = SPACES
        self.set = array.array("I", bytes(4 * SPACES))
        self.clr = array.array("I", bytes(4 * SPACES))
        self.ain = array.array("I", bytes(4 * SPACES))
        self.at = array.array("I", bytes(4 * SPACES))
        for i, space in enumerate(order):
            mux, channel = cfg.SPACE_MAP[space]
            on = 0
            for bit, p in enumerate(select_pins):
                if channel >> bit & 1:
                    on |= 1 << p
            if enable_pins is not None:
                on |= idle & ~(1 << enable_pins[mux])
            every = idle
            for p in select_pins:
                every |= 1 << p
            self.set[i] = on
            self.clr[i] = every & ~on
            self.ain[i] = cfg.MUX_ADC_PINS[mux] - 26
            self.at[i] = 3 + 2 * space          # where the reading goes in a READINGS body
        self.idle = idle

    def scan(self, body, avg, settle):
        fast.scan(self.set, self.clr, self.ain, self.at, self.n, avg, settle, self.idle, body)


class Firmware:
    def __init__(self, cfg=config):
        self.cfg = cfg
        if getattr(cfg, "SMPS_MODE_PIN", None) is not None:
            machine.Pin(cfg.SMPS_MODE_PIN, machine.Pin.OUT, value=1)  # regulator in low-noise mode for the ADC
        self.rate = cfg.SCAN_RATE
        self.average = cfg.AVERAGE
        self.board = Board(cfg)
        self.strip = None
        if cfg.LED_PIN is not None:
            self.strip = Strip(cfg.LED_PIN, cfg.LED_COUNT, cfg.LED_PIO_SM)
        self.link = Link(cfg.USB_CDC_EP_IN, cfg.LED_COUNT if self.strip else 0,
                         getattr(cfg, "FRAME_TIMEOUT_MS", 20))
        self.readings = bytearray(3 + 2 * SPACES + 4)
        self.readings[0] = protocol.READINGS
        self.readings_wire = bytearray(2 + cobs_length(len(self.readings)))
        self.scans = 0
        self.leds = 0
        self.led_us = 0      # longest time a LEDS frame took from its last byte to the strip
        self.garbage = -1    # bytes allocated per pass, measured between two HELLO answers
        self._mem = 0        # heap in use after the last answer that walked the heap...
        self._scans = 0      # ...and the passes and frames from the Pi until then
        self._based = False  # the last answer walked the heap (a measurement can follow)
        self._walked = time.ticks_add(time.ticks_ms(), -1000)
        self._handle = self.handle  # one bound method, not one per pass
        self._frames_in = 0

    def hello(self):
        """Introduce ourselves, with the counters.

        Garbage per pass is measured here, not in the scan loop: gc.mem_alloc() walks the
        whole heap (about 5 ms), which in the loop made one pass in 256 late. It walks at
        most once a second (a burst of HELLO requests costs one walk), before and after
        the answer; the figure counts when the only frame from the Pi since the last
        walk is this request and the heap only grew (no collection ran).
        """
        link = self.link
        walk = time.ticks_diff(time.ticks_ms(), self._walked) >= 1000
        if walk:
            mem = gc.mem_alloc()
            if (self._based and mem >= self._mem and link.frames_in == self._frames_in + 1
                    and self.scans > self._scans):
                self.garbage = (mem - self._mem) // (self.scans - self._scans)
        info = {
            "fw": self.cfg.FW_VERSION, "board": self.cfg.BOARD_ID, "spaces": SPACES,
            "leds": self.cfg.LED_COUNT if self.strip else 0, "rate": self.rate, "avg": self.average,
            "scans": self.scans, "dropped": link.dropped, "bad": link.bad,
            "led_frames": self.leds, "led_busy": self.strip.busy if self.strip else 0,
            "led_us": self.led_us, "garbage": self.garbage, "cut": link.cut,
        }
        link.send(protocol.HELLO, json.dumps(info).encode())
        self._based = walk
        if walk:
            self._mem = gc.mem_alloc()
            self._scans = self.scans
            self._frames_in = link.frames_in
            self._walked = time.ticks_ms()

    def handle(self, ftype, body, n):
        if ftype == protocol.PING:
            self.link.send(protocol.PONG)
        elif ftype == protocol.HELLO:
            if n == 3:
                self.hello()
        elif ftype == protocol.LEDS:
            t0 = time.ticks_us()
            if self.strip is not None and (n - 3) % 3 == 0:
                if self.strip.show(body, 3, (n - 3) // 3):
                    self.leds += 1
                    self.led_us = max(self.led_us, time.ticks_diff(time.ticks_us(), t0))
        elif ftype == protocol.CONFIG:
            self.configure(bytes(body[3:n]))

    def configure(self, payload):
        try:
            rate, avg = protocol.parse_config(payload, self.rate, self.average)
        except ValueError as exc:
            self.link.send(protocol.ERROR, str(exc).encode())
            return
        self.rate = rate
        self.average = avg

    def step(self):
        """One pass: commands in, one scan out."""
        self.link.receive(self._handle)
        self.board.scan(self.readings, self.average, self.cfg.SETTLE_US)
        self.link.send_body(self.readings, 3 + 2 * SPACES, self.readings_wire)
        self.scans += 1


# The chips whose registers fast.py and this file write (ADC, timer, SIO, USB, PIO, DMA):
# SYSINFO CHIP_ID (0x40000000 on the RP2040 and the RP2350) bits 27:12 are the part.
SYSINFO_CHIP_ID = 0x40000000
KNOWN_PARTS = {0x0002: "RP2040"}
OTHER_PARTS = {0x0004: "RP2350"}


def chip_problem():
    """None on a chip this firmware knows the registers of, else why it must not run.

    fast.py writes the RP2040's register addresses; on an RP2350 (Pico 2) the ADC, the
    timer and SIO's set/clear registers sit elsewhere, so the scan would fault or hang
    and the watchdog reset it forever.
    """
    machine_name = getattr(os.uname(), "machine", "?")
    if sys.platform != "rp2":
        return ("unsupported board: " + machine_name + " (MicroPython port " + sys.platform
                + "); this firmware runs on a Raspberry Pi Pico with an RP2040 only")
    part = (machine.mem32[SYSINFO_CHIP_ID] >> 12) & 0xFFFF
    if part in KNOWN_PARTS:
        return None
    name = OTHER_PARTS.get(part, "chip part 0x%04x" % part)
    return ("unsupported chip: " + name + " (" + machine_name + "); this firmware knows the RP2040's "
            "registers only: use a Raspberry Pi Pico, Pico H or Pico W (RP2040), not a Pico 2. "
            "The scan is off")


def refuse(why):
    """Scan nothing, and answer every HELLO or PING from the Pi with an ERROR frame saying
    ``why`` (also sent once at start). Plain Python, no register of ours is touched."""
    out = sys.stdout.buffer
    inp = sys.stdin.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    splitter = protocol.Splitter()
    message = ("firmware: " + why).encode()
    seq = 0
    out.write(protocol.encode_frame(protocol.ERROR, seq, message))
    while True:
        for _ in poller.ipoll(1000):
            data = inp.read(1)
            for ftype, _seq, _payload in splitter.feed(data):
                if ftype in (protocol.HELLO, protocol.PING):
                    seq = (seq + 1) & 0xFFFF
                    out.write(protocol.encode_frame(protocol.ERROR, seq, message))


def safe_mode():
    """True when the safe-mode jumper pulls config.SAFE_MODE_PIN to GND."""
    if config.SAFE_MODE_PIN is None:
        return False
    return machine.Pin(config.SAFE_MODE_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


def run():
    """The main loop: a scan every 1/rate seconds, the watchdog fed each pass."""
    if safe_mode():
        micropython.kbd_intr(3)  # leave the REPL (and Ctrl-C) to mpremote
        return None
    problem = chip_problem()
    if problem is not None:
        refuse(problem)
    wdt = machine.WDT(timeout=config.WDT_TIMEOUT_MS)
    fw = Firmware()
    fw.hello()
    due = time.ticks_us()
    while True:
        try:
            fw.step()
        except Exception as exc:  # report and carry on; the watchdog catches a hang
            fw.link.send(protocol.ERROR, ("firmware: " + repr(exc)).encode())
        wdt.feed()
        period = 1000000 // fw.rate
        due = time.ticks_add(due, period)
        wait = time.ticks_diff(due, time.ticks_us())
        if wait > 0:
            time.sleep_us(wait)
        elif wait < -period:
            due = time.ticks_us()  # a whole period behind: start the schedule afresh
        # else a little late: the next pass starts at once and catches up


if __name__ == "__main__":
    run()
