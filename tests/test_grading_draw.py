"""The grading set is drawn fresh per sample and epoch (issue 56, item 1): knowing the committed one is worth nothing.

- the draw: stable for one (sample, epoch), different across epochs and samples, disjoint by call from the public
  tests and the feedback set, as large as the committed grading set, and every expected value is what the
  Python reference returns, computed here in this process (a second runner, not the draw's worker);
- through the task: a program that is a lookup table of every committed test (public, feedback and grading)
  passes the dialogue and, before this change, the grade; with a fresh draw it fails the grade in each epoch,
  while the gold program scores 1 in each.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, get_model

from coonbench.datasets.correction import load_problems, problem_by_id
from coonbench.datasets.grading_draw import draw_grading
from coonbench.evals.correction import correction
from coonbench.execution.base import values_equal
from coonbench.execution.sandbox import capabilities
from coonbench.tasks.state import CorrectionState

needs_isolation = pytest.mark.skipif(capabilities()["isolation"] != "full", reason="no isolation on this machine")
PROBLEM = "reverse_string"


def call(case: Any) -> str:
    return json.dumps([case.input, case.then_call])


def reference_answer(problem: Any, case: Any) -> tuple[str, Any]:
    """("ok", value) or ("error", exception type) of the Python reference on ``case``, run in this process."""
    namespace: dict[str, Any] = {}
    exec(compile(problem.solutions["python"], problem.id, "exec"), namespace)  # noqa: S102 - our reference
    try:
        value = namespace[problem.signature.name](*json.loads(json.dumps(case.input)))
        if case.then_call is not None:
            value = value(*case.then_call)
    except ValueError:
        return "error", ValueError
    return "ok", json.loads(json.dumps(value))


def check_draw(problem: Any) -> None:
    first = draw_grading(problem, "s1", 1)
    if first is None:
        return
    assert draw_grading(problem, "s1", 1) == first  # stable
    others = [draw_grading(problem, "s1", 2), draw_grading(problem, "s2", 1)]
    shown = {call(c) for c in problem.public_tests + problem.feedback_tests}
    committed = {call(c) for c in problem.grading_tests}
    fixed = {call(c) for c in problem.tests[3:]}  # the hand-written hidden tests stay in every draw
    for draw in [first, *others]:
        assert draw is not None and len(draw) == len(problem.grading_tests), problem.id
        assert not {call(c) for c in draw} & shown, problem.id
        for case in draw:
            kind, value = reference_answer(problem, case)
            if case.expected_error is not None:
                assert kind == "error", (problem.id, case)
            else:
                assert kind == "ok" and values_equal(case.expected, value, case.tolerance), (problem.id, case, value)
    fresh = [{call(c) for c in d} - fixed for d in (first, *others)]
    assert fresh[0] and fresh[0] != fresh[1] and fresh[0] != fresh[2], problem.id
    assert len(fresh[0] - committed) >= len(fresh[0]) // 2, problem.id  # mostly new inputs, not the committed ones


@pytest.mark.parametrize("problem_id", [PROBLEM, "factorial", "gcd"])
def test_the_draw_is_fresh_disjoint_and_right(problem_id: str) -> None:
    check_draw(problem_by_id(problem_id))


@pytest.mark.slow  # ~40 s: the reference workers for every problem, three draws each
def test_the_draw_on_every_problem() -> None:
    drawn = 0
    for problem in load_problems():
        check_draw(problem)
        drawn += draw_grading(problem, "s1", 1) is not None
    assert drawn >= len(load_problems()) - 5, drawn  # all but the enumerated domains


def lookup_table(problem: Any) -> str:
    """A program that knows every committed test and nothing else."""
    table = {json.dumps(c.input): c.expected for c in problem.all_tests if c.expected_error is None}
    params = ", ".join(p.name for p in problem.signature.params)
    return (f"import json\nTABLE = {table!r}\ndef {problem.signature.name}({params}):\n"
            f"    return TABLE.get(json.dumps([{params}]), 'not in the table')\n")


def _reply(code: str):  # type: ignore[no-untyped-def]
    def respond(messages, tools, tool_choice, config):  # type: ignore[no-untyped-def]
        return ModelOutput.from_content(model="mockllm/model", content=f"```python\n{code}\n```")

    return respond


@needs_isolation
@pytest.mark.parametrize("who", ["lookup", "gold"])
def test_knowing_the_committed_tests_does_not_pass_the_grade(who: str) -> None:
    problem = problem_by_id(PROBLEM)
    code = lookup_table(problem) if who == "lookup" else problem.solutions["python"]
    task = correction(target="python", problems=PROBLEM, max_retries=0, sandbox="local")
    log = inspect_eval(task, model=get_model("mockllm/model", custom_outputs=_reply(code)), display="none",
                       log_dir=None, epochs=2)[0]
    assert log.status == "success", log.error
    assert len(log.samples) == 2
    for sample in log.samples:
        attempt = sample.store_as(CorrectionState).attempts[0]
        assert attempt["outcome"] == "PASS", attempt  # the dialogue's run: public tests and the feedback set
        score = next(iter(sample.scores.values()))
        assert score.value["correct"] == (1.0 if who == "gold" else 0.0), (who, score.explanation)
