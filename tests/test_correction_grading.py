"""Grading tests never talk back: each problem's hidden tests are split into a feedback set and a disjoint grading
set; the dialogue (feedback, and when to stop) only ever runs the public tests and the feedback set, and the scorer
runs the grading set after the last message (``coonbench.execution.attempts``, ``docs/sandbox.md``).

- the split itself, on every problem and on HumanEval (base tests graded, amplified ones split);
- byte-identical feedback: the whole pipeline (the real executor, classification, redaction, the feedback
  message) over a stand-in sandbox that answers each call from a table; two programs that differ only on the
  grading set produce the same messages, attempt after attempt, and different grades;
- the exception-label program of issue 43, for real in the sandbox (Python, python-ast and JavaScript, as root and
  as uid 65534): a table of the prompt's examples, and for any other input an exception whose name is one digit of it.
  Against feedback computed from every hidden test it learns ``factorial_checked``'s one value-expected hidden
  input and scores 1; against the feedback set it scores 0.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from inspect_ai.util import ExecResult

from coonbench.datasets.correction import load_problems, problem_by_id
from coonbench.execution import Outcome, get_executor
from coonbench.execution.attempts import (
    GRADED,
    attempt_record,
    evaluate_reply,
    feedback_attempt,
    feedback_problem,
    grade_attempts,
    grading_problem,
)
from coonbench.execution.base import BUILTIN_ERRORS, RESULT_MARKER, check_case
from coonbench.execution.problem import _case_key, _stratum
from coonbench.execution.python import python_to_ast_json
from coonbench.execution.sandbox import LocalLimitedSandbox, LocalSandboxConfig, capabilities
from coonbench.scorers.correction import score_attempts
from coonbench.solvers.correction import feedback_message
from coonbench.validity.memorisation import javascript_table, python_table
from tests.sandboxed import can_become_a_user, pytest_as_ordinary_user

needs_isolation = pytest.mark.skipif(capabilities()["isolation"] != "full", reason="no isolation on this machine")


def keys(cases: list[Any]) -> set[str]:
    return {_case_key(c) for c in cases}


# ---------------------------------------------------------------- the split


def check_split(problem: Any, pinned: list[Any]) -> None:
    feedback, grading = problem.feedback_tests, problem.grading_tests
    assert not keys(feedback) & keys(grading), problem.id  # disjoint by call
    assert sorted(map(_case_key, feedback + grading)) == sorted(map(_case_key, problem.hidden_tests)), problem.id
    assert keys(pinned) <= keys(grading), problem.id  # hand-written (HumanEval's own) tests are graded
    assert {_stratum(c) for c in problem.hidden_tests} <= {_stratum(c) for c in grading}, problem.id
    assert len(grading) >= len(problem.hidden_tests) // 2, problem.id
    view = feedback_problem(problem)
    assert keys(view.all_tests) == keys(problem.public_tests) | keys(feedback)  # a public call may be graded too
    assert keys(view.hidden_tests) == keys(feedback)
    assert keys(grading_problem(problem).all_tests) == keys(grading)


def test_every_problem_splits_into_disjoint_feedback_and_grading_sets() -> None:
    for problem in load_problems():
        check_split(problem, problem.tests[3:])
        values = [c for c in problem.grading_tests if c.expected_error is None]
        if any(c.expected_error is None for c in problem.hidden_tests):  # a program that always raises fails grading
            assert values, problem.id


def test_humaneval_grades_its_own_tests_and_splits_the_amplified_ones() -> None:
    humaneval = pytest.importorskip("coonbench.datasets.humaneval")
    try:
        problems = humaneval.load_humaneval("amplified")[0]
    except humaneval.HumanEvalUnavailable as exc:
        pytest.skip(str(exc))
    for problem in problems:
        check_split(problem, problem.hidden_tests[: problem.base_hidden])
    with_feedback = sum(bool(p.feedback_tests) for p in problems)  # the amplified tests leave some for feedback
    assert with_feedback >= 0.9 * len(problems), with_feedback  # (HumanEval/39's amplified inputs are its own)


# ---------------------------------------------------------------- byte-identical feedback (no sandbox)


class TableBox:
    """A stand-in sandbox: the supervisor's answer to each call is ``answer(call key, attempt)``; it records every
    call it was given."""

    def __init__(self, answer: Any) -> None:
        self.answer, self.seen, self.attempt, self.result = answer, [], 0, b""

    async def write_file(self, file: str, contents: str | bytes) -> None:
        return None

    async def exec(self, cmd: list[str], input: str | bytes = "", **_: Any) -> ExecResult[str]:
        text = input.decode() if isinstance(input, bytes) else input
        lines = [json.loads(line) for line in text.splitlines()]
        nonce, calls = lines[0], lines[1:]
        keys_ = [json.dumps([c["input"], c.get("then_call")], sort_keys=True, default=repr) for c in calls]
        self.seen.extend(keys_)
        record = {"stage": "run", "cases": [self.answer(k, self.attempt) for k in keys_]}
        self.result = f"{RESULT_MARKER}{nonce} {json.dumps(record)}\n".encode()  # the supervisor's result file
        return ExecResult(True, 0, "", "")

    async def read_file(self, file: str, text: bool = True) -> str | bytes:
        assert file.endswith("/result") and not text, file
        return self.result


def right(case: Any) -> dict[str, Any]:
    if case.expected_error is not None:
        return {"status": "error", "error": "ValueError", "message": "invalid", "type_error": False, "value_error": True}
    return {"status": "ok", "value": case.expected}


def palette(text: str) -> list[dict[str, Any]]:
    """Answers of every kind, each carrying program-chosen ``text`` where it can."""
    errors = [{"status": "error", "error": name, "message": text, "type_error": False, "value_error": flag}
              for name in (*BUILTIN_ERRORS, text) for flag in (False, True)]
    return [{"status": "ok", "value": text}, {"status": "ok", "value": -12345}, {"status": "ok", "value": None},
            {"status": "timeout", "message": text}, {"status": "error", "error": "TypeError", "message": text,
                                                     "type_error": True}, *errors]


def dialogue(problem: Any, answer: Any) -> tuple[list[str], list[dict[str, Any]], set[str]]:
    """Four attempts through ``feedback_attempt`` (what the solver calls), then ``grade_attempts`` (the scorer's):
    (the feedback messages, the graded records, the calls the dialogue's runs were given)."""
    executor = get_executor("python")
    box = TableBox(answer)
    messages, records = [], []
    for number in range(1, 5):
        box.attempt = number
        code, result = asyncio.run(feedback_attempt(executor, problem, f"```python\ndef {problem.signature.name}(*a):\n    pass\n```", 2.0, box))  # type: ignore[arg-type]
        records.append(attempt_record(number, "reply", code, result))
        if result.outcome is Outcome.PASS:
            break
        messages.append(feedback_message(result, executor))
    dialogue_calls = set(box.seen)
    return messages, asyncio.run(grade_attempts(executor, problem, records, 2.0, box)), dialogue_calls  # type: ignore[arg-type]


@settings(max_examples=2, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), text=st.text(max_size=12), wrong=st.integers(0, 40))
def test_feedback_is_byte_identical_whatever_the_grading_set_answers(seed: int, text: str, wrong: int) -> None:
    """On every problem: attempts 1-3 fail one feedback (or public) test, attempt 4 passes public and feedback
    tests. Program A answers the grading set right, program B with anything (drawn per call); only grading-set
    outcomes differ, and every message is byte-identical, while the grades differ."""
    for problem in load_problems():
        by_key = {_case_key(c): c for c in problem.all_tests}
        grading = keys(problem.grading_tests)
        shown = [_case_key(c) for c in problem.public_tests + problem.feedback_tests]
        answers = palette(text)
        rng = random.Random(seed)
        drawn = {k: rng.choice(answers) for k in sorted(grading)}

        def program(bad_grading: bool) -> Any:
            def answer(key: str, attempt: int) -> dict[str, Any]:
                if key in grading and bad_grading:
                    return drawn[key]
                if attempt < 4 and key == shown[-1]:
                    return answers[(wrong + attempt) % len(answers)]
                return right(by_key[key])
            return answer

        msgs_a, graded_a, calls_a = dialogue(problem, program(False))
        msgs_b, graded_b, calls_b = dialogue(problem, program(True))
        assert msgs_a == msgs_b, problem.id
        assert not (calls_a | calls_b) & grading, problem.id  # no dialogue run was given a grading input
        assert graded_a[-1][GRADED] == Outcome.PASS.value, (problem.id, graded_a[-1])
        changed = any(check_case(problem, by_key[k], drawn[k]) is not None for k in grading)
        assert (graded_b[-1][GRADED] != Outcome.PASS.value) == changed, (problem.id, graded_b[-1])


def test_knowing_every_feedback_test_does_not_pass_grading_on_any_problem() -> None:
    """The best a content-free program can do: answer the public tests and the whole feedback set right (as if every
    feedback had told it everything), raise a ``ValueError`` for anything else (which passes every expected-error
    test). It passes the dialogue and fails the grading set, on every problem and (where installed) on HumanEval."""
    problems = list(load_problems())
    try:
        from coonbench.datasets.humaneval import HumanEvalUnavailable, load_humaneval
        problems += list(load_humaneval("amplified")[0])
    except (ImportError, HumanEvalUnavailable):
        pass
    raised = {"status": "error", "error": "ValueError", "message": "not shown", "type_error": False, "value_error": True}
    executor = get_executor("python")
    passed_dialogue = 0
    for problem in problems:
        shown = {_case_key(c): c for c in problem.public_tests + problem.feedback_tests}

        def answer(key: str, attempt: int) -> dict[str, Any]:
            if key not in shown:
                return raised
            case = shown[key]
            kind = getattr(case, "kind", None)
            if kind is None:
                return right(case)
            if kind in ("truthy", "falsy"):  # HumanEval: what its own check expects
                return {"status": "ok", "value": kind == "truthy"}
            return {"status": "ok", "value": case.expected} if kind != "expr" else raised

        box = TableBox(answer)
        code, result = asyncio.run(feedback_attempt(executor, problem, "```python\ndef f(*a):\n    pass\n```", 2.0, box))  # type: ignore[arg-type]
        graded = asyncio.run(grade_attempts(executor, problem, [attempt_record(1, "", code, result)], 2.0, box))  # type: ignore[arg-type]
        assert graded[0][GRADED] != Outcome.PASS.value, problem.id
        passed_dialogue += result.outcome is Outcome.PASS
    assert passed_dialogue >= 0.95 * len(problems), (passed_dialogue, len(problems))  # the grading set decided


def test_the_score_is_the_grade() -> None:
    attempt = {"attempt": 1, "outcome": "PASS", "code": None, GRADED: "WRONG_OUTPUT"}
    assert score_attempts([attempt], 4, 10, None)["correct"] == 0.0
    assert score_attempts([{**attempt, GRADED: "PASS"}], 4, 10, None)["correct"] == 1.0


# ---------------------------------------------------------------- the exception-label program, in the sandbox

BUG_NAMES = {"TypeError", "ReferenceError", "SyntaxError", "EvalError", "URIError"}  # JavaScript's "bugs"
NAMES = [n for n in BUILTIN_ERRORS if n not in BUG_NAMES] + ["Zz"]  # one hidden label each: a digit in base len
BASE = len(NAMES)

LABEL_PROGRAM = {
    "python": "{table}\nNAMES = {names}\n_answer = {name}\n"
              "def {name}(*args):\n    try:\n        return _answer(*args)\n    except ValueError:\n        pass\n"
              "    digit = abs(int(args[0])) // {base} ** {k} % {base}\n"
              "    raise type(NAMES[digit], (ValueError,), {{}})('no')\n",
    "javascript": "{table}\nconst NAMES = {names};\nconst _answer = {name};\n"
                  "{name} = function (...args) {{\n  try {{ return _answer(...args); }} catch (e) {{}}\n"
                  "  const digit = Math.floor(Math.abs(args[0]) / {base} ** {k}) % {base};\n"
                  "  const e = new Error('no'); e.name = NAMES[digit]; throw e;\n}};\n",
}


def label_program(target: str, name: str, pairs: list[Any], k: int) -> str:
    table = {"python": python_table, "javascript": javascript_table}[target](name, pairs)
    if target == "javascript":
        table = table.replace(f"function {name}(", f"var {name} = function (", 1)
    return LABEL_PROGRAM[target].format(table=table, names=json.dumps(NAMES), name=name, base=BASE, k=k)


def digit_from(failures: dict[str, int]) -> int | None:
    """The digit one hidden failure's label carries, when exactly one label shows."""
    names = [label.partition(" (")[2][:-1] for label in failures]
    if len(names) != 1:
        return None
    return NAMES.index(names[0]) if names[0] in NAMES else NAMES.index("Zz") if names[0] == "other" else None


def attack(target: str, split: bool) -> tuple[list[dict[str, Any]], int | None]:
    """The exception-label program, three digits then the table, against feedback from the feedback set
    (``split``) or from every hidden test (the protocol before issue 43). (graded records, the input learned)."""
    problem = problem_by_id("factorial_checked")
    executor, name = get_executor(target), problem.signature.name
    lang = "javascript" if target == "javascript" else "python"
    pairs: list[Any] = [(c.input, None, ValueError if c.expected_error else c.expected) for c in problem.public_tests]
    box = LocalLimitedSandbox(LocalSandboxConfig())
    learned: int | None = 0
    records = []
    try:
        for number in range(1, 5):
            if number < 4:
                code = label_program(lang, name, pairs, number - 1)
            else:
                extra = [([learned], None, math.factorial(learned))] if learned is not None else []
                code = {"python": python_table, "javascript": javascript_table}[lang](name, pairs + extra)
            body = python_to_ast_json(code) if target == "python-ast" else code
            reply = f"```{executor.fence}\n{body}\n```"
            if split:
                code_, result = asyncio.run(feedback_attempt(executor, problem, reply, 2.0, box))
            else:
                code_, result = asyncio.run(evaluate_reply(executor, problem, reply, 2.0, box))
            records.append(attempt_record(number, reply, code_, result))
            if result.outcome is Outcome.PASS:
                break
            digit = digit_from(result.details.get("hidden_failures") or {})
            learned = None if digit is None or learned is None else learned + digit * BASE ** (number - 1)
        graded = asyncio.run(grade_attempts(executor, problem, records, 2.0, box)) if split else records
    finally:
        box.close()
    return graded, learned


@needs_isolation
@pytest.mark.parametrize("target", ["python", "python-ast", "javascript"])
def test_the_exception_label_program_scores_zero(target: str) -> None:
    before, learned = attack(target, split=False)
    assert learned == 1 and before[-1]["outcome"] == Outcome.PASS.value, before  # the channel of issue 43
    graded, _ = attack(target, split=True)
    assert score_attempts(graded, 4, 10, None)["correct"] == 0.0, graded
    assert all(a[GRADED] != Outcome.PASS.value for a in graded), graded


@pytest.mark.slow  # ~50 s: pytest and the three attacks again, as uid 65534
@pytest.mark.skipif(not can_become_a_user(), reason="needs root, unshare(1) and setpriv(1) to become an ordinary user")
def test_the_exception_label_program_scores_zero_as_an_ordinary_user() -> None:
    proc = pytest_as_ordinary_user("-k", "exception_label_program_scores_zero and not ordinary",
                                   "tests/test_correction_grading.py")
    out = proc.stdout.strip()
    assert proc.returncode == 0 and "3 passed" in out.splitlines()[-1], out[-4000:] + proc.stderr[-2000:]
