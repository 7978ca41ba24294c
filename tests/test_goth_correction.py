"""The Goth targets of the correction task on the real interpreter: our gold programs solve their problems, the
JSON-AST gold is the interpreter's own rendering of them, content-free programs score nothing, and a documented
feature the interpreter lacks is recorded as unsupported, not as the model's parse error.

Skips, saying why, where the interpreter cannot be built (tests/test_goth_interpreter.py says what it needs).
"""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval

from coonbench.datasets.correction import correction_dataset, load_problems, problem_by_id
from coonbench.evals.correction import correction
from coonbench.execution import AttemptResult, ExecutorUnavailable, Outcome, Problem, get_executor
from coonbench.execution.goth import GOLD_DIR
from coonbench.execution.sandbox import LocalLimitedSandbox, LocalSandboxConfig, capabilities
from coonbench.solvers.gold import gold
from tests.conftest import reference_path

GOTH_TARGETS = ["goth", "goth-json"]
CONTENT_FREE = ("factorial_checked", "checked_sqrt", "is_leap_year", "safe_divide")
"""The content-free problems of tests/test_correction_feedback.py that Goth asks (the others take lists or text)."""
needs_isolation = pytest.mark.skipif(capabilities()["isolation"] != "full", reason="no isolation on this machine")


def goth_problems() -> list[Problem]:
    return [p for p in load_problems() if (GOLD_DIR / "goth" / f"{p.id}.goth").is_file()]


def run(target: str, code: str, problem: Problem) -> AttemptResult:
    box = LocalLimitedSandbox(LocalSandboxConfig())
    try:
        return asyncio.run(get_executor(target).run(code, problem, case_timeout=5, box=box))
    finally:
        box.close()


@needs_isolation
@pytest.mark.parametrize("target", GOTH_TARGETS)
def test_gold_scores_100_percent(goth: str, target: str, tmp_path: Path) -> None:
    """Every gold program passes every public and hidden test of its problem, in the sandbox (logs in a folder
    an ordinary user can write: .ci/run runs this file as one)."""
    log = inspect_eval(correction(target=target), model="mockllm/model", solver=gold(), display="none",
                       log_dir=str(tmp_path))[0]
    assert log.status == "success", log.error
    assert log.results is not None and log.results.total_samples == len(goth_problems()) >= 20
    scores = {s.name: s for s in log.results.scores}
    correct = next(m.value for s in scores.values() for n, m in s.metrics.items() if n == "mean" and s.name == "correct")
    assert correct == 1.0


def test_a_target_asks_only_problems_with_a_gold_program() -> None:
    ids = [s.metadata["problem_id"] for s in correction_dataset("goth")]
    assert ids == [p.id for p in goth_problems()]
    assert [s.metadata["problem_id"] for s in correction_dataset("goth-json")] == ids
    with pytest.raises(ValueError, match="no verified reference program for binary_search"):
        correction_dataset("goth", problems="binary_search,gcd")


def test_json_gold_is_the_interpreters_rendering_of_the_goth_gold(goth: str) -> None:
    for problem in goth_problems():
        printed = subprocess.run([goth, "--to-json", str(GOLD_DIR / "goth" / f"{problem.id}.goth")],
                                 capture_output=True, text=True, timeout=10, check=True).stdout
        assert (GOLD_DIR / "goth-json" / f"{problem.id}.json").read_text(encoding="utf-8") == printed, problem.id


def test_refuses_without_an_interpreter(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setenv("COONBENCH_CACHE", str(tmp_path))
    monkeypatch.delenv("COONBENCH_GOTH", raising=False)
    for target in GOTH_TARGETS:
        with pytest.raises(ExecutorUnavailable, match="coonbench goth-setup"):
            correction(target=target)


def _literal(value: Any) -> str:
    """A JSON value as a Goth expression (negative numbers as a subtraction)."""
    if isinstance(value, bool):
        return "⊤" if value else "⊥"
    if isinstance(value, float):
        text = f"{abs(value):.17f}".rstrip("0")
        text = text + "0" if text.endswith(".") else text
        return f"(0.0 - {text})" if value < 0 else text
    return f"(0 - {-value})" if value < 0 else str(value)


GOTH_TYPES = {"int": "I64", "float": "F64", "bool": "Bool"}


def goth_program(problem: Problem, body: str) -> str:
    sig = problem.signature
    types = " → ".join(GOTH_TYPES[p.type] for p in sig.params)
    fail = "╭─ fail : I64 → I64\n│  ⊢ ⊥\n╰─ 0\n\n"
    return f"{fail}╭─ main : {types} → {GOTH_TYPES.get(sig.returns, 'I64')}\n╰─ {body}\n"


def table_program(problem: Problem) -> str:
    """A lookup table of the public tests' answers (an error for expected errors and for anything else)."""
    n = len(problem.signature.params)
    body = "fail 0"
    for case in reversed(problem.public_tests):
        cond = " ∧ ".join(f"_{n - 1 - i} = {_literal(v)}" for i, v in enumerate(case.input))
        answer = "fail 0" if case.expected_error else _literal(case.expected)
        body = f"if {cond} then {answer} else {body}"
    return goth_program(problem, body)


@needs_isolation
def test_content_free_programs_score_zero(goth: str) -> None:
    """An oracle that always fails (it passes every expected-error test) and a table of the public answers
    both fail, as they do in Python (tests/test_correction_feedback.py)."""
    for problem_id in CONTENT_FREE:
        problem = problem_by_id(problem_id)
        for code in (goth_program(problem, "fail 0"), table_program(problem)):
            result = run("goth", code, problem)
            assert result.outcome is not Outcome.PASS and result.passed < result.total, (problem_id, code, result)
        table = run("goth", table_program(problem), problem)
        assert table.passed >= len(problem.public_tests), (problem_id, table)  # the table itself is right


@needs_isolation
def test_a_documented_feature_the_interpreter_lacks_is_unsupported_not_a_parse_error(goth: str) -> None:
    problem = problem_by_id("gcd")
    uses_refeq = "╭─ main : I64 → I64 → I64\n╰─ if ₀ ≣ 0 then ₁ else main ₀ (₁ % ₀)\n"
    result = run("goth", uses_refeq, problem)
    assert result.outcome is Outcome.RUNTIME_ERROR and result.details.get("unsupported"), result
    assert result.message.startswith("unsupported by this interpreter")
    typo = "╭─ main : I64 → I64 → I64\n╰─ if ₀ = 0 then ₁ else main ₀ (₁ % ₀\n"
    assert run("goth", typo, problem).outcome is Outcome.PARSE_ERROR


@needs_isolation
def test_a_program_in_another_language_is_a_parse_error_not_a_missing_main(goth: str) -> None:
    """The 0.5B answered every Goth spec with Go, which upstream's parser reads as an empty module: graded as
    "no main" (a runtime error) it counted as parsed. The grading mode calls it a parse error, as it does text
    left after the last declaration; the same program without the stray text still passes."""
    problem = problem_by_id("abs_value")
    go = 'package main\n\nfunc abs_value(n int) int {\n\tif n < 0 {\n\t\treturn -n\n\t}\n\treturn n\n}\n'
    result = run("goth", go, problem)
    assert result.outcome is Outcome.PARSE_ERROR and "line 1, column 1" in result.message, result
    gold_program = (GOLD_DIR / "goth" / "abs_value.goth").read_text(encoding="utf-8")
    assert run("goth", gold_program, problem).outcome is Outcome.PASS
    trailing = run("goth", gold_program + "\nThis is `abs_value`: ₀ when ₀ ≥ 0, else its negation.\n", problem)
    assert trailing.outcome is Outcome.PARSE_ERROR, trailing


def test_the_goth_targets_run_in_the_local_sandbox(goth: str) -> None:
    """The interpreter is this machine's: `auto` picks the local sandbox, `docker` is refused (the image lacks it)."""
    assert correction(target="goth").sandbox.type == "coonbench-local"  # type: ignore[union-attr]
    with pytest.raises(ExecutorUnavailable, match="sandbox=local"):
        correction(target="goth-json", sandbox="docker")
