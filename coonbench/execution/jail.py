"""The local sandbox's jail: run one command inside fresh namespaces with whole-sample limits, stdlib only.

``coonbench.execution.sandbox`` starts it as ``coonbench-jail -I -S -c BOOTSTRAP FD`` (``BOOTSTRAP``) in a new
session: this source and the configuration arrive on the inherited pipe ``FD``, so neither the jail's
configuration nor a host path appears in any command line the program can read (``/proc/1/cmdline``).

The outer process joins the sample's cgroups (when the host made some), unshares the namespaces the config names
and forks. As root these are plain namespaces and the command runs as the sample's dedicated uid; as any other
user they are created inside a fresh user namespace that maps only the caller's own uid and gid, and the command
runs as that uid without capabilities (``execve`` of a non-root uid drops them). The child is PID 1 of a fresh PID
namespace: it builds an empty root view (read-only ``/usr`` and the libraries: the private tmpfs copy of
``coonbench.execution.view`` where the host made one, else the host's; ``/dev/null`` and friends, an empty
``/etc``), copies the sample directory into a size-limited tmpfs at ``INSIDE`` (the disk budget), chroots, mounts
its own ``/proc`` with ``/proc/sys`` & co. read-only and ``/proc/kcore`` & co. masked (``harden_proc``), and forks
the command with rlimits, ``no_new_privs``, no capability and a default-deny seccomp filter (``confine.py``,
whose source is sent ahead of this one). While the command runs, PID 1 optionally polls the
namespace's anonymous resident memory every 10 ms and kills everything past the sample's budget (where no cgroup
is available). When the
command ends PID 1 kills every process left in the namespace (``setsid`` daemons included), copies the sample
directory back (regular files and directories only) and exits with the command's status (a signal ``s`` as
``128 + s``).
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import shutil
import signal
import stat
import sys
import time
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
MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 1024, 2048, 1 << 21
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
# statvfs f_flag bits that a bind remount inside a user namespace must keep (the kernel locks them)
KEEP_FLAGS = ((os.ST_NOSUID, MS_NOSUID), (os.ST_NODEV, MS_NODEV), (os.ST_NOEXEC, MS_NOEXEC),
              (os.ST_NOATIME, MS_NOATIME), (os.ST_NODIRATIME, MS_NODIRATIME), (os.ST_RELATIME, MS_RELATIME))
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS = 1, 4, 38
ROOT_MOUNTPOINT = "/tmp/.coonbench-jail-root"  # an empty directory; the tmpfs on it lives in the private namespace
INSIDE = "/sandbox"  # where the program sees its sample directory
SYSTEM_DIRS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr")
DEVICES = ("null", "zero", "random", "urandom")
EXEC_FAILED = 127
INODES = 4096  # files and directories in the sample directory
# /proc entries made read-only, and masked, inside the jail (Docker's and bubblewrap's lists)
PROC_READONLY = ("sys", "sysrq-trigger", "bus", "fs", "irq")
PROC_MASKED = ("kcore", "keys", "timer_list", "timer_stats", "sched_debug", "latency_stats", "acpi", "scsi", "asound",
               "kallsyms", "kmsg")
TREE_DEPTH = 64  # directories deeper in the sample directory are not copied (recursion and rmtree stay bounded)
MEMORY_KILLED = 137  # what a SIGKILL looks like: the budget watchdog's verdict
WATCH_INTERVAL_S = 0.01
NOFILE = 256  # open files per process: with 64 processes, what pipes and sockets can buffer stays bounded

BOOTSTRAP = (
    "import os,sys\nfd=int(sys.argv[1]);d=b''\nwhile 1:\n c=os.read(fd,65536)\n if not c:break\n d+=c\n"
    "os.close(fd);src,cfg=d.split(b'\\0',1);g={'__name__':'coonbench_jail'}\n"
    "exec(compile(src,'jail','exec'),g);sys.exit(g['run'](cfg))\n"
)

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


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def enter_user_namespace(flags: int) -> None:
    """Unshare ``flags`` plus a user namespace that maps only our own uid and gid (no root inside)."""
    uid, gid = os.geteuid(), os.getegid()
    unshare(flags | CLONE_NEWUSER)
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")


def _bind(source: str, target: str, writable: bool, device: bool = False) -> None:
    """Bind ``source`` at ``target``, then remount the bind ``nosuid`` and, unless ``writable``, read-only;
    ``nodev`` unless it is a ``device`` node (then ``noexec``): reading and writing a read-only bound device works,
    changing its inode (``chmod``, ``chown``, ``utime``) fails with ``EROFS`` for every identity."""
    mount(source, target, None, MS_BIND | MS_REC)
    locked = os.statvfs(target).f_flag
    flags = MS_BIND | MS_REMOUNT | MS_NOSUID | (MS_NOEXEC if device else MS_NODEV) | (0 if writable else MS_RDONLY)
    flags |= sum(ms for st, ms in KEEP_FLAGS if locked & st)
    mount(None, target, None, flags)


def build_root(extra_dirs: list[str], disk_mb: int, owner: int | None, view: str | None = None) -> str:
    """An empty tmpfs holding only what a runner needs (see module doc) plus a ``disk_mb`` tmpfs at ``INSIDE``;
    ``extra_dirs`` are bound read-only at their own path (the directory of a program outside the system
    directories, e.g. ``goth``). With ``view`` (``coonbench.execution.view``: a tmpfs copy of the programs and
    libraries the runners use) the system directories are its folders, not the host's: nothing a program reads
    there touches the host's page cache. Returns the new root (not entered yet)."""
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    os.makedirs(ROOT_MOUNTPOINT, exist_ok=True)
    root = ROOT_MOUNTPOINT
    mount("none", root, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m")
    for name in SYSTEM_DIRS:
        host = "/" + name
        inside = os.path.join(root, name)
        if os.path.islink(host):
            os.symlink(os.readlink(host), inside)
        elif os.path.isdir(host):
            os.mkdir(inside)
            shown = host if view is None else view + host
            if os.path.isdir(shown):  # a system directory the view holds nothing of stays empty
                _bind(shown, inside, writable=False)
    for name in ("etc", "dev", "proc", "tmp"):
        os.mkdir(os.path.join(root, name), 0o755)
    for dev in DEVICES:
        inside = os.path.join(root, "dev", dev)
        open(inside, "w").close()
        _bind("/dev/" + dev, inside, writable=False, device=True)  # the host's nodes, read-only: never changed
    for extra in extra_dirs:
        inside = root + extra
        if not os.path.exists(inside):
            os.makedirs(inside, mode=0o755)
            _bind(extra, inside, writable=False)
    inside = root + INSIDE
    os.mkdir(inside, 0o700)
    mount("none", inside, "tmpfs", MS_NOSUID | MS_NODEV, f"mode=0700,size={disk_mb}m,nr_inodes={INODES}")
    if owner is not None:
        os.chown(inside, owner, owner)
    return root


def harden_proc() -> None:
    """Inside the chroot, after ``/proc`` is mounted: what Docker and bubblewrap hide or freeze. ``PROC_READONLY``
    is bound read-only onto itself (``/proc/sys``: a uid 0 without capabilities, as a program is when the caller
    is the host's root seen through a user namespace, could otherwise open ``kernel/core_pattern`` for writing);
    ``PROC_MASKED`` files are covered by ``/dev/null`` and directories by an empty read-only tmpfs. An entry this
    kernel does not have is skipped; a mount that fails is an error (the jail then runs nothing)."""
    for name in PROC_READONLY:
        path = "/proc/" + name
        if os.path.lexists(path):
            _bind(path, path, writable=False)
    for name in PROC_MASKED:
        path = "/proc/" + name
        if os.path.isdir(path) and not os.path.islink(path):
            mount("none", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=0,mode=0555")
        elif os.path.exists(path):
            mount("/dev/null", path, None, MS_BIND)


def _copy_tree(src: int, dst: int, owner: int | None, budget: list[int], depth: int = 0) -> None:
    """Mirror directory ``src`` into ``dst`` (both fds): regular files and directories only, nothing followed,
    nothing deeper than ``TREE_DEPTH``; entries of ``dst`` that ``src`` lacks are removed. ``budget[0]``: bytes
    left to copy (sparse files count at their full size, which is what they take once copied)."""
    names = set(os.listdir(src))
    for name in os.listdir(dst):
        if name not in names:
            _remove(dst, name)
    for name in names:
        st = os.stat(name, dir_fd=src, follow_symlinks=False)
        if stat.S_ISDIR(st.st_mode) and depth >= TREE_DEPTH:
            try:
                _remove(dst, name)
            except FileNotFoundError:
                pass
            continue
        if stat.S_ISDIR(st.st_mode):
            try:
                if not stat.S_ISDIR(os.stat(name, dir_fd=dst, follow_symlinks=False).st_mode):
                    _remove(dst, name)
                    os.mkdir(name, 0o755, dir_fd=dst)
            except FileNotFoundError:
                os.mkdir(name, 0o755, dir_fd=dst)
            s = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=src)
            d = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=dst)
            try:
                _copy_tree(s, d, owner, budget, depth + 1)
            finally:
                os.close(s)
                os.close(d)
        elif stat.S_ISREG(st.st_mode):
            budget[0] -= st.st_size
            if budget[0] < 0:
                raise OSError("the sample directory holds more than its disk budget")
            _copy_file(src, dst, name, st.st_mode & 0o755)
        else:
            _remove(dst, name)
            continue
        if owner is not None:
            os.chown(name, owner, owner, dir_fd=dst, follow_symlinks=False)


def _copy_file(src: int, dst: int, name: str, mode: int) -> None:
    try:
        if stat.S_ISDIR(os.stat(name, dir_fd=dst, follow_symlinks=False).st_mode):
            _remove(dst, name)
    except FileNotFoundError:
        pass
    fin = os.open(name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=src)
    fout = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, mode | 0o600, dir_fd=dst)
    try:
        while chunk := os.read(fin, 1 << 20):
            os.write(fout, chunk)
    finally:
        os.close(fin)
        os.close(fout)


def _remove(dir_fd: int, name: str) -> None:
    st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    if stat.S_ISDIR(st.st_mode):
        shutil.rmtree(name, dir_fd=dir_fd)
    else:
        os.unlink(name, dir_fd=dir_fd)


if "confine" not in globals():  # imported as a module; sent to the jail, confine.py's source comes first (source())
    from coonbench.execution.confine import confine, drop_bounding_set


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
        resource.setrlimit(resource.RLIMIT_NOFILE, (NOFILE, NOFILE))  # bounds pipe and socket buffers held
        if cfg.get("nproc"):
            nproc = int(cfg["nproc"])
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        drop_bounding_set()
        uid = cfg.get("uid")
        if uid is not None:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
        prctl(PR_SET_NO_NEW_PRIVS, 1)
        confine()
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


def resident_bytes() -> int:
    """Resident anonymous and shared-memory pages (``RssAnon`` + ``RssShmem``: ``MAP_SHARED|MAP_ANONYMOUS`` and
    mapped tmpfs files too, not the libraries' file pages) of every process in this PID namespace but ourselves
    (PID 1), from its ``/proc``. A page shared between processes counts once per process: conservative."""
    total = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit() and entry != "1":
            try:
                with open(f"/proc/{entry}/status", "rb") as fh:
                    for line in fh:
                        if line.startswith((b"RssAnon:", b"RssShmem:")):
                            total += int(line.split()[1]) * 1024
            except (OSError, IndexError, ValueError):
                continue
    return total


def _wait_command(child: int, budget_mb: int | None) -> int:
    """Reap until ``child`` exits; with a budget, kill the namespace once its memory exceeds it."""
    # killed at 15/16 of the budget: between two polls the sample can touch some more memory
    budget = budget_mb * 1024 * 1024 * 15 // 16 if budget_mb else None
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG if budget else 0)
        except ChildProcessError:
            return EXEC_FAILED
        if pid == child:
            return _status_code(status)
        if pid:
            continue
        if resident_bytes() > budget:  # type: ignore[operator]
            os.kill(-1, signal.SIGKILL)
            os.write(2, f"jail: the sample's memory budget ({budget_mb} MiB) was exceeded\n".encode())
            os.waitpid(child, 0)
            return MEMORY_KILLED
        time.sleep(WATCH_INTERVAL_S)


def _kill_the_rest() -> None:
    """SIGKILL every other process of the namespace and reap them (PID 1's ``kill(-1)`` spares only itself)."""
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        pass
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


def _pid1(cfg: dict[str, Any], argv: list[str]) -> None:
    """PID 1 of the namespace: set up the root view, run the command, clean up, exit with its status."""
    code = EXEC_FAILED
    try:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        prctl(PR_SET_DUMPABLE, 0)
        namespaces = set(cfg["namespaces"])
        host = inside = None
        if "mount" in namespaces:
            host = os.open(cfg["sample_dir"], os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            root = build_root(cfg.get("extra_dirs", []), int(cfg["disk_mb"]), cfg.get("uid"), cfg.get("view"))
            inside = os.open(root + INSIDE, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            _copy_tree(host, inside, cfg.get("uid"), [int(cfg["disk_mb"]) << 20])
            os.chroot(root)
            os.chdir("/")
            if "pid" in namespaces:
                mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
                harden_proc()
            mount(None, "/", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
        child = os.fork()
        if child == 0:
            _exec_command(cfg, argv)
        watch = cfg.get("memory_watchdog_mb") if "pid" in namespaces and "mount" in namespaces else None
        code = _wait_command(child, watch)
        if "pid" in namespaces:
            _kill_the_rest()
        if host is not None and inside is not None:
            _copy_tree(inside, host, None, [int(cfg["disk_mb"]) << 20])
    except BaseException as exc:  # noqa: BLE001
        os.write(2, f"jail: {exc}\n".encode())
    os._exit(code)


def run(raw: bytes) -> int:
    """Outer process: join cgroups, unshare, fork PID 1, wait for it, pass on its status."""
    try:
        cfg = json.loads(raw)
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != int(cfg["parent"]):  # the host died before we set the death signal
            return EXEC_FAILED
        for procs in cfg.get("cgroup_procs", []):
            _write(procs, str(os.getpid()))
        flags = 0
        for name in cfg["namespaces"]:
            flags |= NAMESPACE_FLAGS[name]
        if flags & CLONE_NEWUSER:
            enter_user_namespace(flags & ~CLONE_NEWUSER)
        elif flags:
            unshare(flags)
        pid = os.fork()
        if pid == 0:
            _pid1(cfg, cfg["argv"])
        _, status = os.waitpid(pid, 0)
        return _status_code(status)
    except (OSError, ValueError, KeyError) as exc:
        os.write(2, f"jail: {exc}\n".encode())
        return EXEC_FAILED


def source() -> bytes:
    """What the host sends down the pipe ahead of the configuration: ``confine.py``'s source, then this module's."""
    here = os.path.dirname(os.path.abspath(__file__))
    parts = []
    for name in ("confine.py", "jail.py"):
        with open(os.path.join(here, name), "rb") as fh:
            parts.append(fh.read().replace(b"from __future__ import annotations\n", b""))
    return b"from __future__ import annotations\n" + b"\n".join(parts)


if __name__ == "__main__":
    sys.exit(run(sys.stdin.buffer.read()))
