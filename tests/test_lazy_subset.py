"""``-T questions=N`` builds only the N questions drawn, and builds them exactly as the whole dataset would.

The task's lazy path (``coonbench.tasks.subset.build_subset`` over the loader's ``Pending`` samples) is compared,
sample by sample as JSON, with today's path: build every sample, then ``paired_subset``. "Only the N drawn" is
counted with a hook on the function that renders a question, never timed.

``--limit N`` cannot be made lazy from a task: Inspect applies it after the task is built, and before it slices
the dataset it reads every sample of it (ids, uniqueness, sandboxes); docs/usage.md "How much a small run builds".
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from inspect_ai.dataset import Sample

import coonbench.datasets.comprehension as comprehension_data
from coonbench.evals.comprehension import comprehension
from coonbench.tasks.subset import Pending, build_subset, paired_subset
from coonbench.tasks.tokenizer import counted_for_model

DRAWS = [(1, 0), (2, 0), (2, 7), (5, 3), (40, 11)]


def _json(samples: list[Sample]) -> list[str]:
    return [s.model_dump_json() for s in samples]


@pytest.fixture(scope="module")
def full_comprehension() -> list[Sample]:
    """Every sample of the default comprehension task, built the way every task built them before."""
    with counted_for_model(None):
        samples, _ = comprehension_data.comprehension_samples()
    return samples


@pytest.mark.parametrize(("questions", "seed"), DRAWS)
def test_the_lazy_comprehension_subset_is_the_full_builds_subset(
    full_comprehension: list[Sample], questions: int, seed: int
) -> None:
    lazy = list(comprehension(questions=questions, seed=seed).dataset)
    expected = paired_subset(full_comprehension, questions, seed)
    assert [s.id for s in lazy] == [s.id for s in expected]  # the same questions, in the same order
    assert _json(lazy) == _json(expected)  # and byte for byte the same samples
    assert len({str(s.metadata["pair_id"]) for s in lazy}) == questions


def test_without_questions_the_lazy_path_builds_every_sample(full_comprehension: list[Sample]) -> None:
    assert _json(list(comprehension().dataset)) == _json(full_comprehension)


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str]]]:
    """(source file, question) of every question the comprehension loader renders into a sample."""
    calls: list[tuple[str, str]] = []
    real = comprehension_data.question_sample

    def counting(q: Any, condition: Any, sample: Any, *args: Any, **kwargs: Any) -> Sample:
        calls.append((sample.id, q.id))
        return real(q, condition, sample, *args, **kwargs)

    monkeypatch.setattr(comprehension_data, "question_sample", counting)
    yield calls


def test_two_questions_render_two_questions_of_at_most_two_files(rendered: list[tuple[str, str]]) -> None:
    task = comprehension(questions=2)
    conditions = {s.metadata["format"] for s in task.dataset}
    assert len(task.dataset) == 2 * len(conditions) == len(rendered)  # nothing rendered but what runs
    assert len({q for _, q in rendered}) == 2 and len({f for f, _ in rendered}) <= 2


def test_the_whole_task_renders_every_question(rendered: list[tuple[str, str]]) -> None:
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
