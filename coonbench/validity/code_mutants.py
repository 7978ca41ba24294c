"""Mutation score of a test suite: one-edit mutants of a reference solution, and which tests kill them.

Why: a test suite is only as strong as the wrong programs it rejects. A mutant changes the reference in one
place, the way a near-miss answer would: a boundary (``<`` <-> ``<=``, ``>`` <-> ``>=``), a comparison
(``==`` <-> ``!=``, ``in`` <-> ``not in``, ``is`` <-> ``is not``), an operator (``+`` <-> ``-``, ``*`` -> ``/``,
``//`` <-> ``/``, ``%`` -> ``//``, ``**`` -> ``*``, ``and`` <-> ``or``, a ``not`` or a unary minus dropped), or an
integer constant (``k`` -> ``k + 1`` and ``k - 1``: ``range(1,`` -> ``range(2,``). Only the solution's own lines
mutate (for HumanEval, the canonical solution, not the prompt's helpers).

Each mutant runs in the sandbox's own worker (``python_runner.py``, a subprocess with a memory limit and a
per-call alarm) against the tests in order, stopping at the first failure; a worker that stops answering is
killed after ``WALL_TIMEOUT`` seconds. A mutant survives when it passes every test.
"""

from __future__ import annotations

import ast
import copy
import json
import os
import select
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coonbench.execution.base import case_inputs, check_case, harness_text

CASE_TIMEOUT = 1.0
WALL_TIMEOUT = 120.0
MEMORY_MB = 1024

COMPARE_SWAPS: dict[type, type] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
BINOP_SWAPS: dict[type, type] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.FloorDiv, ast.FloorDiv: ast.Div,
    ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult,
}
SYMBOLS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.In: "in",
           ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+", ast.Sub: "-", ast.Mult: "*",
           ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**", ast.And: "and", ast.Or: "or"}


@dataclass(frozen=True)
class Mutant:
    """One edit of the reference: ``where`` names it stably (line within the solution, column, the change)."""

    where: str
    source: str


def _edits(node: ast.AST) -> Iterator[tuple[str, Any]]:
    """(description, apply) for each way this node can mutate; apply edits a copy of the node in place."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in COMPARE_SWAPS:
                new = COMPARE_SWAPS[type(op)]
                yield f"{SYMBOLS[type(op)]} -> {SYMBOLS[new]}", lambda n, i=i, new=new: n.ops.__setitem__(i, new())
    elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in BINOP_SWAPS:
        new = BINOP_SWAPS[type(node.op)]
        yield f"{SYMBOLS[type(node.op)]} -> {SYMBOLS[new]}", lambda n, new=new: setattr(n, "op", new())
    elif isinstance(node, ast.BoolOp):
        new = ast.Or if isinstance(node.op, ast.And) else ast.And
        yield f"{SYMBOLS[type(node.op)]} -> {SYMBOLS[new]}", lambda n, new=new: setattr(n, "op", new())
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        for delta in (1, -1):
            yield f"{node.value} -> {node.value + delta}", lambda n, d=delta: setattr(n, "value", n.value + d)


class _Drop(ast.NodeTransformer):
    """Replaces the unary operation at one position by its operand (``not x`` -> ``x``, ``-x`` -> ``x``)."""

    def __init__(self, position: tuple[int, int]) -> None:
        self.position = position

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        if (node.lineno, node.col_offset) == self.position:
            return self.generic_visit(node.operand)
        return self.generic_visit(node)


def mutants(source: str, first_line: int = 1) -> list[Mutant]:
    """Every one-edit mutant of ``source`` whose edit lies on line ``first_line`` or later (distinct, and
    different from the unmutated program as ``ast.unparse`` writes it)."""
    tree = ast.parse(source)
    original = ast.unparse(tree)
    seen = {original}
    out: list[Mutant] = []
    for index, node in enumerate(ast.walk(tree)):
        if getattr(node, "lineno", 0) < first_line:
            continue
        place = f"line {node.lineno - first_line + 1} col {node.col_offset}"  # type: ignore[attr-defined]
        changes = list(_edits(node))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
            changes.append((f"drop {'not' if isinstance(node.op, ast.Not) else 'unary -'}", None))
        for what, apply in changes:
            copy_tree = copy.deepcopy(tree)
            if apply is None:
                copy_tree = _Drop((node.lineno, node.col_offset)).visit(copy_tree)  # type: ignore[attr-defined]
            else:
                apply(next(n for i, n in enumerate(ast.walk(copy_tree)) if i == index))
            text = ast.unparse(ast.fix_missing_locations(copy_tree))
            if text not in seen:
                seen.add(text)
                out.append(Mutant(f"{place}: {what}", text))
    return out


class _Worker:
    """The sandbox's Python worker over one program, answering one case at a time."""

    def __init__(self, source: str, name: str, typed: bool, directory: str) -> None:
        Path(directory, "runner.py").write_text(harness_text("python_runner.py"), encoding="utf-8")
        Path(directory, "solution.py").write_text(source, encoding="utf-8")
        mode = "pytyped" if typed else "py"
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "runner.py", mode, "solution.py", name, str(CASE_TIMEOUT), str(MEMORY_MB)],
            cwd=directory, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buffer = b""
        self.deadline = time.monotonic() + WALL_TIMEOUT

    def line(self) -> dict[str, Any] | None:
        """The next answer, or None when the worker ended or ran past the wall-clock limit."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            record = json.loads(line)
        except ValueError:
            return None
        return record if isinstance(record, dict) else None

    def ask(self, case: dict[str, Any]) -> dict[str, Any] | None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write((json.dumps(case) + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
            return None
        return self.line()

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def first_failure(problem: Any, source: str) -> int | None:
    """Index (in ``problem.all_tests``) of the first test this program fails, or None when it passes them all.
    A program that does not load, or a worker that dies or stalls, fails at the first test not answered."""
    typed = bool(getattr(problem, "typed_values", False))
    with tempfile.TemporaryDirectory(prefix="coonbench-mutant-") as tmp:
        worker = _Worker(source, problem.signature.name, typed, tmp)
        try:
            ready = worker.line()
            if ready is None or ready.get("stage") != "ready":
                return 0
            for i, (case, asked) in enumerate(zip(problem.all_tests, case_inputs(problem))):
                res = worker.ask(asked)
                if res is None or check_case(problem, case, res) is not None:
                    return i
            return None
        finally:
            worker.close()
