"""The two agents of the handoff task: A reads the program and writes a message, B reads only that message.

A's turn is one generation on the sample's prompt (with the told format's primer as its system message); its reply
is recorded in ``HandoffState.message``. B's conversation then replaces the sample's messages: the same primer, and
``b_prompt`` (A's message and B's task); B's reply is the sample's output, scored as the base task scores it.
"""

from __future__ import annotations

from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.datasets.handoff import b_prompt
from coonbench.tasks.state import handoff_state


def _primed(primer: str | None, text: str) -> list[ChatMessage]:
    return [*([ChatMessageSystem(content=primer)] if primer else []), ChatMessageUser(content=text)]


@solver(name="handoff_agents")
def handoff_agents() -> Solver:
    """Agent A (the model under test) writes the message; agent B (the same model, fresh context) uses it."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        primer = state.metadata.get("handoff_primer")
        a_output = await get_model().generate(_primed(primer, state.input_text))
        message = a_output.completion
        handoff_state(state.store).message = message
        state.messages = _primed(primer, b_prompt(dict(state.metadata), message))
        return await generate(state)

    return solve
