"""coonbench's own overhead: the full comprehension task against a bare Inspect task of the same size.

Both run with an instant scripted model (mockllm) on the same prompts (the bare task gets each sample's primer and
question as ready-made messages), so the difference is what coonbench adds: dataset building (encoding every sample
in every format, token counting), the primer solver, the normalising scorer and its metrics. Figures are CPU time
(user + system of the process that runs the eval: what the work costs, whatever else the machine runs).

Each timed run is a fresh Python process: it imports, builds the task once (the reference prompts, so that the
encodings it caches per process are warm: the figure is the per-sample work, not the one-time encoding of the
corpus), runs a 5-sample warm-up eval, then times building the task and evaluating it once. Runs inside one long
process drift (the same task took 33.8, 33.8 then 31.0 s in a row), so a ratio of two fastest-of-N figures partly
measured which task ran later. Runs come in pairs, bare and full, the order alternating from pair to pair; the
overhead is the geometric mean of the pairs' CPU-time ratios with its 95% t interval over the pairs (scipy). The
goal (≤ 1.15×) counts as met when the whole interval is at or below it. On a 2-core VM one run's CPU time moves by
about ±5% from run to run, so the default is 10 pairs (about 12 minutes): with 3 to 5 pairs the interval was wider
than the goal's margin.

``--parts`` also runs the steps between the two in every pair: the bare task with the samples' metadata, then with
the primer solver (the primer inserted by the task's ``primed_generate`` instead of given in the input), then with
``answer_match`` and the task's metrics and epoch reducer, to show which part of coonbench's work costs what.
``--aa`` also runs the bare task a second time in every pair: its ratio to the first should read 1.00 within its
interval (a check of the method: the same work timed twice).

    python benchmarks/overhead.py [--pairs N] [--limit N] [--parts] [--aa]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from inspect_ai import Epochs, Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import match
from inspect_ai.solver import generate
from scipy import stats

import coonbench  # noqa: F401  (offline tiktoken for mockllm)
from coonbench.datasets.comprehension import primer_text
from coonbench.evals.comprehension import comprehension
from coonbench.scorers.answer import answer_match, answer_metrics, epoch_mean
from coonbench.scorers.efficiency import verdict
from coonbench.solvers.primer import primed_generate

GOAL = 1.15
BARE = "bare Inspect task"
AGAIN = "bare Inspect task, again"
FULL = "comprehension task"
REPO = Path(__file__).resolve().parent.parent


def run(make_task: Callable[[], Task], limit: int | None, log_dir: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of building the task and evaluating it."""
    args = dict(model="mockllm/model", log_dir=log_dir, display="none", log_samples=True)
    cpu, wall = time.process_time(), time.perf_counter()
    logs = eval(make_task(), limit=limit, **args)  # type: ignore[arg-type]
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
                scorer=answer_match(aliases="coon") if scorer else match(),
                **extra,  # type: ignore[arg-type]
            )

        return task

    return {
        BARE: make(),
        "+ sample metadata": make(metadata=True),
        "+ primer solver": make(metadata=True, solver=True),
        "+ answer_match and metrics": make(metadata=True, solver=True, scorer=True),
    }


def child(name: str, limit: int | None) -> None:
    """One timed run in this fresh process (see the module's docstring); prints its figures as a JSON line."""
    reference = list(comprehension().dataset)[:limit]
    makers = {**steps(reference), FULL: lambda: comprehension()}
    makers[AGAIN] = makers[BARE]
    log_dir = tempfile.mkdtemp(prefix="coonbench-overhead-")
    try:
        run(makers[BARE], 5, log_dir)  # one-time imports and caches out of the timing
        cpu, wall = run(makers[name], limit, log_dir)
    finally:
        shutil.rmtree(log_dir, ignore_errors=True)
    print(json.dumps({"cpu": cpu, "wall": wall, "samples": len(reference)}))


def timed(name: str, limit: int | None) -> dict[str, float]:
    """``child`` in a fresh process."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", name]
    done = subprocess.run(cmd + (["--limit", str(limit)] if limit else []), capture_output=True, text=True, cwd=REPO)
    if done.returncode != 0:
        raise SystemExit(f"the run of {name!r} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def ratio_interval(ratios: list[float]) -> tuple[float, float, float]:
    """Geometric mean of paired ratios and its 95% t interval (on the logs; none from a single pair)."""
    logs = [math.log(r) for r in ratios]
    mean = sum(logs) / len(logs)
    if len(logs) < 2:
        return math.exp(mean), math.nan, math.nan
    half = stats.t.ppf(0.975, len(logs) - 1) * stats.sem(logs)
    return math.exp(mean), math.exp(mean - half), math.exp(mean + half)


def verdict_line(point: float, low: float, high: float) -> str:
    """Whether the runs show the goal met: the whole interval at or below it."""
    if math.isnan(high):
        return "one pair gives no interval: run more (--pairs)"
    if high <= GOAL:
        return f"met: the 95% interval is at or below {GOAL}x"
    if point <= GOAL:
        return f"not shown: the estimate is within {GOAL}x but the interval reaches past it"
    return f"not met: the estimate is above {GOAL}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=None, help="samples (default: the whole task)")
    parser.add_argument("--pairs", type=int, default=10, help="timed pairs of runs (each run a fresh process)")
    parser.add_argument("--parts", action="store_true", help="also time the steps between bare and full")
    parser.add_argument("--aa", action="store_true", help="also time the bare task against itself (reads 1.00x)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.limit)

    names = [*(list(steps([])) if args.parts else [BARE]), *([AGAIN] if args.aa else []), FULL]
    load = os.getloadavg()[0]
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in names}
    for pair in range(args.pairs):
        for name in names if pair % 2 == 0 else names[::-1]:  # the order alternates from pair to pair
            runs[name].append(timed(name, args.limit))
    samples = int(runs[BARE][0]["samples"])
    print(f"samples: {samples}; mockllm; {args.pairs} pairs of fresh-process runs, order alternating; load average "
          f"{load:.1f} before, {os.getloadavg()[0]:.1f} after ({os.cpu_count()} cores)")
    ratios = {  # per non-bare task: the pairs' ratios to the bare run of the same pair, as (point, low, high)
        name: ratio_interval([r["cpu"] / b["cpu"] for r, b in zip(runs[name], runs[BARE])])
        for name in names if name != BARE
    }
    print(f"{'':28s} {'CPU s (median)':>15s} {'ratio to bare, 95% CI':>26s}   {'wall s':>7s}")
    for name in names:
        line = f"{name:28s} {statistics.median(r['cpu'] for r in runs[name]):15.2f}"
        if name in ratios:
            point, low, high = ratios[name]
            line += f" {point:9.3f}x ({low:.3f}-{high:.3f})" if not math.isnan(low) else f" {point:9.3f}x"
        else:
            line += f" {'':26s}"
        print(f"{line}   {statistics.median(r['wall'] for r in runs[name]):7.2f}")
    point, low, high = ratios[FULL]
    interval = f" (95% CI {low:.3f}-{high:.3f})" if not math.isnan(low) else ""
    print(f"overhead ratio: {point:.3f}x CPU{interval}; goal <= {GOAL}x: {verdict_line(point, low, high)}")

if __name__ == "__main__":
    main()
