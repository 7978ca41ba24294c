"""What ``-T stop=decided`` saves on real answers: TOON's published per-call results replayed in random orders.

For each model of TOON's accuracy benchmark (``../shared/reference/toon``: skipped with the reason when absent) the
questions are put in the order the task would ask them (``coonbench.tasks.stopping.decided_order``: datasets in a
seeded random order, a question's formats together) and fed, one whole question at a time, to the very stopping
rule a run uses (``Monitor``: a betting confidence sequence per pair of formats on dataset means, Bonferroni). Prints
per model the questions asked until every comparison was decided (or all of them), against the budget, over
``--orders`` random orders, and how the comparisons were decided.

    python benchmarks/stop_replay.py [--orders 20] [--margin 0.05] [--formats toon,json-pretty]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path

from inspect_ai.dataset import Sample

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from coonbench.report.import_toon import read_questions  # noqa: E402
from coonbench.tasks.stopping import DEFAULT_MARGIN, Monitor, decided_order  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TOON = ROOT.parent / "shared" / "reference" / "toon"
RESULTS = TOON / "benchmarks" / "results" / "accuracy" / "models"
QUESTIONS = TOON / "generated" / "questions.json"


def samples_of(path: Path, questions: dict[str, dict[str, str]], per_question: bool = False
               ) -> tuple[list[Sample], dict[str, float]]:
    """One model's answers as samples (id ``<question>-<format>``, its dataset the cluster, or with
    ``per_question`` the question itself) and their verdicts."""
    samples, verdict = [], {}
    for rec in json.loads(path.read_text(encoding="utf-8")):
        qid, fmt = str(rec["questionId"]), str(rec["format"])
        sid = f"{qid}-{fmt}"
        meta = {"format": fmt, "pair_id": qid,
                "dataset": qid if per_question else questions.get(qid, {}).get("dataset", qid)}
        samples.append(Sample(id=sid, input="", metadata=meta))
        verdict[sid] = 1.0 if rec["isCorrect"] else 0.0
    return samples, verdict


def replay(samples: list[Sample], verdict: dict[str, float], seed: int, margin: float) -> tuple[int, int, Counter]:
    """(questions asked, questions in all, decisions) of one run in the order ``seed`` draws."""
    ordered = decided_order(samples, seed)
    monitor = Monitor([(str(s.id), s.metadata or {}) for s in ordered], margin=margin)
    for ids in list(monitor.members.values()):
        if not monitor.ask(ids[0]):
            continue
        for sid in ids:
            monitor.record(sid, 1, verdict[sid])
    return len(monitor.opened), len(monitor.members), Counter(monitor.decisions())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", type=int, default=20, help="random orders per model (seeds 0…N−1)")
    parser.add_argument("--margin", type=float, default=DEFAULT_MARGIN, help="the equivalence margin")
    parser.add_argument("--formats", default="", help="only these formats (comma list; default: all six)")
    parser.add_argument("--per-question", action="store_true",
                        help="each question its own unit, as if questions were independent (TOON's are not: they "
                             "cluster in 13 datasets; this shows what a task whose questions are independent saves)")
    args = parser.parse_args()
    if not RESULTS.is_dir() or not QUESTIONS.is_file():
        print(f"skipped: TOON's reference data is not at {TOON} (results/accuracy/models and generated/questions.json)")
        return 0
    questions = read_questions(QUESTIONS)
    print(f"TOON's answers replayed under -T stop=decided (margin ±{args.margin * 100:g} points, {args.orders} orders, "
          f"formats: {args.formats or 'all'}; unit: {'question' if args.per_question else 'dataset (cluster)'})")
    total_asked, total_budget = 0.0, 0
    for path in sorted(RESULTS.glob("*.json")):
        samples, verdict = samples_of(path, questions, args.per_question)
        keep = set(filter(None, args.formats.split(",")))
        samples = [s for s in samples if not keep or (s.metadata or {})["format"] in keep]
        runs = [replay(samples, verdict, seed, args.margin) for seed in range(args.orders)]
        asked = [r[0] for r in runs]
        budget = runs[0][1]
        decided = sum((r[2] for r in runs), Counter())
        total_asked += statistics.mean(asked)
        total_budget += budget
        labels = {"differ": "differ", "equivalent": "equivalent", "": "undecided"}
        how = ", ".join(f"{labels[k]} {v / args.orders:.1f}" for k, v in sorted(decided.items()))
        print(f"  {path.stem}: asked {statistics.mean(asked):.0f} of {budget} questions on average "
              f"(median {statistics.median(asked):.0f}, range {min(asked)}–{max(asked)}; ratio "
              f"{statistics.mean(asked) / budget:.2f}); comparisons per run: {how}")
    print(f"all models: {total_asked:.0f} of {total_budget} questions asked (ratio {total_asked / total_budget:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
