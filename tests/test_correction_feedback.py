"""Hidden feedback carries no text the program chose, and the block that is graded is the one that defines the
entry point.

A program sees each hidden input while it runs; whatever it can make the feedback say after that reaches the
model. The attacks of issue 36 are run for real (Python and JavaScript): naming an exception after the input it
was given (``type(json.dumps(args), (Exception,), {})``, ``e.name = JSON.stringify(args)``), and a per-test
oracle (a ``ValueError`` subclass per input: expected-error tests pass, the others would name their input),
followed by a second attempt that answers from a table of everything the first one revealed. What is left is
the count of hidden failures per label; ``test_feedback_is_a_function_of_the_label_counts`` checks that the
hidden part of the feedback takes exactly C(H + L, L) values (the bound ``docs/sandbox.md`` states).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coonbench.datasets.correction import problem_by_id
from coonbench.execution import AttemptResult, Outcome, Problem, get_executor
from coonbench.execution.attempts import evaluate_reply
from coonbench.execution.base import BUILTIN_ERRORS, HIDDEN_LABELS, classify_cases, hidden_label
from coonbench.execution.python import python_to_ast_json
from coonbench.execution.sandbox import LocalLimitedSandbox, LocalSandboxConfig, capabilities
from coonbench.answers.extract import extract_code
from coonbench.solvers.correction import feedback_message
from coonbench.validity.memorisation import javascript_table, python_table

REPO = Path(__file__).resolve().parents[1]
needs_isolation = pytest.mark.skipif(capabilities()["isolation"] != "full", reason="no isolation on this machine")
CONTENT_FREE = ("factorial_checked", "checked_sqrt", "is_leap_year", "nth_element", "parse_digits", "safe_divide")

EXFIL = {  # the exception's type name is the input the program was given
    "python": "import json\ndef {name}(*args):\n    raise type(json.dumps(list(args)), (Exception,), {{}})()\n",
    "javascript": "function {name}(...args) {{ const e = new Error('x'); e.name = JSON.stringify(args); throw e; }}\n",
}
ORACLE = {  # a ValueError subclass per input: passes every expected-error test, names the input of the others
    "python": "import json\ndef {name}(*args):\n    raise type(json.dumps(list(args)), (ValueError,), {{}})()\n",
    "javascript": EXFIL["javascript"],  # in JavaScript anything thrown but a TypeError & co. reads as deliberate
}


def run(target: str, code: str, problem: Problem) -> AttemptResult:
    box = LocalLimitedSandbox(LocalSandboxConfig())
    try:
        return asyncio.run(get_executor(target).run(code, problem, case_timeout=2, box=box))
    finally:
        box.close()


def revealed_inputs(result: AttemptResult) -> list[list[Any]]:
    """What an attacker reads back from the hidden-failure labels: argument lists named in them."""
    found = []
    for label in result.details.get("hidden_failures", {}):
        inner = label.partition(" (")[2][:-1]
        try:
            value = json.loads(inner)
        except ValueError:
            continue
        if isinstance(value, list):
            found.append(value)
    return found


def reference_pairs(problem: Problem, inputs: list[list[Any]]) -> list[tuple[list[Any], None, Any]]:
    """(args, None, value) for inputs the attacker learned, valued by the Python reference (the attacker can
    compute; the sandbox's job is that it never learns which inputs to compute)."""
    scope: dict[str, Any] = {}
    exec(compile(problem.solutions["python"], "reference", "exec"), scope)  # noqa: S102 - the dataset's reference
    pairs = []
    for args in inputs:
        try:
            pairs.append((args, None, scope[problem.signature.name](*args)))
        except ValueError:
            pairs.append((args, None, ValueError))
    return pairs


def public_pairs(problem: Problem) -> list[tuple[list[Any], None, Any]]:
    return [(c.input, None, ValueError if c.expected_error else c.expected) for c in problem.public_tests]


def leaked(problem: Problem, text: str) -> list[str]:
    """Hidden inputs (as argument lists, as calls) that a text quotes."""
    public = {json.dumps(c.input) for c in problem.public_tests} | {problem.call_text(c) for c in problem.public_tests}
    hidden = {json.dumps(c.input) for c in problem.hidden_tests} | {problem.call_text(c) for c in problem.hidden_tests}
    return sorted(s for s in hidden - public if s in text)


# ---------------------------------------------------------------- the attacks, run in the sandbox


@needs_isolation
@pytest.mark.parametrize("target", ["python", "python-ast", "javascript"])
def test_exception_names_carry_no_hidden_input(target: str) -> None:
    problem = problem_by_id("is_prime")
    code = EXFIL["python" if target == "python-ast" else target].format(name="is_prime")
    result = run(target, python_to_ast_json(code) if target == "python-ast" else code, problem)
    text = feedback_message(result, get_executor(target))
    counts = result.details["hidden_failures"]
    assert set(counts) <= set(HIDDEN_LABELS), counts
    assert counts == {"RUNTIME_ERROR (other)": len(problem.hidden_tests)}, counts
    assert revealed_inputs(result) == [] and leaked(problem, text) == [], text


@needs_isolation
@pytest.mark.parametrize("target", ["python", "javascript"])
def test_content_free_programs_score_zero(target: str) -> None:
    """On each problem: the per-test oracle (a program that always raises), then a table of what it revealed
    (values computed by the attacker) and an error for anything else. Neither passes, and no feedback quotes a
    hidden input. (With the exception's name in the label, the table passed ``factorial_checked`` 35/35.)"""
    executor = get_executor(target)
    table = {"python": python_table, "javascript": javascript_table}[target]
    for problem_id in CONTENT_FREE:
        problem = problem_by_id(problem_id)
        name = problem.signature.name
        first = run(target, ORACLE[target].format(name=name), problem)
        assert first.outcome is not Outcome.PASS, (problem_id, first)
        learned = revealed_inputs(first)
        second = run(target, table(name, public_pairs(problem) + reference_pairs(problem, learned)), problem)
        assert learned == [] and second.outcome is not Outcome.PASS, (problem_id, second)
        assert second.passed < second.total
        for result in (first, second):
            assert leaked(problem, feedback_message(result, executor)) == [], problem_id


# ---------------------------------------------------------------- the bound, without the sandbox

PROBE = Problem.model_validate({
    "id": "t_probe", "category": "basic", "complexity": "basic",
    "signature": {"name": "f", "params": [{"name": "n", "type": "int"}], "returns": "int"},
    "description": "identity", "solutions": {"python": "def f(n):\n    return n\n"},
    "tests": [{"input": [i], "expected": i} for i in range(5)],  # 3 public, 2 hidden
})


def behaviours(text: str) -> list[dict[str, Any]]:
    """One answer per label and a pass, each carrying program-chosen text (``text``) wherever it can."""
    out: list[dict[str, Any]] = [{"status": "ok", "value": "PASS"},  # "PASS": the case's own input (see below)
                                 {"status": "ok", "value": -12345}, {"status": "ok", "value": text},  # wrong, wrong type
                                 {"status": "timeout", "message": text},
                                 {"status": "error", "error": "TypeError", "message": text, "type_error": True}]
    for name in (*BUILTIN_ERRORS, text):
        out.append({"status": "error", "error": name, "message": text, "type_error": False, "value_error": False})
    return out


def _answer(res: dict[str, Any], case_input: int) -> dict[str, Any]:
    return {**res, "value": case_input} if res.get("value") == "PASS" else res


def test_feedback_is_a_function_of_the_label_counts() -> None:
    """Every combination of answers to 2 hidden tests, each with two different program-chosen texts: the hidden
    part of the feedback (and the outcome) depends only on the count per label, and takes exactly
    C(H + L, L) values: an attempt tells at most log2 of that many bits through the hidden tests."""
    hidden = len(PROBE.hidden_tests)
    executor = get_executor("python")
    by_counts: dict[tuple[tuple[str, int], ...], str] = {}
    for text in ("[4]", "f(4) = 4, the secret"):
        options = behaviours(text)
        for combo in itertools.product(options, repeat=hidden):
            cases = [{"status": "ok", "value": c.input[0]} for c in PROBE.public_tests]
            cases += [_answer(res, c.input[0]) for res, c in zip(combo, PROBE.hidden_tests)]
            result = classify_cases(PROBE, {"stage": "run", "cases": cases})
            counts = result.details["hidden_failures"]
            assert set(counts) <= set(HIDDEN_LABELS)
            message = feedback_message(result, executor) if result.outcome is not Outcome.PASS else "PASS"
            assert "secret" not in message and "[4]" not in message
            key = tuple(sorted(counts.items()))
            assert by_counts.setdefault(key, message) == message, key
    assert len(by_counts) == math.comb(hidden + len(HIDDEN_LABELS), len(HIDDEN_LABELS))


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                           max_leaves=10)
ANSWERS = st.fixed_dictionaries({}, optional={
    "status": st.sampled_from(["ok", "error", "timeout"]) | st.text(max_size=8),
    "error": st.sampled_from([*BUILTIN_ERRORS, "TypeError"]) | st.text(max_size=30) | JSON_VALUES,
    "message": st.text(max_size=30), "type_error": st.booleans() | JSON_VALUES,
    "value_error": st.booleans() | JSON_VALUES, "value": JSON_VALUES,
})


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(answers=st.lists(ANSWERS, min_size=5, max_size=5))
def test_any_answer_is_counted_under_a_fixed_label(answers: list[dict[str, Any]]) -> None:
    result = classify_cases(PROBE, {"stage": "run", "cases": answers})
    assert set(result.details["hidden_failures"]) <= set(HIDDEN_LABELS)
    for res in answers:
        assert hidden_label(Outcome.RUNTIME_ERROR, res) in HIDDEN_LABELS


def test_docs_state_the_bound_this_code_gives() -> None:
    """docs/sandbox.md names the number of labels and the bits for some numbers of hidden tests."""
    docs = (REPO / "docs" / "sandbox.md").read_text(encoding="utf-8")
    labels = len(HIDDEN_LABELS)
    assert f"L = {labels}" in docs
    rows = re.findall(r"^\| (\d+) \| ([\d.]+) \|", docs, flags=re.M)
    assert len(rows) >= 3, "the bits table is missing"
    for hidden, bits in rows:
        assert bits == f"{math.log2(math.comb(int(hidden) + labels, labels) + 6):.1f}", (hidden, bits)


# ---------------------------------------------------------------- the graded block

EXAMPLE_AFTER = """Here is the function:

```python
def is_prime(n):
    if n < 2:
        return False
    return all(n % d for d in range(2, int(n ** 0.5) + 1))
```

Example usage:

```python
print(is_prime(7))
```
"""


def test_the_block_that_defines_the_entry_point_is_graded() -> None:
    py, js = get_executor("python"), get_executor("javascript")
    pick = lambda reply, ex, name: extract_code(reply, ex.fence, prefer=lambda b: ex.defines(b, name))  # noqa: E731
    assert pick(EXAMPLE_AFTER, py, "is_prime").startswith("def is_prime")
    two_defs = "```python\ndef f(n):\n    return 1\n```\n```python\ndef f(n):\n    return 2\n```\n```python\nf(3)\n```"
    assert pick(two_defs, py, "f") == "def f(n):\n    return 2"  # the last block that defines it
    assert pick("```python\nprint(1)\n```\n```python\nprint(2)\n```", py, "f") == "print(2)"  # none does: the last
    js_reply = "```javascript\nconst f = (n) => n;\n```\n```javascript\nconsole.log(f(2));\n```"
    assert pick(js_reply, js, "f") == "const f = (n) => n;"


@needs_isolation
def test_an_example_usage_block_after_the_function_is_not_graded() -> None:
    problem = problem_by_id("is_prime")
    box = LocalLimitedSandbox(LocalSandboxConfig())
    try:
        code, result = asyncio.run(evaluate_reply(get_executor("python"), problem, EXAMPLE_AFTER, 2.0, box))
    finally:
        box.close()
    assert code is not None and code.startswith("def is_prime") and result.outcome is Outcome.PASS, result
