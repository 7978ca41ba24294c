"""Iterative correction: problem data, extraction, classification, gold on every target, the retry protocol."""

from __future__ import annotations

import ast
import asyncio
import json
import math
import re
from collections import Counter
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageAssistant, ChatMessageUser, ModelOutput, get_model

from coonbench.datasets.correction import (
    ProblemFileError,
    correction_dataset,
    load_problem_file,
    load_problems,
    problem_by_id,
)
from coonbench.execution import ExecutorUnavailable, Outcome, get_executor
from coonbench.execution.harness.python_runner import module_from_json
from coonbench.execution.problem import CATEGORIES
from coonbench.execution.python import ast_json_to_python, python_to_ast_json
from coonbench.execution.sandbox import LocalLimitedSandbox, LocalSandboxConfig
from coonbench.tasks.state import CorrectionState
from coonbench.answers.extract import extract_code
from coonbench.evals.correction import correction
from coonbench.scorers.correction import score_attempts
from coonbench.solvers.gold import gold

RUNNABLE = ["python", "python-ast", "python-minified", "python-minifier", "javascript"]


def metric(log, key: str) -> float:  # type: ignore[no-untyped-def]
    return next(s for s in log.results.scores if s.name == key).metrics["mean"].value


# ---------------------------------------------------------------- data


def test_at_least_40_problems_in_every_category() -> None:
    problems = load_problems()
    assert len(problems) >= 40
    counts = Counter(p.category for p in problems)
    assert set(counts) == set(CATEGORIES) and min(counts.values()) >= 5
    assert all("javascript" in p.solutions for p in problems)
    errors = [p for p in problems if p.category == "errors"]
    assert all(any(c.expected_error for c in p.tests) for p in errors)
    assert any(c.tolerance for p in problems if p.category == "numeric" for c in p.tests)


def test_malformed_file_names_file_line_entry_and_field(tmp_path: Path) -> None:
    good = (Path(__file__).parents[1] / "data" / "correction" / "basic.yaml").read_text()
    bad = good.replace("- {input: [-7], expected: 7}", "- {input: [-7]}", 1)
    path = tmp_path / "bad.yaml"
    path.write_text(bad)
    with pytest.raises(ProblemFileError) as err:
        load_problem_file(path)
    msg = str(err.value)
    line = bad[: bad.index("- id: abs_value")].count("\n") + 1
    assert str(path) in msg and f"line {line}" in msg and "abs_value" in msg and "tests.1" in msg
    path.write_text(good.replace("returns: int}", "returns: integer}", 1))
    with pytest.raises(ProblemFileError, match=r"field 'signature.returns'"):
        load_problem_file(path)
    path.write_text(good.replace("params: [{name: n, type: int}]", "params: [{name: N, type: int}]", 1))
    with pytest.raises(ProblemFileError, match=r"field 'signature.params.0.name'.*'N' must be snake_case"):
        load_problem_file(path)
    path.write_text(good.replace("{input: [5], expected: 5}", '{input: ["5"], expected: 5}', 1))
    with pytest.raises(ProblemFileError, match=r"expected int, got str"):
        load_problem_file(path)


def test_python_ast_gold_is_derived_and_round_trips() -> None:
    for problem in load_problems():
        src = problem.solutions["python"]
        tree_json = python_to_ast_json(src)
        assert json.loads(tree_json)["_type"] == "Module"
        assert ast.dump(ast.parse(ast_json_to_python(tree_json))) == ast.dump(ast.parse(src)), problem.id
        assert get_executor("python-ast").reference(problem) == tree_json


def test_ast_json_errors_are_parse_errors() -> None:
    with pytest.raises(ValueError, match="unknown node type"):
        module_from_json('{"_type": "Frobnicate"}')
    with pytest.raises(ValueError, match="has no field"):
        module_from_json('{"_type": "Module", "bodyy": []}')


# ---------------------------------------------------------------- extraction


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("Sure:\n```python\ndef f():\n    return 1\n```\nHope it helps", "python", "def f():\n    return 1"),
        ("```js\nfunction f(){}\n```\n```python\nx = 1\n```", "python", "x = 1"),
        ("```python\na\n```\n```python\nb\n```", "python", "b"),
        ("```\nlast\n```", "javascript", "last"),
        ("Here it is:\ndef f(x):\n    return x", "python", "def f(x):\n    return x"),
        ("I am not sure what you mean.", "python", None),
        ("", "python", None),
        ('tree: {"_type": "Module", "body": []} done', "python-ast", '{"_type": "Module", "body": []}'),
        ("```python\ndef f():\n    return 1", "python", "def f():\n    return 1"),
    ],
)
def test_extract_code(text: str, lang: str, expected: str | None) -> None:
    assert extract_code(text, lang) == expected


# ---------------------------------------------------------------- gold, end to end


@pytest.mark.parametrize("target", RUNNABLE)
def test_gold_scores_100_percent(target: str) -> None:
    """Every reference solution passes every test, run in the sandbox through inspect eval."""
    log = inspect_eval(correction(target=target), model="mockllm/model", solver=gold(), display="none", log_dir=None)[0]
    assert log.status == "success", log.error
    assert log.results.total_samples == len(load_problems())
    assert metric(log, "correct") == 1.0
    assert metric(log, "first_attempt_success") == 1.0
    assert metric(log, "iterations") == 1.0


def test_goth_refuses_without_binary(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setenv("COONBENCH_CACHE", str(tmp_path))  # no built interpreter there either
    monkeypatch.delenv("COONBENCH_GOTH", raising=False)
    with pytest.raises(ExecutorUnavailable, match="needs the Goth interpreter"):
        correction(target="goth")


def test_unknown_target_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown target 'cobol'"):
        correction(target="cobol")


# ---------------------------------------------------------------- the protocol with a scripted model

FAILURES = {
    Outcome.PARSE_ERROR: "```python\ndef factorial(n):\n    return (n *\n```",
    Outcome.TYPE_ERROR: "```python\ndef factorial(n):\n    return str(n)\n```",
    Outcome.RUNTIME_ERROR: "```python\ndef factorial(n):\n    return n // 0\n```",
    Outcome.WRONG_OUTPUT: "```python\ndef factorial(n):\n    return n\n```",
    Outcome.TIMEOUT: "```python\ndef factorial(n):\n    while True:\n        pass\n```",
}
SUCCESS = "```python\ndef factorial(n):\n    return 1 if n <= 1 else n * factorial(n - 1)\n```"


def scripted(script: list[str]):  # type: ignore[no-untyped-def]
    """A mockllm callable: reply number k of a sample is script[k] (counted from the conversation)."""

    def respond(messages, tools, tool_choice, config):  # type: ignore[no-untyped-def]
        k = sum(isinstance(m, ChatMessageAssistant) for m in messages)
        return ModelOutput.from_content(model="mockllm/model", content=script[min(k, len(script) - 1)])

    return respond


def test_each_error_type_then_success_is_credited_at_the_right_iteration() -> None:
    script = [*FAILURES.values(), SUCCESS]
    model = get_model("mockllm/model", custom_outputs=scripted(script))
    task = correction(target="python", problems="factorial", max_retries=5, case_timeout=0.5)
    log = inspect_eval(task, model=model, display="none", log_dir=None)[0]
    assert log.status == "success", log.error
    sample = log.samples[0]
    score = next(iter(sample.scores.values()))
    assert score.metadata["outcomes"] == [o.value for o in FAILURES] + ["PASS"]
    assert score.value["iterations"] == 6 and score.value["correct"] == 1.0
    assert score.value["first_attempt_success"] == 0.0 and score.value["parse_success"] == 0.0
    assert math.isnan(score.value["semantic_correct"])
    for outcome in FAILURES:
        assert score.value[f"n_{outcome.value.lower()}"] == 1.0
    feedback = [m.text for m in sample.messages if isinstance(m, ChatMessageUser)][1:]
    assert len(feedback) == 5
    for text, outcome in zip(feedback, FAILURES):
        assert f"Your program failed: {outcome.value}" in text
    wrong = feedback[3]
    assert "factorial(0)" in wrong and "Expected: 1" in wrong and "Actual: 0" in wrong
    assert sum(isinstance(m, ChatMessageAssistant) for m in sample.messages) == 6
    record = sample.store_as(CorrectionState)
    assert len(record.attempts) == 6 and record.max_attempts == 6 and record.problem_id == "factorial"


def test_never_correct_gets_the_sentinel_and_garbage_is_incorrect() -> None:
    model = get_model("mockllm/model", custom_outputs=scripted(["I'm sorry, I cannot write code today.", "???", "🙂", "no"]))
    log = inspect_eval(correction(target="javascript", problems="gcd"), model=model, display="none", log_dir=None)[0]
    assert log.status == "success", log.error
    score = next(iter(log.samples[0].scores.values()))
    assert score.value["correct"] == 0.0 and score.value["iterations"] == 5  # max_retries 3 → 4 attempts, never = 5
    assert math.isnan(score.value["iterations_solved"]) and math.isnan(score.value["final_tokens"])
    assert score.value["n_parse_error"] == 4
    assert "no JavaScript code found" in score.explanation


@pytest.mark.parametrize("target", RUNNABLE)
def test_garbage_with_gold_solver_path_never_crashes(target: str) -> None:
    """The scorer alone (no protocol) scores random text INCORRECT with an explanation."""
    model = get_model("mockllm/model", custom_outputs=scripted(["```\n}{ random ][ text\n```"]))
    from inspect_ai.solver import generate

    log = inspect_eval(
        correction(target=target, problems="abs_value,word_count"), model=model, solver=generate(), display="none", log_dir=None
    )[0]
    assert log.status == "success", log.error
    for sample in log.samples:
        score = next(iter(sample.scores.values()))
        assert score.value["correct"] == 0.0 and "PARSE_ERROR" in score.explanation


# ---------------------------------------------------------------- classification details


def _run(target: str, code: str, problem_id: str):  # type: ignore[no-untyped-def]
    problem = next(p for p in load_problems() if p.id == problem_id)
    box = LocalLimitedSandbox(LocalSandboxConfig())
    return asyncio.run(get_executor(target).run(code, problem, case_timeout=1.0, box=box))


@pytest.mark.parametrize(
    ("target", "code", "outcome"),
    [
        ("python", "def safe_divide(a, b):\n    return a // b\n", Outcome.RUNTIME_ERROR),
        ("python", "def safe_divide(a, b):\n    return a / b if b else 0\n", Outcome.TYPE_ERROR),
        ("python", "def safe_divide(a, b):\n    return a // b if b else 0\n", Outcome.WRONG_OUTPUT),
        ("javascript", "function safe_divide(a, b) { return Math.floor(a / b); }", Outcome.WRONG_OUTPUT),
        ("javascript", "function safe_divide(a, b) { return a / b; }", Outcome.TYPE_ERROR),
        ("javascript", "function safe_divide(a, b) { return a.foo.bar; }", Outcome.TYPE_ERROR),
        ("javascript", "function safe_divide(a, b) { return undefinedName; }", Outcome.RUNTIME_ERROR),
        ("javascript", "function safe_divide(a, b) { return (; }", Outcome.PARSE_ERROR),
        ("python-ast", '{"_type": "Module", "body": [{"_type": "Nope"}]}', Outcome.PARSE_ERROR),
        ("python-ast", "{not json", Outcome.PARSE_ERROR),
        ("python", "def other(a, b):\n    return 1\n", Outcome.RUNTIME_ERROR),
    ],
)
def test_outcome_classification(target: str, code: str, outcome: Outcome) -> None:
    result = _run(target, code, "safe_divide")
    assert result.outcome is outcome, result


def test_tolerance_and_value_error_cases() -> None:
    ok = "import math\ndef checked_sqrt(x):\n    if x < 0:\n        raise ValueError('neg')\n    return math.sqrt(x) + 1e-12\n"
    assert _run("python", ok, "checked_sqrt").outcome is Outcome.PASS
    off = "import math\ndef checked_sqrt(x):\n    if x < 0:\n        raise ValueError('neg')\n    return math.sqrt(x) + 1e-6\n"
    assert _run("python", off, "checked_sqrt").outcome is Outcome.WRONG_OUTPUT
    no_raise = "import math\ndef checked_sqrt(x):\n    return math.sqrt(abs(x))\n"
    res = _run("python", no_raise, "checked_sqrt")
    # the invalid inputs are hidden tests: counted by error type, never quoted
    assert res.outcome is Outcome.WRONG_OUTPUT and res.expected is None and res.call is None
    assert res.details["hidden_failures"] == {"WRONG_OUTPUT": sum(
        c.expected_error is not None for c in problem_by_id("checked_sqrt").hidden_tests)}
    public_error = "import math\ndef checked_sqrt(x):\n    return 0.0\n"
    res = _run("python", public_error, "checked_sqrt")
    assert (res.case_index, res.call, res.expected, res.actual) == (0, "checked_sqrt(9.0)", "3.0", "0.0")


def test_score_attempts_pure() -> None:
    attempts = [
        {"attempt": 1, "outcome": "WRONG_OUTPUT", "code": "x"},
        {"attempt": 2, "outcome": "PASS", "code": "def f(): return 1"},
    ]
    value = score_attempts(attempts, 4, python_tokens=10, reference_tokens=20)
    assert value["iterations"] == 2 and value["semantic_correct"] == 0.0 and value["parse_success"] == 1.0
    assert value["reference_token_ratio"] == 2.0 and value["token_ratio"] == value["final_tokens"] / 10


def test_prompts_and_metadata() -> None:
    ds = correction_dataset("python-ast", problems=["gcd"])
    sample = ds[0]
    assert sample.id == "correction-gcd-python-ast"
    meta = sample.metadata
    assert meta["format"] == "python-ast" and meta["category"] == "correction" and meta["question_type"] == "recursion"
    assert meta["complexity"] in ("basic", "intermediate", "advanced")
    assert meta["gold"].startswith("```json\n") and "FunctionDef" in meta["gold"]
    assert meta["system_prompt"] and re.search(r"FunctionDef\(name, args, body", meta["system_prompt"])
    assert "gcd(48, 18) = 6" in sample.input


def test_problem_and_category_filters_take_lists_or_comma_text() -> None:
    """`-T problems=a,b` reaches the task as a list (Inspect splits it); a string "a,b" works too."""
    as_list = correction(problems=["gcd", "abs_value"]).dataset
    as_text = correction(problems="gcd, abs_value").dataset
    assert [s.id for s in as_list] == [s.id for s in as_text] == ["correction-abs_value-python", "correction-gcd-python"]
    by_category = correction(categories="recursion").dataset
    assert len(by_category) >= 5 and {s.metadata["question_type"] for s in by_category} == {"recursion"}
    with pytest.raises(ValueError, match="unknown problem id"):
        correction(problems="gcd,no_such_problem")


@pytest.mark.parametrize("target", ["python-minified", "python-minifier"])
def test_a_layout_target_runs_only_programs_in_its_layout(target: str) -> None:
    """Generation from a description in a Python code format: the format's encoding of the reference passes every
    test; the same program written out plainly is a parse error before any test runs (else the target would
    measure Python); code that is not Python gets the interpreter's own syntax error."""
    problem = next(p for p in load_problems() if p.id == "gcd")
    executor = get_executor(target)
    laid_out = executor.reference(problem)
    assert laid_out and laid_out != problem.solutions["python"]
    assert _run(target, laid_out, "gcd").outcome is Outcome.PASS
    plain = _run(target, problem.solutions["python"] + "\n\n# done\n", "gcd")
    assert plain.outcome is Outcome.PARSE_ERROR and plain.message.startswith(f"the program is not {executor.label}: ")
    assert plain.passed == 0
    broken = _run(target, "def gcd(a, b) return a\n", "gcd")
    assert broken.outcome is Outcome.PARSE_ERROR and "not " + executor.label not in broken.message
