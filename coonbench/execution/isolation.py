"""What isolation this machine gives the local sandbox, for whom, and which sandbox a task gets.

The jail (``jail.py``) is probed once per process in throwaway children: as root with plain namespaces, as any
other user inside a user namespace. ``capabilities()`` says what is enforced for the current user (printed by
``python -m coonbench.execution`` and recorded in every correction log under ``SANDBOX_METADATA_KEY``);
``choose_sandbox`` refuses to run model-written code locally where no namespace isolation exists, unless the
user asks for ``-T sandbox=unsafe-local``, which the log records as ungated.
"""

from __future__ import annotations

import fcntl
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from functools import lru_cache
from typing import Any, Literal, get_args

from inspect_ai.util import SandboxEnvironmentSpec
from pydantic import BaseModel, ConfigDict, Field

from coonbench.execution import cgroups, confine, jail
from coonbench.tasks.errors import OneLineError
from coonbench.tasks.samples import choose

LOCAL_SANDBOX = "coonbench-local"
SANDBOX_METADATA_KEY = "sandbox"  # Task metadata key: {"kind", "gated", "enforced"} (see sandbox_metadata)
UNGATED = "ungated: grading could be gamed"
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
ALL_NAMESPACES = ("pid", "mount", "net", "ipc", "uts")
REQUIRED = {"pid", "mount", "net"}  # without these a program can read the answer key or outlive its sample
JAIL_ARGV0 = "coonbench-jail"
PIPE_SIZE = 1 << 20
SandboxKind = Literal["auto", "docker", "local", "unsafe-local"]


class LocalSandboxConfig(BaseModel):
    """Limits of the local sandbox; frozen because Inspect hashes sandbox specs."""

    model_config = ConfigDict(frozen=True)

    memory_mb: int = Field(default=1024, ge=64, description="RLIMIT_AS per process; Node needs ~1 GiB of address space")
    sample_memory_mb: int = Field(default=2048, ge=128, description="resident memory of all the sample's processes")
    disk_mb: int = Field(default=64, ge=1, description="size of the sample directory's tmpfs")
    file_size_mb: int = Field(default=16, ge=1, description="RLIMIT_FSIZE")
    default_timeout_s: float = Field(default=30.0, gt=0, description="wall time of a command given no timeout")
    sample_time_s: float = Field(default=900.0, gt=0, description="wall time of all the sample's commands")
    max_processes: int = Field(default=64, ge=4, description="processes and threads of the sample")
    drop_privileges: bool = True
    unsafe: bool = Field(default=False, description="run even where no isolation exists (-T sandbox=unsafe-local)")


class IsolationUnavailable(OneLineError, RuntimeError):
    """No user namespace (or, as root, no mount/PID/network namespace) can be created here. Its message is one line,
    ``inspect eval``'s only line of error."""


REFUSAL = (
    "coonbench: this machine cannot isolate model-written code (no user namespace with mount, PID and network "
    "namespaces can be created), so the task will not run it locally: use -T sandbox=docker, or "
    "-T sandbox=unsafe-local to run it unisolated (the log then marks the run as ungated)"
)
HOST_ROOT_REFUSAL = (
    "coonbench: model-written code would run with the host's root uid here (this process is uid 0, or is mapped to "
    "it through a user namespace, without the capabilities to give the program another uid), so the task will not "
    "run it locally: run as an ordinary user or as real root, or use -T sandbox=docker"
)
UID_BASE, UID_SPAN = 2_000_000, 1 << 30  # root's dedicated uids per sample: no account, no files outside it
ROOT_OWNED = "/proc/sys/kernel/core_pattern"  # a file the host's root owns, whatever namespace reads it


def _maps_uids(first: int, count: int) -> bool:
    """Does our user namespace map the uids ``first`` .. ``first + count - 1`` (``/proc/self/uid_map``)?"""
    try:
        with open("/proc/self/uid_map", encoding="ascii") as fh:
            rows = [tuple(int(x) for x in line.split()) for line in fh if line.strip()]
    except (OSError, ValueError):
        return False
    return any(len(r) == 3 and r[0] <= first and first + count <= r[0] + r[2] for r in rows)


@lru_cache(maxsize=1)
def program_would_be_host_root() -> bool:
    """Would the program run with the host's uid 0? As root, when our user namespace cannot give it a dedicated
    uid (``unshare --map-root-user`` maps uid 0 alone); as any other user, when our own uid is the host's root
    seen through a user namespace (``unshare --user --map-user=1000``): files the host's root owns then show as
    ours, and the jail, which maps the caller's uid to itself, would run the program as kernel uid 0."""
    if os.geteuid() == 0:
        return not _maps_uids(UID_BASE, UID_SPAN)
    try:
        return os.stat(ROOT_OWNED).st_uid == os.geteuid()
    except OSError:
        return False


def refusal() -> str | None:
    """Why the local sandbox will not run model-written code here (one line), or None when it isolates it."""
    if not REQUIRED <= set(jail_namespaces()):
        return REFUSAL
    return HOST_ROOT_REFUSAL if program_would_be_host_root() else None


def jail_command(cfg: dict[str, Any], command: list[str]) -> tuple[list[str], int]:
    """The jail's argv and the pipe it reads its source and ``cfg`` from (the caller passes the fd on and closes
    it). Nothing of the configuration is in argv: ``/proc/1/cmdline`` inside shows the bootstrap only."""
    payload = jail.source() + b"\0" + json.dumps({**cfg, "argv": command}).encode()
    read, write = os.pipe()
    try:
        try:
            fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, max(PIPE_SIZE, len(payload)))
        except OSError:  # over this user's pipe quota: the default 64 KiB still holds a usual payload
            if len(payload) > 65536:
                raise
        os.write(write, payload)
    except OSError:
        os.close(read)
        raise
    finally:
        os.close(write)
    return [JAIL_ARGV0, "-I", "-S", "-c", jail.BOOTSTRAP, str(read)], read


def _kernel_at_least(major: int, minor: int) -> bool:
    try:
        parts = platform.release().split(".")
        return (int(parts[0]), int(parts[1].split("-")[0])) >= (major, minor)
    except (ValueError, IndexError):
        return False


def process_limit_applies(namespaces: tuple[str, ...]) -> bool:
    """RLIMIT_NPROC bounds the sample: as root on its dedicated uid; inside a user namespace per namespace
    (Linux 5.14+ counts it there, not across all the user's processes)."""
    if os.geteuid() == 0:
        return True
    return "user" in namespaces and _kernel_at_least(5, 14)


def _probe(namespaces: list[str], cgroup_procs: list[str] | None = None) -> bool:
    """Does a jail with these namespaces (and cgroup) start ``/bin/true`` here?"""
    with tempfile.TemporaryDirectory(prefix="coonbench-probe-") as tmp:
        cfg = {"parent": os.getpid(), "namespaces": namespaces, "sample_dir": tmp, "workdir": "/", "uid": None,
               "nproc": None, "cpu_s": 10, "memory_mb": 1024, "file_size_mb": 1, "disk_mb": 1,
               "cgroup_procs": cgroup_procs or [], "env": {"PATH": SAFE_PATH}}
        true = shutil.which("true", path=SAFE_PATH) or "/bin/true"
        argv, fd = jail_command(cfg, [true])
        try:
            proc = subprocess.run(argv, executable=sys.executable, capture_output=True, timeout=20,
                                  start_new_session=True, pass_fds=(fd,))
        except (subprocess.SubprocessError, OSError):
            return False
        finally:
            os.close(fd)
        return proc.returncode == 0


@lru_cache(maxsize=1)
def jail_namespaces() -> tuple[str, ...]:
    """The namespaces this machine lets the jail create: plain ones as root, inside a user namespace otherwise."""
    if os.geteuid() == 0:
        if _probe(list(ALL_NAMESPACES)):
            return ALL_NAMESPACES
        return tuple(ns for ns in ALL_NAMESPACES if _probe([ns]))
    for namespaces in (("user", *ALL_NAMESPACES), ("user", "net")):
        if _probe(list(namespaces)):
            return namespaces
    return ()


def isolated() -> bool:
    """Can model-written code run here without seeing the host (private root, PID namespace, no network) and
    without the host's root uid?"""
    return refusal() is None


@lru_cache(maxsize=1)
def memory_mechanism() -> str:
    """How the sample's memory budget is held here: ``cgroup v1``/``cgroup v2``, else ``watchdog`` (the jail's
    PID 1 polls the namespace's resident memory), else ``none`` (no PID namespace to watch)."""
    group = cgroups.create(256, 64)
    if group is not None:
        try:
            if _probe(list(jail_namespaces()), group.procs):
                return f"cgroup v{group.version}"
        finally:
            group.remove()
    return "watchdog" if {"pid", "mount"} <= set(jail_namespaces()) else "none"


def network_isolation_method() -> Literal["netns", "userns+netns", "none"]:
    """How the network is cut here: a network namespace (as root or inside a user namespace) or not at all."""
    namespaces = jail_namespaces()
    if "net" not in namespaces:
        return "none"
    return "userns+netns" if "user" in namespaces else "netns"


def _budgets(config: LocalSandboxConfig) -> dict[str, str]:
    memory = memory_mechanism()
    how = {"cgroup v1": "memory.limit_in_bytes, no swap", "cgroup v2": "memory.max, no swap",
           "watchdog": "PID 1 polls the anonymous resident memory every 10 ms, kills the sample at 15/16 of it",
           "none": "NOT enforced: per-process RLIMIT_AS only"}[memory]
    disk = "tmpfs" if "mount" in jail_namespaces() else "NOT enforced: per-file RLIMIT_FSIZE only"
    return {
        "memory_budget": f"{config.sample_memory_mb} MiB across the sample's processes ({memory}: {how})",
        "disk_budget": f"{config.disk_mb} MiB for the sample directory ({disk})",
        "time_budget": f"{config.default_timeout_s:g} s per command unless given, {config.sample_time_s:g} s per sample",
    }


def capabilities(config: LocalSandboxConfig | None = None) -> dict[str, Any]:
    """What the local sandbox enforces on this machine for the current user (logs, reports, test skips)."""
    config = config or LocalSandboxConfig()
    namespaces = jail_namespaces()
    root = os.geteuid() == 0
    nproc = process_limit_applies(namespaces)
    kill = ["process group"] + (["uid sweep"] if root else []) + (["PID namespace"] if "pid" in namespaces else [])
    return {
        "user": "root" if root else f"uid {os.geteuid()} (not root)",
        "isolation": "full" if isolated() else "none: refused unless -T sandbox=unsafe-local"
                     + (" (the program would be the host's root)" if program_would_be_host_root() else ""),
        "namespaces": list(namespaces),
        "user_namespace": "user" in namespaces,
        "network": network_isolation_method(),
        "pid_namespace": "pid" in namespaces,
        "private_root": "mount" in namespaces,
        "dedicated_uid": root,
        "drop_privileges": root or "user" in namespaces,
        "process_limit": (f"RLIMIT_NPROC {config.max_processes} ("
                          + ("dedicated uid" if root else "counted per user namespace") + ")") if nproc else None,
        "kill_all": " + ".join(kill),
        **_budgets(config),
        "rlimits": ["RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_FSIZE", "RLIMIT_CORE"] + (["RLIMIT_NPROC"] if nproc else []),
        "seccomp": ("foreign architectures killed; " + ", ".join(sorted(calls)) + " refused; clone with namespace "
                    "flags and F_SETPIPE_SZ refused") if (calls := confine.refused_syscalls()) else "none",
        "capabilities": "all dropped (bounding, ambient, effective, permitted, inheritable), no_new_privs",
        "procfs": "/proc/" + ", /proc/".join(jail.PROC_READONLY) + " read-only; kcore, keys & co. masked",
        "configuration": "on an inherited pipe (not in any command line)",
        "output": "read incrementally; last 1 MiB kept per stream, killed past 10 MiB",
        "environment": "empty (PATH, HOME, LANG, TMPDIR only)",
        "docker_available": docker_available(),
    }


@lru_cache(maxsize=1)
def docker_available() -> bool:
    """True when a Docker engine answers (a client alone is not enough)."""
    if shutil.which("docker") is None:
        return False
    try:
        proc = subprocess.run(["docker", "info", "--format", "{{.ServerVersion}}"], capture_output=True, timeout=10)
    except (subprocess.SubprocessError, OSError):
        return False
    return proc.returncode == 0 and bool(proc.stdout.strip())


def choose_sandbox(kind: SandboxKind = "auto", config: LocalSandboxConfig | None = None,
                   compose_file: str = "") -> SandboxEnvironmentSpec:
    """The sandbox spec for the task: docker when asked for or available, else coonbench-local where it
    isolates; ``IsolationUnavailable`` (one line, naming ``-T sandbox=docker``) where it cannot."""
    choose("sandbox", kind, get_args(SandboxKind), "sandbox")
    if kind == "docker" or (kind == "auto" and docker_available()):
        return SandboxEnvironmentSpec("docker", compose_file)
    config = config or LocalSandboxConfig()
    if kind == "unsafe-local":
        return SandboxEnvironmentSpec(LOCAL_SANDBOX, config.model_copy(update={"unsafe": True}))
    reason = refusal()
    if reason is not None:
        raise IsolationUnavailable(reason)
    return SandboxEnvironmentSpec(LOCAL_SANDBOX, config)


def sandbox_metadata(spec: SandboxEnvironmentSpec) -> dict[str, Any]:
    """What the log records under ``SANDBOX_METADATA_KEY``: the sandbox kind, whether grading is gated (the
    program can neither read the answer key nor outlive its sample), and what is enforced."""
    if spec.type == "docker":
        return {"kind": "docker", "gated": True, "enforced": f"docker compose file {spec.config}"}
    config = spec.config if isinstance(spec.config, LocalSandboxConfig) else LocalSandboxConfig()
    kind = "unsafe-local" if config.unsafe else "local"
    gated = not config.unsafe and isolated()
    return {"kind": kind, "gated": gated, **({} if gated else {"warning": UNGATED}),
            "enforced": capabilities(config)}
