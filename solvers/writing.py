"""The writing task's repair loop: write the document, get the decoder's error or the first data difference back,
write it again (at most ``repairs`` times).

What goes back is ``DocumentCheck.feedback`` only: a position and what the decoder expected, or a path and the
kind of difference; never a value the document should hold. Every attempt is recorded in
``coonbench.tasks.state.WritingState`` (with its output tokens) and the feedback turns stay in ``state.messages``.
Under the ``json-structured`` condition every generate call carries the case's JSON schema as Inspect's response
schema (providers that honour it constrain decoding to it; ``gguf/`` turns it into a llama.cpp grammar).
"""

from __future__ import annotations

import random
from typing import Any

from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem, ChatMessageUser, ModelOutput, ResponseSchema
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import JSONSchema

from coonbench.answers.document import source_of, check_document
from coonbench.formats import get_format
from coonbench.tasks.state import writing_state

DEFAULT_REPAIRS = 3
REPAIR_PROMPT = """That is not the document asked for: {feedback}.
Reply again with the whole corrected document in one ```{fence} code block."""


def response_config(metadata: dict[str, Any]) -> dict[str, Any]:
    """The generate arguments of a sample: its response schema under ``json-structured``, else none."""
    schema = metadata.get("response_schema")
    if not schema:
        return {}
    return {"response_schema": ResponseSchema(name="document", json_schema=JSONSchema.model_validate(schema),
                                              description="the data the request describes", strict=True)}


def _output_tokens(state: TaskState) -> int | None:
    usage = state.output.usage if state.output else None
    return usage.output_tokens if usage is not None else None


@solver(name="writing_protocol")
def writing_protocol(repairs: int = DEFAULT_REPAIRS) -> Solver:
    """The primer (the format's, unless the condition has none), then up to ``repairs + 1`` documents."""
    if repairs < 0:
        raise ValueError("repairs must be >= 0")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        meta = state.metadata
        fmt = get_format(meta["encoding"])
        if meta.get("primer", True):
            text = fmt.primer("full" if meta.get("primer_variant") == "full" else "short")
            if text and not any(isinstance(m, ChatMessageSystem) for m in state.messages):
                state.messages.insert(0, ChatMessageSystem(content=text))
        record = writing_state(state.store)
        record.max_attempts = repairs + 1
        attempts: list[dict[str, Any]] = []
        config = response_config(meta)
        for number in range(1, repairs + 2):
            state = await generate(state, **config)
            check = check_document(state.output.completion if state.output else "", meta["encoding"],
                                   meta["expected"],
                                   source_of(meta))
            attempts.append(check.record(number, _output_tokens(state)))
            record.attempts = attempts
            if check.ok or number == repairs + 1 or state.completed:
                break
            state.messages.append(ChatMessageUser(content=REPAIR_PROMPT.format(feedback=check.feedback,
                                                                               fence=fmt.fence)))
        return state

    return solve


def _perturbed(data: Any, rng: random.Random) -> Any:
    """``data`` with every leaf changed to another value of its type (the same shape, every value wrong)."""
    out: Any = None
    stack: list[tuple[Any, Any, Any]] = [(data, None, None)]
    while stack:
        value, parent, key = stack.pop()
        if isinstance(value, dict):
            made: Any = {}
            stack.extend((v, made, k) for k, v in value.items())
        elif isinstance(value, list):
            made = [None] * len(value)
            stack.extend((v, made, i) for i, v in enumerate(value))
        elif isinstance(value, bool):
            made = not value
        elif isinstance(value, int):
            made = value + rng.randrange(1, 50)
        elif isinstance(value, float):
            made = round(value + rng.randrange(1, 50) + 0.5, 2)
        elif isinstance(value, str):
            made = value + " (changed)"
        else:
            made = "changed"
        if parent is None:
            out = made
        else:
            parent[key] = made
    return out


@solver(name="baseline_wrong_values")
def baseline_wrong_values() -> Solver:
    """Floor: a document of the right shape in the right format with every value wrong (seeded by the sample id)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        fmt = get_format(state.metadata["encoding"])
        text = fmt.encode(_perturbed(state.metadata["data"], random.Random(str(state.sample_id))))
        reply = f"```{fmt.fence}\n{text}\n```"
        state.output = ModelOutput.from_content(model="coonbench/baseline_wrong_values", content=reply)
        state.messages.append(ChatMessageAssistant(content=reply, model="coonbench/baseline_wrong_values"))
        return state

    return solve
