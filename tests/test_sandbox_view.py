"""The jail's private view (``coonbench.execution.view``): what it holds, that it is made once and reused, and that
a folder someone else made is never used. The channel it closes is tested in ``tests/test_cross_run_channel.py``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from coonbench.execution import view
from coonbench.execution.isolation import SAFE_PATH, jail_namespaces

PYTHON = shutil.which("python3", path=SAFE_PATH)
needs_python = pytest.mark.skipif(PYTHON is None, reason="no python3 on the sandbox's PATH")


@pytest.fixture
def parent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A scratch parent for views (the real one is /dev/shm), with the per-process cache emptied around the test."""
    monkeypatch.setattr(view, "VIEW_PARENT", str(tmp_path))
    view.system_view.cache_clear()
    yield tmp_path
    view.system_view.cache_clear()


@needs_python
def test_the_view_holds_the_programs_their_libraries_and_the_standard_library(parent: Path) -> None:
    assert PYTHON is not None
    made = view.system_view((PYTHON,))
    assert made is not None and made.startswith(str(parent))
    real = os.path.realpath(PYTHON)
    assert os.path.isfile(made + real) and os.access(made + real, os.X_OK)
    stdlib = subprocess.run([PYTHON, "-I", "-S", "-c", "import os; print(os.path.dirname(os.__file__))"],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert os.path.isfile(os.path.join(made + os.path.realpath(stdlib), "json", "__init__.py"))
    assert not os.path.exists(os.path.join(made + os.path.realpath(stdlib), "test", "__init__.py"))  # left out
    libc = [line.split()[2] for line in subprocess.run(["ldd", real], capture_output=True, text=True).stdout
            .splitlines() if "libc.so" in line]
    assert libc and os.path.isfile(made + os.path.realpath(libc[0]))
    # the interpreter runs from the copy alone: its standard library found beside it, no host path
    out = subprocess.run(["env", "-i", made + real, "-I", "-S", "-c", "import json, os; print(os.__file__)"],
                         capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith(made), out


@needs_python
def test_a_view_is_made_once_and_reused(parent: Path) -> None:
    assert PYTHON is not None
    first = view.system_view((PYTHON,))
    assert first is not None
    marker = Path(first) / "made-once"
    os.chmod(first, 0o755)
    marker.write_text("")
    view.system_view.cache_clear()  # another process: the same folder, not made again
    assert view.system_view((PYTHON,)) == first and marker.exists()
    assert [p.name for p in parent.iterdir() if p.name.startswith("coonbench-view-")] == [Path(first).name]


@needs_python
def test_a_folder_of_that_name_another_user_can_change_is_not_used(parent: Path) -> None:
    assert PYTHON is not None
    name = f"coonbench-view-{os.geteuid()}-{view._key((PYTHON,))}"
    squatted = parent / name
    (squatted / "usr" / "bin").mkdir(parents=True)
    squatted.chmod(0o777)  # writable by anyone: not ours to trust
    assert view.system_view((PYTHON,)) is None


def test_no_tmpfs_no_view(parent: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(view, "VIEW_PARENT", str(parent / "absent"))
    assert view.system_view((sys.executable,)) is None


@needs_python
def test_a_view_made_under_a_strict_umask_is_readable_by_every_uid(parent: Path) -> None:
    """The sample runs as another uid (root's dedicated one): a user's umask 077 must not lock it out."""
    assert PYTHON is not None
    before = os.umask(0o077)
    try:
        made = view.system_view((PYTHON,))
    finally:
        os.umask(before)
    assert made is not None
    for root, dirs, files in os.walk(made):
        assert all(os.stat(os.path.join(root, d)).st_mode & 0o555 == 0o555 for d in dirs), root
        assert all(os.lstat(os.path.join(root, f)).st_mode & 0o444 == 0o444 for f in files
                   if not os.path.islink(os.path.join(root, f))), root


@pytest.mark.skipif("mount" not in jail_namespaces(), reason="no mount namespace here: the jail shows no view")
def test_a_program_of_the_sample_directory_is_never_inspected_on_the_host(parent: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``ldd`` may run the program it lists: a file a model wrote into its sample directory must never reach it,
    whatever command names it."""
    import asyncio

    from coonbench.execution.sandbox import LocalLimitedSandbox, LocalSandboxConfig

    listed: list[str] = []
    real = view._libraries
    monkeypatch.setattr(view, "_libraries", lambda program: listed.append(program) or real(program))
    box = LocalLimitedSandbox(LocalSandboxConfig())
    try:
        program = Path(box.directory) / "tool"
        program.write_text("#!/bin/sh\necho ran\n")
        program.chmod(0o755)
        box.jail_config([str(program)], None, None, 5.0)
    finally:
        box.close()
    assert listed and not any(p.startswith(box.directory) for p in listed), listed
