"""``coonbench validate`` on a seeded sample of every task: the real scorers meet the goals (equivalent answers
CORRECT ≥ 99%, near misses and garbage INCORRECT 100%, no crash), and a scorer that does not is caught."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coonbench.cli import main
from coonbench.validity.families import EQUIVALENT, GARBAGE, NEAR_MISS
from coonbench.validity.run import GOALS, TaskResult, validate


def _assert_goals(results: list[TaskResult]) -> None:
    for r in results:
        bad = [(x.sample_id, x.variant, x.expected, x.got, x.explanation[:200]) for x in r.rows if not x.ok]
        assert r.goals_met(), (r.task, bad[:5])
        for family in (EQUIVALENT, NEAR_MISS, GARBAGE):
            assert r.rate(family)[1] > 0, f"{r.task}: no {family} variants"


@pytest.mark.slow  # an Inspect run of ~50 replies per task (CI runs slow tests too)
@pytest.mark.parametrize("task", ["comprehension", "structure", "retrieval"])
def test_exact_answer_tasks_meet_goals(task: str, tmp_path: Path) -> None:
    _assert_goals(validate([task], 3, tmp_path, progress=lambda m: None))


@pytest.mark.slow
@pytest.mark.parametrize("task", ["generation", "modification", "correction", "writing"])
def test_code_tasks_meet_goals(task: str, tmp_path: Path) -> None:
    _assert_goals(validate([task], 3, tmp_path, progress=lambda m: None))


def test_lenient_scorer_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A scorer that accepts everything misses the near-miss and garbage goals, and the CLI exits 1 with the
    failures listed (sample id and both texts)."""
    from coonbench.answers.normalize import AnswerCheck

    monkeypatch.setattr("coonbench.scorers.answer.check_answer", lambda *a, **k: AnswerCheck(True, True, "accepts anything"))
    code = main(["validate", "structure", "--limit-per-task", "2", "-o", str(tmp_path)])
    assert code == 1
    report = json.loads((tmp_path / "validity.json").read_text())
    assert report["summary"]["structure"]["goals_met"] is False
    assert report["summary"]["structure"]["near_miss"]["rate"] == 0.0
    failure = report["failures"][0]
    assert failure["sample_id"].startswith("structure-") and failure["reply"] is not None and failure["gold"]
    assert "## Failures" in (tmp_path / "validity.md").read_text()
    assert (tmp_path / "validity.csv").read_text().count("\n") > len(report["failures"])


def test_goals_are_the_issue_goals() -> None:
    assert GOALS == {EQUIVALENT: 0.99, NEAR_MISS: 1.0, GARBAGE: 1.0}

