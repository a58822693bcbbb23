# The steady loop's work in viper (machine code, no allocation): the scan through the
# muxes and the ADC registers, CRC-32, COBS both ways, LED colours to PIO words.
# Only firmware/main.py calls these; the frame format is docs/protocol.md.
import micropython

SIO_BASE = 0xD0000000       # GPIO_OUT_SET at +0x14, GPIO_OUT_CLR at +0x18
ADC_BASE = 0x4004C000       # CS at +0, RESULT at +4
TIMER_BASE = 0x40054000     # TIMERAWL (microseconds) at +0x28
USB_DPRAM = 0x50100000      # EPn IN buffer control at +0x80 + 8n; AVAILABLE = bit 10


@micropython.viper
def scan(plan_set: ptr32, plan_clr: ptr32, plan_ain: ptr32, plan_at: ptr32, n: int,
         avg: int, settle: int, rest_set: int, out: ptr8):
    """Read the n planned sensors, each averaged avg times, into out (u16 little-endian).

    Step i drives the select and enable lines (plan_set then plan_clr masks on SIO), waits
    settle microseconds, converts ADC input plan_ain[i] avg times and stores the mean,
    on the read_u16 scale, at out[plan_at[i]]. Then rest_set releases every mux.
    """
    sio = ptr32(0xD0000000)
    adc = ptr32(0x4004C000)
    timer = ptr32(0x40054000)
    i = 0
    while i < n:
        # break before make: SET first (GPIO_OUT_SET, SIO + 0x014) releases every mux but
        # this step's, then CLR (GPIO_OUT_CLR, SIO + 0x018) enables it (EN is active low);
        # the other order left the last mux and the next both on between the two writes,
        # their outputs tied to one ADC pin (RP2040 datasheet 2.3.1.7, SIO registers)
        sio[5] = plan_set[i]
        sio[6] = plan_clr[i]
        t0 = timer[10]
        while timer[10] - t0 < settle:
            pass
        cs = (plan_ain[i] << 12) | 5          # AINSEL, START_ONCE, EN
        total = 0
        k = 0
        while k < avg:
            adc[0] = cs
            while not (adc[0] & 0x100):       # READY
                pass
            total += adc[1] & 0xFFF
            k += 1
        v = total // avg
        v = (v << 4) | (v >> 8)              # 12 bits to the u16 scale, as ADC.read_u16
        at = plan_at[i]
        out[at] = v
        out[at + 1] = v >> 8
        i += 1
    sio[5] = rest_set


@micropython.viper
def crc32(data: ptr8, n: int, table: ptr32) -> uint:
    c = uint(0xFFFFFFFF)
    i = 0
    while i < n:
        c = uint(table[(c ^ uint(data[i])) & 0xFF]) ^ (c >> 8)
        i += 1
    return c ^ uint(0xFFFFFFFF)


@micropython.viper
def finish(body: ptr8, n: int, seq: int, table: ptr32, wire: ptr8) -> int:
    """body[0] is the type and body[3:n] the payload: put seq and the CRC in, then
    write 0x00, COBS(body with CRC), 0x00 into wire. Returns the wire length."""
    body[1] = seq
    body[2] = seq >> 8
    c = uint(0xFFFFFFFF)
    i = 0
    while i < n:
        c = uint(table[(c ^ uint(body[i])) & 0xFF]) ^ (c >> 8)
        i += 1
    c = c ^ uint(0xFFFFFFFF)
    body[n] = c
    body[n + 1] = c >> 8
    body[n + 2] = c >> 16
    body[n + 3] = c >> 24
    n += 4
    wire[0] = 0
    code_at = 1
    o = 2
    code = 1
    i = 0
    while i < n:
        b = body[i]
        if b:
            wire[o] = b
            o += 1
            code += 1
            if code == 255:
                wire[code_at] = code
                code_at = o
                o += 1
                code = 1
        else:
            wire[code_at] = code
            code_at = o
            o += 1
            code = 1
        i += 1
    wire[code_at] = code
    wire[o] = 0
    return o + 1


@micropython.viper
def feed(chunk: ptr8, start: int, n: int, frame: ptr8, state: ptr32, cap: int) -> int:
    """Collect bytes from the Pi into frame (state[0] bytes so far, state[1] bytes left
    in the current COBS block, state[2] set after an overlong run). Returns the index in
    chunk just past a delimiter that ends a frame, or -1 when chunk[start:n] is used up."""
    have = state[0]
    left = state[1]
    i = start
    while i < n:
        b = chunk[i]
        i += 1
        if b == 0:
            if have > 0 and state[2] == 0:
                state[0] = have
                state[1] = 0
                return i
            have = 0
            left = 0
            state[2] = 0
            continue
        if have >= cap:
            state[2] = 1                      # too long: dropped at the next delimiter
            have = 0
        if state[2]:
            continue
        frame[have] = b
        have += 1
        if left == 0:
            left = b - 1
        else:
            left -= 1
    state[0] = have
    state[1] = left
    return -1


@micropython.viper
def unstuff(frame: ptr8, n: int, body: ptr8, table: ptr32) -> int:
    """COBS-decode frame[:n] into body and check its CRC: the body length without
    the CRC, or -1 if the frame is not valid COBS, too short or fails the CRC."""
    i = 0
    o = 0
    while i < n:
        code = frame[i]
        end = i + code
        if code == 0 or end > n:
            return -1
        i += 1
        while i < end:
            body[o] = frame[i]
            o += 1
            i += 1
        if code != 255 and i < n:
            body[o] = 0
            o += 1
    if o < 7:
        return -1
    k = o - 4
    c = uint(0xFFFFFFFF)
    i = 0
    while i < k:
        c = uint(table[(c ^ uint(body[i])) & 0xFF]) ^ (c >> 8)
        i += 1
    c = c ^ uint(0xFFFFFFFF)
    got = uint(body[k]) | (uint(body[k + 1]) << 8) | (uint(body[k + 2]) << 16) | (uint(body[k + 3]) << 24)
    if c != got:
        return -1
    return k


@micropython.viper
def grb_words(body: ptr8, start: int, leds: int, words: ptr32, count: int):
    """R, G, B triples at body[start:] to PIO words (G, R, B in the top 24 bits) for
    count LEDs; LEDs past the frame's leds go dark."""
    i = 0
    while i < count:
        if i < leds:
            p = start + 3 * i
            words[i] = (body[p + 1] << 24) | (body[p] << 16) | (body[p + 2] << 8)
        else:
            words[i] = 0
        i += 1


@micropython.viper
def usb_in_busy(ep: int) -> int:
    """Nonzero while the USB IN buffer of endpoint ep waits for the host to take it."""
    dpram = ptr32(0x50100000)
    return dpram[(0x80 + 8 * ep) >> 2] & 0x400
