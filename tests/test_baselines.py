"""The trivial baselines: registered, deterministic, and the frequent-answer baseline cannot see its own answer."""

from __future__ import annotations

import asyncio

import pytest

from inspect_ai import eval as inspect_eval
from inspect_ai.scorer import Target
from inspect_ai.solver import TaskState

from coonbench.languages import get_language
from coonbench.solvers.baselines import (
    CONSTANTS,
    baseline_constant,
    baseline_empty,
    baseline_frequent,
    baseline_random_widget,
    fold_of,
    most_frequent,
    question_group,
)


def _state(sample_id: str, metadata: dict, text: str = "q") -> TaskState:
    return TaskState(model="m", sample_id=sample_id, epoch=1, input=text, messages=[], target=Target("x"),  # type: ignore[arg-type]
                     metadata=metadata)


async def _never(state: TaskState, *a, **k) -> TaskState:  # generate must not be called
    raise AssertionError("a baseline called the model")


def _run(solver, state: TaskState) -> str:
    return asyncio.run(solver(state, _never)).output.completion


def test_most_frequent_never_sees_its_own_question_and_breaks_ties_by_seed() -> None:
    groups = [f"q{i}" for i in range(40)]
    for g in groups:
        # every question's own answer is unique to it, copied in 3 formats: it must never be the reply
        pool = [(h, f"own-{h}") for h in groups for _ in range(3)] + [(h, "common") for h in groups[:10]]
        assert most_frequent(pool, g) != f"own-{g}"
    assert {fold_of(g) for g in groups} == {0, 1}
    a = next(g for g in groups if fold_of(g) == 0)
    b = next(g for g in groups if fold_of(g) == 1)
    assert most_frequent([(b, "NO"), (b, "NO"), (b, "YES")], a) == "NO"
    assert most_frequent([(a, "YES")], a) == ""  # nothing in the other fold
    tie = [(b, "x"), (b, "y")]
    assert most_frequent(tie, a) == most_frequent(list(reversed(tie)), a)  # order-independent


def test_balanced_binary_floor_is_not_biased_to_zero() -> None:
    """Leave-one-out on a balanced YES/NO type scores 0%; cross-fitting scores near the base rate."""
    groups = [f"q{i}" for i in range(200)]
    pool = [(g, "YES" if i % 2 else "NO") for i, g in enumerate(groups)]
    hits = sum(most_frequent(pool, g) == answer for g, answer in pool)
    assert 0.3 < hits / len(pool) < 0.7


def test_question_group_spans_formats() -> None:
    assert question_group("comprehension-simple-001-q3-coon", {"format": "coon"}) == "comprehension-simple-001-q3"
    assert question_group("x-dart", {"format": "dart", "pair_id": "p7"}) == "p7"


def test_constant_empty_and_random_widget() -> None:
    assert _run(baseline_constant(), _state("s", {"answer_type": "integer"})) == CONSTANTS["integer"]
    widget = get_language("dart").answer_types()["widget-name"]  # a language's own type: its baseline reply
    assert _run(baseline_constant(), _state("s", {"answer_type": "widget-name"})) == widget.baseline_reply != ""
    assert _run(baseline_constant("42"), _state("s", {"answer_type": "date"})) == "42"
    assert _run(baseline_empty(), _state("s", {})) == ""
    doc = "P(p @@16,c C(h:[T('a'),Ic(.star)]))"
    picks = {_run(baseline_random_widget(), _state(f"s{i}", {"input_text": doc})) for i in range(30)}
    assert picks <= {"P", "C", "T", "Ic"} and len(picks) > 1
    assert _run(baseline_random_widget(), _state("s1", {"input_text": doc})) == _run(
        baseline_random_widget(), _state("s1", {"input_text": doc}))


@pytest.mark.slow  # builds the structure dataset twice (task and frequency table)
def test_frequent_on_structure_runs_offline_and_stays_a_floor(tmp_path) -> None:
    """Through Inspect on the real structure task: the frequent answer never beats the gold solver's 100%."""
    log = inspect_eval("coonbench/structure", solver=baseline_frequent(), model="mockllm/model", limit=12,
                       display="none", log_level="warning", score_display=False, log_dir=str(tmp_path))[0]
    assert log.status == "success"
    replies = [s.output.completion for s in log.samples or []]
    assert all(isinstance(r, str) for r in replies) and any(replies)
    acc = next(s.metrics["accuracy"].value for s in log.results.scores if s.name == "answer_match")
    assert 0.0 <= acc < 1.0


def test_frequent_counts_the_answers_of_the_samples_own_language(tmp_path) -> None:
    """On Python comprehension the frequent floor replies Python answers: its pool is the built-in questions of the
    sample's language, so it answers every question type the language asks (a Dart-only pool left it silent: 0
    replies) and stays below the gold solver."""
    log = inspect_eval("coonbench/comprehension", solver=baseline_frequent(), model="mockllm/model",
                       task_args={"formats": "python", "questions": 24}, display="none", log_level="warning",
                       score_display=False, log_dir=str(tmp_path))[0]
    assert log.status == "success"
    samples = log.samples or []
    assert all(s.output.completion for s in samples), "a reply for every Python question type"
    acc = next(s.metrics["accuracy"].value for s in log.results.scores if s.name == "answer_match")
    assert 0.0 < acc < 1.0
