"""Where model-written code runs: Inspect's ``docker`` sandbox when a Docker engine answers, else our own
``coonbench-local`` sandbox environment, which runs each command through ``jail.py`` (see there; what this
machine allows is decided in ``isolation.py``).

What ``coonbench-local`` enforces, for root and ordinary users alike where the kernel allows user namespaces
(``capabilities()`` reports what holds here; ``docs/sandbox.md``):
- a fresh PID namespace: when the command ends its PID 1 kills everything left (``setsid`` daemons included);
- a fresh mount namespace with an empty root view: read-only ``/usr`` and libraries, ``/dev/null`` & co., an
  empty ``/etc``, and the sample directory at ``/sandbox`` on a size-limited tmpfs (copied in before the
  command, copied back after it) — no host path, no host file such as ``/etc/passwd`` exists for the child;
- no network (a fresh network namespace with only a down loopback device);
- as root a dedicated random uid per sample (``RLIMIT_NPROC`` on it, swept after each command); as any other
  user the caller's own uid inside a user namespace, without capabilities, ``RLIMIT_NPROC`` counted there; never
  the host's uid 0 (``isolation.program_would_be_host_root``: refused with one line);
- its own ``/proc`` with ``/proc/sys`` & co. read-only and ``/proc/kcore`` & co. masked; no capability and a
  default-deny seccomp filter (``confine.py``: foreign architectures killed; memfd, SysV IPC, inotify, sockets,
  io_uring, keys, namespaces, page-cache residency probes, stop signals, SIGIO aimed at another process and calls
  that name another process & co. refused); ``/dev/null`` & co. bound read-only;
- whole-sample budgets: memory across all processes (a cgroup where one can be made, else PID 1's watchdog),
  disk (the tmpfs), processes, wall time across all commands; per process ``RLIMIT_CPU``, ``RLIMIT_AS``,
  ``RLIMIT_FSIZE``, no core dumps, ``no_new_privs``;
- an empty environment (``PATH``, ``LANG``, ``HOME`` and ``TMPDIR`` = the sample directory);
- output read incrementally: the last ``OUTPUT_LIMIT`` bytes of each stream are kept, and a command writing more
  than ``OUTPUT_CAP`` bytes is killed (``OutputLimitExceededError``), so a flood cannot grow the host;
- the sample directory removed whatever the program left in it (``remove_tree``), at cleanup or when the
  environment object goes away unclosed.
"""

from __future__ import annotations

import asyncio
import errno
import math
import os
import secrets
import shutil
import signal
import sys
import tempfile
import time
import weakref
from pathlib import Path
from typing import Any, Callable, Literal, Union, overload

from inspect_ai.util import (
    ExecResult,
    OutputLimitExceededError,
    SandboxEnvironment,
    SandboxEnvironmentConfigType,
    SandboxEnvironmentSpec,
    sandboxenv,
)
from pydantic import BaseModel

from coonbench.execution import cgroups
from coonbench.execution.isolation import (
    LOCAL_SANDBOX,
    SANDBOX_METADATA_KEY,
    SAFE_PATH,
    UID_BASE,
    UID_SPAN,
    IsolationUnavailable,
    LocalSandboxConfig,
    SandboxKind,
    capabilities,
    docker_available,
    jail_command,
    jail_namespaces,
    memory_mechanism,
    network_isolation_method,
    process_limit_applies,
    program_would_be_host_root,
    refusal,
    sandbox_metadata,
)
from coonbench.execution.isolation import choose_sandbox as _choose
from coonbench.execution.jail import INSIDE
from coonbench.execution.view import SYSTEM_PREFIXES, VIEW_PROGRAMS, system_view

__all__ = ["LOCAL_SANDBOX", "SANDBOX_METADATA_KEY", "IsolationUnavailable", "LocalLimitedSandbox", "LocalSandboxConfig", "capabilities",
           "choose_sandbox", "docker_available", "network_isolation_method", "processes_of", "sandbox_metadata", "sweep_uid"]

COMPOSE_FILE = Path(__file__).resolve().parents[2] / "docker" / "correction" / "compose.yaml"
OUTPUT_LIMIT = 1024 * 1024  # bytes kept per stream (the tail)
OUTPUT_CAP = 10 * 1024 * 1024  # bytes per stream after which the command is killed (as Inspect's docker does)
JAIL_FAILED = 127


def choose_sandbox(kind: SandboxKind = "auto", config: LocalSandboxConfig | None = None) -> SandboxEnvironmentSpec:
    """The sandbox spec for the task (``isolation.choose_sandbox`` with this repository's compose file)."""
    return _choose(kind, config, str(COMPOSE_FILE))


def processes_of(uid: int) -> list[int]:
    """Live (non-zombie) processes whose real uid is ``uid``, from ``/proc``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as fh:
                status = fh.read()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields.get("Uid", "").split()[:1] == [str(uid)] and not fields.get("State", "").strip().startswith("Z"):
            found.append(int(entry))
    return found


def sweep_uid(uid: int, deadline_s: float = 10.0) -> None:
    """SIGKILL every process of ``uid`` until none is left (bounded by RLIMIT_NPROC, so this converges)."""
    end = time.monotonic() + deadline_s
    while True:
        pids = processes_of(uid)
        if not pids:
            return
        if time.monotonic() > end:
            raise RuntimeError(f"sandbox processes of uid {uid} survive SIGKILL: {pids[:10]}")
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError as exc:
                if exc.errno != errno.ESRCH:
                    raise
        time.sleep(0.005)


LIFT_DEPTH = 100  # remove_tree cuts chains of directories deeper than this into pieces


def remove_tree(path: str) -> None:
    """Remove a directory tree whatever the program left in it: any depth (``shutil.rmtree`` recurses, and its
    ``RecursionError`` is no ``OSError``), directories without permissions, odd names. Never raises for what is
    inside; a path that is already gone is fine."""
    for _ in range(10_000):  # each round removes the tree or cuts one chain of LIFT_DEPTH directories
        try:
            shutil.rmtree(path, onerror=_unlock_and_retry)
            return
        except FileNotFoundError:
            return
        except RecursionError:
            _lift_deepest(path)
        except OSError:
            return  # a mount point or the like: nothing more a host can do


def _unlock_and_retry(func: Callable[..., Any], name: str, exc_info: Any) -> None:
    """``rmtree``'s error hook: a directory the program made unreadable (mode 000) is opened up and retried."""
    if func in (os.rmdir, os.unlink) or not isinstance(exc_info[1], PermissionError):
        return
    try:
        os.chmod(name, 0o700)
        shutil.rmtree(name, ignore_errors=True)
    except (OSError, RecursionError):
        pass


def _lift_deepest(path: str) -> None:
    """Follow one chain of subdirectories down (one directory fd open at a time) and move every
    ``LIFT_DEPTH``-th directory on it up beside ``path``'s top entries, so the chain falls into pieces that
    ``rmtree`` can take."""
    top = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    fd = os.dup(top)
    try:
        depth = 0
        while (sub := _first_subdirectory(fd)) is not None:
            depth += 1
            if depth % LIFT_DEPTH == 0:
                lifted = f"lifted-{secrets.token_hex(8)}"
                os.rename(sub, lifted, src_dir_fd=fd, dst_dir_fd=top)
                parent, fd = fd, os.open(lifted, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=top)
            else:
                parent, fd = fd, os.open(sub, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(parent)
    finally:
        os.close(fd)
        os.close(top)


def _first_subdirectory(fd: int) -> str | None:
    """The first subdirectory of directory ``fd`` in the order ``rmtree`` visits them (``scandir``'s)."""
    with os.scandir(fd) as entries:
        return next((e.name for e in entries if e.is_dir(follow_symlinks=False)), None)


class _Tail:
    """The last ``keep`` bytes of a stream, plus how many bytes went by."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.data = bytearray()
        self.total = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        self.data += chunk
        if len(self.data) > 2 * self.keep:
            del self.data[: len(self.data) - self.keep]

    def text(self) -> str:
        return bytes(self.data[-self.keep:]).decode("utf-8", errors="replace")


async def _pump(stream: asyncio.StreamReader | None, tail: _Tail, on_overflow: Callable[[], None]) -> None:
    """Read to EOF; past ``OUTPUT_CAP`` call ``on_overflow`` (which kills the writer) and discard the rest."""
    if stream is None:
        return
    while chunk := await stream.read(65536):
        if tail.total > OUTPUT_CAP:
            continue
        tail.add(chunk)
        if tail.total > OUTPUT_CAP:
            on_overflow()


async def _feed(writer: asyncio.StreamWriter | None, data: bytes | None) -> None:
    if writer is None:
        return
    try:
        if data:
            writer.write(data)
            await writer.drain()
        writer.close()
    except (BrokenPipeError, ConnectionResetError):
        pass


async def _exited(proc: asyncio.subprocess.Process, wall: float) -> bool:
    """Did the process exit within ``wall`` seconds? (``proc.wait()`` also waits for its pipes to close, which a
    daemon that inherited them can delay forever.)"""
    loop = asyncio.get_running_loop()
    end = loop.time() + wall
    while proc.returncode is None:
        if loop.time() >= end:
            return False
        await asyncio.sleep(0.02)
    return True


@sandboxenv(name=LOCAL_SANDBOX)
class LocalLimitedSandbox(SandboxEnvironment):
    """A per-sample directory, uid, cgroup and time budget; every ``exec`` runs jailed (see module doc)."""

    def __init__(self, config: LocalSandboxConfig) -> None:
        super().__init__()
        self.config = config
        # root's path: a dedicated uid; where our user namespace maps none (unsafe-local only) the program keeps ours
        self.drop = config.drop_privileges and os.geteuid() == 0 and not program_would_be_host_root()
        self.uid: int | None = UID_BASE + secrets.randbelow(UID_SPAN) if self.drop else None
        self.directory = tempfile.mkdtemp(prefix="coonbench-sbx-")
        # removed at sample cleanup, or when this object goes away without one (or at exit): never left in /tmp
        self._remove_directory = weakref.finalize(self, remove_tree, self.directory)
        if self.uid is not None:
            os.chown(self.directory, self.uid, self.uid)
        os.chmod(self.directory, 0o700)
        self.cgroup = (
            cgroups.create(config.sample_memory_mb, config.max_processes)
            if memory_mechanism().startswith("cgroup") else None
        )
        if self.cgroup is not None:  # removed at sample cleanup, or when this object goes away without one
            weakref.finalize(self, self.cgroup.remove)
        self.time_used = 0.0

    @classmethod
    def config_deserialize(cls, config: dict[str, Any]) -> BaseModel:
        """Config from a dict (how Inspect passes it around)."""
        return LocalSandboxConfig(**config)

    @classmethod
    async def sample_init(
        cls, task_name: str, config: SandboxEnvironmentConfigType | None, metadata: dict[str, str]
    ) -> dict[str, SandboxEnvironment]:
        """A fresh environment per sample; refused where nothing isolates it, unless the config is ``unsafe``."""
        cfg = config if isinstance(config, LocalSandboxConfig) else LocalSandboxConfig()
        reason = None if cfg.unsafe else refusal()
        if reason is not None:
            raise IsolationUnavailable(reason)
        return {"default": cls(cfg)}

    @classmethod
    async def sample_cleanup(
        cls,
        task_name: str,
        config: SandboxEnvironmentConfigType | None,
        environments: dict[str, SandboxEnvironment],
        interrupted: bool,
    ) -> None:
        """Kill anything of the sample's uid still alive, remove its directory and cgroup."""
        for env in environments.values():
            env.as_type(LocalLimitedSandbox).close()

    def close(self) -> None:
        """Kill what is left of this sample, remove its directory and cgroup."""
        if self.uid is not None:
            sweep_uid(self.uid)
        self._remove_directory()
        if self.cgroup is not None:
            self.cgroup.remove()

    @property
    def mounted(self) -> bool:
        """Does the program see the sample directory at ``INSIDE`` (a private mount namespace)?"""
        return "mount" in jail_namespaces()

    def _resolve(self, file: str) -> str:
        path = Path(file)
        if path.is_absolute() and (file == INSIDE or file.startswith(INSIDE + "/")):
            return self.directory + file[len(INSIDE):]
        return str(path if path.is_absolute() else Path(self.directory) / path)

    def _inside(self, path: str) -> str:
        """How the program names a host path of the sample directory."""
        if self.mounted and (path == self.directory or path.startswith(self.directory + "/")):
            return INSIDE + path[len(self.directory):]
        return path

    def _program_dirs(self, exe: str) -> list[str]:
        """The directory of an absolute program outside the system directories and the sample directory (the
        jail's root view shows only those), to be bound read-only."""
        if not os.path.isabs(exe):
            return []
        real = os.path.realpath(exe)
        return [] if real.startswith((*SYSTEM_PREFIXES, self.directory + "/")) else [os.path.dirname(real)]

    def _view(self, exe: str) -> str | None:
        """The private view (``coonbench.execution.view``) that holds ``VIEW_PROGRAMS`` and ``exe`` (or, for a
        program outside the system directories, its libraries); None: the host's system directories."""
        programs = [found for name in VIEW_PROGRAMS if (found := shutil.which(name, path=SAFE_PATH))]
        # never a program of the sample directory: ``ldd`` on a file a model wrote could run it on the host
        if os.path.isabs(exe) and exe not in programs and not os.path.realpath(exe).startswith(self.directory + "/"):
            programs.append(exe)
        view = system_view(tuple(programs))
        if view is not None and not os.path.isdir(view):  # removed under us (someone emptied /dev/shm): made again
            system_view.cache_clear()
            view = system_view(tuple(programs))
        return view

    def _cleanup_processes(self, pid: int) -> None:
        _kill_group(pid)
        if self.uid is not None:
            sweep_uid(self.uid)

    def jail_config(self, cmd: list[str], cwd: str | None, env: dict[str, str] | None, wall: float) -> dict[str, Any]:
        """What the jail is told for one command (paths as the program sees them)."""
        home = self._inside(self.directory)
        child_env = {"PATH": SAFE_PATH, "HOME": home, "LANG": "C.UTF-8", "TMPDIR": home, **(env or {})}
        exe = shutil.which(cmd[0], path=child_env["PATH"]) if "/" not in cmd[0] else cmd[0]
        if exe is None:
            raise FileNotFoundError(f"{cmd[0]}: command not found")
        namespaces = jail_namespaces()
        cgroup = self.cgroup
        return {
            "parent": os.getpid(),
            "argv": [self._inside(exe), *(self._inside(a) for a in cmd[1:])],
            "extra_dirs": self._program_dirs(exe),
            "view": self._view(exe) if "mount" in namespaces else None,
            "namespaces": list(namespaces),
            "sample_dir": self.directory,
            "workdir": self._inside(self._resolve(cwd) if cwd else self.directory),
            "uid": self.uid,
            "nproc": self.config.max_processes if process_limit_applies(namespaces) else None,
            # One second beyond the wall limit: a single-threaded child always meets the wall clock first
            # (reported as TimeoutError); RLIMIT_CPU is the backstop for a parent that cannot kill it in time.
            "cpu_s": math.ceil(wall) + 1,
            "memory_mb": self.config.memory_mb,
            "file_size_mb": self.config.file_size_mb,
            "disk_mb": self.config.disk_mb,
            "cgroup_procs": cgroup.procs if cgroup is not None else [],
            "memory_watchdog_mb": None if cgroup is not None else self.config.sample_memory_mb,
            "env": child_env,
        }

    async def exec(
        self,
        cmd: list[str],
        input: str | bytes | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        user: str | None = None,
        timeout: int | None = None,
        timeout_retry: bool = True,
        concurrency: bool = True,
    ) -> ExecResult[str]:
        """Run ``cmd`` jailed; TimeoutError past the wall limit (the command's, or what is left of the
        sample's), OutputLimitExceededError past ``OUTPUT_CAP``."""
        left = self.config.sample_time_s - self.time_used
        if left <= 0:
            raise TimeoutError(f"the sample's {self.config.sample_time_s:g} s time budget is spent")
        wall = min(float(timeout) if timeout is not None else self.config.default_timeout_s, left)
        try:
            cfg = self.jail_config(cmd, cwd, env, wall)
        except FileNotFoundError as exc:
            return ExecResult(False, 127, "", str(exc))
        data = input.encode() if isinstance(input, str) else input
        start = time.monotonic()
        try:
            code, stdout, stderr = await self._run(cfg, data, wall)
        finally:
            self.time_used += time.monotonic() - start
        if code == -signal.SIGXCPU or code == -signal.SIGKILL and "CPU" in stderr:
            stderr += "\n(CPU time limit exceeded)"
        return ExecResult(code == 0, code, stdout, stderr)

    async def _run(self, cfg: dict[str, Any], data: bytes | None, wall: float) -> tuple[int, str, str]:
        """Start the jail, feed and read it, kill what is left; (exit code, stdout tail, stderr tail)."""
        argv, fd = jail_command(cfg, cfg.pop("argv"))
        try:
            proc = await asyncio.create_subprocess_exec(
                *argv,
                executable=sys.executable,
                stdin=asyncio.subprocess.PIPE if data is not None else asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env={},
                start_new_session=True,
                pass_fds=(fd,),
            )
        finally:
            os.close(fd)
        out, err = _Tail(OUTPUT_LIMIT), _Tail(OUTPUT_LIMIT)
        kill = lambda: self._cleanup_processes(proc.pid)  # noqa: E731
        io = [
            asyncio.ensure_future(c)
            for c in (_pump(proc.stdout, out, kill), _pump(proc.stderr, err, kill), _feed(proc.stdin, data))
        ]
        waiter = asyncio.ensure_future(proc.wait())
        try:
            if not await _exited(proc, wall):
                raise TimeoutError(f"command exceeded the {wall:g} s time limit")
            # the command ended; a descendant that kept its pipes open gets a moment, then the cleanup below
            await asyncio.wait(io, timeout=2.0)
        finally:
            kill()
            # every process is dead now: the pipes reach EOF, and reading them to the end closes the transport
            await asyncio.wait_for(asyncio.gather(*io, waiter, return_exceptions=True), timeout=10)
        if out.total > OUTPUT_CAP or err.total > OUTPUT_CAP:
            raise OutputLimitExceededError(f"{OUTPUT_CAP // (1024 * 1024)} MiB", out.text())
        code = proc.returncode if proc.returncode is not None else -1
        if code > 128:  # the jail passes a signal s on as 128 + s
            code = -(code - 128)
        return code, out.text(), err.text()

    async def write_file(self, file: str, contents: str | bytes) -> None:
        """Write into the sample directory (parents created; owned by the sample's uid)."""
        path = Path(self._resolve(file))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(contents.encode("utf-8") if isinstance(contents, str) else contents)
        if self.uid is not None:
            for p in [path, *path.parents]:
                if str(p) == self.directory or not str(p).startswith(self.directory):
                    break
                os.chown(p, self.uid, self.uid)

    @overload
    async def read_file(self, file: str, text: Literal[True] = True) -> str: ...

    @overload
    async def read_file(self, file: str, text: Literal[False]) -> bytes: ...

    async def read_file(self, file: str, text: bool = True) -> Union[str, bytes]:
        """Read a file of the sample directory."""
        data = Path(self._resolve(file)).read_bytes()
        return data.decode("utf-8") if text else data


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError as exc:
        if exc.errno not in (errno.ESRCH, errno.EPERM):
            raise
