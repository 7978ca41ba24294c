"""The answer, honestly (issue 54): nothing dropped in silence, the design's question first, one tokenizer per
number, and the exact test beside each conclusion — checked on the published 1.5B comprehension logs and on
tampered copies of them written to a temporary folder (never committed)."""

from __future__ import annotations

import itertools
import json
import shutil
import uuid
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import read_eval_log, write_eval_log
from scipy import stats as scipy_stats
from statsmodels.stats.multitest import multipletests

from coonbench.cli import main
from coonbench.report import build_report, wording
from coonbench.report.render import TOKEN_COLUMNS, WARNINGS_TITLE

ROOT = Path(__file__).resolve().parents[1]
PUBLISHED = ROOT / "logs" / "published" / "qwen2.5-coder-1.5b" / "comprehension"
MODEL = "gguf/qwen2.5-coder-1.5b"

pytestmark = pytest.mark.slow  # four reports of the 1,000-sample published folder and its copies


def _logs() -> list[Path]:
    return sorted(PUBLISHED.glob("*.eval"))


def _model_logs() -> list[Path]:
    return [p for p in _logs() if not (read_eval_log(str(p), header_only=True).eval.solver or "").startswith(
        "coonbench/baseline_")]


def _doc(out: Path) -> dict[str, Any]:
    return json.loads((out / "report.json").read_text(encoding="utf-8"))


def _tables(out: Path) -> dict[str, list[dict[str, Any]]]:
    return {t["name"]: t["rows"] for s in _doc(out)["sections"] for t in s["tables"]}


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("published_report")
    build_report([PUBLISHED], out)
    return out


def _first_section(md: str) -> str:
    """report.md's first ``##`` section, up to the next."""
    parts = md.split("\n## ")
    return parts[1] if len(parts) > 1 else ""


def _copy_all(dest: Path) -> None:
    for p in _logs():
        shutil.copy(p, dest / p.name)


# ---- 1. nothing dropped silently ------------------------------------------------------------------------------

def test_published_logs_report_no_warnings(published: Path) -> None:
    """The untampered logs: every log succeeded and every sample is scored, so there is nothing to warn about and
    ``--strict`` passes (the tampered tests below therefore test the warnings, not noise)."""
    assert _doc(published)["warnings"] == []
    assert WARNINGS_TITLE not in (published / "report.md").read_text(encoding="utf-8")


def test_three_removed_scores_are_named_before_any_comparison(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    _copy_all(logs)
    [model] = [p for p in _model_logs() if any(s.metadata.get("format") == "dart" for s in read_eval_log(str(p)).samples)]
    log = read_eval_log(str(model))
    right = [s for s in log.samples if s.metadata["format"] == "dart"
             and next(iter(s.scores.values())).value["correct"] == 1.0][:3]
    assert len(right) == 3
    for s in right:
        s.scores = None
    write_eval_log(log, str(logs / model.name))
    out = tmp_path / "out"
    build_report([logs], out)
    warnings = _doc(out)["warnings"]
    said = [w for w in warnings if model.name in w and "carry no score" in w]
    assert said, warnings
    assert MODEL in said[0] and "3 sample(s) carry no score (dart 3)" in said[0]
    uneven = [w for w in warnings if "lost unevenly" in w and MODEL in w]
    assert uneven and "dart 3 of " in uneven[0] and "may be biased" in uneven[0]
    first = _first_section((out / "report.md").read_text(encoding="utf-8"))
    assert first.startswith(WARNINGS_TITLE)
    assert model.name in first and "dart 3" in first
    html = (out / "report.html").read_text(encoding="utf-8")
    assert html.index('id="warnings"') < html.index('class="headline"')
    # --strict: the same folder makes the command fail; the published one passes
    assert main(["report", str(logs), "-o", str(tmp_path / "strict"), "--strict"]) == 1
    assert main(["report", str(logs), "-o", str(tmp_path / "lenient")]) == 0


def test_an_error_log_missing_a_third_of_one_format_is_named(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    _copy_all(logs)
    [model] = [p for p in _model_logs() if any(s.metadata.get("format") == "coon" for s in read_eval_log(str(p)).samples)]
    log = read_eval_log(str(model))
    coon = [s for s in log.samples if s.metadata["format"] == "coon"]
    gone = {(s.id, s.epoch) for s in coon[: len(coon) // 3]}
    log.samples = [s for s in log.samples if (s.id, s.epoch) not in gone]
    log.status = "error"
    write_eval_log(log, str(logs / model.name))
    out = tmp_path / "out"
    build_report([logs], out)
    warnings = _doc(out)["warnings"]
    status = [w for w in warnings if model.name in w and "status error" in w]
    assert status, warnings
    assert MODEL in status[0] and f"{len(gone)} planned sample(s) missing (coon {len(gone)})" in status[0]
    uneven = [w for w in warnings if "lost unevenly" in w]
    assert uneven and f"coon {len(gone)} of {len(coon)} ({len(gone) / len(coon) * 100:.1f}%)" in uneven[0]
    first = _first_section((out / "report.md").read_text(encoding="utf-8"))
    assert model.name in first and "status error" in first


def test_two_runs_over_the_same_files_count_each_file_once(tmp_path: Path, published: Path) -> None:
    """The model's logs again under another task name (a held-out check run twice): the source files are the same,
    so the clusters of the pooled accuracy are as many as in one run, not twice as many."""
    logs = tmp_path / "logs"
    logs.mkdir()
    for path in _model_logs():
        log = read_eval_log(str(path))
        write_eval_log(log, str(logs / path.name))
        log.eval.task = "comprehension_again"
        log.eval.eval_id += "x"
        log.eval.task_id += "x"
        for sample in log.samples or []:  # another run: its own sample uuids (Inspect reads a uuid once)
            sample.uuid = uuid.uuid4().hex
        write_eval_log(log, str(logs / f"again-{path.name}"))
    out = tmp_path / "out"
    build_report([logs], out)
    once = {r["format"]: r["clusters"] for r in _tables(published)["comprehension_accuracy"] if r["system"] == MODEL}
    twice = {r["format"]: (r["clusters"], r["n"]) for r in _tables(out)["comprehension_accuracy"]
             if r["system"] == MODEL}
    assert {f: c for f, (c, _) in twice.items()} == once
    assert all(n == 300 for _, n in twice.values())  # both runs' answers counted, in the files' clusters


# ---- 2. the design's question first ---------------------------------------------------------------------------

def test_first_sentence_answers_coon_against_dart_with_its_verdict(published: Path) -> None:
    tables = _tables(published)
    [row] = [r for r in tables["comprehension_comparisons"] if r["system"] == MODEL
             and {r["format_a"], r["format_b"]} == {"coon", "dart"}]
    sign = 1 if row["format_a"] == "coon" else -1
    low, high = sorted((sign * row["diff_low"], sign * row["diff_high"]))
    [verdict] = [r for r in tables["comprehension_verdict"] if r["system"] == MODEL and r["format"] == "coon"]
    md = (published / "report.md").read_text(encoding="utf-8")
    headline = next(line for line in md.splitlines() if line.startswith("**"))
    first = headline.split(" — ")[0]
    assert first.startswith("**On 150 questions, qwen2.5-coder-1.5b, coon against its design's baseline dart: ")
    assert wording.interval(low, high) in first and wording.points(sign * row["diff"]) in first
    assert f"verdict is {verdict['verdict']}" in headline
    assert headline.index("design's baseline") < headline.index("cannot be told apart")
    html = (published / "report.html").read_text(encoding="utf-8")
    lead = html[html.index('<p class="headline">'):]
    lead = lead[: lead.index("</p>")]
    assert "against its design&#x27;s baseline dart" in lead and wording.interval(low, high) in lead
    assert f"<strong>{verdict['verdict']}</strong>" in lead
    plot = next(s for s in _doc(published)["sections"] if s["id"] == "comprehension")["plot_data"]
    assert wording.interval(low, high) in plot["comprehension_answer.png"]["design"]


def test_answer_figure_labels_never_overlap(published: Path) -> None:
    """Every text the answer figure draws (legend entries, ticks, axis labels, title) in its own box: dart and
    dart-minified cost and score alike, which labels at the points drew as "dart-minifiedart"."""
    from matplotlib.text import Text

    from coonbench.report.plots import answer_axes

    section = next(s for s in _doc(published)["sections"] if s["id"] == "comprehension")
    data = section["plot_data"]["comprehension_answer.png"]
    _no_overlap(answer_axes, data["points"], data["x_label"])
    # two formats at the very same cost and accuracy, as a tie in a small run draws them
    same = {"accuracy": 0.5, "ci_low": 0.4, "ci_high": 0.6, "x": 1000.0}
    _no_overlap(answer_axes, [{"format": "dart", **same}, {"format": "dart-minified", **same},
                              {"format": "coon", **same, "x": 2000.0}], "tokens")


def _no_overlap(answer_axes: Any, points: list[dict[str, Any]], x_label: str) -> None:
    from matplotlib.text import Text

    fig, _ = answer_axes(points, x_label, "comprehension: the answer")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    names = {t.get_text() for t in texts}
    assert {p["format"] for p in points} <= names, "every format is named"
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    for (a, ba), (b, bb) in itertools.combinations(boxes, 2):
        assert not ba.overlaps(bb), f"{a!r} and {b!r} overlap"


# ---- 3. one tokenizer per number ------------------------------------------------------------------------------

def test_no_table_mixes_tokenizers_or_systems(published: Path) -> None:
    """The published folder mixes the model (Qwen's tokenizer) and the floors (o200k): every table with a token
    figure names its system and tokenizer on each row, and no row with a token figure is in a mixed tokenizer."""
    for name, rows in _tables(published).items():
        tokened = [r for r in rows if any(isinstance(r.get(c), int | float) for c in TOKEN_COLUMNS)]
        if not tokened:
            continue
        assert all("system" in r and "tokenizer" in r for r in tokened), f"{name}: a token figure without its system"
        assert not [r for r in tokened if r["tokenizer"] == "mixed"], f"{name}: tokens of several tokenizers"


def test_primer_is_measured_within_the_model(published: Path) -> None:
    """cost_primer's model row pairs the model's 150 questions only and reports the primer its samples record."""
    primers = []
    for path in _model_logs():
        primers += [s.metadata["primer_tokens"] for s in read_eval_log(str(path)).samples
                    if s.metadata.get("format") == "coon" and s.metadata.get("primer_tokens")]
    [row] = [r for r in _tables(published)["cost_primer"] if r["system"] == MODEL and r["format"] == "coon"]
    assert row["pairs"] == len(primers) == 150
    assert row["primer_tokens"] == sorted(primers)[len(primers) // 2]


# ---- 5. robustness: the exact test beside each conclusion ------------------------------------------------------

def _mcnemar_holm() -> dict[tuple[str, str], float]:
    """Exact McNemar on the model's discordant pairs, counted from the logs with Inspect's reader, Holm-adjusted."""
    answers: dict[str, dict[str, float]] = {}
    for path in _model_logs():
        for s in read_eval_log(str(path)).samples:
            pair = s.metadata.get("pair_id") or s.id
            answers.setdefault(s.metadata["format"], {})[f"{pair}@{s.epoch}"] = \
                next(iter(s.scores.values())).value["correct"]
    pairs = list(itertools.combinations(sorted(answers), 2))
    ps = []
    for a, b in pairs:
        keys = answers[a].keys() & answers[b].keys()
        a_only = sum(answers[a][k] == 1 and answers[b][k] == 0 for k in keys)
        b_only = sum(answers[a][k] == 0 and answers[b][k] == 1 for k in keys)
        ps.append(scipy_stats.binomtest(a_only, a_only + b_only, 0.5).pvalue if a_only + b_only else 1.0)
    return dict(zip(pairs, multipletests(ps, method="holm")[1]))


def test_each_conclusion_shows_whether_the_exact_test_agrees(published: Path) -> None:
    expected = _mcnemar_holm()
    rows = [r for r in _tables(published)["comprehension_comparisons"] if r["system"] == MODEL]
    for r in rows:
        p = expected[tuple(sorted((r["format_a"], r["format_b"])))]
        assert r["p_exact_holm"] == pytest.approx(p, rel=1e-9)
        assert r["exact_test"] == ("agrees" if (r["p_holm"] < 0.05) == (p < 0.05) else "borderline")
    [coon_dart] = [r for r in rows if {r["format_a"], r["format_b"]} == {"coon", "dart"}]
    assert coon_dart["exact_test"] == "borderline" and coon_dart["p_holm"] < 0.05 <= coon_dart["p_exact_holm"]
    md = (published / "report.md").read_text(encoding="utf-8")
    headline = next(line for line in md.splitlines() if line.startswith("**"))
    assert "borderline: the exact McNemar test does not agree" in headline
