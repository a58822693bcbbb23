"""firmware/ on real MicroPython in an emulated Pico, read by the companion's own serial reader.

The board (tests/pico/board.py) runs the MicroPython RPI_PICO image in rp2040js with four
CD74HC4067 muxes on ADC0; its USB serial port is a pty that SerialSensors opens with
pyserial. Rates and gaps are counted on the emulated wire in emulated time; what the
emulator cannot see (real USB timing, ADC noise) is listed in firmware/README.md.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "pico"))
from board import EmulatedBoard, unavailable  # noqa: E402

from companion.hardware.framing import CONFIG, HELLO, LEDS, PING, encode_frame  # noqa: E402
from companion.hardware.sensors.serial import SerialSensors  # noqa: E402
from tests.conftest import wait_for  # noqa: E402

REASON = unavailable()
# minutes of emulation: out of 'make test-fast', in 'make test' and CI
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=f"emulated Pico: {REASON}")]

SPACE_MAP = [(space // 16, space % 16) for space in range(52)]  # firmware/config.py's default
HELLO_REQUEST = encode_frame(HELLO, 1)
RATE = 220                      # firmware/config.py's SCAN_RATE
PERIOD_US = 1_000_000 // RATE   # the scan loop's period
FRAME_TIMEOUT_US = 20_000       # firmware/config.py's FRAME_TIMEOUT_MS


class quiet_companion:
    """While inside, the companion's link sends nothing by itself (no HELLO requests
    after a silence): what the emulated Pico does is then its own doing."""

    def __init__(self, sensors: SerialSensors) -> None:
        self.link = sensors.link

    def __enter__(self) -> None:
        self.saved = (self.link.offline_after, self.link.hello_every)
        self.link.offline_after = self.link.hello_every = 3600.0

    def __exit__(self, *exc: object) -> None:
        self.link.offline_after, self.link.hello_every = self.saved


def u16(level: int) -> int:
    """What the firmware reports for a sensor at ``level`` (the 12-bit ADC on read_u16's scale)."""
    v = level >> 4
    return (v << 4) | (v >> 8)


def run_for(board: EmulatedBoard, us: int, timeout: float = 120.0) -> None:
    """Let ``us`` emulated microseconds pass."""
    end = board.now() + us
    wait_for(lambda: board.now() >= end, timeout, f"{us} emulated us")


def rate(tap: dict) -> float:  # type: ignore[type-arg]
    t = tap["tap"]
    return float((t["readings"] - 1) / ((t["last"] - t["first"]) / 1e9))


def fresh_hello(sensors: SerialSensors, timeout: float = 60.0) -> dict:  # type: ignore[type-arg]
    """Ask the firmware for a HELLO (with its counters) and return it."""
    before = sensors.link.stats["hellos"]
    sensors.link.send_frame(HELLO)
    wait_for(lambda: sensors.link.stats["hellos"] > before, timeout, "a HELLO answer")
    assert sensors.link.receiver.hello is not None
    return sensors.link.receiver.hello


@pytest.fixture(scope="module")
def pico(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmulatedBoard]:
    with EmulatedBoard(tmp_path_factory.mktemp("pico")) as board:
        yield board


@pytest.fixture(scope="module")
def sensors(pico: EmulatedBoard) -> Iterator[SerialSensors]:
    s = SerialSensors(pico.port, wait=True)
    try:
        wait_for(lambda: s.link.online, 90, "the emulated Pico's first READINGS")
        yield s
    finally:
        s.close()


def test_the_shipped_config_drives_the_strip_on_gp16(pico: EmulatedBoard, sensors: SerialSensors) -> None:
    """firmware/config.py as shipped: a strip wired to GP16 as docs/hardware.md says lights
    with no edit (the HELLO says so, and the pin carries the LEDS frame's bits)."""
    assert fresh_hello(sensors)["leds"] == 60
    pico.edges(16)
    assert sensors.send_leds(bytes([255, 0, 0] * 60))
    edges: list[tuple[int, int, float]] = []
    end = pico.now() + 300_000
    while pico.now() < end and len([e for e in edges if e[1] == 1]) < 60 * 24:
        edges += pico.edges(16)
        time.sleep(0.05)
    assert len([e for e in edges if e[1] == 1]) == 60 * 24, len(edges)


def test_a_scan_switches_muxes_break_before_make(pico: EmulatedBoard, sensors: SerialSensors) -> None:
    """The four muxes' outputs share one ADC pin: at no instant of a scan may two be
    enabled (EN low), or two sensors drive the pin against each other. Every edge on the
    four EN pins, in the order the emulated GPIOs changed, is replayed over whole scans
    (a sampled pin state only catches the overlap by chance: it lasts one instruction)."""
    assert sensors.link.receiver.hello is not None
    enables = (6, 7, 8, 9)  # firmware/config.py's MUX_ENABLE_PINS
    for pin in enables:
        pico.edges(pin)  # start watching; the edges come back in the order they happened
    run_for(pico, 3 * PERIOD_US)
    edges = [e for e in pico.edges(enables[0]) if e[0] in enables]
    switched = {pin for pin, level, _ in edges if level == 0}
    assert switched == set(enables), f"a scan enables every mux; edges seen on {sorted(switched)}"
    # each pin's level before its first edge is the opposite of that edge
    level = {pin: 1 - next(lv for p, lv, _ in edges if p == pin) for pin in enables}
    worst: tuple[int, float] = (0, 0.0)
    for pin, lv, ns in edges:
        level[pin] = lv
        on = sum(1 for p in enables if level[p] == 0)
        worst = max(worst, (on, ns))
    assert worst[0] <= 1, f"{worst[0]} muxes enabled at once at {worst[1]:.0f} ns"


def test_a_chip_it_does_not_know_gets_an_error_frame_not_a_scan(tmp_path: Path) -> None:
    """On an RP2350 (Pico 2) the RP2040's register addresses are wrong: the firmware
    scans nothing and answers each HELLO with an ERROR frame that says why."""
    with EmulatedBoard(tmp_path, chip_id=0x10004927) as board:  # SYSINFO CHIP_ID part 0x0004: RP2350
        s = SerialSensors(board.port, wait=True)
        try:
            wait_for(lambda: s.link.receiver.firmware_error is not None, 90, "the ERROR frame")
            assert "unsupported chip: RP2350" in s.link.receiver.firmware_error and "RP2040" in s.link.receiver.firmware_error
            run_for(board, 500_000)
            assert s.link.stats["readings"] == 0 and s.link.receiver.hello is None
            assert board.tap()["stats"]["watchdog"] == 0  # no boot loop
            assert any("unsupported chip: RP2350" in p for p in s.link.receiver.problems())
        finally:
            s.close()


def test_boot_says_hello_and_reads_every_space_at_its_index(pico: EmulatedBoard, sensors: SerialSensors) -> None:
    hello = sensors.link.receiver.hello
    assert hello is not None and hello["fw"] and hello["board"] == "gingo-1" and hello["spaces"] == 52
    levels = {SPACE_MAP[s]: 1000 + 1200 * s for s in range(52)}
    levels[(3, 7)] = 65535  # an unused mux channel: must never show up
    pico.set_levels(levels)
    expected = tuple(u16(1000 + 1200 * s) for s in range(52))
    deadline = time.monotonic() + 30
    while True:
        r = sensors.read(1.0)
        if r is not None and r.values == expected:
            break
        assert time.monotonic() < deadline, f"readings {r and r.values} never matched {expected}"
    samples = [pico.pins() for _ in range(12)]  # between scans, or (about 1 ms of 4.5) during one
    assert all(out[23] == 1 for out in samples)  # the regulator's low-noise mode for the ADC
    enables = [[out[p] for p in (6, 7, 8, 9)] for out in samples]
    assert all(sum(e) >= 3 for e in enables), enables  # never two muxes on at once
    assert [1, 1, 1, 1] in enables, enables  # every mux released between scans


def test_readings_rate_ping_and_config(pico: EmulatedBoard, sensors: SerialSensors) -> None:
    with quiet_companion(sensors):
        pico.tap(clear=True)
        run_for(pico, 1_000_000)
        tap = pico.tap(clear=True)
    assert rate(tap) >= 210, tap  # 220 by default: a margin over the 200 the companion expects
    # no late pass: every gap within half a period of the period (gc.mem_alloc(), which
    # walks the heap for ~5 ms, is no longer called in the loop)
    assert tap["tap"]["maxGap"] < 1.5 * PERIOD_US * 1000, tap

    pongs = sensors.link.stats["pongs"]
    assert sensors.link.send_frame(PING)
    wait_for(lambda: sensors.link.stats["pongs"] == pongs + 1, 30, "PONG")

    errors = sensors.link.stats["errors"]
    assert sensors.link.send_frame(CONFIG, b'{"rate": 9000}')
    wait_for(lambda: sensors.link.stats["errors"] == errors + 1, 30, "an ERROR for a bad CONFIG")
    assert sensors.link.send_frame(CONFIG, b'{"avg": 8}')
    wait_for(lambda: fresh_hello(sensors)["avg"] == 8, 60, "avg=8 to take effect")
    pico.tap(clear=True)
    run_for(pico, 1_000_000)
    assert rate(pico.tap(clear=True)) >= 100
    assert sensors.link.send_frame(CONFIG, b'{"avg": 1, "rate": %d}' % RATE)
    wait_for(lambda: fresh_hello(sensors)["avg"] == 1, 60, "avg=1 again")
    with quiet_companion(sensors):
        run_for(pico, 1_100_000)  # the firmware walks the heap at most once a second
        fresh_hello(sensors)  # walks the heap after answering
        run_for(pico, 1_500_000)  # 330 passes with no frame from the Pi
        assert fresh_hello(sensors)["garbage"] == 0  # no allocation in the steady loop


def test_host_that_stops_reading_for_two_seconds(pico: EmulatedBoard, sensors: SerialSensors) -> None:
    before = fresh_hello(sensors)
    resets = pico.tap()["stats"]["resets"]
    asked = sensors.link.stats["hello_requests"]
    held_at = pico.command("hold", on=True)["t"]
    run_for(pico, 2_000_000)
    pico.tap(clear=True)
    released_at = pico.command("hold", on=False)["t"]
    asked = sensors.link.stats["hello_requests"] - asked  # the link hears silence and asks
    run_for(pico, 200_000)
    tap = pico.tap()
    assert tap["tap"]["readings"] >= 35, tap  # back at once, at full rate
    after = fresh_hello(sensors)
    assert tap["stats"]["resets"] == resets  # the watchdog never fired: the scan never stalled
    dropped = after["dropped"] - before["dropped"]
    expected = (released_at - held_at) // PERIOD_US  # READINGS due while held
    # dropped and counted, not queued (plus the answers to the HELLO requests the
    # companion sends once the Pico seems silent, as many as the emulator's pace in wall
    # time allows; they are dropped too)
    assert expected - 10 <= dropped <= expected + asked + 10, (dropped, expected, asked)
    assert after["scans"] - before["scans"] >= 2_000_000 // PERIOD_US - 20  # scanning went on all along


def test_a_hello_request_at_any_moment_of_boot_never_stops_the_firmware(
    pico: EmulatedBoard, sensors: SerialSensors
) -> None:
    # HELLO requests (each holds a 0x03 byte) every 10 ms from reset to 1 s, in three boots
    # shifted by 3.3 ms: 300 instants, from before USB is up to well into the scan loop
    for shift in (0, 3_300, 6_600):
        pico.reset(send=[(shift + k * 10_000, HELLO_REQUEST.hex()) for k in range(100)])
        start = pico.now()
        pico.tap(clear=True)
        run_for(pico, 1_300_000)
        tap = pico.tap(clear=True)
        t = tap["tap"]
        assert t["frames"].get("1", 0) >= 20, tap  # the requests were answered...
        assert t["last"] is not None and t["last"] / 1000 > start + 1_200_000, tap  # ...and it still scans
        run_for(pico, 100_000)
        assert pico.tap()["tap"]["readings"] >= 15


def test_watchdog_resets_a_hung_pico_and_it_comes_back(pico: EmulatedBoard, sensors: SerialSensors) -> None:
    wait_for(lambda: sensors.link.online, 90, "READINGS")
    hellos = sensors.link.stats["hellos"]
    watchdog = pico.tap()["stats"]["watchdog"]
    pico.command("stall", ms=3000)  # the CPU hangs; the watchdog keeps counting
    wait_for(lambda: pico.tap()["stats"]["watchdog"] == watchdog + 1, 60, "the watchdog reset")
    wait_for(lambda: sensors.link.stats["hellos"] > hellos and sensors.link.online, 90, "READINGS after the reset")


def test_twenty_resets_while_the_companion_reads(pico: EmulatedBoard, sensors: SerialSensors) -> None:
    for n in range(20):
        wait_for(lambda: sensors.link.online, 90, f"READINGS before reset {n}")
        hellos = sensors.link.stats["hellos"]
        pico.reset()
        wait_for(lambda: not sensors.link.online, 30, f"silence after reset {n}")
        wait_for(lambda: sensors.link.stats["hellos"] > hellos and sensors.link.online, 90, f"online after reset {n}")
    assert sensors.link.stats["cobs"] + sensors.link.stats["crc"] <= 20  # at most a frame cut by each reset


# ---- LEDs on the Pico ----

LED_COUNT = 60
LED_PIN = 16


@pytest.fixture(scope="module")
def led_pico(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmulatedBoard]:
    with EmulatedBoard(tmp_path_factory.mktemp("ledpico"), config={"LED_PIN": LED_PIN, "LED_COUNT": LED_COUNT}) as b:
        yield b


def decode_ws2812(edges: list[tuple[int, int, float]]) -> tuple[list[int], list[float], list[float]]:
    """Bits from the rising/falling edges of one burst, with each bit's high and low time (ns)."""
    bits: list[int] = []
    highs: list[float] = []
    lows: list[float] = []
    rises = [(i, e) for i, e in enumerate(edges) if e[1] == 1]
    for i, (pin, _, t) in rises:
        if i + 1 >= len(edges):
            break
        fall = edges[i + 1][2]
        high = fall - t
        highs.append(high)
        bits.append(1 if high > 625 else 0)
        if i + 2 < len(edges):
            lows.append(edges[i + 2][2] - fall)
    return bits, highs, lows


def test_leds_at_25_fps_while_scanning_and_the_waveform(led_pico: EmulatedBoard) -> None:
    s = SerialSensors(led_pico.port, wait=True)
    try:
        wait_for(lambda: s.link.online, 90, "READINGS")
        led_pico.edges(LED_PIN)  # start watching the data pin
        led_pico.tap(clear=True)
        start = led_pico.now()
        due = start
        frames = 0
        colors = b""
        while led_pico.now() < start + 1_000_000:
            if led_pico.now() >= due:
                colors = bytes((frames * 7 + i) & 0xFF for i in range(3 * LED_COUNT))
                assert s.send_leds(colors)
                frames += 1
                due += 40_000
            time.sleep(0.005)
        tap = led_pico.tap(clear=True)
        assert rate(tap) >= 100, tap
        run_for(led_pico, 50_000)
        hello = fresh_hello(s)
        assert hello["led_frames"] >= frames - 2 and hello["led_us"] <= 3000, hello
        edges = led_pico.edges(LED_PIN)
        # the last burst: after the last gap longer than the 280 us WS2812B-V5 reset
        starts = [i for i in range(1, len(edges)) if edges[i][2] - edges[i - 1][2] > 280_000]
        burst = edges[starts[-1]:] if starts else edges
        bits, highs, lows = decode_ws2812(burst)
        assert len(bits) == 24 * LED_COUNT
        grb = bytes(int("".join(map(str, bits[k:k + 8])), 2) for k in range(0, len(bits), 8))
        sent = b"".join(bytes((colors[i + 1], colors[i], colors[i + 2])) for i in range(0, len(colors), 3))
        assert grb == sent  # G, R, B order, the last frame sent
        # the high times inside every LED family's window (firmware/main.py, LED_PIO_HZ):
        # T0H WS2812B-V5 220-380, SK6812 150-450, WS2812B 250-550 ns; T1H V5 580-1000,
        # SK6812 450-750, WS2812B 650-950 ns; the lows inside the SK6812's and WS2812B's
        for bit, high in zip(bits, highs, strict=True):
            assert (250 <= high <= 380) if bit == 0 else (650 <= high <= 750), (bit, high)
        for bit, low in zip(bits, lows, strict=False):
            assert (750 <= low <= 1000) if bit == 0 else (450 <= low <= 600), (bit, low)
        # a whole-number divider: every pulse of a kind is the same length (no jitter)
        assert {round(h) for b, h in zip(bits, highs) if b == 0} == {320}
        assert {round(h) for b, h in zip(bits, highs) if b == 1} == {720}
    finally:
        s.close()


def test_a_frame_cut_short_is_dropped_after_the_timeout_and_scanning_goes_on(led_pico: EmulatedBoard) -> None:
    s = SerialSensors(led_pico.port, wait=True)
    try:
        wait_for(lambda: s.link.online, 90, "READINGS")
        before = fresh_hello(s)
        watchdog = led_pico.tap()["stats"]["watchdog"]
        frame = encode_frame(LEDS, 1, bytes(range(3 * LED_COUNT)))
        with quiet_companion(s):  # nothing else from the Pi completes the frame
            led_pico.tap(clear=True)
            assert s.link._serial is not None  # noqa: SLF001 - half a frame, bypassing the framing
            s.link._serial.write(frame[: len(frame) // 2])  # noqa: SLF001
            run_for(led_pico, 300_000)
            tap = led_pico.tap(clear=True)["tap"]
        # the Pico waited at most the frame timeout for the rest, then went on scanning
        # (before, its read waited for the bytes until the watchdog reset it after 2 s)
        assert tap["readings"] >= 300_000 // PERIOD_US - 10, tap
        assert tap["maxGap"] < (FRAME_TIMEOUT_US + 3 * PERIOD_US) * 1000, tap
        colors = bytes((3 * i + 1) & 0xFF for i in range(3 * LED_COUNT))
        assert s.send_leds(colors)
        run_for(led_pico, 50_000)
        after = fresh_hello(s)
        assert after["cut"] == before["cut"] + 1 and after["bad"] == before["bad"] + 1, (before, after)
        assert after["led_frames"] == before["led_frames"] + 1  # the next whole frame is shown
        assert led_pico.tap()["stats"]["watchdog"] == watchdog  # no reset on the way
    finally:
        s.close()
