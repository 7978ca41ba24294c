"""How soon ``inspect eval`` answers: wall time to a one-line argument error and to the end of a ``--limit 2`` run.

Run: ``python benchmarks/startup.py [--tasks comprehension,structure,…] [--repeat 3]``. For each task, three
commands run as a user types them, from the repository root, each ``--repeat`` times (the median is printed):

- ``error``: ``inspect eval evals/<task>.py -T formats=coonn …`` (``-T kinds=…``, ``-T target=…`` for tasks
  without ``formats``), which must stop with one line (the goal: 3 s or less on an idle machine);
- ``limit 2``: ``inspect eval evals/<task>.py --limit 2 --solver coonbench/gold``: its end bounds the time to its
  first sample from above (the goal: 10 s or less);
- ``questions=2`` (the tasks with ``-T questions=``): ``inspect eval evals/<task>.py -T questions=2 --solver
  coonbench/gold``, two whole questions in every format: ``--limit`` cannot spare a task any building (Inspect reads
  every sample before it slices), ``questions`` can (docs/usage.md "How much a small run builds");
- and, once, Inspect's own start-up: ``inspect eval`` of a one-sample task that is not coonbench's, and
  ``python -c "import coonbench._registry"`` (what every ``inspect`` process pays for coonbench's entry point).

Prints one line per measurement: the median wall time, the median CPU time (user + sys of the command and its
children: what the work costs, which a loaded machine stretches far less than wall time) and the ratio of the wall
time to Inspect's own start-up. Nothing is timed in a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TASKS = ("comprehension", "structure", "generation", "modification", "retrieval", "correction")
TYPO = {"comprehension": "formats=coonn", "generation": "formats=coonn", "modification": "formats=coonn",
        "retrieval": "formats=tooon", "structure": "kinds=abbrev_to_ful", "correction": "target=pyhton"}
SUBSET_TASKS = ("comprehension", "structure", "generation", "modification", "retrieval")  # ``-T questions=``
ERROR_GOAL_S, FIRST_SAMPLE_GOAL_S = 3.0, 10.0
FOREIGN = (
    "from inspect_ai import Task, task\nfrom inspect_ai.dataset import Sample\nfrom inspect_ai.scorer import match\n\n"
    "@task\ndef foreign():\n    return Task(dataset=[Sample(input='q', target='a')], scorer=match())\n"
)


def _timed(cmd: list[str], logs: str) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall seconds, CPU seconds (user + sys of the command and its children) and the finished command."""
    env = {**os.environ, "INSPECT_LOG_DIR": logs}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done


def _median(cmd: list[str], repeat: int, logs: str) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Median wall and CPU seconds over ``repeat`` runs (CPU time barely moves when the machine is loaded)."""
    runs = [_timed(cmd, logs) for _ in range(repeat)]
    return (statistics.median(w for w, _, _ in runs), statistics.median(c for _, c, _ in runs), runs[-1][2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default=",".join(TASKS))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    inspect = str(Path(sys.executable).with_name("inspect"))
    with tempfile.TemporaryDirectory() as tmp:
        logs = str(Path(tmp) / "logs")
        foreign = Path(tmp) / "foreign.py"
        foreign.write_text(FOREIGN)
        base, base_cpu, _ = _median([inspect, "eval", str(foreign), "--model", "mockllm/model", "--display",
                                     "none"], args.repeat, logs)
        registry, registry_cpu, _ = _median([sys.executable, "-c", "import coonbench._registry"], args.repeat, logs)
        print(f"inspect's own start-up (a foreign one-sample task): {base:6.2f} s wall, {base_cpu:6.2f} s CPU")
        print(f"import coonbench._registry:                         {registry:6.2f} s wall, {registry_cpu:6.2f} s CPU"
              f"  ({registry / base:.2f}x)")
        for task in args.tasks.split(","):
            error_s, error_cpu, error = _median([inspect, "eval", f"evals/{task}.py", "-T", TYPO[task], "--model",
                                      "mockllm/model", "--display", "none"], args.repeat, logs)
            lines = [line for line in error.stderr.splitlines() if line.strip()]
            one_line = error.returncode != 0 and len(lines) == 1
            run_s, run_cpu, run = _median([inspect, "eval", f"evals/{task}.py", "--limit", "2", "--model", "mockllm/model",
                                  "--solver", "coonbench/gold", "--display", "none"], args.repeat, logs)
            print(f"{task:<14} error {error_s:6.2f} s wall {error_cpu:6.2f} s CPU ({error_s / base:.2f}x, goal {ERROR_GOAL_S:.0f} s, "
                  f"{'one line' if one_line else 'NOT one line'}: {lines[-1][:90] if lines else '-'})")
            print(f"{'':<14} limit 2 {run_s:6.2f} s wall {run_cpu:6.2f} s CPU ({run_s / base:.2f}x, goal {FIRST_SAMPLE_GOAL_S:.0f} s"
                  f"{'' if run.returncode == 0 else ', FAILED: ' + run.stderr.strip()[-200:]})")
            if task in SUBSET_TASKS:
                sub_s, sub_cpu, sub = _median([inspect, "eval", f"evals/{task}.py", "-T", "questions=2", "--model",
                                               "mockllm/model", "--solver", "coonbench/gold", "--display", "none"],
                                              args.repeat, logs)
                print(f"{'':<14} questions=2 {sub_s:6.2f} s wall {sub_cpu:6.2f} s CPU ({sub_s / base:.2f}x"
                      f"{'' if sub.returncode == 0 else ', FAILED: ' + sub.stderr.strip()[-200:]})")


if __name__ == "__main__":
    main()
