"""A mistyped task argument ends in one line that names the argument, the value and what would be valid.

Inspect prints a task's construction error as the last line of its output, so that line is what a user reads: the
three typos a newcomer makes first go through a real ``inspect eval``; the other arguments are checked on the task
functions themselves. The valid choices are read from the code (registry, tables), never typed here.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args

import pytest

from coonbench.tasks.conditions import LABEL_SUFFIX, code_format_names, format_names
from coonbench.resources import REPO_ROOT

INSPECT_TIMEOUT_S = 600


def _last_line(text: str) -> str:
    return [line for line in text.splitlines() if line.strip()][-1]


def _inspect_eval(tmp_path: Path, task: str, *args: str) -> str:
    """The last non-empty line of a real ``inspect eval`` run (stdout and stderr together), which must fail."""
    inspect_exe = Path(sys.executable).with_name("inspect")
    env = {**os.environ, "PWD": str(REPO_ROOT)}
    out = subprocess.run(
        [str(inspect_exe), "eval", task, "--model", "mockllm/model", "--limit", "1", "--log-dir", str(tmp_path), *args],
        cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=INSPECT_TIMEOUT_S,
    )
    assert out.returncode != 0, out.stdout[-2000:]
    assert "unhashable" not in out.stdout, out.stdout[-3000:]
    return _last_line(out.stdout)


def test_format_typo_through_inspect_eval(tmp_path: Path) -> None:
    last = _inspect_eval(tmp_path, "evals/comprehension.py", "-T", "formats=coonn")
    assert "-T formats=coonn" in last and "unknown format 'coonn'" in last, last
    for name in code_format_names():
        assert name in last, (name, last)


def test_corpus_typo_through_inspect_eval(tmp_path: Path) -> None:
    last = _inspect_eval(tmp_path, "evals/comprehension.py", "-T", "corpus=nope")
    assert "-T corpus=nope: not a directory" in last, last


def test_missing_tasks_file_through_inspect_eval(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-tasks.json"
    last = _inspect_eval(tmp_path, "evals/retrieval.py", "-T", f"tasks_file={missing}")
    assert f"-T tasks_file={missing}: no such file or directory" in last, last


def _task(name: str) -> Any:
    return getattr(importlib.import_module(f"evals.{name}"), name)


def _choices() -> list[tuple[str, dict[str, str], str, list[str]]]:
    """(task, arguments, the bad one, valid choices the message must list), the choices read from the code."""
    from coonbench.dart.questions import QUESTION_TYPES
    from coonbench.datasets.corpus import BANDS
    from coonbench.datasets.generation import GENERATION_KINDS
    from coonbench.datasets.modification import MODIFICATION_KINDS
    from coonbench.datasets.structure import CONDITIONS
    from coonbench.datasets.structure import QUESTION_TYPES as STRUCTURE_TYPES
    from coonbench.datasets.correction import SUITES, load_problems
    from coonbench.datasets.user_corpus import USER_BANDS
    from coonbench.execution.isolation import SandboxKind
    from coonbench.scorers.judge import JUDGE_MODES

    code = code_format_names()
    return [
        ("comprehension", {"formats": "coon,dartt"}, "formats", code),
        ("comprehension", {"formats": "toon"}, "formats", code),  # a data format where code formats are asked for
        ("comprehension", {"bands": "simpel"}, "bands", list(BANDS)),
        ("comprehension", {"bands": "simple", "corpus": "data/dart/simple"}, "bands", list(USER_BANDS)),
        ("comprehension", {"question_types": "widgets"}, "question_types", list(QUESTION_TYPES)),
        ("comprehension", {"primer": "shrt"}, "primer", [m for m in LABEL_SUFFIX if m != "none"]),
        ("structure", {"kinds": "abbrev"}, "kinds", list(STRUCTURE_TYPES)),
        ("structure", {"primer": "shrt"}, "primer", list(CONDITIONS)),
        ("generation", {"kinds": "dart-to-con"}, "kinds", list(GENERATION_KINDS)),
        ("generation", {"bands": "x"}, "bands", list(BANDS)),
        ("modification", {"kinds": "add"}, "kinds", list(MODIFICATION_KINDS)),
        ("modification", {"corpus": "no/such/dir"}, "corpus", []),
        ("generation", {"judge": "weigthed"}, "judge", list(JUDGE_MODES)),
        ("modification", {"judge": "grade"}, "judge", list(JUDGE_MODES)),
        ("retrieval", {"judge": "graded-x"}, "judge", list(JUDGE_MODES)),
        ("retrieval", {"formats": "jsn"}, "formats", format_names("data")),
        ("retrieval", {"suite": "no/such/suite"}, "suite", []),
        ("retrieval", {"questions_file": "no/such/questions.jsonl"}, "questions_file", []),
        ("retrieval", {"tasks_file": "no/such/tasks.json"}, "tasks_file", []),
        ("correction", {"suite": "humaneva"}, "suite", list(SUITES)),
        ("correction", {"sandbox": "dockr"}, "sandbox", list(get_args(SandboxKind))),
        ("correction", {"categories": "sorting"}, "categories", sorted({p.category for p in load_problems()})),
        ("correction", {"problems": "is_prime,nope"}, "problems", [p.id for p in load_problems()]),
        ("correction", {"target": "rust"}, "target", []),
    ]


@pytest.mark.parametrize(
    ("task", "kwargs", "param", "choices"), _choices(), ids=[f"{c[0]}-{c[2]}={c[1][c[2]]}" for c in _choices()]
)
def test_bad_argument_names_argument_value_and_choices(
    task: str, kwargs: dict[str, str], param: str, choices: list[str]
) -> None:
    with pytest.raises(ValueError) as info:
        _task(task)(**kwargs)
    message = str(info.value)
    assert "\n" not in message, message
    assert f"-T {param}={kwargs[param]}" in message, message
    for choice in choices:
        assert choice in message, (choice, message)
    hash(info.value)  # Inspect puts exceptions in a set


def test_every_exception_class_is_hashable() -> None:
    """An unhashable exception turns any error into Inspect's ``TypeError: unhashable type`` (dataclass errors)."""
    unhashable: list[str] = []
    for package_name in ("coonbench", "solvers", "scorers"):
        package = importlib.import_module(package_name)
        for info in pkgutil.walk_packages(package.__path__, f"{package_name}."):
            if info.name.endswith("__main__"):
                continue
            module = importlib.import_module(info.name)
            for name, obj in vars(module).items():
                if inspect.isclass(obj) and issubclass(obj, BaseException) and obj.__module__ == module.__name__:
                    if obj.__hash__ is None:
                        unhashable.append(f"{module.__name__}.{name}")
    assert not unhashable, unhashable
