"""No function over 80 lines (the project guide's rule), read with ``ast`` from the source tree.

The COON codec's hot loops are the one exception: each is a single pass over tokens or lines whose branches share
local state, and splitting it would cost a call per token in the compiled build.
"""

from __future__ import annotations

import ast
from pathlib import Path

from coonbench.resources import REPO_ROOT

MAX_LINES = 80
ROOTS = ("coonbench", "solvers", "scorers", "evals", "benchmarks", "scripts")
HOT_LOOPS = frozenset({"decode_texts", "lex", "_to_ctoks", "_apply_macros"})
"""The COON codec's hot loops (functions of its modules under ``coonbench/formats``), allowed to be longer."""


def _allowed(rel: str, name: str) -> bool:
    inside = rel.removeprefix("coonbench/formats/")
    return name in HOT_LOOPS and inside != rel and "coon" in inside


def long_functions(base: Path = REPO_ROOT, roots: tuple[str, ...] = ROOTS) -> list[tuple[str, str, int]]:
    """(path:line, function, length) of every function longer than ``MAX_LINES`` (decorators excluded)."""
    out: list[tuple[str, str, int]] = []
    for root in roots:
        for path in sorted((base / root).rglob("*.py")):
            rel = path.relative_to(base).as_posix()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=rel)):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    length = (node.end_lineno or node.lineno) - node.lineno + 1
                    if length > MAX_LINES and not _allowed(rel, node.name):
                        out.append((f"{rel}:{node.lineno}", node.name, length))
    return out


def test_no_function_over_80_lines() -> None:
    assert long_functions() == [], "split these (a COON hot loop goes in HOT_LOOPS, with the reason)"


def test_the_scan_finds_long_functions_and_allows_only_the_codec_loops(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    for rel in ("scorers/long.py", "coonbench/formats/coon/lexer.py", "coonbench/formats/json.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(f"def lex() -> None:\n{body}\n\n\nasync def ok() -> None:\n    pass\n")
    found = long_functions(tmp_path, ("scorers", "coonbench"))
    assert sorted((where, n) for where, _, n in found) == [
        ("coonbench/formats/json.py:1", MAX_LINES + 1), ("scorers/long.py:1", MAX_LINES + 1)
    ]
