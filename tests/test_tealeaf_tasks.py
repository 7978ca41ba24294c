"""TeaLeaf task files loaded unchanged, analysis mode end to end, and TeaLeaf's heuristic rubric."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, get_model

from coonbench.datasets.retrieval import analysis_samples
from coonbench.resources import SHARED_DIR
from coonbench.tasks.tealeaf_files import TaskFileError, available_tasks, load_task_file
from coonbench.evals.retrieval import retrieval
from coonbench.scorers.expected_elements import rubric

TASKS = SHARED_DIR / "reference" / "tealeaf" / "tasks"


def _tasks_dir() -> Path:
    if not TASKS.exists():
        pytest.skip(f"{TASKS} absent")
    return TASKS


def test_synthetic_file_loads_unchanged() -> None:
    tasks = load_task_file(_tasks_dir() / "synthetic.json")
    assert [t.task.id for t in tasks][:2] == ["FIN-001", "FIN-002"]
    assert all(t.data_path is not None and t.data_path.is_file() for t in tasks)
    t = tasks[0].task
    assert t.max_tokens == 2048 and t.temperature == 0.3  # README defaults
    assert t.include_format_hint == {"tl": False, "json": False, "toon": False}  # extra field kept


def test_real_file_rejects_absent_data(caplog: pytest.LogCaptureFixture) -> None:
    tasks = load_task_file(_tasks_dir() / "real.json")
    with caplog.at_level(logging.WARNING):
        ok, rejected = available_tasks(tasks)
    assert {t.task.id for t in tasks} - {t.task.id for t in ok} == {"LEGAL-001", "LEGAL-002"}
    assert len(rejected) == 2 and all("wcca_cases.json" in m and "rejected" in m for m in rejected)
    assert "LEGAL-001" in caplog.text


def test_format_hint_only_where_opted_in() -> None:
    tasks = {t.task.id: t for t in load_task_file(_tasks_dir() / "real.json")}
    hinted = tasks["RE-001"].render("DATA", "TeaLeaf", "tl")
    assert hinted.startswith("Note: The data below uses TeaLeaf format") and "DATA" in hinted
    assert not tasks["RE-001"].render("DATA", "JSON", "json").startswith("Note:")
    assert not tasks["HR-001"].render("DATA", "TeaLeaf", "tl").startswith("Note:")


def test_render_every_format_with_display_name() -> None:
    samples, rejected = analysis_samples(_tasks_dir() / "synthetic.json", "json,toon,tealeaf-compact")
    assert not rejected and len(samples) == 9 * 3
    fin = {s.metadata["format"]: s for s in samples if s.metadata["task_id"] == "FIN-001"}
    assert "(provided in TeaLeaf format)" in fin["tealeaf-compact"].input
    assert "(provided in JSON format)" in fin["json"].input and "{data}" not in fin["json"].input
    assert "@struct" in fin["tealeaf-compact"].input
    assert fin["json"].metadata["generate_config"] == {"max_tokens": 2048, "temperature": 0.3}


def _bad_file(tmp_path: Path, mutate) -> Path:
    data = json.loads((_tasks_dir() / "synthetic.json").read_text())
    mutate(data)
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("mutate", "needle"),
    [
        (lambda d: d["tasks"][1].pop("prompt_template"), "task 'FIN-002' (tasks[1]): field 'prompt_template'"),
        (lambda d: d["tasks"][2].update(complexity="extreme"), "task 'RET-001' (tasks[2]): field 'complexity'"),
        (lambda d: d["tasks"][0]["expected_elements"][1].update(validation_pattern="(["),
         "task 'FIN-001' (tasks[0]): field 'expected_elements.1.validation_pattern'"),
        (lambda d: d["tasks"][3].update(max_tokens="lots"), "task 'RET-002' (tasks[3]): field 'max_tokens'"),
        (lambda d: d["tasks"][4].pop("id"), "task at tasks[4] (no id): field 'id'"),
    ],
)
def test_malformed_task_file_names_file_task_and_field(tmp_path: Path, mutate, needle: str) -> None:
    path = _bad_file(tmp_path, mutate)
    with pytest.raises(TaskFileError) as err:
        load_task_file(path)
    assert str(path) in str(err.value) and needle in str(err.value)


def test_synthetic_runs_with_mockllm() -> None:
    tasks_file = _tasks_dir() / "synthetic.json"
    (log,) = inspect_eval(retrieval(tasks_file=str(tasks_file), formats="json,toon,tealeaf-compact"),
                          model="mockllm/model", limit=6, display="none", log_dir="/tmp/coonbench-test-logs")
    assert log.status == "success", log.error
    metrics = {k: m.value for score in log.results.scores for k, m in score.metrics.items()}
    assert "composite/json" in metrics and "token_change/toon" in metrics


def test_real_runs_without_rejected_tasks() -> None:
    tasks_file = _tasks_dir() / "real.json"
    answer = "## Results\n\n- Total: $1,234\n\n1. First\n2. Second\n3. Third"
    model = get_model("mockllm/model", custom_outputs=lambda *_: ModelOutput.from_content("mockllm/model", answer))
    (log,) = inspect_eval(retrieval(tasks_file=str(tasks_file), formats="json,toon"), model=model, limit=2,
                          display="none", log_dir="/tmp/coonbench-test-logs")
    assert log.status == "success", log.error
    ids = {s.id for s in (log.samples or [])}
    assert ids and not any("LEGAL" in i for i in ids)


def test_rubric_on_hand_made_answer() -> None:
    elements = [
        {"element_type": "metric", "description": "Total revenue calculation", "validation_pattern": r"\$[\d,]+"},
        {"element_type": "metric", "description": "Gross profit margin"},
        {"element_type": "analysis", "description": "Churn risk", "validation_pattern": r"\d+%"},
    ]
    answer = "## Summary\n\nTotal revenue was $1,200.\n\n- Gross figures look fine.\n\nWe recommend you should act."
    r = rubric(answer, elements, "recommendation")
    # element 1: pattern matches; element 2: "Gross" (>3 bytes) present; element 3: no "\d+%" → 2/3
    assert r["completeness"] == pytest.approx(2 / 3)
    # long words (> 3 bytes): Total revenue calculation Gross profit margin Churn risk → found: total, revenue,
    # gross → 3/8
    assert r["relevance"] == pytest.approx(3 / 8)
    # markers present: "##", "- " → 2/7; paragraphs: 4 ≥ 3 → +0.15; 17 words < 100 → +0
    assert r["coherence"] == pytest.approx(0.5 + 0.2 * 2 / 7 + 0.15)
    assert r["factual_accuracy"] == pytest.approx(1 / 2)
    # recommend, should → 2/3 (action is not a substring of "act")
    assert r["actionability"] == pytest.approx(2 / 3)
    expected = 0.25 * 2 / 3 + 0.25 * 3 / 8 + 0.20 * (0.5 + 0.2 * 2 / 7 + 0.15) + 0.20 * 0.5 + 0.10 * 2 / 3
    assert r["composite"] == pytest.approx(expected)
    assert rubric(answer, elements, "analysis")["actionability"] == 1.0
    assert rubric("", [], "summary")["completeness"] == 1.0
