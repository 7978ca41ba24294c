"""Every call the seccomp filter refuses, probed in the jail: the refused list, each argument rule, the x32 kill.

What must be refused is written here, as the issue names it (issue 56: a residency probe, an owner for SIGIO, a
process other than the caller named by a call, kernel objects no budget counts), not read from ``confine``; the
syscall numbers come from the kernel's headers where they exist; the fcntl, ioctl and open constants from Python's
``fcntl``, ``termios`` and ``os`` modules. Each refused call must fail with ``EPERM``; the allowed variant next to
it (``F_SETFL`` with ``O_NONBLOCK``, ``prlimit64`` on the caller, ``preadv2`` without flags) must still work, so a
filter that refuses everything fails too. The module runs as root, as uid 65534 and, under
``-T sandbox=unsafe-local``, as root of a user namespace (``test_filter_holds_in_every_identity``).
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import shutil
import signal
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from coonbench.execution import confine
from coonbench.execution.sandbox import LocalSandboxConfig, capabilities
from tests.sandboxed import can_become_a_user, pytest_as_ordinary_user, run_program

CAPS = capabilities()
MACHINE = os.uname().machine
needs_isolation = pytest.mark.skipif(CAPS["isolation"] != "full", reason=f"isolation here: {CAPS['isolation']}")
needs_filter = pytest.mark.skipif(MACHINE not in ("x86_64", "aarch64"), reason=f"no seccomp filter on {MACHINE}")
REPO = Path(__file__).resolve().parents[1]

# Refused whatever their arguments. x86_64 only: the legacy inotify_init (aarch64 has only inotify_init1).
MUST_REFUSE = (
    # residency probes of the page cache
    "mincore", "cachestat",
    # kernel memory no budget counts
    "inotify_init1", "inotify_add_watch", "inotify_rm_watch", "timerfd_create", "timerfd_settime",
    "timerfd_gettime", "msgget", "mq_open", "semget", "shmget", "memfd_create", "memfd_secret", "socket",
    "socketpair", "io_uring_setup", "io_uring_enter", "io_uring_register", "add_key", "request_key", "keyctl",
    "userfaultfd", "bpf", "perf_event_open", "fanotify_init",
    # naming another process
    "pidfd_open", "pidfd_send_signal", "pidfd_getfd", "process_madvise", "process_vm_readv", "process_vm_writev",
    "ptrace", "ioprio_set",
    # namespaces and mounts
    "unshare", "setns", "mount", "umount2", "pivot_root", "open_tree", "move_mount", "fsopen", "fsconfig",
    "fsmount", "fspick", "mount_setattr",
    # the machine
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "open_by_handle_at", "swapon",
    "swapoff", "reboot", "acct", "quotactl", "syslog",
    # a struct of flags the filter cannot read
    "openat2",
)
X86_ONLY = ("inotify_init",)
HEADERS = {"x86_64": ("/usr/include/x86_64-linux-gnu/asm/unistd_64.h", r"#define __NR_(\w+)\s+(\d+)"),
           "aarch64": ("/usr/include/asm-generic/unistd.h", r"#define __NR(?:3264)?_(\w+)\s+(\d+)")}
NEWER_THAN_HEADERS = {"cachestat": 451}  # Linux 6.5, the same number on both machines


def numbers() -> dict[str, int]:
    """System call numbers of this machine: the kernel headers where they exist, else confine's own table."""
    path, pattern = HEADERS[MACHINE]
    if Path(path).exists():
        found = {name: int(nr) for name, nr in re.findall(pattern, Path(path).read_text())}
        return {**NEWER_THAN_HEADERS, **found}
    return {**confine.SYSCALLS[MACHINE][1], **confine.ALLOWED[MACHINE]}


F_SETOWN_EX = 15  # not in Python's fcntl module (include/uapi/asm-generic/fcntl.h)
FIOSETOWN, SIOCSPGRP = 0x8901, 0x8902  # include/uapi/linux/sockios.h (termios lacks them on Linux)
RWF_NOWAIT = 0x8
CLONE_PARENT, SIGCHLD = 0x8000, 17
# (label, call, arguments, refused?) with placeholders: W a pipe's write end, F a file's fd, V an iovec,
# P the parent (the supervisor's place), S this process, N a path.
ARG_CASES = [
    *((f"fcntl {name}", "fcntl", ("W", cmd, "P"), True) for name, cmd in (
        ("F_SETOWN", fcntl.F_SETOWN), ("F_SETSIG", fcntl.F_SETSIG), ("F_SETOWN_EX", F_SETOWN_EX),
        ("F_SETLEASE", fcntl.F_SETLEASE), ("F_NOTIFY", fcntl.F_NOTIFY), ("F_SETPIPE_SZ", fcntl.F_SETPIPE_SZ))),
    ("fcntl F_SETFL O_ASYNC", "fcntl", ("W", fcntl.F_SETFL, os.O_ASYNC), True),
    ("fcntl F_SETFL O_NONBLOCK", "fcntl", ("W", fcntl.F_SETFL, os.O_NONBLOCK), False),
    *((f"ioctl {name}", "ioctl", ("W", request, 0), True) for name, request in (
        ("FIOSETOWN", FIOSETOWN), ("SIOCSPGRP", SIOCSPGRP), ("FIOASYNC", termios.FIOASYNC),
        ("TIOCSPGRP", termios.TIOCSPGRP), ("TIOCSTI", termios.TIOCSTI))),
    ("openat O_ASYNC", "openat", (-100, "N", os.O_RDONLY | os.O_ASYNC, 0), True),
    ("openat", "openat", (-100, "N", os.O_RDONLY, 0), False),
    ("preadv2 RWF_NOWAIT", "preadv2", ("F", "V", 1, 0, 0, RWF_NOWAIT), True),
    ("pwritev2 RWF_NOWAIT", "pwritev2", ("W", "V", 1, -1, -1, RWF_NOWAIT), True),
    ("preadv2", "preadv2", ("F", "V", 1, 0, 0, 0), False),
    ("prlimit64 parent", "prlimit64", ("P", 7, 0, 0), True),
    ("prlimit64 self", "prlimit64", (0, 7, 0, 0), False),
    ("setpriority parent", "setpriority", (0, "P", 0), True),
    ("setpriority user", "setpriority", (2, 0, 19), True),
    ("sched_setaffinity parent", "sched_setaffinity", ("P", 0, 0), True),
    ("sched_setparam parent", "sched_setparam", ("P", 0), True),
    ("sched_setscheduler parent", "sched_setscheduler", ("P", 0, 0), True),
    ("clone CLONE_PARENT", "clone", (CLONE_PARENT | SIGCHLD, 0, 0, 0, 0), True),
    ("clone CLONE_NEWUSER", "clone", (0x10000000 | SIGCHLD, 0, 0, 0, 0), True),
    *((f"{label} {signal.Signals(sig).name}", call, args, True)
      for sig in (int(signal.SIGSTOP), int(signal.SIGTSTP), int(signal.SIGTTIN), int(signal.SIGTTOU))
      for label, call, args in (("kill", "kill", ("P", sig)), ("kill-all", "kill", (-1, sig)),
                                ("kill-group", "kill", (0, sig)), ("tkill", "tkill", ("P", sig)),
                                ("tgkill", "tgkill", ("P", "P", sig)), ("rt_sigqueueinfo", "rt_sigqueueinfo", ("P", sig, 0)),
                                ("rt_tgsigqueueinfo", "rt_tgsigqueueinfo", ("P", "P", sig, 0)))),
    ("kill SIGCONT", "kill", ("S", int(signal.SIGCONT)), False),
]

PROBE = """import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
r, w = os.pipe()
f = os.open("/usr/bin/env", os.O_RDONLY)
buf = ctypes.create_string_buffer(16)
iov = (ctypes.c_void_p * 2)(ctypes.addressof(buf), 16)
path = ctypes.create_string_buffer(b"/dev/null")
slot = {{"W": w, "F": f, "V": ctypes.addressof(iov), "P": os.getppid(), "S": os.getpid(), "N": ctypes.addressof(path)}}
for label, nr, args in {cases!r}:
    ctypes.set_errno(0)
    ret = libc.syscall(ctypes.c_long(nr), *(ctypes.c_long(slot.get(a, a) if isinstance(a, str) else a) for a in args))
    print("CALL", label.replace(" ", "_"), ret, ctypes.get_errno() if ret == -1 else 0, flush=True)
    if ret > 2 and label.startswith("openat"):
        os.close(ret)
print("DONE", flush=True)
"""


def probe_cases() -> list[tuple[str, int, tuple[object, ...], bool]]:
    """(label, number, arguments, refused?) for every refused call with all-zero arguments and every rule above."""
    nr = numbers()
    names = [*MUST_REFUSE, *(X86_ONLY if MACHINE == "x86_64" else ())]
    cases = [(f"refused {name}", nr[name], (0, 0, 0, 0, 0, 0), True) for name in names]
    return cases + [(label, nr[call], args, refused) for label, call, args, refused in ARG_CASES]


def run_probe(config: LocalSandboxConfig | None = None) -> tuple[str, list[str]]:
    """The probe's output and the lines of what did not behave (empty when every case did)."""
    cases = probe_cases()
    result = run_program(PROBE.format(cases=[(label, number, args) for label, number, args, _ in cases]), config)
    return result.stdout + result.stderr[-800:], check_probe(result.stdout, cases)


def check_probe(out: str, cases: list[tuple[str, int, tuple[object, ...], bool]]) -> list[str]:
    seen = {line.split()[1]: (int(line.split()[2]), int(line.split()[3]))
            for line in out.splitlines() if line.startswith("CALL ")}
    wrong = []
    for label, _, _, refused in cases:
        got = seen.get(label.replace(" ", "_"))
        if got is None or (got == (-1, errno.EPERM)) != refused:
            wrong.append(f"{label}: {got} ({'must be refused' if refused else 'must work'})")
    if "DONE" not in out:
        wrong.append("the probe did not finish")
    return wrong


def test_the_spec_covers_every_call_the_filter_refuses() -> None:
    """A call confine refuses that this module does not name would go unprobed."""
    assert set(confine.refused_syscalls()) <= {*MUST_REFUSE, *X86_ONLY}, set(confine.refused_syscalls()) - set(MUST_REFUSE)


@needs_isolation
@needs_filter
def test_every_refused_call_and_argument_rule_fails_with_eperm() -> None:
    out, wrong = run_probe()
    assert not wrong, "\n".join(wrong) + "\n" + out[-3000:]


X32 = """import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
print("BEFORE", flush=True)
print("GOT", libc.syscall(ctypes.c_long(0x40000000 | 39)), flush=True)  # getpid under x32's numbering
"""


@needs_isolation
@pytest.mark.skipif(MACHINE != "x86_64", reason="x32 numbering exists on x86_64 only")
def test_an_x32_call_kills_the_process() -> None:
    result = run_program(X32)
    assert "BEFORE" in result.stdout and "GOT" not in result.stdout, result.stdout
    assert result.returncode == -signal.SIGSYS, (result.returncode, result.stderr[-500:])


UNSAFE_DRIVER = """import sys
sys.path.insert(0, {repo!r})
from coonbench.execution.sandbox import LocalSandboxConfig
from tests.test_sandbox_filter import run_probe
out, wrong = run_probe(LocalSandboxConfig(unsafe=True))
print("WRONG", len(wrong))
print("\\n".join(wrong))
print(out[-2000:])
"""


@pytest.mark.slow  # ~40 s: the probe as uid 65534 and as root of a user namespace under unsafe-local
@needs_filter
def test_filter_holds_in_every_identity() -> None:
    """As uid 65534 (``.ci/as-ordinary-user``) and as root of a user namespace (``unshare --map-root-user``, with
    ``-T sandbox=unsafe-local``): the same probe, every case as above. An identity that cannot be taken here is
    a skip with its reason; a sandbox that does not start in it is a failure."""
    ran = []
    if shutil.which("unshare") and subprocess.run(["unshare", "--user", "--map-root-user", "true"]).returncode == 0:
        proc = subprocess.run(["unshare", "--user", "--map-root-user", sys.executable, "-c",
                               UNSAFE_DRIVER.format(repo=str(REPO))], capture_output=True, text=True, timeout=300,
                              cwd=REPO)
        assert "WRONG 0" in proc.stdout, proc.stdout[-4000:] + proc.stderr[-2000:]
        ran.append("userns root")
    if can_become_a_user():
        proc = pytest_as_ordinary_user("-k", "every_refused or x32", "tests/test_sandbox_filter.py")
        last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
        assert proc.returncode == 0 and "passed" in last and "skipped" not in last, proc.stdout[-4000:] + proc.stderr[-2000:]
        ran.append("uid 65534")
    if not ran:
        pytest.skip("needs unshare(1) with user namespaces, or root with setpriv(1), to take another identity")


def kernel_gives_namespaces() -> bool:
    """Does ``unshare(1)`` (a second implementation) create the namespaces the jail needs, for this user?"""
    if not shutil.which("unshare"):
        return False
    flags = ["--pid", "--mount", "--net", "--fork"] if os.geteuid() == 0 else ["--user", "--pid", "--mount", "--net",
                                                                             "--fork"]
    return subprocess.run(["unshare", *flags, "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not kernel_gives_namespaces(), reason="unshare(1) cannot create pid, mount and net namespaces here")
def test_isolation_is_full_where_the_kernel_gives_namespaces() -> None:
    """The sandbox tests skip where isolation is not "full": a jail that fails to start (a filter that kills its
    own supervisor, say) must not turn them all into skips. Where ``unshare(1)`` makes the namespaces, the jail
    must too (unless the program would be the host's root, which is refused by design)."""
    from coonbench.execution.isolation import program_would_be_host_root

    if program_would_be_host_root():
        pytest.skip("the program would be the host's root here: refused by design")
    assert CAPS["isolation"] == "full", CAPS


SIGIO_STOP = """import fcntl, os, signal, termios
def _aim(fd, target):
    for step in (lambda: fcntl.fcntl(fd, fcntl.F_SETOWN, target), lambda: fcntl.fcntl(fd, fcntl.F_SETSIG, signal.SIGSTOP),
                 lambda: fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_ASYNC),
                 lambda: fcntl.ioctl(fd, 0x8901, target.to_bytes(4, "little")),  # FIOSETOWN
                 lambda: fcntl.ioctl(fd, termios.FIOASYNC, (1).to_bytes(4, "little"))):
        try:
            step()
        except OSError:
            pass
def abs_value(n):
    for target in (os.getppid(), -os.getpgid(os.getppid())):
        r, w = os.pipe()
        _aim(r, target)
        _aim(w, target)
        os.write(w, b"x")  # with SIGIO aimed at the supervisor, the kernel would send it SIGSTOP now
        os.read(r, 1)
    return -1
"""


@needs_isolation
def test_sigio_cannot_stop_the_supervisor() -> None:
    """Issue 56's attack: ``F_SETOWN`` (or ``FIOSETOWN``) on the supervisor, ``F_SETSIG(SIGSTOP)``, ``O_ASYNC`` (or
    ``FIOASYNC``) on a pipe the program owns, one write. The supervisor must go on: the attempt is a wrong
    answer on every test within seconds, not a timeout at the whole run's wall clock."""
    import asyncio
    import time

    from coonbench.datasets.correction import problem_by_id
    from coonbench.execution import Outcome, get_executor
    from coonbench.execution.sandbox import LocalLimitedSandbox

    problem = problem_by_id("abs_value")
    box = LocalLimitedSandbox(LocalSandboxConfig())
    start = time.monotonic()
    try:
        result = asyncio.run(get_executor("python").run(SIGIO_STOP, problem, 1.0, box))
    finally:
        box.close()
    elapsed = time.monotonic() - start
    assert result.outcome is Outcome.WRONG_OUTPUT and result.passed == 0, result
    assert elapsed < 60, elapsed  # a stopped supervisor hangs the run to its wall clock: 105 s here
