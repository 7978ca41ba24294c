"""What the jailed command's process gives up just before ``execve``: every capability and most system calls.

Stdlib only: the jail (``jail.py``) is sent to its process as source text, and this module's source goes with it
(``jail.source``). ``confine()`` runs after the identity change and ``no_new_privs``:

- capabilities: the bounding and ambient sets are emptied, then the effective, permitted and inheritable sets
  (``capset``), so that even a uid 0 (``-T sandbox=unsafe-local`` as root of a user namespace) ``execve``\\ s
  without any capability, and no set-uid file can give one back;
- seccomp (``seccomp_program``): a system call made under any other architecture than the machine's (i386's
  ``int 0x80`` on x86_64, x32 calls) kills the process; the ``REFUSED`` calls fail with ``EPERM``: memory no
  process holds (memfd, SysV shared memory, message queues), kernel buffers no budget counts (``socket``,
  ``socketpair``; pipes stay at their default size: ``fcntl(F_SETPIPE_SZ)``), what Docker's profile refuses
  (io_uring, keys, ``userfaultfd``, ``bpf``, ``perf_event_open``, ``ptrace`` & co.), and namespaces and mounts
  (``unshare``, ``setns``, ``mount`` & co., ``clone`` with a namespace flag; ``clone3``, whose flags a classic BPF
  filter cannot read, reads as absent, so the C library falls back to ``clone``).
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
        "mount_setattr": 442, "clone": 56, "clone3": 435, "fcntl": 72,
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
        "mount_setattr": 442, "clone": 220, "clone3": 435, "fcntl": 25,
    }),
}
ARG_CHECKED = ("clone", "clone3", "fcntl")  # refused for some arguments only (below), or reported absent
REFUSED = tuple(name for name in SYSCALLS["x86_64"][1] if name not in ARG_CHECKED)
NAMESPACE_CLONE_FLAGS = 0x7E020080  # CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME
F_SETPIPE_SZ = 1031
X32_BIT = 0x40000000
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
RET_KILL_PROCESS, RET_ALLOW, RET_ERRNO = 0x80000000, 0x7FFF0000, 0x00050000
EPERM, ENOSYS = 1, 38
LD_W_ABS, JEQ_K, JGE_K, JSET_K, RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
PR_CAPBSET_DROP, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4
CAP_LAST = 63  # the bounding set is emptied up to here (EINVAL past this kernel's last capability)
LINUX_CAPABILITY_VERSION_3 = 0x20080522
SYS_CAPSET = {"x86_64": 126, "aarch64": 91}

_libc = ctypes.CDLL(None, use_errno=True)


def _arg_low(index: int) -> int:
    """Offset of the low 32 bits of argument ``index`` in ``struct seccomp_data`` (little-endian machines)."""
    return 16 + 8 * index


def seccomp_program(arch: int, calls: dict[str, int]) -> bytes:
    """The classic-BPF filter (module doc) for a machine whose ``AUDIT_ARCH`` is ``arch`` and whose syscall
    numbers are ``calls``. Jumps are written to labels and resolved at the end."""
    prog: list[tuple[int, object, object, int]] = []
    labels: dict[str, int] = {}

    def ins(code: int, k: int, jt: object = 0, jf: object = 0) -> None:
        prog.append((code, jt, jf, k))

    ins(LD_W_ABS, 4)
    ins(JEQ_K, arch, 1, 0)
    ins(RET_K, RET_KILL_PROCESS)  # a foreign architecture: i386 on x86_64, arm32 on aarch64
    ins(LD_W_ABS, 0)
    ins(JGE_K, X32_BIT, "kill")  # x32's numbering on x86_64
    for name in REFUSED:
        ins(JEQ_K, calls[name], "eperm")
    ins(JEQ_K, calls["clone3"], "enosys")
    ins(JEQ_K, calls["clone"], "clone")
    ins(JEQ_K, calls["fcntl"], "fcntl")
    ins(RET_K, RET_ALLOW)
    for label, body in (("clone", (LD_W_ABS, _arg_low(0), JSET_K, NAMESPACE_CLONE_FLAGS)),
                        ("fcntl", (LD_W_ABS, _arg_low(1), JEQ_K, F_SETPIPE_SZ))):
        labels[label] = len(prog)
        ins(body[0], body[1])
        ins(body[2], body[3], "eperm")
        ins(RET_K, RET_ALLOW)
    for label, ret in (("eperm", RET_ERRNO | EPERM), ("enosys", RET_ERRNO | ENOSYS), ("kill", RET_KILL_PROCESS)):
        labels[label] = len(prog)
        ins(RET_K, ret)
    out = b""
    for i, (code, jt, jf, k) in enumerate(prog):
        jt_ = labels[jt] - i - 1 if isinstance(jt, str) else jt
        jf_ = labels[jf] - i - 1 if isinstance(jf, str) else jf
        out += struct.pack("HBBI", code, jt_, jf_, k)
    return out


def refused_syscalls() -> tuple[str, ...]:
    """The system calls the filter refuses on this machine (none where ``SYSCALLS`` lacks it)."""
    return REFUSED if os.uname().machine in SYSCALLS else ()


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
    program = seccomp_program(*SYSCALLS[machine])
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


def drop_capabilities() -> None:
    """Empty the bounding, ambient, effective, permitted and inheritable sets. Without ``CAP_SETPCAP`` (an ordinary
    process) the bounding set cannot shrink, and then nothing is held to drop: a process that still has an effective
    capability at the end is an error."""
    for cap in range(CAP_LAST + 1):
        if _libc.prctl(ctypes.c_int(PR_CAPBSET_DROP), ctypes.c_ulong(cap), 0, 0, 0) and ctypes.get_errno() != 22:
            break  # EPERM: no CAP_SETPCAP; EINVAL: past the last capability
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
    """What the command's process gives up before ``execve`` (module doc)."""
    drop_capabilities()
    install_filter()
