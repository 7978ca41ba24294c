"""Accuracy of the trivial baselines on every task (the floors a model's score is read against).

Run: ``python benchmarks/baseline_floors.py [--limit N] [--tasks a,b] [--baselines baseline_frequent,…]``. With ``--limit`` each task is cut to a
seeded random subset of N samples (``sample_shuffle=SEED``), the same for every baseline. Each baseline solver
(``coonbench/baseline_*``, or ``gold``) runs on each task with ``mockllm/model`` (never called) and the task's own
scorer; prints accuracy ± standard error per task and baseline. Deterministic: the baselines are seeded.

Besides the tasks, ``VARIANTS`` (``coonbench validate``'s ``TASK_VARIANTS``) names the tasks' other sources as users run them: mined edits
(``modification-edits``: ``-T source=edits``) and three-turn sessions, synthetic (``modification-turns3``) and mined
(``modification-edits-turns3``), in COON, Dart and minified Dart. For those (and any run whose scores have a
``graded`` value or turns) a line per format follows with the exact score, the graded score and the exact score
at each turn (``per_format``). ``baseline_no_edit`` (the program shown, unchanged) runs on modification only,
``baseline_wrong_values`` (the right shape in the right format, every value changed) on writing only.
"""

from __future__ import annotations

import argparse
import math
import tempfile
from collections import defaultdict
from typing import Any

from inspect_ai import eval as inspect_eval

import coonbench._registry  # noqa: F401 - registers tasks and solvers
from coonbench.solvers import baselines
from coonbench.solvers.gold import gold
from coonbench.solvers.writing import baseline_wrong_values
from coonbench.validity.run import TASK_VARIANTS as VARIANTS

SEED = 17
BASELINES = ("baseline_constant", "baseline_frequent", "baseline_random_widget", "baseline_empty", "baseline_no_edit",
             "baseline_wrong_values")
TASKS = ("comprehension", "structure", "retrieval", "generation", "modification", "correction", "tools", "handoff", "writing",
         *VARIANTS)
MODIFICATION_ONLY = ("baseline_no_edit",)
WRITING_ONLY = ("baseline_wrong_values",)
EXACT_SCORERS = ("answer_match", "correct", "tool_answer", "handoff_score")


def solver_for(name: str) -> Any:
    """A baseline solver by name (``gold`` too: the ceiling every floor is read under)."""
    if name in WRITING_ONLY:
        return baseline_wrong_values()
    return gold() if name == "gold" else getattr(baselines, name)()


def task_and_args(name: str) -> tuple[str, dict[str, Any]]:
    """(registered task, its arguments) of a task or variant name."""
    task, args = VARIANTS.get(name, (name, {}))
    return task, ({"sandbox": "local"} if task == "correction" else dict(args))


def per_format(log: Any) -> dict[str, dict[str, float]]:
    """Mean ``correct``, ``graded`` and ``turn_<k>`` per sample format (from the samples' score values)."""
    sums: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for sample in log.samples or []:
        fmt = str((sample.metadata or {}).get("format", "?"))
        for score in (sample.scores or {}).values():
            value = score.value if isinstance(score.value, dict) else {}
            for key, v in value.items():
                if (key in ("correct", "graded") or key.startswith("turn_")) and isinstance(v, (int, float)) \
                        and not math.isnan(v):
                    sums[fmt][key].append(float(v))
    return {fmt: {k: sum(v) / len(v) for k, v in keys.items()} for fmt, keys in sorted(sums.items())}


def headline(log: Any) -> tuple[float, float, int]:
    """(exact accuracy, its standard error, completed samples) of a run."""
    acc = se = float("nan")
    n = log.results.completed_samples if log.results else 0
    for score in log.results.scores if log.results else []:
        # exact-answer tasks: answer_match's accuracy; program tasks: the per-key ``correct`` mean
        main_metric = score.metrics.get("accuracy") or score.metrics.get("mean")
        if score.name in EXACT_SCORERS and main_metric is not None:
            acc = float(main_metric.value)
            se = float(score.metrics["stderr"].value) if "stderr" in score.metrics else float("nan")
    return acc, se, n


def format_lines(name: str, baseline: str, log: Any) -> list[str]:
    """A line per format of a run with graded scores or turns: exact, graded and exact per turn, in %."""
    lines = []
    for fmt, means in per_format(log).items():
        if not ("graded" in means or any(k.startswith("turn_") for k in means)):
            continue
        turns = sorted((k for k in means if k.startswith("turn_")), key=lambda k: int(k.split("_")[1]))
        cells = [f"exact {100 * means.get('correct', float('nan')):5.1f}%",
                 f"graded {100 * means.get('graded', float('nan')):5.1f}%"]
        cells += [f"{k.replace('_', ' ')} {100 * means[k]:5.1f}%" for k in turns]
        lines.append(f"  {name} {baseline.removeprefix('baseline_')} {fmt}: " + ", ".join(cells))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--tasks", default=",".join(TASKS))
    parser.add_argument("--baselines", default=",".join(BASELINES))
    args = parser.parse_args()
    chosen = args.baselines.split(",")
    print(f"{'task':<26}" + "".join(f"{b.removeprefix('baseline_'):>18}" for b in chosen))
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.tasks.split(","):
            task, task_args = task_and_args(name)
            cells, details = [], []
            for baseline in chosen:
                if (baseline in MODIFICATION_ONLY and task != "modification") or \
                        (baseline in WRITING_ONLY and task != "writing"):
                    cells.append("—")
                    continue
                log = inspect_eval(f"coonbench/{task}", task_args=task_args, solver=solver_for(baseline),
                                   model="mockllm/model", limit=args.limit,
                                   sample_shuffle=SEED if args.limit else None, log_dir=tmp, display="none",
                                   log_level="warning", score_display=False)[0]
                acc, se, n = headline(log)
                cells.append(f"{100 * acc:6.1f}±{100 * se:4.1f}% n={n:<4}")
                details += format_lines(name, baseline, log)
            print(f"{name:<26}" + "".join(f"{c:>18}" for c in cells), flush=True)
            for line in details:
                print(line, flush=True)


if __name__ == "__main__":
    main()
