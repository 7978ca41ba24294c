"""Why ``--limit N`` still builds a task's whole dataset (docs/usage.md "How much a small run builds").

A fixed dataset is read whole before Inspect slices it. The one public way to build samples on demand is a
``SampleSource`` (a seed, then ``next_samples()`` whenever the task is idle): ``--limit N`` then builds only the
batches it reaches. These tests run such a source through Inspect to show both sides of that trade, so the decision
is re-examined when Inspect changes: the laziness is real, but the run's header and progress and the log's
``eval.dataset`` describe the seed, not the plan (a full run reads "8 samples" and "Steps: 40/8 500%"), and
``--sample-id`` of a late sample builds everything anyway. coonbench keeps a fixed dataset, so a run shows what it
will ask, and makes ``-T questions=N`` the small run that builds in proportion to N.
"""

from __future__ import annotations

from pathlib import Path

from inspect_ai import SampleSource, Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog
from inspect_ai.scorer import match

TOTAL, BATCH = 40, 8


class _Batches(SampleSource):
    """``TOTAL`` samples built ``BATCH`` at a time, each build recorded."""

    def __init__(self) -> None:
        self.built: list[str] = []

    def _batch(self) -> list[Sample]:
        start = len(self.built)
        self.built += [f"s{i}" for i in range(start, min(TOTAL, start + BATCH))]
        return [Sample(id=i, input=f"question {i}", target="x") for i in self.built[start:]]

    def initial_samples(self) -> list[Sample]:
        return self._batch()

    async def next_samples(self) -> list[Sample] | None:
        return self._batch() or None


def _run(tmp_path: Path, **options: object) -> tuple[_Batches, EvalLog]:
    source = _Batches()
    [log] = inspect_eval(Task(dataset=source, scorer=match()), model="mockllm/model", log_dir=str(tmp_path),
                         display="none", **options)  # type: ignore[arg-type]
    assert log.status == "success", log.error
    return source, log


def test_a_sample_source_builds_only_what_a_limit_reaches(tmp_path: Path) -> None:
    source, log = _run(tmp_path, limit=2)
    assert len(log.samples or []) == 2
    assert len(source.built) == BATCH < TOTAL


def test_but_a_full_run_logs_the_seed_as_its_dataset(tmp_path: Path) -> None:
    source, log = _run(tmp_path)
    assert len(source.built) == len(log.samples or []) == TOTAL
    assert log.eval.dataset.samples == BATCH  # what the header and the progress bar's total show
    assert log.eval.dataset.sample_ids == [f"s{i}" for i in range(BATCH)]


def test_and_a_late_sample_id_builds_every_sample(tmp_path: Path) -> None:
    source, log = _run(tmp_path, sample_id=f"s{TOTAL - 1}")
    assert [s.id for s in log.samples or []] == [f"s{TOTAL - 1}"]
    assert len(source.built) == TOTAL
