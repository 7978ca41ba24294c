"""Hostile programs against the local sandbox: each attack is run and its containment asserted.

Attacks: infinite loops (also with the alarm ignored), an 8 GB allocation, a fork bomb through ctypes
(``fork`` + ``setsid``) and through Node's ``child_process`` (detached), a socket through libc, reading
``/etc/passwd``, writing outside the sample directory, a stdout flood, ten children of 420 MiB (the sample's
memory budget), 16 MiB files until the disk is full (its disk budget), a ``setsid`` daemon, a search of the file
system for the answer key, reading the jail's configuration and mounts from ``/proc``. Each holds as root and as
an ordinary user (``.ci/run`` and ``test_attacks_hold_as_an_ordinary_user`` run them again without root);
mechanisms the kernel refuses are skipped with the reason ``capabilities()`` gives.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import secrets
import socket
import sys
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.util import ExecResult, OutputLimitExceededError

from coonbench.execution import AttemptResult, Outcome, Problem, get_executor
from coonbench.execution.sandbox import (
    OUTPUT_CAP,
    LocalLimitedSandbox,
    LocalSandboxConfig,
    capabilities,
    processes_of,
)

CAPS = capabilities()
needs_uid = pytest.mark.skipif(not CAPS["dedicated_uid"], reason="not root: no dedicated uid to limit and sweep")
needs_nproc = pytest.mark.skipif(not CAPS["process_limit"], reason="no RLIMIT_NPROC that counts only the sample "
                                 "(not root, and no user namespace on Linux 5.14+)")
needs_root_view = pytest.mark.skipif(not CAPS["private_root"], reason="this kernel refuses a mount namespace")
needs_pidns = pytest.mark.skipif(not CAPS["pid_namespace"], reason="this kernel refuses a PID namespace")
needs_netns = pytest.mark.skipif(CAPS["network"] == "none", reason="this kernel refuses a network namespace")

PROBLEM = Problem.model_validate(
    {
        "id": "t_attack",
        "category": "basic",
        "complexity": "basic",
        "signature": {"name": "f", "params": [{"name": "n", "type": "int"}], "returns": "int"},
        "description": "identity",
        "tests": [{"input": [1], "expected": 1}, {"input": [2], "expected": 2}],
        "solutions": {"python": "def f(n):\n    return n\n"},
    }
)
ESCAPE = 'const P = console.log.constructor("return process")();\nconst req = P.mainModule.require;\n'


def attempt(target: str, code: str, box: LocalLimitedSandbox | None = None, case_timeout: float = 2.0) -> AttemptResult:
    return asyncio.run(get_executor(target).run(code, PROBLEM, case_timeout=case_timeout, box=box or new_box()))


def new_box() -> LocalLimitedSandbox:
    return LocalLimitedSandbox(LocalSandboxConfig())


def feedback(result: AttemptResult) -> str:
    """Everything of an attempt that is sent back to the model."""
    return " ".join(str(x) for x in (result.message, result.call, result.expected, result.actual))


@pytest.mark.parametrize(
    "code",
    [
        "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\ndef f(n):\n    while True:\n        pass\n",
        "def f(n):\n    return sum(range(10**12))\n",  # C-level: the alarm cannot interrupt it
    ],
    ids=["alarm-ignored", "c-level-loop"],
)
def test_loop_the_worker_cannot_interrupt_is_timeout(code: str) -> None:
    start = time.monotonic()
    result = attempt("python", code, case_timeout=0.5)
    assert result.outcome is Outcome.TIMEOUT, result
    assert time.monotonic() - start < 15


@pytest.mark.parametrize(
    "target,code",
    [
        ("python", "def f(n):\n    block = bytearray(8 * 1024**3)\n    return len(block)\n"),
        ("javascript", "function f(n) { const b = new ArrayBuffer(8 * 2 ** 30); return b.byteLength; }"),
        ("javascript", ESCAPE + "function f(n) { const a = []; for (let i = 0; i < 8; i++) a.push(req('buffer').Buffer.alloc(2 ** 30, 1)); return a.length; }"),
    ],
    ids=["python", "javascript", "javascript-buffer"],
)
def test_8gb_allocation_is_refused(target: str, code: str) -> None:
    result = attempt(target, code)
    assert result.outcome is Outcome.RUNTIME_ERROR, result


FORK_BOMB = """import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
def f(n):
    made = 0
    for _ in range(500):
        pid = libc.fork()
        if pid == 0:
            libc.setsid()
            while True:
                if libc.fork() == 0:
                    libc.setsid()
                time.sleep(0.05)
        if pid < 0:
            break
        made += 1
    return 1000 + made
"""

JS_FORK_BOMB = ESCAPE + """const cp = req("child_process");
let made = 0;
for (let i = 0; i < 200; i++) {
  try { const c = cp.spawn("/bin/sh", ["-c", "while :; do sleep 1000 & sleep 1; done"], { detached: true, stdio: "ignore" });
        c.unref(); if (c.pid) made++; } catch (e) { break; }
}
function f(n) { return 1000 + made; }
"""


@needs_nproc
@pytest.mark.parametrize("target,code", [("python", FORK_BOMB), ("javascript", JS_FORK_BOMB)], ids=["ctypes", "node"])
def test_fork_bomb_is_bounded_and_leaves_nothing_alive(target: str, code: str) -> None:
    """As root the bomb runs as the sample's uid; otherwise as ours: either way no new process of that uid working
    in the sample's directory is left afterwards (other users of this machine come and go, so only that uid is
    counted)."""
    box = new_box()
    owner = box.uid if box.uid is not None else os.getuid()
    before = set(processes_of(owner))
    assert box.uid is None or not before
    result = attempt(target, code, box=box, case_timeout=3)
    assert result.outcome is Outcome.WRONG_OUTPUT, result
    made = int(result.actual or 0) - 1000
    assert 5 <= made < box.config.max_processes, f"the bomb made {made} processes (limit {box.config.max_processes})"
    left = [p for p in processes_of(owner) if p not in before and _of_the_sample(p, box)]
    assert left == [], f"sandbox processes survived the run: {left}"


def _of_the_sample(pid: int, box: LocalLimitedSandbox) -> bool:
    """Whether process ``pid`` belongs to the sample: it lives in the jail's own root, or works in the sample's
    directory. The bomb's processes do; a process of ours that merely started meanwhile does not. Read from
    ``/proc`` once, with no wait."""
    try:
        root, cwd = os.readlink(f"/proc/{pid}/root"), os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return False  # gone
    return root != os.readlink("/proc/self/root") or cwd == box.directory or cwd.startswith(box.directory + "/")


LIBC_SOCKET = """import ctypes, socket, struct
libc = ctypes.CDLL(None, use_errno=True)
def f(n):
    fd = libc.socket(socket.AF_INET, socket.SOCK_STREAM, 0)
    if fd < 0:
        return -ctypes.get_errno()
    addr = struct.pack("=HH4s8x", socket.AF_INET, socket.htons(PORT), socket.inet_aton("127.0.0.1"))
    if libc.connect(fd, ctypes.c_char_p(addr), len(addr)) == 0:
        return 4242
    return -ctypes.get_errno()
"""


@needs_netns
@pytest.mark.parametrize("target", ["python", "javascript"])
def test_socket_through_libc_or_node_reaches_nothing(target: str) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(0.5)
    port = server.getsockname()[1]
    accepted: list[object] = []
    host_accepted = threading.Event()

    def accept() -> None:
        end = time.monotonic() + 120
        while time.monotonic() < end:
            try:
                accepted.append(server.accept())
                host_accepted.set()
            except OSError:
                if server.fileno() < 0:
                    return

    threading.Thread(target=accept, daemon=True).start()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            pass  # sanity: the host itself can connect
        assert host_accepted.wait(timeout=60), "the host's own connection was never accepted"
        accepted.clear()  # from here on only the program's connections would count
        code = {
            "python": LIBC_SOCKET.replace("PORT", str(port)),
            "javascript": ESCAPE + "const cp = req('child_process');\n"
            "function f(n) { const r = cp.spawnSync(P.execPath, ['-e', \"require('net').connect(%d, '127.0.0.1')"
            ".on('connect', () => process.exit(42)).on('error', () => process.exit(7))\"]); return r.status; }" % port,
        }[target]
        result = attempt(target, code, case_timeout=5)
        # a refused socket (-EPERM), a failed connection, or (Node) no child at all: libuv's piped stdio needs the
        # socketpair the jail refuses, so spawnSync returns a null status
        assert result.outcome in (Outcome.WRONG_OUTPUT, Outcome.TYPE_ERROR), result
        assert result.actual not in ("4242", "42"), result
        assert accepted == []
    finally:
        server.close()


@needs_root_view
@pytest.mark.parametrize(
    "target,code",
    [
        ("python", "def f(n):\n    return len(open('/etc/passwd').read()) * 0 + int(open('/etc/passwd').read())\n"),
        ("python", "import os\ndef f(n):\n    raise ValueError(open('/etc/passwd').read())\n"),
        ("javascript", ESCAPE + "function f(n) { throw new Error(req('fs').readFileSync('/etc/passwd', 'utf8')); }"),
    ],
    ids=["python-int", "python-raise", "javascript"],
)
def test_host_files_do_not_reach_the_feedback(target: str, code: str) -> None:
    assert "root:" in Path("/etc/passwd").read_text()  # the host file exists and would leak
    result = attempt(target, code)
    assert result.outcome is Outcome.RUNTIME_ERROR, result
    assert "root:" not in feedback(result) and "/bin/" not in feedback(result)
    assert "ENOENT" in result.message or "No such file" in result.message, result.message


WRITER = """import os
TARGETS = TARGET_LIST
def f(n):
    ok = 0
    for path in TARGETS:
        try:
            with open(path, "w") as fh:
                fh.write("escaped")
            ok += 1
        except OSError:
            pass
    with open("inside.txt", "w") as fh:
        fh.write("fine")
    return 1000 + ok
"""


@pytest.mark.skipif(not (CAPS["dedicated_uid"] or CAPS["private_root"]),
                    reason="neither a dedicated uid nor a mount namespace: the program writes as the caller")
def test_writes_outside_the_directory_are_refused(tmp_path: Path) -> None:
    open_dir = tmp_path / "world-writable"
    open_dir.mkdir()
    os.chmod(tmp_path, 0o755)
    os.chmod(open_dir, 0o777)
    box = new_box()
    repo = Path(__file__).resolve().parents[1]
    targets = [
        str(open_dir / "x.txt"),
        "/tmp/coonbench-escape.txt",
        "/dev/shm/coonbench-escape.txt",
        str(repo / "escape.txt"),
        str(Path(box.directory).parent / "coonbench-escape.txt"),
        "/etc/coonbench-escape",
        "/usr/coonbench-escape",
    ]
    result = attempt("python", WRITER.replace("TARGET_LIST", repr(targets)), box=box)
    assert result.outcome is Outcome.WRONG_OUTPUT and result.actual == "1000", result
    assert not any(Path(t).exists() for t in targets)
    assert any(p.name == "inside.txt" for p in Path(box.directory).rglob("*"))


def _rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_stdout_flood_is_read_incrementally_and_cut() -> None:
    box = new_box()
    code = "import os\nchunk = b'x' * 65536\nwhile True:\n    os.write(1, chunk)\n"
    asyncio.run(box.write_file("flood.py", code))
    rss_before = _rss_kb()
    tracemalloc.start()
    try:
        start = time.monotonic()
        with pytest.raises(OutputLimitExceededError) as err:
            asyncio.run(box.exec(["python3", "-I", "flood.py"], timeout=60))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.monotonic() - start < 30
    assert err.value.truncated_output is not None and len(err.value.truncated_output) <= 1024 * 1024
    assert peak < 8 * 1024 * 1024, f"host allocations peaked at {peak} bytes for a flood cut at {OUTPUT_CAP}"
    assert _rss_kb() - rss_before < 16 * 1024
    if box.uid is not None:
        assert processes_of(box.uid) == []


def test_flood_on_the_answer_channel_is_a_runtime_error() -> None:
    code = ESCAPE + "function f(n) { const s = 'x'.repeat(1 << 20); for (;;) req('fs').writeSync(1, s); }"
    result = attempt("javascript", code, case_timeout=5)
    assert result.outcome is Outcome.RUNTIME_ERROR and "bytes as one answer" in result.message, result


NS_FILES = {"user": "user", "pid": "pid", "mount": "mnt", "net": "net", "ipc": "ipc", "uts": "uts"}  # name: /proc
OBSERVE = f"""import json, os, resource
ns = {{}}
for name, file in {NS_FILES!r}.items():
    try:
        ns[name] = os.readlink("/proc/self/ns/" + file)
    except OSError:
        ns[name] = None
limits = {{n: resource.getrlimit(getattr(resource, n))[0] for n in ("RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_FSIZE",
                                                                  "RLIMIT_CORE", "RLIMIT_NPROC")}}
with open("/proc/self/net/dev") as fh:  # the jail refuses socket(), which if_nameindex() needs
    interfaces = sorted(line.split(":")[0].strip() for line in fh.read().splitlines()[2:])
print(json.dumps({{"ns": ns, "uid": os.getuid(), "limits": limits, "interfaces": interfaces}}))
"""
"""What a program in the sandbox sees of itself: its namespaces (as ``/proc/self/ns`` names them), uid, resource
limits and network interfaces (``/proc/self/net/dev``)."""


def run_in_a_box(name: str, code: str, config: LocalSandboxConfig | None = None, timeout: int = 60) -> ExecResult[str]:
    """``code`` run as the Python program ``name`` in a fresh sandbox, closed afterwards."""
    box = LocalLimitedSandbox(config or LocalSandboxConfig())
    try:
        asyncio.run(box.write_file(name, code))
        return asyncio.run(box.exec(["python3", "-I", name], timeout=timeout))
    finally:
        box.close()


def own_namespaces(ns: dict[str, str | None]) -> list[str]:
    """The namespaces (``NS_FILES`` names) of ``ns``, as ``OBSERVE`` read them, that this process does not share."""
    return sorted(n for n, file in NS_FILES.items() if ns[n] != os.readlink(f"/proc/self/ns/{file}"))


def observed_in_the_sandbox(config: LocalSandboxConfig | None = None) -> dict[str, Any]:
    """``OBSERVE`` run in a fresh sandbox, with the namespaces it does not share with this process (``own``)."""
    out = run_in_a_box("observe.py", OBSERVE, config)
    assert out.success, out
    seen = json.loads(out.stdout)
    seen["own"] = own_namespaces(seen["ns"])
    return seen


def test_capabilities_say_what_is_enforced() -> None:
    """Each claim of ``capabilities()`` (what the logs record) against what a program in the sandbox sees: the
    namespaces it does not share with the host, its uid, its resource limits."""
    config = LocalSandboxConfig()
    caps = capabilities(config)
    seen = observed_in_the_sandbox(config)
    assert sorted(caps["namespaces"]) == seen["own"], seen
    assert caps["user_namespace"] == ("user" in seen["own"])
    assert caps["pid_namespace"] == ("pid" in seen["own"]) and caps["private_root"] == ("mount" in seen["own"])
    assert (caps["isolation"] == "full") == ({"pid", "mount", "net"} <= set(seen["own"]))
    if caps["dedicated_uid"]:
        assert seen["uid"] not in (0, os.getuid()), seen
    limits = {"RLIMIT_AS": config.memory_mb * 1024 * 1024, "RLIMIT_FSIZE": config.file_size_mb * 1024 * 1024,
              "RLIMIT_NPROC": config.max_processes}
    for name in caps["rlimits"]:  # each one claimed is set, to the configured value where there is one
        assert seen["limits"][name] != resource.RLIM_INFINITY, (name, seen)
        assert seen["limits"][name] == limits.get(name, seen["limits"][name]), (name, seen)
    if "RLIMIT_NPROC" not in caps["rlimits"]:
        assert seen["limits"]["RLIMIT_NPROC"] != config.max_processes, seen


def _alive(*argv: str) -> list[int]:
    """Host pids whose command line is exactly ``argv``."""
    want = ("\0".join(argv) + "\0").encode()
    found = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and Path(f"/proc/{entry}/cmdline").read_bytes() == want:
                found.append(int(entry))
        except OSError:
            continue
    return found


@pytest.mark.parametrize("namespaces", ["probed", "none"])
def test_setsid_daemon_holding_the_pipes_does_not_outlive_the_command(
    namespaces: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the PID namespace the kernel kills it; without any namespace the uid sweep does, after a short grace."""
    if namespaces == "none":
        if not CAPS["dedicated_uid"]:
            pytest.skip("not root: without namespaces no dedicated uid sweeps the daemon")
        monkeypatch.setattr("coonbench.execution.sandbox.jail_namespaces", lambda: ())
    elif not CAPS["pid_namespace"]:
        pytest.skip("this kernel refuses a PID namespace")
    box = new_box()
    marker = f"{300 + secrets.randbelow(10**6) / 10**6:.6f}"
    start = time.monotonic()
    result = asyncio.run(box.exec(["sh", "-c", f"setsid sleep {marker} & echo started"], timeout=60))
    assert result.success and result.stdout.strip() == "started", result
    assert time.monotonic() - start < 20
    assert _alive("sleep", marker) == [], "the daemon survived its command"
    assert box.uid is None or processes_of(box.uid) == []


@needs_root_view
def test_program_outside_the_system_dirs_runs_and_only_its_directory_is_shown(tmp_path: Path) -> None:
    """A runner like ``goth`` living in e.g. ``~/.cargo/bin`` is bound read-only; its siblings' parent is not."""
    bindir = tmp_path / "tools" / "bin"
    bindir.mkdir(parents=True)
    (tmp_path / "tools" / "secret.txt").write_text("not for the sandbox")
    tool = bindir / "fake-goth"
    tool.write_text("#!/bin/sh\nls /proc/self/ >/dev/null; echo ran; cat ../secret.txt 2>&1 || true; touch x 2>&1\n")
    os.chmod(tmp_path, 0o755)
    os.chmod(tmp_path / "tools", 0o755)
    os.chmod(bindir, 0o755)
    tool.chmod(0o755)
    box = new_box()
    result = asyncio.run(box.exec([str(tool)], cwd=str(bindir), timeout=30))
    assert "ran" in result.stdout, result
    assert "not for the sandbox" not in result.stdout
    assert not (bindir / "x").exists()


def test_host_file_lines_are_redacted_where_the_sandbox_cannot_hide_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a mount namespace /etc/passwd is readable; its lines are still cut out of the feedback."""
    monkeypatch.setattr("coonbench.execution.sandbox.jail_namespaces", lambda: ())
    code = "def f(n):\n    raise ValueError(open('/etc/passwd').read()[:400])\n"
    result = attempt("python", code)
    assert result.outcome is Outcome.RUNTIME_ERROR, result
    assert "[host file content redacted]" in result.message
    first = Path("/etc/passwd").read_text().splitlines()[0]
    assert first not in feedback(result)
