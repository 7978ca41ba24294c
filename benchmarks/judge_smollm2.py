"""A real small judge: the weighted (or graded) judge scorer with ``gguf/smollm2`` on a handful of samples.

Why: scripted judges prove the plumbing; a 135M-parameter judge shows the robustness — how often its replies cannot
be parsed, how often one re-ask rescues them, and how many samples end unscored (``grader_failed``). The answers come
from a scripted solver (some meet the criteria, some do not), so only the judge is a model.

    python benchmarks/judge_smollm2.py [--samples 6] [--mode weighted|graded] [--max-tokens 300]

Prints per-sample outcomes and: samples, unscored (grader_failed) rate, judge replies, parse failures, per-reply
parse-failure rate, re-asks, mean accuracy/completeness of the scored samples and the wall time.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

import coonbench  # noqa: F401  (offline tiktoken)
import coonbench.providers.gguf  # noqa: F401  (registers the gguf model API)
from coonbench.judging.criteria import sample_criteria
from coonbench.scorers.judge import judge

# (answer, accuracy criteria, completeness criteria) — short, so a 135M model can hold them in view.
CASES: list[tuple[str, list[str], list[str]]] = [
    (
        "int add(int a, int b) => a + b;",
        ["The code is written in Dart", "The code has no TODO comments"],
        ["Defines a function named add", "The function returns the sum of its two arguments"],
    ),
    (
        "// TODO: implement\nint add(int a, int b) { return 0; }",
        ["The code is written in Dart", "The code has no TODO comments"],
        ["Defines a function named add", "The function returns the sum of its two arguments"],
    ),
    (
        "Widget build(BuildContext context) => isLoading ? CircularProgressIndicator() : Text(title);",
        ["The code is written in Dart"],
        ["Shows a loading indicator while isLoading is true", "Shows the title when not loading"],
    ),
    (
        "Widget build(BuildContext context) => Text(title);",
        ["The code is written in Dart"],
        ["Shows a loading indicator while isLoading is true", "Shows the title when not loading"],
    ),
    (
        "The dataset has 3 rows; the mean price is 12.5 and the most expensive item is 'lamp'.",
        ["The analysis states numbers, not vague words"],
        ["Gives the number of rows", "Gives the mean price", "Names the most expensive item"],
    ),
    (
        "The data looks interesting and has some items.",
        ["The analysis states numbers, not vague words"],
        ["Gives the number of rows", "Gives the mean price", "Names the most expensive item"],
    ),
]


@solver
def scripted_answer() -> Solver:
    """Reply with metadata['answer']: only the judge is a model in this benchmark."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.output = ModelOutput.from_content(model="scripted", content=state.metadata["answer"])
        return state

    return solve


def judge_task(samples: int, mode: str) -> Task:
    dataset = [
        Sample(
            id=f"judge-bench-{i}",
            input="Answer the task.",
            target="",
            metadata={"answer": answer, "criteria": sample_criteria(accuracy=acc, completeness=comp)},
        )
        for i, (answer, acc, comp) in enumerate((CASES * math.ceil(samples / len(CASES)))[:samples])
    ]
    return Task(dataset=MemoryDataset(dataset), solver=scripted_answer(), scorer=judge(mode=mode))  # type: ignore[arg-type]


def run_benchmark(samples: int = 6, mode: str = "weighted", max_tokens: int = 300) -> dict[str, Any]:
    """Run the judge with gguf/smollm2 and return the robustness figures."""
    judge_model = get_model("gguf/smollm2", config=GenerateConfig(max_tokens=max_tokens, temperature=0.0))
    start = time.perf_counter()
    [log] = eval(
        judge_task(samples, mode),
        model="mockllm/model",
        model_roles={"judge": judge_model},
        log_dir="/tmp/coonbench-judge-bench-logs",
        display="none",
        max_samples=1,
    )
    wall = time.perf_counter() - start
    assert log.status == "success", log.error
    replies = failures = reasks = unscored = 0
    accuracy: list[float] = []
    completeness: list[float] = []
    rows = []
    for sample in log.samples or []:
        score = sample.scores["judge"]
        meta = score.metadata or {}
        for j in meta.get("judges", []):
            replies += j["calls"]
            failures += j["parse_failures"]
            reasks += j["reasks"]
        if isinstance(score.value, dict) and score.reason != "grader_failed":
            accuracy.append(score.value["accuracy"])
            completeness.append(score.value["completeness"])
            rows.append((sample.id, "scored", score.value["accuracy"], score.value["completeness"]))
        else:
            unscored += 1
            rows.append((sample.id, score.reason, None, None))
    return {
        "mode": mode,
        "samples": len(log.samples or []),
        "unscored": unscored,
        "unscored_rate": unscored / max(1, len(log.samples or [])),
        "judge_replies": replies,
        "parse_failures": failures,
        "parse_failure_rate": failures / max(1, replies),
        "reasks": reasks,
        "mean_accuracy": sum(accuracy) / len(accuracy) if accuracy else None,
        "mean_completeness": sum(completeness) / len(completeness) if completeness else None,
        "wall_seconds": round(wall, 1),
        "rows": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=6)
    parser.add_argument("--mode", choices=["weighted", "graded"], default="weighted")
    parser.add_argument("--max-tokens", type=int, default=300)
    args = parser.parse_args()
    result = run_benchmark(args.samples, args.mode, args.max_tokens)
    for row in result.pop("rows"):
        print(*row, sep="\t")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
