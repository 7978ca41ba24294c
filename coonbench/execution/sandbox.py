"""Where model-written code runs: Inspect's ``docker`` sandbox when a Docker engine answers, else our own
``coonbench-local`` sandbox environment, which runs each command as a limited child process.

What ``coonbench-local`` enforces (``capabilities()`` reports what this machine allows):
- a fresh temporary directory per sample (the working directory of every command);
- wall-clock timeout (the whole process group is killed), ``RLIMIT_CPU``, ``RLIMIT_AS`` (address space),
  ``RLIMIT_FSIZE`` (file size) and no core dumps;
- an empty environment: only ``PATH``, ``HOME`` (the temp dir), ``LANG`` — nothing is inherited from the parent;
- no network: a fresh network namespace (``unshare(CLONE_NEWNET)``; as root directly, otherwise inside a user
  namespace) leaves the child only a down loopback device. When neither is allowed, the network is NOT isolated
  (``capabilities()["network"] == "none"``); the Python runner still blocks sockets with an audit hook, but
  JavaScript code then has network access — use Docker on such machines;
- when run as root: the child drops to uid/gid ``nobody`` (65534), so it can write only to its temp dir and to
  world-writable places (``/tmp``, ``/dev/shm``), not to the repository or the parent's files.
"""

from __future__ import annotations

import asyncio
import ctypes
import errno
import math
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Union, overload

from inspect_ai.util import (
    ExecResult,
    SandboxEnvironment,
    SandboxEnvironmentConfigType,
    SandboxEnvironmentSpec,
    sandboxenv,
)
from pydantic import BaseModel, ConfigDict, Field

LOCAL_SANDBOX = "coonbench-local"
COMPOSE_FILE = Path(__file__).resolve().parents[2] / "docker" / "correction" / "compose.yaml"
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
NOBODY = 65534
CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000
OUTPUT_LIMIT = 1024 * 1024  # bytes kept per stream


class LocalSandboxConfig(BaseModel):
    """Limits of the local sandbox (per command); frozen because Inspect hashes sandbox specs."""

    model_config = ConfigDict(frozen=True)

    memory_mb: int = Field(default=1024, ge=64, description="RLIMIT_AS; Node needs ~1 GiB of address space")
    file_size_mb: int = Field(default=16, ge=1)
    default_timeout_s: float = Field(default=30.0, gt=0)
    drop_privileges: bool = True


def _libc_unshare(flags: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(ctypes.c_int(flags)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


def _try_netns(method: str) -> None:
    if method == "netns":
        _libc_unshare(CLONE_NEWNET)
    elif method == "userns+netns":
        _libc_unshare(CLONE_NEWUSER | CLONE_NEWNET)


@lru_cache(maxsize=1)
def network_isolation_method() -> Literal["netns", "userns+netns", "none"]:
    """Probe (once, in a throwaway child) which way of cutting the network this machine allows."""
    for method in ("netns", "userns+netns"):
        try:
            proc = subprocess.run(
                [sys.executable, "-c", "pass"],
                preexec_fn=lambda m=method: _try_netns(m),  # type: ignore[misc]
                env={},
                capture_output=True,
                timeout=10,
            )
            if proc.returncode == 0:
                return method  # type: ignore[return-value]
        except (subprocess.SubprocessError, OSError):
            continue
    return "none"


def capabilities() -> dict[str, Any]:
    """What the local sandbox can enforce on this machine (for logs and reports)."""
    return {
        "network": network_isolation_method(),
        "drop_privileges": os.geteuid() == 0,
        "rlimits": ["RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_FSIZE", "RLIMIT_CORE"],
        "environment": "empty (PATH, HOME, LANG only)",
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


def _limits_preexec(cpu_s: int, memory_mb: int, file_size_mb: int, net: str, drop: bool, workdir: str):  # type: ignore[no-untyped-def]
    """The function run in the child between fork and exec (must not touch the event loop)."""

    def preexec() -> None:
        if net != "none":
            _try_netns(net)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
        mem = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        fsize = file_size_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if drop:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
        os.chdir(workdir)

    return preexec


@sandboxenv(name=LOCAL_SANDBOX)
class LocalLimitedSandbox(SandboxEnvironment):
    """A per-sample temp directory; every ``exec`` is a limited, isolated child process (see module doc)."""

    def __init__(self, config: LocalSandboxConfig) -> None:
        super().__init__()
        self.config = config
        self.drop = config.drop_privileges and os.geteuid() == 0
        self.directory = tempfile.mkdtemp(prefix="coonbench-sbx-")
        if self.drop:
            os.chown(self.directory, NOBODY, NOBODY)
        os.chmod(self.directory, 0o700)

    @classmethod
    def config_deserialize(cls, config: dict[str, Any]) -> BaseModel:
        """Config from a dict (how Inspect passes it around)."""
        return LocalSandboxConfig(**config)

    @classmethod
    async def sample_init(
        cls, task_name: str, config: SandboxEnvironmentConfigType | None, metadata: dict[str, str]
    ) -> dict[str, SandboxEnvironment]:
        """A fresh environment (and directory) per sample."""
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
        """Remove each sample's directory."""
        for env in environments.values():
            shutil.rmtree(env.as_type(LocalLimitedSandbox).directory, ignore_errors=True)

    def _resolve(self, file: str) -> str:
        path = Path(file)
        return str(path if path.is_absolute() else Path(self.directory) / path)

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
        """Run ``cmd`` under the limits; raises TimeoutError when the wall-clock limit passes."""
        wall = float(timeout) if timeout is not None else self.config.default_timeout_s
        workdir = self._resolve(cwd) if cwd else self.directory
        child_env = {"PATH": SAFE_PATH, "HOME": self.directory, "LANG": "C.UTF-8"}
        child_env.update(env or {})
        exe = shutil.which(cmd[0], path=child_env["PATH"]) if "/" not in cmd[0] else cmd[0]
        if exe is None:
            return ExecResult(False, 127, "", f"{cmd[0]}: command not found")
        preexec = _limits_preexec(
            # One second beyond the wall limit: a single-threaded child always meets the wall clock first
            # (reported as TimeoutError); RLIMIT_CPU is the backstop for a parent that cannot kill it in time.
            cpu_s=math.ceil(wall) + 1,
            memory_mb=self.config.memory_mb,
            file_size_mb=self.config.file_size_mb,
            net=network_isolation_method(),
            drop=self.drop,
            workdir=workdir,
        )
        data = input.encode() if isinstance(input, str) else input
        proc = await asyncio.create_subprocess_exec(
            exe,
            *cmd[1:],
            stdin=asyncio.subprocess.PIPE if data is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=child_env,
            preexec_fn=preexec,
            start_new_session=True,
        )
        try:
            out, err = await asyncio.wait_for(proc.communicate(data), timeout=wall)
        except asyncio.TimeoutError:
            _kill_group(proc.pid)
            await proc.wait()
            raise TimeoutError(f"command exceeded the {wall:g} s time limit") from None
        finally:
            if proc.returncode is None:
                _kill_group(proc.pid)
        code = proc.returncode if proc.returncode is not None else -1
        stdout = out[-OUTPUT_LIMIT:].decode("utf-8", errors="replace")
        stderr = err[-OUTPUT_LIMIT:].decode("utf-8", errors="replace")
        if code == -signal.SIGXCPU or code == -signal.SIGKILL and "CPU" in stderr:
            stderr += "\n(CPU time limit exceeded)"
        return ExecResult(code == 0, code, stdout, stderr)

    async def write_file(self, file: str, contents: str | bytes) -> None:
        """Write into the sample directory (parents created; readable by the child)."""
        path = Path(self._resolve(file))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(contents.encode("utf-8") if isinstance(contents, str) else contents)
        if self.drop:
            for p in [path, *path.parents]:
                if str(p) == self.directory or not str(p).startswith(self.directory):
                    break
                os.chown(p, NOBODY, NOBODY)

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
        if exc.errno != errno.ESRCH:
            raise
