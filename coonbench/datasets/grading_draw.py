"""A grading set drawn fresh for each grading run, so that what one run learns of another's is worth nothing.

The committed grading set of a problem (``Problem.grading_tests``) is the same in every sample and epoch that
poses it: a program that could carry anything from a grading run to a later feedback run (a covert channel across
runs: the page cache, time) would learn it once and use it every time the problem recurs. Here the generated part
of the grading set is drawn again from the problem's own generator (``correction_tests.proposals``) with a
generator seeded by the problem, the sample id, the epoch and a salt the scorer draws at random for each grading
run and records in the score (so the same sample and epoch graded again get other inputs), disjoint from the
public tests and the feedback set by call; the Python reference computes each expected value and, where the
problem has one, the JavaScript reference must agree (a test they disagree on is dropped). The hand-written hidden
tests stay (they are few and fixed). Where the domain is small enough to be enumerated, every input is already a
test: there is nothing fresh to draw, and the committed grading set is used. HumanEval (``suite=humaneval``) is
drawn the same way from its contracts (``humaneval_tests.propose``), HumanEval's own tests kept.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import threading
from functools import lru_cache
from typing import Any

from coonbench.datasets.correction_tests import (
    CANDIDATES,
    GeneratorError,
    _agree,
    _as_test,
    _finite_domain,
    _key,
    proposals,
    run_javascript,
    run_python,
)
from coonbench.datasets.humaneval import HumanEvalCase, HumanEvalProblem, read_tasks
from coonbench.datasets.humaneval_tests import base_inputs, expr_case, propose, run_canonical, task_contracts
from coonbench.execution.harness.python_runner import decode_typed, encode_typed
from coonbench.execution.problem import Problem, TestCase


def grading_rng(problem_id: str, sample_id: str | int, epoch: int, salt: str = "") -> random.Random:
    """The generator of one grading draw: SHA-256 of the problem, sample, epoch and ``salt`` (the scorer's fresh
    random salt per grading run, recorded in the score: the same sample and epoch graded again, by an
    ``eval-retry`` or another evaluation, get other inputs, which the salt in the log reproduces)."""
    key = f"grading:{problem_id}:{sample_id}:{epoch}" + (f":{salt}" if salt else "")
    seed = hashlib.sha256(key.encode()).digest()[:8]
    return random.Random(int.from_bytes(seed, "big"))


def _call(case: TestCase) -> str:
    return _key({"input": case.input, **({"then_call": case.then_call} if case.then_call is not None else {})})


def draw_grading(problem: Problem | HumanEvalProblem, sample_id: str | int, epoch: int,
                 salt: str = "") -> list[Any] | None:
    """The grading set of this sample, epoch and salt: the hand-written hidden tests (HumanEval's own), then as
    many fresh generated tests as the committed grading set holds. None where nothing can be drawn (an enumerated
    domain, a reference that fails, ``humaneval-base``): the caller grades on the committed set."""
    if isinstance(problem, HumanEvalProblem):
        return _draw_humaneval(problem, grading_rng(problem.id, sample_id, epoch, salt))
    hand_written = problem.tests[problem.public:]
    wanted = len(problem.grading_tests) - len(hand_written)
    if wanted <= 0 or _finite_domain(problem) is not None:
        return None
    known = {_call(c) for c in problem.public_tests + problem.feedback_tests + hand_written}
    cases: list[dict[str, Any]] = []
    for case in proposals(problem, grading_rng(problem.id, sample_id, epoch, salt)):
        if _key(case) not in known and len(cases) < CANDIDATES:
            known.add(_key(case))
            cases.append(case)
        if len(cases) >= 3 * wanted:
            break
    errors_allowed = any(c.expected_error for c in problem.tests)
    try:
        tests = [t for case, res in zip(cases, run_python(problem, cases))
                 if (t := _as_test(problem, case, res, errors_allowed))]
        if "javascript" in problem.solutions and shutil.which("node") and tests:
            js = run_javascript(problem, [{k: v for k, v in t.items() if k in ("input", "then_call")} for t in tests])
            tests = [t for t, r in zip(tests, js) if _agree(t, r)]
    except (GeneratorError, OSError, ValueError):
        return None
    if not tests:
        return None
    return list(hand_written) + [TestCase(**t) for t in tests[:wanted]]


_AST_LOCK = threading.Lock()
"""Draws run in worker threads (the scorer's ``asyncio.to_thread``), and building Python ``ast`` objects is not
thread-safe in CPython 3.11 (two threads in ``ast.parse`` at once: ``SystemError: AST constructor recursion depth
mismatch``, which ended a 164-problem run): HumanEval's checks and signatures are read under this lock, once.
(``threading.Lock`` is not reentrant: nothing under it takes it again.)"""


@lru_cache(maxsize=1)
def _humaneval_tasks() -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    with _AST_LOCK:  # the contracts are checked against signatures read with ast.parse
        tasks = read_tasks()
        return {t["task_id"]: t for t in tasks}, task_contracts(tasks)


@lru_cache(maxsize=None)
def _seed_inputs(task_id: str) -> str:
    """The problem's seeds (``humaneval_tests.base_inputs``) as typed JSON: computed once, copied for each use."""
    task = _humaneval_tasks()[0][task_id]
    with _AST_LOCK:
        return json.dumps([[encode_typed(a) for a in args] for args in base_inputs(task)])


def _draw_humaneval(problem: HumanEvalProblem, rng: random.Random) -> list[HumanEvalCase] | None:
    """HumanEval's own tests, then fresh inputs of the problem's contract (``humaneval_tests.propose``, none a
    committed input), each judged as its committed generated tests are: the canonical solution's answer, or the
    problem's own assertion (``expr``), which that answer must satisfy."""
    own = problem.hidden_tests[:len(problem.hidden_tests) if problem.base_hidden is None else problem.base_hidden]
    wanted = len(problem.grading_tests) - len(own)
    if wanted <= 0:
        return None
    tasks, contracts = _humaneval_tasks()
    task = tasks.get("HumanEval/" + problem.id.rsplit("-", 1)[-1])
    contract = contracts.get(task["task_id"]) if task else None
    if task is None or contract is None:
        return None
    known = [[decode_typed(a) for a in c.input] for c in problem.public_tests + problem.hidden_tests]
    seeds = [[decode_typed(a) for a in args] for args in json.loads(_seed_inputs(task["task_id"]))]
    inputs = propose(contract, seeds + known, rng)[:2 * wanted]
    if not inputs:
        return None
    tests: list[HumanEvalCase] = []
    for args, res in zip(inputs, run_canonical(task, inputs)):
        if res.get("status") != "ok":
            continue
        typed = [encode_typed(a) for a in args]
        if contract.output == "expr":
            case = expr_case(task, contract, {"input": typed, "kind": "expr", "expr": contract.expr})
            if case.judge(res) is not None:  # the canonical answer must satisfy the assertion itself
                continue
        else:
            case = HumanEvalCase(input=typed, kind="approx" if contract.output == "approx" else "exact",
                                 expected=res["value"])
        tests.append(case)
    return list(own) + tests[:wanted] if tests else None
