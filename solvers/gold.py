"""The oracle: answers every sample with its reference answer, proving that datasets and scorers agree."""

from __future__ import annotations

from inspect_ai.model import ChatMessageAssistant, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.datasets.handoff import MESSAGE_KEY
from coonbench.datasets.tools import PLAN_KEY
from coonbench.solvers.tools import play_tool_plan
from coonbench.solvers.session import scripted_session
from coonbench.tasks.samples import GOLD_KEY
from coonbench.tasks.state import handoff_state


@solver(name="gold")
def gold() -> Solver:
    """Reply with ``metadata['gold']`` when the loader set one, else with the target text; on the tool task, after
    making the planned tool calls (``metadata['tool_plan']``) through the sample's real tools; on the handoff task,
    recording agent A's perfect message (``metadata['handoff_message']``) first; in a multi-turn session
    (``metadata['turns']``), each turn's gold in turn."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if state.metadata.get("turns"):  # a multi-turn session: every turn's gold, in turn
            return scripted_session(state, [t["gold"] for t in state.metadata["turns"]], "coonbench/gold")
        if state.metadata.get(PLAN_KEY):
            await play_tool_plan(state)
        if MESSAGE_KEY in state.metadata:  # the handoff task: agent A's message, then B's answer
            handoff_state(state.store).message = state.metadata[MESSAGE_KEY]
        answer = state.metadata.get(GOLD_KEY)
        if answer is None:
            answer = state.target.text
        state.output = ModelOutput.from_content(model="coonbench/gold", content=answer)
        state.messages.append(ChatMessageAssistant(content=answer, model="coonbench/gold"))
        return state

    return solve
