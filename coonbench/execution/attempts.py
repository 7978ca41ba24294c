"""One attempt of the correction protocol: extract the program from a reply, run it, keep a record.

Shared by ``solvers.correction`` (the protocol) and ``scorers.correction`` (which runs a lone reply when the
protocol did not run, e.g. under ``--solver coonbench/gold``).
"""

from __future__ import annotations

from typing import Any

from coonbench.execution.base import AttemptResult, Executor, Outcome
from coonbench.execution.problem import Problem
from coonbench.answers.extract import extract_code

DEFAULT_CASE_TIMEOUT = 2.0


async def evaluate_reply(
    executor: Executor, problem: Problem, reply: str, case_timeout: float
) -> tuple[str | None, AttemptResult]:
    """Extract the program from a reply and run it; a reply without code is a PARSE_ERROR."""
    code = extract_code(reply, executor.name if executor.name == "python-ast" else executor.fence)
    if code is None:
        return None, AttemptResult(
            Outcome.PARSE_ERROR,
            f"no {executor.label} code found in the reply (expected a ```{executor.fence} code block)",
            total=len(problem.all_tests),
        )
    return code, await executor.run(code, problem, case_timeout)


def attempt_record(number: int, reply: str, code: str | None, result: AttemptResult) -> dict[str, Any]:
    """What the log keeps of one attempt."""
    return {"attempt": number, "reply": reply, "code": code, **result.to_record()}
