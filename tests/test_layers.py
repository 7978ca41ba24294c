"""Layers point down: the import-linter contracts in pyproject.toml hold, and they do catch violations.

``lint-imports`` runs on the repository (must pass), then on a copy of the packages with deliberate violations
planted (a scorer importing a solver, a format importing a dataset loader, the core importing a task): each must
be reported, so a green run means something.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("coonbench", "evals", "solvers", "scorers")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    if not Path(exe).exists():
        pytest.skip("import-linter is not installed (pip install -e '.[dev]')")
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [exe, "--config", str(root / "pyproject.toml"), "--no-cache"],
        cwd=root, env=env, capture_output=True, text=True, timeout=300,
    )


def test_contracts_cover_the_layers() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]
    contracts = {c["type"]: c for c in config["contracts"]}
    layers = contracts["layers"]["layers"]
    assert layers[0] == "evals" and layers[1] == "solvers | scorers"  # independent: no scorer imports a solver
    assert layers.index("coonbench.datasets") < layers.index("coonbench.formats") < layers.index("coonbench.dart")
    assert "coonbench.state" in " ".join(layers)
    assert set(contracts["forbidden"]["forbidden_modules"]) == {"evals", "solvers", "scorers"}


@pytest.mark.slow
def test_repository_keeps_its_layers() -> None:
    result = lint_imports(REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.slow
def test_violations_are_reported(tmp_path: Path) -> None:
    for name in PACKAGES:
        shutil.copytree(REPO / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    clean = lint_imports(tmp_path)
    assert clean.returncode == 0, clean.stdout + clean.stderr  # the copy alone is fine
    plants = {
        "scorers/_planted.py": "import solvers.retry\n",
        "coonbench/formats/_planted.py": "import coonbench.datasets.correction\n",
        "coonbench/state_planted.py": "import evals.correction\n",
    }
    for rel, text in plants.items():
        (tmp_path / rel).write_text(text)
    broken = lint_imports(tmp_path)
    out = broken.stdout
    assert broken.returncode != 0, out
    assert "scorers is not allowed to import solvers" in out
    assert "coonbench.formats is not allowed to import coonbench.datasets" in out
    assert "coonbench is not allowed to import evals" in out and "coonbench.state_planted -> evals" in out
