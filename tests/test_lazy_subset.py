"""``-T questions=N`` builds only the N questions drawn, and builds them exactly as the whole dataset would.

The task's lazy path (``coonbench.tasks.subset.build_subset`` over the loader's ``Pending`` samples) is compared,
sample by sample as JSON, with today's path: build every sample, then ``paired_subset``; in every lazy mode (the
default, retrieval's files and suites, mined edits, multi-turn sessions) and under ``-T prompts=all``, whose full
path is ``each_prompt`` over the built samples (``coonbench.tasks.prompts.each_prompt_pending`` is its lazy
counterpart). "Only the N drawn" is counted with a hook on the function that renders a question, never timed.

``--limit N`` still builds every sample: tests/test_limit_laziness.py and docs/usage.md "How much a small run
builds" say why.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task
from inspect_ai.dataset import Sample

import coonbench.datasets.comprehension as comprehension_data
from coonbench.evals.comprehension import comprehension
from coonbench.tasks.context import BuildContext
from coonbench.tasks.prompts import chosen_templates, each_prompt
from coonbench.tasks import build as task_build
from coonbench.tasks.subset import Pending, build_subset, paired_subset, question_group
from tests.conftest import reference_path

LAZY_TASKS = ("comprehension", "generation", "modification", "structure", "retrieval", "tools")
"""The tasks whose loaders list ``Pending`` samples, in every mode and under ``-T prompts=`` (docs/usage.md)."""
DRAWS = [(1, 0), (2, 0), (2, 7), (5, 3), (40, 11)]
PROMPTS = {"prompts": "all"}


@dataclass(frozen=True)
class Case:
    """A task in one of its modes: the arguments it is called with (a function, since some name files that may be
    absent: it skips then), and the function of its loader that renders one sample (the hook counts its calls)."""

    task: str
    render: tuple[str, str]  # module, function
    arguments: Callable[[Path], dict[str, Any]] = lambda scratch: {}  # scratch: a folder for the session
    slow: bool = False  # its task takes over ten seconds to build


def _hf_folder(scratch: Path) -> dict[str, Any]:
    """Our retrieval questions saved as a Hugging Face dataset folder (once), read back as ``questions_file``."""
    from coonbench.datasets.hf import save_hf

    folder = scratch / "hf-retrieval"
    if not (folder / "train.parquet").exists():
        save_hf("retrieval", folder)
    return {"questions_file": str(folder), "formats": "json,toon,csv"}


SESSION = ("coonbench.datasets.sessions", "session_sample")  # mined edits and synthetic sessions render here
CASES: dict[str, Case] = {
    "comprehension": Case("comprehension", ("coonbench.datasets.comprehension", "question_sample")),
    "comprehension-prompts": Case("comprehension", ("coonbench.datasets.comprehension", "question_sample"),
                                  lambda scratch: PROMPTS),
    "generation": Case("generation", ("coonbench.datasets.generation", "task_sample")),
    "generation-prompts": Case("generation", ("coonbench.datasets.generation", "task_sample"),
                               lambda scratch: PROMPTS, slow=True),
    "modification": Case("modification", ("coonbench.datasets.modification", "modification_sample")),
    "modification-prompts": Case("modification", ("coonbench.datasets.modification", "modification_sample"),
                                 lambda scratch: PROMPTS, slow=True),
    "modification-edits": Case("modification", SESSION, lambda scratch: {"source": "edits"}),
    "modification-turns": Case("modification", SESSION, lambda scratch: {"turns": 3}),
    "structure": Case("structure", ("coonbench.datasets.structure", "question_sample"),
                      lambda scratch: {"primer": "none,short,full"}),
    "structure-prompts": Case("structure", ("coonbench.datasets.structure", "question_sample"),
                              lambda scratch: PROMPTS),
    "retrieval": Case("retrieval", ("coonbench.datasets.retrieval.load", "question_sample")),
    "retrieval-prompts": Case("retrieval", ("coonbench.datasets.retrieval.load", "question_sample"),
                              lambda scratch: PROMPTS),
    "retrieval-hf": Case("retrieval", ("coonbench.datasets.hf", "question_sample"), _hf_folder),
    "retrieval-tasks_file": Case(
        "retrieval", ("coonbench.datasets.retrieval.analysis", "_analysis_sample"),
        lambda scratch: {"tasks_file": str(reference_path("tealeaf", "tasks", "synthetic.json")),
                         "formats": "json,toon,yaml"}),
    "retrieval-suite": Case(
        "retrieval", ("coonbench.datasets.retrieval.suite", "_sample"),
        lambda scratch: {"suite": str(reference_path("toon", "generated")), "formats": "toon,csv"}),
    "tools": Case("tools", ("coonbench.datasets.tools", "tool_sample")),
}
"""Every lazy task in each of its modes and under every prompt template (a TeaLeaf task file and TOON's suite from
the reference data, skipped when it is absent)."""


def test_every_lazy_task_has_a_case() -> None:
    assert {case.task for case in CASES.values()} == set(LAZY_TASKS)


def _json(samples: list[Sample]) -> list[str]:
    """The samples as JSON, less the ids Inspect gives each chat message at random (a system template's input)."""
    return [s.model_dump_json(exclude={"input": {"__all__": {"id"}}}) for s in samples]


def _eager(pending: list[Pending], questions: int | None, seed: int = 0,
           ctx: BuildContext | None = None) -> list[Sample]:
    """Today's full path: build every sample, then draw from the built samples."""
    ctx = ctx if ctx is not None else BuildContext()
    return paired_subset([p.build(ctx) for p in pending], questions, seed)


def _each_prompt_built(prompts: Any, build: Callable[[BuildContext], Any], ctx: BuildContext) -> Any:
    """The full path of ``-T prompts=``: ``each_prompt`` over the loader's samples, every one built under each
    template (returned as pending samples already built, for ``_eager`` to draw from)."""
    def as_built(listed: Any, convert: Callable[[Any], Any]) -> Any:
        return (as_built(listed[0], convert), *listed[1:]) if isinstance(listed, tuple) else convert(listed)

    built = each_prompt(prompts, lambda each: as_built(build(each), lambda pending: [p.build(each) for p in pending]),
                        ctx)
    return as_built(built, lambda samples: [Pending.of(s) for s in samples])


def _task(case: Case) -> Callable[..., Task]:
    task: Callable[..., Task] = getattr(importlib.import_module(f"coonbench.evals.{case.task}"), case.task)
    return task


@pytest.fixture(scope="session")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("lazy")


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hugging Face's libraries read the saved folder without looking for the hub."""
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@functools.cache
def _full_build(name: str, scratch: Path) -> list[Sample]:
    """Every sample of the case's dataset, built the full way (once per test session)."""
    case = CASES[name]
    with pytest.MonkeyPatch.context() as patch:
        module = importlib.import_module(f"coonbench.evals.{case.task}")
        patch.setattr(task_build, "build_subset", _eager)  # the one builder the tasks draw through
        patch.setattr(task_build, "each_prompt_pending", _each_prompt_built)
        patch.setattr(module, "each_prompt_pending", _each_prompt_built, raising=False)  # (retrieval's own listing)
        return list(_task(case)(**case.arguments(scratch)).dataset)


def _questions(samples: list[Sample]) -> set[str]:
    return {question_group(str(s.id), s.metadata or {}) for s in samples}


@pytest.mark.parametrize(
    ("name", "draws"),
    [("comprehension", DRAWS),  # the code tasks rebuild their tasks for each draw: a minute together
     ("comprehension-prompts", DRAWS[1::2]),
     pytest.param("generation", DRAWS[1::2], marks=pytest.mark.slow),
     pytest.param("generation-prompts", DRAWS[1::2], marks=pytest.mark.slow),
     pytest.param("modification", DRAWS[1::2], marks=pytest.mark.slow),
     pytest.param("modification-prompts", DRAWS[1::2], marks=pytest.mark.slow),
     pytest.param("modification-edits", DRAWS[1::2], marks=pytest.mark.slow),
     pytest.param("modification-turns", DRAWS[1::2], marks=pytest.mark.slow),
     ("structure", DRAWS),
     ("structure-prompts", DRAWS[1::2]),
     ("retrieval", DRAWS),
     ("retrieval-prompts", DRAWS[1::2]),
     ("retrieval-hf", DRAWS[1::2]),
     ("retrieval-tasks_file", DRAWS[:4]),  # its file has 9 tasks
     ("retrieval-suite", DRAWS[1::2]),
     ("tools", DRAWS)],
)
def test_the_lazy_subset_is_the_full_builds_subset(name: str, draws: list[tuple[int, int]], scratch: Path) -> None:
    case = CASES[name]
    full = _full_build(name, scratch)
    for questions, seed in draws:
        lazy = list(_task(case)(questions=questions, seed=seed, **case.arguments(scratch)).dataset)
        expected = paired_subset(full, questions, seed)
        assert [s.id for s in lazy] == [s.id for s in expected], (questions, seed)  # the same questions, in order
        assert _json(lazy) == _json(expected), (questions, seed)  # and byte for byte the same samples
        assert len(_questions(lazy)) == questions


def _count_renders(case: Case, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    module, function = case.render
    data = importlib.import_module(module)
    real, calls = getattr(data, function), []

    def counting(*args: Any, **kwargs: Any) -> Sample:
        sample = real(*args, **kwargs)
        calls.append(question_group(str(sample.id), sample.metadata or {}))
        return sample

    monkeypatch.setattr(data, function, counting)
    return calls


@pytest.mark.parametrize("name", [pytest.param(n, marks=[pytest.mark.slow] * c.slow) for n, c in CASES.items()])
def test_two_questions_render_only_two_questions(name: str, monkeypatch: pytest.MonkeyPatch, scratch: Path) -> None:
    case = CASES[name]
    arguments = case.arguments(scratch)
    rendered = _count_renders(case, monkeypatch)
    task = _task(case)(questions=2, **arguments)
    conditions = {(s.metadata or {})["format"] for s in task.dataset}
    templates = {(s.metadata or {}).get("prompt_template") for s in task.dataset}
    assert len(templates) == len(chosen_templates(arguments.get("prompts")) or [None])
    assert len(task.dataset) == 2 * len(conditions) * len(templates) == len(rendered)  # nothing rendered but what runs
    assert len(set(rendered)) == 2


def test_two_comprehension_questions_render_at_most_two_files(monkeypatch: pytest.MonkeyPatch) -> None:
    files: list[str] = []
    real = comprehension_data.question_sample

    def counting(q: Any, condition: Any, sample: Any, *args: Any) -> Sample:
        files.append(sample.id)
        return real(q, condition, sample, *args)

    monkeypatch.setattr(comprehension_data, "question_sample", counting)
    comprehension(questions=2)
    assert 0 < len(set(files)) <= 2


def test_the_whole_task_renders_every_question(monkeypatch: pytest.MonkeyPatch) -> None:
    rendered = _count_renders(CASES["comprehension"], monkeypatch)
    task = comprehension(bands="simple")
    assert len(rendered) == len(task.dataset) > 2 * 4


def test_build_subset_draws_what_paired_subset_draws_from_samples_never_built() -> None:
    built: list[str] = []

    def sample(key: str, fmt: str, band: str) -> Pending:
        s = Sample(id=f"{key}-{fmt}", input="q", target="a",
                   metadata={"pair_id": key, "format": fmt, "complexity": band, "question_type": "t"})

        def build(_: BuildContext) -> Sample:
            built.append(str(s.id))
            return s
        return Pending(key, (band, "t"), fmt, build)

    pending = [sample(f"q{i}", fmt, "ab"[i % 2]) for i in range(12) for fmt in ("x", "y")]
    pending = pending[:-1]  # q11 has no 'y': it is never drawn
    samples = [p.build(BuildContext()) for p in pending]
    built.clear()
    for seed in range(5):
        assert [s.id for s in build_subset(pending, 3, seed)] == [s.id for s in paired_subset(samples, 3, seed)]
    assert len(built) == 5 * 3 * 2
