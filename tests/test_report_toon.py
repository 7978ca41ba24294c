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


def test_logs_are_inspect_logs_with_toon_ids_and_verdicts(toon_report: tuple[Path, Path, Path]) -> None:
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


def test_report_reproduces_published_accuracies(toon_report: tuple[Path, Path, Path]) -> None:
    results, _, out = toon_report
    pooled, per_model = published((results / "retrieval-accuracy.md").read_text(encoding="utf-8"))
    assert len(pooled) >= 5 and len(per_model) >= 20  # the parser found the tables
    rows = _tables(out)["retrieval_accuracy"]
    mine_pooled = {r["format"]: r["accuracy"] * 100 for r in rows if r["system"] == "all"}
    for fmt, pct in pooled.items():
        assert mine_pooled[fmt] == pytest.approx(pct, abs=0.1), fmt
    for (model, fmt), (pct, k, n) in per_model.items():
        row = next(r for r in rows if r["system"].startswith(f"toon/{model} ") and r["format"] == fmt)
        assert (row["correct"], row["n"]) == (k, n), (model, fmt)
        assert row["accuracy"] * 100 == pytest.approx(pct, abs=0.1)


def test_paired_mcnemar_toon_vs_json_is_reported_and_not_significant(toon_report: tuple[Path, Path, Path]) -> None:
    results, _, out = toon_report
    answers: dict[tuple[str, str], dict[str, bool]] = {}
    for path in (results / "accuracy" / "models").glob("*.json"):
        for rec in json.loads(path.read_text(encoding="utf-8")):
            answers.setdefault((rec["model"], rec["questionId"]), {})[rec["format"]] = bool(rec["isCorrect"])
    pairs = [a for a in answers.values() if "toon" in a and "json-pretty" in a]
    toon_only = sum(a["toon"] and not a["json-pretty"] for a in pairs)
    json_only = sum(a["json-pretty"] and not a["toon"] for a in pairs)
    hand = scipy_stats.binomtest(toon_only, toon_only + json_only, 0.5).pvalue
    row = next(r for r in _tables(out)["retrieval_comparisons"]
               if r["system"] == "all" and {r["format_a"], r["format_b"]} == {"toon", "json-pretty"})
    assert row["pairs"] == len(pairs)
    assert row["p_mcnemar"] == pytest.approx(hand)
    assert row["p_mcnemar"] > 0.05 and row["conclusion"] == "cannot tell apart"
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "all: toon vs json-pretty" in md and "cannot tell apart" in md  # baseline named second


def _raw(results: Path) -> list[dict[str, Any]]:
    return [rec for path in sorted((results / "accuracy" / "models").glob("*.json"))
            for rec in json.loads(path.read_text(encoding="utf-8"))]


def _summary(out: Path) -> str:
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return " ".join(next(s for s in doc["sections"] if s["id"] == "retrieval")["summary"])


def test_first_paragraph_gives_the_answer_with_cost_per_correct_answer(toon_report: tuple[Path, Path, Path]) -> None:
    """TOON and JSON cannot be told apart (p = 0.43); TOON beats JSON-compact; tokens per correct answer of each."""
    results, _, out = toon_report
    text = _summary(out)
    assert re.search(r"toon vs json-pretty: \+0\.8 points .*McNemar p = 0\.43, .* — cannot tell apart", text)
    assert re.search(r"toon beats json-compact \(\+3\.3 points, Holm p = 0\.0094\)", text)
    assert "4 model(s) under test" in text and "most accurate: **toon**" not in text.lower()
    spent: dict[str, float] = {}
    right: dict[str, int] = {}
    for rec in _raw(results):  # tokens per correct answer straight from TOON's files
        spent[rec["format"]] = spent.get(rec["format"], 0) + rec["inputTokens"] + rec["outputTokens"]
        right[rec["format"]] = right.get(rec["format"], 0) + bool(rec["isCorrect"])
    for fmt in ("toon", "json-pretty", "json-compact"):
        assert f"{fmt} {spent[fmt] / right[fmt]:,.0f}" in text, fmt


def test_no_most_accurate_on_a_tie_anywhere(toon_report: tuple[Path, Path, Path]) -> None:
    _, _, out = toon_report
    for row in _tables(out)["retrieval_comparisons"]:
        assert ("more accurate" in row["conclusion"]) == (row["p_holm"] < 0.05)
    for row in _tables(out)["retrieval_summary"]:
        assert row["rank"] != "best"  # no format is ahead of every other, for any model
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "▲" not in md.split("behind the leader")[-1]
    for line in md.splitlines():
        low = line.lower()
        if "most accurate" in low:
            assert "most accurate: cannot tell apart" in low, line
        if line.startswith("- ") and "more accurate" in low:  # a comparison's conclusion: Holm p < 0.05 in it
            p = re.search(r"Holm p = (< )?([\d.]+)", line)
            assert p is not None and (p.group(1) or float(p.group(2)) < 0.05), line


def test_verdict_for_a_format_on_fewer_questions_uses_the_shared_ones(toon_report: tuple[Path, Path, Path]) -> None:
    """claude-haiku's csv ran on 109 of json-pretty's 244 questions: the verdict compares those 109."""
    results, _, out = toon_report
    haiku = [r for r in _raw(results) if r["model"].startswith("claude-haiku")]
    csv = {r["questionId"]: bool(r["isCorrect"]) for r in haiku if r["format"] == "csv"}
    pretty = {r["questionId"]: bool(r["isCorrect"]) for r in haiku if r["format"] == "json-pretty"}
    shared = sorted(set(csv) & set(pretty))
    assert len(shared) == 109 and len(pretty) == 244
    row = next(r for r in _tables(out)["retrieval_verdict"] if r["system"].startswith("toon/claude-haiku")
               and r["format"] == "csv")
    assert row["pairs"] == 109 and row["baseline"] == "json-pretty"
    assert row["accuracy"] == pytest.approx(sum(csv[q] for q in shared) / 109)
    assert row["gap"] == pytest.approx(sum(pretty[q] - csv[q] for q in shared) / 109)
    assert "on the 109 questions both answered" in (out / "report.md").read_text(encoding="utf-8")
