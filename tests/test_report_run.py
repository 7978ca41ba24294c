"""``coonbench report`` end to end: real Inspect runs of all six tasks (gold) and a scripted model of known accuracy."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import ModelOutput, get_model

from coonbench.cli import main
from coonbench.evals.comprehension import comprehension
from coonbench.evals.correction import correction
from coonbench.evals.generation import generation
from coonbench.evals.modification import modification
from coonbench.evals.retrieval import retrieval
from coonbench.evals.structure import structure
from coonbench.solvers.gold import gold

pytestmark = pytest.mark.slow  # six real Inspect runs and a report: tens of seconds on a busy machine

LIMIT = 24
WRONG = "zzz-not-an-answer"


def _right(index: int, fmt: str) -> bool:
    """The scripted model's rule: which samples it answers correctly (by position and format)."""
    pair = index // 2  # the dataset alternates formats question by question
    return pair % 3 != 0 if fmt == "json" else pair % 2 == 0


@pytest.fixture(scope="module")
def scripted_task() -> tuple[Any, dict[str, int], dict[str, int]]:
    task = retrieval(formats="json,toon")
    samples = list(task.dataset)[:LIMIT]
    by_prompt = {str(s.input): (i, s) for i, s in enumerate(samples)}
    right: dict[str, int] = {}
    total: dict[str, int] = {}
    for i, s in enumerate(samples):
        fmt = s.metadata["format"]
        total[fmt] = total.get(fmt, 0) + 1
        right[fmt] = right.get(fmt, 0) + int(_right(i, fmt))

    def respond(messages, tools, tool_choice, config):  # type: ignore[no-untyped-def]
        i, s = by_prompt[messages[-1].text]
        reply = str(s.target) if _right(i, s.metadata["format"]) else WRONG
        return ModelOutput.from_content(model="mockllm/model", content=reply)

    task.scripted = respond  # type: ignore[attr-defined]
    return task, right, total


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory, scripted_task: Any) -> Path:
    folder = tmp_path_factory.mktemp("logs")
    tasks = [comprehension(), structure(), generation(), modification(), retrieval(), correction()]
    results = inspect_eval(tasks, model="mockllm/model", solver=gold(), limit=4, log_dir=str(folder), display="none")
    assert all(r.status == "success" for r in results), [r.error for r in results]
    task, _, _ = scripted_task
    model = get_model("mockllm/model", custom_outputs=task.scripted, memoize=False)
    [log] = inspect_eval(task, model=model, limit=LIMIT, log_dir=str(folder), display="none")
    assert log.status == "success", log.error
    return folder


@pytest.fixture(scope="module")
def report(logs: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("report")
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["report", str(logs), "-o", str(out)])
    assert code == 0
    return out, buf.getvalue()


def _json(out: Path) -> dict[str, Any]:
    return json.loads((out / "report.json").read_text(encoding="utf-8"))


def test_every_file_is_written_and_paths_printed(report: tuple[Path, str]) -> None:
    out, printed = report
    for name in ("report.md", "report.html", "report.json"):
        assert (out / name).stat().st_size > 0
    assert str(out / "report.md") in printed and str(out / "report.html") in printed
    doc = _json(out)
    assert doc["schema_version"] == 3
    assert set(doc["categories"]) == {"comprehension", "structure", "generation", "modification", "retrieval", "correction"}
    ids = {s["id"] for s in doc["sections"]}
    assert {"comprehension", "structure", "retrieval", "generation_code", "modification_code",
            "correction_correction", "cost"} <= ids
    for sec in doc["sections"]:
        for table in sec["tables"]:
            with (out / table["csv"]).open(encoding="utf-8") as fh:
                rows = list(csv.DictReader(fh))
            assert len(rows) == len(table["rows"]) and list(rows[0]) == table["columns"] if rows else True
        for plot in sec["plots"]:
            assert (out / plot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert any(sec["plots"] for sec in doc["sections"])


def test_gold_scores_one_everywhere_and_scripted_system_is_its_own_row(report: tuple[Path, str]) -> None:
    doc = _json(report[0])
    systems = set(doc["systems"])
    assert "mockllm/model [coonbench/gold]" in systems and "mockllm/model" in systems
    tables = {t["name"]: t for s in doc["sections"] for t in s["tables"]}
    for name in ("comprehension_accuracy", "structure_accuracy"):
        assert all(r["accuracy"] == 1.0 for r in tables[name]["rows"])
    for name in ("generation_completion", "modification_completion", "correction_goth"):
        assert all(r["correct"] == 1.0 for r in tables[name]["rows"])


def test_k_right_of_n_gives_k_over_n_in_every_table(report: tuple[Path, str], scripted_task: Any) -> None:
    _, right, total = scripted_task
    doc = _json(report[0])
    tables = {t["name"]: t for s in doc["sections"] for t in s["tables"]}
    scripted = "mockllm/model"
    for name in ("retrieval_accuracy", "retrieval_summary"):
        rows = {r["format"]: r for r in tables[name]["rows"] if r["system"] == scripted}
        for fmt in right:
            assert (rows[fmt]["correct"], rows[fmt]["n"]) == (right[fmt], total[fmt])
            assert rows[fmt]["accuracy"] == pytest.approx(right[fmt] / total[fmt])
    by_type = [r for r in tables["retrieval_by_question_type"]["rows"] if r["system"] == scripted]
    for fmt in right:
        assert sum(r["correct"] for r in by_type if r["format"] == fmt) == right[fmt]
        assert sum(r["n"] for r in by_type if r["format"] == fmt) == total[fmt]
    cost = {r["format"]: r for r in tables["cost_tokens"]["rows"] if r["system"] == scripted}
    assert {f: cost[f]["correct"] for f in right} == right
    cmp = [r for r in tables["retrieval_comparisons"]["rows"] if r["system"] == scripted]
    row = next(r for r in cmp if {r["format_a"], r["format_b"]} == {"json", "toon"})
    acc = {row["format_a"]: row["acc_a"], row["format_b"]: row["acc_b"]}
    assert acc == {f: pytest.approx(right[f] / total[f]) for f in right}
    md = (report[0] / "report.md").read_text(encoding="utf-8")
    pct = f"{right['toon'] / total['toon'] * 100:.1f}%"
    assert re.search(rf"\| mockllm/model \| toon \| {total['toon']} \| {right['toon']} \| {re.escape(pct)} \|", md)


def _md_tables(md: str) -> list[tuple[list[str], list[list[str]]]]:
    tables, lines = [], md.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            head = [c.strip() for c in line.strip("|").split(" | ")]
            body = []
            for row in lines[i + 2:]:
                if not row.startswith("| "):
                    break
                body.append([c.strip() for c in row.strip("|").split(" | ")])
            tables.append((head, body))
    return tables


def test_gold_and_baselines_report_shows_percentages_throughout(logs: Path, tmp_path: Path) -> None:
    """The oracle's six tasks beside a constant-reply floor: every rate in every table reads as a percentage."""
    from coonbench.report import build_report, render
    from coonbench.solvers.baselines import baseline_constant

    [floor] = inspect_eval(comprehension(), model="mockllm/model", solver=baseline_constant(), limit=8,
                           log_dir=str(tmp_path / "floor"), display="none")
    assert floor.status == "success"
    gold = [p for p in logs.glob("*.eval") if read_eval_log(str(p), header_only=True).eval.solver]
    paths = build_report([*gold, tmp_path / "floor"], tmp_path / "out")
    md = paths.markdown.read_text(encoding="utf-8")
    rates = {render._label(c) for c in render.PERCENT_COLUMNS}
    checked = 0
    for head, body in _md_tables(md):
        for row in body:
            for label, cell in zip(head, row):
                if label in rates and cell not in ("–", "unknown") and not cell.isdigit():
                    assert cell.endswith("%"), (label, cell, head)
                    checked += 1
                assert not re.fullmatch(r"\d+/\d+", cell), (label, cell)  # no fraction beside a percentage
    assert checked > 20


def test_html_is_self_contained(report: tuple[Path, str]) -> None:
    text = (report[0] / "report.html").read_text(encoding="utf-8")
    assert "data:image/png;base64," in text
    assert "http://" not in text and "https://" not in text
    assert not re.search(r"""(src|href)\s*=\s*["']?//""", text)
    assert not re.search(r"""(src|href)\s*=\s*["'](?!data:)""", text)


def test_comparisons_not_verdicts_for_formats_without_thresholds(report: tuple[Path, str], scripted_task: Any) -> None:
    _, right, total = scripted_task
    doc = _json(report[0])
    sections = {s["id"]: s for s in doc["sections"]}
    # comprehension ran with the oracle only: no model under test, no verdict
    assert sections["comprehension"]["headline"].startswith("No model under test")
    assert "comprehension_verdict" not in {t["name"] for t in sections["comprehension"]["tables"]}
    # toon and json declare no design thresholds: compared, never judged
    assert "retrieval_verdict" not in {t["name"] for t in sections["retrieval"]["tables"]}
    assert not any(w in f for f in sections["retrieval"]["findings"] for w in ("**failure**", "**partial**", "**success**"))
    assert any("toon vs json" in f for f in sections["retrieval"]["findings"])
    summary = " ".join(sections["retrieval"]["summary"])
    assert "1 model(s) under test (mockllm/model)" in summary and "Tokens per correct answer" in summary
    # one tokenizer, named: mockllm's reported usage where it reports some, else the log's o200k counts
    assert re.search(r"Tokens per correct answer \(input \+ output, (o200k_base|mockllm/model \(reported\))\)", summary)
    cost = [f for s in doc["sections"] if s["id"] == "cost" for f in s["summary"]]
    assert any("primer costs" in f and "pays for itself" in f for f in cost)


def test_errors_are_one_line_with_nonzero_exit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(tmp_path), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert "no Inspect logs" in err and "\n" not in err
    bad = tmp_path / "broken.eval"
    bad.write_bytes(b"not a zip file")
    assert main(["report", str(bad), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert "broken.eval" in err and "unreadable" in err and "\n" not in err
