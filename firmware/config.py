# Gin-Go sensor board: pins and settings of the Pico firmware.
# Edit this file to match your wiring, then flash (see firmware/README.md).

FW_VERSION = "1.0.0"
BOARD_ID = "gingo-1"          # reported in HELLO; name your board if you build several

# Four CD74HC4067 16-channel muxes share the select lines S0..S3.
MUX_SELECT_PINS = (2, 3, 4, 5)      # GP numbers of S0, S1, S2, S3

# Each mux's common output goes to an ADC input. With MUX_ENABLE_PINS set, the four
# outputs are tied to one ADC pin and only the enabled mux (EN low) drives it.
# Set MUX_ENABLE_PINS = None and give four ADC pins if each mux has its own input
# (the Pico has ADC on GP26, GP27, GP28 only, so that needs an extra ADC or fewer muxes).
MUX_ENABLE_PINS = (6, 7, 8, 9)      # EN of mux 0, 1, 2, 3 (active low)
MUX_ADC_PINS = (26, 26, 26, 26)     # ADC input of mux 0, 1, 2, 3

# Where each space's sensor is wired: SPACE_MAP[space] = (mux, channel).
# space = (row - 1) * 4 + (col - 1). Default (companion/hardware/defaults/pinmap.toml, docs/hardware.md):
# mux m channel c is space m * 16 + c, so mux 3 uses channels 0-3 only.
SPACE_MAP = tuple((space // 16, space % 16) for space in range(52))

SCAN_RATE = 220        # READINGS frames per second (50..500; at least 100 for the Pi; 220 keeps
                       # a margin over the 200 the companion's timing assumes)
AVERAGE = 1            # ADC reads averaged per space (1..8)
SETTLE_US = 4          # wait after switching the mux before reading (microseconds)

# LEDs: the GP number of the strip's data line when the Pico drives the strip (the Pi's
# `pico` LED backend sends LEDS frames); GP16 as in docs/hardware.md. Set None when the
# Pi drives the LEDs itself (then GP16 stays unused; the companion warns while it is set).
LED_PIN = 16
LED_COUNT = 60         # keep equal to leds.count in the Pi's gingo.toml (the companion checks)
LED_PIO_SM = 0         # PIO state machine for the WS2812 driver

# Safe mode: a jumper from this pin to GND at power-up skips the scan loop, so the
# REPL and mpremote work again (for updating the firmware). None to disable.
SAFE_MODE_PIN = 22

# GP23 high puts the Pico's 3.3 V regulator in low-noise (PWM) mode, as the Pico
# datasheet advises for ADC work. None on boards where GP23 is something else (Pico W).
SMPS_MODE_PIN = 23

# The USB endpoint MicroPython sends serial data on (its CDC data IN endpoint, 0x82).
USB_CDC_EP_IN = 2

WDT_TIMEOUT_MS = 2000  # the watchdog resets the Pico if the loop stalls this long

FRAME_TIMEOUT_MS = 20  # a frame from the Pi that stops half way is dropped after this long
