"""How long ``coonbench report`` takes: ≥ 10,000 synthetic samples (goal < 10 s) and TOON's 5,316 (goal < 8 s).

Synthesises Inspect logs with the public API (seeded: 2 models × 5 formats × 1,000 questions from 50 datasets, so
every table, paired comparison and bootstrap runs), then times the report in a fresh process (imports included,
as a user waits for them). Then imports TOON's published raw answers (``../shared/reference/toon``; skipped with
the reason when absent) and times the report on them. Prints sample counts, wall and CPU seconds.

    python benchmarks/report_speed.py [--questions 1000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalPlan, EvalSample, EvalSpec, EvalStats, write_eval_log
from inspect_ai.model import ModelOutput, ModelUsage
from inspect_ai.scorer import Score

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]
TOON_RESULTS = ROOT.parent / "shared" / "reference" / "toon" / "benchmarks" / "results" / "accuracy" / "models"
TIMED = """
import json, resource, sys, time
start = time.perf_counter()
from coonbench.report import build_report
build_report([sys.argv[1]], sys.argv[2])
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"wall": time.perf_counter() - start, "cpu": usage.ru_utime + usage.ru_stime}))
"""

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


def timed_report(logs: Path, out: Path) -> dict[str, float]:
    """Wall and CPU seconds of ``build_report`` in a fresh interpreter, its imports included."""
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", TIMED, str(logs), str(out)], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=1000)
    parser.add_argument("--keep", help="write the logs and reports here instead of a temporary folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.keep or tmp)
        logs = root / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        n = synthesise(logs, args.questions)
        t = timed_report(logs, root / "report")
        print(f"synthetic samples: {n}")
        print(f"report time: {t['wall']:.2f} s wall, {t['cpu']:.2f} s CPU (goal < 10 s; CPU on a busy machine)")
        if not TOON_RESULTS.is_dir():
            print(f"TOON: skipped ({TOON_RESULTS} is absent)")
            return 0
        from coonbench.report.import_toon import import_toon

        import_toon(TOON_RESULTS, root / "toon-logs")
        t = timed_report(root / "toon-logs", root / "toon-report")
        total = sum(len(json.loads(p.read_text(encoding="utf-8"))) for p in TOON_RESULTS.glob("*.json"))
        print(f"TOON samples: {total}")
        print(f"TOON report time: {t['wall']:.2f} s wall, {t['cpu']:.2f} s CPU (goal < 8 s of CPU: "
              f"{'met' if t['cpu'] < 8 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
