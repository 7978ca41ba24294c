"""The suite's memory guard (issue 56): `.ci/run` puts the whole run into a memory cgroup (`.ci/memory-guard`), so a
hostile-input test whose bound breaks is killed inside the guard and fails, instead of taking the machine."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUARD = ROOT / ".ci" / "memory-guard"
GIB = 1024**3


def _memory_limit(pid: int | str = "self") -> int | None:
    """The tightest memory limit over the cgroup of ``pid`` and its ancestors (v1 or v2), or None without one."""
    mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        hid, controllers, path = line.split(":", 2)
        v1 = "memory" in controllers.split(",")
        if not v1 and not (hid == "0" and controllers == ""):
            continue
        for m in mounts:
            left, _, right = m.partition(" - ")
            fstype, *_rest = right.split()
            options = right.split()[-1].split(",")
            if (v1 and fstype == "cgroup" and "memory" in options) or (not v1 and fstype == "cgroup2"):
                base = Path(left.split()[4])
                break
        else:
            continue
        name = "memory.limit_in_bytes" if v1 else "memory.max"
        limits = []
        here = base / path.lstrip("/")
        while True:
            try:
                text = (here / name).read_text().strip()
                limits.append(int(text))
            except (OSError, ValueError):  # "max", or no file at the root
                pass
            if here == base:
                break
            here = here.parent
        if limits:
            return min(limits)
    return None


def test_ci_runs_the_suite_under_a_memory_guard() -> None:
    """In CI, as root, this process's memory cgroup has a limit of at most 20 GiB (the guard .ci/run sets)."""
    if os.environ.get("CI") != "true":
        pytest.skip("only .ci/run (CI=true) sets the suite's guard")
    if os.geteuid() != 0:
        pytest.skip("the guard is made by root; this is the ordinary-user rerun")
    limit = _memory_limit()
    assert limit is not None and limit <= 20 * GIB, f"no memory guard on the suite (limit {limit})"
    assert os.environ.get("COONBENCH_CI_MEMORY_GUARD"), ".ci/run says where its guard is"


@pytest.mark.skipif(os.geteuid() != 0, reason="a memory cgroup is made by root")
def test_the_guard_kills_what_grows_past_it() -> None:
    """A process put in a 1 GiB guard is killed when it touches 1.5 GiB; one that stays below it lives."""
    grow = "import sys, time; sys.stdin.readline(); b = bytearray(int(sys.argv[1])); b[::4096] = b'x' * len(b[::4096]); print('alive')"
    outcomes = {}
    for size in (int(0.25 * GIB), int(1.5 * GIB)):
        child = subprocess.Popen([sys.executable, "-c", grow, str(size)], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)
        made = subprocess.run([str(GUARD), str(child.pid), "1"], capture_output=True, text=True)
        if made.returncode != 0:
            child.kill()
            child.wait()
            pytest.skip(f"no memory cgroup here: {made.stderr.strip()}")
        assert _memory_limit(child.pid) == GIB
        out, _ = child.communicate("go\n", timeout=120)
        outcomes[size] = (child.returncode, out.strip())
        os.rmdir(made.stdout.strip())
    assert outcomes[int(0.25 * GIB)] == (0, "alive")
    assert outcomes[int(1.5 * GIB)][0] == -signal.SIGKILL, outcomes
