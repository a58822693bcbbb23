#!/usr/bin/env python3
"""Build the arm64 .deb and check it on an emulated Pi (Debian 12 arm64 under QEMU).

    sudo python3 hardware/pi/pi.py deb [--out DIR]    # make deb
    sudo python3 hardware/pi/pi.py check              # make pi-check

Both need root (mmdebstrap, chroot, mount) and Debian's mmdebstrap, arch-test,
qemu-user-static, qemu-system-arm, binfmt-support, e2fsprogs, dpkg-dev and openssh-client;
as root they are installed with apt when missing. Only the Python standard library is
used here, so the host's python3 runs it without the project's venv.

``deb`` builds an arm64 bookworm root filesystem with mmdebstrap (arm64 programs run under
qemu-user through binfmt_misc), makes the venv /opt/gingo/venv inside it with pip (so
every compiled wheel is built for aarch64, against bookworm's Python 3.11) and packs it
with the unit, the udev and polkit rules and the maintainer scripts in hardware/pi/deb.

``check`` then boots that root filesystem with systemd in ``qemu-system-aarch64 -M virt``
(QEMU's user network, restricted: the guest reaches nothing; two ports are forwarded to
127.0.0.1 only), installs the .deb with apt, checks the service from the host, upgrades
(from the package the last passing run kept, when there is one), reboots, removes and
purges it; meanwhile it installs a second fresh root with install.sh and boots that too.
Each step prints its time.

The cache folder ($GINGO_PI_CACHE, default ~/.cache/gingo-pi) keeps the root filesystem
tarball, the last built venv (keyed by pyproject.toml and constraints.txt), pip's wheel
cache (rpi-ws281x and spidev are compiled once), the last passing run's package
(previous/) and an SSH key.
Without root, binfmt_misc or the tools the check says why in one line and skips (exit 0);
with GINGO_PI_REQUIRED=1 (CI) it fails instead.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent.parent
SUITE = "bookworm"
MIRRORS = [
    f"deb http://deb.debian.org/debian {SUITE} main",
    f"deb http://deb.debian.org/debian {SUITE}-updates main",
    f"deb http://deb.debian.org/debian-security {SUITE}-security main",
]
# One root filesystem serves as build root, the package's test machine and install.sh's:
# systemd and Debian's arm64 kernel to boot, sshd for the host to run commands, python3
# with venv, headers and gcc (rpi-ws281x and spidev compile; install.sh asks for them too).
PACKAGES = [
    "systemd-sysv", "udev", "dbus", "polkitd", "linux-image-arm64", "openssh-server",
    "python3", "python3-venv", "python3-dev", "gcc", "libc6-dev", "ca-certificates",
    "iproute2", "procps",
]
# The kernel's initramfs with just the drivers to find the root on QEMU's virt machine:
# initramfs-tools' default (MODULES=most) runs modinfo on every module, which takes
# minutes under qemu-user. Written before the kernel is installed (--essential-hook).
INITRAMFS_CONF = "MODULES=list\n"
INITRAMFS_HOOK = """#!/bin/sh
# gingo pi-check: the drivers QEMU's virt machine needs to mount the root
case "$1" in prereqs) exit 0 ;; esac
. /usr/share/initramfs-tools/hook-functions
manual_add_modules virtio_pci virtio_mmio virtio_blk virtio_net ext4
"""
HOST_TOOLS = {  # program -> Debian package
    "mmdebstrap": "mmdebstrap", "arch-test": "arch-test", "update-binfmts": "binfmt-support",
    "qemu-system-aarch64": "qemu-system-arm", "mke2fs": "e2fsprogs", "dpkg-deb": "dpkg-dev",
    "ssh": "openssh-client", "ssh-keygen": "openssh-client", "scp": "openssh-client",
}
QEMU_USER = "qemu-user-static"
GUEST_PORT = 8000
ENV_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# gingo doctor on QEMU's virt machine: these checks fail because the machine is not a Pi
# and has no board attached (no SPI, no /dev/gpiomem, no Pico on USB); any other FAIL fails.
BOARDLESS = {"board", "device /dev/spidev0.0", "device /dev/gpiomem", "device /dev/gpiomem0", "device /dev/leds0",
             "serial ports", "gpiozero pins", "gpio open"}
# ...and these only with this reason: the Pico check fails for want of a Pico on USB, but a
# FAIL from a Pico that answered (or from a port held by another program) is not explained
BOARDLESS_BECAUSE = {"Pico firmware": "no USB serial device"}


class Skip(Exception):
    """The check cannot run on this machine (the message says why)."""


class Failed(Exception):
    """A step failed (the message says which and why)."""


class Stopped(Failed):
    """The check was told to stop (SIGTERM, SIGINT or SIGHUP: a CI's time limit, Ctrl-C)."""


# ---- stopping --------------------------------------------------------------------------
# A time limit (`timeout -k 60 35m make pi-check`) or Ctrl-C must not leave QEMU guests,
# qemu-user builds or gigabytes of disk images behind in the cache folder. Every program the
# check starts goes through _spawn; on a stop signal (main thread) every one still running is
# terminated and the main thread raises Stopped, so the cleanup in each `finally` runs: the
# guests are stopped and the work folder removed. The other thread (install.sh's guest)
# unwinds as its program ends or as it next starts one or waits for its guest.

_children: set[subprocess.Popen[Any]] = set()
_children_lock = threading.Lock()
_stopping = threading.Event()


def _spawn(argv: Sequence[str], **kw: object) -> subprocess.Popen[Any]:
    """subprocess.Popen, remembered until :func:`_forget` (and refused once stopping)."""
    stopped()
    proc: subprocess.Popen[Any] = subprocess.Popen(list(argv), **kw)  # type: ignore[call-overload]
    with _children_lock:
        _children.add(proc)
    return proc


def _forget(proc: subprocess.Popen[Any]) -> None:
    with _children_lock:
        _children.discard(proc)


def stopped() -> None:
    """Raise :class:`Stopped` once a stop signal came."""
    if _stopping.is_set():
        raise Stopped("stopped by a signal before the check ended")


def _on_signal(signum: int, frame: object) -> None:
    if _stopping.is_set():
        return  # stopping already: the cleanup under way is not cut short by a second signal
    _stopping.set()
    with _children_lock:
        live = list(_children)
    for proc in live:
        with contextlib.suppress(OSError):
            proc.terminate()
    ended = "1 program still running was" if len(live) == 1 else f"{len(live)} programs still running were"
    raise Stopped(f"stopped by {signal.Signals(signum).name} before the check ended ({ended} ended)")


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """While inside, SIGTERM, SIGINT and SIGHUP raise :class:`Stopped` in the main thread
    (the handlers before are put back after; nothing is changed outside the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    sigs = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
    before = {sig: signal.signal(sig, _on_signal) for sig in sigs}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def required() -> bool:
    return os.environ.get("GINGO_PI_REQUIRED", "") not in ("", "0")


def cache_dir() -> Path:
    d = Path(os.environ.get("GINGO_PI_CACHE") or Path.home() / ".cache" / "gingo-pi")
    d.mkdir(parents=True, exist_ok=True)
    return d


class Clock:
    """Prints each step with its time; the total at the end."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.rows: list[tuple[str, float]] = []

    @contextlib.contextmanager
    def step(self, name: str) -> Iterator[None]:
        t = time.monotonic()
        print(f"pi-check: {name} ...", flush=True)
        try:
            yield
        finally:
            dt = time.monotonic() - t
            self.rows.append((name, dt))
            print(f"pi-check: [{dt:7.1f} s] {name}", flush=True)

    def table(self) -> None:
        print("pi-check: step times")
        for name, dt in self.rows:
            print(f"  {dt:7.1f} s  {name}")
        print(f"  {time.monotonic() - self.start:7.1f} s  total")


def run(argv: Sequence[str], *, check: bool = True, timeout: float = 1800, quiet: bool = True,
        **kw: object) -> subprocess.CompletedProcess[str]:
    """Run a program to its end (as subprocess.run; ended on a stop signal, see _spawn)."""
    pipe = subprocess.PIPE if quiet else None
    proc = _spawn(argv, text=True, stdout=pipe, stderr=pipe, **kw)
    deadline = time.monotonic() + timeout
    try:
        while True:  # in steps, so a stop is seen even when a child of the program holds the pipes
            try:
                out, err = proc.communicate(timeout=max(0.0, min(1.0, deadline - time.monotonic())))
                break
            except subprocess.TimeoutExpired:
                stopped()
                if time.monotonic() >= deadline:
                    raise subprocess.TimeoutExpired(list(argv), timeout) from None
    except BaseException:  # a timeout, a stop: the program does not outlive its caller
        proc.kill()
        proc.wait()  # (not its output: a child of it may hold the pipes open)
        raise
    finally:
        for pipe_end in (proc.stdout, proc.stderr):
            if pipe_end is not None:
                pipe_end.close()
        _forget(proc)
    stopped()  # ended by a stop signal: not a failure of the program
    r = subprocess.CompletedProcess(list(argv), proc.returncode, out, err)
    if check and r.returncode != 0:
        tail = ((r.stdout or "") + (r.stderr or ""))[-3000:]
        raise Failed(f"{' '.join(argv[:6])} exited with {r.returncode}:\n{tail}")
    return r


# ---- prerequisites -----------------------------------------------------------------


def prerequisites() -> None:
    if os.geteuid() != 0:
        raise Skip("needs root (mmdebstrap, chroot and mount): run 'sudo make pi-check'")
    if not Path("/usr/bin/apt-get").exists():
        raise Skip("needs a Debian host (apt-get, mmdebstrap)")
    missing = sorted({pkg for prog, pkg in HOST_TOOLS.items() if shutil.which(prog) is None})
    if not Path("/usr/libexec/qemu-binfmt/aarch64-binfmt-P").exists() and shutil.which("qemu-aarch64-static") is None:
        missing.append(QEMU_USER)
    if missing:
        print(f"pi-check: installing {' '.join(missing)} with apt", flush=True)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        r = subprocess.run(["sh", "-c", "apt-get update -qq && apt-get install -y -qq --no-install-recommends "
                            + " ".join(missing)], env=env, capture_output=True, text=True, check=False)
        if r.returncode != 0:
            raise Skip(f"could not install {' '.join(missing)}: {(r.stderr or r.stdout).strip()[-300:]}")
    binfmt = Path("/proc/sys/fs/binfmt_misc")
    if not (binfmt / "status").exists():
        r = subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(binfmt)], capture_output=True, text=True,
                           check=False)
        if r.returncode != 0:
            raise Skip(f"binfmt_misc is not mounted and root cannot mount it here ({r.stderr.strip()}): "
                       "arm64 programs cannot run under qemu-user")
    if not (binfmt / "qemu-aarch64").exists():
        subprocess.run(["update-binfmts", "--import", "qemu-aarch64"], capture_output=True, check=False)
        subprocess.run(["update-binfmts", "--enable", "qemu-aarch64"], capture_output=True, check=False)
    r = subprocess.run(["arch-test", "arm64"], capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise Skip(f"arm64 programs do not run here (arch-test arm64: {(r.stdout + r.stderr).strip()}); "
                   "is qemu-user-static registered in binfmt_misc?")


# ---- the root filesystem -----------------------------------------------------------


def rootfs_tarball(clock: Clock) -> Path:
    key = hashlib.sha256(json.dumps([SUITE, MIRRORS, PACKAGES, INITRAMFS_CONF, INITRAMFS_HOOK]).encode()).hexdigest()[:12]
    tar = cache_dir() / f"{SUITE}-arm64-{key}.tar"
    if tar.exists():
        print(f"pi-check: reusing {tar}")
        return tar
    with clock.step(f"mmdebstrap: arm64 {SUITE} root filesystem (once per cache)"):
        part = tar.with_suffix(".part.tar")
        hook = cache_dir() / "initramfs-hook"
        hook.write_text(INITRAMFS_HOOK)
        essential = (f'mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/etc/initramfs-tools/hooks" && '
                     f'printf "{INITRAMFS_CONF.strip()}\\n" > "$1/etc/initramfs-tools/conf.d/gingo-pi-check" && '
                     f'install -m 755 {hook} "$1/etc/initramfs-tools/hooks/gingo-pi-check"')
        run(["mmdebstrap", "--arch=arm64", "--variant=minbase", "--include=" + ",".join(PACKAGES),
             f"--essential-hook={essential}",
             SUITE, str(part), *MIRRORS], timeout=3600)
        part.rename(tar)
        for old in cache_dir().glob(f"{SUITE}-arm64-*.tar"):
            if old != tar:
                old.unlink()
    return tar


def host_ca() -> Path:
    """The host's CA bundle: pip in the chroot trusts what the host trusts."""
    for c in (os.environ.get("PIP_CERT"), os.environ.get("SSL_CERT_FILE"), "/etc/ssl/certs/ca-certificates.crt"):
        if c and Path(c).is_file():
            return Path(c)
    raise Failed("no CA bundle on the host (/etc/ssl/certs/ca-certificates.crt)")


def extract(tar: Path, dest: Path) -> None:
    dest.mkdir(parents=True)
    run(["tar", "-C", str(dest), "--numeric-owner", "-xpf", str(tar)])


def copy_source(root: Path, where: str) -> None:
    """The project's tracked (and new, unignored) files into the chroot."""
    files = run(["git", "-C", str(SRC), "ls-files", "-co", "--exclude-standard", "-z"]).stdout.split("\0")
    dest = root / where.lstrip("/")
    for f in files:
        p = SRC / f
        if f and p.is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(p, dest / f)


def in_chroot(root: Path, script: str, *, network: bool = True, timeout: float = 3600) -> str:
    """Run a shell script in the arm64 root under qemu-user, with a clean environment (the
    host's PIP_* settings must not leak in) and pip's cache shared through the cache folder.
    The mounts live in a private mount namespace and go with it."""
    pipcache = cache_dir() / "pip"
    pipcache.mkdir(exist_ok=True)
    (root / "root/.cache/pip").mkdir(parents=True, exist_ok=True)
    shutil.copy2(host_ca(), root / "etc/gingo-host-ca.crt")
    if network:
        (root / "etc/resolv.conf").unlink(missing_ok=True)
        shutil.copy2("/etc/resolv.conf", root / "etc/resolv.conf")
    mounts = (f"mount -t proc proc {root}/proc && mount --bind /dev {root}/dev && "
              f"mount --bind {pipcache} {root}/root/.cache/pip && ")
    env = ["env", "-i", f"PATH={ENV_PATH}", "HOME=/root", "LANG=C.UTF-8", "DEBIAN_FRONTEND=noninteractive",
           "PIP_CERT=/etc/gingo-host-ca.crt", "PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_DEFAULT_TIMEOUT=120"]
    cmd = mounts + f"exec chroot {root} " + " ".join(env) + " /bin/sh -ec \"$0\""
    try:
        r = run(["unshare", "--mount", "--propagation", "private", "sh", "-c", cmd, script], timeout=timeout)
    finally:
        (root / "etc/gingo-host-ca.crt").unlink(missing_ok=True)
    return r.stdout


# ---- the package -------------------------------------------------------------------


def project_version() -> str:
    m = re.search(r'^version\s*=\s*"([^"]+)"', (SRC / "pyproject.toml").read_text(), re.M)
    if not m:
        raise Failed("no version in pyproject.toml")
    return m.group(1)


def fill(text: str, user: str = "gingo", port: int = GUEST_PORT) -> str:
    return text.replace("@GINGO_USER@", user).replace("@GINGO_PORT@", str(port))


VENV_SCRIPT = """
    # no pip in the venv (ensurepip takes minutes under qemu-user, and the package
    # needs none): Debian's pip wheel runs from where it is, installing into the venv
    pip=$(ls /usr/share/python-wheels/pip-*.whl | tail -n 1)
    if [ -x /opt/gingo/venv/bin/python ]; then
        # the cached venv has every dependency: only the companion itself is put in afresh
        /opt/gingo/venv/bin/python "$pip/pip" install --quiet --no-deps --force-reinstall /usr/src/gingo
    else
        python3 -m venv --without-pip --system-site-packages /opt/gingo/venv
        /opt/gingo/venv/bin/python "$pip/pip" install --quiet -c /usr/src/gingo/constraints.txt /usr/src/gingo
    fi
    /opt/gingo/venv/bin/python "$pip/pip" check
    /opt/gingo/venv/bin/gingo --help >/dev/null
"""


def venv_cache(tar: Path) -> Path:
    """Where the last built venv is kept: keyed by the root filesystem, the dependencies
    (pyproject.toml, constraints.txt) and the build script, so a change to any of them
    builds the venv from nothing; a change to the companion's own code only reinstalls it."""
    key = hashlib.sha256(json.dumps([tar.name, VENV_SCRIPT]).encode()
                         + (SRC / "pyproject.toml").read_bytes() + (SRC / "constraints.txt").read_bytes())
    return cache_dir() / f"venv-{key.hexdigest()[:12]}.tar"


def build_venv(tar: Path, work: Path, clock: Clock) -> Path:
    """/opt/gingo/venv built in an arm64 chroot; returns the chroot's root."""
    root = work / "build"
    cached = venv_cache(tar)
    with clock.step("build root: unpack the cached root filesystem"):
        extract(tar, root)
        copy_source(root, "/usr/src/gingo")
        if cached.exists():
            print(f"pi-check: reusing the venv's dependencies from {cached}")
            run(["tar", "-C", str(root), "--numeric-owner", "-xpf", str(cached)])
    what = "reinstall the companion in the cached venv" if cached.exists() else "pip install the companion"
    with clock.step(f"venv: {what} for aarch64 (in the chroot, under qemu-user)"):
        in_chroot(root, VENV_SCRIPT)
    if not cached.exists():
        part = cached.with_suffix(".part")
        run(["tar", "-C", str(root), "--numeric-owner", "-cpf", str(part), "opt/gingo/venv"])
        part.rename(cached)
        for old in cache_dir().glob("venv-*.tar"):
            if old != cached:
                old.unlink()
    return root


def pack(build_root: Path, work: Path, out: Path, version: str, *, fast: bool = False) -> Path:
    """The .deb from the built venv and hardware/pi's files."""
    pkg = work / f"pkg-{version}"
    if pkg.exists():
        shutil.rmtree(pkg)
    (pkg / "opt/gingo").mkdir(parents=True)
    run(["cp", "-a", str(build_root / "opt/gingo/venv"), str(pkg / "opt/gingo/venv")])
    files = {
        "lib/systemd/system/gingo.service": fill((HERE / "gingo.service").read_text()),
        "lib/udev/rules.d/99-gingo-leds.rules": (HERE / "99-gingo-leds.rules").read_text(),
        "usr/share/polkit-1/rules.d/50-gingo-poweroff.rules": fill((HERE / "50-gingo-poweroff.rules").read_text()),
        "etc/gingo/gingo.toml": (SRC / "hardware/gingo.example.toml").read_text(),
    }
    for name in ("pinmap.toml", "led_layout.toml"):  # the packaged defaults, as copies to edit
        files[f"usr/share/gingo-companion/{name}"] = (SRC / "companion/hardware/defaults" / name).read_text()
    for rel, text in files.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text)
    (pkg / "usr/bin").mkdir(parents=True, exist_ok=True)
    os.symlink("/opt/gingo/venv/bin/gingo", pkg / "usr/bin/gingo")
    deb = pkg / "DEBIAN"
    deb.mkdir()
    for script in ("postinst", "prerm", "postrm"):
        shutil.copy2(HERE / "deb" / script, deb / script)
        (deb / script).chmod(0o755)
    (deb / "conffiles").write_text("/etc/gingo/gingo.toml\n")
    size = int(run(["du", "-sk", "--exclude=DEBIAN", str(pkg)]).stdout.split()[0])
    control = (HERE / "deb/control.in").read_text().replace("@VERSION@", version).replace("@SIZE@", str(size))
    (deb / "control").write_text(control)
    for d in [pkg, *pkg.rglob("*")]:  # dpkg-deb wants sane modes; the build ran with umask 022
        if d.is_dir() and not d.is_symlink():
            d.chmod(0o755)
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"gingo-companion_{version}_arm64.deb"
    # xz for the package people install; gzip -1 for the check's own copies (minutes less under load)
    run(["dpkg-deb", "--root-owner-group", *(["-Zgzip", "-z1"] if fast else ["-Zxz", "-z6"]),
         "--build", str(pkg), str(target)])
    shutil.rmtree(pkg)
    return target


def build_deb(out: Path, clock: Clock, work: Path, *, versions: Sequence[str] = (), fast: bool = False) -> list[Path]:
    tar = rootfs_tarball(clock)
    root = build_venv(tar, work, clock)
    debs = []
    with clock.step("dpkg-deb: pack " + ", ".join(versions or [project_version()])):
        for v in versions or [project_version()]:
            debs.append(pack(root, work, out, v, fast=fast))
    shutil.rmtree(root)
    for d in debs:
        print(f"pi-check: built {d} ({d.stat().st_size / 1e6:.1f} MB)")
    return debs


# ---- the guest ---------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ssh_key() -> Path:
    key = cache_dir() / "ssh" / "id_ed25519"
    if not key.exists():
        key.parent.mkdir(mode=0o700, exist_ok=True)
        run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "gingo-pi-check", "-f", str(key)])
    return key


def prepare_guest(root: Path) -> None:
    """Hostname, DHCP on the virtual NIC (systemd-networkd), the host's SSH key for root."""
    (root / "etc/hostname").write_text("gingo-pi\n")
    (root / "etc/hosts").write_text("127.0.0.1 localhost\n127.0.1.1 gingo-pi\n")
    net = root / "etc/systemd/network/20-wired.network"
    net.parent.mkdir(parents=True, exist_ok=True)
    net.write_text("[Match]\nName=en* eth*\n\n[Network]\nDHCP=yes\n")
    wants = root / "etc/systemd/system/multi-user.target.wants"
    wants.mkdir(parents=True, exist_ok=True)
    for unit in ("systemd-networkd.service",):
        link = wants / unit
        if not link.exists():
            os.symlink(f"/lib/systemd/system/{unit}", link)
    ssh = root / "root/.ssh"
    ssh.mkdir(mode=0o700, parents=True, exist_ok=True)
    shutil.copy2(ssh_key().with_suffix(".pub"), ssh / "authorized_keys")
    (ssh / "authorized_keys").chmod(0o600)
    (root / "etc/fstab").write_text("/dev/vda / ext4 rw,errors=remount-ro 0 1\n")
    # dpkg without an fsync per file (as Debian's build chroots run it): the unpack of the
    # venv's thousands of files took minutes on the emulated disk; what dpkg and the
    # maintainer scripts do is the same
    (root / "etc/dpkg/dpkg.cfg.d/pi-check-unsafe-io").write_text("force-unsafe-io\n")


def make_disk(root: Path, disk: Path) -> tuple[Path, Path]:
    """An ext4 image of ``root`` made without loop devices; returns the kernel and initrd."""
    boot = root / "boot"
    kernels = sorted(boot.glob("vmlinuz-*"))
    initrds = sorted(boot.glob("initrd.img-*"))
    if not kernels or not initrds:
        raise Failed(f"no kernel or initrd in {boot}")
    kernel, initrd = disk.with_suffix(".vmlinuz"), disk.with_suffix(".initrd")
    shutil.copy2(kernels[-1], kernel)
    shutil.copy2(initrds[-1], initrd)
    run(["mke2fs", "-q", "-t", "ext4", "-L", "gingo-root", "-d", str(root), str(disk), "3G"])
    return kernel, initrd


class Guest:
    """qemu-system-aarch64 -M virt with the disk, its console in a file, ssh and the
    service's port forwarded to 127.0.0.1."""

    def __init__(self, name: str, disk: Path, kernel: Path, initrd: Path) -> None:
        self.name, self.disk, self.kernel, self.initrd = name, disk, kernel, initrd
        self.ssh_port, self.http_port = free_port(), free_port()
        self.console = disk.with_suffix(".console.log")
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        fwd = (f"hostfwd=tcp:127.0.0.1:{self.ssh_port}-:22,"
               f"hostfwd=tcp:127.0.0.1:{self.http_port}-:{GUEST_PORT}")
        argv = ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-smp", "2", "-m", "768",
                "-display", "none", "-monitor", "none", "-serial", f"file:{self.console}",
                "-kernel", str(self.kernel), "-initrd", str(self.initrd),
                "-append", "root=/dev/vda rw console=ttyAMA0 net.ifnames=1",
                "-drive", f"file={self.disk},format=raw,if=virtio",
                "-netdev", f"user,id=n0,restrict=on,{fwd}", "-device", "virtio-net-pci,netdev=n0,romfile="]
        with open(self.disk.with_suffix(".qemu.log"), "wb") as log:
            self.proc = _spawn(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)

    def stop(self) -> None:
        """QEMU ends at once (SIGTERM): the disk is thrown away after the check, and an
        orderly shutdown took close to a minute under load. The orderly reboot is checked
        on its own (check_package)."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc:
            _forget(self.proc)

    def console_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.console.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no console output)"

    def ssh(self, command: str, *, check: bool = True, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        argv = ["ssh", "-q", "-i", str(ssh_key()), "-p", str(self.ssh_port), "-o", "BatchMode=yes",
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "ConnectTimeout=10",
                "-o", "ServerAliveInterval=10", "root@127.0.0.1", command]
        return run(argv, check=check, timeout=timeout)

    def boot_id(self) -> str:
        return self.ssh("cat /proc/sys/kernel/random/boot_id").stdout.strip()

    def wait_ssh(self, timeout: float = 420, new_boot: str | None = None) -> None:
        """Until ssh answers (with a boot id other than ``new_boot``, after a reboot)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            stopped()
            if self.proc and self.proc.poll() is not None:
                raise Failed(f"{self.name}: QEMU exited ({self.proc.returncode}); console:\n{self.console_tail()}")
            with contextlib.suppress(subprocess.TimeoutExpired):
                r = self.ssh("cat /proc/sys/kernel/random/boot_id", check=False, timeout=30)
                if r.returncode == 0 and r.stdout.strip() != new_boot:
                    return
            time.sleep(2)
        raise Failed(f"{self.name}: no ssh after {timeout:.0f} s; console:\n{self.console_tail()}")

    def http(self, method: str, path: str, body: object = None, token: str | None = None) -> tuple[int, object]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f"http://127.0.0.1:{self.http_port}{path}", data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=20) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode(errors="replace")

    def wait_healthy(self, timeout: float = 300) -> dict[str, object]:
        deadline = time.monotonic() + timeout
        last: object = None
        while time.monotonic() < deadline:
            stopped()
            try:
                status, body = self.http("GET", "/api/v1/health")
                if status == 200 and isinstance(body, dict):
                    return body
                last = (status, body)
            except (OSError, ValueError) as e:
                last = e
            time.sleep(2)
        raise Failed(f"{self.name}: /api/v1/health did not answer 200 within {timeout:.0f} s (last: {last})")

    def unit_active(self) -> None:
        r = self.ssh("systemctl is-active gingo.service", check=False)
        if r.stdout.strip() != "active":
            log = self.ssh("journalctl -u gingo.service -b --no-pager | tail -40", check=False).stdout
            raise Failed(f"{self.name}: gingo.service is {r.stdout.strip() or 'unknown'}:\n{log}")


@contextlib.contextmanager
def booted(name: str, root: Path, work: Path, clock: Clock) -> Iterator[Guest]:
    with clock.step(f"{name}: ext4 disk image (mke2fs -d, no loop device)"):
        disk = work / f"{name}.img"
        kernel, initrd = make_disk(root, disk)
        shutil.rmtree(root)
    guest = Guest(name, disk, kernel, initrd)
    try:
        with clock.step(f"{name}: boot with systemd in qemu-system-aarch64 -M virt until ssh answers"):
            guest.start()
            guest.wait_ssh()
        yield guest
    finally:
        with clock.step(f"{name}: stop QEMU"):
            guest.stop()
        disk.unlink(missing_ok=True)


# ---- the checks --------------------------------------------------------------------


def doctor(guest: Guest) -> None:
    r = guest.ssh("cd /var/lib/gingo && runuser -u gingo -- gingo doctor --json", check=False)
    rows = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
    if not rows:
        raise Failed(f"gingo doctor printed no checks (exit {r.returncode}): {r.stdout}{r.stderr}")
    def explained(row: dict[str, object]) -> bool:
        name = str(row.get("name"))
        return name in BOARDLESS or (name in BOARDLESS_BECAUSE and BOARDLESS_BECAUSE[name] in str(row.get("detail")))

    unexplained = [row for row in rows if row.get("status") == "FAIL" and not explained(row)]
    for row in rows:
        print(f"    {guest.name} doctor: {row.get('status'):5} {row.get('name')}: {row.get('detail')}")
    if unexplained:
        raise Failed("gingo doctor FAILs that a boardless QEMU machine does not explain: "
                     + "; ".join(f"{x['name']}: {x.get('detail')}" for x in unexplained))


def pairing_code(guest: Guest) -> str:
    log = guest.ssh("journalctl -u gingo.service -b --no-pager -o cat", check=False).stdout
    codes = re.findall(r"pairing code: (\S+)", log)
    if not codes:
        raise Failed(f"{guest.name}: no pairing code in the service's journal:\n{log[-2000:]}")
    return str(codes[-1])


def check_package(guest: Guest, debs: Sequence[Path], clock: Clock) -> None:
    first, newer = debs
    with clock.step(f"deb: apt-get install ./{first.name}"):
        # both packages were put in /root/ of the disk image (no scp under emulation)
        guest.ssh(f"apt-get install -y -q /root/{first.name}")
    with clock.step("deb: unit active, /api/v1/health 200"):
        health = guest.wait_healthy()
        guest.unit_active()
        print(f"    health: {json.dumps(health)[:300]}")
    with clock.step("deb: pair a phone, start a game, change a setting"):
        code = pairing_code(guest)
        status, body = guest.http("POST", "/api/v1/pair", {"code": code, "name": "pi-check phone"})
        if status != 200 or not isinstance(body, dict):
            raise Failed(f"pairing with the journal's code answered {status}: {body}")
        token = str(body["token"])
        status, game = guest.http("POST", "/api/v1/games", {"variant": "gin", "players": ["Ana", "Ben"]}, token)
        if status != 201 or not isinstance(game, dict):
            raise Failed(f"the paired phone's POST /api/v1/games answered {status}: {game}")
        game_id = (game.get("game") or game)["id"]
        guest.ssh("printf '\\n# pi-check: the owner changed this file\\n' >> /etc/gingo/gingo.toml")
    with clock.step(f"deb: upgrade to {newer.name} keeps the data and the settings; gingo doctor"):
        # the owner changed gingo.toml: when the shipped one changed too (an earlier build's
        # example differs), dpkg asks; unattended, keep the owner's (--force-confold), as
        # 'apt upgrade' run by hand defaults to; dpkg puts the shipped one in .dpkg-dist
        guest.ssh("apt-get install -y -q -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "
                  f"/root/{newer.name}")
        want = newer.name.split("_")[1]
        got = guest.ssh("dpkg-query -W -f '${Version}' gingo-companion").stdout.strip()
        if got != want:
            raise Failed(f"after the upgrade dpkg says {got}, not {want}")
        if "pi-check: the owner changed" not in guest.ssh("cat /etc/gingo/gingo.toml").stdout:
            raise Failed("the upgrade lost the owner's change to /etc/gingo/gingo.toml")
        guest.wait_healthy()
        guest.unit_active()
        status, body = guest.http("GET", f"/api/v1/games/{game_id}")
        if status != 200:
            raise Failed(f"after the upgrade the game {game_id} answered {status}: {body}")
        doctor(guest)  # on this build (the first package may be an earlier one)
    with clock.step("deb: reboot the guest; the phone's token and its game survive"):
        boot = guest.boot_id()
        with contextlib.suppress(subprocess.TimeoutExpired):
            guest.ssh("systemctl reboot", check=False, timeout=30)
        guest.wait_ssh(new_boot=boot)
        guest.wait_healthy()
        guest.unit_active()
        status, body = guest.http("GET", f"/api/v1/games/{game_id}")
        if status != 200:
            raise Failed(f"after the reboot the game {game_id} answered {status}: {body}")
        status, me = guest.http("GET", "/api/v1/tokens/me", token=token)
        if status != 200:
            raise Failed(f"after the reboot the paired phone's token answered {status}: {me}")
    with clock.step("deb: apt-get remove keeps data, settings and user; purge leaves nothing"):
        guest.ssh("apt-get remove -y -q gingo-companion")
        kept = guest.ssh("test -s /etc/gingo/gingo.toml && ls /var/lib/gingo | grep -q . && getent passwd gingo "
                         "&& grep -q 'pi-check: the owner' /etc/gingo/gingo.toml && echo kept", check=False)
        if "kept" not in kept.stdout:
            raise Failed(f"apt-get remove did not keep /etc/gingo, /var/lib/gingo and the user: {kept.stdout}")
        if guest.ssh("systemctl is-active gingo.service", check=False).stdout.strip() == "active":
            raise Failed("gingo.service still runs after apt-get remove")
        guest.ssh("apt-get purge -y -q gingo-companion")
        left = guest.ssh(
            "for p in /lib/systemd/system/gingo.service /etc/systemd/system/gingo.service "
            "/etc/systemd/system/multi-user.target.wants/gingo.service /lib/udev/rules.d/99-gingo-leds.rules "
            "/usr/share/polkit-1/rules.d/50-gingo-poweroff.rules /etc/gingo /var/lib/gingo /opt/gingo /usr/bin/gingo; "
            "do [ -e \"$p\" ] || [ -L \"$p\" ] && echo \"left: $p\"; done; "
            "getent passwd gingo >/dev/null && echo 'left: user gingo'; "
            "getent group gingo >/dev/null && echo 'left: group gingo'; "
            "systemctl list-unit-files --no-legend gingo.service | grep -q gingo && echo 'left: unit gingo.service'; "
            "true").stdout.strip()
        if left:
            raise Failed(f"apt-get purge left things behind:\n{left}")


def install_sh_root(tar: Path, work: Path, clock: Clock) -> Path:
    root = work / "scripted"
    with clock.step("install.sh: unpack a fresh root and run hardware/pi/install.sh in it (qemu-user)"):
        extract(tar, root)
        copy_source(root, "/usr/src/gingo")
        out = in_chroot(root, """
            SKIP_SYSTEMD=1 bash /usr/src/gingo/hardware/pi/install.sh
            systemctl enable gingo.service
        """)
        print("\n".join("    " + line for line in out.splitlines() if line.startswith("gingo install")))
        prepare_guest(root)
    return root


def previous_dir() -> Path:
    return cache_dir() / "previous"


def previous_package(newer: Path) -> Path | None:
    """The package the last passing pi-check kept, if its version is older than ``newer``'s."""
    found = sorted(previous_dir().glob("gingo-companion_*_arm64.deb"))
    if not found:
        return None
    old, new = found[-1].name.split("_")[1], newer.name.split("_")[1]
    if subprocess.run(["dpkg", "--compare-versions", old, "lt", new], check=False).returncode != 0:
        print(f"pi-check: not upgrading from {found[-1]} (its version {old} is not older than {new})")
        return None
    return found[-1]


def keep_previous(deb: Path) -> None:
    """Keep this passing run's package for the next run's upgrade check."""
    d = previous_dir()
    d.mkdir(exist_ok=True)
    for old in d.glob("*.deb"):
        old.unlink()
    shutil.copy2(deb, d / deb.name)


def check_install_sh(tar: Path, work: Path, clock: Clock) -> None:
    root = install_sh_root(tar, work, clock)
    with booted("install-sh-guest", root, work, clock) as guest:
        with clock.step("install.sh guest: unit active, /api/v1/health 200, gingo doctor"):
            guest.wait_healthy()
            guest.unit_active()
            doctor(guest)


def check(args: argparse.Namespace) -> int:
    clock = Clock()
    try:
        prerequisites()
    except Skip as e:
        if required():
            print(f"pi-check: FAILED: cannot run here: {e} (GINGO_PI_REQUIRED is set)", file=sys.stderr)
            return 1
        print(f"pi-check: skipped: {e}")
        return 0
    with stop_on_signals():
        return _check(args, clock)


def _check(args: argparse.Namespace, clock: Clock) -> int:
    work = Path(tempfile.mkdtemp(prefix="pi-check-", dir=cache_dir()))
    try:
        version = project_version()
        built: list[Path] = []
        if args.debs:  # packages from an earlier run (while working on the check itself)
            debs = [Path(d).resolve() for d in args.debs]
        else:
            built = build_deb(work / "out", clock, work, versions=[version, f"{version}+picheck1"], fast=True)
            debs = list(built)
            if args.keep_debs:
                Path(args.keep_debs).mkdir(parents=True, exist_ok=True)
                debs = [Path(shutil.copy2(d, args.keep_debs)) for d in debs]
            # the upgrade starts from the package of the last run that passed (an older build of
            # the code, with its own maintainer scripts) when there is one, else from this build
            earlier = previous_package(debs[1])
            if earlier:
                print(f"pi-check: the upgrade starts from the last passing run's {earlier.name}")
                debs[0] = earlier
        tar = rootfs_tarball(clock)
        with clock.step("deb guest: unpack a fresh root for the package"):
            root = work / "packaged"
            extract(tar, root)
            prepare_guest(root)
            for d in debs:
                shutil.copy2(d, root / "root" / d.name)
        # install.sh runs in its own root under qemu-user, and its guest boots, while the
        # package's guest runs (much of both is waiting on the network and on the guests)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            scripted = pool.submit(check_install_sh, tar, work, clock)
            failures = []
            try:
                with booted("deb-guest", root, work, clock) as guest:
                    check_package(guest, debs, clock)
            except (Failed, subprocess.TimeoutExpired) as e:
                failures.append(f"the package: {e}")
            try:
                scripted.result()
            except (Failed, subprocess.TimeoutExpired) as e:
                failures.append(f"install.sh: {e}")
        if failures:
            raise Failed("\n".join(failures))
        if built:
            keep_previous(built[0])
    except (Failed, subprocess.TimeoutExpired) as e:
        clock.table()
        print(f"pi-check: FAILED: {e}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    clock.table()
    print("pi-check: passed")
    return 0


def deb(args: argparse.Namespace) -> int:
    clock = Clock()
    try:
        prerequisites()
    except Skip as e:
        print(f"make deb: cannot build here: {e}", file=sys.stderr)
        return 1
    with stop_on_signals():
        work = Path(tempfile.mkdtemp(prefix="deb-", dir=cache_dir()))
        try:
            build_deb(Path(args.out).resolve(), clock, work)
        except (Failed, subprocess.TimeoutExpired) as e:
            print(f"make deb: FAILED: {e}", file=sys.stderr)
            return 1
        finally:
            shutil.rmtree(work, ignore_errors=True)
    clock.table()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pi.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("deb", help="build gingo-companion_<version>_arm64.deb")
    p.add_argument("--out", default="dist", help="folder for the .deb (default dist)")
    p.set_defaults(func=deb)
    p = sub.add_parser("check", help="boot the package and install.sh in QEMU and check them")
    p.add_argument("--debs", nargs=2, metavar=("OLD", "NEW"), help="use these two packages (an upgrade) instead of building")
    p.add_argument("--keep-debs", metavar="DIR", help="copy the packages built here to DIR")
    p.set_defaults(func=check)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
