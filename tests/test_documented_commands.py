"""Every command the README and docs/ advertise runs as written (a documented command that crashes is the worst
first impression). A fast test checks that each command names real files, tasks and subcommands; the slow one
runs them all, in document order, and lists what it ran.

The slow test runs them in a workspace that looks like the repository from inside (every file and folder of the
checkout linked, ``../shared`` beside it) but has its own ``logs/`` and output folders, so that the commands' logs,
reports and prompt dumps never land in the checkout: each command must leave ``git status`` and the checkout's
``logs/`` (and the other folders the commands write to) as they were. ``pip install`` steps are not rerun there
(they would install the workspace): they are checked as already satisfied by the environment instead, and the rest
of the line runs."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, distributions, requires, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import coonbench
from coonbench.cli import _task_summaries, build_parser
from coonbench.resources import REPO_ROOT, SHARED_DIR
from tests.documented import Command, all_commands, commands_in

COMMANDS = all_commands()
PROGRAMS = {"pip", "inspect", "coonbench", "python", "python3", "."}  # python3 -m venv, . .venv/bin/activate
FILE_SUFFIXES = (".dart", ".json", ".jsonl", ".coon", ".py", ".yaml", ".yml", ".toon", ".tl", ".csv")
OUTPUT_FLAGS = {"-o", "--output", "--output-dir", "--log-dir", "-O"}
COMMAND_TIMEOUT_S = 1500  # the eval-set of docs/scale.md (every task, two models) ran past 900 s on a loaded machine
SERVER_WAIT_S = 60


def _segments(text: str) -> list[list[str]]:
    """The simple commands of a shell line (split on ``&&``, ``||``, ``;``, ``|`` outside quotes), as words."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    out: list[list[str]] = [[]]
    for token in lexer:
        if token and set(token) <= set(";&|"):
            out.append([])
        else:
            out[-1].append(token)
    for words in out:  # leading NAME=value words set the environment of the command
        while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", words[0]):
            words.pop(0)
    return [words for words in out if words]


def _value(word: str) -> str:
    """What a command word names: ``name=value`` (a ``-T`` task argument) gives ``value``; an option stays whole."""
    return word.split("=", 1)[1] if "=" in word and not word.startswith("-") else word


def _absent_shared(cmd: Command) -> list[str]:
    """Paths under ``../shared/`` (the reference data beside a checkout) that a command names and this machine lacks:
    such a command is skipped with that reason, as every test reading ../shared is (``conftest.reference_path``).
    The workspace's ``../shared`` is ``SHARED_DIR`` (``COONBENCH_SHARED`` or the folder beside the checkout)."""
    return [
        value
        for words in _segments(cmd.runnable())
        for value in map(_value, words[1:])
        if value.startswith("../shared/") and not (SHARED_DIR / value.removeprefix("../shared/")).exists()
    ]


def _skip_without_shared(cmd: Command) -> None:
    if missing := _absent_shared(cmd):
        pytest.skip(f"{cmd.id} reads reference data absent beside this checkout: {', '.join(missing)}")


def _subcommands() -> set[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return set(sub.choices)  # type: ignore[attr-defined]


def _this_checkout_is_installed() -> bool:
    """Whether pip's installed coonbench is this checkout (read from pip's record, not from what PYTHONPATH
    happens to import: reinstalling from another checkout would re-point the user's environment)."""
    for dist in distributions(name="coonbench"):  # a source tree's coonbench.egg-info has no record: skip it
        record = json.loads(dist.read_text("direct_url.json") or "{}")
        url = str(record.get("url", ""))
        if url.startswith("file://"):
            return Path(url.removeprefix("file://")).resolve() == REPO_ROOT.resolve()
    return False


def test_documents_advertise_commands() -> None:
    assert len(COMMANDS) >= 10, [c.id for c in COMMANDS]
    assert len({c.id for c in COMMANDS}) == len(COMMANDS)


def test_readme_gives_exactly_two_fresh_machine_commands() -> None:
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    start = lines.index("## Two commands for a fresh machine") + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("## ")) + 1
    cmds = [c for c in commands_in(REPO_ROOT / "README.md") if start < c.line < end]
    assert len(cmds) == 2, [c.text for c in cmds]
    first, second = cmds
    assert "gguf/" in first.text and first.installs, "command 1 sets up and runs on the embedded model"
    assert second.runs_tests and second.installs, "command 2 sets up and runs the tests"
    ci = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert second.text in ci, ".ci/run must run the README's test command"


@pytest.mark.parametrize("cmd", COMMANDS, ids=[c.id for c in COMMANDS])
def test_command_names_real_things(cmd: Command) -> None:
    """Files a command reads exist, tasks and subcommands are real: no placeholder like lib/main.dart."""
    _skip_without_shared(cmd)
    for words in _segments(cmd.runnable()):
        assert words[0] in PROGRAMS, f"{cmd.id}: unexpected program {words[0]!r}"
        if words[0] == "coonbench":
            assert words[1] in _subcommands(), f"{cmd.id}: no subcommand {words[1]!r}"
        if words[:2] in (["inspect", "eval"], ["inspect", "eval-set"]):
            for task in words[2:]:
                if task.startswith("-"):
                    break  # the task list ends at the first option
                if task.startswith("coonbench/"):
                    assert task.removeprefix("coonbench/") in _task_summaries(), f"{cmd.id}: no task {task}"
                elif task.endswith(".py"):
                    assert (REPO_ROOT / task).is_file(), f"{cmd.id}: no task file {task}"
                else:
                    break  # the first non-task word (an option's value) ends the task list
        previous = ""
        for word in words[1:]:
            value = _value(word)
            if previous not in OUTPUT_FLAGS | {">", ">>"} and value.endswith(FILE_SUFFIXES):
                assert (REPO_ROOT / value).exists(), f"{cmd.id}: {value} does not exist (examples use repo files)"
            previous = word


def _run_server(cmd: Command, cwd: Path) -> None:
    """Start a server command, wait until it says where it listens, stop it."""
    proc = subprocess.Popen(
        cmd.runnable(), shell=True, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, start_new_session=True,
    )
    seen = ""
    deadline = time.monotonic() + SERVER_WAIT_S
    try:
        os.set_blocking(proc.stdout.fileno(), False)  # type: ignore[union-attr]
        while time.monotonic() < deadline and proc.poll() is None and "http" not in seen:
            chunk = proc.stdout.read()  # type: ignore[union-attr]
            seen += chunk or ""
            time.sleep(0.5)
        assert proc.poll() is None, f"{cmd.id}: exited {proc.returncode}: {seen[-2000:]}"
        assert "http" in seen, f"{cmd.id}: said nothing of where it listens in {SERVER_WAIT_S} s: {seen[-2000:]}"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)


def _tracked_entries() -> list[str]:
    """The top-level files and folders of the checkout (tracked or not yet added; ignored ones left out)."""
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=REPO_ROOT, capture_output=True,
        text=True, check=True,
    )
    return sorted({line.split("/", 1)[0] for line in out.stdout.splitlines() if line})


@pytest.fixture(scope="session")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``<tmp>/coonbench``: every entry of the checkout linked, its own ``logs/``, and ``<tmp>/shared`` linked to
    the reference data; shared by the commands in document order (a report reads the logs an earlier one wrote)."""
    root = tmp_path_factory.mktemp("documented")
    work = root / "coonbench"
    work.mkdir()
    for name in _tracked_entries():
        if name != "logs" and (REPO_ROOT / name).exists():
            (work / name).symlink_to(REPO_ROOT / name)
    (work / "logs").mkdir()
    (root / "shared").symlink_to(SHARED_DIR)
    return work


def _output_roots() -> list[str]:
    """Top-level folders of the checkout the documented commands write to (``logs/`` is Inspect's default)."""
    roots = {"logs"}
    for cmd in COMMANDS:
        for words in _segments(cmd.runnable()):
            roots.update(
                nxt.strip("/").split("/", 1)[0]
                for prev, nxt in zip(words, words[1:])
                if prev in OUTPUT_FLAGS and not nxt.startswith(("/", ".."))
            )
    return sorted(roots)


def _checkout_state() -> tuple[str, dict[str, tuple[int, int]]]:
    """``git status`` of the checkout, and every file (size, mtime) under the folders the commands write to."""
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=REPO_ROOT, capture_output=True, text=True,
        check=True,
    ).stdout
    files: dict[str, tuple[int, int]] = {}
    for name in _output_roots():
        for path in (REPO_ROOT / name).rglob("*"):
            if path.is_file():
                info = path.stat()
                files[str(path.relative_to(REPO_ROOT))] = (info.st_size, info.st_mtime_ns)
    return status, files


def _unsatisfied(words: list[str]) -> list[str]:
    """What a ``pip install`` step asks for that the environment lacks (empty: running it would change nothing).
    ``-e .[extra]`` must be this checkout, installed, with the extra's requirements met; ``name==x`` installed."""
    missing: list[str] = []
    files = {words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-r", "--requirement")}
    for name in files:  # a requirements file (pinned with --hash): each of its requirements
        for line in (REPO_ROOT / name).read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                missing.extend(_requirement_missing(Requirement(line.split(" --hash")[0].strip())))
    args = [w for w in words[2:] if not w.startswith("-") and w not in files]
    for arg in args:
        if arg.startswith("."):
            if not _this_checkout_is_installed():
                missing.append(f"this checkout as the installed coonbench ({coonbench.__file__})")
            extras = set(re.findall(r"\[([^\]]*)\]", arg)[0].split(",")) if "[" in arg else set()
            wanted = [Requirement(r) for r in requires("coonbench") or []]
            for req in wanted:
                if req.marker is None or any(req.marker.evaluate({"extra": e}) for e in extras):
                    missing.extend(_requirement_missing(req))
        else:
            missing.extend(_requirement_missing(Requirement(arg)))
    return missing


def _requirement_missing(req: Requirement) -> list[str]:
    if req.name == "coonbench":  # a self-reference (dev pulls in local): its extras are listed beside it
        return []
    try:
        installed = version(req.name)
    except PackageNotFoundError:
        return [str(req)]
    return [] if req.specifier.contains(installed, prereleases=True) else [f"{req} (installed {installed})"]


def _sets_up_an_environment(words: list[str]) -> bool:
    """``python3 -m venv DIR`` or ``. DIR/bin/activate``: this test already runs in the environment they make."""
    return words[1:3] == ["-m", "venv"] or (len(words) == 2 and words[0] in (".", "source")
                                            and words[1].endswith("/bin/activate"))


def _without_installs(cmd: Command) -> str:
    """The command with its set-up steps left out: each ``pip install`` checked as already satisfied (else skip),
    the virtual environment's creation and activation dropped (the suite runs inside the one they make)."""
    steps = [step.strip() for step in cmd.runnable().split("&&")]
    kept: list[str] = []
    for step in steps:
        words = step.split()
        if _sets_up_an_environment(words):
            continue
        if words[:2] == ["pip", "install"]:
            if missing := _unsatisfied([w.strip("\"'") for w in words]):
                pytest.skip(f"{cmd.id}: `{step}` would install {', '.join(missing)}: run it first")
        else:
            kept.append(step)
    return " && ".join(kept)


@pytest.fixture
def checkout_unchanged() -> Iterator[None]:
    """The command under test leaves the checkout's git status and output folders (logs/, …) as they were."""
    before = _checkout_state()
    yield
    after = _checkout_state()
    assert after[0] == before[0], f"git status changed:\n{before[0]}\n---\n{after[0]}"
    changed = sorted(set(before[1].items()) ^ set(after[1].items()))
    assert not changed, f"files written under {', '.join(_output_roots())} of the checkout: {changed[:10]}"


def _user_environment() -> dict[str, str]:
    """This environment as a user's shell has it: without the suite's own Inspect log folder (conftest.py)."""
    return {k: v for k, v in os.environ.items() if k != "INSPECT_LOG_DIR"}


@pytest.mark.slow
@pytest.mark.parametrize("cmd", COMMANDS, ids=[c.id for c in COMMANDS])
def test_command_runs_as_written(cmd: Command, workspace: Path, checkout_unchanged: None) -> None:
    if cmd.runs_tests:
        pytest.skip("this is the command that runs this test suite (.ci/run runs it)")
    _skip_without_shared(cmd)
    text = _without_installs(cmd) if cmd.installs else cmd.runnable()
    print(f"\n$ {text}", file=sys.stderr)
    if cmd.serves:
        _run_server(cmd, workspace)
        return
    start = time.monotonic()
    out = subprocess.run(
        text, shell=True, cwd=workspace, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S,
        executable="/bin/bash", env={**_user_environment(), "PWD": str(workspace)},
    )
    print(f"  exit {out.returncode} in {time.monotonic() - start:.1f} s", file=sys.stderr)
    assert out.returncode == 0, f"{cmd.id}: `{text}` exited {out.returncode}\n{out.stderr[-3000:]}"
    assert "Traceback (most recent call last)" not in out.stderr, f"{cmd.id}: traceback\n{out.stderr[-3000:]}"
