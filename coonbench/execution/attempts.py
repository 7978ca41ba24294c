"""One attempt of the correction protocol: extract the program from a reply, run it, keep a record.

Shared by ``solvers.correction`` (the protocol) and ``scorers.correction`` (which runs a lone reply when the
protocol did not run, e.g. under ``--solver coonbench/gold``).
"""

from __future__ import annotations

from typing import Any

from inspect_ai.util import SandboxEnvironment

from coonbench.execution.base import AttemptResult, Executor, Outcome
from coonbench.execution.problem import Problem
from coonbench.answers.extract import extract_code

DEFAULT_CASE_TIMEOUT = 2.0


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


def attempt_record(number: int, reply: str, code: str | None, result: AttemptResult) -> dict[str, Any]:
    """What the log keeps of one attempt."""
    return {"attempt": number, "reply": reply, "code": code, **result.to_record()}
