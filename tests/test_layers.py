"""Layers point down and nothing imports itself back: the import-linter contracts in pyproject.toml hold, the
package has no import cycle, and both checks do catch violations.

``lint-imports`` runs on the repository (must pass), then on a copy of the package with deliberate violations
planted (a scorer importing a solver, a format importing a dataset loader, the report importing a task): each must
be reported, so a green run means something. The cycle check reads grimp's import graph of the package (the same
graph import-linter reads, TYPE_CHECKING imports included) and finds its strongly connected components.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TOP = ("coonbench", "evals", "solvers", "scorers", "data")  # the package and the folders it links to


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    if not Path(exe).exists():
        pytest.skip("import-linter is not installed (pip install -e '.[dev]')")
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [exe, "--config", str(root / "pyproject.toml"), "--no-cache"],
        cwd=root, env=env, capture_output=True, text=True, timeout=300,
    )


def import_cycles(root: Path, package: str = "coonbench") -> list[list[str]]:
    """Every import cycle among ``package``'s modules under ``root``, as its strongly connected component (Tarjan,
    iterative: the graph is the package's, but no recursion is cheaper than a question about depth)."""
    code = (
        "import grimp, json, sys\n"
        f"g = grimp.build_graph({package!r}, cache_dir=None)\n"
        "print(json.dumps({m: sorted(g.find_modules_directly_imported_by(m)) for m in g.modules}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env={**os.environ, "PYTHONPATH": str(root)},
                         capture_output=True, text=True, timeout=300, check=True).stdout
    edges: dict[str, list[str]] = json.loads(out)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(edges[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in edges:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(edges[nxt])))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in edges[node]:
                        components.append(sorted(component))
    return components


def copy_package(dest: Path) -> None:
    """The package as a checkout has it: the real folders and the links from coonbench/ to them."""
    for name in TOP:
        shutil.copytree(REPO / name, dest / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so"))
    shutil.copy(REPO / "pyproject.toml", dest / "pyproject.toml")


def test_contracts_cover_the_layers() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]
    assert config["root_packages"] == ["coonbench"]
    [layered] = [c for c in config["contracts"] if c["type"] == "layers"]
    layers = layered["layers"]
    assert layers[0] == "coonbench.evals" and layers[1] == "coonbench.solvers | coonbench.scorers"  # independent
    assert layers.index("coonbench.datasets") < layers.index("coonbench.formats") < layers.index("coonbench.languages")
    assert layers.index("coonbench.languages") < layers.index("coonbench.dart")
    assert "coonbench.tasks" in layers[3].split(" : ")
    forbidden = {frozenset(c["forbidden_modules"]): c for c in config["contracts"] if c["type"] == "forbidden"}
    top = forbidden[frozenset({"coonbench.evals", "coonbench.solvers", "coonbench.scorers"})]
    assert "coonbench.report" in top["source_modules"]
    dart = forbidden[frozenset({"coonbench.dart", "tree_sitter", "tree_sitter_dart"})]
    assert config.get("include_external_packages") is True  # else tree_sitter is no module a contract can name
    generic = ("coonbench.evals", "coonbench.solvers", "coonbench.scorers", "coonbench.datasets", "coonbench.tasks",
               "coonbench.answers", "coonbench.validity", "coonbench.report", "coonbench.cli", "coonbench.languages.base")
    assert set(generic) <= set(dart["source_modules"])


def test_every_package_module_is_grouped() -> None:
    """Only the package's entry points lie loose at its top; every other module belongs to a package that says
    which concern it serves."""
    loose = sorted(p.stem for p in (REPO / "coonbench").glob("*.py") if p.stem not in ("__init__", "__main__"))
    assert set(loose) <= {"_native", "_registry", "cli", "verdict"}, loose


@pytest.mark.slow
def test_repository_keeps_its_layers() -> None:
    result = lint_imports(REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_no_import_cycle() -> None:
    assert import_cycles(REPO) == []


def test_a_planted_cycle_is_found(tmp_path: Path) -> None:
    copy_package(tmp_path)
    (tmp_path / "coonbench" / "tokens" / "_planted.py").write_text("import coonbench.resources._planted\n")
    (tmp_path / "coonbench" / "resources" / "_planted.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import coonbench.tokens._planted\n"
    )
    planted = ["coonbench.resources._planted", "coonbench.tokens._planted"]
    assert planted in import_cycles(tmp_path) and planted not in import_cycles(REPO)


@pytest.mark.slow
def test_violations_are_reported(tmp_path: Path) -> None:
    copy_package(tmp_path)
    clean = lint_imports(tmp_path)
    assert clean.returncode == 0, clean.stdout + clean.stderr  # the copy alone is fine
    plants = {
        "scorers/_planted.py": "import coonbench.solvers.retry\n",
        "coonbench/formats/_planted.py": "import coonbench.datasets.correction\n",
        "coonbench/report/_planted.py": "import coonbench.evals.correction\n",
        "coonbench/answers/_planted.py": "import coonbench.dart.parse\n",
        "coonbench/datasets/_planted.py": "import tree_sitter\n",
    }
    for rel, text in plants.items():
        (tmp_path / rel).write_text(text)
    broken = lint_imports(tmp_path)
    out = broken.stdout
    assert broken.returncode != 0, out
    assert "coonbench.scorers is not allowed to import coonbench.solvers" in out
    assert "coonbench.formats is not allowed to import coonbench.datasets" in out
    assert "coonbench.report is not allowed to import coonbench.evals" in out
    assert "coonbench.report._planted -> coonbench.evals.correction" in out
    assert "coonbench.answers is not allowed to import coonbench.dart" in out  # the language seam (issue 52)
    assert "coonbench.datasets is not allowed to import tree_sitter" in out


def test_no_builder_reads_a_tokenizer_or_template_from_ambient_state() -> None:
    """The tokenizer and the prompt template reach every sample builder as an argument (``BuildContext``): no module
    of the package keeps a ``ContextVar`` (the two that did, the tokenizer "in use" and the "current" template, are
    gone), so what a sample holds is a function of what its builder was given."""
    found = [f"{path.relative_to(REPO)}:{n}" for root in ("coonbench", "evals", "solvers", "scorers")
             for path in sorted((REPO / root).rglob("*.py")) if "data" not in path.relative_to(REPO).parts
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "ContextVar" in line or "import contextvars" in line]
    assert found == []


def test_every_sample_of_the_package_names_the_tokenizer_it_counts_in() -> None:
    """``sample_metadata`` defaults to ``o200k_base`` for a plug-in's own task; every call in the package passes the
    tokenizer its builder was given, so a task run for Qwen never counts a sample in o200k by omission."""
    import ast

    missing = []
    for root in ("coonbench", "evals"):
        for path in sorted((REPO / root).rglob("*.py")):
            if "data" in path.relative_to(REPO).parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None))
                        == "sample_metadata" and not any(k.arg == "tokenizer" for k in node.keywords)):
                    missing.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert missing == []
