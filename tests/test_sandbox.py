"""The local sandbox holds: timeouts, memory, empty environment, no network, files only in its directory."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.scorer import includes
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import sandbox

from coonbench.execution import Outcome, Problem, get_executor, isolation
from coonbench.execution.isolation import UNGATED, IsolationUnavailable
from coonbench.execution.sandbox import (
    SANDBOX_METADATA_KEY,
    LocalLimitedSandbox,
    LocalSandboxConfig,
    capabilities,
    choose_sandbox,
    network_isolation_method,
    processes_of,
    sandbox_metadata,
)

LOOP_PROBLEM = Problem.model_validate(
    {
        "id": "t_loop",
        "category": "basic",
        "complexity": "basic",
        "signature": {"name": "f", "params": [{"name": "n", "type": "int"}], "returns": "int"},
        "description": "test",
        "tests": [{"input": [1], "expected": 1}, {"input": [2], "expected": 2}],
        "solutions": {"python": "def f(n):\n    return n\n"},
    }
)


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


def make_box(**kw: int) -> LocalLimitedSandbox:
    return LocalLimitedSandbox(LocalSandboxConfig(**kw))


async def _py(box: LocalLimitedSandbox, code: str, timeout: int = 10):  # type: ignore[no-untyped-def]
    await box.write_file("probe.py", code)
    return await box.exec(["python3", "-I", "probe.py"], timeout=timeout)


@pytest.mark.parametrize("target", ["python", "javascript"])
def test_infinite_loop_is_timeout_within_limit(target: str) -> None:
    code = {"python": "def f(n):\n    while True:\n        pass\n", "javascript": "function f(n) { while (true) {} }"}
    start = time.monotonic()
    result = run(get_executor(target).run(code[target], LOOP_PROBLEM, case_timeout=0.5, box=make_box()))
    assert result.outcome is Outcome.TIMEOUT
    assert time.monotonic() - start < 8


def test_uninterruptible_loop_hits_wall_clock() -> None:
    """C-level work the per-case alarm cannot interrupt still ends as TIMEOUT via the sandbox's wall limit: the
    error names the command's 2 s (the CPU limit, one second later, would end it with SIGXCPU and no TimeoutError),
    and no process of the sample is left."""
    box = make_box()
    with pytest.raises(TimeoutError, match=r"exceeded the 2 s time limit"):
        run(_py(box, "import time\nwhile True:\n    time.sleep(0.01) if False else sum(range(10**6))\n", timeout=2))
    if box.uid is not None:
        assert processes_of(box.uid) == []


def test_cpu_and_memory_rlimits_are_set() -> None:
    """RLIMIT_CPU is the wall limit (ceil) plus one second of backstop, RLIMIT_AS the configured memory."""
    box = make_box(memory_mb=700)
    code = "import resource\nprint(resource.getrlimit(resource.RLIMIT_CPU)[0], resource.getrlimit(resource.RLIMIT_AS)[0])\n"
    out = run(_py(box, code, timeout=3))
    assert out.stdout.split() == ["4", str(700 * 1024 * 1024)]


@pytest.mark.parametrize("target", ["python", "javascript"])
def test_memory_bomb_is_stopped(target: str) -> None:
    code = {
        "python": "def f(n):\n    x = []\n    while True:\n        x.append(' ' * 10**7)\n",
        "javascript": "function f(n) { const x = []; while (true) { x.push(new Array(1e6).fill(n)); } }",
    }
    start = time.monotonic()
    result = run(get_executor(target).run(code[target], LOOP_PROBLEM, case_timeout=5, box=make_box()))
    assert result.outcome is Outcome.RUNTIME_ERROR, f"expected the memory limit to stop it, got {result}"
    assert time.monotonic() - start < 20


def test_child_sees_no_parent_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "secret-2")
    box = make_box()
    out = run(_py(box, "import os, json\nprint(json.dumps(dict(os.environ)))\n"))
    assert out.success, out.stderr
    assert "secret" not in out.stdout
    assert "OPENAI_API_KEY" not in out.stdout
    node = run(box.exec(["node", "-e", "console.log(JSON.stringify(process.env))"]))
    assert "OPENAI_API_KEY" not in node.stdout and node.success


def _listening_server() -> tuple[socket.socket, int]:
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    threading.Thread(target=lambda: [server.accept() for _ in range(5)], daemon=True).start()
    return server, server.getsockname()[1]


@pytest.mark.skipif(network_isolation_method() == "none", reason="this machine allows no network namespace")
def test_network_connection_fails_from_child() -> None:
    server, port = _listening_server()
    try:
        # sanity: the parent can connect
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            pass
        box = make_box()
        probe = (
            "import socket, sys\n"
            "results = []\n"
            f"for host, port in [('127.0.0.1', {port}), ('1.1.1.1', 80), ('8.8.8.8', 53)]:\n"
            "    try:\n"  # the jail refuses socket() itself (EPERM); where it does not, connecting fails
            "        s = socket.socket(); s.settimeout(2)\n"
            "        results.append(s.connect_ex((host, port)))\n"
            "    except OSError as exc:\n"
            "        results.append(exc.errno)\n"
            "print(results)\n"
        )
        out = run(_py(box, probe))
        assert out.success, out.stderr
        codes = eval(out.stdout.strip())
        assert all(code != 0 for code in codes), codes
        js = (
            "const net = require('net'); const s = net.connect({host: '127.0.0.1', port: %d});"
            "s.on('connect', () => { console.log('CONNECTED'); process.exit(0); });"
            "s.on('error', (e) => { console.log('ERR ' + e.code); process.exit(0); });" % port
        )
        node = run(box.exec(["node", "-e", js], timeout=10))
        assert "CONNECTED" not in node.stdout and "ERR" in node.stdout, node
    finally:
        server.close()


def test_python_runner_blocks_sockets_even_without_namespace() -> None:
    code = "import socket\ndef f(n):\n    socket.create_connection(('1.1.1.1', 80), timeout=1)\n    return n\n"
    result = run(get_executor("python").run(code, LOOP_PROBLEM, case_timeout=2, box=make_box()))
    assert result.outcome is Outcome.RUNTIME_ERROR and "not allowed" in result.message


def test_files_land_only_in_the_temp_dir(tmp_path: Path) -> None:
    os.chmod(tmp_path, 0o755)
    box = make_box()
    target = tmp_path / "escaped.txt"
    probe = (
        "import os\n"
        "open('inside.txt', 'w').write('x')\n"
        f"try:\n    open({str(target)!r}, 'w').write('x')\n    print('WROTE')\nexcept OSError as e:\n    print('DENIED', e.errno)\n"
        "print(os.getcwd())\n"
    )
    out = run(_py(box, probe))
    assert out.success, out.stderr
    assert (Path(box.directory) / "inside.txt").exists()
    # the program sees its directory at a neutral path, never the host's temporary directory
    assert out.stdout.splitlines()[-1] == ("/sandbox" if capabilities()["private_root"] else box.directory)
    if capabilities()["drop_privileges"]:
        assert "DENIED" in out.stdout and not target.exists()
    assert not (Path.cwd() / "inside.txt").exists()
    run(LocalLimitedSandbox.sample_cleanup("t", None, {"default": box}, False))
    assert not Path(box.directory).exists()


def test_each_sample_gets_a_fresh_directory() -> None:
    a, b = run(LocalLimitedSandbox.sample_init("t", LocalSandboxConfig(), {})), run(
        LocalLimitedSandbox.sample_init("t", LocalSandboxConfig(), {})
    )
    da, db = a["default"].as_type(LocalLimitedSandbox).directory, b["default"].as_type(LocalLimitedSandbox).directory
    assert da != db and os.listdir(da) == [] and os.listdir(db) == []


def test_capabilities_reports_network_method() -> None:
    """``capabilities()["network"]`` against what a program in the sandbox sees: with a network namespace of its
    own (in a user namespace of its own: ``userns+netns``) only the loopback interface, without one the host's."""
    from tests.test_sandbox_attacks import observed_in_the_sandbox

    network = capabilities()["network"]
    seen = observed_in_the_sandbox()
    if network == "none":
        assert "net" not in seen["own"] and seen["interfaces"] == sorted(n for _, n in socket.if_nameindex()), seen
    else:
        assert "net" in seen["own"] and seen["interfaces"] == ["lo"], seen
        assert network == ("userns+netns" if "user" in seen["own"] else "netns"), seen


def test_without_isolation_the_task_refuses_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only user + network namespaces (no private root, no PID namespace): the local sandbox is refused, at task
    creation and at sample start, unless the run asks for unsafe-local, which the metadata flags as ungated."""
    monkeypatch.setattr(isolation, "jail_namespaces", lambda: ("user", "net"))
    monkeypatch.setattr(isolation, "docker_available", lambda: False)
    with pytest.raises(IsolationUnavailable) as err:
        choose_sandbox("auto")
    assert "-T sandbox=docker" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(IsolationUnavailable):
        run(LocalLimitedSandbox.sample_init("t", LocalSandboxConfig(), {}))
    meta = sandbox_metadata(choose_sandbox("unsafe-local"))
    assert meta["kind"] == "unsafe-local" and meta["gated"] is False and meta["warning"] == UNGATED
    assert meta["enforced"]["isolation"].startswith("none")


@solver
def _observe_in_sandbox() -> Solver:
    """Reply with what a program in the sample's sandbox sees of itself (``OBSERVE``)."""
    from tests.test_sandbox_attacks import OBSERVE

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        await sandbox().write_file("observe.py", OBSERVE)
        result = await sandbox().exec(["python3", "-I", "observe.py"])
        state.output.completion = result.stdout
        return state

    return solve


def test_correction_log_records_the_sandbox(tmp_path: Path) -> None:
    """What a correction log records about its sandbox against what Inspect ran the sample in (the sandbox type in
    the log) and what a program in that sandbox saw: its own namespaces, so whether grading was gated."""
    from coonbench.evals.correction import correction
    from tests.test_sandbox_attacks import own_namespaces

    [log] = inspect_eval(correction(target="python", limit=1), model="mockllm/model", solver=_observe_in_sandbox(),
                         log_dir=str(tmp_path), display="none")
    assert log.status == "success" and log.samples, log.error
    meta = log.eval.metadata[SANDBOX_METADATA_KEY]
    ran_in = log.eval.sandbox.type if log.eval.sandbox else None
    assert meta["kind"] == {"coonbench-local": "local", "docker": "docker"}[str(ran_in)], (meta["kind"], ran_in)
    if meta["kind"] == "local":
        own = own_namespaces(json.loads(log.samples[0].output.completion)["ns"])
        assert meta["gated"] is ({"pid", "mount", "net"} <= set(own)), (meta, own)
        assert sorted(meta["enforced"]["namespaces"]) == own, (meta, own)


@solver
def _print_in_sandbox() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        result = await sandbox().exec(["python3", "-c", "import os; print(6 * 7, os.getcwd())"])
        state.output.completion = result.stdout.strip()
        return state

    return solve


def test_unsafe_local_runs_and_is_flagged_in_the_log(tmp_path: Path) -> None:
    spec = choose_sandbox("unsafe-local")
    task = Task(dataset=[Sample(input="x", target="42")], solver=_print_in_sandbox(), scorer=includes(),
                sandbox=spec, metadata={SANDBOX_METADATA_KEY: sandbox_metadata(spec)})
    log = inspect_eval(task, model="mockllm/model", log_dir=str(tmp_path), display="none")[0]
    assert log.status == "success" and log.samples and log.samples[0].output.completion.startswith("42 "), log.error
    meta = log.eval.metadata[SANDBOX_METADATA_KEY]
    assert meta["kind"] == "unsafe-local" and meta["gated"] is False and meta["warning"] == UNGATED


def _no_user_namespaces() -> list[str]:
    """A shell prefix under which no further user namespace can be created (the limit set to 1 in a user
    namespace of our own), running as uid 1000 in it."""
    return ["unshare", "--user", "--map-root-user", "sh", "-c",
            'echo 1 > /proc/sys/user/max_user_namespaces && exec unshare --user --map-user=1000 --map-group=1000 "$@"',
            "sh"]


@pytest.mark.skipif(shutil.which("unshare") is None or os.geteuid() != 0, reason="needs root and unshare(1)")
def test_inspect_eval_refuses_where_no_user_namespace_can_be_made(tmp_path: Path) -> None:
    cmd = [*_no_user_namespaces(), sys.executable, "-m", "inspect_ai", "eval", "coonbench/correction",
           "-T", "target=python", "--solver", "coonbench/gold", "--model", "mockllm/model", "--limit", "1",
           "--log-dir", str(tmp_path)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=Path(__file__).resolve().parents[1])
    out = proc.stdout + proc.stderr
    last = [line for line in out.splitlines() if line.strip()][-1]
    assert proc.returncode != 0 and "-T sandbox=docker" in last, out[-3000:]
    assert not list(tmp_path.glob("*.eval")), out[-3000:]
