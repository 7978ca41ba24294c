"""TOON's raw per-call results → Inspect logs → ``coonbench report`` reproduces TOON's published accuracies.

The published figures are parsed from TOON's own ``retrieval-accuracy.md``; the McNemar test is checked against the
binomial test on the discordant pairs counted straight from TOON's JSON files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import read_eval_log
from scipy import stats as scipy_stats

from coonbench.cli import main
from coonbench.report import stats
from coonbench.report.tables import UNDECIDABLE
from tests.conftest import reference_path

pytestmark = pytest.mark.slow  # 5,316 samples written and read back: tens of seconds

# TOON's display labels → their format ids (a label not listed is lower-cased, spaces as hyphens).
LABELS = {"JSON": "json-pretty"}
RANKING_LINE = re.compile(r"^(\S+(?: \S+)?)\s+█[█░]*\s+[\d.]+ acc%/1K tok\s+│\s+([\d.]+)%")
MODEL_LINE = re.compile(r"^(?:→ |  )(\S+(?: \S+)?)\s+[█░]+\s+([\d.]+)% ±[\d.]+ \((\d+)/(\d+)\)")


def _fmt(label: str) -> str:
    return LABELS.get(label, label.lower().replace(" ", "-"))


def published(md: str) -> tuple[dict[str, float], dict[tuple[str, str], tuple[float, int, int]]]:
    """(pooled accuracy % per format, {(model, format): (accuracy %, correct, total)}) from TOON's markdown."""
    pooled: dict[str, float] = {}
    per_model: dict[tuple[str, str], tuple[float, int, int]] = {}
    model = None
    for line in md.splitlines():
        if m := RANKING_LINE.match(line):
            pooled[_fmt(m.group(1))] = float(m.group(2))
        elif m := MODEL_LINE.match(line):
            assert model is not None
            per_model[(model, _fmt(m.group(1)))] = (float(m.group(2)), int(m.group(3)), int(m.group(4)))
        elif re.fullmatch(r"[a-z][\w.-]+", line.strip()):
            model = line.strip()
    return pooled, per_model


@pytest.fixture(scope="module")
def toon_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    results = reference_path("toon", "benchmarks", "results")
    logs = tmp_path_factory.mktemp("toon_logs")
    out = tmp_path_factory.mktemp("toon_report")
    assert main(["import-toon", str(results / "accuracy" / "models"), "-o", str(logs)]) == 0
    assert main(["report", str(logs), "-o", str(out)]) == 0
    return results, logs, out


def _tables(out: Path) -> dict[str, Any]:
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return {t["name"]: t["rows"] for s in doc["sections"] for t in s["tables"]}


def _questions(results: Path) -> dict[str, dict[str, Any]]:
    path = results.parent.parent / "generated" / "questions.json"
    return {q["id"]: q for q in json.loads(path.read_text(encoding="utf-8"))}


def _raw(results: Path) -> list[dict[str, Any]]:
    return [rec for path in sorted((results / "accuracy" / "models").glob("*.json"))
            for rec in json.loads(path.read_text(encoding="utf-8"))]


def _doc(out: Path) -> dict[str, Any]:
    return json.loads((out / "report.json").read_text(encoding="utf-8"))


def _section(out: Path) -> dict[str, Any]:
    return next(s for s in _doc(out)["sections"] if s["id"] == "retrieval")


MAIN = "244 questions"
CSV = "the 109 questions csv answered"


def test_logs_are_inspect_logs_with_toon_ids_datasets_and_verdicts(toon_report: tuple[Path, Path, Path]) -> None:
    results, logs, _ = toon_report
    files = sorted(logs.glob("*.eval"))
    models = sorted((results / "accuracy" / "models").glob("*.json"))
    assert len(files) == len(models)
    raw = json.loads(models[0].read_text(encoding="utf-8"))
    log = read_eval_log(str(next(f for f in files if models[0].stem in f.name)))
    assert log.status == "success" and len(log.samples or []) == len(raw)
    first = raw[0]
    sample = next(s for s in log.samples or [] if s.id == f"{first['questionId']}-{first['format']}")
    assert len({s.id for s in log.samples or []}) == len(raw)  # ids unique: question id + format
    assert sample.output.completion == first["actual"]
    assert sample.scores["toon_verdict"].value["correct"] == float(first["isCorrect"])  # type: ignore[index]
    questions = _questions(results)
    for s in log.samples or []:  # TOON's question ids and datasets, from its question file
        q = questions[s.metadata["pair_id"]]
        assert s.id == f"{q['id']}-{s.metadata['format']}"
        assert (s.metadata["dataset"], s.metadata["question_type"]) == (q["dataset"], q["type"])
        assert s.metadata["tokenizer"] == f"toon/{first['model']} (reported)"
    assert len({q["dataset"] for q in questions.values()}) == 13


def test_report_reproduces_published_accuracies(toon_report: tuple[Path, Path, Path]) -> None:
    """Each format on its own questions: csv's row is the 109-question block's, the others' the 244's."""
    results, _, out = toon_report
    pooled, per_model = published((results / "retrieval-accuracy.md").read_text(encoding="utf-8"))
    assert len(pooled) >= 5 and len(per_model) >= 20  # the parser found the tables
    rows = [r for r in _tables(out)["retrieval_accuracy"] if r["questions"] == (CSV if r["format"] == "csv" else MAIN)]
    mine_pooled = {r["format"]: r["accuracy"] * 100 for r in rows if r["system"] == "all"}
    for fmt, pct in pooled.items():
        assert mine_pooled[fmt] == pytest.approx(pct, abs=0.1), fmt
    for (model, fmt), (pct, k, n) in per_model.items():
        row = next(r for r in rows if r["system"].startswith(f"toon/{model} ") and r["format"] == fmt)
        assert (row["correct"], row["n"]) == (k, n), (model, fmt)
        assert row["accuracy"] * 100 == pytest.approx(pct, abs=0.1)


def test_intervals_reflect_the_13_datasets_and_the_report_says_so(toon_report: tuple[Path, Path, Path]) -> None:
    _, _, out = toon_report
    row = next(r for r in _tables(out)["retrieval_accuracy"]
               if r["system"] == "all" and r["format"] == "toon" and r["questions"] == MAIN)
    assert row["clusters"] == 13 and row["interval"] == stats.CLUSTER_WILSON
    assert row["ci_low"] <= 0.66 and row["ci_high"] >= 0.78  # not the 67.8–76.3% of independent answers
    sec = _section(out)
    assert "clustered by dataset (13 clusters)" in " ".join(sec["summary"])
    assert "13 clusters are few" in " ".join(sec["summary"])
    for cmp in _tables(out)["retrieval_comparisons"]:  # a cluster-robust test wherever answers vary
        assert cmp["test"] in (stats.TEST_CLUSTERED, stats.TEST_AGREE, stats.TEST_MCNEMAR_FLAT), cmp
        assert cmp["mdd"] is None or cmp["mdd"] > 0


def test_paired_toon_vs_json_is_reported_and_not_significant(toon_report: tuple[Path, Path, Path]) -> None:
    results, _, out = toon_report
    answers: dict[tuple[str, str], dict[str, bool]] = {}
    for rec in _raw(results):
        answers.setdefault((rec["model"], rec["questionId"]), {})[rec["format"]] = bool(rec["isCorrect"])
    pairs = [a for a in answers.values() if "toon" in a and "json-pretty" in a]
    toon_only = sum(a["toon"] and not a["json-pretty"] for a in pairs)
    json_only = sum(a["json-pretty"] and not a["toon"] for a in pairs)
    hand = scipy_stats.binomtest(toon_only, toon_only + json_only, 0.5).pvalue
    row = next(r for r in _tables(out)["retrieval_comparisons"] if r["system"] == "all" and r["questions"] == MAIN
               and {r["format_a"], r["format_b"]} == {"toon", "json-pretty"})
    assert row["pairs"] == len(pairs)
    assert row["p_mcnemar"] == pytest.approx(hand)  # kept for reference: it takes the pairs as independent
    assert row["p_value"] > 0.05 and row["conclusion"] == "cannot tell apart"
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "all: toon vs json-pretty" in md and "cannot tell apart" in md  # baseline named second


def test_the_answer_comes_first_and_cost_never_adds_tokenizers(toon_report: tuple[Path, Path, Path]) -> None:
    results, _, out = toon_report
    sec = _section(out)
    head = sec["headline"]
    assert head.startswith("On 244 questions, pooled over 4 models") and "cannot be told apart" in head
    assert "most accurate" not in head.lower() and "csv" not in head
    assert re.search(r"toon − json-pretty: \+0\.8 points, 95% CI", head)
    text = " ".join(sec["summary"])
    assert re.search(r"all: toon vs json-pretty: \+0\.8 points .* — cannot tell apart", text)
    assert "4 model(s) under test" in text and "never added across models" in text
    raw = _raw(results)
    summary = {(r["system"], r["format"]): r for r in _tables(out)["retrieval_summary"]}
    for model in sorted({r["model"] for r in raw}):
        system = f"toon/{model} [toon-benchmark]"
        for fmt in ("toon", "json-pretty", "json-compact"):
            mine = [r for r in raw if r["model"] == model and r["format"] == fmt]
            spent = sum(r["inputTokens"] + r["outputTokens"] for r in mine)
            assert summary[(system, fmt)]["tokens_per_correct"] == pytest.approx(spent / sum(r["isCorrect"] for r in mine))
            assert summary[(system, fmt)]["tokenizer"] == f"toon/{model} (reported)"
    assert summary[("all", "toon")]["tokens_per_correct"] is None and summary[("all", "toon")]["tokenizer"] == "mixed"
    cost = " ".join(next(s for s in _doc(out)["sections"] if s["id"] == "cost")["summary"])
    assert re.search(r"Output tokens: toon/grok-4\.5 \[toon-benchmark\] spends 479 per call", cost)


def test_csv_is_compared_only_on_its_109_questions(toon_report: tuple[Path, Path, Path]) -> None:
    results, _, out = toon_report
    tables = _tables(out)
    assert all(r["format"] != "csv" for r in tables["retrieval_summary"])
    assert {r["format"] for r in tables["retrieval_summary_csv"]} >= {"csv", "toon", "json-pretty"}
    lead = {t["name"]: t for t in _section(out)["tables"]}
    assert "109 questions" in lead["retrieval_summary_csv"]["caption"]
    for row in tables["retrieval_comparisons"]:
        assert ("csv" in (row["format_a"], row["format_b"])) <= (row["questions"] == CSV)
    haiku = [r for r in _raw(results) if r["model"].startswith("claude-haiku")]
    csv = {r["questionId"]: bool(r["isCorrect"]) for r in haiku if r["format"] == "csv"}
    pretty = {r["questionId"]: bool(r["isCorrect"]) for r in haiku if r["format"] == "json-pretty"}
    shared = sorted(set(csv) & set(pretty))
    assert len(shared) == 109 and len(pretty) == 244
    row = next(r for r in tables["retrieval_comparisons"] if r["system"].startswith("toon/claude-haiku")
               and {r["format_a"], r["format_b"]} == {"csv", "json-pretty"})
    acc = {row["format_a"]: row["acc_a"], row["format_b"]: row["acc_b"]}
    assert row["pairs"] == 109 and acc["csv"] == pytest.approx(sum(csv[q] for q in shared) / 109)
    assert acc["json-pretty"] == pytest.approx(sum(pretty[q] for q in shared) / 109)
    md = (out / "report.md").read_text(encoding="utf-8")
    for line in md.splitlines():  # every sentence or caption naming csv says on which questions
        if re.search(r"(?<![.\w])csv\b", line) and not line.startswith("|") and not line.startswith("!["):
            assert "109" in line, line


def test_no_verdicts_on_toons_formats_and_versions_stated(toon_report: tuple[Path, Path, Path]) -> None:
    from importlib.metadata import version

    _, _, out = toon_report
    assert "retrieval_verdict" not in _tables(out)
    md = (out / "report.md").read_text(encoding="utf-8")
    for word in ("**success**", "**partial**", "**failure**"):
        assert word not in md
    assert f"coonbench {version('coonbench')}" in md and f"inspect_ai {version('inspect_ai')}" in md
    assert "Command: `coonbench report" in md


def test_no_most_accurate_on_a_tie_and_the_forest_plot_agrees_with_the_table(
        toon_report: tuple[Path, Path, Path]) -> None:
    _, _, out = toon_report
    for row in _tables(out)["retrieval_comparisons"]:
        assert ("more accurate" in row["conclusion"]) == (row["p_holm"] < 0.05)
    md = (out / "report.md").read_text(encoding="utf-8")
    for line in md.splitlines():
        low = line.lower()
        assert not ("most accurate" in low and "cannot tell apart" in low), line
        if line.startswith("- ") and "more accurate" in low:  # a comparison's conclusion: Holm p < 0.05 in it
            p = re.search(r"Holm p = (< )?([\d.]+)", line)
            assert p is not None and (p.group(1) or float(p.group(2)) < 0.05), line
    sec = _section(out)
    forest = sec["plot_data"]["retrieval_forest.png"]
    table = [r for r in _tables(out)["retrieval_comparisons"] if r["system"] == forest["system"]
             and r["questions"] == forest["questions"]]
    assert forest["questions"] == MAIN and len(forest["points"]) == len(table) == 10
    for point in forest["points"]:
        row = next(r for r in table if {r["format_a"], r["format_b"]} == {point["format_a"], point["format_b"]})
        sign = 1 if row["format_a"] == point["format_a"] else -1
        assert point["diff"] == pytest.approx(sign * row["diff"]) and point["diff"] >= 0
        low, high = (row["diff_low"], row["diff_high"]) if sign == 1 else (-row["diff_high"], -row["diff_low"])
        assert (point["diff_low"], point["diff_high"]) == pytest.approx((low, high))


def test_one_holm_family_per_system_over_both_question_sets(toon_report: tuple[Path, Path, Path]) -> None:
    """The csv subset's 15 comparisons and the main set's 10 are one family per system (25, Holm over all of them),
    a csv comparison is "more accurate" only when it survives that corrected test, one with fewer than 2
    effective degrees of freedom says it cannot decide, and the fragile count the paragraph gives is the table's."""
    _, _, out = toon_report
    rows = _tables(out)["retrieval_comparisons"]
    for system in {r["system"] for r in rows}:
        mine = [r for r in rows if r["system"] == system]
        assert len(mine) == 25 and {r["family"] for r in mine} == {25}
        assert {r["questions"] for r in mine} == {MAIN, CSV}
        ps = [r["p_value"] for r in mine]
        for r in mine:  # Holm's step-down over all 25: the adjusted p is at least the raw p times its rank factor
            below = sum(p <= r["p_value"] for p in ps)
            assert r["p_holm"] >= min(1.0, (25 - below + 1) * r["p_value"]) - 1e-12
    for r in rows:
        if r["questions"] == CSV and "more accurate" in r["conclusion"]:
            assert r["p_holm"] < 0.05 and r["test"] == stats.TEST_CLUSTERED
        if r["test"] == stats.TEST_CLUSTERED:
            assert 0 < r["df"] < 12  # Imbens–Kolesár: below G − 1 on these uneven clusters
            assert (r["conclusion"] == UNDECIDABLE) == (r["df"] < stats.MIN_DF and r["p_holm"] >= 0.05)
    text = " ".join(_section(out)["summary"])
    fragile = sum(bool(r["fragile"]) for r in rows)
    said = re.search(r"(\d+) comparison\(s\) \(of (\d+) in the Holm family, every question set\) change", text)
    if fragile:
        assert said is not None and int(said.group(1)) == fragile and int(said.group(2)) == len(rows)
    else:
        assert "no comparison (of" in text
    assert "CR2" in text and "Imbens–Kolesár" in text


TOON_DIFF = re.compile(r"toon − json-pretty: ([+−-]\d+\.\d) points, 95% CI ([+−-]\d+\.\d) to ([+−-]\d+\.\d)")


def test_docs_quote_the_toon_difference_the_report_gives(toon_report: tuple[Path, Path, Path]) -> None:
    """README.md, docs/results.md and docs/report.md quote TOON's pooled toon − json-pretty difference and its
    95% interval: each quote is the report's comparison row, so a method change cannot leave a stale interval."""
    _, _, out = toon_report
    [row] = [r for r in _tables(out)["retrieval_comparisons"] if r["system"] == "all" and "csv" not in r["questions"]
             and {r["format_a"], r["format_b"]} == {"toon", "json-pretty"}]
    sign = 1 if row["format_a"] == "toon" else -1
    low, high = sorted((sign * row["diff_low"], sign * row["diff_high"]))
    want = tuple(f"{100 * v:+.1f}" for v in (sign * row["diff"], low, high))
    root = Path(__file__).resolve().parents[1]
    for doc in ("README.md", "docs/results.md", "docs/report.md"):
        quotes = TOON_DIFF.findall(" ".join((root / doc).read_text(encoding="utf-8").split()))
        assert quotes, f"{doc} quotes the toon − json-pretty difference"
        for quote in quotes:
            assert tuple(q.replace("−", "-") for q in quote) == want, f"{doc}: {quote} against the report's {want}"
