"""A report on anything (issue 54, item 7): ``coonbench report`` on any mix of tasks, formats, models and runs
writes a report or says why in one line, never a traceback; and the README's install reaches Inspect's API-key
check for the design card's hosted model."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from inspect_ai.log import read_eval_log, write_eval_log

from coonbench.report import ReportInputError, build_report

ROOT = Path(__file__).resolve().parents[1]
PUBLISHED = ROOT / "logs" / "published" / "qwen2.5-coder-1.5b"
INSPECT = Path(sys.executable).parent / "inspect"

pytestmark = pytest.mark.slow  # runs Inspect and builds a dozen reports


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(INSPECT), *args], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env=env, check=False)


@pytest.fixture(scope="module")
def two_format_retrieval(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A retrieval run in two formats only, by a model under test named as the 0.5B model's run is (mockllm's
    replies; the name sorts before the published 1.5B's, so the report speaks about it first)."""
    logs = tmp_path_factory.mktemp("retrieval_two")
    done = _run("eval", "evals/retrieval.py", "-T", "formats=csv,json", "--model", "mockllm/model",
                "--limit", "12", "--log-dir", str(logs), "--display", "none")
    assert done.returncode == 0, done.stdout + done.stderr
    [path] = list(logs.glob("*.eval"))
    log = read_eval_log(str(path))
    log.eval.model = "gguf/qwen2.5-coder-0.5b"
    write_eval_log(log, str(path))
    return path


def test_the_folder_that_crashed_writes_a_report(tmp_path: Path, two_format_retrieval: Path) -> None:
    """A two-format retrieval run beside the published retrieval and judge logs: `KeyError: 'csv'` in
    ``summary.subset_sentence`` before, a report now."""
    logs = tmp_path / "logs"
    shutil.copytree(PUBLISHED / "retrieval", logs / "retrieval")
    shutil.copytree(PUBLISHED / "judge", logs / "judge")
    shutil.copy(two_format_retrieval, logs / two_format_retrieval.name)
    paths = build_report([logs], tmp_path / "out")
    md = paths.markdown.read_text(encoding="utf-8")
    assert "## Retrieval: accuracy" in md and "qwen2.5-coder-0.5b" in md


def _variants(real: list[Path], generated: Path, scratch: Path) -> list[Path]:
    """Real logs, and copies changed the ways runs differ: another task name, a log that stopped with samples
    missing, samples without scores, a format renamed (each written once, under ``scratch``)."""
    rng = random.Random(54)
    out = list(real) + [generated]
    for i, path in enumerate([*real[:2], generated]):
        log = read_eval_log(str(path))
        kind = ("task", "error", "unscored", "format")[i % 4] if i < 3 else "format"
        for change in (kind, "format" if kind != "format" else "task"):
            copy = log.model_copy(deep=True)
            samples = copy.samples or []
            for s in samples:  # another run's samples: their own uuids (Inspect reads a uuid once)
                s.uuid = f"{change}{i}-{s.uuid}"
            if change == "task":
                copy.eval.task = f"{copy.eval.task}_heldout"
                copy.eval.eval_id += "h"
            elif change == "error":
                copy.status = "error"
                copy.samples = [s for s in samples if rng.random() < 0.6]
            elif change == "unscored":
                for s in samples:
                    if rng.random() < 0.3:
                        s.scores = None
            else:
                for s in samples:
                    if s.metadata.get("format") and rng.random() < 0.5:
                        s.metadata["format"] = f"{s.metadata['format']}-renamed"
                copy.eval.eval_id += "f"
            target = scratch / f"{change}-{i}-{path.name}"
            write_eval_log(copy, str(target))
            out.append(target)
    return out


@pytest.fixture(scope="module")
def candidates(tmp_path_factory: pytest.TempPathFactory, two_format_retrieval: Path) -> list[Path]:
    real = [sorted((PUBLISHED / task).glob("*.eval"))[0] for task in ("retrieval", "structure", "comprehension")]
    real += sorted((PUBLISHED / "judge").glob("*.eval"))[:1]
    return _variants(real, two_format_retrieval, tmp_path_factory.mktemp("variants"))


@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(picks=st.data())
def test_any_mix_of_logs_gives_a_report_or_one_line(candidates: list[Path], picks: st.DataObject) -> None:
    chosen = picks.draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=5, unique=True))
    with tempfile.TemporaryDirectory(prefix="mix-") as scratch:
        folder = Path(scratch) / "logs"
        folder.mkdir()
        for i, path in enumerate(chosen):
            shutil.copy(path, folder / f"{i}-{path.name}")
        try:
            paths = build_report([folder], Path(scratch) / "out")
        except ReportInputError as err:
            assert "\n" not in str(err)
            return
        assert paths.markdown.read_text(encoding="utf-8").startswith("# coonbench report")


def test_local_extra_installs_the_openai_client() -> None:
    """README command 1 installs ``.[local]``; Inspect's openai/ provider needs the ``openai`` package."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert 'pip install -e ".[local]"' in readme
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert any(req.split(">")[0].split("=")[0].strip() == "openai" for req in extras["local"])


def test_hosted_model_without_a_key_ends_in_one_line() -> None:
    """The design card's command after the install: Inspect's own message about the missing key, no traceback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    done = _run("eval", "evals/comprehension.py", "--model", "openai/gpt-4o", "--limit", "1", env=env)
    text = done.stdout + done.stderr
    assert done.returncode != 0
    assert "OPENAI_API_KEY" in text, text[-2000:]
    assert "requires optional dependencies" not in text and "Traceback" not in text, text[-2000:]
