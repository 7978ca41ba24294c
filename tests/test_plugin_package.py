"""A third-party plug-in package, pip-installed into a temporary environment, runs in coonbench's tasks.

The package (``examples/coonbench-plugin-example``, copied to a temp folder so the build leaves nothing in the
repository) registers a ``kind="code"`` format and a ``kind="data"`` format through the ``coonbench.formats``
entry point, and a task + scorer through Inspect's ``inspect_ai`` entry point. It is installed with
``pip install --no-deps --no-build-isolation --no-index --target`` into a folder of its own
(``tests/plugin_install.py``) and driven through ``python -m inspect_ai``: comprehension and retrieval with the gold
solver must score 100% in the plug-in's formats, and its own task must run by name. This process never imports it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from coonbench.formats import FormatError, get_format
from coonbench.resources import REPO_ROOT
from tests.plugin_install import Installed, eval_installed, install_package

PLUGIN = REPO_ROOT / "examples" / "coonbench-plugin-example"
CODE_FORMAT, DATA_FORMAT = "example-reversed-dart", "example-sorted-json"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    return install_package(PLUGIN, tmp_path_factory.mktemp("plugin"))


def _eval(installed: Installed, log_dir: Path, *args: str) -> object:
    return eval_installed(installed, log_dir, *args)


def test_the_plugin_is_not_part_of_coonbench() -> None:
    for name in (CODE_FORMAT, DATA_FORMAT):
        with pytest.raises(FormatError, match="unknown format"):
            get_format(name)


def test_code_format_in_comprehension(installed: Installed, tmp_path: Path) -> None:
    log = _eval(installed, tmp_path, "evals/comprehension.py", "-T", f"formats={CODE_FORMAT},dart", "-T", "bands=simple")
    assert log.status == "success"  # type: ignore[attr-defined]
    formats = Counter(s.metadata["format"] for s in log.samples)  # type: ignore[attr-defined]
    assert set(formats) == {CODE_FORMAT, "dart"} and formats[CODE_FORMAT] == formats["dart"] > 0
    metrics = {k: m.value for s in log.results.scores for k, m in s.metrics.items()}  # type: ignore[attr-defined]
    assert metrics["accuracy"] == 1.0 and metrics[f"format/{CODE_FORMAT}"] == 1.0
    shown = next(s for s in log.samples if s.metadata["format"] == CODE_FORMAT)  # type: ignore[attr-defined]
    assert "```reversed-dart" in str(shown.input)


def test_data_format_in_retrieval(installed: Installed, tmp_path: Path) -> None:
    log = _eval(installed, tmp_path, "evals/retrieval.py", "-T", f"formats={DATA_FORMAT},json", "--limit", "60")
    assert log.status == "success"  # type: ignore[attr-defined]
    formats = Counter(s.metadata["format"] for s in log.samples)  # type: ignore[attr-defined]
    assert set(formats) == {DATA_FORMAT, "json"}
    assert all(s.scores["answer_match"].value["correct"] == 1.0 for s in log.samples)  # type: ignore[attr-defined]


def test_plugin_task_and_scorer_by_name(installed: Installed, tmp_path: Path) -> None:
    log = _eval(installed, tmp_path, "coonbench_example/lookup")
    assert log.status == "success" and len(log.samples) == 2  # type: ignore[attr-defined]
    [score] = log.results.scores  # type: ignore[attr-defined]
    assert score.name == "exact" and score.metrics["accuracy"].value == 1.0
