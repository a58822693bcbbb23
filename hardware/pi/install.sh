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
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SRC="$(cd "$HERE/../.." && pwd)"
PREFIX="$ROOT/opt/gingo"
ETC="$ROOT/etc/gingo"
UNIT="$ROOT/etc/systemd/system/gingo.service"

say() { printf 'gingo install: %s\n' "$*"; }
die() { printf 'gingo install: error: %s\n' "$*" >&2; exit 1; }
# the unit and polkit rule templates (shared with the .deb) with the user and port filled in
fill() { sed -e "s/@GINGO_USER@/$GINGO_USER/g" -e "s/@GINGO_PORT@/$GINGO_PORT/g" "$1"; }

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

# 'gingo doctor', 'gingo calibrate' and the rest on the PATH, as the .deb has /usr/bin/gingo
# (a link: the venv's own script, found after an upgrade too)
mkdir -p "$ROOT/usr/local/bin"
ln -sfn /opt/gingo/venv/bin/gingo "$ROOT/usr/local/bin/gingo"

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
cp "$HERE/99-gingo-leds.rules" "$ROOT/etc/udev/rules.d/99-gingo-leds.rules"
if [ -z "$ROOT" ] && command -v udevadm >/dev/null 2>&1; then
    udevadm control --reload-rules >/dev/null 2>&1 || true
    udevadm trigger --subsystem-match=ws2812-pio-rp1 >/dev/null 2>&1 || true
fi
say "wrote $ROOT/etc/udev/rules.d/99-gingo-leds.rules (write access to /dev/leds0 for the gpio group)"

# The spi LED backend needs SPI on and a core clock that does not change while a frame
# goes out (the SPI clock is divided from it). What each Pi needs (docs/hardware.md):
#   Pi 4, Pi 400, CM4: core_freq_min=500     Pi 3, Zero 2 W, CM3: core_freq=250
#   Pi 5 (and 500, CM5): nothing, its SPI clock comes from RP1 and does not scale
# Where the lines go: Raspberry Pi OS reads /boot/firmware/config.txt (/boot/config.txt
# before Bookworm) and leaves it alone. Debian's raspi-firmware package writes config.txt
# afresh on every kernel or firmware update (its header says so) and appends
# /etc/default/raspi-firmware-custom to it: there the block goes into that file as well.
BOOT_CHANGED=""
BEGIN_MARK="# >>> gingo: SPI for the LED strip (hardware/pi/install.sh rewrites these lines on every run)"
END_MARK="# <<< gingo"
# put_block FILE WANT: replace our block in FILE (made if missing) by one with dtparam=spi=on
# and WANT; everything else stays as it was. Says what it did.
put_block() {
    local file="$1" want="$2" tmp
    tmp="$file.gingo.tmp"
    touch "$file"
    awk -v b="$BEGIN_MARK" -v e="$END_MARK" '$0 == b {skip=1; next} skip && $0 == e {skip=0; next} !skip' "$file" > "$tmp"
    if grep -Eq '^[[:space:]]*core_freq(_min)?=' "$tmp" && [ -n "$want" ]; then
        say "warning: $file already sets a core clock; check it agrees with '$want' (docs/hardware.md)"
    fi
    {
        printf '%s\n' "$BEGIN_MARK"
        printf '[all]\ndtparam=spi=on\n'
        [ -n "$want" ] && printf '%s\n' "$want"
        printf '%s\n' "$END_MARK"
    } >> "$tmp"
    if cmp -s "$tmp" "$file"; then
        rm -f "$tmp"
        say "keeping $file (SPI and core clock already set)"
    else
        cat "$tmp" > "$file"
        rm -f "$tmp"
        BOOT_CHANGED=1
        say "set SPI on${want:+ and $want} in $file for ${model:-this board}"
    fi
}
boot_config() {
    local cfg want custom
    for cfg in "$ROOT/boot/firmware/config.txt" "$ROOT/boot/config.txt" ""; do
        [ -z "$cfg" ] || [ -f "$cfg" ] && break
    done
    if [ -z "$cfg" ]; then
        say "no /boot/firmware/config.txt here: set SPI and the core clock by hand (docs/hardware.md)"
        return 0
    fi
    model=""
    if [ -r "$ROOT/proc/device-tree/model" ]; then
        model="$(tr -d '\0' < "$ROOT/proc/device-tree/model")"
    fi
    case "$model" in
        *"Raspberry Pi 5"*|*"Raspberry Pi 500"*|*"Compute Module 5"*) want="" ;;
        *"Raspberry Pi 4"*|*"Raspberry Pi 400"*|*"Compute Module 4"*) want="core_freq_min=500" ;;
        *"Raspberry Pi 3"*|*"Zero 2"*|*"Compute Module 3"*) want="core_freq=250" ;;
        "")
            say "warning: no /proc/device-tree/model (not a Raspberry Pi, or a kernel without a device tree): set the core clock for SPI by hand (docs/hardware.md)"
            want="" ;;
        *)
            say "warning: unknown board '$model': set the core clock for SPI by hand (docs/hardware.md)"
            want="" ;;
    esac
    if grep -q 'raspi-firmware-custom' "$cfg"; then
        custom="$ROOT/etc/default/raspi-firmware-custom"
        say "$cfg is written by Debian's raspi-firmware on every kernel update: the lasting copy goes to $custom"
        mkdir -p "$(dirname "$custom")"
        put_block "$custom" "$want"
        say "note: Debian's own kernel ignores dtparam=spi=on (its device trees have SPI0 off); the spi LED backend needs Raspberry Pi OS's kernel or an SPI overlay (docs/install.md, SPI on Debian's kernel)"
    fi
    put_block "$cfg" "$want"
}
if [ -z "${SKIP_BOOT:-}" ]; then
    boot_config
fi

# The board's long-hold button runs 'systemctl poweroff' as the service user.
mkdir -p "$ROOT/etc/polkit-1/rules.d"
fill "$HERE/50-gingo-poweroff.rules" > "$ROOT/etc/polkit-1/rules.d/50-gingo-poweroff.rules"

fill "$HERE/gingo.service" > "$UNIT.tmp"
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
