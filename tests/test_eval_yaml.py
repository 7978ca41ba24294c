"""Every task has an inspect_evals-style ``evals/<task>.eval.yaml`` that names a registered task, and its
``dataset_samples`` is the size of the task's default dataset (computed here by building the dataset)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai._util.registry import registry_lookup  # noqa: PLC2701  (checked, not used to run)

import coonbench._registry  # noqa: F401 - registers every coonbench task
from coonbench.resources import REPO_ROOT

EVALS = REPO_ROOT / "evals"
REQUIRED: dict[str, type] = {"title": str, "description": str, "group": str, "contributors": list, "version": str,
                             "tasks": list, "tags": list, "metadata": dict}


def task_modules() -> list[Path]:
    """``evals/*.py`` files that define an ``@task`` (read with ``ast``, not imported)."""
    out = []
    for path in sorted(EVALS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(d, ast.Call) and getattr(d.func, "id", None) == "task"
               for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) for d in node.decorator_list):
            out.append(path)
    return out


def listing(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{path}: not a mapping"
    return data


YAMLS = sorted(EVALS.glob("*.eval.yaml"))


def test_every_task_module_has_a_listing_and_back() -> None:
    modules = {p.stem for p in task_modules()}
    listed = {p.name.removesuffix(".eval.yaml") for p in YAMLS}
    assert modules, "no task modules found"
    assert modules == listed, f"missing listings: {modules - listed}; listings without a task: {listed - modules}"


@pytest.mark.parametrize("path", YAMLS, ids=[p.name for p in YAMLS])
def test_listing_fields_and_registered_task(path: Path) -> None:
    data = listing(path)
    for key, kind in REQUIRED.items():
        assert isinstance(data.get(key), kind), f"{path.name}: field '{key}' missing or not a {kind.__name__}"
    assert re.fullmatch(r"\d+-[A-Z]", data["version"]), f"{path.name}: version like '1-A'"
    assert isinstance(data["metadata"].get("requires_internet"), bool)
    assert data["tasks"], f"{path.name}: no tasks"
    for entry in data["tasks"]:
        assert set(entry) >= {"name", "dataset_samples"}, entry
        assert isinstance(entry["dataset_samples"], int) and entry["dataset_samples"] > 0, entry
        assert registry_lookup("task", entry["name"]) is not None, f"{path.name}: {entry['name']} is not registered"
        assert entry["name"] == f"coonbench/{path.name.removesuffix('.eval.yaml')}"


@pytest.mark.slow
@pytest.mark.parametrize("path", YAMLS, ids=[p.name for p in YAMLS])
def test_dataset_samples_is_the_default_dataset_size(path: Path) -> None:
    """Builds each task with its defaults (tens of seconds for the code tasks) and counts its samples."""
    for entry in listing(path)["tasks"]:
        task = registry_lookup("task", entry["name"])()  # type: ignore[misc,operator]
        assert entry["dataset_samples"] == len(task.dataset), (
            f"{path.name}: dataset_samples {entry['dataset_samples']}, default dataset has {len(task.dataset)}")
