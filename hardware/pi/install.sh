#!/usr/bin/env bash
# Install the Gin-Go Companion on a Raspberry Pi as a systemd service.
#
#   sudo hardware/pi/install.sh            # from a checkout of this repository
#
# Safe to run again: it upgrades the installed package, keeps /etc/gingo/gingo.toml and
# the data in /var/lib/gingo, and restarts the service.
#
# Environment (mostly for tests and unusual set-ups):
#   ROOT=/some/dir      write every file under this folder instead of /
#   GINGO_USER=gingo    the service account
#   GINGO_PORT=8000     the port the service listens on
#   SKIP_APT=1 SKIP_USER=1 SKIP_PIP=1 SKIP_SYSTEMD=1 SKIP_BOOT=1   leave out a step
#                       (SKIP_BOOT: leave /boot/firmware/config.txt alone)
set -euo pipefail

ROOT="${ROOT:-}"
GINGO_USER="${GINGO_USER:-gingo}"
GINGO_PORT="${GINGO_PORT:-8000}"
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PREFIX="$ROOT/opt/gingo"
ETC="$ROOT/etc/gingo"
UNIT="$ROOT/etc/systemd/system/gingo.service"

say() { printf 'gingo install: %s\n' "$*"; }
die() { printf 'gingo install: error: %s\n' "$*" >&2; exit 1; }

[ -f "$SRC/pyproject.toml" ] || die "run this script from a checkout of the project (no pyproject.toml in $SRC)"
if [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    die "run it as root: sudo $0"
fi

if [ -z "${SKIP_APT:-}" ]; then
    say "installing system packages (python3-venv, build tools for rpi-ws281x)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-dev gcc >/dev/null
    # gpiozero's pin library on the Pi (buttons, MCP3208 ADCs): Raspberry Pi OS ships it
    # as a system package; the venv below sees system packages for it.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-lgpio >/dev/null 2>&1 \
        || say "warning: python3-lgpio is not available; 'gingo doctor' will say if buttons can work"
    if command -v raspi-config >/dev/null 2>&1; then
        raspi-config nonint do_spi 0 || say "warning: could not enable SPI; enable it in raspi-config"
    fi
fi

if [ -z "${SKIP_USER:-}" ]; then
    for g in gpio spi dialout; do
        getent group "$g" >/dev/null || groupadd --system "$g"
    done
    if ! id "$GINGO_USER" >/dev/null 2>&1; then
        say "creating the service user $GINGO_USER"
        useradd --system --home-dir /var/lib/gingo --no-create-home --shell /usr/sbin/nologin "$GINGO_USER"
    fi
    usermod -a -G gpio,spi,dialout "$GINGO_USER"
fi

mkdir -p "$PREFIX" "$ETC" "$(dirname "$UNIT")"
if [ -z "${SKIP_PIP:-}" ]; then
    # --system-site-packages: the Pi's own python3-lgpio serves gpiozero (running this
    # again on an existing venv only updates that setting)
    say "preparing the virtual environment in $PREFIX/venv"
    python3 -m venv --system-site-packages "$PREFIX/venv"
    say "installing the companion into $PREFIX/venv"
    "$PREFIX/venv/bin/python" -m pip install --quiet --upgrade pip
    "$PREFIX/venv/bin/python" -m pip install --quiet --upgrade "$SRC"
fi

if [ ! -f "$ETC/gingo.toml" ]; then
    if [ -f "$SRC/hardware/gingo.example.toml" ]; then
        cp "$SRC/hardware/gingo.example.toml" "$ETC/gingo.toml"
    else
        printf '# Gin-Go Companion settings; see docs/install.md\n' > "$ETC/gingo.toml"
    fi
    say "wrote $ETC/gingo.toml: edit it to name your LED and sensor hardware"
else
    say "keeping your $ETC/gingo.toml"
fi
# The reference pin map and LED layout ship inside the package; a copy to edit:
for f in pinmap.toml led_layout.toml; do
    if [ -f "$SRC/companion/hardware/defaults/$f" ]; then cp "$SRC/companion/hardware/defaults/$f" "$ETC/$f.default"; fi
done

# /dev/leds0 (the Pi 5 kernel LED driver, leds.backend = "leds_dev") belongs to root
# alone; this rule lets the gpio group (the service user is in it) write it.
mkdir -p "$ROOT/etc/udev/rules.d"
cat > "$ROOT/etc/udev/rules.d/99-gingo-leds.rules" <<'RULE'
# Gin-Go Companion: members of the gpio group may write the WS2812 LED device (Pi 5)
KERNEL=="leds[0-9]*", GROUP="gpio", MODE="0660"
RULE
if [ -z "$ROOT" ] && command -v udevadm >/dev/null 2>&1; then
    udevadm control --reload-rules >/dev/null 2>&1 || true
    udevadm trigger --subsystem-match=ws2812-pio-rp1 >/dev/null 2>&1 || true
fi
say "wrote $ROOT/etc/udev/rules.d/99-gingo-leds.rules (write access to /dev/leds0 for the gpio group)"

# The spi LED backend needs SPI on and a core clock that does not change while a frame
# goes out (the SPI clock is divided from it). What each Pi needs (docs/hardware.md):
#   Pi 4, Pi 400, CM4: core_freq_min=500     Pi 3, Zero 2 W, CM3: core_freq=250
#   Pi 5 (and 500, CM5): nothing, its SPI clock comes from RP1 and does not scale
BOOT_CHANGED=""
boot_config() {
    local cfg model want begin end tmp
    for cfg in "$ROOT/boot/firmware/config.txt" "$ROOT/boot/config.txt" ""; do
        [ -z "$cfg" ] || [ -f "$cfg" ] && break
    done
    if [ -z "$cfg" ]; then
        say "no /boot/firmware/config.txt here: set SPI and the core clock by hand (docs/hardware.md)"
        return 0
    fi
    model="$(tr -d '\0' < "$ROOT/proc/device-tree/model" 2>/dev/null || true)"
    case "$model" in
        *"Raspberry Pi 5"*|*"Raspberry Pi 500"*|*"Compute Module 5"*) want="" ;;
        *"Raspberry Pi 4"*|*"Raspberry Pi 400"*|*"Compute Module 4"*) want="core_freq_min=500" ;;
        *"Raspberry Pi 3"*|*"Zero 2"*|*"Compute Module 3"*) want="core_freq=250" ;;
        *)
            say "warning: unknown board '${model:-none}': set the core clock for SPI by hand (docs/hardware.md)"
            want="" ;;
    esac
    begin="# >>> gingo: SPI for the LED strip (hardware/pi/install.sh rewrites these lines on every run)"
    end="# <<< gingo"
    tmp="$cfg.gingo.tmp"
    # drop our old block, keep everything else as it was
    awk -v b="$begin" -v e="$end" '$0 == b {skip=1; next} skip && $0 == e {skip=0; next} !skip' "$cfg" > "$tmp"
    if grep -Eq '^[[:space:]]*core_freq(_min)?=' "$tmp" && [ -n "$want" ]; then
        say "warning: $cfg already sets a core clock; check it agrees with '$want' (docs/hardware.md)"
    fi
    {
        printf '%s\n' "$begin"
        printf '[all]\ndtparam=spi=on\n'
        [ -n "$want" ] && printf '%s\n' "$want"
        printf '%s\n' "$end"
    } >> "$tmp"
    if cmp -s "$tmp" "$cfg"; then
        rm -f "$tmp"
        say "keeping $cfg (SPI and core clock already set)"
    else
        cat "$tmp" > "$cfg"
        rm -f "$tmp"
        BOOT_CHANGED=1
        say "set SPI on${want:+ and $want} in $cfg for ${model:-this board}: reboot for it to take effect"
    fi
}
if [ -z "${SKIP_BOOT:-}" ]; then
    boot_config
fi

# The board's long-hold button runs 'systemctl poweroff' as the service user.
mkdir -p "$ROOT/etc/polkit-1/rules.d"
cat > "$ROOT/etc/polkit-1/rules.d/50-gingo-poweroff.rules" <<RULE
// Gin-Go Companion: the service user may power the Pi off (the board's shutdown button).
polkit.addRule(function(action, subject) {
    if ((action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions") &&
        subject.user == "$GINGO_USER") {
        return polkit.Result.YES;
    }
});
RULE

cat > "$UNIT.tmp" <<UNIT
[Unit]
Description=Gin-Go Companion (board lights, chip sensing, scorekeeping)
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=$GINGO_USER
Group=$GINGO_USER
SupplementaryGroups=gpio spi dialout
StateDirectory=gingo
StateDirectoryMode=0700
UMask=0077
# lgpio (gpiozero's pin library, Pi 5 buttons) creates its notification pipes
# (.lgd-nfy*) in LG_WD, else the working directory; "/" is not writable for $GINGO_USER
WorkingDirectory=/var/lib/gingo
Environment=LG_WD=/var/lib/gingo
Environment=GINGO_DATA=/var/lib/gingo
Environment=PYTHONUNBUFFERED=1
ExecStart=/opt/gingo/venv/bin/gingo serve --host 0.0.0.0 --port $GINGO_PORT --config /etc/gingo/gingo.toml
Restart=on-failure
RestartSec=2

[Install]
WantedBy=multi-user.target
UNIT
mv "$UNIT.tmp" "$UNIT"
say "wrote $UNIT"

if [ -z "${SKIP_SYSTEMD:-}" ] && [ -z "$ROOT" ]; then
    systemctl daemon-reload
    systemctl enable gingo.service >/dev/null
    systemctl restart gingo.service
    say "service started: 'journalctl -u gingo -f' shows the pairing code and address"
else
    say "systemd step skipped"
fi
[ -n "$BOOT_CHANGED" ] && say "reboot now (sudo reboot) so the config.txt change takes effect"
say "done"
