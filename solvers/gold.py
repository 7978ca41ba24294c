"""The oracle: answers every sample with its reference answer, proving that datasets and scorers agree."""

from __future__ import annotations

from inspect_ai.model import ChatMessageAssistant, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.tasks.samples import GOLD_KEY


@solver(name="gold")
def gold() -> Solver:
    """Reply with ``metadata['gold']`` when the loader set one, else with the target text."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        answer = state.metadata.get(GOLD_KEY)
        if answer is None:
            answer = state.target.text
        state.output = ModelOutput.from_content(model="coonbench/gold", content=answer)
        state.messages.append(ChatMessageAssistant(content=answer, model="coonbench/gold"))
        return state

    return solve
