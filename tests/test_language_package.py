"""A language from outside: the example JavaScript package (``examples/coonbench-language-javascript``) is built,
installed into a fresh environment (``tests/plugin_install.py``, as the plug-in example is) and runs
comprehension there in its two formats; this process never imports it. Its README's commands run exactly as
written in a workspace of their own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from inspect_ai.log import EvalLog, read_eval_log

from coonbench.formats import FormatError, get_format
from coonbench.languages import UnknownLanguage, get_language
from coonbench.resources import REPO_ROOT
from tests.documented import commands_in
from tests.plugin_install import Installed, eval_installed, install_package, run_checked

PACKAGE = REPO_ROOT / "examples" / "coonbench-language-javascript"
FORMATS = ("javascript", "javascript-minified")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    pytest.importorskip("tree_sitter_javascript", reason="the example needs tree-sitter-javascript in this "
                        "environment (pip install tree-sitter-javascript, part of the dev extra)")
    return install_package(PACKAGE, tmp_path_factory.mktemp("jslang"))


def _check_gold(log: EvalLog) -> None:
    """Every question right in both formats, the same questions in each, fewer tokens minified."""
    assert log.status == "success", log.error
    assert log.samples is not None and log.results is not None
    formats = Counter(s.metadata["format"] for s in log.samples)
    assert set(formats) == set(FORMATS) and formats["javascript"] == formats["javascript-minified"] >= 30, formats
    ids = {f: {s.metadata["pair_id"] for s in log.samples if s.metadata["format"] == f} for f in FORMATS}
    assert ids["javascript"] == ids["javascript-minified"]
    metrics = {k: m.value for s in log.results.scores for k, m in s.metrics.items()}
    assert metrics["accuracy"] == 1.0 and all(metrics[f"format/{f}"] == 1.0 for f in FORMATS), metrics
    assert metrics["tokens/javascript-minified"] < metrics["tokens/javascript"]
    shown = next(s for s in log.samples if s.metadata["format"] == "javascript-minified")
    assert "```javascript" in str(shown.input) and "Flutter" not in str(shown.input)


def test_the_language_is_not_part_of_coonbench() -> None:
    with pytest.raises(UnknownLanguage):
        get_language("javascript")
    for name in FORMATS:
        with pytest.raises(FormatError, match="unknown format"):
            get_format(name)


def test_coonbench_lists_its_formats_there(installed: Installed) -> None:
    python, env = installed
    listing = run_checked([str(python), "-m", "coonbench.cli", "formats"], env).stdout
    rows = {line.split()[0]: line.split()[2] for line in listing.splitlines() if line.startswith("javascript")}
    assert rows == {"javascript": "(javascript)", "javascript-minified": "(javascript)"}, listing


def test_gold_scores_everything_in_both_formats(installed: Installed, tmp_path: Path) -> None:
    _check_gold(eval_installed(installed, tmp_path, "coonbench/comprehension", "-T", f"formats={','.join(FORMATS)}"))


def test_a_garbage_reply_scores_nothing(installed: Installed, tmp_path: Path) -> None:
    """mockllm's canned reply answers no question: INCORRECT with a reason, never a crash."""
    log = eval_installed(installed, tmp_path, "coonbench/comprehension", "-T", f"formats={','.join(FORMATS)}",
                         "--limit", "20", solver=None)
    assert log.status == "success" and log.samples and log.results is not None
    metrics = {k: m.value for s in log.results.scores for k, m in s.metrics.items()}
    assert metrics["accuracy"] == 0.0
    for sample in log.samples:
        [score] = sample.scores.values()  # type: ignore[union-attr]
        assert score.value["correct"] == 0.0 and score.explanation, sample.id  # type: ignore[index]


def test_the_readme_commands_run_as_written(installed: Installed, tmp_path: Path) -> None:
    """The README's commands, run as written from a workspace holding a copy of the package (so the build
    writes nothing in the checkout), with this environment's ``python`` and ``inspect`` first on PATH; then the
    manifest command it names, which must leave the shipped manifest as it is."""
    readme = PACKAGE / "README.md"
    commands = commands_in(readme)
    assert [c.text.split()[:3] for c in commands] == [["python", "-m", "pip"], ["PYTHONPATH=build/js-site", "inspect",
                                                                                 "eval"]]
    work = tmp_path / "work"
    shutil.copytree(PACKAGE, work / "examples" / PACKAGE.name,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    env = dict(installed[1])
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.pop("PYTHONPATH", None)  # the commands name what they need
    env.pop("INSPECT_LOG_DIR", None)  # a user's shell: the logs go to ./logs, where the test reads them
    for command in commands:
        done = subprocess.run(["bash", "-c", command.text], cwd=work, env=env, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, f"{command.id}: {command.text}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    [log_file] = sorted((work / "logs").glob("*.eval"))
    _check_gold(read_eval_log(str(log_file)))
    assert "python -m coonbench_javascript.manifest" in readme.read_text(encoding="utf-8")
    copy = work / "examples" / PACKAGE.name
    run_checked([sys.executable, "-m", "coonbench_javascript.manifest"], env, cwd=copy)
    manifest = Path("coonbench_javascript") / "corpus" / "manifest.json"
    assert (copy / manifest).read_bytes() == (PACKAGE / manifest).read_bytes()
