"""``coonbench/eval.yaml`` (the package's register listing, docs/register.md) lists exactly the tasks that the
per-task listings ``evals/<task>.eval.yaml`` list, with the same sizes (those ``tests/test_eval_yaml.py`` computes)."""

from __future__ import annotations

import yaml

from coonbench.resources import PACKAGE_DIR, REPO_ROOT


def _load(path):  # noqa: ANN001, ANN202
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), path
    return data


def test_the_package_listing_is_the_tasks_listings() -> None:
    package = _load(PACKAGE_DIR / "eval.yaml")
    for field in ("title", "description", "group", "contributors", "tasks"):  # inspect-evals-lint's eval_yaml rule
        assert package.get(field), field
    per_task = {t["name"]: t["dataset_samples"] for p in sorted((REPO_ROOT / "evals").glob("*.eval.yaml"))
                for t in _load(p)["tasks"]}
    assert {t["name"]: t["dataset_samples"] for t in package["tasks"]} == per_task
