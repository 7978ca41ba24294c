"""How long ``coonbench report`` takes on ≥ 10,000 samples (goal: under 10 s).

Synthesises Inspect logs with the public API (seeded: 2 models × 5 formats × 1,000 questions from 50 datasets, so
every table, paired comparison and bootstrap runs), then times the report. Prints the sample count and seconds.

    python benchmarks/report_speed.py [--questions 1000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalPlan, EvalSample, EvalSpec, EvalStats, write_eval_log
from inspect_ai.model import ModelOutput, ModelUsage
from inspect_ai.scorer import Score

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from coonbench.report import build_report  # noqa: E402

FORMATS = {"json": 1.0, "json-compact": 0.7, "toon": 0.55, "yaml": 0.8, "xml": 1.2}  # token scale
MODELS = {"bench/model-a": 0.7, "bench/model-b": 0.85}  # base accuracy


def synthesise(folder: Path, questions: int, seed: int = 7) -> int:
    rng = random.Random(seed)
    total = 0
    for model, base in MODELS.items():
        samples = []
        for q in range(questions):
            dataset = f"datasets/d{q % 50}.json"
            difficulty = rng.random() * 0.3
            for fmt, scale in FORMATS.items():
                correct = rng.random() < base - difficulty
                tokens = int(1000 * scale * (1 + (q % 50) / 25))
                samples.append(EvalSample(
                    id=f"bench-q{q}-{fmt}", epoch=1, input=f"question {q} in {fmt}", target="x",
                    output=ModelOutput.from_content(model=model, content="x" if correct else "y"),
                    scores={"answer_match": Score(value={"correct": float(correct), "input_tokens": float(tokens)})},
                    metadata={"format": fmt, "category": "retrieval", "question_type": ["lookup", "count"][q % 2],
                              "complexity": "uniform", "input_tokens": tokens, "dataset": dataset, "pair_id": f"q{q}"},
                    model_usage={model: ModelUsage(input_tokens=tokens, output_tokens=5, total_tokens=tokens + 5)},
                    total_time=rng.uniform(0.5, 3.0), working_time=rng.uniform(0.5, 3.0),
                ))
        total += len(samples)
        log = EvalLog(
            status="success",
            eval=EvalSpec(created="2026-01-01T00:00:00+00:00", task="retrieval", model=model, config=EvalConfig(),
                          dataset=EvalDataset(name="bench", samples=len(samples))),
            plan=EvalPlan(), stats=EvalStats(), samples=samples,
        )
        write_eval_log(log, str(folder / f"bench_{model.split('/')[-1]}.eval"))
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=1000)
    parser.add_argument("--keep", help="write the logs and report here instead of a temporary folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.keep or tmp)
        logs, out = root / "logs", root / "report"
        logs.mkdir(parents=True, exist_ok=True)
        n = synthesise(logs, args.questions)
        start, cpu = time.perf_counter(), time.process_time()
        build_report([logs], out)
        wall, used = time.perf_counter() - start, time.process_time() - cpu
    print(f"samples: {n}")
    print(f"report time: {wall:.2f} s wall, {used:.2f} s CPU (goal < 10 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
