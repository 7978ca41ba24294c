"""AST equivalence of two Dart sources: the one comparison every COON/Dart scorer stands on.

Two sources are equivalent when tree-sitter-dart gives them the same tree once comments, whitespace and trailing
commas (a ``,`` directly before a closing bracket) are ignored. Leaves (tokens) compare by text, so identifiers,
numbers and string literals must match exactly as written (``'a'`` and ``"a"`` differ). Parse errors are not
"differences": ``DartParseError`` propagates so callers can tell "not Dart" from "different Dart".
A source the grammar rejects as a compilation unit is read as a fragment (expression, statements or class
members, see ``parse_unit``); two sources are only equivalent when they are the same kind of fragment.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

import tree_sitter

from coonbench.dart.parse import parse_unit
from coonbench.dart.strings import string_parts

COMMENT_TYPES = frozenset({"comment", "documentation_comment", "block_comment"})
# Nodes whose children do not cover their text (string contents are gaps between the quotes): compare as a whole.
ATOMIC_TYPES = frozenset({"string_literal"})
CLOSERS = frozenset({")", "]", "}", ">"})
_NAME_FIELDS = ("name",)


@dataclass(frozen=True)
class Difference:
    """The first place two trees differ: a readable node path and a short snippet of each side."""

    path: str
    left: str
    right: str

    def __str__(self) -> str:
        return f"{self.path}: {self.left!r} != {self.right!r}"


def node_text(node: tree_sitter.Node | None) -> str:
    """The source text of a node (empty for None)."""
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8")


def significant_children(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    """Children minus comments and trailing commas (a comma whose next significant sibling closes a bracket)."""
    kids = [c for c in node.children if c.type not in COMMENT_TYPES]
    out: list[tree_sitter.Node] = []
    for i, kid in enumerate(kids):
        if kid.type == "," and (i + 1 == len(kids) or kids[i + 1].type in CLOSERS):
            continue
        out.append(kid)
    return out


def _label(node: tree_sitter.Node) -> str:
    """A path step: the node type plus a name where one helps a reader (class, method, label, call)."""
    name: str | None = None
    for field in _NAME_FIELDS:
        child = node.child_by_field_name(field)
        if child is not None:
            name = node_text(child)
            break
    if name is None and node.type == "named_argument":
        label = next((c for c in node.named_children if c.type == "label"), None)
        if label is not None:
            name = node_text(label).rstrip(":").strip()
    if name is None and node.type in ("method_signature", "declaration"):
        inner = next((c for c in node.named_children if c.child_by_field_name("name") is not None), None)
        if inner is not None:
            name = node_text(inner.child_by_field_name("name"))
    if name is None and node.type in ("identifier", "type_identifier"):
        name = node_text(node)
    return f"{node.type}[{name}]" if name else node.type


def _snippet(node: tree_sitter.Node | None) -> str:
    if node is None:
        return "<nothing>"
    text = " ".join(node_text(node).split())
    return text if len(text) <= 60 else text[:57] + "..."


def _compare(a: tree_sitter.Node, b: tree_sitter.Node, path: str) -> Difference | None:
    if a.type != b.type:
        return Difference(path, f"{a.type}: {_snippet(a)}", f"{b.type}: {_snippet(b)}")
    if a.type in ATOMIC_TYPES:
        if string_parts(node_text(a)) != string_parts(node_text(b)):
            return Difference(path, _snippet(a), _snippet(b))
        return None
    if a.child_count == 0 and b.child_count == 0:
        if node_text(a) != node_text(b):
            return Difference(path, _snippet(a), _snippet(b))
        return None
    ka, kb = significant_children(a), significant_children(b)
    keys_a, keys_b = [_key(c) for c in ka], [_key(c) for c in kb]
    if keys_a == keys_b:
        for ca, cb in zip(ka, kb):
            found = _compare(ca, cb, f"{path}/{_label(ca)}")
            if found is not None:
                return found
        return None
    for op, i1, i2, j1, j2 in SequenceMatcher(None, keys_a, keys_b, autojunk=False).get_opcodes():
        if op == "equal":
            for ca, cb in zip(ka[i1:i2], kb[j1:j2]):
                found = _compare(ca, cb, f"{path}/{_label(ca)}")
                if found is not None:
                    return found
            continue
        block_a, block_b = ka[i1:i2], kb[j1:j2]
        if op == "replace" and len(block_a) == len(block_b) == 1 and block_a[0].type == block_b[0].type:
            found = _compare(block_a[0], block_b[0], f"{path}/{_label(block_a[0])}")
            if found is not None:
                return found
            continue
        named = [c for c in block_a + block_b if c.is_named] or block_a + block_b
        return Difference(f"{path}/{_label(named[0])}", _snippets(block_a), _snippets(block_b))
    return None


def _key(node: tree_sitter.Node) -> tuple[str, str]:
    leaf = node.child_count == 0 and node.type not in ATOMIC_TYPES
    return (node.type, node_text(node) if leaf else "")


def _snippets(nodes: list[tree_sitter.Node]) -> str:
    if not nodes:
        return "<nothing>"
    return _snippet_text(" ".join(node_text(n) for n in nodes))


def _snippet_text(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def ast_diff(a: str, b: str) -> Difference | None:
    """None when ``a`` and ``b`` parse to equivalent trees, else the first difference (DartParseError propagates)."""
    ua, ub = parse_unit(a), parse_unit(b)
    if ua.kind != ub.kind:
        return Difference(ua.root.type, f"a Dart {ua.kind}", f"a Dart {ub.kind}")
    return _compare(ua.root, ub.root, ua.root.type if ua.kind == "program" else f"<{ua.kind}>")


def ast_equivalent(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` are the same Dart program up to comments, whitespace and trailing commas."""
    return ast_diff(a, b) is None
