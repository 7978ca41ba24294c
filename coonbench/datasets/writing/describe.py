"""What the model is told to write: a line per value of a case's data, and the JSON schema of its shape.

The description is derived from the data by code (one walk, iterative: no recursion on deep data), so it states
every key, every value and its type exactly once, in document order; a computed field (an invoice's totals) is
stated by its rule instead of its value, so the model has to compute it. The schema (``json_schema_of``) gives the
structure only (types, keys, which keys every item has), never a value: it is what a structured-output mode
constrains decoding with.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def kind_of(value: Any) -> str:
    """The JSON type name of a value (``integer`` and ``number`` told apart: the description states which)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _child(path: str, key: str | int) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else (f"{path}.{key}" if path else key)


def describe(data: Any, computed: Mapping[str, str] | None = None) -> str:
    """One line per value of ``data``: ``- users[0].name: the string "Ada Lovelace"``; containers announce their
    size, leaves their type and JSON literal; a path in ``computed`` (``$.``-rooted) states its rule instead."""
    computed = computed or {}
    lines: list[str] = []
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        path, value = stack.pop()
        shown = path or "(the document itself)"
        rule = computed.get("$." + path if path else "$")
        if rule is not None:
            lines.append(f"- {shown}: a {kind_of(value)}, computed: {rule}")
        elif isinstance(value, dict):
            keys = ", ".join(value) if value else ""
            lines.append(f"- {shown}: an object with keys {keys}" if value else f"- {shown}: an empty object")
            stack.extend((_child(path, k), v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            lines.append(f"- {shown}: a list of {len(value)} items" if value else f"- {shown}: an empty list")
            stack.extend((_child(path, i), v) for i, v in reversed(list(enumerate(value))))
        else:
            literal = "null (no value)" if value is None else f"the {kind_of(value)} {json.dumps(value, ensure_ascii=False)}"
            lines.append(f"- {shown}: {literal}")
    return "\n".join(lines)


def _leaf_steps(data: Any) -> list[list[str | int]]:
    """The steps (keys and indices) from the root to each leaf of ``data``, in document order (iterative)."""
    out: list[list[str | int]] = []
    stack: list[tuple[list[str | int], Any]] = [([], data)]
    while stack:
        steps, value = stack.pop()
        if isinstance(value, dict) and value:
            stack.extend((steps + [k], v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list) and value:
            stack.extend((steps + [i], v) for i, v in reversed(list(enumerate(value))))
        else:
            out.append(steps)
    return out


def path_example(data: Any, depth: int = 3) -> str:
    """How a path is read, told on a path of ``data`` itself: the first leaf at the data's depth (at most
    ``depth`` steps), each step in words. An invented example (``a.b``) is data a model can copy into its document
    (the 1.5B wrapped every YAML attempt in a key ``a``); a real path is only ever a correct one. Empty when the
    data has no step to explain."""
    leaves = [s for s in _leaf_steps(data) if s]
    if not leaves:
        return ""
    want = min(depth, max(len(s) for s in leaves))
    steps = next(s for s in leaves if len(s) >= want)[:want]
    paths = [""]
    for step in steps:
        paths.append(_child(paths[-1], step))
    clauses = []
    for n in range(len(steps), 0, -1):
        step = steps[n - 1]
        if n == 1:
            what = f"item {step} (counting from 0) of the document, a list" if isinstance(step, int) else \
                f"key {step} of the document's root object"
        else:
            what = f"item {step} (counting from 0) of the list `{paths[n - 1]}`" if isinstance(step, int) else \
                f"key {step} inside the object `{paths[n - 1]}`"
        clauses.append(f"`{paths[n]}` is {what}")
    return "For example, " + ", and ".join(clauses) + "."


def _merge(schemas: list[dict[str, Any]]) -> dict[str, Any]:
    """One schema for the items of a list: equal schemas merge; objects merge their properties (required: the keys
    every item has); anything else becomes ``anyOf`` of the distinct ones."""
    distinct: list[dict[str, Any]] = []
    for s in schemas:
        if s not in distinct:
            distinct.append(s)
    if len(distinct) == 1:
        return distinct[0]
    if all(s.get("type") == "object" for s in distinct):
        properties: dict[str, list[dict[str, Any]]] = {}
        for s in distinct:
            for key, sub in s["properties"].items():
                properties.setdefault(key, []).append(sub)
        required = [k for k in properties if all(k in s["required"] for s in distinct)]
        return {"type": "object", "properties": {k: _merge(v) for k, v in properties.items()},
                "required": required, "additionalProperties": False}
    return {"anyOf": distinct}


def json_schema_of(data: Any) -> dict[str, Any]:
    """The JSON schema of ``data``'s shape: types, keys and required keys, no values (built bottom-up from a
    post-order walk, no recursion)."""
    order: list[tuple[Any, list[Any]]] = []  # (value, its children) in pre-order
    stack = [data]
    while stack:
        value = stack.pop()
        children = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else []
        order.append((value, children))
        stack.extend(children)
    built: dict[int, dict[str, Any]] = {}
    for value, _children in reversed(order):
        if isinstance(value, dict):
            schema: dict[str, Any] = {"type": "object", "properties": {k: built[id(v)] for k, v in value.items()},
                                      "required": list(value), "additionalProperties": False}
        elif isinstance(value, list):
            schema = {"type": "array", "items": _merge([built[id(v)] for v in value])} if value else {"type": "array"}
        else:
            schema = {"type": kind_of(value)}
        built[id(value)] = schema
    return built[id(data)]
