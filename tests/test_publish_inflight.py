"""benchmarks/publish_qwen.sh keeps a run under way in logs/inflight/ and publishes it only once it is whole.

The script is run as written, from a scratch copy of the repository's layout (the script, and the Goth problems it
lists), with an ``inspect`` on PATH that records its arguments and writes a log, or fails as a stopped run does.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FAKE_INSPECT = """#!/usr/bin/env bash
echo "$@" >> "$CALLS"
dir=""; while [ $# -gt 0 ]; do [ "$1" = --log-dir ] && dir="$2"; shift; done
mkdir -p "$dir" && echo log > "$dir/run.eval"
exit "${FAKE_EXIT:-0}"
"""


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "benchmarks").mkdir(parents=True)
    shutil.copy(ROOT / "benchmarks" / "publish_qwen.sh", repo / "benchmarks")
    shutil.copytree(ROOT / "data" / "correction" / "goth", repo / "data" / "correction" / "goth")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "inspect").write_text(FAKE_INSPECT)
    (tmp_path / "bin" / "inspect").chmod(0o755)
    return repo


def _publish(repo: Path, fail: bool = False) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{repo.parent / 'bin'}:{os.environ['PATH']}", "CALLS": str(repo.parent / "calls"),
           "FAKE_EXIT": "1" if fail else "0"}
    return subprocess.run(["bash", str(repo / "benchmarks" / "publish_qwen.sh"), "qwen2.5-coder-0.5b", "writing"],
                          env=env, capture_output=True, text=True, timeout=60)


def test_a_stopped_run_stays_in_flight_and_a_whole_one_is_published(checkout: Path) -> None:
    inflight = checkout / "logs" / "inflight" / "qwen2.5-coder-0.5b" / "writing"
    published = checkout / "logs" / "published" / "qwen2.5-coder-0.5b" / "writing"
    stopped = _publish(checkout, fail=True)
    assert stopped.returncode != 0
    assert (inflight / "run.eval").is_file() and not published.exists()  # what a session commits and resumes
    done = _publish(checkout)
    assert done.returncode == 0, done.stderr
    assert (published / "run.eval").is_file() and not (checkout / "logs" / "inflight").exists()
    calls = (checkout.parent / "calls").read_text().splitlines()
    assert len(calls) == 2 and all("--log-dir logs/inflight/qwen2.5-coder-0.5b/writing" in c for c in calls)
    again = _publish(checkout)  # published already: nothing is asked again
    assert again.returncode == 0 and "published already" in again.stdout
    assert len((checkout.parent / "calls").read_text().splitlines()) == 2
