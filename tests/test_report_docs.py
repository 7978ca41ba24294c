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
