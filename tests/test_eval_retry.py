"""An evaluation SIGKILLed mid-run resumes with ``inspect eval-retry``: no sample lost, none run twice.

The correction task (gold solver, local sandbox, one sample at a time) is killed as soon as its log holds the first
flushed samples, while the next sample's program is running in the sandbox. ``inspect eval-retry`` on that log
must finish with exactly the dataset's sample ids, keep the samples that were already done, and no sandbox process
of the killed run may survive it (the jail dies with its parent).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from coonbench.datasets.correction import correction_dataset
from coonbench.execution.isolation import JAIL_ARGV0
from coonbench.resources import REPO_ROOT

LIMIT = 12


def _inspect() -> str:
    return str(Path(sys.executable).with_name("inspect"))


def _stat(pid: int | str) -> tuple[int, int] | None:
    """(parent pid, start time) of a live process (not a zombie waiting to be reaped), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return None if fields[0] in ("Z", "X") else (int(fields[1]), int(fields[19]))


def _jails_of(parent: int) -> dict[int, int]:
    """Jail processes (``coonbench-jail``, its configuration is not on the command line) started by ``parent``
    and their jail children, as pid -> start time (a pid reused later is not the same process)."""
    jails: dict[int, tuple[int, int]] = {}
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and Path(f"/proc/{entry}/cmdline").read_bytes().startswith(JAIL_ARGV0.encode() + b"\0"):
                stat = _stat(entry)
                if stat is not None:
                    jails[int(entry)] = stat
        except OSError:
            continue
    found: dict[int, int] = {}
    for _ in range(3):  # outer jail, then its PID 1
        found.update({pid: start for pid, (ppid, start) in jails.items() if ppid == parent or ppid in found})
    return found


def _still_alive(jails: dict[int, int]) -> list[int]:
    return [pid for pid, start in jails.items() if (_stat(pid) or (0, -1))[1] == start]


@pytest.mark.slow
def test_sigkill_then_eval_retry_loses_and_repeats_nothing(tmp_path: Path) -> None:
    log_dir = tmp_path / "logs"
    command = [
        _inspect(), "eval", "coonbench/correction", "-T", "target=python", "--solver", "coonbench/gold",
        "--model", "mockllm/model", "--limit", str(LIMIT), "--max-samples", "1", "--max-connections", "1",
        "--log-buffer", "2", "--log-dir", str(log_dir), "--display", "none",
    ]
    # a killed evaluation cannot remove the sample directory it was using: keep it in pytest's tmp_path
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    scratch.chmod(0o755)
    env = {**os.environ, "TMPDIR": str(scratch)}
    proc = subprocess.Popen(command, cwd=REPO_ROOT, start_new_session=True, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    first_size: int | None = None
    seen: dict[int, int] = {}
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            seen.update(_jails_of(proc.pid))
            logs = list(log_dir.glob("*.eval"))
            if logs:
                size = logs[0].stat().st_size
                first_size = size if first_size is None else first_size
                if size > first_size:  # the first samples are flushed: kill now, mid-run
                    break
            time.sleep(0.05)
        assert proc.poll() is None, "the evaluation ended before it could be killed"
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    time.sleep(0.5)
    assert seen, "no jail was seen running: the kill did not come mid-sample"
    assert _still_alive(seen) == [], "a sandbox process outlived the killed evaluation"

    [killed_path] = list(log_dir.glob("*.eval"))
    killed = read_eval_log(str(killed_path))
    assert killed.status == "started"
    done_before = {s.id: s.uuid for s in killed.samples or []}
    assert 0 < len(done_before) < LIMIT, f"{len(done_before)} samples done before the kill"

    retry = subprocess.run(
        [_inspect(), "eval-retry", str(killed_path), "--log-dir", str(log_dir), "--max-samples", "1",
         "--display", "none"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=600, env=env,
    )
    assert retry.returncode == 0, retry.stderr[-3000:]
    finished = [read_eval_log(info) for info in list_eval_logs(str(log_dir))]
    [resumed] = [log for log in finished if log.status == "success"]
    ids = [s.id for s in resumed.samples or []]
    expected = [s.id for s in correction_dataset("python", limit=LIMIT)]
    assert len(ids) == len(set(ids)), "a sample was run twice"
    assert sorted(ids) == sorted(expected), "samples lost or foreign"
    carried = {s.id: s.uuid for s in resumed.samples or [] if s.id in done_before}
    assert carried == done_before, "samples finished before the kill were not kept"
    assert all(s.scores for s in resumed.samples or [])
