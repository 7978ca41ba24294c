"""Through the task: the dialogue runs only the feedback set, and the log carries no hidden test (issue 56).

- the solver's path: the correction protocol, end to end through ``inspect eval`` with scripted replies, runs each
  attempt of the dialogue on the public tests and the feedback set only; a solver that ran every hidden test
  (``evaluate_reply`` on the whole problem instead of ``feedback_attempt``) fails here, one layer above where the
  split itself is tested (tests/test_correction_grading.py);
- the log: a passing program's runs (the dialogue's and the scorer's grading run) leave no hidden input and no
  hidden expected value in the transcript's sandbox events: the inputs cross as bytes, the answers in a result
  file read back as bytes, and the transcript shows bytes as a size.
The expected counts come from the problem file and the split rule as the docs state it (hand-written tests after
the public ones are graded; generated ones alternate per kind, the first of each kind graded), not from the code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import ModelOutput, get_model

from coonbench.datasets.correction import problem_by_id
from coonbench.evals.correction import correction
from coonbench.execution.sandbox import capabilities
from coonbench.tasks.state import CorrectionState

needs_isolation = pytest.mark.skipif(capabilities()["isolation"] != "full", reason="no isolation on this machine")
PROBLEM = "reverse_string"
PUBLIC = 3  # the first three tests of a problem file are shown in the prompt


def _reply(code: str):  # type: ignore[no-untyped-def]
    def respond(messages, tools, tool_choice, config):  # type: ignore[no-untyped-def]
        return ModelOutput.from_content(model="mockllm/model", content=f"```python\n{code}\n```")

    return respond


def _feedback_count(problem_id: str) -> tuple[int, int]:
    """(hidden tests, of them in the feedback set) by the documented rule: every hand-written hidden test is graded;
    the generated ones alternate per kind (expected error or value), the first of each kind graded; a call equal
    to one already placed goes with it."""
    problem = problem_by_id(problem_id)
    placed: dict[str, bool] = {}  # call -> fed back?
    seen: dict[bool, int] = {}
    for case in problem.tests[PUBLIC:]:
        placed.setdefault(json.dumps([case.input, case.then_call]), False)
    fed = 0
    for case in problem.generated:
        key = json.dumps([case.input, case.then_call])
        if key not in placed:
            kind = case.expected_error is not None
            placed[key] = seen.get(kind, 0) % 2 == 1
            seen[kind] = seen.get(kind, 0) + 1
        fed += placed[key]
    return len(problem.tests) - PUBLIC + len(problem.generated), fed


@needs_isolation
def test_the_dialogue_runs_the_public_tests_and_the_feedback_set_only() -> None:
    hidden, fed = _feedback_count(PROBLEM)
    assert 0 < fed < hidden
    model = get_model("mockllm/model", custom_outputs=_reply("def reverse_string(s):\n    return s\n"))
    log = inspect_eval(correction(target="python", problems=PROBLEM, max_retries=1, sandbox="local"), model=model,
                       display="none", log_dir=None)[0]
    assert log.status == "success", log.error
    attempts = log.samples[0].store_as(CorrectionState).attempts
    assert len(attempts) == 2
    for attempt in attempts:
        assert attempt["total"] == PUBLIC + fed, (attempt["total"], PUBLIC, fed, hidden)
        assert attempt["details"]["hidden"] == fed
    feedback = [m.text for m in log.samples[0].messages if m.role == "user"][1:]
    assert feedback and all(f"of {fed} fail" in text for text in feedback), feedback


@needs_isolation
def test_no_hidden_test_reaches_the_logs_sandbox_events(tmp_path: Path) -> None:
    problem = problem_by_id(PROBLEM)
    model = get_model("mockllm/model", custom_outputs=_reply(problem.solutions["python"]))
    log = inspect_eval(correction(target="python", problems=PROBLEM, max_retries=0, sandbox="local"), model=model,
                       display="none", log_dir=str(tmp_path))[0]
    assert log.status == "success", log.error
    sample = read_eval_log(log.location).samples[0]  # as written to disk
    score = next(iter(sample.scores.values()))
    assert score.value["correct"] == 1.0  # the grading run happened
    events = [e for e in sample.events if e.event == "sandbox"]
    execs = [e for e in events if e.action == "exec"]
    assert len(execs) >= 2, [e.action for e in events]  # at least the dialogue's run and the grading run
    public = {json.dumps(a) for c in problem.tests[:PUBLIC] for a in c.input} | {
        json.dumps(c.expected) for c in problem.tests[:PUBLIC]}
    secrets = set()
    for case in problem.tests[PUBLIC:] + problem.generated:
        secrets.update(json.dumps(a) for a in case.input)
        secrets.add(json.dumps(case.expected))
    secrets = {s for s in secrets - public if len(s) >= 6}  # a quoted string of four characters or more
    assert len(secrets) > 10
    shown = "\n".join(f"{e.cmd} {e.input} {e.output}" for e in events)
    assert not [s for s in secrets if s in shown], [s for s in secrets if s in shown][:5]
    assert any("binary" in (e.input or "") for e in execs), [e.input for e in execs]
