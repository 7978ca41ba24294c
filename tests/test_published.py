"""The published runs under logs/published/ and the figures docs/results.md and README.md give for them: every table marked
``<!-- published: FOLDER -->`` is recomputed here from the committed Inspect logs (read with Inspect's own reader,
not the report's), so the docs cannot drift from the data."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

ROOT = Path(__file__).resolve().parents[1]
DOCS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
"""Every page a user reads: a figure marked in any of them is checked against the logs (issue 54)."""
MARK = re.compile(r"<!-- published: (\S+) -->\n((?:\|.*\|\n)+)")


def _tables() -> list[tuple[str, list[list[str]]]]:
    out = []
    for folder, table in (found for doc in DOCS for found in MARK.findall(doc.read_text(encoding="utf-8"))):
        rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in table.strip().splitlines()]
        out.append((folder, [rows[0]] + rows[2:]))  # header, then the body (the --- row dropped)
    return out


def _system(log) -> str:  # noqa: ANN001 - an Inspect EvalLog
    solver = log.eval.solver or ""
    if solver.startswith("coonbench/baseline_"):
        return f"{solver.removeprefix('coonbench/')} (floor)"
    if solver == "coonbench/gold":
        return "gold (oracle)"
    return log.eval.model


def _counts(folder: Path) -> dict[str, dict[str, tuple[int, int]]]:
    """system -> format -> (correct, answers), straight from each sample's score."""
    counts: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    logs = sorted(folder.glob("*.eval"))
    assert logs, f"no published logs in {folder}"
    for path in logs:
        log = read_eval_log(str(path))
        assert log.status == "success", f"{path.name}: {log.status}"
        for sample in log.samples or []:
            value = next(iter(sample.scores.values())).value
            cell = counts[_system(log)][sample.metadata["format"]]
            cell[0] += int(value["correct"] == 1.0)
            cell[1] += 1
    return {s: {f: (c[0], c[1]) for f, c in by.items()} for s, by in counts.items()}


def test_results_has_published_tables() -> None:
    marked = {doc.name for doc in DOCS if MARK.search(doc.read_text(encoding="utf-8"))}
    assert {"results.md", "README.md"} <= marked, "docs/results.md and README.md each mark a published table"


@pytest.mark.parametrize(("folder", "rows"), _tables(), ids=[f"{i}-{t[0]}" for i, t in enumerate(_tables())])
def test_published_table_is_recomputed_from_its_logs(folder: str, rows: list[list[str]]) -> None:
    counts = _counts(ROOT / folder)
    header, body = rows[0], rows[1:]
    assert {r[0] for r in body} == set(counts), "the table's systems are the logs' systems"
    for row in body:
        for fmt, cell in zip(header[1:], row[1:]):
            correct, answers = counts[row[0]][fmt]
            assert cell == f"{correct}/{answers}", f"{row[0]} {fmt}: docs say {cell}, the logs {correct}/{answers}"


@pytest.mark.slow
def test_report_blocks_are_what_the_report_writes_from_the_logs(tmp_path: Path) -> None:
    """Every ``<!-- report: … -->`` block (intervals, paired differences, verdicts, token costs) equals the table that
    ``coonbench report`` writes from the committed logs today."""
    from coonbench.report.published import build_reports, marked_folders, refresh

    texts = {doc: doc.read_text(encoding="utf-8") for doc in DOCS}
    folders = marked_folders(texts.values())
    assert folders, "docs/results.md marks report tables of the published runs"
    reports = build_reports(ROOT, folders, tmp_path)
    for doc, text in texts.items():
        assert refresh(text, reports.__getitem__) == text, (
            f"{doc.name}: a report table differs from its logs (python -m coonbench.report.published --root . "
            f"{doc.relative_to(ROOT)} rewrites it)")


def test_report_block_rendering(tmp_path: Path) -> None:
    """The block renderer formats, filters and refuses a missing column (the slow test above relies on it)."""
    from coonbench.report.published import refresh, render_table

    table = tmp_path / "tables" / "t.csv"
    table.parent.mkdir()
    table.write_text("system,format,acc,low,high,diff\nm,coon,0.5,0.25,0.75,-0.125\nm,dart,,,,0.0\n"
                     "floor,coon,0.1,0,0.2,\n", encoding="utf-8")
    out = render_table(table, "format,acc+low+high:%,diff:pts", "system=m")
    assert out.splitlines() == ["| format | acc | diff |", "|---|---|---|", "| coon | 50.0% (25.0–75.0) | -12.5 |",
                                "| dart | – | +0.0 |"]
    doc = "x\n<!-- report: F t format,acc:% system=floor -->\n| stale |\n|---|\ny\n"
    assert refresh(doc, lambda folder: tmp_path) == (
        "x\n<!-- report: F t format,acc:% system=floor -->\n| format | acc |\n|---|---|\n| coon | 10.0% |\ny\n")
    for columns, where in (("nope", None), ("acc+low+nope:%", None), ("format", "nope=m")):
        with pytest.raises(ValueError, match="no column.*nope"):
            render_table(table, columns, where)


def test_a_folder_list_is_one_report_over_every_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``A,B`` in a marker is one report over both folders (criteria that pair runs of different folders)."""
    import coonbench.report
    from coonbench.report.published import build_reports

    calls: list[list[Path]] = []
    monkeypatch.setattr(coonbench.report, "build_report", lambda logs, out: calls.append(list(logs)))
    reports = build_reports(tmp_path, ["a", "b/c,d"], tmp_path / "scratch")
    assert calls == [[tmp_path / "a"], [tmp_path / "b/c", tmp_path / "d"]]
    assert len(set(reports.values())) == 2


JUDGES = re.compile(r"<!-- judges: (\S+) -->\n((?:\|.*\|\n)+)")


def test_judge_tables_are_the_committed_measurement() -> None:
    """docs/models.md's table of a local judge is ``coonbench validate --judges``' judges.json, committed beside the
    judge's own logs: every mode's counts, accuracy and κ interval."""
    import json

    text = (ROOT / "docs" / "models.md").read_text(encoding="utf-8")
    found = JUDGES.findall(text)
    assert found, "docs/models.md marks the Qwen judge table"
    for path, table in found:
        rows = {r["mode"]: r for r in json.loads((ROOT / path).read_text(encoding="utf-8"))["rows"]}
        assert list((ROOT / path).parent.glob("*judge-validity-*.eval")), "the judge's logs are committed with it"
        lines = [[c.strip() for c in line.strip().strip("|").split("|")] for line in table.strip().splitlines()][2:]
        assert {line[0] for line in lines} == set(rows)
        for mode, judged, unscored, accuracy, kappa in lines:
            r = rows[mode]
            low, high = (f"{v:.2f}".replace("-", "−") for v in r["kappa_ci"])
            assert (judged, unscored, accuracy) == (str(r["n"] - r["unscored"]), str(r["unscored"]), f"{r['accuracy']:.2f}")
            assert kappa == f"{r['kappa']:.2f} ({low} to {high})".replace("-", "−")


def test_report_values_in_sentences(tmp_path: Path) -> None:
    """A figure marked ``<!-- value: … -->`` in a sentence is rewritten from the one row its filter keeps, with a
    true minus sign; a filter that keeps no row or several is refused."""
    from coonbench.report.published import refresh, render_value

    table = tmp_path / "tables" / "t.csv"
    table.parent.mkdir()
    table.write_text("system,format,acc,diff,word\nm,coon,0.5,-0.125,missed\nm,dart,0.25,0.0,met\n"
                     "m [floor],xml,0.1,,\n", encoding="utf-8")
    assert render_value(table, "acc:%", "system=m%20[floor]") == "10.0%"
    doc = ("COON 9.9%<!-- value: F t acc:% system=m&format=coon --> (stale−1<!-- value: F t diff:pts format=coon -->"
           " points, open<!-- value: F t word format=dart -->).")
    assert refresh(doc, lambda folder: tmp_path) == (
        "COON 50.0%<!-- value: F t acc:% system=m&format=coon --> (−12.5<!-- value: F t diff:pts format=coon -->"
        " points, met<!-- value: F t word format=dart -->).")
    for where in ("system=m", "format=json"):
        with pytest.raises(ValueError, match="keeps [02] rows"):
            render_value(table, "acc:%", where)


def test_report_ranges_in_sentences(tmp_path: Path) -> None:
    """``<!-- range: … -->`` is the lowest to the highest cell of the rows kept (``;`` keeps either value), one
    figure when they agree; no row or an empty cell is refused rather than guessed."""
    from coonbench.report.published import refresh, render_range

    table = tmp_path / "tables" / "t.csv"
    table.parent.mkdir()
    table.write_text("system,format,acc,diff\nm,csv,0.2,-0.1\nm,toon,0.3,0.05\nm,xml,0.2,\nf,csv,0.1,\n"
                     "g,csv,0.1,\n", encoding="utf-8")
    assert render_range(table, "acc:%", "system=m") == "20.0–30.0%"
    assert render_range(table, "acc:%", "system=f;g") == "10.0%"
    assert render_range(table, "diff:pts", "system=m&format=csv;toon") == "−10.0–+5.0"
    doc = "at 1–2%<!-- range: F t acc:% system=m;f --> each"
    assert refresh(doc, lambda folder: tmp_path) == "at 10.0–30.0%<!-- range: F t acc:% system=m;f --> each"
    for where in ("system=nobody", "system=m"):
        with pytest.raises(ValueError, match="no range"):
            render_range(table, "diff:pts", where)


def test_run_time_stated_is_the_logs() -> None:
    """docs/results.md's time for the 150-question comprehension run: the model's samples' total_time summed and
    the log's start to end, both read from the committed log."""
    text = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    said = re.search(r"(\d+) answers took (\d+\.\d) minutes of sample time, (\d+\.\d) minutes from the log's start to "
                     r"its end", " ".join(text.split()))
    assert said, "docs/results.md states the comprehension run's time"
    logs = [read_eval_log(str(p)) for p in sorted((ROOT / "logs/published/qwen2.5-coder-1.5b/comprehension").glob("*.eval"))]
    [model] = [log for log in logs if not (log.eval.solver or "").startswith("coonbench/baseline_")]
    from datetime import datetime

    wall = datetime.fromisoformat(model.stats.completed_at) - datetime.fromisoformat(model.stats.started_at)
    assert int(said.group(1)) == len(model.samples)
    assert said.group(2) == f"{sum(s.total_time or 0 for s in model.samples) / 60:.1f}"
    assert said.group(3) == f"{wall.total_seconds() / 60:.1f}"
