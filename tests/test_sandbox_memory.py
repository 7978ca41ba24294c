"""Memory by any means: each attack tries to hold 3 GiB, past the sample's 2 GiB budget, by one mechanism.

Anonymous memory shared between processes (``MAP_SHARED|MAP_ANONYMOUS``, which the kernel counts as shared
memory, not as anonymous), 192 memfds of 16 MiB (``posix_fallocate``: pages held by a file descriptor alone, in
no process's resident set), ``/dev/shm``, SysV shared memory (held by the IPC namespace, by no process), tmpfs
files and pipe buffers. Each program reports what it holds; the sample is killed at the budget or holds no more
than it. Private anonymous memory is ``test_sandbox_budgets``' ten children of 420 MiB. The module runs as root
(cgroup) and, through ``.ci/run`` and ``test_memory_attacks_hold_as_an_ordinary_user``, as uid 65534 (the jail's
memory watchdog); a mechanism the kernel refuses is refused for the program too, which the test accepts (the
report says which).
"""

from __future__ import annotations

import pytest

from coonbench.execution.sandbox import LocalSandboxConfig, capabilities
from tests.sandboxed import can_become_a_user, pytest_as_ordinary_user, run_program

CAPS = capabilities()
MIB = 1024 * 1024
needs_isolation = pytest.mark.skipif(CAPS["isolation"] != "full", reason=f"isolation here: {CAPS['isolation']}")

HEADER = """import ctypes, mmap, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
MIB = 1024 * 1024
held = 0
def report(how):
    print("HELD", held, how, flush=True)
def fork_children(n, work):
    # n children each run work(w), then hold what they made; w: a pipe to the parent (its read end returned)
    r, w = os.pipe()
    kids = []
    for _ in range(n):
        pid = os.fork()
        if pid == 0:
            work(w)
            time.sleep(60)
            os._exit(0)
        kids.append(pid)
    os.close(w)
    return r, kids
"""
SIXTEEN_MIB_PIECES = """
fds = []
try:
    for i in range(192):
        {make}
        held += 16 * MIB
except OSError as exc:
    report(f"refused: {{exc}}")
time.sleep(3)  # held: the budget's enforcer (cgroup or the 10 ms watchdog) acts well within this
report("done")
"""  # 192 pieces of 16 MiB (each within RLIMIT_FSIZE): 3 GiB
ATTACKS = {
    # four processes of 800 MiB of shared anonymous memory, each within its own 1 GiB address space
    "shared-anonymous": HEADER + """
def touch(w):
    global block
    block = mmap.mmap(-1, 800 * MIB, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
    for i in range(0, len(block), 4096):
        block[i] = 1
    os.write(w, b"+")  # all 800 MiB touched
r, kids = fork_children(4, touch)
import select
done, dead, end = b"", set(), time.monotonic() + 60
while len(done) + len(dead) < len(kids) and time.monotonic() < end:  # each child touched its memory, or died
    if select.select([r], [], [], 0.2)[0]:
        done += os.read(r, 16)
    dead |= {p for p in kids if p not in dead and os.waitpid(p, os.WNOHANG) != (0, 0)}
time.sleep(3)  # held: the budget's enforcer (cgroup or the 10 ms watchdog) acts well within this
dead |= {p for p in kids if p not in dead and os.waitpid(p, os.WNOHANG) != (0, 0)}
held = 800 * MIB * min(len(kids) - len(dead), len(done))
report("shared anonymous")
""",
    "memfd": HEADER + SIXTEEN_MIB_PIECES.format(
        make='fds.append(os.memfd_create(f"m{i}"))\n        os.posix_fallocate(fds[-1], 0, 16 * MIB)'),
    "dev-shm": HEADER + SIXTEEN_MIB_PIECES.format(make='open(f"/dev/shm/f{i}", "wb").write(b"x" * 16 * MIB)'),
    "sysv-shm": HEADER + """
libc.shmat.restype = ctypes.c_void_p
for i in range(192):
    sid = libc.shmget(0, ctypes.c_size_t(16 * MIB), 0o1600)
    if sid < 0:
        report(f"refused: errno {ctypes.get_errno()}")
        break
    addr = libc.shmat(sid, None, 0)
    if addr in (None, ctypes.c_void_p(-1).value):
        report(f"shmat refused: errno {ctypes.get_errno()}")
        break
    ctypes.memset(addr, 1, 16 * MIB)
    libc.shmdt(ctypes.c_void_p(addr))  # detached: held by the IPC namespace alone
    held += 16 * MIB
time.sleep(3)  # held: the budget's enforcer (cgroup or the 10 ms watchdog) acts well within this
report("sysv shm")
""",
    "tmpfs-files": HEADER + """
for n, where in enumerate(sorted({os.path.realpath(p) for p in (".", "/tmp", os.environ.get("TMPDIR", "."), "/dev")})):
    for i in range(192):
        try:
            with open(os.path.join(where, f"fill-{n}-{i}"), "wb") as fh:
                fh.write(b"x" * 16 * MIB)
            held += 16 * MIB
        except OSError as exc:
            report(f"{where} refused: {exc}")
            break
time.sleep(3)  # held: the budget's enforcer (cgroup or the 10 ms watchdog) acts well within this
report("tmpfs files")
""",
    # sixteen processes fill pipes of 1 MiB until the kernel refuses (per-user pipe quota, open-file limit)
    "pipes": HEADER + """
import fcntl
def fill(w):
    global pipes
    mine, pipes = 0, []
    try:
        while mine < 256 * MIB:
            a, b = os.pipe()
            pipes.append((a, b))
            try:
                fcntl.fcntl(b, fcntl.F_SETPIPE_SZ, MIB)
            except OSError:
                pass
            os.set_blocking(b, False)
            try:
                while True:
                    mine += os.write(b, b"x" * 65536)
            except BlockingIOError:
                pass
    except OSError:
        pass
    os.write(w, f"{mine}\\n".encode())
r, kids = fork_children(16, fill)
data = b""
while data.count(b"\\n") < len(kids) and (chunk := os.read(r, 4096)):
    data += chunk
held = sum(int(x) for x in data.split())
report("pipes")
""",
}


def run_attack(name: str) -> tuple[int, list[int], str]:
    """(return code, the HELD values printed, output) of one attack in a fresh sample."""
    result = run_program(ATTACKS[name], timeout=90)
    held = [int(line.split()[1]) for line in result.stdout.splitlines() if line.startswith("HELD ")]
    return result.returncode, held, result.stdout + result.stderr[-500:]


@needs_isolation
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_memory_by_any_means_stays_within_the_sample_budget(name: str) -> None:
    budget = LocalSandboxConfig().sample_memory_mb * MIB
    code, held, output = run_attack(name)
    killed = code == -9
    assert killed or held, output  # it ran to its report, or it was stopped
    assert all(h <= budget for h in held), f"{name} held {max(held) / MIB:.0f} MiB (budget {budget // MIB} MiB): {output}"
    if name == "shared-anonymous":  # the allocation itself is allowed: only the budget stops it
        assert killed or max(held) <= budget, output
    if name in ("memfd", "sysv-shm", "dev-shm"):  # refused outright: nothing held
        assert held[-1] == 0 and "refused" in output, output


@pytest.mark.skipif(not can_become_a_user(), reason="needs root, unshare(1) and setpriv(1) to become an ordinary user")
def test_memory_attacks_hold_as_an_ordinary_user() -> None:
    """The same attacks as uid 65534: no cgroup, the jail's watchdog and the seccomp filter hold the budget."""
    proc = pytest_as_ordinary_user("-k", "any_means", "tests/test_sandbox_memory.py")
    out = proc.stdout.strip()
    assert proc.returncode == 0, out[-4000:] + proc.stderr[-2000:]
    assert f"{len(ATTACKS)} passed" in out.splitlines()[-1], out
