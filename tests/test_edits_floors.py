"""Floors and scorer validity of the modification task's other sources (``-T source=edits``, ``-T turns=3``):
``benchmarks/baseline_floors.py`` measures gold and the trivial baselines per format and turn on them, and
``coonbench validate`` runs its answer families through the session and edit scorers."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from coonbench.resources import REPO_ROOT
from coonbench.validity.run import TASK_VARIANTS, TASKS, validate


def _floors():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("baseline_floors", REPO_ROOT / "benchmarks" / "baseline_floors.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _log(rows: list[tuple[str, dict[str, float]]]) -> SimpleNamespace:
    samples = [SimpleNamespace(metadata={"format": fmt}, scores={"session_check": SimpleNamespace(value=value)})
               for fmt, value in rows]
    return SimpleNamespace(samples=samples)


def test_variants_are_validated_and_floored_alike() -> None:
    floors = _floors()
    assert floors.VARIANTS is TASK_VARIANTS and set(TASK_VARIANTS) <= set(TASKS) and set(TASK_VARIANTS) <= set(floors.TASKS)
    assert floors.task_and_args("modification-edits-turns3") == ("modification", {
        "source": "edits", "turns": 3, "formats": "coon,dart,dart-minified"})
    assert floors.task_and_args("structure") == ("structure", {})
    assert "baseline_no_edit" in floors.BASELINES and floors.solver_for("gold") is not None


def test_per_format_means_by_turn() -> None:
    floors = _floors()
    log = _log([("coon", {"correct": 1.0, "graded": 0.5, "turn_1": 1.0, "turn_10": 0.0, "turn_2": 1.0}),
                ("coon", {"correct": 0.0, "graded": 0.0, "turn_1": 0.0, "turn_10": 0.0, "turn_2": 1.0}),
                ("dart", {"correct": 1.0, "graded": float("nan"), "tokens": 7.0})])
    means = floors.per_format(log)
    assert means == {"coon": {"correct": 0.5, "graded": 0.25, "turn_1": 0.5, "turn_10": 0.0, "turn_2": 1.0},
                     "dart": {"correct": 1.0}}
    [line] = floors.format_lines("x", "baseline_no_edit", log)  # dart has neither graded nor turns: no line
    assert line == "  x no_edit coon: exact  50.0%, graded  25.0%, turn 1  50.0%, turn 2 100.0%, turn 10   0.0%"


@pytest.mark.slow  # two Inspect runs of the mined three-turn sessions (about half a minute)
def test_floors_of_mined_sessions_per_format_and_turn() -> None:
    out = subprocess.run([sys.executable, str(REPO_ROOT / "benchmarks" / "baseline_floors.py"), "--limit", "3",
                          "--tasks", "modification-edits-turns3", "--baselines", "gold,baseline_no_edit"],
                         cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = re.findall(r"^  modification-edits-turns3 (gold|no_edit) (\S+): (.*)$", out.stdout, re.MULTILINE)
    assert {who for who, _, _ in lines} == {"gold", "no_edit"}, out.stdout
    for who, _, cells in lines:
        values = dict(re.findall(r"(exact|graded|turn \d+) +([\d.]+)%", cells))
        assert set(values) >= {"exact", "graded", "turn 1", "turn 2", "turn 3"}, cells
        assert {float(v) for v in values.values()} == ({100.0} if who == "gold" else {0.0}), (who, cells)


@pytest.mark.slow  # three datasets built, ~20 synthetic replies each through the real scorers (about a minute)
def test_edit_and_session_scorers_meet_the_validity_goals(tmp_path: Path) -> None:
    results = validate(list(TASK_VARIANTS), 1, tmp_path, progress=lambda m: None)
    for r in results:
        bad = [(x.sample_id, x.variant, x.expected, x.got, x.explanation[:200]) for x in r.rows if not x.ok]
        assert r.goals_met() and r.crashes == 0, (r.task, bad[:5])
        assert all(r.rate(family)[1] > 0 for family in ("equivalent", "near_miss", "garbage")), r.task
