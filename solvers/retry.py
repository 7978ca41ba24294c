"""Feedback retries: a model that writes an invalid program is told where it went wrong and may try again.

After each reply the code is extracted (``coonbench.answers.extract.extract_code``), validated and decoded with the
answer's format (``metadata["answer_format"]``, else ``metadata["format"]``), and the decoded program is parsed in
the format's language.
On failure the error (line, column, what was expected) goes back as a user message and the model regenerates, up
to ``max_retries`` times. Every attempt is recorded in ``coonbench.tasks.state.RetryState`` (also in the log).
Only syntax is fed back, never correctness: the scorer alone knows the reference.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.answers.check import (  # noqa: F401  (re-exported: the checks the retry loop feeds back)
    DECODE_ERROR,
    NO_ANSWER,
    PARSE_ERROR,
    WRONG_OUTPUT,
    AnswerCheck,
    answer_format,
    check_answer,
)
from coonbench.formats import format_label, get_format
from coonbench.tasks.state import retry_state

FEEDBACK_PROMPT = """Your reply is not a valid {format_label} program: {error}
Reply again with the complete, corrected program in one ```{fence} code block."""


@solver(name="retry_generate")
def retry_generate(max_retries: int = 2) -> Solver:
    """Generate; while the reply does not validate and decode, feed the error back (at most ``max_retries``)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        fmt_name = answer_format(state)
        fmt = get_format(fmt_name)
        attempts: list[dict[str, Any]] = []
        bookkeeping = retry_state(state.store)
        for attempt in range(1, max_retries + 2):
            state = await generate(state)
            check = check_answer(state.output.completion if state.output else "", fmt_name)
            attempts.append(check.record(attempt))
            bookkeeping.attempts = attempts
            if check.ok or attempt > max_retries or state.completed:
                break
            state.messages.append(
                ChatMessageUser(
                    content=FEEDBACK_PROMPT.format(
                        format_label=format_label(fmt_name), error=check.error, fence=fmt.fence
                    )
                )
            )
        return state

    return solve
