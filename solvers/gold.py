"""The oracle: answers every sample with its reference answer, proving that datasets and scorers agree."""

from __future__ import annotations

from inspect_ai.model import ChatMessageAssistant, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.solvers.session import scripted_session
from coonbench.tasks.samples import GOLD_KEY


@solver(name="gold")
def gold() -> Solver:
    """Reply with ``metadata['gold']`` when the loader set one, else with the target text (in a multi-turn
    session, ``metadata['turns']``, each turn's gold)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if state.metadata.get("turns"):  # a multi-turn session: every turn's gold, in turn
            return scripted_session(state, [t["gold"] for t in state.metadata["turns"]], "coonbench/gold")
        answer = state.metadata.get(GOLD_KEY)
        if answer is None:
            answer = state.target.text
        state.output = ModelOutput.from_content(model="coonbench/gold", content=answer)
        state.messages.append(ChatMessageAssistant(content=answer, model="coonbench/gold"))
        return state

    return solve
