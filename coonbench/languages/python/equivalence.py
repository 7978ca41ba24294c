"""When two Python programs are the same program: syntax trees equal modulo layout, comments and docstrings.

The lossless check of every Python format and the AST scorers stand on ``ast_diff``. It compares the trees
``ast.parse`` gives, field by field (node types, identifiers, operators, constants by type and ``repr``, so
``1``/``1.0``/``True`` and ``0.0``/``-0.0`` differ); positions and comments are not in the tree. Declared and
deliberate: **docstrings do not count.** The leading string-literal statements of a module, class or function
body (the docstring and any string statements right after it) are removed from both trees before comparing, and
a class or function body left empty holds ``pass``, so ``def f(): "doc"`` equals ``def f(): pass``. This is what
"AST-identical" means for ``python-minified``, which drops docstrings (Pan et al.'s transform removes comments and
documentation); every other difference, ``__doc__`` aside, is a difference. The walk is iterative: a 10,000-deep
expression cannot overflow the stack.
"""

from __future__ import annotations

import ast
from typing import Any

from coonbench.languages.base import Difference
from coonbench.languages.python.parse import parse_python

_BODIES = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
EQUIVALENCE = "syntax trees equal once docstrings (leading string statements of a body) are removed"
"""What ``ast_diff`` compares, in words (the format docs and refusal reasons quote it)."""


def is_string_statement(node: ast.AST) -> bool:
    """A statement that is only a string literal (a docstring where it leads a body)."""
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def docstring_statements(tree: ast.AST) -> list[ast.stmt]:
    """Every leading string statement of every module, class and function body in ``tree`` (what is dropped)."""
    out: list[ast.stmt] = []
    for node in ast.walk(tree):
        if isinstance(node, _BODIES):
            for stmt in node.body:
                if not is_string_statement(stmt):
                    break
                out.append(stmt)
    return out


def strip_docstrings(tree: ast.Module) -> ast.Module:
    """``tree`` with the leading string statements of its bodies removed, in place (see the module docstring)."""
    for node in ast.walk(tree):
        if isinstance(node, _BODIES):
            keep = list(node.body)
            while keep and is_string_statement(keep[0]):
                keep.pop(0)
            if not keep and not isinstance(node, ast.Module):
                keep = [ast.Pass()]
            node.body = keep
    return tree


def _describe(value: Any) -> str:
    if isinstance(value, ast.AST):
        name = getattr(value, "name", None) or getattr(value, "id", None) or getattr(value, "attr", None)
        return f"{type(value).__name__} {name}" if isinstance(name, str) else type(value).__name__
    if isinstance(value, list):
        return f"{len(value)} item(s)"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _same_leaf(a: Any, b: Any) -> bool:
    return type(a) is type(b) and repr(a) == repr(b)


def tree_diff(left: ast.AST, right: ast.AST) -> Difference | None:
    """The first difference (in source order) between two trees, None when equal. Positions are not compared."""
    stack: list[tuple[str, Any, Any, int | None, int | None]] = [("", left, right, None, None)]
    while stack:
        path, a, b, line, col = stack.pop()
        if isinstance(a, ast.AST) and hasattr(a, "lineno"):
            line, col = a.lineno, getattr(a, "col_offset", 0) + 1
        if isinstance(a, ast.AST) or isinstance(b, ast.AST):
            if type(a) is not type(b):
                return Difference(path or "Module", _describe(a), _describe(b), line, col)
            here = f"{path}/{type(a).__name__}" if path else type(a).__name__
            pushes = [(f"{here}.{name}", getattr(a, name, None), getattr(b, name, None)) for name in a._fields]
            stack.extend((p, x, y, line, col) for p, x, y in reversed(pushes))
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                return Difference(path, _describe(a), _describe(b), line, col)
            stack.extend((f"{path}[{i}]", x, y, line, col) for i, x, y in reversed(list(zip(range(len(a)), a, b))))
        elif not _same_leaf(a, b):
            return Difference(path, _describe(a), _describe(b), line, col)
    return None


def ast_diff(a: str, b: str) -> Difference | None:
    """The first difference between two Python programs (docstrings, layout and comments ignored), None when they
    are equivalent; ``LanguageSyntaxError`` when either does not parse."""
    return tree_diff(strip_docstrings(parse_python(a)), strip_docstrings(parse_python(b)))
