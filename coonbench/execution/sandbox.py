"""Where model-written code runs: Inspect's ``docker`` sandbox when a Docker engine answers, else our own
``coonbench-local`` sandbox environment, which runs each command through ``jail.py`` (see there).

What ``coonbench-local`` enforces (``capabilities()`` reports what this machine allows; ``docs/sandbox.md``):
- a fresh temporary directory per sample and a dedicated random uid per sample (when we are root): the
  child can write only there, ``RLIMIT_NPROC`` bounds its processes, and every process of that uid is killed
  when a command ends (the "uid sweep"), whatever session or process group it moved to;
- a fresh PID namespace: when the command ends, its PID 1 exits and the kernel kills all that remains;
- a fresh mount namespace with an empty root view: read-only ``/usr`` and libraries, ``/dev/null`` & co., the
  sample directory, an empty ``/etc`` — host files such as ``/etc/passwd`` do not exist for the child;
- no network: a fresh network namespace (only a down loopback device; as root directly, otherwise inside a user
  namespace); when neither is allowed the network is NOT isolated (``capabilities()["network"] == "none"``);
- wall-clock timeout, ``RLIMIT_CPU``, ``RLIMIT_AS``, ``RLIMIT_FSIZE``, no core dumps, ``no_new_privs``;
- an empty environment (``PATH``, ``LANG``, ``HOME`` and ``TMPDIR`` = the sample directory);
- output read incrementally: the last ``OUTPUT_LIMIT`` bytes of each stream are kept, and a command writing more
  than ``OUTPUT_CAP`` bytes is killed (``OutputLimitExceededError``), so a flood cannot grow the host.
"""

from __future__ import annotations

import asyncio
import errno
import json
import math
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from functools import lru_cache
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
from pydantic import BaseModel, ConfigDict, Field

LOCAL_SANDBOX = "coonbench-local"
COMPOSE_FILE = Path(__file__).resolve().parents[2] / "docker" / "correction" / "compose.yaml"
JAIL_SCRIPT = Path(__file__).resolve().with_name("jail.py")
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
ALL_NAMESPACES = ("pid", "mount", "net", "ipc", "uts")
UID_BASE, UID_SPAN = 2_000_000, 1 << 30  # dedicated uids: no account, no files outside the sample directory
OUTPUT_LIMIT = 1024 * 1024  # bytes kept per stream (the tail)
OUTPUT_CAP = 10 * 1024 * 1024  # bytes per stream after which the command is killed (as Inspect's docker does)
JAIL_FAILED = 127


class LocalSandboxConfig(BaseModel):
    """Limits of the local sandbox (per command); frozen because Inspect hashes sandbox specs."""

    model_config = ConfigDict(frozen=True)

    memory_mb: int = Field(default=1024, ge=64, description="RLIMIT_AS; Node needs ~1 GiB of address space")
    file_size_mb: int = Field(default=16, ge=1)
    default_timeout_s: float = Field(default=30.0, gt=0)
    max_processes: int = Field(default=64, ge=4, description="RLIMIT_NPROC of the dedicated uid (threads count)")
    drop_privileges: bool = True


def _jail_argv(cfg: dict[str, Any], command: list[str]) -> list[str]:
    return [sys.executable, "-I", "-S", str(JAIL_SCRIPT), json.dumps(cfg), *command]


def _probe(namespaces: list[str]) -> bool:
    """Does a jail with these namespaces start ``/bin/true`` here?"""
    with tempfile.TemporaryDirectory(prefix="coonbench-probe-") as tmp:
        cfg = {"parent": os.getpid(), "namespaces": namespaces, "sample_dir": tmp, "workdir": tmp, "uid": None,
               "nproc": 64, "cpu_s": 10, "memory_mb": 1024, "file_size_mb": 1, "env": {"PATH": SAFE_PATH}}
        true = shutil.which("true", path=SAFE_PATH) or "/bin/true"
        try:
            proc = subprocess.run(_jail_argv(cfg, [true]), capture_output=True, timeout=20, start_new_session=True)
        except (subprocess.SubprocessError, OSError):
            return False
        return proc.returncode == 0


@lru_cache(maxsize=1)
def jail_namespaces() -> tuple[str, ...]:
    """The namespaces this machine lets the jail create (probed once, in throwaway children)."""
    if os.geteuid() == 0:
        if _probe(list(ALL_NAMESPACES)):
            return ALL_NAMESPACES
        return tuple(ns for ns in ALL_NAMESPACES if _probe([ns]))
    if _probe(["user", "net"]):
        return ("user", "net")
    return ()


def network_isolation_method() -> Literal["netns", "userns+netns", "none"]:
    """How the network is cut here: a network namespace (as root or inside a user namespace) or not at all."""
    namespaces = jail_namespaces()
    if "net" not in namespaces:
        return "none"
    return "userns+netns" if "user" in namespaces else "netns"


def capabilities() -> dict[str, Any]:
    """What the local sandbox enforces on this machine (for logs, reports and test skips)."""
    namespaces = jail_namespaces()
    root = os.geteuid() == 0
    kill = ["process group"] + (["uid sweep"] if root else []) + (["PID namespace"] if "pid" in namespaces else [])
    return {
        "namespaces": list(namespaces),
        "network": network_isolation_method(),
        "pid_namespace": "pid" in namespaces,
        "private_root": "mount" in namespaces,
        "dedicated_uid": root,
        "drop_privileges": root,
        "process_limit": "RLIMIT_NPROC on the dedicated uid" if root else None,
        "kill_all": " + ".join(kill),
        "cgroup": "not used: RLIMIT_NPROC on a dedicated uid bounds processes, the PID namespace and uid sweep kill them",
        "rlimits": ["RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_FSIZE", "RLIMIT_CORE"] + (["RLIMIT_NPROC"] if root else []),
        "output": f"read incrementally; last {OUTPUT_LIMIT} bytes kept per stream, killed past {OUTPUT_CAP}",
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


def choose_sandbox(
    kind: Literal["auto", "docker", "local"] = "auto", config: LocalSandboxConfig | None = None
) -> SandboxEnvironmentSpec:
    """The sandbox spec for the task: docker when asked for or available, else coonbench-local."""
    if kind == "docker" or (kind == "auto" and docker_available()):
        return SandboxEnvironmentSpec("docker", str(COMPOSE_FILE))
    return SandboxEnvironmentSpec(LOCAL_SANDBOX, config or LocalSandboxConfig())


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
    """A per-sample temp directory and uid; every ``exec`` runs jailed (see module doc)."""

    def __init__(self, config: LocalSandboxConfig) -> None:
        super().__init__()
        self.config = config
        self.drop = config.drop_privileges and os.geteuid() == 0
        self.uid: int | None = UID_BASE + secrets.randbelow(UID_SPAN) if self.drop else None
        self.directory = tempfile.mkdtemp(prefix="coonbench-sbx-")
        if self.uid is not None:
            os.chown(self.directory, self.uid, self.uid)
        os.chmod(self.directory, 0o700)

    @classmethod
    def config_deserialize(cls, config: dict[str, Any]) -> BaseModel:
        """Config from a dict (how Inspect passes it around)."""
        return LocalSandboxConfig(**config)

    @classmethod
    async def sample_init(
        cls, task_name: str, config: SandboxEnvironmentConfigType | None, metadata: dict[str, str]
    ) -> dict[str, SandboxEnvironment]:
        """A fresh environment (directory and uid) per sample."""
        cfg = config if isinstance(config, LocalSandboxConfig) else LocalSandboxConfig()
        return {"default": cls(cfg)}

    @classmethod
    async def sample_cleanup(
        cls,
        task_name: str,
        config: SandboxEnvironmentConfigType | None,
        environments: dict[str, SandboxEnvironment],
        interrupted: bool,
    ) -> None:
        """Kill anything of the sample's uid still alive, remove its directory."""
        for env in environments.values():
            box = env.as_type(LocalLimitedSandbox)
            if box.uid is not None:
                sweep_uid(box.uid)
            shutil.rmtree(box.directory, ignore_errors=True)

    def _resolve(self, file: str) -> str:
        path = Path(file)
        return str(path if path.is_absolute() else Path(self.directory) / path)

    def _program_dirs(self, exe: str) -> list[str]:
        """The directory of an absolute program outside the system directories and the sample directory (the
        jail's root view shows only those), to be bound read-only."""
        if not os.path.isabs(exe):
            return []
        real = os.path.realpath(exe)
        inside = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/lib32/", "/libx32/", self.directory + "/")
        return [] if real.startswith(inside) else [os.path.dirname(real)]

    def _cleanup_processes(self, pid: int) -> None:
        _kill_group(pid)
        if self.uid is not None:
            sweep_uid(self.uid)

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
        """Run ``cmd`` jailed; TimeoutError past the wall limit, OutputLimitExceededError past ``OUTPUT_CAP``."""
        wall = float(timeout) if timeout is not None else self.config.default_timeout_s
        workdir = self._resolve(cwd) if cwd else self.directory
        child_env = {"PATH": SAFE_PATH, "HOME": self.directory, "LANG": "C.UTF-8", "TMPDIR": self.directory}
        child_env.update(env or {})
        exe = shutil.which(cmd[0], path=child_env["PATH"]) if "/" not in cmd[0] else cmd[0]
        if exe is None:
            return ExecResult(False, 127, "", f"{cmd[0]}: command not found")
        cfg = {
            "parent": os.getpid(),
            "extra_dirs": self._program_dirs(exe),
            "namespaces": list(jail_namespaces()),
            "sample_dir": self.directory,
            "workdir": workdir,
            "uid": self.uid,
            "nproc": self.config.max_processes,
            # One second beyond the wall limit: a single-threaded child always meets the wall clock first
            # (reported as TimeoutError); RLIMIT_CPU is the backstop for a parent that cannot kill it in time.
            "cpu_s": math.ceil(wall) + 1,
            "memory_mb": self.config.memory_mb,
            "file_size_mb": self.config.file_size_mb,
            "env": child_env,
        }
        data = input.encode() if isinstance(input, str) else input
        proc = await asyncio.create_subprocess_exec(
            *_jail_argv(cfg, [exe, *cmd[1:]]),
            stdin=asyncio.subprocess.PIPE if data is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env={},
            start_new_session=True,
        )
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
        stdout, stderr = out.text(), err.text()
        if code == -signal.SIGXCPU or code == -signal.SIGKILL and "CPU" in stderr:
            stderr += "\n(CPU time limit exceeded)"
        return ExecResult(code == 0, code, stdout, stderr)

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
