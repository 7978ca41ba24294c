"""Small, general helpers over tree-sitter-dart trees: walk by type, node text, tokens, calls and named arguments.

tree-sitter-dart writes ``Text('a')`` as sibling nodes (``identifier`` then ``selector(argument_part)``) and
``const Text('a')`` as a ``const_object_expression``; ``calls`` hides that difference.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import tree_sitter

from coonbench.dart.equivalence import Token, node_text, scan, unit_scan
from coonbench.dart.parse import ParsedUnit, parse_unit

__all__ = [
    "Call",
    "Token",
    "calls",
    "iter_nodes",
    "iter_tokens",
    "named_arguments",
    "node_text",
    "unit_tokens",
]


def iter_nodes(
    node: tree_sitter.Node, types: str | Iterable[str] | None = None, *, named: bool = False
) -> Iterator[tree_sitter.Node]:
    """Every node under ``node`` (itself included) in document order, optionally only those of ``types``.

    ``named=True`` descends through named children only (punctuation and keywords are neither yielded nor entered).
    """
    wanted = {types} if isinstance(types, str) else (set(types) if types is not None else None)
    stack = [node]
    while stack:
        current = stack.pop()
        if wanted is None or current.type in wanted:
            yield current
        stack.extend(reversed(current.named_children if named else current.children))


def iter_tokens(node: tree_sitter.Node, *, comments: bool = True) -> list[Token]:
    """The token stream of a tree: leaves in order, string literals whole (their contents are not leaves)."""
    found = scan(node)
    return found.tokens if comments else found.code


def unit_tokens(unit: ParsedUnit, *, comments: bool = True) -> list[Token]:
    """The token stream of the source inside a parsed unit (a fragment's wrapper left out)."""
    found = unit_scan(unit)
    tokens = found.tokens if comments else found.code
    if unit.kind == "program":
        return tokens  # no wrapper: every token is the source's
    return [t for t in tokens if unit.start_byte <= t.node.start_byte and t.node.end_byte <= unit.end_byte]


def named_arguments(arguments: tree_sitter.Node) -> dict[str, tree_sitter.Node]:
    """label → ``named_argument`` node of an ``arguments`` node."""
    found: dict[str, tree_sitter.Node] = {}
    for arg in arguments.named_children:
        if arg.type == "named_argument":
            label = next((c for c in arg.named_children if c.type == "label"), None)
            if label is not None:
                found[node_text(label).rstrip(":").strip()] = arg
    return found


@dataclass(frozen=True)
class Call:
    """A constructor-or-function call ``Name(…)`` / ``Name.ctor(…)`` / ``const Name(…)``."""

    name: str
    constructor: str | None
    name_node: tree_sitter.Node
    arguments: tree_sitter.Node

    def named(self) -> dict[str, tree_sitter.Node]:
        return named_arguments(self.arguments)


def _arguments_of(selector: tree_sitter.Node) -> tree_sitter.Node | None:
    part = selector.named_children[0] if selector.named_children else None
    if part is None or part.type != "argument_part":
        return None
    return next((c for c in part.named_children if c.type == "arguments"), None)


def calls(root: tree_sitter.Node, *, capitalised_only: bool = True) -> Iterator[Call]:
    """Every call in document order; by default only capitalised names (widget and other constructor calls)."""
    for node in iter_nodes(root):
        if node.type in ("const_object_expression", "new_expression"):
            ident = next((c for c in node.named_children if c.type == "type_identifier"), None)
            args = next((c for c in node.named_children if c.type == "arguments"), None)
            ctor = next((c for c in node.named_children if c.type == "identifier"), None)
            if ident is not None and args is not None:
                name = node_text(ident)
                if not capitalised_only or name[:1].isupper():
                    yield Call(name, node_text(ctor) if ctor is not None else None, ident, args)
            continue
        kids = node.named_children
        for i, kid in enumerate(kids):
            if kid.type != "identifier":
                continue
            name = node_text(kid)
            if capitalised_only and not name[:1].isupper():
                continue
            j, ctor_name = i + 1, None
            if j < len(kids) and kids[j].type == "selector":
                sel = kids[j].named_children
                if sel and sel[0].type == "unconditional_assignable_selector" and sel[0].named_children:
                    ctor_name = node_text(sel[0].named_children[0])
                    j += 1
            if j < len(kids) and kids[j].type == "selector":
                args = _arguments_of(kids[j])
                if args is not None:
                    yield Call(name, ctor_name, kid, args)


def build_returns(source: str) -> list[str]:
    """The expression of each ``return`` inside a method called ``build`` (the widget tree), in source order."""
    unit = parse_unit(source)
    data = source.encode("utf-8")
    out: list[str] = []
    for signature in iter_nodes(unit.root, "function_signature"):
        name = next((c for c in signature.named_children if c.type == "identifier"), None)
        if name is None or node_text(name) != "build":
            continue
        body = signature.parent.next_named_sibling if signature.parent is not None else None
        if body is None or body.type != "function_body":
            continue
        for ret in iter_nodes(body, "return_statement"):
            parts = [c for c in ret.named_children if c.type != "comment"]  # ``Text`` and ``('a')`` are siblings
            if parts:
                start, end = parts[0].start_byte - unit.start_byte, parts[-1].end_byte - unit.start_byte
                out.append(data[start:end].decode("utf-8"))
    return out
