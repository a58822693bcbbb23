"""benchmarks/zero.py's Zero-like box on both cgroup versions.

The v2 and v1 layouts are checked on a directory tree shaped as the kernel's (what the
box writes where, which groups pass controllers on): a fake that cannot see the kernel
enforce the limits or refuse a write. Where this machine has the hierarchy (as root),
the box is also made for real and a process put in it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.zero import Box, BoxError, own_cgroups  # noqa: E402


def _v2_tree(root: Path, own: str) -> None:
    mine = root / own.strip("/")
    mine.mkdir(parents=True, exist_ok=True)
    for d in {root, mine, *[p for p in mine.parents if root in p.parents]}:
        (d / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
        (d / "cgroup.subtree_control").write_text("")


def test_v2_box_is_made_beside_our_own_group_with_controllers_passed_down(tmp_path: Path) -> None:
    own = "/user.slice/user-0.slice/session-3.scope"
    _v2_tree(tmp_path, own)
    box = Box(tmp_path, own=f"0::{own}\n", name="gingo-zero-t")
    d = tmp_path / "user.slice" / "user-0.slice" / "gingo-zero-t"
    assert box.version == 2 and box.dirs == [d]
    assert (d / "cpu.max").read_text() == "12500 100000"
    assert (d / "memory.max").read_text() == str(400 * 1024 * 1024)
    # written "+cpu" then "+memory" (the kernel keeps both; a file here keeps the last)
    for g in (tmp_path, tmp_path / "user.slice", tmp_path / "user.slice" / "user-0.slice"):
        assert (g / "cgroup.subtree_control").read_text() == "+memory"
    assert (tmp_path / "user.slice" / "user-0.slice" / "session-3.scope" / "cgroup.subtree_control").read_text() == ""
    assert "cgroup v2" in box.describe() and "cpu.max 12500 100000" in box.describe()


def test_v2_box_in_the_root_group_and_a_refusal_said_plainly(tmp_path: Path) -> None:
    _v2_tree(tmp_path, "/")
    (tmp_path / "cgroup.subtree_control").write_text("cpu memory")
    box = Box(tmp_path, own="0::/\n", name="gingo-zero-r")
    assert box.dirs == [tmp_path / "gingo-zero-r"]
    (tmp_path / "cgroup.subtree_control").write_text("")
    (tmp_path / "sub").mkdir()
    # read but never written (root too), as the kernel refuses with EBUSY
    (tmp_path / "sub" / "cgroup.subtree_control").symlink_to("/proc/version")
    with pytest.raises(BoxError, match="cannot pass the cpu controller on in .*sub"):
        Box(tmp_path, own="0::/sub/mine\n", name="gingo-zero-s")


def test_a_hybrid_machine_uses_the_v1_controllers(tmp_path: Path) -> None:
    (tmp_path / "unified").mkdir()
    (tmp_path / "cgroup.controllers").write_text("")  # a v2 tree without cpu or memory: not usable
    (tmp_path / "cpu").mkdir()
    (tmp_path / "memory" / "process_api" / "x").mkdir(parents=True)
    own = "4:memory:/process_api/x\n1:cpu:/\n0::/\n"
    box = Box(tmp_path, own=own, name="gingo-zero-h")
    cpu, mem = tmp_path / "cpu" / "gingo-zero-h", tmp_path / "memory" / "process_api" / "x" / "gingo-zero-h"
    assert box.version == 1 and box.dirs == [cpu, mem]
    assert (cpu / "cpu.cfs_quota_us").read_text() == "12500"
    assert (cpu / "cpu.cfs_period_us").read_text() == "100000"
    assert (mem / "memory.limit_in_bytes").read_text() == str(400 * 1024 * 1024)


def test_no_controller_at_all_is_said_plainly(tmp_path: Path) -> None:
    with pytest.raises(BoxError, match="no cgroup cpu or memory controller here"):
        Box(tmp_path, own="0::/\n", name="gingo-zero-n")
    assert own_cgroups("0::/a\n") == {"": "/a"}


@pytest.mark.skipif(os.geteuid() != 0, reason="making a cgroup needs root")
def test_the_box_is_made_for_real_on_this_machine() -> None:
    try:
        box = Box()
    except BoxError as exc:
        pytest.skip(f"no usable cgroup hierarchy here: {exc}")
    try:
        proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"], preexec_fn=box.join)
        try:
            procs = box.dirs[0] / "cgroup.procs"
            assert str(proc.pid) in procs.read_text().split()
            if box.version == 2:
                assert (box.dirs[0] / "cpu.max").read_text().split() == ["12500", "100000"]
            else:
                assert (box.dirs[0] / "cpu.cfs_quota_us").read_text().strip() == "12500"
                assert int((box.dirs[1] / "memory.limit_in_bytes").read_text()) == 400 * 1024 * 1024
            assert box.oom_kills() == 0
        finally:
            proc.kill()
            proc.wait()
    finally:
        box.remove()
    assert not any(d.exists() for d in box.dirs)
