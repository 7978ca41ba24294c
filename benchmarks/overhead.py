"""coonbench's own overhead: the full comprehension task against a bare Inspect task of the same size.

Both run with an instant scripted model (mockllm) on the same prompts (the bare task gets each sample's primer and
question as ready-made messages), so the difference is what coonbench adds: dataset building (encoding every sample
in every format, token counting), the primer solver, the normalising scorer and its metrics. The two runs alternate
(full, bare, full, bare…) so that a change in the machine's load hits both alike; each figure is the fastest of
``--repeat``. Prints CPU time (user + system of this process: what the work costs, whatever else the machine runs),
wall time, the load average, and the CPU-time ratio (goal ≤ 1.15×). The task is built after a first build in the
same process (the reference prompts), so the encodings it caches per process are warm: the figure is the per-sample
work, not the one-time encoding of the corpus.

``--parts`` also runs the steps between the two: the bare task with the samples' metadata, then with the primer
solver (the primer inserted by the task's ``primed_generate`` instead of given in the input), then with
``answer_match`` and the task's metrics and epoch reducer, to show which part of coonbench's work costs what.

    python benchmarks/overhead.py [--limit N] [--repeat R] [--parts]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

from inspect_ai import Epochs, Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import match
from inspect_ai.solver import generate

import coonbench  # noqa: F401  (offline tiktoken for mockllm)
from coonbench.datasets.comprehension import primer_text
from coonbench.formats.coon import widget_aliases
from evals.comprehension import comprehension
from scorers.answer import answer_match, answer_metrics, epoch_mean
from scorers.efficiency import verdict
from solvers.primer import primed_generate

EVAL_ARGS = dict(model="mockllm/model", log_dir="/tmp/coonbench-overhead-logs", display="none", log_samples=True)


GOAL = 1.15


def run(make_task, limit: int | None) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of building the task and evaluating it."""
    cpu, wall = time.process_time(), time.perf_counter()
    logs = eval(make_task(), limit=limit, **EVAL_ARGS)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    assert logs[0].status == "success", logs[0].error
    return cpu, wall


def steps(reference: list[Sample]) -> dict[str, Callable[[], Task]]:
    """Task makers from the bare task to coonbench's, one added part at a time (same prompts throughout)."""

    def messages(s: Sample, primer: bool) -> list[ChatMessage]:
        text = primer_text(s.metadata["format"]) if primer and s.metadata["primer"] else None
        return ([ChatMessageSystem(content=text)] if text else []) + [ChatMessageUser(content=str(s.input))]

    def make(metadata: bool = False, solver: bool = False, scorer: bool = False) -> Callable[[], Task]:
        def task() -> Task:
            samples = [
                Sample(id=s.id if metadata else str(i), input=messages(s, primer=not solver), target=s.target,
                       metadata=dict(s.metadata or {}) if metadata else None)
                for i, s in enumerate(reference)
            ]
            extra = {"metrics": [*answer_metrics(baseline="dart"), verdict()], "epochs": Epochs(1, epoch_mean())}
            extra = extra if scorer else {}
            return Task(
                dataset=MemoryDataset(samples),
                solver=primed_generate() if solver else generate(),
                scorer=answer_match(aliases=widget_aliases()) if scorer else match(),
                **extra,  # type: ignore[arg-type]
            )

        return task

    return {
        "bare Inspect task": make(),
        "+ sample metadata": make(metadata=True),
        "+ primer solver": make(metadata=True, solver=True),
        "+ answer_match and metrics": make(metadata=True, solver=True, scorer=True),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=None, help="samples (default: the whole task)")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--parts", action="store_true", help="also time the steps between bare and full")
    args = parser.parse_args()

    reference = list(comprehension().dataset)[: args.limit]
    makers = steps(reference)
    makers = {**(makers if args.parts else {"bare Inspect task": makers["bare Inspect task"]}),
              "comprehension task": lambda: comprehension()}
    eval(makers["bare Inspect task"](), limit=5, **EVAL_ARGS)  # one-time imports and caches out of the timings
    load = os.getloadavg()[0]
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in makers}
    for _ in range(args.repeat):
        for name, make in makers.items():
            times[name].append(run(make, args.limit if name == "comprehension task" else None))
    best = {name: min(t) for name, t in times.items()}
    base = best["bare Inspect task"]
    print(f"samples: {len(reference)}; load average {load:.1f} before, {os.getloadavg()[0]:.1f} after "
          f"({os.cpu_count()} cores); mockllm; fastest of {args.repeat}")
    for name, (cpu, wall) in best.items():
        print(f"{name:28s} {cpu:7.2f} s CPU {cpu / base[0]:5.2f}x   {wall:7.2f} s wall {wall / base[1]:5.2f}x")
    full = best["comprehension task"]
    print(f"overhead ratio: {full[0] / base[0]:.2f}x CPU (goal <= {GOAL}x), {full[1] / base[1]:.2f}x wall")


if __name__ == "__main__":
    main()
