"""``coonbench mine-edits --language python`` on a history of real Python (the running interpreter's own
``colorsys``, PSF), built here so that what each commit does is known by construction: the real edit is kept, and a
consistent rename, a comment-only change and a version bump are left out with their reasons. The mined edits then
run in the modification task in each Python format: the gold reply (the file after the commit) scores 100%, the
unchanged file 0%, and the prompt calls the file one of a Python project."""

from __future__ import annotations

import colorsys
import inspect
import json
import os
import subprocess
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from coonbench.cli import main
from coonbench.datasets.edits.store import read_edits
from coonbench.evals.modification import modification
from coonbench.languages import get_language
from coonbench.solvers.baselines import baseline_no_edit
from coonbench.solvers.gold import gold

SOURCE = Path(inspect.getsourcefile(colorsys) or "")
PSF = SOURCE.parent / "LICENSE.txt"
"""CPython's licence, beside its standard library (PSF-2.0, whose history section names the GPL)."""
REAL = SOURCE.read_text(encoding="utf-8") + '\n__version__ = "1.0"\n'
EDITED = REAL.replace("TWO_THIRD = 2.0/3.0\n", "TWO_THIRD = 2.0/3.0\nONE_HALF = 0.5\n").replace(
    "    if hue < 0.5:", "    if hue < ONE_HALF:")
RENAMED = EDITED.replace("_v(", "_value(")
COMMENTED = RENAMED.replace("ONE_SIXTH = 1.0/6.0", "ONE_SIXTH = 1.0/6.0  # a sixth of the hue circle")
BUMPED = COMMENTED.replace('__version__ = "1.0"', '__version__ = "1.1"')
FORMATS = "python,python-minified,python-json-ast"


def _git(repo: Path, *args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env=None if env is None else {**os.environ, **env})


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not PSF.is_file():
        pytest.skip(f"this Python ships no licence file beside its standard library ({PSF})")
    repo = tmp_path_factory.mktemp("pyrepo")
    (repo / "LICENSE").write_text(PSF.read_text(encoding="utf-8"), encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")
    steps = [("Import colorsys", REAL), ("Add ONE_HALF and use it in _v", EDITED), ("Rename _v to _value", RENAMED),
             ("Add a comment on ONE_SIXTH", COMMENTED), ("Update __version__ to 1.1", BUMPED)]
    for day, (subject, text) in enumerate(steps, start=1):
        (repo / "colorsys.py").write_text(text, encoding="utf-8")
        _git(repo, "add", "-A")
        date = f"2024-02-{day:02d}T12:00:00+00:00"
        _git(repo, "commit", "-q", "-m", subject, env={"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date})
    out = tmp_path_factory.mktemp("mined")
    assert main(["mine-edits", str(repo), "--language", "python", "-o", str(out)]) == 0
    return out


def test_the_real_edit_is_kept_and_renames_comments_and_bumps_are_not(mined: Path) -> None:
    [edit] = read_edits(mined)
    assert edit.licence == "PSF-2.0"
    assert (edit.path, edit.before, edit.after, edit.instruction) == ("colorsys.py", REAL, EDITED,
                                                                      "Add ONE_HALF and use it in _v.")
    python = get_language("python")
    assert python.is_pure_rename(EDITED, RENAMED) and not python.is_pure_rename(REAL, EDITED)
    assert not python.is_pure_rename(EDITED, EDITED.replace("_v(m1, m2, h)", "_value(m1, m2, h)"))  # not every use
    assert not python.is_pure_rename(EDITED, EDITED.replace(" if ", " while ", 1))  # a keyword is no name


def test_an_unknown_language_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mine-edits", str(tmp_path), "--language", "cobol", "-o", str(tmp_path / "out")]) == 2
    assert "unknown language 'cobol'" in capsys.readouterr().err


@pytest.mark.slow
def test_mined_python_edits_run_in_every_python_format(mined: Path) -> None:
    task = modification(source="edits", edits=str(mined), input_format=FORMATS)
    [log] = inspect_eval(task, solver=gold(), model="mockllm/model", display="none")
    assert log.status == "success" and len(log.samples) == 3
    assert {s.metadata["format"] for s in log.samples} == set(FORMATS.split(","))
    assert all(next(iter(s.scores.values())).value["correct"] == 1.0 for s in log.samples)
    assert all("`colorsys.py` of a Python project" in str(s.input) for s in log.samples)
    [floor] = inspect_eval(task, solver=baseline_no_edit(), model="mockllm/model", display="none")
    assert all(next(iter(s.scores.values())).value["correct"] == 0.0 for s in floor.samples)
    assert json.dumps(log.samples[0].metadata["commit"])  # the commit it came from is named
