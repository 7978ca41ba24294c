"""The local sandbox's jail: run one command as a dedicated uid inside fresh namespaces, stdlib only.

Started by ``coonbench.execution.sandbox`` as ``python -I -S jail.py CONFIG_JSON EXE ARG…`` in a new session.
The outer process (root, host PID namespace) unshares the namespaces the config names and forks; the child is
PID 1 of a fresh PID namespace: it builds an empty root view (read-only ``/usr`` and the libraries, ``/dev/null``
and friends, the sample directory read-write, an empty ``/etc``), chroots into it and forks the command, which
drops to the dedicated uid with rlimits (CPU, address space, file size, processes, no core) and
``no_new_privs``. When the command ends, PID 1 exits and the kernel kills every process left in the namespace,
``setsid`` daemons included. The exit status is passed on (a signal ``s`` as ``128 + s``).

Kept free of imports from coonbench: it is executed as a script, as root, before anything else is set up.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import signal
import sys
from typing import Any

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
NAMESPACE_FLAGS = {"pid": CLONE_NEWPID, "mount": CLONE_NEWNS, "net": CLONE_NEWNET, "ipc": CLONE_NEWIPC,
                   "uts": CLONE_NEWUTS, "user": CLONE_NEWUSER}
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS = 1, 38
ROOT_MOUNTPOINT = "/tmp/.coonbench-jail-root"  # an empty directory; the tmpfs on it lives in the private namespace
SYSTEM_DIRS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr")
DEVICES = ("null", "zero", "random", "urandom")
EXEC_FAILED = 127

_libc = ctypes.CDLL(None, use_errno=True)


def _check(ret: int, what: str) -> None:
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def unshare(flags: int) -> None:
    """``unshare(2)``."""
    _check(_libc.unshare(ctypes.c_int(flags)), "unshare")


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    """``mount(2)``."""
    enc = [None if s is None else s.encode() for s in (source, target, fstype, data)]
    _check(_libc.mount(enc[0], enc[1], enc[2], ctypes.c_ulong(flags), enc[3]), f"mount {target}")


def prctl(option: int, value: int) -> None:
    """``prctl(2)`` with one argument."""
    _check(_libc.prctl(ctypes.c_int(option), ctypes.c_ulong(value), 0, 0, 0), "prctl")


def _bind(source: str, target: str, writable: bool) -> None:
    mount(source, target, None, MS_BIND | MS_REC)
    flags = MS_BIND | MS_REMOUNT | MS_NOSUID | MS_NODEV | (0 if writable else MS_RDONLY)
    mount(None, target, None, flags)


def build_root(sample_dir: str, with_proc: bool, extra_dirs: list[str]) -> None:
    """Chroot into an empty tmpfs holding only what a runner needs (see module doc); ``extra_dirs`` are bound
    read-only at their own path (the directory of a program outside the system directories, e.g. ``goth``)."""
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    os.makedirs(ROOT_MOUNTPOINT, exist_ok=True)
    root = ROOT_MOUNTPOINT
    mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m")
    for name in SYSTEM_DIRS:
        host = "/" + name
        inside = os.path.join(root, name)
        if os.path.islink(host):
            os.symlink(os.readlink(host), inside)
        elif os.path.isdir(host):
            os.mkdir(inside)
            _bind(host, inside, writable=False)
    for name in ("etc", "dev", "proc", "tmp"):
        os.mkdir(os.path.join(root, name), 0o755)
    for dev in DEVICES:
        inside = os.path.join(root, "dev", dev)
        open(inside, "w").close()
        mount("/dev/" + dev, inside, None, MS_BIND)
    for extra in extra_dirs:
        inside = root + extra
        if not os.path.exists(inside):
            os.makedirs(inside, mode=0o755)
            _bind(extra, inside, writable=False)
    inside = root + sample_dir
    os.makedirs(inside, mode=0o755, exist_ok=True)
    _bind(sample_dir, inside, writable=True)
    os.chroot(root)
    os.chdir("/")
    if with_proc:
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    mount(None, "/", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)


def _exec_command(cfg: dict[str, Any], argv: list[str]) -> None:
    """In the command's process: limits, identity, then exec (never returns)."""
    try:
        cpu = int(cfg["cpu_s"])
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        mem = int(cfg["memory_mb"]) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        fsize = int(cfg["file_size_mb"]) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        uid = cfg.get("uid")
        if uid is not None:
            nproc = int(cfg["nproc"])
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
        prctl(PR_SET_NO_NEW_PRIVS, 1)
        os.chdir(cfg["workdir"])
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.execve(argv[0], argv, cfg["env"])
    except BaseException as exc:  # noqa: BLE001 - report and leave with a distinct code
        os.write(2, f"jail: cannot start {argv[0]}: {exc}\n".encode())
    os._exit(EXEC_FAILED)


def _status_code(status: int) -> int:
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


def _pid1(cfg: dict[str, Any], argv: list[str]) -> None:
    """PID 1 of the namespace: set up the root view, run the command, reap orphans, exit with its status."""
    code = EXEC_FAILED
    try:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        namespaces = set(cfg["namespaces"])
        if "mount" in namespaces:
            build_root(cfg["sample_dir"], with_proc="pid" in namespaces, extra_dirs=cfg.get("extra_dirs", []))
        child = os.fork()
        if child == 0:
            _exec_command(cfg, argv)
        while True:
            try:
                pid, status = os.wait()
            except ChildProcessError:
                break
            if pid == child:
                code = _status_code(status)
                break
    except BaseException as exc:  # noqa: BLE001
        os.write(2, f"jail: {exc}\n".encode())
    os._exit(code)


def main(argv: list[str]) -> int:
    """Outer process: unshare, fork PID 1, wait for it, pass on its status."""
    cfg = json.loads(argv[1])
    command = argv[2:]
    parent = int(cfg["parent"])
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the host died before we set the death signal
        return EXEC_FAILED
    flags = 0
    for name in cfg["namespaces"]:
        flags |= NAMESPACE_FLAGS[name]
    if flags:
        unshare(flags)
    pid = os.fork()
    if pid == 0:
        _pid1(cfg, command)
    _, status = os.waitpid(pid, 0)
    return _status_code(status)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except OSError as exc:
        os.write(2, f"jail: {exc}\n".encode())
        sys.exit(EXEC_FAILED)
