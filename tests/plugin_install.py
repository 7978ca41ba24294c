"""Installing a third-party plug-in package into a fresh environment and running Inspect there: what the
plug-in package tests share (``tests/test_plugin_package.py``, ``tests/test_language_package.py``).

The package is copied to a temp folder (so the build leaves nothing in the repository) and installed with
``pip install --no-deps --no-build-isolation --no-index --target`` into a folder of its own (no network), which a
child interpreter — this one, so in a virtual environment it sees that environment's packages — puts on its path
and drives through ``python -m inspect_ai``. The test process itself never imports the plug-in.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai.log import EvalLog, read_eval_log

from coonbench.resources import REPO_ROOT

Installed = tuple[Path, dict[str, str]]
"""The interpreter to run and the environment that puts the installed plug-in on its path."""


def run_checked(cmd: list[str], env: dict[str, str], timeout: int = 600, cwd: Path = REPO_ROOT
                ) -> subprocess.CompletedProcess[str]:
    """Run ``cmd``; fail the test with its output's tail when it exits non-zero."""
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(cmd)}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def install_package(package: Path, root: Path) -> Installed:
    """Build and install ``package`` under ``root`` (skips when setuptools or wheel, needed offline, are missing)."""
    try:
        import setuptools  # noqa: F401
        import wheel  # noqa: F401
    except ImportError as err:
        pytest.skip(f"building the plug-in offline needs setuptools and wheel installed ({err})")
    pkg = root / "pkg"
    shutil.copytree(package, pkg, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    target = root / "site-packages"  # the name Inspect looks for to give the plug-in its package prefix
    env = dict(os.environ)
    run_checked([sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index", "-q",
                 "--target", str(target), str(pkg)], env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(target), str(REPO_ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return Path(sys.executable), env


def eval_installed(installed: Installed, log_dir: Path, *args: str, solver: str | None = "coonbench/gold") -> EvalLog:
    """``inspect eval ARGS`` with ``mockllm/model`` (and ``solver``) in the plug-in's environment; its one log."""
    python, env = installed
    run_checked(
        [str(python), "-m", "inspect_ai", "eval", *args, *(["--solver", solver] if solver else []),
         "--model", "mockllm/model", "--log-dir", str(log_dir), "--display", "none"],
        env,
    )
    [log_file] = sorted(log_dir.glob("*.eval"))
    return read_eval_log(str(log_file))
