"""Hostile-input checks under a memory guard: the code runs in a child process whose address space is capped
(``RLIMIT_AS``), so a bound that breaks fails the test (MemoryError, a killed child) instead of the machine, and
the child reports its peak resident memory, which the test compares with what the bound promises."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# ``ru_maxrss`` survives ``execve``: a child forked from a 4 GiB pytest starts with a 4 GiB "peak" it never had.
# ``VmHWM`` belongs to the address space, which exec replaces, so it is the child's own peak.
_EPILOGUE = """
import json as _json, resource as _resource
def _hwm():
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
    raise RuntimeError("no VmHWM in /proc/self/status")
print("\\n@@MEMGUARD@@" + _json.dumps({
    "self": _hwm(),
    "children": _resource.getrusage(_resource.RUSAGE_CHILDREN).ru_maxrss // 1024}))
"""


@dataclass(frozen=True)
class Guarded:
    returncode: int
    stdout: str
    stderr: str
    peak_mib: int
    """Peak resident memory of the child itself, MiB (``VmHWM``: its own address space, not its parent's)."""
    children_peak_mib: int
    """The largest peak of the processes it started (git, for the miner), MiB."""


def run_guarded(code: str, *, limit_mib: int = 1536, timeout: float = 300, cwd: Path | None = None,
                env: dict[str, str] | None = None) -> Guarded:
    """Run Python ``code`` in a child under ``RLIMIT_AS`` of ``limit_mib`` MiB and ``timeout`` seconds."""
    import resource

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_mib << 20, limit_mib << 20))

    child_env = {**os.environ, "PYTHONPATH": str(ROOT), "MALLOC_ARENA_MAX": "2", "OPENBLAS_NUM_THREADS": "1",
                 "OMP_NUM_THREADS": "1", **(env or {})}
    done = subprocess.run([sys.executable, "-c", code + _EPILOGUE], capture_output=True, text=True, timeout=timeout,
                          cwd=cwd, env=child_env, preexec_fn=cap)
    out, _, report = done.stdout.rpartition("\n@@MEMGUARD@@")
    peaks = json.loads(report) if done.returncode == 0 and report.strip().startswith("{") else {}
    return Guarded(done.returncode, out if peaks else done.stdout, done.stderr, int(peaks.get("self", -1)),
                   int(peaks.get("children", -1)))
