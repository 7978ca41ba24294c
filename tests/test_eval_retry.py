"""An evaluation SIGKILLed mid-run resumes with ``inspect eval-retry``: no sample lost, none run twice.

The correction task (gold solver, local sandbox, one sample at a time) is killed as soon as its log holds the first
flushed samples, while the next sample's program is running in the sandbox. ``inspect eval-retry`` on that log
must finish with exactly the dataset's sample ids, keep the samples that were already done, and no sandbox process
of the killed run may survive it (the jail dies with its parent).
"""

from __future__ import annotations

import os
import select
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
EXIT_WAIT_S = 60  # how long a frozen jail may take to die after its parent (a hang guard, not a margin)


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


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (zombies too)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return found


def _signal(pidfds: dict[int, int], pids: list[int], sig: int) -> None:
    """Send ``sig`` to each of ``pids`` through its pidfd (never to a pid reused since)."""
    for pid in pids:
        try:
            signal.pidfd_send_signal(pidfds[pid], sig)
        except ProcessLookupError:
            pass


def _wait_for_exits(pidfds: dict[int, int]) -> dict[int, int]:
    """Wait until every process (pid -> pidfd) has ended, at most ``EXIT_WAIT_S``; those still running."""
    pending = dict(pidfds)
    end = time.monotonic() + EXIT_WAIT_S
    while pending and time.monotonic() < end:
        ready, _, _ = select.select(list(pending.values()), [], [], max(0.0, end - time.monotonic()))
        pending = {pid: fd for pid, fd in pending.items() if fd not in ready}
    return pending


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
    # this checkout's code (also in a worktree, where the installed one is another)
    env = {**os.environ, "TMPDIR": str(scratch), "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.Popen(command, cwd=REPO_ROOT, start_new_session=True, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    first_size: int | None = None
    starting: list[int] = []
    running: list[int] = []
    seen: dict[int, int] = {}
    exits: dict[int, int] = {}  # jail pid -> a pidfd, readable once that process has ended
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            for pid, start in _jails_of(proc.pid).items():
                if pid not in seen:
                    try:
                        fd = os.pidfd_open(pid)
                    except ProcessLookupError:
                        continue  # gone already
                    if (_stat(pid) or (0, -1))[1] == start:  # the same process, not a pid reused meanwhile
                        seen[pid], exits[pid] = start, fd
                    else:
                        os.close(fd)
            logs = list(log_dir.glob("*.eval"))
            if logs:
                size = logs[0].stat().st_size
                first_size = size if first_size is None else first_size
                if size > first_size:  # the first samples are flushed: freeze the jails, kill if one is mid-sample
                    live = [pid for pid in exits if _stat(pid) is not None]
                    _signal(exits, live, signal.SIGSTOP)  # from now on only a signal ends them, not their work
                    running = [pid for pid in live if _children(pid)]
                    if running:
                        # a jail frozen as it started, before it set its death signal, has no child yet: it goes on
                        # (below) and must see that its parent is gone; one with a child must die with its parent
                        starting = [pid for pid in live if pid not in running]
                        break
                    _signal(exits, live, signal.SIGCONT)  # between two commands: try again
            time.sleep(0.05)
        assert proc.poll() is None, "the evaluation ended before it could be killed"
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert running, "no jail was caught running a sample: the kill did not come mid-sample"
    # frozen, a jail can only end by the SIGKILL it gets when its parent dies (PR_SET_PDEATHSIG): wait for each
    # one's end (its pidfd turns readable), not for a fixed time
    _signal(exits, starting, signal.SIGCONT)
    pending = _wait_for_exits(exits)
    for fd in exits.values():
        if fd in pending.values():
            signal.pidfd_send_signal(fd, signal.SIGKILL)  # leave no frozen survivor behind a failing test
        os.close(fd)
    assert not pending, f"sandbox processes outlived the killed evaluation: {sorted(pending)}"

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
