"""Python programs as JSON syntax trees in the ``ast`` schema: the ``python-ast`` target of the correction task and
the ``python-json-ast`` format are one schema, this one.

``ast_to_json`` writes ``{"_type": <ast class>, <field>: ...}`` objects (positions, None/empty fields and Load
``ctx`` dropped); ``json_to_ast``/``module_from_json`` read them back, an omitted field defaulting to ``[]``, Load
or None. The reading half is also in the sandbox's worker (``coonbench/execution/harness/python_runner.py``),
which runs with nothing of coonbench importable: the two copies are kept identical, text for text, by
``tests/test_python_formats.py``.
"""

from __future__ import annotations

import ast
import json
from typing import Any

POSITION_FIELDS = ("lineno", "col_offset", "end_lineno", "end_col_offset")
# fields that hold lists (an omitted one defaults to []); IfExp/Lambda bodies and FunctionDef/Lambda `args` are not
LIST_FIELDS = frozenset(
    "body orelse finalbody handlers posonlyargs kwonlyargs kw_defaults defaults decorator_list targets elts keys "
    "values ops comparators keywords generators ifs names bases type_ignores cases patterns kwd_attrs kwd_patterns "
    "items args".split()
)
NOT_LIST = {("IfExp", "body"), ("IfExp", "orelse"), ("Lambda", "body"), ("FunctionDef", "args"),
            ("AsyncFunctionDef", "args"), ("Lambda", "args")}


def _default(cls_name: str, field: str) -> Any:
    """The value of an omitted field: [] for list fields, Load() for ctx, else None."""
    if field == "ctx":
        return ast.Load()
    if field in LIST_FIELDS and (cls_name, field) not in NOT_LIST:
        return []
    return None


class AstJsonError(ValueError):
    """A JSON document that is not a valid Python syntax tree; ``path`` says where."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(f"{message} (at {path})")
        self.path = path


def json_to_ast(node: Any, path: str = "$") -> Any:
    """Rebuild ``ast`` nodes from ``{"_type": ...}`` dicts; omitted fields default to None."""
    if isinstance(node, list):
        return [json_to_ast(item, f"{path}[{i}]") for i, item in enumerate(node)]
    if isinstance(node, dict):
        if "_type" not in node:
            raise AstJsonError("object without '_type'", path)
        name = node["_type"]
        cls = getattr(ast, str(name), None)
        if not (isinstance(cls, type) and issubclass(cls, ast.AST)) or name.startswith("_"):
            raise AstJsonError(f"unknown node type {name!r}", path)
        unknown = set(node) - set(cls._fields) - set(cls._attributes) - {"_type"}
        if unknown:
            raise AstJsonError(f"{name} has no field(s) {sorted(unknown)}; its fields are {list(cls._fields)}", path)
        fields = {f: json_to_ast(node[f], f"{path}.{f}") if f in node else _default(name, f) for f in cls._fields}
        result = cls(**fields)
        for attr in POSITION_FIELDS:
            if attr in node and attr in cls._attributes:
                setattr(result, attr, node[attr])
        return result
    if node is None or isinstance(node, (str, int, float, bool)):
        return node
    raise AstJsonError(f"unsupported JSON value {node!r}", path)


def module_from_json(text: str) -> ast.Module:
    """A Module from JSON text: a Module, a single statement, or a list of statements."""
    data = json.loads(text)
    tree = json_to_ast(data)
    if isinstance(tree, list):
        tree = ast.Module(body=tree, type_ignores=[])
    elif isinstance(tree, ast.stmt):
        tree = ast.Module(body=[tree], type_ignores=[])
    if not isinstance(tree, ast.Module):
        raise AstJsonError(f"top level must be a Module or statement(s), got {type(tree).__name__}", "$")
    if tree.type_ignores is None:
        tree.type_ignores = []
    return ast.fix_missing_locations(tree)


def ast_to_json(node: Any) -> Any:
    """A syntax tree as JSON-able dicts ``{"_type": ...}``; positions, None/empty fields and Load ``ctx`` dropped."""
    if isinstance(node, ast.AST):
        out: dict[str, Any] = {"_type": type(node).__name__}
        for name in node._fields:
            value = getattr(node, name, None)
            if value is None or value == []:
                continue
            if name == "ctx" and isinstance(value, ast.Load):
                continue
            out[name] = ast_to_json(value)
        return out
    if isinstance(node, list):
        return [ast_to_json(v) for v in node]
    if node is None or isinstance(node, (str, int, float, bool)):
        return node
    raise TypeError(f"cannot represent {type(node).__name__} constant {node!r} in JSON")


def python_to_ast_json(source: str, *, indent: int | None = None) -> str:
    """Python source → JSON syntax-tree text (the python-ast gold is derived this way)."""
    return json.dumps(ast_to_json(ast.parse(source)), indent=indent, ensure_ascii=False)
