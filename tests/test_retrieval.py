"""Retrieval datasets and questions: regeneration, ground truth, corruption per format, loader, gold run."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from coonbench.datasets.retrieval import (
    CORRUPTIONS,
    QUESTIONS_FILE,
    RETRIEVAL_DIR,
    QuestionsFileError,
    corrupt_encoded,
    generate_questions,
    render_files,
    retrieval_samples,
)
from coonbench.formats import FormatError, get_format
from coonbench.evals.retrieval import retrieval
from coonbench.solvers.gold import gold

ALL_FORMATS = "json,json-compact,toon,tealeaf,tealeaf-compact,yaml,xml,csv"


def _records() -> list[dict]:
    return [json.loads(line) for line in QUESTIONS_FILE.read_text().splitlines()]


def test_regeneration_is_byte_identical() -> None:
    files = render_files()
    for rel, text in files.items():
        assert (RETRIEVAL_DIR / rel).read_text(encoding="utf-8") == text, f"{rel} is stale: run --write"
    on_disk = {p.relative_to(RETRIEVAL_DIR).as_posix() for p in RETRIEVAL_DIR.rglob("*") if p.is_file()}
    assert on_disk == set(files)
    assert render_files() == files  # a second run in the same process is identical too


def test_question_counts_and_ids() -> None:
    records = _records()
    assert len(records) >= 250
    assert len({r["id"] for r in records}) == len(records)
    types = Counter(r["question_type"] for r in records)
    assert set(types) == {"field-retrieval", "aggregation", "filtering", "structure-awareness", "structural-validation"}
    datasets = {r["dataset"] for r in records}
    for name in ("employees", "orders", "analytics", "events", "config", "flags", "contacts", "finance", "retail",
                 "healthcare", "technology", "marketing", "logistics", "hr", "manufacturing", "real_estate", "legal"):
        assert f"datasets/{name}.json" in datasets


def test_questions_load_with_datasets_library() -> None:
    from datasets import load_dataset

    ds = load_dataset("json", data_files=str(QUESTIONS_FILE), split="train")
    assert len(ds) == len(_records())
    assert {"id", "dataset", "question", "answer", "answer_type"} <= set(ds.column_names)


def _data(record: dict) -> object:
    return json.loads((RETRIEVAL_DIR / record["dataset"]).read_text())


def test_ground_truth_recomputed_independently() -> None:
    """Re-derive answers of several question shapes straight from the data files."""
    checked = Counter()
    for r in _records():
        data = _data(r)
        q = r["question"]
        if r["question_type"] == "structure-awareness" and q.startswith("How many ") and q.endswith("in the dataset?"):
            (rows,) = data.values()
            assert r["answer"] == str(len(rows)), r["id"]
            checked["count"] += 1
        if r["dataset"] == "datasets/employees.json" and q.startswith("How many employees have department ") \
                and " and " not in q:
            dept = q.removeprefix("How many employees have department ").removesuffix("?")
            assert r["answer"] == str(sum(e["department"] == dept for e in data["employees"]))
            checked["dept"] += 1
        if "has the highest" in q:
            (rows,) = data.values()
            assert r["answer"] in {str(v) for row in rows for v in row.values()}
            checked["max"] += 1
        if r["dataset"] == "datasets/employees.json" and q.startswith("What is the salary of employee "):
            name = q.removeprefix("What is the salary of employee ").removesuffix("?")
            (emp,) = [e for e in data["employees"] if e["name"] == name]
            assert r["answer"] == str(emp["salary"])
            checked["salary"] += 1
    assert checked["count"] >= 15 and checked["max"] >= 10


def test_highest_questions_are_unambiguous() -> None:
    datasets, records = generate_questions()
    for r in records:
        if "has the highest" not in r["question"]:
            continue
        name = r["dataset"].removeprefix("datasets/").removesuffix(".json")
        (rows,) = datasets[name].values()
        id_field = r["question"].split("Answer with its ")[1].rstrip(".")
        (winner,) = [row for row in rows if str(row[id_field]) == r["answer"]]
        # the winner's numeric value is strictly larger than every other row's for some numeric field
        flat = [_flatten(row) for row in rows]
        best = _flatten(winner)
        numeric = [k for k, v in best.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
        assert any(all(f[k] < best[k] for f in flat if f != best) for k in numeric), r["id"]


def _flatten(row: dict, prefix: str = "") -> dict:
    out: dict = {}
    for k, v in row.items():
        if isinstance(v, dict):
            out.update(_flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


@pytest.fixture(scope="module")
def validation_data() -> dict:
    return json.loads((RETRIEVAL_DIR / "datasets" / "validation-1.json").read_text())


def test_corruptions_per_format(validation_data: dict) -> None:
    rows = validation_data["employees"]
    toon = get_format("toon")
    # control: every format decodes back to the data (csv: same rows)
    for fmt in ("json", "json-compact", "toon", "tealeaf", "tealeaf-compact", "yaml"):
        text = corrupt_encoded(validation_data, fmt, "none")
        assert get_format(fmt).decode(text) == validation_data, fmt
    # TOON declares [20]: truncated and extra rows are detectable by its strict decoder
    for corruption in ("truncated", "extra-rows", "width-mismatch", "missing-fields"):
        text = corrupt_encoded(validation_data, "toon", corruption)
        assert text.startswith(f"employees[{len(rows)}]"), corruption
        with pytest.raises(FormatError):
            toon.decode(text)
    # JSON shows the lossy-pipeline outcome: valid JSON with fewer/more rows or a missing key
    assert len(json.loads(corrupt_encoded(validation_data, "json", "truncated"))["employees"]) == len(rows) - 3
    assert len(json.loads(corrupt_encoded(validation_data, "json", "extra-rows"))["employees"]) == len(rows) + 3
    width = json.loads(corrupt_encoded(validation_data, "json", "width-mismatch"))["employees"]
    assert "salary" not in width[9] and all("salary" in r for i, r in enumerate(width) if i != 9)
    missing = json.loads(corrupt_encoded(validation_data, "json", "missing-fields"))["employees"]
    assert [i for i, r in enumerate(missing) if "email" not in r] == list(range(4, len(rows), 5))
    # CSV and TeaLeaf rows get narrower than their header / struct
    csv_lines = corrupt_encoded(validation_data, "csv", "width-mismatch").splitlines()
    assert csv_lines[10].count(",") == csv_lines[0].count(",") - 1
    for fmt in ("tealeaf", "tealeaf-compact"):
        text = corrupt_encoded(validation_data, fmt, "width-mismatch")
        assert text != corrupt_encoded(validation_data, fmt, "none")
        with pytest.raises(FormatError):
            get_format(fmt).decode(text)


def test_every_corruption_changes_every_format(validation_data: dict) -> None:
    for fmt in ALL_FORMATS.split(","):
        control = corrupt_encoded(validation_data, fmt, "none")
        for corruption in CORRUPTIONS[1:]:
            assert corrupt_encoded(validation_data, fmt, corruption) != control, (fmt, corruption)


def test_csv_only_on_flat_data() -> None:
    samples, skipped = retrieval_samples("json,csv")
    csv_ids = {s.metadata["pair_id"] for s in samples if s.metadata["format"] == "csv"}
    assert csv_ids and "csv" in skipped
    assert not csv_ids & set(skipped["csv"])
    assert any(i.startswith("orders-") for i in skipped["csv"])
    assert any(i.startswith("employees-") for i in csv_ids)


def test_sample_shape() -> None:
    samples, _ = retrieval_samples("toon")
    s = samples[0]
    assert s.id == f"retrieval-{s.metadata['pair_id']}-toon"
    assert s.metadata["category"] == "retrieval" and s.metadata["input_tokens"] > 0
    assert "```toon" in s.input and "Answer format requirements" in s.input


def test_gold_scores_one_on_every_format() -> None:
    formats = [f for f in ALL_FORMATS.split(",")]
    (log,) = inspect_eval(retrieval(formats=formats), solver=gold(), model="mockllm/model", display="none",
                          log_dir="/tmp/coonbench-test-logs")
    assert log.status == "success", log.error
    metrics = {k: m.value for score in log.results.scores for k, m in score.metrics.items()}
    assert metrics["accuracy"] == 1.0
    for fmt in formats:
        assert metrics[f"format/{fmt}"] == 1.0
    assert metrics["token_change/toon"] < 0 < metrics["token_change/xml"]


def _write_user_file(tmp_path: Path, lines: list[str]) -> Path:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "shop.json").write_text(json.dumps({"items": [{"name": "a", "qty": 2}, {"name": "b", "qty": 5}]}))
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_user_questions_file(tmp_path: Path) -> None:
    path = _write_user_file(tmp_path, [
        json.dumps({"id": "u1", "dataset": "data/shop.json", "question": "Total qty?", "answer": "7",
                    "answer_type": "integer"}),
        json.dumps({"id": "u2", "dataset": "data/shop.json", "question": "Names?", "answer": "a,b",
                    "answer_type": "csv-list-ordered"}),
    ])
    (log,) = inspect_eval(retrieval(formats="json,toon,csv", questions_file=str(path)), solver=gold(),
                          model="mockllm/model", display="none", log_dir="/tmp/coonbench-test-logs")
    assert log.status == "success" and log.results.total_samples == 6
    metrics = {k: m.value for score in log.results.scores for k, m in score.metrics.items()}
    assert metrics["accuracy"] == 1.0 and metrics["format/csv"] == 1.0


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ({"id": "u1", "dataset": "data/shop.json", "question": "q", "answer_type": "integer"}, "answer"),
        ({"id": "u1", "dataset": "data/nope.json", "question": "q", "answer": "1", "answer_type": "integer"}, "dataset"),
        ({"id": "u1", "dataset": "data/shop.json", "question": "q", "answer": "1", "answer_type": "float"}, "answer_type"),
        ({"dataset": "data/shop.json", "question": "q", "answer": "1", "answer_type": "integer"}, "id"),
    ],
)
def test_malformed_questions_file_names_file_line_field(tmp_path: Path, line: dict, field: str) -> None:
    good = json.dumps({"id": "u0", "dataset": "data/shop.json", "question": "q", "answer": "1", "answer_type": "integer"})
    path = _write_user_file(tmp_path, [good, json.dumps(line)])
    with pytest.raises(QuestionsFileError) as err:
        retrieval_samples("json", path)
    assert f"{path}:2:" in str(err.value) and f"'{field}'" in str(err.value)


def test_unknown_format_is_named() -> None:
    with pytest.raises(FormatError, match="unknown format 'jsonn'"):
        retrieval_samples("json,jsonn")
