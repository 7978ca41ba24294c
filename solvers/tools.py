"""Agents of the tool task: Inspect's ``react()`` over the sample's dataset tools, the no-tool floor, and the gold
agent's replay of the planned calls.

``tool_agent`` builds the four tools for the sample (its dataset, its format) and runs ``react()`` without a submit
tool: the agent stops when the model replies without calling a tool, and that reply is the answer. ``max_calls``
bounds the calls (a model that never stops calling is cut off and scored on what it said last).
``no_tool_agent`` asks the same prompt with no tools: what the model answers without reading anything.
``play_tool_plan`` makes the gold agent's calls (``metadata['tool_plan']``) through the real tools, as a model's
calls would run, so the gold solver's transcript shows every call and result.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.agent import AgentState, as_solver, react
from inspect_ai.model import ChatMessageAssistant, execute_tools
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver
from inspect_ai.tool import ToolCall

from coonbench.datasets.tools import PLAN_KEY, dataset_tools

DEFAULT_MAX_CALLS = 12
"""Tool calls allowed per task: the gold plan needs at most five, so a model gets more than twice that."""


def _calls_made(messages: list[Any]) -> int:
    return sum(len(m.tool_calls or []) for m in messages if isinstance(m, ChatMessageAssistant))


@solver(name="tool_agent")
def tool_agent(max_calls: int = DEFAULT_MAX_CALLS) -> Solver:
    """``react()`` with the sample's dataset tools, no submit tool, and at most ``max_calls`` tool calls."""

    async def keep_going(state: AgentState) -> bool:
        """Go on after a turn that called tools, until ``max_calls``; a reply without calls is the answer."""
        return bool(state.output.message.tool_calls) and _calls_made(state.messages) < max_calls

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        agent = react(prompt=None, tools=dataset_tools(dict(state.metadata)), submit=False, on_continue=keep_going)
        return await as_solver(agent)(state, generate)

    return solve


@solver(name="no_tool_agent")
def no_tool_agent() -> Solver:
    """The floor: the task's prompt answered with no tools offered."""
    return generate()


async def play_tool_plan(state: TaskState) -> None:
    """Append the planned calls to ``state.messages``, each run by the sample's real tools."""
    tools = dataset_tools(dict(state.metadata))
    for n, call in enumerate(state.metadata.get(PLAN_KEY) or [], start=1):
        ask = ChatMessageAssistant(content="", model="coonbench/gold", tool_calls=[
            ToolCall(id=f"gold-{n}", function=call["function"], arguments=dict(call["arguments"]))])
        state.messages.append(ask)
        result = await execute_tools([*state.messages], tools)
        state.messages.extend(result.messages)
