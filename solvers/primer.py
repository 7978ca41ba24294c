"""Primer injection: tell the model what the format it is about to read (or write) is."""

from __future__ import annotations

from typing import Literal

from inspect_ai.model import ChatMessageSystem
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.formats import get_format


@solver(name="coonbench/format_primer")
def format_primer(variant: Literal["short", "full"] = "short") -> Solver:
    """Insert the primer of ``metadata['encoding']`` (else ``metadata['format']``) as the system message.

    Samples whose metadata says ``primer: False`` (e.g. the ``coon-noprimer`` condition) get none.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if not state.metadata.get("primer", True):
            return state
        name = state.metadata.get("encoding") or state.metadata["format"]
        text = get_format(name).primer(state.metadata.get("primer_variant", variant))
        state.messages.insert(0, ChatMessageSystem(content=text))
        return state

    return solve
