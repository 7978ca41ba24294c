"""Requirements a Python program meets, read off its tree: the generation task's specification, the judge's
checklist, and their check.

A record is JSON: ``{"kind": "function", "name": f, "parameters": [...]}`` (a top-level function with exactly
these parameters, in order) or ``{"kind": "class", "name": C, "bases": [...], "methods": [...]}`` (a top-level
class listing these bases and defining at least these methods). ``derive_requirements`` gives the first
``MAX_REQUIREMENTS`` of a file, in source order, for names defined once.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any

from coonbench.languages.base import RequirementResult
from coonbench.languages.python.questions import dotted, parameters, read_module

MAX_REQUIREMENTS = 6


def derive_requirements(source: str) -> list[dict[str, Any]]:
    """The requirements of ``source`` (module docstring); ``LanguageSyntaxError`` when it does not parse."""
    module = read_module(source)
    out: list[dict[str, Any]] = []
    for node in module.tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in module.functions:
            out.append({"kind": "function", "name": node.name, "parameters": [a.arg for a in parameters(node)]})
        elif isinstance(node, ast.ClassDef) and node.name in module.classes:
            bases = [dotted(b) for b in node.bases]
            if all(bases):
                out.append({"kind": "class", "name": node.name, "bases": bases,
                            "methods": sorted(module.methods[node.name])})
    return out[:MAX_REQUIREMENTS]


def _fields(record: Mapping[str, Any]) -> tuple[str, str]:
    kind, name = record.get("kind"), record.get("name")
    if kind not in ("function", "class") or not isinstance(name, str):
        raise ValueError(f"a Python requirement needs kind 'function' or 'class' and a name: {dict(record)!r}")
    return kind, name


def describe_requirement(record: Mapping[str, Any]) -> str:
    """One record in words."""
    kind, name = _fields(record)
    if kind == "function":
        params = ", ".join(record.get("parameters", []))
        return f"a top-level function `{name}` taking the parameters ({params}), in this order"
    bases = ", ".join(record.get("bases", []))
    methods = ", ".join(f"`{m}`" for m in record.get("methods", []))
    text = f"a top-level class `{name}`" + (f" with the base classes ({bases})" if bases else " with no base class")
    return text + (f" defining the methods {methods}" if methods else "")


def check_requirements(source: str, records: Sequence[Mapping[str, Any]]) -> list[RequirementResult]:
    """Each record checked against ``source``; ``LanguageSyntaxError`` when it does not parse."""
    module = read_module(source)
    tops = {n.name: n for n in module.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    out: list[RequirementResult] = []
    for record in records:
        kind, name = _fields(record)
        text = describe_requirement(record)
        node = tops.get(name)
        if kind == "function":
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out.append(RequirementResult(text, False, f"no top-level function `{name}`"))
                continue
            got = [a.arg for a in parameters(node)]
            ok = got == list(record.get("parameters", []))
            out.append(RequirementResult(text, ok, "" if ok else f"its parameters are ({', '.join(got)})"))
            continue
        if not isinstance(node, ast.ClassDef):
            out.append(RequirementResult(text, False, f"no top-level class `{name}`"))
            continue
        bases = [dotted(b) for b in node.bases]
        defined = {s.name for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        missing = [m for m in record.get("methods", []) if m not in defined]
        ok = bases == list(record.get("bases", [])) and not missing
        detail = "" if ok else (f"missing methods {', '.join(missing)}" if missing else
                                f"its bases are ({', '.join(b or '?' for b in bases)})")
        out.append(RequirementResult(text, ok, detail))
    return out
