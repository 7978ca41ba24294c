"""What the jailed command's process gives up just before ``execve``: every capability and most system calls.

Stdlib only: the jail (``jail.py``) is sent to its process as source text, and this module's source goes with it
(``jail.source``). ``confine()`` runs after the identity change and ``no_new_privs``:

- capabilities: the bounding and ambient sets are emptied, then the effective, permitted and inheritable sets
  (``capset``), so that even a uid 0 (``-T sandbox=unsafe-local`` as root of a user namespace) ``execve``\\ s
  without any capability, and no set-uid file can give one back;
- seccomp (``seccomp_program``), default-deny: a system call made under any other architecture than the
  machine's (i386's ``int 0x80`` on x86_64, x32 calls) kills the process; a call not on the allow-list
  (``ALLOWED``) fails with ``ENOSYS``; the calls of ``SYSCALLS`` not argument-checked fail with ``EPERM``, named
  because each matters: memory no process holds (memfd, SysV shared memory and semaphores, message queues,
  inotify queues, timerfds), kernel buffers no budget counts (``socket``, ``socketpair``), page-cache residency
  probes (``mincore``, ``cachestat``), what Docker's profile refuses (io_uring, keys, ``userfaultfd``, ``bpf``,
  ``perf_event_open``, ``ptrace`` & co.), ways to name another process (``pidfd_*``, ``process_madvise``,
  ``ioprio_set``), namespaces and mounts (``unshare``, ``setns``, ``mount`` & co.), and ``openat2`` (its flags sit
  in a struct a classic BPF filter cannot read; the C library falls back to ``openat``); ``clone3``, whose flags
  a classic filter cannot read either, reads as absent, so the C library falls back to ``clone``.
  ``ARG_RULES`` refuse some calls for some arguments: ``clone`` with a namespace flag or ``CLONE_PARENT``; a stop
  signal (``SIGSTOP``, ``SIGTSTP``, ``SIGTTIN``, ``SIGTTOU``) to any process; every way to have the kernel
  signal another process (``F_SETOWN``, ``F_SETOWN_EX``, ``F_SETSIG``, ``F_SETLEASE``, ``F_NOTIFY``, ``O_ASYNC``
  by ``F_SETFL`` or ``open``, the ``ioctl`` twins); ``F_SETPIPE_SZ`` (pipes keep their default size); reads and
  writes with ``RWF_*`` flags (``RWF_NOWAIT`` tells what is cached); ``prlimit64``, ``setpriority`` and
  ``sched_set*`` on any process but the caller. With ``ptrace`` refused too, the program cannot freeze the
  supervisor that enforces each case's wall clock (or, without a PID namespace, the host).
"""

from __future__ import annotations

import ctypes
import os
import struct

# per machine: (AUDIT_ARCH value, {name: syscall number}) of the calls the filter knows by name
SYSCALLS = {
    "x86_64": (0xC000003E, {
        "memfd_create": 319, "memfd_secret": 447, "shmget": 29, "msgget": 68, "mq_open": 240,
        "socket": 41, "socketpair": 53, "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "add_key": 248, "request_key": 249, "keyctl": 250, "userfaultfd": 323, "bpf": 321, "perf_event_open": 298,
        "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "kexec_load": 246, "kexec_file_load": 320,
        "init_module": 175, "finit_module": 313, "delete_module": 176, "open_by_handle_at": 304,
        "fanotify_init": 300, "swapon": 167, "swapoff": 168, "reboot": 169, "acct": 163, "quotactl": 179,
        "syslog": 103, "unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155,
        "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
        "mount_setattr": 442, "clone": 56, "clone3": 435, "fcntl": 72, "kill": 62, "tkill": 200, "tgkill": 234,
        "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297,
        "mincore": 27, "cachestat": 451, "inotify_init": 253, "inotify_init1": 294, "inotify_add_watch": 254,
        "inotify_rm_watch": 255, "timerfd_create": 283, "timerfd_settime": 286, "timerfd_gettime": 287,
        "semget": 64, "pidfd_open": 434, "pidfd_send_signal": 424, "pidfd_getfd": 438, "process_madvise": 440,
        "ioprio_set": 251, "openat2": 437,
        "ioctl": 16, "open": 2, "openat": 257, "preadv2": 327, "pwritev2": 328, "prlimit64": 302,
        "sched_setaffinity": 203, "sched_setparam": 142, "sched_setscheduler": 144, "setpriority": 141,
    }),
    "aarch64": (0xC00000B7, {
        "memfd_create": 279, "memfd_secret": 447, "shmget": 194, "msgget": 186, "mq_open": 180,
        "socket": 198, "socketpair": 199, "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "add_key": 217, "request_key": 218, "keyctl": 219, "userfaultfd": 282, "bpf": 280, "perf_event_open": 241,
        "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271, "kexec_load": 104, "kexec_file_load": 294,
        "init_module": 105, "finit_module": 273, "delete_module": 106, "open_by_handle_at": 265,
        "fanotify_init": 262, "swapon": 224, "swapoff": 225, "reboot": 142, "acct": 89, "quotactl": 60,
        "syslog": 116, "unshare": 97, "setns": 268, "mount": 40, "umount2": 39, "pivot_root": 41,
        "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
        "mount_setattr": 442, "clone": 220, "clone3": 435, "fcntl": 25, "kill": 129, "tkill": 130, "tgkill": 131,
        "rt_sigqueueinfo": 138, "rt_tgsigqueueinfo": 240,
        "mincore": 232, "cachestat": 451, "inotify_init1": 26, "inotify_add_watch": 27, "inotify_rm_watch": 28,
        "timerfd_create": 85, "timerfd_settime": 86, "timerfd_gettime": 87, "semget": 190, "pidfd_open": 434,
        "pidfd_send_signal": 424, "pidfd_getfd": 438, "process_madvise": 440, "ioprio_set": 30, "openat2": 437,
        "ioctl": 29, "openat": 56, "preadv2": 286, "pwritev2": 287, "prlimit64": 261, "sched_setaffinity": 122,
        "sched_setparam": 118, "sched_setscheduler": 119, "setpriority": 140,
    }),
}
# Refused for some arguments only (``ARG_RULES`` below), or reported absent (clone3).
STOP_SIGNALS = (19, 20, 21, 22)  # SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU: nothing in the jail may stop a process
F_SETFL, F_SETOWN, F_SETSIG, F_SETOWN_EX, F_SETLEASE, F_NOTIFY, F_SETPIPE_SZ = 4, 8, 10, 15, 1024, 1026, 1031
O_ASYNC = 0o20000  # FASYNC, the same bit on x86_64 and aarch64
# ioctl requests that name a signal's receiver or turn on SIGIO: FIOSETOWN, SIOCSPGRP, FIOASYNC, TIOCSPGRP, TIOCSTI
IOCTL_REFUSED = (0x8901, 0x8902, 0x5452, 0x5410, 0x5412)
CLONE_PARENT = 0x00008000  # the new process would be the caller's sibling: a child of the supervisor
NAMESPACE_CLONE_FLAGS = 0x7E020080  # CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME
SIGNAL_ARG = {"kill": 1, "tkill": 1, "tgkill": 2, "rt_sigqueueinfo": 1, "rt_tgsigqueueinfo": 2}  # the signal's index
# Per call, the checks that refuse it (EPERM): (argument index, "eq" a value | "set" any of these bits | "nonzero").
# A call with a process argument may name only the caller (0): no other process can be reprioritised, pinned or
# given limits; SIGIO cannot be aimed at anyone (F_SETOWN & co.) nor switched on; pipes keep their size; reads that
# tell which pages are cached (preadv2's RWF_NOWAIT, any flag) are refused.
ARG_RULES: dict[str, tuple[tuple[int, str, int], ...]] = {
    "clone": ((0, "set", NAMESPACE_CLONE_FLAGS | CLONE_PARENT),),
    "fcntl": tuple((1, "eq", cmd) for cmd in (F_SETOWN, F_SETSIG, F_SETOWN_EX, F_SETLEASE, F_NOTIFY, F_SETPIPE_SZ)),
    "ioctl": tuple((1, "eq", request) for request in IOCTL_REFUSED),
    "open": ((1, "set", O_ASYNC),),
    "openat": ((2, "set", O_ASYNC),),
    "preadv2": ((5, "nonzero", 0),),
    "pwritev2": ((5, "nonzero", 0),),
    "prlimit64": ((0, "nonzero", 0),),
    "sched_setaffinity": ((0, "nonzero", 0),),
    "sched_setparam": ((0, "nonzero", 0),),
    "sched_setscheduler": ((0, "nonzero", 0),),
    "setpriority": ((0, "nonzero", 0), (1, "nonzero", 0)),  # PRIO_PROCESS of the caller only
    **{name: tuple((index, "eq", sig) for sig in STOP_SIGNALS) for name, index in SIGNAL_ARG.items()},
}
ARG_CHECKED = ("clone3", *ARG_RULES)
REFUSED = tuple(name for name in SYSCALLS["x86_64"][1] if name not in ARG_CHECKED)
# The allow-list: every other call fails with ENOSYS (a library reads it as "not on this kernel" and falls back,
# as glibc does from clone3 to clone). Derived by tracing the supervisor and both workers (strace -f) on passing,
# raising, looping and exiting programs, plus the ordinary calls of files, time, signals, threads and processes
# that a C library or a runtime's version may use instead (stat/statx, poll/ppoll, ...). Numbers from the kernel's
# unistd headers (tests/test_sandbox_kernel.py checks them where the headers exist); fchmodat2 (452) is newer.
ALLOWED = {
    "x86_64": {
        "access": 21, "alarm": 37, "arch_prctl": 158, "brk": 12, "capget": 125, "capset": 126, "chdir": 80,
        "chmod": 90, "chown": 92, "clock_getres": 229, "clock_gettime": 228, "clock_nanosleep": 230, "clone": 56,
        "clone3": 435, "close": 3, "close_range": 436, "copy_file_range": 326, "creat": 85, "dup": 32, "dup2": 33,
        "dup3": 292, "epoll_create": 213, "epoll_create1": 291, "epoll_ctl": 233, "epoll_pwait": 281,
        "epoll_pwait2": 441, "epoll_wait": 232, "eventfd": 284, "eventfd2": 290, "execve": 59, "execveat": 322,
        "exit": 60, "exit_group": 231, "faccessat": 269, "faccessat2": 439, "fadvise64": 221, "fallocate": 285,
        "fchdir": 81, "fchmod": 91, "fchmodat": 268, "fchown": 93, "fchownat": 260, "fcntl": 72, "fdatasync": 75,
        "fgetxattr": 193, "flistxattr": 196, "flock": 73, "fork": 57, "fstat": 5, "fstatfs": 138, "fsync": 74,
        "ftruncate": 77, "futex": 202, "futex_waitv": 449, "futimesat": 261, "get_robust_list": 274, "getcpu": 309,
        "getcwd": 79, "getdents": 78, "getdents64": 217, "getegid": 108, "geteuid": 107, "getgid": 104,
        "getgroups": 115, "getitimer": 36, "getpgid": 121, "getpgrp": 111, "getpid": 39, "getppid": 110,
        "getpriority": 140, "getrandom": 318, "getresgid": 120, "getresuid": 118, "getrlimit": 97, "getrusage": 98,
        "getsid": 124, "gettid": 186, "gettimeofday": 96, "getuid": 102, "getxattr": 191, 
        "ioctl": 16, "kill": 62, "lchown": 94,
        "lgetxattr": 192, "link": 86, "linkat": 265, "listxattr": 194, "llistxattr": 195, "lseek": 8, "lstat": 6,
        "madvise": 28, "membarrier": 324, "mkdir": 83, "mkdirat": 258, "mlock": 149, "mlock2": 325,
        "mmap": 9, "mprotect": 10, "mremap": 25, "msync": 26, "munlock": 150, "munmap": 11, "nanosleep": 35,
        "newfstatat": 262, "open": 2, "openat": 257, "pause": 34, "personality": 135, "pipe": 22,
        "pipe2": 293, "pkey_alloc": 330, "pkey_free": 331, "pkey_mprotect": 329, "poll": 7, "ppoll": 271,
        "prctl": 157, "pread64": 17, "preadv": 295, "preadv2": 327, "prlimit64": 302, "pselect6": 270,
        "pwrite64": 18, "pwritev": 296, "pwritev2": 328, "read": 0, "readlink": 89, "readlinkat": 267, "readv": 19,
        "rename": 82, "renameat": 264, "renameat2": 316, "restart_syscall": 219, "rmdir": 84, "rseq": 334,
        "rt_sigaction": 13, "rt_sigpending": 127, "rt_sigprocmask": 14, "rt_sigqueueinfo": 129, "rt_sigreturn": 15,
        "rt_sigsuspend": 130, "rt_sigtimedwait": 128, "rt_tgsigqueueinfo": 297, "sched_get_priority_max": 146,
        "sched_get_priority_min": 147, "sched_getaffinity": 204, "sched_getparam": 143, "sched_getscheduler": 145,
        "sched_rr_get_interval": 148, "sched_setaffinity": 203, "sched_setparam": 142, "sched_setscheduler": 144,
        "sched_yield": 24, "select": 23, "sendfile": 40, "set_robust_list": 273, "set_tid_address": 218,
        "setfsgid": 123, "setfsuid": 122, "setgid": 106, "setgroups": 116, "setitimer": 38, "setpgid": 109,
        "setpriority": 141, "setregid": 114, "setresgid": 119, "setresuid": 117, "setreuid": 113, "setrlimit": 160,
        "setsid": 112, "setuid": 105, "sigaltstack": 131, "signalfd": 282, "signalfd4": 289, "splice": 275,
        "stat": 4, "statfs": 137, "statx": 332, "symlink": 88, "symlinkat": 266, "sync_file_range": 277,
        "sysinfo": 99, "tee": 276, "tgkill": 234, "time": 201, "timer_create": 222, "timer_delete": 226,
        "timer_getoverrun": 225, "timer_gettime": 224, "timer_settime": 223, 
        "times": 100, "tkill": 200, "truncate": 76, "umask": 95,
        "uname": 63, "unlink": 87, "unlinkat": 263, "utime": 132, "utimensat": 280, "utimes": 235, "vfork": 58,
        "wait4": 61, "waitid": 247, "write": 1, "writev": 20,
        "fchmodat2": 452,
    },
    "aarch64": {
        "brk": 214, "capget": 90, "capset": 91, "chdir": 49, "clock_getres": 114, "clock_gettime": 113,
        "clock_nanosleep": 115, "clone": 220, "clone3": 435, "close": 57, "close_range": 436, "copy_file_range": 285,
        "dup": 23, "dup3": 24, "epoll_create1": 20, "epoll_ctl": 21, "epoll_pwait": 22, "epoll_pwait2": 441,
        "eventfd2": 19, "execve": 221, "execveat": 281, "exit": 93, "exit_group": 94, "faccessat": 48,
        "faccessat2": 439, "fadvise64": 223, "fallocate": 47, "fchdir": 50, "fchmod": 52, "fchmodat": 53,
        "fchown": 55, "fchownat": 54, "fcntl": 25, "fdatasync": 83, "fgetxattr": 10, "flistxattr": 13, "flock": 32,
        "fstat": 80, "fstatfs": 44, "fsync": 82, "ftruncate": 46, "futex": 98, "futex_waitv": 449,
        "get_robust_list": 100, "getcpu": 168, "getcwd": 17, "getdents64": 61, "getegid": 177, "geteuid": 175,
        "getgid": 176, "getgroups": 158, "getitimer": 102, "getpgid": 155, "getpid": 172, "getppid": 173,
        "getpriority": 141, "getrandom": 278, "getresgid": 150, "getresuid": 148, "getrlimit": 163, "getrusage": 165,
        "getsid": 156, "gettid": 178, "gettimeofday": 169, "getuid": 174, "getxattr": 8, 
        "ioctl": 29, "kill": 129, "lgetxattr": 9, "linkat": 37,
        "listxattr": 11, "llistxattr": 12, "lseek": 62, "madvise": 233, "membarrier": 283, 
        "mkdirat": 34, "mlock": 228, "mlock2": 284, "mmap": 222, "mprotect": 226, "mremap": 216, "msync": 227,
        "munlock": 229, "munmap": 215, "nanosleep": 101, "openat": 56, "personality": 92,
        "pipe2": 59, "pkey_alloc": 289, "pkey_free": 290, "pkey_mprotect": 288, "ppoll": 73, "prctl": 167,
        "pread64": 67, "preadv": 69, "preadv2": 286, "prlimit64": 261, "pselect6": 72, "pwrite64": 68, "pwritev": 70,
        "pwritev2": 287, "read": 63, "readlinkat": 78, "readv": 65, "renameat": 38, "renameat2": 276,
        "restart_syscall": 128, "rseq": 293, "rt_sigaction": 134, "rt_sigpending": 136, "rt_sigprocmask": 135,
        "rt_sigqueueinfo": 138, "rt_sigreturn": 139, "rt_sigsuspend": 133, "rt_sigtimedwait": 137,
        "rt_tgsigqueueinfo": 240, "sched_get_priority_max": 125, "sched_get_priority_min": 126,
        "sched_getaffinity": 123, "sched_getparam": 121, "sched_getscheduler": 120, "sched_rr_get_interval": 127,
        "sched_setaffinity": 122, "sched_setparam": 118, "sched_setscheduler": 119, "sched_yield": 124,
        "sendfile": 71, "set_robust_list": 99, "set_tid_address": 96, "setfsgid": 152, "setfsuid": 151,
        "setgid": 144, "setgroups": 159, "setitimer": 103, "setpgid": 154, "setpriority": 140, "setregid": 143,
        "setresgid": 149, "setresuid": 147, "setreuid": 145, "setrlimit": 164, "setsid": 157, "setuid": 146,
        "sigaltstack": 132, "signalfd4": 74, "splice": 76, "statfs": 43, "statx": 291, "symlinkat": 36,
        "sync_file_range": 84, "sysinfo": 179, "tee": 77, "tgkill": 131, "timer_create": 107, "timer_delete": 111,
        "timer_getoverrun": 109, "timer_gettime": 108, "timer_settime": 110, 
        "times": 153, "tkill": 130, "truncate": 45, "umask": 166,
        "uname": 160, "unlinkat": 35, "utimensat": 88, "wait4": 260, "waitid": 95, "write": 64, "writev": 66,
        "newfstatat": 79, "fchmodat2": 452,
    },
}
X32_BIT = 0x40000000
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
RET_KILL_PROCESS, RET_ALLOW, RET_ERRNO = 0x80000000, 0x7FFF0000, 0x00050000
EPERM, ENOSYS = 1, 38
LD_W_ABS, JA, JEQ_K, JGE_K, JSET_K, RET_K = 0x20, 0x05, 0x15, 0x35, 0x45, 0x06
PR_CAPBSET_DROP, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4
CAP_LAST = 63  # the bounding set is emptied up to here (EINVAL past this kernel's last capability)
LINUX_CAPABILITY_VERSION_3 = 0x20080522
SYS_CAPSET = {"x86_64": 126, "aarch64": 91}

_libc = ctypes.CDLL(None, use_errno=True)


def _arg_low(index: int) -> int:
    """Offset of the low 32 bits of argument ``index`` in ``struct seccomp_data`` (little-endian machines)."""
    return 16 + 8 * index


def seccomp_program(arch: int, calls: dict[str, int], allowed: dict[str, int]) -> bytes:
    """The classic-BPF filter (module doc) for a machine whose ``AUDIT_ARCH`` is ``arch``, whose syscall numbers
    are ``calls`` (the refused and argument-checked ones) and whose allow-list is ``allowed``. Jumps are written to
    labels and resolved at the end (a conditional jump reaches at most 255 instructions ahead)."""
    prog: list[tuple[int, object, object, int]] = []
    labels: dict[str, int] = {}

    def ins(code: int, k: int, jt: object = 0, jf: object = 0) -> None:
        prog.append((code, jt, jf, k))

    def label(name: str) -> None:
        labels[name] = len(prog)

    ins(LD_W_ABS, 4)
    ins(JEQ_K, arch, 1, 0)
    ins(RET_K, RET_KILL_PROCESS)  # a foreign architecture: i386 on x86_64, arm32 on aarch64
    ins(LD_W_ABS, 0)
    ins(JGE_K, X32_BIT, 0, 1)
    ins(RET_K, RET_KILL_PROCESS)  # x32's numbering on x86_64
    for name in refused_on(calls):
        ins(JEQ_K, calls[name], "eperm")
    ins(JA, 1)
    label("eperm")
    ins(RET_K, RET_ERRNO | EPERM)
    ins(JEQ_K, calls["clone3"], 0, 1)
    ins(RET_K, RET_ERRNO | ENOSYS)
    checked = [name for name in ARG_RULES if name in calls]
    for name, number in sorted(allowed.items()):
        if name not in ARG_CHECKED and name not in calls:
            ins(JEQ_K, number, "allow")
    for name in checked:
        ins(JEQ_K, calls[name], name)
    ins(RET_K, RET_ERRNO | ENOSYS)  # not on the allow-list
    label("allow")
    ins(RET_K, RET_ALLOW)
    for name in checked:
        label(name)
        loaded = None
        for index, kind, value in ARG_RULES[name]:
            if loaded != index:
                ins(LD_W_ABS, _arg_low(index))
                loaded = index
            if kind == "eq":
                ins(JEQ_K, value, "refuse")
            elif kind == "set":
                ins(JSET_K, value, "refuse")
            else:  # nonzero
                ins(JEQ_K, 0, 0, "refuse")
        if name == "fcntl":  # F_SETFL with O_ASYNC (SIGIO on); any other command skips to the allow below
            ins(JEQ_K, F_SETFL, 0, 2)
            ins(LD_W_ABS, _arg_low(2))
            ins(JSET_K, O_ASYNC, "refuse")
        ins(RET_K, RET_ALLOW)
    label("refuse")
    ins(RET_K, RET_ERRNO | EPERM)
    out = b""
    for i, (code, jt, jf, k) in enumerate(prog):
        jt_ = labels[jt] - i - 1 if isinstance(jt, str) else jt
        jf_ = labels[jf] - i - 1 if isinstance(jf, str) else jf
        out += struct.pack("HBBI", code, jt_, jf_, k)  # struct.error past 255: the program must be reordered
    return out


def refused_on(calls: dict[str, int]) -> tuple[str, ...]:
    """The calls of a machine's table that fail with EPERM whatever their arguments (``calls`` less the checked)."""
    return tuple(name for name in calls if name not in ARG_CHECKED)


def refused_syscalls() -> tuple[str, ...]:
    """The system calls the filter refuses on this machine (none where ``SYSCALLS`` lacks it)."""
    machine = os.uname().machine
    return refused_on(SYSCALLS[machine][1]) if machine in SYSCALLS else ()


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def _fail(what: str) -> None:
    err = ctypes.get_errno()
    raise OSError(err, f"{what}: {os.strerror(err)}")


def install_filter() -> None:
    """Install the seccomp filter (after ``no_new_privs``; it survives ``execve`` and is inherited)."""
    machine = os.uname().machine
    if machine not in SYSCALLS:
        return
    program = seccomp_program(*SYSCALLS[machine], ALLOWED[machine])
    buf = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.cast(buf, ctypes.c_void_p))
    if _libc.prctl(ctypes.c_int(PR_SET_SECCOMP), ctypes.c_ulong(SECCOMP_MODE_FILTER), ctypes.byref(fprog), 0, 0):
        _fail("seccomp")


def effective_capabilities() -> int:
    """``CapEff`` of this process (``/proc/self/status``; read as bytes: after the jail's ``chroot`` no codec
    module can be imported)."""
    with open("/proc/self/status", "rb") as fh:
        for line in fh:
            if line.startswith(b"CapEff:"):
                return int(line.split()[1], 16)
    return 0


def drop_bounding_set() -> None:
    """Empty the bounding set: before the identity change, while the jail still holds ``CAP_SETPCAP`` (as root, or
    inside its user namespace). Without it (no namespace, an ordinary user) the set cannot shrink, and the process
    holds no capability to begin with."""
    for cap in range(CAP_LAST + 1):
        if _libc.prctl(ctypes.c_int(PR_CAPBSET_DROP), ctypes.c_ulong(cap), 0, 0, 0) and ctypes.get_errno() != 22:
            break  # EPERM: no CAP_SETPCAP; EINVAL: past the last capability


def drop_capabilities() -> None:
    """Empty the ambient, effective, permitted and inheritable sets (the bounding set: ``drop_bounding_set``); a
    process that still has an effective capability at the end is an error."""
    _libc.prctl(ctypes.c_int(PR_CAP_AMBIENT), ctypes.c_ulong(PR_CAP_AMBIENT_CLEAR_ALL), 0, 0, 0)
    number = SYS_CAPSET.get(os.uname().machine)
    if number is not None:
        header = struct.pack("Ii", LINUX_CAPABILITY_VERSION_3, 0)
        data = ctypes.create_string_buffer(24)  # two struct __user_cap_data_struct, all zero
        if _libc.syscall(ctypes.c_long(number), ctypes.c_char_p(header), data) != 0:
            _fail("capset")
    if effective_capabilities():
        raise OSError("the command would keep a capability")


def confine() -> None:
    """What the command's process gives up before ``execve``, after ``drop_bounding_set`` (module doc)."""
    drop_bounding_set()  # again: a no-op where it was done, or where it cannot be
    drop_capabilities()
    install_filter()
