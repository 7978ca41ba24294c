"""One attempt of the correction protocol: extract the program from a reply, run it, keep a record.

Shared by ``solvers.correction`` (the protocol) and ``scorers.correction`` (which grades the attempts, and runs a
lone reply when the protocol did not run, e.g. under ``--solver coonbench/gold``).

Grading tests never talk back (``docs/sandbox.md``, "Feedback and grading sets"). Each problem's hidden tests are
split into a feedback set and a disjoint grading set (``problem.split_tests``). During the dialogue a reply runs on
the public tests and the feedback set only (``feedback_problem``): its outcome, the feedback message and the
decision to stop come from that run, which never receives a grading input. Once the dialogue is over, the scorer
runs the grading set (``grading_problem``) for the attempt(s) that passed it (``grade_attempts``): an attempt is
correct when it passes every test, and no message is written after that run. The scorer passes a grading set drawn
for each grading run (``datasets.grading_draw``: sample, epoch and a random salt); the committed one is the default.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from inspect_ai.util import SandboxEnvironment
from pydantic import BaseModel

from coonbench.execution.base import AttemptResult, Executor, Outcome
from coonbench.execution.problem import Problem
from coonbench.answers.extract import extract_code

DEFAULT_CASE_TIMEOUT = 2.0
GRADED = "graded"  # an attempt record's key: the outcome on every test (public, feedback and grading sets)


async def evaluate_reply(
    executor: Executor, problem: Problem, reply: str, case_timeout: float, box: SandboxEnvironment | None = None
) -> tuple[str | None, AttemptResult]:
    """Extract the program from a reply and run it; a reply without code is a PARSE_ERROR. The graded block is
    the last one that defines the entry point (a later "example usage" block is not graded), else the last one.
    ``box``: the sandbox to run in (default: the sample's)."""
    name = problem.signature.name
    code = extract_code(reply, executor.name if executor.name == "python-ast" else executor.fence,
                        prefer=lambda block: executor.defines(block, name))
    if code is None:
        return None, AttemptResult(
            Outcome.PARSE_ERROR,
            f"no {executor.label} code found in the reply (expected a ```{executor.fence} code block)",
            total=len(problem.all_tests),
        )
    return code, await executor.run(code, problem, case_timeout, box)


def _restricted(problem: Any, public: list[Any], hidden: list[Any]) -> Any:
    """The problem with only these public and hidden tests (what one run is given and classified on)."""
    if isinstance(problem, BaseModel):
        return problem.model_copy(update={"tests": list(public), "generated": list(hidden)})
    return dataclasses.replace(problem, public_tests=list(public), hidden_tests=list(hidden), base_hidden=None)


def feedback_problem(problem: Any) -> Any:
    """What a reply runs on during the dialogue: the public tests and the feedback set, nothing of grading."""
    return _restricted(problem, problem.public_tests, problem.feedback_tests)


def grading_problem(problem: Any, tests: list[Any] | None = None) -> Any:
    """What the scorer runs after the dialogue: the grading set alone (no public test); ``tests``: a grading set
    drawn for this grading run (``datasets.grading_draw``) instead of the committed one."""
    return _restricted(problem, [], problem.grading_tests if tests is None else tests)


async def feedback_attempt(
    executor: Executor, problem: Problem, reply: str, case_timeout: float, box: SandboxEnvironment | None = None
) -> tuple[str | None, AttemptResult]:
    """One attempt of the dialogue: the reply run on ``feedback_problem`` (what the model may be told)."""
    return await evaluate_reply(executor, feedback_problem(problem), reply, case_timeout, box)


async def grade_attempts(
    executor: Executor, problem: Problem, attempts: list[dict[str, Any]], case_timeout: float,
    box: SandboxEnvironment | None = None, grading_tests: list[Any] | None = None,
) -> list[dict[str, Any]]:
    """The attempt records with ``GRADED`` (and ``graded_passed``/``graded_total``, the grading set's counts):
    an attempt that failed the feedback run keeps that outcome; one that passed it is run on the grading set, and
    its outcome there is its grade. Called after the last message of the dialogue. ``grading_tests``: the
    sample's and epoch's own grading set (default: the problem's committed one)."""
    graded = []
    grading = grading_problem(problem, grading_tests)
    for attempt in attempts:
        attempt = dict(attempt)
        if GRADED not in attempt:
            attempt[GRADED] = attempt["outcome"]
            if attempt["outcome"] == Outcome.PASS.value and attempt.get("code") is not None and grading.all_tests:
                result = await executor.run(attempt["code"], grading, case_timeout, box)
                attempt.update({GRADED: result.outcome.value, "graded_passed": result.passed,
                                "graded_total": result.total})
        graded.append(attempt)
    return graded


def attempt_record(number: int, reply: str, code: str | None, result: AttemptResult) -> dict[str, Any]:
    """What the log keeps of one attempt."""
    return {"attempt": number, "reply": reply, "code": code, **result.to_record()}
