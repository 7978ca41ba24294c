"""The trivial baselines: registered, deterministic, and the frequent-answer baseline cannot see its own answer."""

from __future__ import annotations

import asyncio

import pytest

from inspect_ai import eval as inspect_eval
from inspect_ai.scorer import Target
from inspect_ai.solver import TaskState

from solvers.baselines import (
    CONSTANTS,
    baseline_constant,
    baseline_empty,
    baseline_frequent,
    baseline_random_widget,
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


def test_most_frequent_leaves_the_question_out_and_breaks_ties_by_seed() -> None:
    pool = [("q1", "Text"), ("q1", "Text"), ("q1", "Text"), ("q2", "Row"), ("q3", "Row"), ("q4", "Column")]
    assert most_frequent(pool, "q1") == "Row"  # q1's three copies would have made it "Text"
    assert most_frequent(pool, "q2") == "Text"
    tie = [("a", "x"), ("b", "y")]
    assert most_frequent(tie, "none") == most_frequent(list(reversed(tie)), "none")  # order-independent
    assert most_frequent([("q1", "Text")], "q1") == ""


def test_question_group_spans_formats() -> None:
    assert question_group("comprehension-simple-001-q3-coon", {"format": "coon"}) == "comprehension-simple-001-q3"
    assert question_group("x-dart", {"format": "dart", "pair_id": "p7"}) == "p7"


def test_constant_empty_and_random_widget() -> None:
    assert _run(baseline_constant(), _state("s", {"answer_type": "integer"})) == CONSTANTS["integer"]
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
    acc = next(s.metrics["accuracy"].value for s in log.results.scores if s.name == "correct")
    assert 0.0 <= acc < 1.0
