"""A tiny language-neutral type grammar for problem signatures, and a checker for returned values.

Grammar: ``int | float | bool | str | none | list[T] | dict[str, T] | T | none | fn(T, ...) -> T``.
Values arrive as decoded JSON from the child process, so ``int`` vs ``float`` is as the child serialised it
(Python keeps ``3`` vs ``3.0``; JavaScript has one number type, so an integral number reads as ``int`` and
``float`` accepts integers). A returned function is reported by the harness as ``{"__fn__": true}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

PRIMITIVES = ("int", "float", "bool", "str", "none")


@dataclass(frozen=True)
class TypeExpr:
    """A parsed type: ``kind`` is a primitive name, ``list``, ``dict``, ``union`` or ``fn``."""

    kind: str
    args: tuple[TypeExpr, ...] = ()

    def __str__(self) -> str:
        if self.kind == "list":
            return f"list[{self.args[0]}]"
        if self.kind == "dict":
            return f"dict[str, {self.args[0]}]"
        if self.kind == "union":
            return " | ".join(str(a) for a in self.args)
        if self.kind == "fn":
            *params, ret = self.args
            return f"fn({', '.join(str(p) for p in params)}) -> {ret}"
        return self.kind


_TOKEN = re.compile(r"\s*(->|[A-Za-z_]+|\[|\]|\(|\)|,|\|)")


class TypeSyntaxError(ValueError):
    """A type string that does not follow the grammar."""


def parse_type(text: str) -> TypeExpr:
    """Parse a type string; raises TypeSyntaxError naming the problem."""
    tokens: list[str] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m:
            raise TypeSyntaxError(f"bad type {text!r} at column {pos + 1}")
        tokens.append(m.group(1))
        pos = m.end()
    result, rest = _parse_union(tokens, text)
    if rest:
        raise TypeSyntaxError(f"bad type {text!r}: unexpected {' '.join(rest)!r}")
    return result


def _expect(tokens: list[str], tok: str, text: str) -> list[str]:
    if not tokens or tokens[0] != tok:
        raise TypeSyntaxError(f"bad type {text!r}: expected {tok!r}")
    return tokens[1:]


def _parse_union(tokens: list[str], text: str) -> tuple[TypeExpr, list[str]]:
    first, tokens = _parse_atom(tokens, text)
    parts = [first]
    while tokens and tokens[0] == "|":
        nxt, tokens = _parse_atom(tokens[1:], text)
        parts.append(nxt)
    return (parts[0] if len(parts) == 1 else TypeExpr("union", tuple(parts))), tokens


def _parse_atom(tokens: list[str], text: str) -> tuple[TypeExpr, list[str]]:
    if not tokens:
        raise TypeSyntaxError(f"bad type {text!r}: unexpected end")
    head, tokens = tokens[0], tokens[1:]
    if head in PRIMITIVES:
        return TypeExpr(head), tokens
    if head == "list":
        tokens = _expect(tokens, "[", text)
        inner, tokens = _parse_union(tokens, text)
        return TypeExpr("list", (inner,)), _expect(tokens, "]", text)
    if head == "dict":
        tokens = _expect(_expect(_expect(tokens, "[", text), "str", text), ",", text)
        inner, tokens = _parse_union(tokens, text)
        return TypeExpr("dict", (inner,)), _expect(tokens, "]", text)
    if head == "fn":
        tokens = _expect(tokens, "(", text)
        params: list[TypeExpr] = []
        while tokens and tokens[0] != ")":
            p, tokens = _parse_union(tokens, text)
            params.append(p)
            if tokens and tokens[0] == ",":
                tokens = tokens[1:]
        tokens = _expect(_expect(tokens, ")", text), "->", text)
        ret, tokens = _parse_atom(tokens, text)
        return TypeExpr("fn", (*params, ret)), tokens
    raise TypeSyntaxError(f"bad type {text!r}: unknown type {head!r}")


def describe_value(value: Any) -> str:
    """The type name of a decoded child value, for messages."""
    if isinstance(value, dict) and value.get("__fn__") is True:
        return "function"
    if isinstance(value, dict) and "__unrepresentable__" in value:
        return str(value["__unrepresentable__"])
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "dict"
    return type(value).__name__


def type_mismatch(value: Any, t: TypeExpr, path: str = "result") -> str | None:
    """None when ``value`` fits ``t``; else a message naming where it does not fit."""
    if t.kind == "union":
        if any(type_mismatch(value, a, path) is None for a in t.args):
            return None
        return f"{path}: expected {t}, got {describe_value(value)}"
    got = describe_value(value)
    if t.kind == "fn":
        return None if got == "function" else f"{path}: expected a function, got {got}"
    if t.kind == "list":
        if not isinstance(value, list):
            return f"{path}: expected {t}, got {got}"
        for i, item in enumerate(value):
            msg = type_mismatch(item, t.args[0], f"{path}[{i}]")
            if msg:
                return msg
        return None
    if t.kind == "dict":
        if got != "dict":
            return f"{path}: expected {t}, got {got}"
        for k, item in value.items():
            msg = type_mismatch(item, t.args[0], f"{path}[{k!r}]")
            if msg:
                return msg
        return None
    ok = {
        "int": got == "int",
        "float": got in ("int", "float"),
        "bool": got == "bool",
        "str": got == "str",
        "none": got == "none",
    }[t.kind]
    return None if ok else f"{path}: expected {t.kind}, got {got}"


def python_type(t: TypeExpr) -> str:
    """The Python annotation for a type."""
    if t.kind == "list":
        return f"list[{python_type(t.args[0])}]"
    if t.kind == "dict":
        return f"dict[str, {python_type(t.args[0])}]"
    if t.kind == "union":
        return " | ".join(python_type(a) for a in t.args)
    if t.kind == "fn":
        *params, ret = t.args
        return f"Callable[[{', '.join(python_type(p) for p in params)}], {python_type(ret)}]"
    return {"none": "None"}.get(t.kind, t.kind)


def js_type(t: TypeExpr) -> str:
    """A JSDoc-style type for a type (integers noted, since JavaScript has one number type)."""
    if t.kind == "list":
        return f"Array<{js_type(t.args[0])}>"
    if t.kind == "dict":
        return f"Object<string, {js_type(t.args[0])}>"
    if t.kind == "union":
        return " | ".join(js_type(a) for a in t.args)
    if t.kind == "fn":
        *params, ret = t.args
        return f"function({', '.join(js_type(p) for p in params)}): {js_type(ret)}"
    return {"int": "number (integer)", "float": "number", "bool": "boolean", "str": "string", "none": "null"}[t.kind]
