"""Generate with per-sample settings: TeaLeaf task files give each task its own max_tokens and temperature."""

from __future__ import annotations

from typing import Any

from inspect_ai.solver import Generate, Solver, TaskState, solver

GENERATE_CONFIG_KEY = "generate_config"  # metadata: {"max_tokens": int, "temperature": float, ...}


@solver(name="generate_from_metadata")
def generate_from_metadata() -> Solver:
    """Call ``generate`` with ``metadata['generate_config']`` (GenerateConfig fields), when the sample sets one."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        config: dict[str, Any] = dict(state.metadata.get(GENERATE_CONFIG_KEY) or {})
        return await generate(state, **config)

    return solve
