"""../shared is read where it lies, never copied: no file the repository tracks is byte-identical to one under it.

The reference data are conformance vectors with their own licences; a copy in the repository (or the wheel) would
ship them as ours. A text that has to ship and happens to match (a licence of mined data) ships with a heading of
what it covers, as ``licences/`` does.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest

from coonbench.resources import SHARED_DIR

ROOT = Path(__file__).resolve().parents[1]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _tracked() -> list[Path]:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    return [ROOT / name for name in out.decode().split("\0") if name]


def test_no_tracked_file_is_a_copy_of_shared() -> None:
    if not SHARED_DIR.is_dir():
        pytest.skip(f"../shared absent: {SHARED_DIR} (nothing to compare against)")
    by_size: dict[int, list[Path]] = {}
    for p in SHARED_DIR.rglob("*"):
        if p.is_file() and not p.is_symlink() and p.stat().st_size > 0:
            by_size.setdefault(p.stat().st_size, []).append(p)
    assert sum(map(len, by_size.values())) > 100  # the reference data are there to compare against
    copies = []
    for p in _tracked():
        if not p.is_file() or p.is_symlink() or p.stat().st_size not in by_size:
            continue
        mine = _digest(p)
        copies += [(p.relative_to(ROOT), q) for q in by_size[p.stat().st_size] if _digest(q) == mine]
    assert not copies, f"tracked files identical to ../shared (read them from there instead): {copies}"
