"""Report tables on small synthetic logs written with Inspect's public API: epochs, primer, money, judges, names."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalPlan, EvalSample, EvalSpec, EvalStats, write_eval_log
from inspect_ai.model import ModelOutput, ModelUsage
from inspect_ai.scorer import Score

from coonbench.report import ReportInputError, build_report, stats

pytestmark = pytest.mark.slow  # writes and reports on several logs: ~10 s each on a busy machine

MODEL = "test/model"


def _sample(sid: str, fmt: str, correct: float, tokens: int, epoch: int = 1, **meta: Any) -> EvalSample:
    extra = meta.pop("value", {})
    return EvalSample(
        id=sid, epoch=epoch, input="q", target="a", output=ModelOutput.from_content(model=MODEL, content="a"),
        scores={"answer_match": Score(value={"correct": correct, **extra})},
        metadata={"format": fmt, "category": meta.pop("category", "comprehension"), "question_type": "t",
                  "complexity": "simple", "input_tokens": tokens, **meta},
        model_usage={MODEL: ModelUsage(input_tokens=tokens, output_tokens=10, total_tokens=tokens + 10)},
        total_time=float(tokens) / 100, working_time=1.0,
    )


def _write(folder: Path, samples: list[EvalSample], name: str = "t", epochs: int = 1, solver: str | None = None,
           created: str = "2026-01-01T00:00:00+00:00", file: str | None = None, **eval_meta: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    log = EvalLog(
        status="success",
        eval=EvalSpec(created=created, task=name, model=MODEL, config=EvalConfig(epochs=epochs), solver=solver,
                      dataset=EvalDataset(name=name, samples=len(samples)), metadata=eval_meta or None),
        plan=EvalPlan(), stats=EvalStats(), samples=samples,
    )
    path = folder / f"{file or name}.eval"
    write_eval_log(log, str(path))
    return path


def _tables(out: Path) -> dict[str, list[dict[str, Any]]]:
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return {t["name"]: t["rows"] for s in doc["sections"] for t in s["tables"]}


def _findings(out: Path) -> list[str]:
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return [f for s in doc["sections"] for f in s["summary"] + s["findings"]]


def test_primer_tokens_and_break_even_with_any_naming(tmp_path: Path) -> None:
    # primer 500 tokens; the bare notation is 60% of the baseline → break-even 500 / (1 − 0.6) = 1250 tokens
    samples = []
    for q in range(6):
        base = 100 + 20 * q
        bare = int(base * 0.6)
        samples += [
            _sample(f"q{q}-dart", "dart", 1.0, base, sample_id=f"file{q % 2}"),
            _sample(f"q{q}-coon:noprimer", "coon:noprimer", 1.0, bare, sample_id=f"file{q % 2}"),
            _sample(f"q{q}-coon", "coon", 1.0, bare + 500, sample_id=f"file{q % 2}"),
        ]
    _write(tmp_path / "logs", samples)
    build_report([tmp_path / "logs"], tmp_path / "out")
    [row] = _tables(tmp_path / "out")["cost_primer"]
    assert (row["format"], row["without_primer"], row["baseline"]) == ("coon", "coon:noprimer", "dart")
    assert row["primer_tokens"] == 500
    ratio = sum(int((100 + 20 * q) * 0.6) for q in range(6)) / sum(100 + 20 * q for q in range(6))
    assert row["compression_ratio"] == pytest.approx(ratio)
    assert row["break_even_baseline_tokens"] == pytest.approx(500 / (1 - ratio))
    assert any("pays for itself on documents over" in f for f in _findings(tmp_path / "out"))
    summary = [f for f in _findings(tmp_path / "out") if "primer costs" in f]
    assert len(summary) == len(set(summary)) == 1  # one sentence per primer, never twice
    # pairs found across the ':' suffix: the comparison coon vs coon:noprimer has all 6 questions
    cmp = _tables(tmp_path / "out")["comprehension_comparisons"]
    assert all(r["pairs"] == 6 for r in cmp)


def test_epochs_give_consistency(tmp_path: Path) -> None:
    samples = []
    for q in range(4):
        for e in (1, 2, 3):
            # q0 always right, q1 always wrong, q2 right 2 of 3, q3 right 1 of 3
            right = [1.0, 0.0, float(e < 3), float(e == 1)][q]
            samples.append(_sample(f"q{q}-json", "json", right, 100, epoch=e, category="retrieval"))
    _write(tmp_path / "logs", samples, epochs=3)
    build_report([tmp_path / "logs"], tmp_path / "out")
    [row] = _tables(tmp_path / "out")["retrieval_consistency"]
    assert row["questions"] == 4 and row["epochs"] == 3
    assert row["mean_agreement"] == pytest.approx((1 + 1 + 2 / 3 + 2 / 3) / 4)
    assert row["mixed_share"] == pytest.approx(0.5)


def test_money_from_a_price_table(tmp_path: Path) -> None:
    samples = [_sample(f"q{q}-json", "json", float(q % 2), 1000, category="retrieval") for q in range(4)]
    _write(tmp_path / "logs", samples)
    prices = tmp_path / "prices.yaml"
    prices.write_text("model: {input: 2.0, output: 8.0}\n", encoding="utf-8")  # matched without the provider prefix
    build_report([tmp_path / "logs"], tmp_path / "out", prices=prices)
    [row] = _tables(tmp_path / "out")["cost_tokens"]
    usd = 4 * (1000 * 2.0 + 10 * 8.0) / 1e6
    assert row["usd_total"] == pytest.approx(usd)
    assert row["usd_per_correct"] == pytest.approx(usd / 2)
    assert row["latency_p50_s"] == pytest.approx(10.0)
    bad = tmp_path / "bad.yaml"
    bad.write_text("model: {input: 2.0}\n", encoding="utf-8")
    with pytest.raises(ReportInputError, match="needs 'input' and 'output'"):
        build_report([tmp_path / "logs"], tmp_path / "out2", prices=bad)


def test_judge_section_reports_each_judge_and_unscored(tmp_path: Path) -> None:
    samples = []
    for q in range(6):
        a, b = q / 5, (q / 5 if q != 3 else 0.1)
        value = {"judge:j1:combined": a, "judge:j2:combined": b, "combined": (a + b) / 2, "judges_ok": 2.0}
        samples.append(_sample(f"q{q}-json", "json", math.nan, 100, value=value, category="analysis"))
    _write(tmp_path / "logs", samples)
    build_report([tmp_path / "logs"], tmp_path / "out")
    rows = _tables(tmp_path / "out")["analysis_judges"]
    assert {r["judge"]: r["mean"] for r in rows} == {
        "j1": pytest.approx(sum(q / 5 for q in range(6)) / 6),
        "j2": pytest.approx((sum(q / 5 for q in range(6)) - 0.6 + 0.1) / 6),
    }
    finding = next(f for f in _findings(tmp_path / "out") if "judge(s)" in f)
    assert "unscored samples: 0" in finding and "α (interval): 0." in finding


def _small_run(folder: Path, model_answers: dict[str, list[float]], **kw: Any) -> None:
    """Five questions about two files, in each format: ``model_answers`` maps a format to its five answers."""
    samples = [_sample(f"q{q}-{fmt}", fmt, right, 100 + 50 * len(fmt), sample_id=f"file{q % 2}", pair_id=f"q{q}")
               for fmt, answers in model_answers.items() for q, right in enumerate(answers)]
    _write(folder, samples, **kw)


def test_gold_and_baselines_alone_say_no_model_is_under_test(tmp_path: Path) -> None:
    formats = ("coon", "dart")
    _small_run(tmp_path / "logs", {f: [1.0] * 5 for f in formats}, solver="coonbench/gold", file="gold")
    _small_run(tmp_path / "logs", {f: [0.0] * 5 for f in formats}, solver="coonbench/baseline_constant", file="floor")
    build_report([tmp_path / "logs"], tmp_path / "out")
    doc = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    [sec] = [s for s in doc["sections"] if s["id"] == "comprehension"]
    assert sec["headline"].startswith("No model under test") and "No verdicts" in sec["headline"]
    names = {t["name"] for t in sec["tables"]}
    assert "comprehension_verdict" not in names and "comprehension_comparisons" not in names
    md = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "most accurate" not in md.lower() and "success" not in md and "failure" not in md


def test_a_rerun_into_the_same_folder_is_counted_once_and_warned(tmp_path: Path) -> None:
    answers = {"coon": [1.0, 0.0, 1.0, 0.0, 0.0], "dart": [1.0, 1.0, 0.0, 0.0, 0.0]}
    _small_run(tmp_path / "logs", {f: [0.0] * 5 for f in answers}, created="2026-01-01T00:00:00+00:00", file="old")
    _small_run(tmp_path / "logs", answers, created="2026-01-02T00:00:00+00:00", file="new")
    paths = build_report([tmp_path / "logs"], tmp_path / "out")
    assert len(paths.warnings) == 1  # the command line prints it to stderr
    tables = _tables(tmp_path / "out")
    acc = {r["format"]: r for r in tables["comprehension_accuracy"]}
    assert {f: (acc[f]["n"], acc[f]["correct"]) for f in answers} == {f: (5, int(sum(a))) for f, a in answers.items()}
    [cmp] = tables["comprehension_comparisons"]
    assert cmp["pairs"] == 5
    assert {r["n"] for r in tables["cost_tokens"]} == {5}
    doc = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert len(doc["warnings"]) == 1 and "old.eval" in doc["warnings"][0] and "newest run is kept" in doc["warnings"][0]
    assert "Warning:" in (tmp_path / "out" / "report.md").read_text(encoding="utf-8")


def test_small_samples_read_sanely(tmp_path: Path) -> None:
    """README command 1's shape: 20 samples, 5 per format, 4 right in all."""
    answers = {"coon": [1.0, 0, 0, 0, 0], "coon-noprimer": [0.0] * 5, "dart": [1.0, 1, 0, 0, 0],
               "dart-minified": [0.0, 0, 1, 0, 0]}
    _small_run(tmp_path / "logs", answers)
    build_report([tmp_path / "logs"], tmp_path / "out")
    md = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "20.0% (" in md and "20 answers" in md  # overall: a percentage and its count, no fraction beside it
    rows = {r["format"]: r for r in _tables(tmp_path / "out")["comprehension_accuracy"]}
    # five questions from two files: two clusters, t on at most 1 df — as wide as that honestly is, and said so
    assert rows["dart"]["clusters"] == 2 and rows["dart"]["interval"] == stats.CLUSTER_WILSON
    assert 0 <= rows["dart"]["ci_low"] < 0.4 < rows["dart"]["ci_high"] <= 1
    assert "(2 clusters)" in md and "are few" in md
    assert rows["dart"]["acc_per_1k_tokens"] == pytest.approx(0.4 / rows["dart"]["input_tokens"] * 1000)
    for bad in ("+-", "| never |", "-0.0 ", "4/20"):
        assert bad not in md, bad
    assert not re.search(r"\bnan\b", md)
    for name, rows_ in _tables(tmp_path / "out").items():
        for row in rows_:
            for key, value in row.items():  # numeric columns hold numbers (or null), never words
                if key in {"ci_low", "ci_high", "diff", "diff_low", "diff_high", "eff_ratio_high", "mdd", "p_holm"}:
                    assert value is None or isinstance(value, (int, float)), (name, key, value)
    findings = _findings(tmp_path / "out")
    assert len(findings) == len(set(findings))


def test_correction_reports_first_attempt_against_after_feedback_and_the_sandbox(tmp_path: Path) -> None:
    first = [0.0, 0.0, 1.0, 0.0, 1.0, 0.0]
    final = [1.0, 1.0, 1.0, 0.0, 1.0, 1.0]
    samples = [_sample(f"p{i}", "python", f, 100, category="correction",
                       value={"first_attempt_success": a, "iterations": 1.0 + (a == 0)}, problem_id=f"p{i}")
               for i, (a, f) in enumerate(zip(first, final))]
    _write(tmp_path / "logs", samples, name="correction", sandbox="unsafe-local")
    build_report([tmp_path / "logs"], tmp_path / "out")
    [row] = _tables(tmp_path / "out")["correction_feedback"]
    assert (row["first_attempt"], row["after_feedback"]) == (pytest.approx(2 / 6), pytest.approx(5 / 6))
    assert (row["fixed"], row["broken"]) == (3, 0) and row["p_mcnemar"] == pytest.approx(0.25)  # 2·(1/2)³
    text = " ".join(_findings(tmp_path / "out"))
    assert "ungated: grading could be gamed" in text and "unsafe-local" in text


def test_one_source_item_is_flagged_and_the_header_does_not_claim_clustering(tmp_path: Path) -> None:
    """Retrieval at a small --limit draws every question from one dataset: no clustered interval exists."""
    samples = [_sample(f"q{q}-{fmt}", fmt, float((q + i) % 3 != 0), 100, category="retrieval", dataset="d0",
                       pair_id=f"q{q}") for q in range(12) for i, fmt in enumerate(("json", "toon"))]
    _write(tmp_path / "logs", samples)
    build_report([tmp_path / "logs"], tmp_path / "out")
    doc = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert doc["intervals"] == ["wilson, 1 cluster"]
    assert {r["interval"] for r in _tables(tmp_path / "out")["retrieval_accuracy"]} == {"wilson, 1 cluster"}
    [cmp] = _tables(tmp_path / "out")["retrieval_comparisons"]
    assert cmp["test"] == "exact McNemar, 1 cluster"
    md = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    provenance = md.split("## Provenance", 1)[1]
    methods = provenance.split("Accuracy intervals are 95%:")[1].split(". Formats")[0]
    assert "1 cluster" in methods and "cluster-robust" not in methods
    assert "clustered by" not in md and "one source item (dataset)" in md


def test_tokens_per_correct_answer_and_the_primers_share(tmp_path: Path) -> None:
    """Metadata primer_tokens where present; else the format plug-in's primer, counted with coonbench.tokens."""
    from coonbench.formats import get_format
    from coonbench.tokens import count_tokens

    samples = []
    for q in range(6):
        samples += [_sample(f"q{q}-dart", "dart", float(q % 2), 200, sample_id=f"f{q % 3}", pair_id=f"q{q}"),
                    _sample(f"q{q}-coon", "coon", float(q % 3 != 0), 700, sample_id=f"f{q % 3}", pair_id=f"q{q}",
                            primer=True, primer_tokens=588),
                    _sample(f"q{q}-coon-fullprimer", "coon-fullprimer", 1.0, 9000, sample_id=f"f{q % 3}",
                            pair_id=f"q{q}", primer=True)]
    _write(tmp_path / "logs", samples)
    build_report([tmp_path / "logs"], tmp_path / "out")
    rows = {r["format"]: r for r in _tables(tmp_path / "out")["cost_tokens"]}
    assert rows["coon"]["tokens_per_correct"] == pytest.approx(6 * (700 + 10) / 4)  # input + output ÷ correct
    assert rows["coon"]["primer_share"] == pytest.approx(588 / 700)
    assert rows["coon"]["primer_tokens_per_correct"] == pytest.approx(6 * 588 / 4)
    assert rows["dart"]["primer_share"] is None  # no primer metadata: unknown, not 0
    assert "unknown" in (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    plugin = count_tokens(get_format("coon").primer("full"))
    assert rows["coon-fullprimer"]["primer_share"] == pytest.approx(plugin / 9000)
    summary = " ".join(_findings(tmp_path / "out"))
    assert f"coon {6 * 710 / 4:,.0f} (primer 84%)" in summary


def test_sandbox_line_reads_the_recorded_mapping() -> None:
    """Eval metadata ``sandbox`` as coonbench.execution records it: {kind, gated, enforced}."""
    import pandas as pd

    from coonbench.report.correction import sandbox_line

    gated = json.dumps({"kind": "local", "gated": True, "enforced": "namespaces, cgroup"})
    ungated = json.dumps({"kind": "local", "gated": False, "warning": "x", "enforced": "nothing"})
    assert sandbox_line(pd.DataFrame({"sandbox": [gated]})) == "Sandbox: local (enforced: namespaces, cgroup)."
    assert sandbox_line(pd.DataFrame({"sandbox": [ungated]})).endswith("ungated: grading could be gamed.")
    assert "ungated" in sandbox_line(pd.DataFrame({"sandbox": [json.dumps({"kind": "unsafe-local"})]}))
    assert "do not say" in sandbox_line(pd.DataFrame({"sandbox": [""]}))


def test_import_toon_keeps_question_ids_and_datasets_and_names_a_bad_question_file(tmp_path: Path) -> None:
    from inspect_ai.log import read_eval_log

    from coonbench.report.import_toon import import_toon

    results = tmp_path / "results" / "m.json"
    results.parent.mkdir()
    calls = [{"questionId": f"q{i}", "format": f, "model": "m", "expected": "1", "actual": "1", "isCorrect": i % 2 == 0,
              "inputTokens": 100, "outputTokens": 3} for i in range(4) for f in ("toon", "json-pretty")]
    results.write_text(json.dumps(calls), encoding="utf-8")
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps([{"id": f"q{i}", "dataset": f"d{i // 2}", "type": "lookup"} for i in range(4)]),
                         encoding="utf-8")
    [log_path], warnings = import_toon(results, tmp_path / "logs", questions=questions)
    assert warnings == []
    log = read_eval_log(str(log_path))
    assert {(s.metadata["pair_id"], s.metadata["dataset"]) for s in log.samples or []} == {
        (f"q{i}", f"d{i // 2}") for i in range(4)}
    build_report([tmp_path / "logs"], tmp_path / "out")
    assert "clustered by dataset (2 clusters)" in " ".join(_findings(tmp_path / "out"))
    questions.write_text(json.dumps([{"id": "q0", "dataset": "d0", "type": "t"}, {"id": "q1", "type": "t"}]),
                         encoding="utf-8")
    with pytest.raises(ReportInputError, match=r"questions\.json: entry 1: missing or empty field\(s\) dataset"):
        import_toon(results, tmp_path / "logs2", questions=questions)
    _, warnings = import_toon(results, tmp_path / "logs3")  # no question file beside these results
    assert len(warnings) == 1 and "clusters by question" in warnings[0]
