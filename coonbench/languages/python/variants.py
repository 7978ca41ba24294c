"""Python programs spelled otherwise and programs changed in one named way: ``coonbench validate``'s code variants.

A code scorer must accept every equivalent (the same tree, docstrings aside: what ``ast_diff`` compares) and refuse
every mutant (one change a model could make by mistake: a number, a string, a comparison, a statement dropped).
Each is made on the tree or the token stream by code, and checked here: an equivalent whose tree differs, or a
mutant whose tree does not, is not returned (``None``: "does not apply"), so a variant never tests the wrong thing.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator

from coonbench.languages.base import LanguageSyntaxError
from coonbench.languages.python.equivalence import ast_diff, is_string_statement
from coonbench.languages.python.minify import MinifyError, minify
from coonbench.languages.python.parse import parse_python

Rewrite = Callable[[str], str | None]


def _same(a: str, b: str) -> bool:
    try:
        return ast_diff(a, b) is None
    except LanguageSyntaxError:
        return False


def _checked_equivalent(rewrite: Rewrite) -> Rewrite:
    def run(source: str) -> str | None:
        try:
            out = rewrite(source)
        except (LanguageSyntaxError, MinifyError, ValueError, RecursionError):
            return None
        return out if out is not None and out != source and _same(source, out) else None
    return run


def _commented(source: str) -> str:
    return f"# rewritten by hand\n{source.rstrip()}\n# end of file\n"


def _unparsed(source: str) -> str:
    """``ast.unparse``'s spelling: its own quotes, spaces and parentheses (same tree)."""
    return ast.unparse(parse_python(source)) + "\n"


def _crlf(source: str) -> str:
    return source.replace("\r\n", "\n").replace("\n", "\r\n")


EQUIVALENTS: dict[str, Rewrite] = {
    "comments-added": _checked_equivalent(_commented),
    "unparsed-layout": _checked_equivalent(_unparsed),
    "minified": _checked_equivalent(minify),
    "crlf-line-ends": _checked_equivalent(_crlf),
}


def _nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node in source order (iterative: a deep program does not recurse)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _docstring_ids(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in _nodes(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and is_string_statement(body[0]):
            out.add(id(body[0].value))
    return out


def _mutant(change: Callable[[ast.Module], bool]) -> Rewrite:
    """A mutant from an in-place change of a copy of the tree (False: no place for it), unparsed and checked."""
    def run(source: str) -> str | None:
        try:
            tree = copy.deepcopy(parse_python(source))
            if not change(tree):
                return None
            out = ast.unparse(tree) + "\n"
        except (LanguageSyntaxError, ValueError, RecursionError):
            return None
        return None if _same(source, out) else out
    return run


def _number(tree: ast.Module) -> bool:
    for node in _nodes(tree):
        if not isinstance(node, ast.Constant) or isinstance(node.value, bool):
            continue  # True + 1 is a number, not a changed boolean
        if isinstance(node.value, (int, float)):
            node.value = node.value + 1
            return True
    return False


def _string(tree: ast.Module) -> bool:
    docstrings = _docstring_ids(tree)
    for node in _nodes(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            node.value = node.value + "x"
            return True
    return False


_FLIPPED: dict[type, type] = {ast.Lt: ast.GtE, ast.LtE: ast.Gt, ast.Gt: ast.LtE, ast.GtE: ast.Lt, ast.Eq: ast.NotEq,
                              ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn,
                              ast.NotIn: ast.In}


def _comparison(tree: ast.Module) -> bool:
    for node in _nodes(tree):
        if isinstance(node, ast.Compare):
            node.ops[0] = _FLIPPED[type(node.ops[0])]()
            return True
    return False


def _statement(tree: ast.Module) -> bool:
    """The last statement of the first function body with two statements or more (not its docstring)."""
    for node in _nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and len(node.body) >= 2:
            node.body.pop()
            return True
    return False


def _argument(tree: ast.Module) -> bool:
    for node in _nodes(tree):
        if isinstance(node, ast.Call) and node.args:
            node.args.pop()
            return True
    return False


MUTANTS: dict[str, Rewrite] = {
    "number-changed": _mutant(_number),
    "string-changed": _mutant(_string),
    "comparison-flipped": _mutant(_comparison),
    "statement-dropped": _mutant(_statement),
    "argument-dropped": _mutant(_argument),
}
