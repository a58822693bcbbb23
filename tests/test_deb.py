"""The .deb's packing (hardware/pi/pi.py) with Debian's real dpkg-deb, on a stand-in venv.

What this cannot see: the venv built for aarch64, the maintainer scripts running, systemd
starting the unit. `make pi-check` (root, QEMU; run by .ci/run) does all of that on an
emulated arm64 machine.
"""

import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

PI = Path(__file__).resolve().parent.parent / "hardware" / "pi"


def _pi():
    spec = importlib.util.spec_from_file_location("gingo_pi_tool", PI / "pi.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gingo_pi_tool"] = mod
    spec.loader.exec_module(mod)
    return mod


needs_dpkg = pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="needs Debian's dpkg-deb")


@needs_dpkg
def test_pack_makes_an_arm64_package_with_conffile_unit_and_rules(tmp_path):
    pi = _pi()
    build = tmp_path / "build"
    venv = build / "opt/gingo/venv/bin"
    venv.mkdir(parents=True)
    (venv / "gingo").write_text("#!/opt/gingo/venv/bin/python\n")
    deb = pi.pack(build, tmp_path / "work", tmp_path / "out", "1.2.3")
    assert deb.name == "gingo-companion_1.2.3_arm64.deb"
    field = lambda f: subprocess.run(["dpkg-deb", "-f", str(deb), f], capture_output=True, text=True,
                                     check=True).stdout.strip()
    assert field("Architecture") == "arm64" and field("Version") == "1.2.3"
    assert "python3 (<< 3.12)" in field("Depends")
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True, check=True).stdout
    for path in ("./opt/gingo/venv/bin/gingo", "./lib/systemd/system/gingo.service", "./etc/gingo/gingo.toml",
                 "./lib/udev/rules.d/99-gingo-leds.rules", "./usr/share/polkit-1/rules.d/50-gingo-poweroff.rules",
                 "./usr/bin/gingo -> /opt/gingo/venv/bin/gingo"):
        assert path in listing, path
    assert "root/root" in listing and "./var/lib/gingo" not in listing  # data is not the package's
    ctl = tmp_path / "ctl"
    subprocess.run(["dpkg-deb", "-e", str(deb), str(ctl)], check=True)
    assert (ctl / "conffiles").read_text() == "/etc/gingo/gingo.toml\n"
    for script in ("postinst", "prerm", "postrm"):
        assert os.access(ctl / script, os.X_OK)
        subprocess.run(["sh", "-n", str(ctl / script)], check=True)
    x = tmp_path / "x"
    subprocess.run(["dpkg-deb", "-x", str(deb), str(x)], check=True)
    unit = (x / "lib/systemd/system/gingo.service").read_text()
    assert "User=gingo" in unit and "--port 8000" in unit and "@GINGO" not in unit
    assert 'subject.user == "gingo"' in (x / "usr/share/polkit-1/rules.d/50-gingo-poweroff.rules").read_text()


def test_purge_deletes_data_settings_and_user_remove_keeps_them():
    postrm = (PI / "deb/postrm").read_text()
    purge = postrm[postrm.index("purge)"):]
    remove = postrm[postrm.index("remove)"):postrm.index("purge)")]
    assert "rm -rf /var/lib/gingo /etc/gingo" in purge and "userdel gingo" in purge
    assert "rm " not in remove and "userdel" not in remove


def test_check_skips_with_one_line_and_fails_when_required(monkeypatch, capsys):
    pi = _pi()

    def cannot() -> None:
        raise pi.Skip("binfmt_misc is not mounted")

    monkeypatch.setattr(pi, "prerequisites", cannot)
    monkeypatch.delenv("GINGO_PI_REQUIRED", raising=False)
    assert pi.main(["check"]) == 0
    assert capsys.readouterr().out == "pi-check: skipped: binfmt_misc is not mounted\n"
    monkeypatch.setenv("GINGO_PI_REQUIRED", "1")
    assert pi.main(["check"]) == 1
    assert "FAILED: cannot run here: binfmt_misc is not mounted" in capsys.readouterr().err


DRIVER = r'''
import importlib.util, sys, threading
from pathlib import Path
spec = importlib.util.spec_from_file_location("pi", sys.argv[1])
pi = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pi)
done = Path(sys.argv[2])
said = []

def other():  # install.sh's side: a long program in the other thread, whose own child
    # ignores SIGTERM and holds the output pipe open (as a build under qemu-user may)
    try:
        pi.run(["sh", "-c", "trap '' TERM; sleep 6021; :"])
        said.append("other: ended")
    except pi.Stopped:
        said.append("other: stopped")

def main():
    with pi.stop_on_signals():
        worker = threading.Thread(target=other)
        worker.start()
        try:
            try:
                pi.run(["sleep", "601"])
            finally:  # the cleanup the check does (stop the guests, remove the work folder)
                worker.join(30)
                done.write_text(" ".join(said))
        except pi.Stopped as e:
            print(f"FAILED: {e}", flush=True)
            return 1
    return 0

sys.exit(main())
'''


def test_a_stop_signal_ends_every_program_and_lets_the_cleanup_run(tmp_path):
    """`timeout 35m make pi-check` sends SIGTERM: before this, Python died at once, leaving
    QEMU guests and the work folder (gigabytes of disk images) behind. Now every program the
    check started is ended, in both threads, and the `finally` blocks run. Real processes and
    a real signal; what this cannot see is QEMU itself (a `sleep` stands for it)."""
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    done = tmp_path / "cleaned"
    proc = subprocess.Popen([sys.executable, str(driver), str(PI / "pi.py"), str(done)],
                            stdout=subprocess.PIPE, text=True)
    try:
        # both programs running (children of the driver)
        deadline = time.monotonic() + 30
        kids: list[int] = []
        while time.monotonic() < deadline and len(kids) < 2:
            kids = [int(p) for task in Path(f"/proc/{proc.pid}/task").iterdir()  # each thread's children
                    for p in (task / "children").read_text().split()]
            time.sleep(0.05)
        assert len(kids) == 2, kids
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 1, (proc.returncode, out)
    assert out.startswith("FAILED: stopped by SIGTERM before the check ended (2 programs still running were ended)"), out
    assert done.read_text() == "other: stopped"  # the cleanup ran after the other thread unwound
    for pid in kids:  # ended and reaped, not left running
        assert not Path(f"/proc/{pid}").exists() or "sleep" not in Path(f"/proc/{pid}/cmdline").read_text(errors="replace")


@pytest.fixture(autouse=True)
def _no_stray_sleep():
    """The driver's grandchild that ignores SIGTERM outlives it (by design): end it."""
    yield
    subprocess.run(["pkill", "-KILL", "-f", "^sleep 6021$"], check=False)


def test_stopping_puts_back_the_handlers_it_found():
    pi = _pi()
    before = signal.getsignal(signal.SIGTERM)
    with pi.stop_on_signals():
        assert signal.getsignal(signal.SIGTERM) is pi._on_signal
    assert signal.getsignal(signal.SIGTERM) is before
