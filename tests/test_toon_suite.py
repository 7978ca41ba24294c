"""TOON's published retrieval suite run unchanged (texts, primers, fences, options), ours beside it, gold 100%;
malformed suite files rejected naming file, entry and field."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from coonbench.datasets.retrieval import data_format_names
from coonbench.datasets.retrieval.suite import SuiteError, load_suite, suite_prompt, suite_samples
from coonbench.evals.retrieval import retrieval
from coonbench.solvers.gold import gold
from tests.conftest import reference_path


def _suite_dir() -> Path:
    return reference_path("toon", "generated")


@pytest.fixture(scope="module")
def suite_dir() -> Path:
    return _suite_dir()


def test_suite_texts_are_the_published_ones(suite_dir: Path) -> None:
    """Every suite sample shows exactly the encoded text, primer and fence from the suite files."""
    suite = load_suite(suite_dir)
    questions = json.loads((suite_dir / "questions.json").read_text())
    encoded = json.loads((suite_dir / "encoded.json").read_text())
    formats = json.loads((suite_dir / "formats.json").read_text())
    samples, skipped = suite_samples(suite)
    assert len(suite.questions) == len(questions) == 244
    expected = sum(len(encoded[q["dataset"]]) for q in questions)
    assert len(samples) == expected  # 244 × 5 + the CSV-eligible ones
    by_id = {s.id: s for s in samples}
    for q in questions:
        for fmt, text in encoded[q["dataset"]].items():
            s = by_id[f"{q['id']}-{fmt}"]
            assert f"```{formats[fmt]['fence']}\n{text}\n```" in s.input
            assert s.input.startswith(formats[fmt]["primer"] + "\n\n")
            assert f"Question: {q['prompt']}\n" in s.input and s.input.endswith("Answer:")
            assert s.target == q["groundTruth"]
            assert s.metadata["normalize_options"] == q.get("normalizationOptions")
            assert s.metadata["answer_type"] == q.get("answerType", "string")
        for fmt in set(formats) - set(encoded[q["dataset"]]):
            assert any(item["id"] == q["id"] for item in skipped[fmt])
    assert set(skipped) == {"csv"}


def test_prompt_layout_is_toons(suite_dir: Path) -> None:
    suite = load_suite(suite_dir)
    text = suite_prompt(suite.formats["toon"], "a: 1", "What is a?")
    assert text.splitlines()[2] == "Given the following data in toon format:"
    assert "yes/no" not in text  # TOON's prompt has no yes/no line (ours does)


def test_our_formats_run_beside_the_suite(suite_dir: Path) -> None:
    suite = load_suite(suite_dir)
    samples, skipped = suite_samples(suite, ["toon"], ["json", "csv"])
    ids = {s.id for s in samples}
    assert "q1-toon" in ids and "q1-coonbench-json" in ids
    ours_json = [s for s in samples if s.metadata["format"] == "coonbench-json"]
    assert len(ours_json) == 244 and all(s.metadata["text_source"] == "coonbench" for s in ours_json)
    # csv refuses nested datasets: skipped with the format's own reason, never silently
    assert skipped["coonbench-csv"] and all("CSV" in item["reason"] for item in skipped["coonbench-csv"])
    n_csv = sum(s.metadata["format"] == "coonbench-csv" for s in samples)
    assert n_csv + len(skipped["coonbench-csv"]) == 244
    # a declared corruption reaches our text: the truncated dataset shows 3 rows fewer in our JSON
    trunc = next(q for q in suite.questions if q.dataset == "structural-validation-truncated")
    (s,) = [s for s in samples if s.id == f"{trunc.id}-coonbench-json"]
    body = s.input.split("```json\n", 1)[1].split("\n```", 1)[0]
    assert len(json.loads(body)["employees"]) == 17


@pytest.mark.slow
def test_gold_scores_100_on_every_format(suite_dir: Path) -> None:
    ours = data_format_names()
    (log,) = inspect_eval(retrieval(suite=str(suite_dir), formats="all"), solver=gold(), model="mockllm/model",
                          display="none", log_dir="/tmp/coonbench-test-logs", max_samples=64)
    assert log.status == "success", log.error
    metrics = {k: m.value for score in log.results.scores for k, m in score.metrics.items()}
    suite_formats = json.loads((suite_dir / "formats.json").read_text())
    for fmt in [*suite_formats, *(f"coonbench-{f}" for f in ours)]:
        assert metrics[f"format/{fmt}"] == 1.0, fmt
    assert metrics["accuracy"] == 1.0
    skipped = log.eval.metadata["skipped"]
    n = log.results.total_samples
    assert n + sum(v["questions"] for v in skipped.values()) == 244 * (len(suite_formats) + len(ours))
    print(f"suite gold: {n} samples, accuracy {metrics['accuracy']}, skipped "
          f"{ {k: v['questions'] for k, v in skipped.items()} }")


def _copy(suite_dir: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "suite"
    shutil.copytree(suite_dir, dest)
    return dest


def _edit(path: Path, change) -> None:  # noqa: ANN001
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("file", "change", "needle"),
    [
        ("questions.json", lambda d: d[3].pop("groundTruth"), "entry #3 ('q4'): field 'groundTruth'"),
        ("questions.json", lambda d: d[5].update(dataset="nope"), "entry #5 ('q6'): field 'dataset'"),
        ("questions.json", lambda d: d[0].update(answerType="float"), "entry #0 ('q1'): field 'answerType'"),
        ("questions.json", lambda d: d[0].update(normalizationOptions={"decimals": 2}),
         "entry #0 ('q1'): field 'normalizationOptions'"),
        ("formats.json", lambda d: d["toon"].pop("primer"), "entry 'toon': field 'primer'"),
        ("datasets.json", lambda d: d[1].pop("data"), "entry #1 ('nested'): field 'data'"),
        ("encoded.json", lambda d: d["tabular"].update(toon=3), "entry 'tabular': field 'toon'"),
    ],
)
def test_malformed_suite_names_file_entry_field(suite_dir: Path, tmp_path: Path, file: str, change, needle: str) -> None:  # noqa: ANN001
    root = _copy(suite_dir, tmp_path)
    _edit(root / file, change)
    with pytest.raises(SuiteError) as err:
        load_suite(root)
    assert str(root / file) in str(err.value) and needle in str(err.value)


def test_missing_and_broken_files(suite_dir: Path, tmp_path: Path) -> None:
    root = _copy(suite_dir, tmp_path)
    (root / "formats.json").write_text("{not json")
    with pytest.raises(SuiteError, match=r"formats\.json:1: not valid JSON"):
        load_suite(root)
    (root / "formats.json").unlink()
    with pytest.raises(SuiteError, match=r"formats\.json: suite file missing"):
        load_suite(root)


def test_our_noprimer_condition_in_a_suite(suite_dir: Path) -> None:
    from coonbench.datasets.retrieval import parse_conditions

    samples, _ = suite_samples(load_suite(suite_dir), ["toon"], parse_conditions("markdown-kv:noprimer"))
    (s,) = [s for s in samples if s.id == "q1-coonbench-markdown-kv-noprimer"]
    assert s.input.startswith("Given the following data in markdown-kv format:\n\n```markdown\n")
