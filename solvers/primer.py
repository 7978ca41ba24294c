"""Primer injection: tell the model what the format it is about to read (or write) is."""

from __future__ import annotations

from inspect_ai.model import ChatMessageSystem
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.formats import get_format


@solver(name="format_primer")
def format_primer(variant: str = "short") -> Solver:
    """Insert the primer of ``metadata['encoding']`` (else ``metadata['format']``) as the system message.

    Samples whose metadata says ``primer: False`` (e.g. the ``coon-noprimer`` condition) get none. Under the
    ``legend`` variant the text is the sample's own ``metadata['legend']`` (only what its document uses; none when
    the document uses nothing), made when the sample was.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if not state.metadata.get("primer", True):
            return state
        chosen = state.metadata.get("primer_variant") or variant
        if chosen == "legend" and "legend" in state.metadata:
            text = state.metadata["legend"]
        else:
            name = state.metadata.get("encoding") or state.metadata["format"]
            text = get_format(name).primer("full" if chosen == "full" else "short")
        if text:
            state.messages.insert(0, ChatMessageSystem(content=text))
        return state

    return solve


@solver(name="primed_generate")
def primed_generate(variant: str = "short") -> Solver:
    """``format_primer`` then ``generate``, as one solver step.

    Inspect records every solver of a task's plan with a span and a diff of the state's JSON (messages and metadata)
    before and after it; as a second step the primer cost about 5% of the CPU time of a comprehension run on an
    instant model (``benchmarks/overhead.py --parts``).
    """
    insert = format_primer(variant)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return await generate(await insert(state, generate))

    return solve
