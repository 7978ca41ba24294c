"""``-T questions=N -T seed=S``: N whole questions, every format of each, seeded and balanced; a real Inspect run."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, get_model

from coonbench.datasets.comprehension import comprehension_samples
from coonbench.evals.comprehension import comprehension
from coonbench.report.load import load_samples
from coonbench.report.tables import comparisons
from coonbench.tasks.samples import TaskArgumentError
from coonbench.tasks.subset import STRATA, groups_of, paired_subset, question_group

FORMATS = ("coon", "coon-noprimer", "dart", "dart-minified")


@pytest.fixture(scope="module")
def full() -> list[Sample]:
    return comprehension_samples()[0]


def _formats(group: list[Sample]) -> set[str]:
    return {str((s.metadata or {})["format"]) for s in group}


def test_whole_questions_every_format_in_dataset_order(full: list[Sample]) -> None:
    sub = paired_subset(full, 7, seed=11)
    groups = groups_of(sub)
    assert len(groups) == 7 and len(sub) == 7 * len(FORMATS)
    assert all(_formats(g) == set(FORMATS) for g in groups.values())
    position = {id(s): i for i, s in enumerate(full)}
    assert [position[id(s)] for s in sub] == sorted(position[id(s)] for s in sub)  # the dataset's order kept


def test_seeded_draws_repeat_and_differ(full: list[Sample]) -> None:
    ids = [[s.id for s in paired_subset(full, 10, seed)] for seed in (1, 1, 2)]
    assert ids[0] == ids[1]
    assert ids[0] != ids[2]


def test_balanced_over_band_and_question_type(full: list[Sample]) -> None:
    population = groups_of(full)
    n = 60
    chosen = groups_of(paired_subset(full, n, seed=5))
    for key in STRATA:
        share = Counter(str((g[0].metadata or {})[key]) for g in population.values())
        got = Counter(str((g[0].metadata or {})[key]) for g in chosen.values())
        for value, count in share.items():
            expected = n * count / len(population)
            assert abs(got[value] - expected) < 2, (key, value, got[value], expected)


def _sample(qid: str, fmt: str, band: str = "simple", kind: str = "t") -> Sample:
    return Sample(id=f"{qid}-{fmt}", input="x", target="y",
                  metadata={"format": fmt, "complexity": band, "question_type": kind})


def test_incomplete_questions_are_never_drawn() -> None:
    samples = [_sample(f"q{i}", f) for i in range(6) for f in ("a", "b") if not (i % 2 and f == "b")]
    for seed in range(10):
        groups = groups_of(paired_subset(samples, 3, seed))
        assert set(groups) == {"q0", "q2", "q4"}
    with pytest.raises(TaskArgumentError, match=r"only 3 of the 6 questions .* every selected format"):
        paired_subset(samples, 4)


def test_bad_counts_are_task_argument_errors(full: list[Sample]) -> None:
    for bad in (0, -2, True, "5"):
        with pytest.raises(TaskArgumentError, match="-T questions="):
            paired_subset(full, bad)  # type: ignore[arg-type]
    assert paired_subset(full, None) == full
    assert paired_subset(full, 10**6) == full  # more than there are: all of them, like a large --limit


def _scripted(task: Any) -> Any:
    """A mockllm that answers Dart (and minified Dart) right, COON right on every other question, else wrong."""
    samples = list(task.dataset)
    questions = sorted({question_group(str(s.id), s.metadata or {}) for s in samples})
    by_prompt = {str(s.input): s for s in samples}

    def reply(messages: list[Any], *_: Any) -> ModelOutput:
        s = by_prompt[messages[-1].text]
        right = str((s.metadata or {})["format"]).startswith("dart") or (
            questions.index(question_group(str(s.id), s.metadata or {})) % 2 == 0)
        return ModelOutput.from_content("mockllm/model", str(s.target) if right else "zzz")

    return reply


def test_a_paired_subset_run_pairs_every_format_on_the_same_questions(tmp_path: Path) -> None:
    task = comprehension(questions=5, seed=3)
    model = get_model("mockllm/model", custom_outputs=_scripted(task))
    [log] = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success"
    samples, _ = load_samples([tmp_path])
    per_format = samples.groupby("format")["pair"].apply(frozenset)
    assert set(per_format.index) == set(FORMATS)
    assert len({*per_format}) == 1 and len(per_format.iloc[0]) == 5  # the same 5 questions in every format
    cmp = comparisons(samples)
    assert len(cmp) == len(FORMATS) * (len(FORMATS) - 1) // 2
    assert set(cmp["pairs"]) == {5}  # every paired test uses all five
    assert (cmp["a_only"] + cmp["b_only"]).sum() > 0  # and the scripted model makes them disagree somewhere
