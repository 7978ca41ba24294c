"""Fuzz the judge parsers: on any reply they return a verdict or raise ``JudgeParseError`` — in linear time.

And end to end: a judge that answers 10,000 ``[`` leaves the sample unscored (``grader_failed``) with the failure
counted, never an ERROR.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.judging.criteria import criteria_from_dict, sample_criteria
from coonbench.scorers.judge import (
    JudgeParseError,
    extract_json,
    json_spans,
    judge,
    parse_grade,
    parse_report,
    parse_verdicts,
    report_schema,
)
from tests.hostile import DEPTH, FUZZ_SETTINGS, check_contract, deep_nesting, fixed_hostile, hostile_text

CRITERIA = criteria_from_dict(sample_criteria(accuracy=["Written in Dart"], completeness=["Shows a button", "Lists"]))
ITEMS = CRITERIA.accuracy
VALID = json.dumps(
    {"evaluation_steps": [{"criterion": "Written in Dart", "weight": 1, "passed": True, "confidence": 90,
                           "explanation": "it is"}]}
)
VALID_REPORT = "- **Pass** (90%): Written in Dart\nEvaluated 1, passed 1, failed 0."

TARGETS = {
    "extract_json": lambda text: extract_json(text),
    "parse_verdicts": lambda text: parse_verdicts(text, ITEMS),
    "parse_report": lambda text: parse_report(text, ITEMS),
    "parse_grade": lambda text: parse_grade(ModelOutput.from_content(model="fuzz", content=text)),
}


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_fixed_hostile_replies_give_a_verdict_or_a_parse_error(name: str) -> None:
    for text in fixed_hostile(VALID) + fixed_hostile(VALID_REPORT):
        check_contract(TARGETS[name], text, (JudgeParseError,), label=name)


@pytest.mark.parametrize("name", sorted(TARGETS))
@FUZZ_SETTINGS
@given(text=hostile_text([VALID, VALID_REPORT, "GRADE: 4"]))
def test_random_replies_give_a_verdict_or_a_parse_error(name: str, text: str) -> None:
    check_contract(TARGETS[name], text, (JudgeParseError,), label=name)


def test_the_verdict_is_found_behind_deep_nesting_and_in_prose() -> None:
    """A verdict after 10,000 unclosed ``[`` (or inside prose and a fence) is still read: the scan is not fooled."""
    for text in (deep_nesting("[") + " " + VALID, f"Sure! Here it is:\n```json\n{VALID}\n```\nDone.", "x" * 10 + VALID):
        assert parse_verdicts(text, ITEMS)[0].passed is True
    assert json_spans(deep_nesting("[", "]")) == []  # too deep to hand to the decoder: skipped, not recursed
    with pytest.raises(JudgeParseError, match="no JSON object"):
        extract_json(deep_nesting("["))


def test_numbered_steps_of_the_structured_schema_are_read_in_order() -> None:
    """The shape ``report_schema(items)`` makes a grammar produce: numbered steps, read in numeric order."""
    two = CRITERIA.completeness
    step = {"criterion": "x", "weight": 1, "confidence": 90, "explanation": ""}
    text = json.dumps({"evaluation_steps": {"2": {**step, "passed": False}, "1": {**step, "passed": True}}})
    assert [v.passed for v in parse_verdicts(text, two)] == [True, False]
    schema = report_schema(two).json_schema.properties["evaluation_steps"]
    assert schema.required == ["1", "2"] and schema.properties["2"].properties["criterion"].enum == [two[1].text]


def test_scan_time_is_linear_in_the_reply() -> None:
    """Spans of one text are disjoint, so 100 KB of small objects is one pass, not a restart at each object."""
    text = '{"a": [1, 2]} ' * 7000
    spans = json_spans(text)
    assert len(spans) == 7000 and all(text[s] == "{" and text[e - 1] == "}" for s, e in spans)


@solver
def constant_answer(text: str) -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.output = ModelOutput.from_content(model="scripted", content=text)
        return state

    return solve


def test_judge_answering_ten_thousand_brackets_is_an_unscored_failure_not_an_error(tmp_path: Path) -> None:
    task = Task(
        dataset=[Sample(input="Write a screen", target="", id="s1",
                        metadata={"criteria": sample_criteria(accuracy=["Written in Dart"])})],
        solver=constant_answer("void main() {}"),
        scorer=judge(mode="weighted"),
    )
    judge_model = get_model("mockllm/model", custom_outputs=[
        ModelOutput.from_content(model="mockllm/model", content="[" * DEPTH) for _ in range(2)
    ])
    [log] = eval(task, model="mockllm/model", model_roles={"judge": judge_model}, log_dir=str(tmp_path),
                 display="none")
    assert log.status == "success", log.error
    sample = log.samples[0]
    assert sample.error is None
    score = sample.scores["judge"]
    assert score.reason == "grader_failed"
    assert math.isnan(score.value["combined"]) and score.value["judge_failures"] == 1.0
    metrics = log.results.scores[0].metrics
    assert metrics["judge_failures"].value == 1.0 and metrics["parse_failures"].value == 2.0
