"""What ``-T stop=decided`` saves on real answers: published answers replayed in random orders.

For each model of TOON's accuracy benchmark (``../shared/reference/toon``: skipped with the reason when absent), or
of the Inspect logs in ``--logs DIR`` (e.g. ``logs/published/qwen2.5-coder-1.5b/comprehension``), the questions are
put in the order the task would ask them (``coonbench.tasks.stopping.decided_order``: source items in a seeded
random order, a question's formats together) and fed, one whole question at a time, to the very stopping rule a run
uses (``Monitor``: a betting confidence sequence per comparison on source-item means, Bonferroni, and its futility
check), on the comparisons ``--stop-on`` names (default as the task: the design's, else every pair). Prints per
model the questions asked until every comparison was decided or futile (or all of them), against the budget, over
``--orders`` random orders, and how the comparisons ended.

    python benchmarks/stop_replay.py [--orders 20] [--margin 0.05] [--formats toon,json-pretty] [--stop-on all]
    python benchmarks/stop_replay.py --logs logs/published/qwen2.5-coder-1.5b/comprehension
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
from coonbench.tasks.stop_on import check_stop_on, resolve_stop_on  # noqa: E402
from coonbench.tasks.stopping import DEFAULT_MARGIN, Monitor, cluster_of, decided_order, score_value  # noqa: E402

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


def samples_of_logs(directory: Path) -> dict[str, tuple[list[Sample], dict[str, float]]]:
    """Per model under test in the Inspect logs in ``directory`` (the floors and gold runs on ``mockllm/`` are not
    runs a user would stop): its scored first-epoch samples (their metadata as the run recorded it) and their
    verdicts (the first scorer's ``correct``, as the stopping rule reads it)."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    out: dict[str, tuple[list[Sample], dict[str, float]]] = {}
    for info in list_eval_logs(str(directory)):
        log = read_eval_log(info.name)
        if log.eval.model.startswith("mockllm/"):
            continue
        samples, verdict = out.setdefault(log.eval.model, ([], {}))
        for s in log.samples or []:
            if s.epoch != 1 or not s.scores or str(s.id) in verdict:
                continue
            samples.append(Sample(id=str(s.id), input="", metadata=dict(s.metadata or {})))
            verdict[str(s.id)] = score_value(s.scores)
    return out


def replay(samples: list[Sample], verdict: dict[str, float], seed: int, margin: float,
           stop_on: str | None = None) -> tuple[int, int, Counter]:
    """(questions asked, questions in all, each comparison's outcome: differ, equivalent, futile or undecided) of
    one run in the order ``seed`` draws."""
    ordered = decided_order(samples, seed)
    pairs = resolve_stop_on(check_stop_on("decided", stop_on),
                            [str((s.metadata or {}).get("format")) for s in ordered])
    monitor = Monitor([(str(s.id), s.metadata or {}) for s in ordered], margin=margin, pairs=pairs)
    for ids in list(monitor.members.values()):
        if not monitor.ask(ids[0]):
            continue
        for sid in ids:
            monitor.record(sid, 1, verdict[sid])
    outcomes = Counter((f"{c['format_a']} vs {c['format_b']}", c["decision"] if not c["futile"] else "futile")
                       for c in monitor.summary()["comparisons"])
    return len(monitor.opened), len(monitor.members), outcomes


def replay_all(models: dict[str, tuple[list[Sample], dict[str, float]]], orders: int, margin: float,
               stop_on: str | None = None) -> dict[str, dict[str, object]]:
    """Per model: questions asked in each of ``orders`` random orders, the budget, and the outcomes summed."""
    out: dict[str, dict[str, object]] = {}
    for model, (samples, verdict) in models.items():
        runs = [replay(samples, verdict, seed, margin, stop_on) for seed in range(orders)]
        out[model] = {"asked": [r[0] for r in runs], "budget": runs[0][1],
                      "outcomes": sum((r[2] for r in runs), Counter()),
                      "items": len({cluster_of(str(s.id), s.metadata or {}) for s in samples})}
    return out


def toon_models(formats: str = "", per_question: bool = False) -> dict[str, tuple[list[Sample], dict[str, float]]]:
    """TOON's answers per model (only ``formats``, a comma list, when given); empty when its data is absent."""
    if not RESULTS.is_dir() or not QUESTIONS.is_file():
        return {}
    questions = read_questions(QUESTIONS)
    keep = set(filter(None, formats.split(",")))
    out = {}
    for path in sorted(RESULTS.glob("*.json")):
        samples, verdict = samples_of(path, questions, per_question)
        out[path.stem] = ([s for s in samples if not keep or (s.metadata or {})["format"] in keep], verdict)
    return out


def totals(result: dict[str, dict[str, object]]) -> tuple[int, int]:
    """(questions asked, rounded, summed over the models' mean per order; the budgets summed)."""
    asked = sum(statistics.mean(r["asked"]) for r in result.values())  # type: ignore[arg-type]
    return round(asked), sum(int(r["budget"]) for r in result.values())  # type: ignore[call-overload]


def statement(toon: dict[str, dict[str, object]], logs: dict[str, dict[str, object]], orders: int) -> str:
    """What docs/planning.md says of the two replays (``tests/test_stop_replay.py`` checks it is the text
    there): questions asked against the fixed design, and how each comparison ended."""
    toon_asked, toon_budget = totals(toon)
    comparisons = sum(len({k for k, _ in r["outcomes"]}) for r in toon.values()) // max(len(toon), 1)  # type: ignore[attr-defined]
    ends = {outcome for r in toon.values() for _, outcome in r["outcomes"]}  # type: ignore[attr-defined]
    items = "/".join(sorted({str(r["items"]) for r in toon.values()}))
    parts = [f"on TOON's answers (the four models, {toon_budget // max(len(toon), 1)} questions each from {items} "
             f"datasets, {comparisons} comparisons: every pair, no format declaring a baseline) the rule asked "
             f"{toon_asked} of {toon_budget} questions (ratio {toon_asked / toon_budget:.2f}), every comparison "
             f"ending {' or '.join(sorted(ends))}"]
    for model, r in logs.items():
        asked = statistics.mean(r["asked"])  # type: ignore[arg-type]
        how = "; ".join(
            f"{pair}: " + ", ".join(f"{outcome} in {count} of {orders}" for (p, outcome), count in
                                    sorted(r["outcomes"].items()) if p == pair)  # type: ignore[attr-defined]
            for pair in sorted({p for p, _ in r["outcomes"]}))  # type: ignore[attr-defined]
        parts.append(f"on the published {model} comprehension logs (the design's comparisons) it asked "
                     f"{asked:.0f} of {r['budget']} questions (ratio {asked / int(r['budget']):.2f}; {how})")  # type: ignore[call-overload]
    return f"Over {orders} random orders each, " + "; ".join(parts) + "."


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", type=int, default=20, help="random orders per model (seeds 0…N−1)")
    parser.add_argument("--margin", type=float, default=DEFAULT_MARGIN, help="the equivalence margin")
    parser.add_argument("--formats", default="", help="TOON: only these formats (comma list; default: all six)")
    parser.add_argument("--stop-on", default=None, help="the comparisons to decide, as -T stop_on= (default: the "
                                                        "design's, else every pair)")
    parser.add_argument("--logs", metavar="DIR", help="replay the Inspect logs in DIR instead of TOON's answers")
    parser.add_argument("--per-question", action="store_true",
                        help="TOON: each question its own unit, as if questions were independent (TOON's are not: "
                             "they cluster in 13 datasets; this shows what a task whose questions are independent "
                             "saves)")
    args = parser.parse_args()
    if args.logs:
        models, what = samples_of_logs(Path(args.logs)), args.logs
    else:
        models, what = toon_models(args.formats, args.per_question), "TOON's answers"
        if not models:
            print(f"skipped: TOON's reference data is not at {TOON} (results/accuracy/models and "
                  "generated/questions.json)")
            return 0
    unit = "question" if args.per_question else "source item (cluster)"
    print(f"{what} replayed under -T stop=decided (margin ±{args.margin * 100:g} points, {args.orders} orders, "
          f"stop_on: {args.stop_on or 'default'}, formats: {args.formats or 'all'}; unit: {unit})")
    total_asked, total_budget = 0.0, 0
    for model, r in replay_all(models, args.orders, args.margin, args.stop_on).items():
        asked, budget, outcomes = r["asked"], int(r["budget"]), r["outcomes"]
        total_asked += statistics.mean(asked)
        total_budget += budget
        ends = Counter[str]()
        for (_, outcome), count in outcomes.items():
            ends[outcome] += count
        how = ", ".join(f"{k} {v / args.orders:.1f}" for k, v in sorted(ends.items()))
        print(f"  {model}: asked {statistics.mean(asked):.0f} of {budget} questions on average "
              f"(median {statistics.median(asked):.0f}, range {min(asked)}–{max(asked)}; ratio "
              f"{statistics.mean(asked) / budget:.2f}); comparisons per run: {how}")
    print(f"all models: {total_asked:.0f} of {total_budget} questions asked (ratio {total_asked / total_budget:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
