"""docs/report.md matches the code: every rule names the function that applies it, and each named function exists
and is called by the report (a rule whose function was renamed or dropped fails here)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "report.md"
NAMED = re.compile(r"`(coonbench\.report\.[a-z_]+)\.([a-z_]+)`")
SECTIONS = ("## Reading the logs", "### Intervals", "### Paired comparisons", "### Answer first", "### Verdicts",
            "### Cost", "### Iterative correction", "### Epochs", "## The HTML page")


def _named() -> list[tuple[str, str]]:
    return sorted(set(NAMED.findall(DOC.read_text(encoding="utf-8"))))


def _sources() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "coonbench" / "report").glob("*.py")}


def test_every_rule_section_names_its_functions() -> None:
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^#{2,3} ", text, flags=re.MULTILINE)
    for heading in SECTIONS:
        body = next((p for p in parts if p.startswith(heading.lstrip("# "))), None)
        assert body is not None, f"docs/report.md lacks the section {heading}"
        assert NAMED.search(body), f"{heading}: no rule names its function"
    assert len(_named()) >= 25


@pytest.mark.parametrize(("module", "name"), _named())
def test_named_function_exists_and_is_used(module: str, name: str) -> None:
    mod = importlib.import_module(module)
    assert callable(getattr(mod, name, None)), f"{module}.{name} does not exist"
    calls = re.compile(rf"(?<![\w.])(?:\w+\.)?{name}\(")
    used = [file for file, src in _sources().items()
            if any(calls.search(line) and not line.lstrip().startswith("def ") for line in src.splitlines())]
    assert used, f"{module}.{name} is documented but nothing in coonbench/report calls it"


def _report_imports() -> dict[str, set[str]]:
    """Module → the ``coonbench.report`` modules it imports, at the top or inside a function (both count)."""
    import ast

    graph: dict[str, set[str]] = {}
    for path in sorted((ROOT / "coonbench" / "report").glob("*.py")):
        name = path.stem
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("coonbench.report."):
                    found.add(node.module.split(".")[2])
                elif node.module == "coonbench.report":
                    found.update(a.name for a in node.names)
            elif isinstance(node, ast.Import):
                found.update(a.name.split(".")[2] for a in node.names if a.name.startswith("coonbench.report."))
        graph[name] = found - {name}
    return graph


def test_no_report_module_imports_one_that_imports_it_back() -> None:
    """The report's modules form layers (load/stats/wording → tables/blocks → verdicts/cost/correction → summary →
    sections → plots/render → the package): no module imports, even lazily, one that transitively imports it."""
    graph = _report_imports()
    assert {"tables", "summary", "verdicts", "cost", "correction", "sections"} <= set(graph)

    def reach(start: str, edges: dict[str, set[str]]) -> set[str]:
        seen: set[str] = set()
        todo = list(edges.get(start, ()))
        while todo:
            mod = todo.pop()
            if mod not in seen:
                seen.add(mod)
                todo.extend(edges.get(mod, ()))
        return seen

    cycles = sorted(m for m in graph if m != "__init__" and m in reach(m, graph))
    assert cycles == [], f"import cycles through {cycles}: {graph}"
    old = {**graph, "tables": graph["tables"] | {"summary"}}  # the check catches the cycle the report once had
    assert "tables" in reach("tables", old)


def test_readme_has_an_evaluation_report_with_its_commands() -> None:
    """inspect_evals' layout: the published Qwen runs' tables and TOON's results re-analysed, each with the command
    that made it and the versions."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "\n## Evaluation Report\n" in readme
    report = readme.split("\n## Evaluation Report\n", 1)[1].split("\n## ", 1)[0]
    embedded, toon = report.split("### TOON's published retrieval results, re-analysed", 1)
    assert "bash benchmarks/publish_qwen.sh qwen2.5-coder-1.5b" in embedded
    assert "| gguf/qwen2.5-coder-1.5b |" in embedded and "| gguf/qwen2.5-coder-0.5b |" in embedded
    assert "coonbench import-toon" in toon and "coonbench report logs/toon" in toon and "| accuracy (95% CI) |" in toon
    assert "inspect_ai 0.3" in report and "coonbench 0.1" in report
