"""Accuracy of the trivial baselines on every task (the floors a model's score is read against).

Run: ``python benchmarks/baseline_floors.py [--limit N] [--tasks a,b] [--baselines baseline_frequent,…]``. With ``--limit`` each task is cut to a
seeded random subset of N samples (``sample_shuffle=SEED``), the same for every baseline. Each baseline solver
(``coonbench/baseline_*``) runs on each task with ``mockllm/model`` (never called) and the task's own scorer;
prints accuracy ± standard error per task and baseline. Deterministic: the baselines are seeded.
"""

from __future__ import annotations

import argparse
import tempfile

from inspect_ai import eval as inspect_eval

import coonbench._registry  # noqa: F401 - registers tasks and solvers
from coonbench.solvers import baselines

SEED = 17
BASELINES = ("baseline_constant", "baseline_frequent", "baseline_random_widget", "baseline_empty")
TASKS = ("comprehension", "structure", "retrieval", "generation", "modification", "correction", "tools", "handoff")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--tasks", default=",".join(TASKS))
    parser.add_argument("--baselines", default=",".join(BASELINES))
    args = parser.parse_args()
    chosen = args.baselines.split(",")
    print(f"{'task':<14}" + "".join(f"{b.removeprefix('baseline_'):>18}" for b in chosen))
    with tempfile.TemporaryDirectory() as tmp:
        for task in args.tasks.split(","):
            cells = []
            task_args = {"sandbox": "local"} if task == "correction" else {}
            for baseline in chosen:
                log = inspect_eval(f"coonbench/{task}", task_args=task_args, solver=getattr(baselines, baseline)(),
                                   model="mockllm/model", limit=args.limit,
                                   sample_shuffle=SEED if args.limit else None, log_dir=tmp, display="none",
                                   log_level="warning", score_display=False)[0]
                acc = se = float("nan")
                n = log.results.completed_samples if log.results else 0
                for score in log.results.scores if log.results else []:
                    # exact-answer tasks: answer_match's accuracy; program tasks: the per-key ``correct`` mean
                    main_metric = score.metrics.get("accuracy") or score.metrics.get("mean")
                    exact = ("answer_match", "correct", "tool_answer", "handoff_score")
                    if score.name in exact and main_metric is not None:
                        acc = float(main_metric.value)
                        se = float(score.metrics["stderr"].value) if "stderr" in score.metrics else float("nan")
                cells.append(f"{100 * acc:6.1f}±{100 * se:4.1f}% n={n:<4}")
            print(f"{task:<14}" + "".join(f"{c:>18}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
