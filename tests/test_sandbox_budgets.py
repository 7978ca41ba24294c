"""Whole-sample budgets and what the program learns about the host, attacked: ten children of 420 MiB against
the memory budget, 16 MiB files against the disk budget, ``/proc`` against the jail's configuration and mounts,
error feedback against host paths, a file-system search for the answer key. Each holds as root and as an ordinary
user: ``test_attacks_hold_as_an_ordinary_user`` reruns this module and the attack module without root.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from coonbench.execution import Outcome, Problem, get_executor
from coonbench.execution.sandbox import LocalLimitedSandbox, LocalSandboxConfig, capabilities
from tests.sandboxed import can_become_a_user, pytest_as_ordinary_user, run_program
from tests.test_sandbox_attacks import PROBLEM  # the identity problem the attacks run against

CAPS = capabilities()
REPO = Path(__file__).resolve().parents[1]
MIB = 1024 * 1024
needs_isolation = pytest.mark.skipif(CAPS["isolation"] != "full", reason=f"isolation here: {CAPS['isolation']}")

HOGS = """import os, time
SIZE = 420 * 1024 * 1024
kids = []
for _ in range(10):
    pid = os.fork()
    if pid == 0:
        try:
            block = bytearray(SIZE)
            for i in range(0, SIZE, 4096):
                block[i] = 1
            open(f"held-{os.getpid()}", "w").close()
            time.sleep(60)
        finally:
            os._exit(0)
    kids.append(pid)
gone, killed = set(), set()  # children that ended; those the budget's enforcer took (SIGKILL)
def reap():
    for p in kids:
        if p not in gone:
            done, status = os.waitpid(p, os.WNOHANG)
            if done:
                gone.add(p)
                if os.WIFSIGNALED(status) and os.WTERMSIG(status) == 9:
                    killed.add(p)
# near the limit the kernel reclaims before it kills, which can take many seconds on a loaded machine: wait
# until every child holds its block or was killed, not a fixed time
end = time.monotonic() + 40
while time.monotonic() < end:
    reap()
    if all(p in gone or os.path.exists(f"held-{p}") for p in kids):
        break
    time.sleep(0.2)
time.sleep(3)  # the budget's enforcer (OOM killer, or the watchdog polling every 10 ms) acts well within this
reap()
print(len([p for p in kids if p not in gone and os.path.exists(f"held-{p}")]), len(killed), flush=True)
"""


@needs_isolation
@pytest.mark.parametrize("mechanism", ["probed", "watchdog"])
def test_ten_children_of_420_mib_stay_within_the_sample_budget(mechanism: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """10 x 420 MiB is twice the 2 GiB budget: the cgroup's OOM killer or the jail's watchdog stops the sample
    before more than the budget is held at once."""
    if mechanism == "watchdog":
        monkeypatch.setattr("coonbench.execution.sandbox.memory_mechanism", lambda: "watchdog")
    box = LocalLimitedSandbox(LocalSandboxConfig())
    budget = box.config.sample_memory_mb
    try:
        asyncio.run(box.write_file("hogs.py", HOGS))
        result = asyncio.run(box.exec(["python3", "-I", "hogs.py"], timeout=60))
        peak = box.cgroup.peak_bytes() if box.cgroup is not None else None
    finally:
        box.close()
    stopped = result.returncode == -9  # the watchdog (it says so on stderr) or the OOM killer took the program
    held, killed = (int(n) for n in (result.stdout.split() or ["0", "0"]))
    # the attack works: some block is held, or the enforcer killed a child or the whole sample
    assert stopped or held >= 1 or killed >= 1, result
    assert held * 420 <= budget, f"{held} children held 420 MiB each at once (budget {budget} MiB): {result}"
    if mechanism == "watchdog":
        assert held == 0 and stopped and "memory budget" in result.stderr, result
    if peak is not None:
        assert peak <= budget * MIB, f"the sample's cgroup peaked at {peak / MIB:.0f} MiB"


FILL = """import os
written = 0
for i in range(20):
    try:
        fd = os.open(f"fill-{i}", os.O_WRONLY | os.O_CREAT, 0o644)
    except OSError:
        break
    try:
        for _ in range(16):
            written += os.write(fd, b"x" * (1 << 20))
    except OSError:
        break
    finally:
        os.close(fd)
print(written)
"""


@needs_isolation
def test_sixteen_mib_files_cannot_fill_more_than_the_disk_budget() -> None:
    """20 files of 16 MiB (each within RLIMIT_FSIZE) would be 320 MiB: the tmpfs stops them at 64 MiB, and no
    more than that reaches the host's sample directory."""
    box = LocalLimitedSandbox(LocalSandboxConfig())
    try:
        asyncio.run(box.write_file("fill.py", FILL))
        result = asyncio.run(box.exec(["python3", "-I", "fill.py"], timeout=60))
        on_host = sum(p.stat().st_size for p in Path(box.directory).rglob("*") if p.is_file())
    finally:
        box.close()
    written = int(result.stdout.strip())
    assert 32 * MIB <= written <= box.config.disk_mb * MIB, written
    assert on_host <= box.config.disk_mb * MIB, on_host


@needs_isolation
def test_the_sample_wall_time_budget_spans_its_commands() -> None:
    """Each command within its own limit, together past the sample's: the next command gets what is left — the
    limit its timeout names, not its own — and then nothing is left. Bounded by those events, not by a clock: the
    only margin is the 4 s the first one-second command has to start and end in."""
    budget = 5.0
    box = LocalLimitedSandbox(LocalSandboxConfig(sample_time_s=budget))
    try:
        first = asyncio.run(box.exec(["sleep", "1"], timeout=10))
        assert first.success, first
        left = budget - box.time_used
        with pytest.raises(TimeoutError) as err:
            asyncio.run(box.exec(["sleep", "60"], timeout=30))
        named = re.search(r"exceeded the (\S+) s time limit", str(err.value))
        assert named and float(named.group(1)) == pytest.approx(left, rel=1e-4) and left < 30, (str(err.value), left)
        with pytest.raises(TimeoutError, match="time budget is spent"):
            asyncio.run(box.exec(["true"]))
    finally:
        box.close()


PROC = """import os
print(open("/proc/1/cmdline", "rb").read().decode("latin-1"))
print(open("/proc/self/mountinfo").read())
print(os.getcwd(), os.environ.get("HOME"), os.environ.get("TMPDIR"))
"""


@needs_isolation
def test_proc_shows_neither_the_configuration_nor_host_paths() -> None:
    result = run_program(PROC)
    assert result.success, result
    text = result.stdout
    assert "coonbench-jail" in text  # PID 1 is the jail: its command line was read
    for secret in ("coonbench-sbx", str(REPO), sys.executable, "sample_dir", '"parent"', "/root"):
        assert secret not in text, secret
    mounts = [line.split()[4] for line in text.splitlines() if " - " in line]
    system = {"/", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/sandbox", "/proc"}
    assert mounts and all(m in system or m.startswith(("/dev/", "/proc/")) for m in mounts), mounts
    roots = {line.split()[3] for line in text.splitlines() if " - " in line}
    # the private view's folders show their place in /dev/shm's tmpfs: a name made of the uid and a digest of the
    # programs it holds (coonbench.execution.view), no path of the host's or the sample's
    view = re.compile(r"/coonbench-view-\d+-[0-9a-f]{20}/[a-z0-9]+")
    assert all(r == "/" or r in system or r.startswith("/") and r.count("/") == 1 or view.fullmatch(r)
               for r in roots), roots




@needs_isolation
@pytest.mark.parametrize("how", ["raise", "crash"])
def test_error_feedback_carries_no_host_path(how: str) -> None:
    body = {
        "raise": "    raise ValueError(os.getcwd() + ' ' + os.environ.get('HOME', '') + ' ' + os.path.abspath('x'))\n",
        "crash": "    os.write(2, (os.getcwd() + ' ' + os.path.abspath('x') + '\\n').encode())\n    os._exit(3)\n",
    }[how]
    box = LocalLimitedSandbox(LocalSandboxConfig())
    try:
        result = asyncio.run(get_executor("python").run("import os\ndef f(n):\n" + body, PROBLEM, 2.0, box))
    finally:
        box.close()
    shown = " ".join(str(x) for x in (result.message, result.call, result.expected, result.actual))
    assert result.outcome is Outcome.RUNTIME_ERROR, result
    if how == "raise":  # the program's paths did reach the feedback, as the program sees them
        assert "/sandbox" in shown, shown
    assert box.directory not in shown and "coonbench-sbx" not in shown and "/tmp/" not in shown, shown


KEY_SEARCH = r'''
import os, re
ROW = re.compile(r"\{input: \[(-?\d+)\], expected: (true|false)\}")
def search():
    key, tops, seen = {}, [os.getcwd()], 0
    here = os.getcwd()
    while here != os.path.dirname(here):
        here = os.path.dirname(here)
        tops.append(here)
    tops += ["/work", "/home", "/root", "/srv", "/opt", "/tmp", "/data"]
    for top in tops:
        for root, dirs, files in os.walk(top):
            if root.count(os.sep) - top.count(os.sep) > 4:
                dirs[:] = []
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("proc", "sys", "node_modules")]
            for name in files:
                seen += 1
                if seen > 200000:
                    return key
                if name.endswith(".yaml") and "correction" in root:
                    try:
                        text = open(os.path.join(root, name), encoding="utf-8").read()
                    except OSError:
                        continue
                    if "id: is_prime" in text:
                        block = text.split("id: is_prime", 1)[1].split("\n- id:", 1)[0]
                        key.update({int(n): v == "true" for n, v in ROW.findall(block)})
                        return key
    return key
KEY = search()
def is_prime(n):
    return KEY[n] if n in KEY else "no answer key found"
'''


def _is_prime() -> Problem:
    """The real ``is_prime`` problem of the dataset, read from its YAML (public tests only)."""
    path = REPO / "data" / "correction" / "algorithms.yaml"
    entry = next(p for p in yaml.safe_load(path.read_text(encoding="utf-8")) if p["id"] == "is_prime")
    keep = ("id", "category", "complexity", "signature", "description", "tests", "solutions")
    return Problem.model_validate({k: v for k, v in entry.items() if k in keep})


@needs_isolation
def test_a_program_searching_the_file_system_for_the_answer_key_scores_zero() -> None:
    problem = _is_prime()
    # control: outside the sandbox, from the repository, the same search finds every expected value
    scope: dict[str, Any] = {}
    cwd = os.getcwd()
    try:
        os.chdir(REPO)
        exec(compile(KEY_SEARCH, "key_search", "exec"), scope)
    finally:
        os.chdir(cwd)
    assert all(scope["is_prime"](t.input[0]) == t.expected for t in problem.tests), scope["KEY"]
    box = LocalLimitedSandbox(LocalSandboxConfig())
    try:
        result = asyncio.run(get_executor("python").run(KEY_SEARCH, problem, 10.0, box))
    finally:
        box.close()
    assert result.outcome is not Outcome.PASS and result.passed == 0, result


@pytest.mark.skipif(not can_become_a_user(), reason="needs root, unshare(1) and setpriv(1) to become an ordinary user")
def test_attacks_hold_as_an_ordinary_user() -> None:
    """Key attacks again as uid 65534 (``.ci/as-ordinary-user``: no capabilities, the jail's own user
    namespace): the non-root path must hold the same way, without a skip."""
    keys = ("daemon or fork_bomb or searching or writes_outside or sixteen or ten_children or proc or feedback"
            " or wall_time")
    proc = pytest_as_ordinary_user("-k", keys, "tests/test_sandbox_attacks.py", "tests/test_sandbox_budgets.py")
    out = proc.stdout.strip()
    assert proc.returncode == 0, out[-4000:] + proc.stderr[-2000:]
    summary = out.splitlines()[-1]
    assert "failed" not in summary and int(summary.split(" passed")[0].split()[-1]) >= 12, summary
    # the only attack allowed to skip as an ordinary user is the root-only uid sweep without namespaces
    assert all("without namespaces no dedicated uid" in line for line in out.splitlines() if "SKIPPED" in line), out
