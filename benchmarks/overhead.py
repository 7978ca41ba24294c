"""coonbench's own overhead: the full comprehension task against a bare Inspect task of the same size.

Both run with an instant scripted model (mockllm) on the same prompts (the bare task gets each sample's primer and
question as ready-made messages), so the difference is what coonbench adds: dataset building (encoding every sample
in every format, token counting), the primer solver, the normalising scorer and its metrics. Prints both wall times
and their ratio (goal ≤ 1.3×).

    python benchmarks/overhead.py [--limit N] [--repeat R]
"""

from __future__ import annotations

import argparse
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


def run(make_task, limit: int | None) -> float:
    start = time.perf_counter()
    logs = eval(make_task(), limit=limit, **EVAL_ARGS)
    elapsed = time.perf_counter() - start
    assert logs[0].status == "success", logs[0].error
    return elapsed


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

    full_times = [run(comprehension, args.limit) for _ in range(args.repeat)]
    bare_times = [run(bare, None) for _ in range(args.repeat)]
    full, base = min(full_times), min(bare_times)
    print(f"samples: {n}")
    print(f"comprehension task (mockllm): {full:.2f} s")
    print(f"bare Inspect task (mockllm):  {base:.2f} s")
    print(f"overhead ratio: {full / base:.2f}x (goal <= 1.3x)")


if __name__ == "__main__":
    main()
