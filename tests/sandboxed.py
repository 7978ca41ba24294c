"""Helpers of the sandbox tests: run a program in a fresh local sandbox, rerun test modules as an ordinary user."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from inspect_ai.util import ExecResult

from coonbench.execution.sandbox import LocalLimitedSandbox, LocalSandboxConfig

REPO = Path(__file__).resolve().parents[1]
AS_USER = REPO / ".ci" / "as-ordinary-user"
ORDINARY_UID = 65534


def run_program(code: str, config: LocalSandboxConfig | None = None, timeout: int = 30) -> ExecResult[str]:
    """``python3 -I prog.py`` in a fresh sample (closed afterwards), as the jail runs a model's program."""
    box = LocalLimitedSandbox(config or LocalSandboxConfig())
    try:
        asyncio.run(box.write_file("prog.py", code))
        return asyncio.run(box.exec(["python3", "-I", "prog.py"], timeout=timeout))
    finally:
        box.close()


def can_become_a_user() -> bool:
    """Root with ``unshare`` and ``setpriv``: ``.ci/as-ordinary-user`` can run a command as uid 65534."""
    if os.geteuid() != 0 or not all(shutil.which(t) for t in ("unshare", "setpriv")):
        return False
    return subprocess.run([str(AS_USER), "true"], capture_output=True).returncode == 0


def pytest_as_ordinary_user(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m pytest ARGS`` as uid 65534 from the repository (pytest's own tmp_path is private to root, so
    its base directory is a fresh one that user owns)."""
    base = tempfile.mkdtemp(prefix="coonbench-user-tests-")
    os.chown(base, ORDINARY_UID, ORDINARY_UID)
    cmd = [str(AS_USER), sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-n", "0",
           f"--basetemp={base}/t", *args]  # no workers of its own: it runs inside one of the suite's
    try:
        return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600)
    finally:
        shutil.rmtree(base, ignore_errors=True)
