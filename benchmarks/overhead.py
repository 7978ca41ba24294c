"""coonbench's own overhead: the full comprehension task against a bare Inspect task of the same size.

Both run with an instant scripted model (mockllm) on the same prompts (the bare task gets each sample's primer and
question as ready-made messages), so the difference is what coonbench adds: dataset building (encoding every sample
in every format, token counting), the primer solver, the normalising scorer and its metrics. The two runs alternate
(full, bare, full, bare…) so that a change in the machine's load hits both alike; each figure is the fastest of
``--repeat``. Prints CPU time (user + system of this process: what the work costs, whatever else the machine runs),
wall time, the load average, and the CPU-time ratio (goal ≤ 1.15×).

    python benchmarks/overhead.py [--limit N] [--repeat R]
"""

from __future__ import annotations

import argparse
import os
import time

from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import match
from inspect_ai.solver import generate

import coonbench  # noqa: F401  (offline tiktoken for mockllm)
from coonbench.datasets.comprehension import primer_text
from evals.comprehension import comprehension

EVAL_ARGS = dict(model="mockllm/model", log_dir="/tmp/coonbench-overhead-logs", display="none", log_samples=True)


GOAL = 1.15


def run(make_task, limit: int | None) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of building the task and evaluating it."""
    cpu, wall = time.process_time(), time.perf_counter()
    logs = eval(make_task(), limit=limit, **EVAL_ARGS)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    assert logs[0].status == "success", logs[0].error
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=None, help="samples (default: the whole task)")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()

    reference = list(comprehension().dataset)[: args.limit]
    n = len(reference)
    prompts = [
        (
            [ChatMessageSystem(content=primer_text(s.metadata["format"])) if s.metadata["primer"] else None]
            + [ChatMessageUser(content=str(s.input))],
            s.target,
        )
        for s in reference
    ]

    def bare() -> Task:
        samples = [
            Sample(id=str(i), input=[m for m in messages if m is not None], target=target)
            for i, (messages, target) in enumerate(prompts)
        ]
        return Task(dataset=MemoryDataset(samples), solver=generate(), scorer=match())

    load = os.getloadavg()[0]
    full_times: list[tuple[float, float]] = []
    bare_times: list[tuple[float, float]] = []
    for _ in range(args.repeat):
        full_times.append(run(comprehension, args.limit))
        bare_times.append(run(bare, None))
    full, base = min(full_times), min(bare_times)
    print(f"samples: {n}; load average {load:.1f} before, {os.getloadavg()[0]:.1f} after ({os.cpu_count()} cores)")
    print(f"comprehension task (mockllm): {full[0]:.2f} s CPU, {full[1]:.2f} s wall")
    print(f"bare Inspect task (mockllm):  {base[0]:.2f} s CPU, {base[1]:.2f} s wall")
    print(f"overhead ratio: {full[0] / base[0]:.2f}x CPU (goal <= {GOAL}x), {full[1] / base[1]:.2f}x wall")


if __name__ == "__main__":
    main()
