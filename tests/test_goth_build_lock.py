"""Two processes that need the Goth interpreter at once (two test workers, a user's two runs) build it once: the
build holds a lock on the cache, and the one that waited finds the binary built and builds nothing."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from coonbench.execution import goth_build
from coonbench.execution.goth_build import LIBRARY_CRATES, Setup, ensure_binary


def test_concurrent_builds_run_one_at_a_time_and_the_second_finds_it_built(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COONBENCH_CACHE", str(tmp_path / "cache"))
    source = tmp_path / "checkout"
    for crate in LIBRARY_CRATES:
        (source / crate / "src").mkdir(parents=True)
        (source / crate / "src" / "lib.rs").write_text("// a crate\n", encoding="utf-8")
    inside: list[int] = []
    most = [0]
    built: list[Path] = []

    def slow_build(given: Path, crates: Path, log: Path | None) -> Setup:
        """cargo's stand-in: long enough for the other thread to arrive, then what a build leaves behind."""
        inside.append(1)
        most[0] = max(most[0], len(inside))
        time.sleep(0.5)
        target = goth_build.binary_path()
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("#!/bin/sh\n", encoding="utf-8")
        target.with_suffix(".stamp").write_text(goth_build.stamp(crates) + "\n")
        built.append(target)
        inside.pop()
        return Setup(target, True, crates)

    monkeypatch.setattr(goth_build, "_build", slow_build)
    results: list[Setup] = []
    threads = [threading.Thread(target=lambda: results.append(ensure_binary(source))) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert most[0] == 1, "two builds ran in the same folder at once"
    assert len(built) == 1 and sorted(r.built for r in results) == [False, True]
