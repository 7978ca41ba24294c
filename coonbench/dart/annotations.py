"""Dart's one whitespace-sensitive reading that tree-sitter-dart does not make: an annotation followed by ``(``.

Dart (since records) reads a ``(`` glued to an annotation's name as the annotation's argument list, and a ``(``
after whitespace or a comment as the start of what follows: ``@override (int, String) get pair`` is a getter
returning a record, ``@override(int, String) get pair`` an annotation with two arguments (a compile error).
tree-sitter-dart gives both one tree, so every writer of Dart here (the minifier, the COON codec) keeps the gap,
and ``equivalence`` compares it.
"""

from __future__ import annotations

from functools import lru_cache

import tree_sitter
import tree_sitter_dart

from coonbench.dart.parse import ParsedUnit


@lru_cache(maxsize=1)
def _names() -> tree_sitter.Query:
    return tree_sitter.Query(tree_sitter.Language(tree_sitter_dart.language()), "(annotation name: (_) @name)")


def _next_leaf(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The first token after ``node`` that is not a comment (an extra), by loops: no recursion."""
    current: tree_sitter.Node | None = node
    while current is not None:
        sibling = current.next_sibling
        while sibling is not None and sibling.is_extra:
            sibling = sibling.next_sibling
        if sibling is None:
            current = current.parent
            continue
        while sibling.child_count and sibling.type != "string_literal":
            first: tree_sitter.Node | None = sibling.children[0]
            while first is not None and first.is_extra:
                first = first.next_sibling
            if first is None:
                break
            sibling = first
        return sibling
    return None


def annotation_gaps(
    root: tree_sitter.Node, ats: list[tree_sitter.Node] | None = None
) -> list[tuple[tree_sitter.Node, bool]]:
    """Each annotation name that a ``(`` follows, in document order, and whether that ``(`` is detached from it
    (whitespace or a comment between: Dart then does not read it as the annotation's arguments).

    ``ats``: every ``@`` leaf whose parent is an ``annotation`` (each annotation's first child), from a caller that
    has walked the tree anyway: their annotations' names are read from them instead of by a query over the tree."""
    data = root.text  # None when the tree does not hold its source: then every name is looked at
    if data is not None and b"@" not in data:
        return []
    if ats is None:
        found = tree_sitter.QueryCursor(_names()).captures(root).get("name", [])
    else:
        found = []
        for at in ats:
            annotation = at.parent
            name = None if annotation is None else annotation.child_by_field_name("name")
            if name is not None:
                found.append(name)
    out: list[tuple[tree_sitter.Node, bool]] = []
    offset = root.start_byte  # ``data`` starts at the root's first byte
    for name in sorted(found, key=lambda n: n.start_byte):
        after = b"" if data is None else data[name.end_byte - offset : name.end_byte - offset + 256].lstrip()
        if after and not after.startswith((b"(", b"/")):
            continue  # something other than ``(`` or a comment comes next (``@override Widget``): no ``(`` follows
        leaf = _next_leaf(name)
        if leaf is not None and leaf.type == "(":
            out.append((name, leaf.start_byte != name.end_byte))
    return out


def unit_gaps(unit: ParsedUnit, ats: list[tree_sitter.Node] | None = None) -> list[tuple[tree_sitter.Node, bool]]:
    """``annotation_gaps`` of a parsed unit's tree, looked up once per unit (the encoder and its check both ask)."""
    found = unit.cache.get("annotation_gaps")
    if found is None:
        found = unit.cache["annotation_gaps"] = annotation_gaps(unit.root, ats)
    return found  # type: ignore[return-value]


def detached_names(unit: ParsedUnit, ats: list[tree_sitter.Node] | None = None) -> frozenset[int]:
    """End bytes of the annotation names a detached ``(`` follows: a writer puts a space after the token ending
    there (``ats`` as ``annotation_gaps`` takes them)."""
    return frozenset(name.end_byte for name, detached in unit_gaps(unit, ats) if detached)
