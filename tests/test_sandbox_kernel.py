"""The jail's default-deny edges: foreign architectures, kernel memory no budget counts, capabilities.

- seccomp: a system call under another architecture (i386's ``int 0x80`` on x86_64: ``memfd_create`` 356,
  ``shmget`` 395, ``getpid`` 20) kills the process; ``socket``/``socketpair`` (socket buffers: kernel memory in no
  process's resident set), ``fcntl(F_SETPIPE_SZ)``, ``io_uring_setup``, ``add_key``, ``keyctl``, ``userfaultfd``,
  ``bpf``, ``perf_event_open``, ``unshare`` and ``clone`` with a namespace flag are refused; threads and ``fork``
  still work (``clone3`` reads as absent, the C library falls back to ``clone``);
- kernel memory: a socketpair flood and pipe buffers stay within a small budget (256 MiB here), each attack capped
  at 384 MiB, and run under a host-memory guard: a thread that kills the sample if the host's available memory
  falls by more than 1 GiB while it runs (a failing test cannot take the host down);
- capabilities: the command holds none (``CapEff``, ``CapBnd``, ``CapAmb``), as root, as uid 65534, and under
  ``-T sandbox=unsafe-local`` as root of a user namespace.
The module runs as root and, through ``test_kernel_edges_hold_as_an_ordinary_user``, as uid 65534.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from inspect_ai.util import ExecResult

from coonbench.execution import confine
from coonbench.execution.sandbox import LocalSandboxConfig, capabilities
from tests.sandboxed import can_become_a_user, pytest_as_ordinary_user, run_program

CAPS = capabilities()
MIB = 1024 * 1024
BUDGET_MB = 256
ATTACK_MB = 384  # past the budget, far from the host's memory
GUARD_DROP = 1024 * MIB
x86_64 = pytest.mark.skipif(os.uname().machine != "x86_64", reason="i386 system calls exist on x86_64 only")
needs_isolation = pytest.mark.skipif(CAPS["isolation"] != "full", reason=f"isolation here: {CAPS['isolation']}")

I386 = """import ctypes, mmap, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
MIB = 1024 * 1024
def low_page():
    addr = libc.mmap(None, 4096, 7, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | 0x40, -1, 0)  # MAP_32BIT
    assert addr not in (None, ctypes.c_void_p(-1).value)
    return addr
def i386(nr, ebx=0, ecx=0, edx=0):
    # push rbx; mov eax, nr; mov ebx, a; mov ecx, b; mov edx, c; int 0x80; pop rbx; ret
    code = (b"\\x53\\xb8" + nr.to_bytes(4, "little") + b"\\xbb" + ebx.to_bytes(4, "little") + b"\\xb9"
            + ecx.to_bytes(4, "little") + b"\\xba" + edx.to_bytes(4, "little") + b"\\xcd\\x80\\x5b\\xc3")
    page = low_page()
    ctypes.memmove(page, code, len(code))
    return ctypes.CFUNCTYPE(ctypes.c_int)(page)()
"""
I386_ATTACKS = {
    "getpid": I386 + "print('GOT', i386(20), flush=True)\n",
    "memfd_create": I386 + f"""
name = low_page()
ctypes.memmove(name, b"m\\0", 2)
held = 0
for i in range({ATTACK_MB // 16}):
    fd = i386(356, name, 0)
    if fd < 0:
        print("REFUSED", -fd, flush=True)
        break
    os.posix_fallocate(fd, 0, 16 * MIB)
    held += 16 * MIB
print("HELD", held, flush=True)
""",
    "shmget": I386 + f"""
libc.shmat.restype = ctypes.c_void_p
held = 0
for i in range({ATTACK_MB // 16}):
    sid = i386(395, 0, 16 * MIB, 0o1600)
    if sid < 0:
        print("REFUSED", -sid, flush=True)
        break
    addr = libc.shmat(sid, None, 0)
    ctypes.memset(addr, 1, 16 * MIB)
    libc.shmdt(ctypes.c_void_p(addr))
    held += 16 * MIB
print("HELD", held, flush=True)
""",
}

SOCKET_FLOOD = f"""import os, socket, time
held = 0
pairs = []
try:
    while held < {ATTACK_MB} * 1024 * 1024:
        a, b = socket.socketpair()
        pairs.append((a, b))
        a.setblocking(False)
        try:
            while held < {ATTACK_MB} * 1024 * 1024:
                held += a.send(b"x" * 65536)
        except BlockingIOError:
            pass
except OSError as exc:
    print("REFUSED", exc, flush=True)
time.sleep(2)
print("HELD", held, flush=True)
"""

PIPES = f"""import fcntl, os, time
held, refused = 0, []
pipes = []
try:
    while held < {ATTACK_MB} * 1024 * 1024:
        r, w = os.pipe()
        pipes.append((r, w))
        try:
            fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, 1024 * 1024)
        except OSError as exc:
            refused.append(exc.errno)
        os.set_blocking(w, False)
        try:
            while True:
                held += os.write(w, b"x" * 65536)
        except BlockingIOError:
            pass
except OSError:
    pass
time.sleep(2)
print("SETPIPE_REFUSED", len(refused), sorted(set(refused)), flush=True)
print("HELD", held, flush=True)
"""

REFUSED_CALLS = ("io_uring_setup", "add_key", "keyctl", "userfaultfd", "bpf", "perf_event_open", "unshare",
                 "socket", "socketpair", "memfd_create", "shmget", "ptrace", "mount", "setns")
PROBE_CALLS = """import ctypes, os, threading
libc = ctypes.CDLL(None, use_errno=True)
for name, nr in {calls!r}:
    ret = libc.syscall(ctypes.c_long(nr), 0, 0, 0, 0, 0, 0)
    print("CALL", name, ret, ctypes.get_errno(), flush=True)
ret = libc.syscall(ctypes.c_long({clone}), ctypes.c_ulong(0x10000000 | 17), 0, 0, 0, 0)  # clone(CLONE_NEWUSER)
print("CALL clone-newuser", ret, ctypes.get_errno(), flush=True)
ret = libc.syscall(ctypes.c_long({unlisted}), 0, 0, 0, 0, 0)  # kcmp: on no list, absent to the program
print("CALL unlisted", ret, ctypes.get_errno(), flush=True)
t = threading.Thread(target=lambda: None); t.start(); t.join()
pid = os.fork()
if pid == 0:
    os._exit(7)
print("FORK", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)
for line in open("/proc/self/status"):
    if line.startswith(("CapEff", "CapPrm", "CapBnd", "CapAmb", "CapInh", "NoNewPrivs", "Seccomp:")):
        print("STATUS", *line.split(), flush=True)
"""


class HostGuard:
    """Kill the sample's jails (this process's children named ``coonbench-jail``: their process groups, PID 1 of
    each namespace with them) if the host's ``MemAvailable`` falls by more than ``GUARD_DROP`` while it runs."""

    def __init__(self) -> None:
        self.start = self.available()
        self.tripped = False
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)

    @staticmethod
    def available() -> int:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
        return 0

    def watch(self) -> None:
        while not self.done.wait(0.02):
            if self.start - self.available() > GUARD_DROP:
                self.tripped = True
                for pid in jails():
                    try:
                        os.killpg(pid, signal.SIGKILL)
                    except OSError:
                        pass

    def __enter__(self) -> HostGuard:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join()


def jails() -> list[int]:
    me = str(os.getpid())
    found = []
    for entry in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if entry.isdigit() and stat.rsplit(")", 1)[1].split()[1] == me and cmd.startswith(b"coonbench-jail"):
            found.append(int(entry))
    return found


def guarded(code: str) -> tuple[ExecResult[str], list[int]]:
    """Run ``code`` in a sample of ``BUDGET_MB`` under the host guard: (result, the HELD values printed)."""
    with HostGuard() as guard:
        result = run_program(code, LocalSandboxConfig(sample_memory_mb=BUDGET_MB), timeout=60)
    assert not guard.tripped, "the host guard killed the sample: host memory fell by more than 1 GiB"
    held = [int(line.split()[1]) for line in result.stdout.splitlines() if line.startswith("HELD ")]
    return result, held


@needs_isolation
@x86_64
@pytest.mark.parametrize("name", sorted(I386_ATTACKS))
def test_i386_system_calls_kill_the_process(name: str) -> None:
    result, held = guarded(I386_ATTACKS[name])
    assert result.returncode == -signal.SIGSYS, (result.returncode, result.stdout, result.stderr[-500:])
    assert held == [] and "GOT" not in result.stdout, result.stdout


@needs_isolation
def test_a_socketpair_flood_is_refused() -> None:
    result, held = guarded(SOCKET_FLOOD)
    assert "REFUSED" in result.stdout and held == [0], (result.stdout, result.stderr[-500:])


@needs_isolation
def test_pipes_keep_their_default_size_and_the_sample_its_budget() -> None:
    result, held = guarded(PIPES)
    out = result.stdout
    killed = result.returncode == -signal.SIGKILL
    assert killed or (held and held[-1] <= BUDGET_MB * MIB), (out, result.stderr[-500:])
    if not killed:
        assert "SETPIPE_REFUSED" in out and "[1]" in out, out  # every F_SETPIPE_SZ failed with EPERM


@needs_isolation
def test_refused_calls_fail_with_eperm_and_the_command_holds_no_capability() -> None:
    table = confine.SYSCALLS.get(os.uname().machine)
    if table is None:
        pytest.skip(f"no seccomp filter on {os.uname().machine}")
    calls = [(name, table[1][name]) for name in REFUSED_CALLS]
    unlisted = {"x86_64": 312, "aarch64": 272}[os.uname().machine]
    assert unlisted not in confine.ALLOWED[os.uname().machine].values()
    result = run_program(PROBE_CALLS.format(calls=calls, clone=table[1]["clone"], unlisted=unlisted), timeout=30)
    out = result.stdout
    assert result.returncode == 0, (out, result.stderr[-800:])
    for name in (*REFUSED_CALLS, "clone-newuser"):
        assert re.search(rf"^CALL {name} -1 1$", out, flags=re.M), (name, out)
    assert re.search(r"^CALL unlisted -1 38$", out, flags=re.M), out  # ENOSYS
    assert "FORK 7" in out, out
    status = {line.split()[1].rstrip(":"): line.split()[2] for line in out.splitlines() if line.startswith("STATUS")}
    for key in ("CapEff", "CapPrm", "CapBnd", "CapAmb", "CapInh"):
        assert int(status[key], 16) == 0, (key, status)
    assert status["NoNewPrivs"] == "1" and status["Seccomp"] == "2", status


def test_syscall_numbers_match_the_kernel_headers() -> None:
    """``confine.SYSCALLS`` against the system's own headers (a second source; skipped where they are absent)."""
    sources = {"x86_64": ("/usr/include/x86_64-linux-gnu/asm/unistd_64.h", r"#define __NR_(\w+)\s+(\d+)"),
               "aarch64": ("/usr/include/asm-generic/unistd.h", r"#define __NR(?:3264)?_(\w+)\s+(\d+)")}
    checked = 0
    for machine, (path, pattern) in sources.items():
        if not Path(path).exists():
            continue
        numbers = {name: int(nr) for name, nr in re.findall(pattern, Path(path).read_text())}
        for name, nr in {**confine.SYSCALLS[machine][1], **confine.ALLOWED[machine]}.items():
            if name in numbers or name not in ("fchmodat2", "newfstatat", "cachestat"):  # newer than some headers / renamed
                assert numbers.get(name) == nr, (machine, name, nr, numbers.get(name))
            checked += 1
    if not checked:
        pytest.skip("no kernel headers here")


@pytest.mark.slow  # ~50 s: pytest and this module's sandbox tests again, as uid 65534
@pytest.mark.skipif(not can_become_a_user(), reason="needs root, unshare(1) and setpriv(1) to become an ordinary user")
def test_kernel_edges_hold_as_an_ordinary_user() -> None:
    proc = pytest_as_ordinary_user("-k", "not ordinary_user and not headers", "tests/test_sandbox_kernel.py")
    out = proc.stdout.strip()
    assert proc.returncode == 0 and "passed" in out.splitlines()[-1], out[-4000:] + proc.stderr[-2000:]
    assert "skipped" not in out.splitlines()[-1] or os.uname().machine != "x86_64", out[-2000:]  # all of them ran


def test_seccomp_program_kills_a_foreign_architecture() -> None:
    """The filter's first instructions, read back: load the architecture, compare, kill on a mismatch."""
    arch, calls = confine.SYSCALLS["x86_64"]
    program = confine.seccomp_program(arch, calls, confine.ALLOWED["x86_64"])
    ins = [program[i:i + 8] for i in range(0, len(program), 8)]
    import struct
    first = [struct.unpack("HBBI", i) for i in ins[:3]]
    assert first[0] == (confine.LD_W_ABS, 0, 0, 4)
    assert first[1] == (confine.JEQ_K, 1, 0, arch)
    assert first[2] == (confine.RET_K, 0, 0, confine.RET_KILL_PROCESS)


UNSAFE_PROBE = """import ctypes, os, signal
libc = ctypes.CDLL(None, use_errno=True)
print("UID", os.getuid(), flush=True)
print("UMOUNT", libc.umount2(b"/proc/sys", 2), ctypes.get_errno(), flush=True)  # MNT_DETACH
try:
    open("/proc/sys/kernel/core_pattern", "w")
    print("CORE writable", flush=True)
except OSError as exc:
    print("CORE refused", exc.errno, flush=True)
for target in (os.getppid(), 1, -1):
    try:
        os.kill(target, signal.SIGSTOP)
        print("STOP sent", target, flush=True)
    except OSError as exc:
        print("STOP refused", exc.errno, flush=True)
for node in ("/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"):
    mode = os.stat(node).st_mode & 0o7777
    try:
        os.chmod(node, mode)  # the same mode: harmless if it works, but then chmod 000 would break the host
        print("CHMOD done", node, flush=True)
    except OSError as exc:
        print("CHMOD refused", exc.errno, flush=True)
with open("/dev/null", "w") as fh:
    print("NULL written", fh.write("x"), flush=True)
for line in open("/proc/self/status"):
    if line.startswith(("CapEff", "CapPrm", "CapBnd", "CapAmb")):
        print("STATUS", *line.split(), flush=True)
"""
DRIVER = """import sys
from coonbench.execution.sandbox import LocalSandboxConfig
from tests.sandboxed import run_program
result = run_program(sys.stdin.read(), LocalSandboxConfig(unsafe=True), timeout=30)
print(result.stdout)
print("RC", result.returncode, result.stderr[-500:])
"""


@pytest.mark.skipif(not shutil.which("unshare"), reason="needs unshare(1)")
def test_unsafe_local_as_root_of_a_user_namespace_holds_no_capability() -> None:
    """``unshare --user --map-root-user`` with ``-T sandbox=unsafe-local``: the program is uid 0 of that namespace
    but holds no capability: it cannot unmount the read-only ``/proc/sys``, open ``core_pattern`` for writing, or
    stop its supervisor (issue 43: it did all three), nor change the host's device nodes it sees as their owner
    (issue 56: ``/dev/null`` & co. are read-only binds, ``chmod`` fails with ``EROFS``; writing still works).
    Skipped only where ``unshare --user --map-root-user`` itself fails; a sandbox that does not start inside it
    is a failure."""
    if subprocess.run(["unshare", "--user", "--map-root-user", "true"], capture_output=True).returncode != 0:
        pytest.skip("unshare --user --map-root-user fails here: no user namespace")
    proc = subprocess.run(["unshare", "--user", "--map-root-user", sys.executable, "-c", DRIVER], input=UNSAFE_PROBE,
                          capture_output=True, text=True, timeout=120, cwd=Path(__file__).resolve().parents[1])
    out = proc.stdout
    assert "RC 0" in out and "UID 0" in out, out + proc.stderr[-1000:]
    assert out.count(f"CHMOD refused {errno.EROFS}") == 4 and "CHMOD done" not in out, out
    assert "NULL written 1" in out, out
    assert re.search(r"^UMOUNT -1 1$", out, flags=re.M), out
    assert "CORE refused" in out and "STOP sent" not in out and out.count("STOP refused 1") == 3, out
    status = {line.split()[1].rstrip(":"): line.split()[2] for line in out.splitlines() if line.startswith("STATUS")}
    assert status and all(int(v, 16) == 0 for v in status.values()), status
