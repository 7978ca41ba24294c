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
    assert "all: most accurate **toon** 72.2%" in md
