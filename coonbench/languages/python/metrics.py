"""Metrics of one Python source (the Python corpus manifest's columns), read from ``tokenize`` and ``ast``:

``loc``
    Lines holding code: a line counts when a token other than a comment, newline or indentation is on it; every
    line of a multi-line string (docstrings included) counts, as for Dart.
``cyclomatic``
    McCabe's number for the whole file: ``1 +`` decision points, where a decision point is each ``if``/``elif``
    statement, conditional expression, ``for``/``async for``/``while`` loop, ``except`` clause, ``for`` and
    ``if`` clause of a comprehension, ``case`` of a ``match`` but an irrefutable ``case _``, and each extra
    operand of ``and``/``or`` (``a and b and c`` is two).
``max_depth``
    The deepest nesting of compound statements (``def``, ``class``, ``if``, ``for``, ``while``, ``with``,
    ``try``, ``match``; a top-level ``def`` is 1, an ``if`` in it 2).
``functions`` / ``classes``
    ``def``/``async def`` (methods and nested functions included) and ``class`` statements.
``gci``
    The General Complexity Index of the Dart corpus (``coonbench.datasets.corpus.metrics``), with Python's
    components: each squashed with a fixed saturating map ``x / (x + k)`` (a file's GCI depends on that file
    alone), then averaged with weights::

        gci = 0.25·L/(L+100) + 0.20·(CC−1)/(CC−1+10) + 0.10·ρ/(ρ+0.1)
            + 0.20·D/(D+6)   + 0.15·F/(F+12)        + 0.10·K/(K+3)

    with L = loc, CC = cyclomatic, ρ = (CC−1)/L, D = max_depth, F = functions, K = classes; 4 decimals.
``features``
    Language features used (``FEATURES``), read off the tree.
"""

from __future__ import annotations

import ast
import io
import tokenize
from typing import Any

from coonbench.languages.python.parse import parse_python

_NOT_CODE = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                       tokenize.ENDMARKER, tokenize.ENCODING})
_COMPOUND = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While,
             ast.With, ast.AsyncWith, ast.Try, ast.Match, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))
_BRANCHES = (ast.If, ast.IfExp, ast.For, ast.AsyncFor, ast.While, ast.ExceptHandler)
GCI_WEIGHTS = {"loc": 0.25, "branches": 0.20, "density": 0.10, "depth": 0.20, "functions": 0.15, "classes": 0.10}
GCI_SCALES = {"loc": 100.0, "branches": 10.0, "density": 0.1, "depth": 6.0, "functions": 12.0, "classes": 3.0}

FEATURES: dict[str, tuple[type[ast.AST], ...]] = {
    "async": (ast.AsyncFunctionDef, ast.Await, ast.AsyncFor, ast.AsyncWith),
    "comprehension": (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp),
    "context-manager": (ast.With, ast.AsyncWith),
    "decorator": (),  # any decorator_list (checked below)
    "exception-handling": (ast.Try, ast.Raise),
    "f-string": (ast.JoinedStr,),
    "generator": (ast.Yield, ast.YieldFrom),
    "global-nonlocal": (ast.Global, ast.Nonlocal),
    "lambda": (ast.Lambda,),
    "match": (ast.Match,),
    "star-arguments": (ast.Starred,),
    "type-annotation": (ast.AnnAssign,),
    "walrus": (ast.NamedExpr,),
}


def count_loc(source: str) -> int:
    """Lines holding code (see the module docstring); 0 for text that does not tokenize."""
    lines: set[int] = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type not in _NOT_CODE:
                lines.update(range(tok.start[0], tok.end[0] + 1))
    except (tokenize.TokenError, SyntaxError):
        return 0
    return len(lines)


def cyclomatic_complexity(tree: ast.AST) -> int:
    """1 + decision points of the whole tree (see the module docstring)."""
    points = 0
    for node in ast.walk(tree):
        if isinstance(node, _BRANCHES):
            points += 1
        elif isinstance(node, ast.BoolOp):
            points += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            points += 1 + len(node.ifs)
        elif isinstance(node, ast.match_case):
            irrefutable = isinstance(node.pattern, ast.MatchAs) and node.pattern.pattern is None and node.guard is None
            points += 0 if irrefutable else 1
    return 1 + points


def max_depth(tree: ast.AST) -> int:
    """The deepest nesting of compound statements (iterative)."""
    deepest = 0
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, _COMPOUND):
            depth += 1
            deepest = max(deepest, depth)
        stack.extend((child, depth) for child in ast.iter_child_nodes(node))
    return deepest


def detect_features(tree: ast.AST) -> list[str]:
    """Sorted names (keys of ``FEATURES``) of the features the tree uses."""
    found: set[str] = set()
    for node in ast.walk(tree):
        for name, kinds in FEATURES.items():
            if kinds and isinstance(node, kinds):
                found.add(name)
        if getattr(node, "decorator_list", None):
            found.add("decorator")
        if isinstance(node, ast.arg) and node.annotation is not None:
            found.add("type-annotation")
    return sorted(found)


def general_complexity_index(loc: int, cyclomatic: int, depth: int, functions: int, classes: int) -> float:
    """The documented GCI (module docstring), in [0, 1)."""
    branches = max(cyclomatic - 1, 0)
    values = {"loc": float(loc), "branches": float(branches), "density": branches / loc if loc else 0.0,
              "depth": float(depth), "functions": float(functions), "classes": float(classes)}
    return round(sum(GCI_WEIGHTS[k] * v / (v + GCI_SCALES[k]) for k, v in values.items()), 4)


def measure(source: str) -> dict[str, Any]:
    """Every manifest metric of one Python source (``LanguageSyntaxError`` when it does not parse)."""
    tree = parse_python(source)
    loc = count_loc(source)
    cyclomatic = cyclomatic_complexity(tree)
    depth = max_depth(tree)
    functions = sum(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in ast.walk(tree))
    classes = sum(isinstance(n, ast.ClassDef) for n in ast.walk(tree))
    return {
        "loc": loc,
        "cyclomatic": cyclomatic,
        "gci": general_complexity_index(loc, cyclomatic, depth, functions, classes),
        "max_depth": depth,
        "functions": functions,
        "classes": classes,
        "features": detect_features(tree),
    }
