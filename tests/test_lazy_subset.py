"""``-T questions=N`` builds only the N questions drawn, and builds them exactly as the whole dataset would.

The task's lazy path (``coonbench.tasks.subset.build_subset`` over the loader's ``Pending`` samples) is compared,
sample by sample as JSON, with today's path: build every sample, then ``paired_subset``; in every lazy mode (the
default, mined edits, multi-turn sessions) and under ``-T prompts=all``, whose full path is ``each_prompt`` over the
built samples (``coonbench.tasks.prompts.each_prompt_pending`` is its lazy counterpart). "Only the N drawn" is
counted with a hook on the function that renders a question, never timed.

``--limit N`` cannot be made lazy from a task: Inspect applies it after the task is built, and before it slices
the dataset it reads every sample of it (ids, uniqueness, sandboxes); docs/usage.md "How much a small run builds".
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

import pytest
from inspect_ai.dataset import Sample

import coonbench.datasets.comprehension as comprehension_data
from coonbench.evals.comprehension import comprehension
from coonbench.tasks.prompts import chosen_templates, each_prompt
from coonbench.tasks.subset import Pending, build_subset, paired_subset

LAZY_TASKS = ("comprehension", "generation", "modification")
"""The tasks whose loaders list ``Pending`` samples (the others build every sample, then draw: docs/usage.md)."""
DRAWS = [(1, 0), (2, 0), (2, 7), (5, 3), (40, 11)]
EDITS, TURNS, PROMPTS = {"source": "edits"}, {"turns": 3}, {"prompts": "all"}
"""The modes beside each task's default: mined edits, three-turn sessions, every prompt template."""


def _json(samples: list[Sample]) -> list[str]:
    """The samples as JSON, less the ids Inspect gives each chat message at random (a system template's input)."""
    return [s.model_dump_json(exclude={"input": {"__all__": {"id"}}}) for s in samples]


def _eager(pending: list[Pending], questions: int | None, seed: int = 0) -> list[Sample]:
    """Today's full path: build every sample, then draw from the built samples."""
    return paired_subset([p.build() for p in pending], questions, seed)


def _each_prompt_built(prompts: Any, build: Any) -> tuple[list[Pending], Any]:
    """The full path of ``-T prompts=``: ``each_prompt`` over the loader's samples, every one built under each
    template (as the built samples, for ``_eager`` to draw from)."""
    def built() -> tuple[list[Sample], Any]:
        pending, skips = build()
        return [p.build() for p in pending], skips

    samples, skips = each_prompt(prompts, built)
    return [Pending.of(s) for s in samples], skips


@functools.cache
def _full_build(name: str, mode: tuple[tuple[str, Any], ...] = ()) -> list[Sample]:
    """Every sample of the task's dataset in ``mode``, built the full way (once per test session)."""
    module = importlib.import_module(f"coonbench.evals.{name}")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "build_subset", _eager)
        patch.setattr(module, "each_prompt_pending", _each_prompt_built)
        return list(getattr(module, name)(**dict(mode)).dataset)


def _case(name: str, mode: dict[str, Any], *args: Any, slow: bool = False) -> Any:
    marks = [pytest.mark.slow] if slow else []
    return pytest.param(name, mode, *args, marks=marks, id="-".join([name, *(f"{k}={v}" for k, v in mode.items())]))


@pytest.mark.parametrize(
    ("name", "mode", "draws"),
    [_case("comprehension", {}, DRAWS),  # the others rebuild their tasks for each draw: a minute together
     _case("comprehension", PROMPTS, DRAWS[1::2]),
     _case("generation", {}, DRAWS[1::2], slow=True),
     _case("generation", PROMPTS, DRAWS[1::2], slow=True),
     _case("modification", {}, DRAWS[1::2], slow=True),
     _case("modification", PROMPTS, DRAWS[1::2], slow=True),
     _case("modification", EDITS, DRAWS[1::2], slow=True),
     _case("modification", TURNS, DRAWS[1::2], slow=True)],
)
def test_the_lazy_subset_is_the_full_builds_subset(name: str, mode: dict[str, Any],
                                                     draws: list[tuple[int, int]]) -> None:
    task = getattr(importlib.import_module(f"coonbench.evals.{name}"), name)
    full = _full_build(name, tuple(mode.items()))
    for questions, seed in draws:
        lazy = list(task(questions=questions, seed=seed, **mode).dataset)
        expected = paired_subset(full, questions, seed)
        assert [s.id for s in lazy] == [s.id for s in expected], (questions, seed)  # the same questions, in order
        assert _json(lazy) == _json(expected), (questions, seed)  # and byte for byte the same samples
        assert len({str(s.metadata["pair_id"]) for s in lazy}) == questions


RENDER = {"comprehension": "question_sample", "generation": "task_sample", "modification": "modification_sample",
          "sessions": "session_sample"}
"""The function of each lazy loader that renders one sample (by loader module): the hook counts its calls."""


def _count_renders(name: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    data = importlib.import_module(f"coonbench.datasets.{name}")
    real, calls = getattr(data, RENDER[name]), []

    def counting(*args: Any, **kwargs: Any) -> Sample:
        sample = real(*args, **kwargs)
        calls.append(str(sample.metadata["pair_id"]))
        return sample

    monkeypatch.setattr(data, RENDER[name], counting)
    return calls


@pytest.mark.parametrize(
    ("name", "mode", "loader"),
    [*(_case(name, {}, name) for name in LAZY_TASKS),
     _case("modification", EDITS, "sessions"),  # mined edits and synthetic sessions: sessions.session_sample
     _case("modification", TURNS, "sessions"),
     _case("comprehension", PROMPTS, "comprehension"),
     _case("generation", PROMPTS, "generation", slow=True),
     _case("modification", PROMPTS, "modification", slow=True)],
)
def test_two_questions_render_only_two_questions(name: str, mode: dict[str, Any], loader: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    rendered = _count_renders(loader, monkeypatch)
    task = getattr(importlib.import_module(f"coonbench.evals.{name}"), name)(questions=2, **mode)
    conditions = {s.metadata["format"] for s in task.dataset}
    templates = {s.metadata.get("prompt_template") for s in task.dataset}
    assert len(templates) == len(chosen_templates(mode.get("prompts")) or [None])
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
    rendered = _count_renders("comprehension", monkeypatch)
    task = comprehension(bands="simple")
    assert len(rendered) == len(task.dataset) > 2 * 4


def test_build_subset_draws_what_paired_subset_draws_from_samples_never_built() -> None:
    built: list[str] = []

    def sample(key: str, fmt: str, band: str) -> Pending:
        s = Sample(id=f"{key}-{fmt}", input="q", target="a",
                   metadata={"pair_id": key, "format": fmt, "complexity": band, "question_type": "t"})

        def build() -> Sample:
            built.append(str(s.id))
            return s
        return Pending(key, (band, "t"), fmt, build)

    pending = [sample(f"q{i}", fmt, "ab"[i % 2]) for i in range(12) for fmt in ("x", "y")]
    pending = pending[:-1]  # q11 has no 'y': it is never drawn
    samples = [p.build() for p in pending]
    built.clear()
    for seed in range(5):
        assert [s.id for s in build_subset(pending, 3, seed)] == [s.id for s in paired_subset(samples, 3, seed)]
    assert len(built) == 5 * 3 * 2
