"""The Goth iterative-correction protocol, automated: attempt, run the tests, feed the failure back, retry.

Each attempt runs on the public tests and the problem's feedback set only (``attempts.feedback_attempt``): the
feedback and the decision to stop never depend on the grading set, which the scorer runs after the dialogue.

Every attempt (reply, extracted code, outcome, failing case) is stored in ``coonbench.tasks.state.CorrectionState``
and the feedback turns stay in ``state.messages``, so the log shows the whole dialogue.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.datasets.correction import problem_by_id
from coonbench.execution import AttemptResult, Executor, Outcome, get_executor
from coonbench.execution.attempts import DEFAULT_CASE_TIMEOUT, attempt_record, feedback_attempt
from coonbench.tasks.state import correction_state

__all__ = ["DEFAULT_CASE_TIMEOUT", "DEFAULT_MAX_RETRIES", "correction_protocol", "feedback_message"]
DEFAULT_MAX_RETRIES = 3

FEEDBACK_PROMPT = """Your program failed: {outcome}.
{message}
{case_block}{hidden_block}
Fix the program. Reply with the complete corrected program in one ```{fence} code block."""

CASE_BLOCK = """Failing public test {number} of {public}: {call}
Expected: {expected}
Actual: {actual}
"""

HIDDEN_BLOCK = """Hidden tests: {failed} of {hidden} fail ({kinds}). Their inputs and expected values are not shown.
"""


def feedback_message(result: AttemptResult, executor: Executor) -> str:
    """The user turn that reports a failure: the first failing public test (input, expected, actual) and how
    many hidden tests fail of which error type, never a hidden input or expected value."""
    public = result.details.get("public", result.total)
    case_block = hidden_block = ""
    if result.case_index is not None:
        case_block = CASE_BLOCK.format(
            number=result.case_index + 1, public=public, call=result.call, expected=result.expected,
            actual=result.actual,
        )
    failures: dict[str, int] = result.details.get("hidden_failures") or {}
    if failures:
        kinds = ", ".join(f"{kind} x{n}" for kind, n in sorted(failures.items()))
        hidden_block = HIDDEN_BLOCK.format(failed=sum(failures.values()), hidden=result.details.get("hidden"), kinds=kinds)
    return FEEDBACK_PROMPT.format(
        outcome=result.outcome.value, message=result.message, case_block=case_block, hidden_block=hidden_block,
        fence=executor.fence,
    )


@solver(name="correction_protocol")
def correction_protocol(max_retries: int = DEFAULT_MAX_RETRIES, case_timeout: float = DEFAULT_CASE_TIMEOUT) -> Solver:
    """Generate up to ``max_retries + 1`` times, feeding each failure back; stop at the first attempt that passes
    the public tests and the feedback set (the scorer grades it)."""
    if max_retries < 0:
        raise ValueError("max_retries must be >= 0")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        executor = get_executor(state.metadata["target"])
        problem = problem_by_id(state.metadata["problem_id"], state.metadata.get("goth_checkout"))
        system = state.metadata.get("system_prompt")
        if system and not any(isinstance(m, ChatMessageSystem) for m in state.messages):
            state.messages.insert(0, ChatMessageSystem(content=system))
        attempts: list[dict[str, Any]] = []
        record = correction_state(state.store)
        record.problem_id = problem.id
        record.max_attempts = max_retries + 1
        for number in range(1, max_retries + 2):
            state = await generate(state)
            reply = state.output.completion
            code, result = await feedback_attempt(executor, problem, reply, case_timeout)
            attempts.append(attempt_record(number, reply, code, result))
            record.attempts = attempts
            if result.outcome is Outcome.PASS or number == max_retries + 1 or state.completed:
                break
            state.messages.append(ChatMessageUser(content=feedback_message(result, executor)))
        return state

    return solve
