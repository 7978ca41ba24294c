"""No candidate with the host root's uid, and procfs frozen where it matters.

From a user namespace that maps the caller to the host's root (``unshare --user --map-user=1000``: uid 1000
inside, kernel uid 0 without capabilities, what root in a container without capabilities looks like), the jail
would map that uid to itself and run the program as kernel uid 0, which procfs lets open
``/proc/sys/kernel/core_pattern`` for writing. The local sandbox refuses such a caller with one line (so does it
for ``--map-root-user``, where no dedicated uid can be mapped), and in every mode the jail's ``/proc`` has
``/proc/sys``, ``/proc/sysrq-trigger`` & co. read-only and ``/proc/kcore``, ``/proc/keys`` & co. masked (checked
as root, as uid 65534 through ``.ci/run``, and from the mapped namespace with ``-T sandbox=unsafe-local``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from coonbench.execution.isolation import HOST_ROOT_REFUSAL
from coonbench.execution.jail import PROC_MASKED, PROC_READONLY
from coonbench.execution.sandbox import LocalSandboxConfig, capabilities
from tests.sandboxed import run_program

REPO = Path(__file__).resolve().parents[1]
CAPS = capabilities()
needs_procns = pytest.mark.skipif(not (CAPS["pid_namespace"] and CAPS["private_root"]),
                                  reason="no PID and mount namespace: the jail shows the host's /proc")
WRITABLE = ("/proc/sys/kernel/core_pattern", "/proc/sys/vm/drop_caches", "/proc/sysrq-trigger",
            "/proc/sys/kernel/shmmax")
PROBE = r'''
import json, os
out = {"uid": os.getuid(), "writable": [], "readable": [], "read_only_mounts": []}
for path in WRITABLE:
    try:
        os.close(os.open(path, os.O_WRONLY))  # opened, never written
        out["writable"].append(path)
    except OSError:
        pass
for name in MASKED:
    path = "/proc/" + name
    try:
        if os.path.isdir(path):
            if os.listdir(path):
                out["readable"].append(path)
        elif open(path, "rb").read(64):
            out["readable"].append(path)
    except OSError:
        pass
for line in open("/proc/self/mountinfo"):
    fields = line.split()
    if fields[4].startswith("/proc/") and "ro" in fields[5].split(","):
        out["read_only_mounts"].append(fields[4])
print(json.dumps(out))
'''.replace("WRITABLE", repr(WRITABLE)).replace("MASKED", repr(PROC_MASKED))


def probe_in_jail(config: LocalSandboxConfig) -> dict:  # type: ignore[type-arg]
    result = run_program(PROBE, config)
    assert result.success, result
    return json.loads(result.stdout)


def assert_frozen(seen: dict) -> None:  # type: ignore[type-arg]
    assert seen["writable"] == [], seen
    assert seen["readable"] == [], seen
    assert "/proc/sys" in seen["read_only_mounts"], seen


@needs_procns
def test_procfs_is_read_only_and_masked_in_the_jail() -> None:
    assert_frozen(probe_in_jail(LocalSandboxConfig()))
    assert {"sys", "sysrq-trigger"} <= set(PROC_READONLY) and {"kcore", "keys"} <= set(PROC_MASKED)


MAPPED = r'''
import json, os, sys
sys.path.insert(0, os.getcwd())
from coonbench.evals.correction import correction
from coonbench.execution.isolation import IsolationUnavailable, program_would_be_host_root
from coonbench.execution.sandbox import LocalSandboxConfig
from tests.test_sandbox_procfs import probe_in_jail
out = {"host_root": program_would_be_host_root(), "control": []}
for path in ("/proc/sys/kernel/core_pattern", "/proc/sys/vm/drop_caches"):
    try:
        os.close(os.open(path, os.O_WRONLY))  # opened, never written: this namespace's process could write it
        out["control"].append(path)
    except OSError:
        pass
try:
    correction(sandbox="local")
    out["refusal"] = None
except IsolationUnavailable as exc:
    out["refusal"] = str(exc)
out["jail"] = probe_in_jail(LocalSandboxConfig(unsafe=True)) if "--jail" in sys.argv else None
print(json.dumps(out))
'''


def _in_namespace(option: list[str], jail: bool) -> dict:  # type: ignore[type-arg]
    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1)")
    proc = subprocess.run(["unshare", "--user", *option, sys.executable, "-I", "-c", MAPPED]
                          + (["--jail"] if jail else []), cwd=REPO, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0 and "unshare failed" in proc.stderr:
        pytest.skip(f"this kernel refuses a user namespace: {proc.stderr.strip()[:200]}")
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(os.geteuid() != 0, reason="only the host's root can be mapped to uid 0 from a namespace")
@needs_procns
def test_a_caller_mapped_to_host_root_is_refused_and_procfs_stays_frozen() -> None:
    """``unshare --user --map-user=1000``: uid 1000, kernel uid 0. The task refuses it with one line; run anyway
    (unsafe-local) the program still cannot open ``core_pattern`` for writing, which the caller itself can."""
    seen = _in_namespace(["--map-user=1000", "--map-group=1000"], jail=True)
    assert seen["host_root"] and seen["refusal"] == HOST_ROOT_REFUSAL and "\n" not in HOST_ROOT_REFUSAL
    assert "/proc/sys/kernel/core_pattern" in seen["control"], seen  # the danger is real in this namespace
    assert seen["jail"]["uid"] == 1000
    assert_frozen(seen["jail"])


@pytest.mark.skipif(os.geteuid() != 0, reason="only the host's root can be mapped to uid 0 from a namespace")
def test_root_without_dedicated_uids_is_refused() -> None:
    """``unshare --user --map-root-user``: uid 0 mapped alone, so no dedicated uid can be given to the program."""
    seen = _in_namespace(["--map-root-user"], jail=False)
    assert seen["host_root"] and seen["refusal"] == HOST_ROOT_REFUSAL


def test_a_caller_outside_any_user_namespace_is_not_taken_for_root() -> None:
    """The host's real root (its dedicated uids exist) and uid 65534 under ``.ci/run`` run programs as usual."""
    from coonbench.execution.isolation import program_would_be_host_root

    if Path("/proc/self/uid_map").read_text().split() != ["0", "0", "4294967295"]:
        pytest.skip("this test process runs inside a user namespace")
    assert program_would_be_host_root() is False
