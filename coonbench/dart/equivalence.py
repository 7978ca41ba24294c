"""AST equivalence of two Dart sources: the one comparison every COON/Dart scorer stands on.

Two sources are equivalent when tree-sitter-dart gives them the same tree once comments, whitespace and trailing
commas (a ``,`` directly before a closing bracket) are ignored. Leaves (tokens) compare by text, so identifiers,
numbers and string literals must match exactly as written (``'a'`` and ``"a"`` differ). Parse errors are not
"differences": ``DartParseError`` propagates so callers can tell "not Dart" from "different Dart".
One whitespace counts, as it does for Dart and not for the grammar: whether a ``(`` after an annotation's name is
glued to it (its arguments) or not (``@override (int, int) get pair``: a record type; see ``annotations``).
A source the grammar rejects as a compilation unit is read as a fragment (expression, statements or class
members, see ``parse_unit``); two sources are only equivalent when they are the same kind of fragment.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from dataclasses import field as dc_field
from difflib import SequenceMatcher
from typing import Any, Final, NamedTuple

import tree_sitter

from coonbench.dart.annotations import unit_gaps
from coonbench.dart.parse import ParsedUnit, parse_unit
from coonbench.dart.strings import string_parts

COMMENT_TYPES: Final = frozenset({"comment", "documentation_comment", "block_comment"})
# Nodes whose children do not cover their text (string contents are gaps between the quotes): compare as a whole.
ATOMIC_TYPES: Final = frozenset({"string_literal"})
CLOSERS: Final = frozenset({")", "]", "}", ">"})
_NAME_FIELDS: Final = ("name",)


@dataclass(frozen=True)
class Difference:
    """The first place two trees differ: a readable node path, a short snippet of each side, and where it is in
    the first source (1-based line and character column; None when not known)."""

    path: str
    left: str
    right: str
    line: int | None = dc_field(default=None, compare=False)
    column: int | None = dc_field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.path}: {self.left!r} != {self.right!r}"

    @property
    def construct(self) -> str:
        """The node type where the trees part (the last step of ``path``, without its name)."""
        return self.path.rsplit("/", 1)[-1].split("[", 1)[0]


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


_Path = tuple  # (parent path or None, node): a linked path, turned into text only for the one difference found
_Found = tuple[Difference, "tree_sitter.Node | None"]
MAX_PATH_STEPS: Final = 40


def _path_text(root: str, path: _Path | None) -> str:
    steps: list[str] = []
    while path is not None:
        path, node = path
        steps.append(_label(node))
    steps.append(root)
    steps.reverse()
    if len(steps) > MAX_PATH_STEPS:
        steps = steps[:4] + [f"…{len(steps) - MAX_PATH_STEPS + 4} steps…"] + steps[-(MAX_PATH_STEPS - 4) :]
    return "/".join(steps)


SCRIPT_TAG: Final = "script_tag"
"""``#!/usr/bin/env dart``: the grammar's leaves are ``#!`` and the newline, the path between them is a gap."""
_WHOLE_TYPES: Final = ATOMIC_TYPES | COMMENT_TYPES | {SCRIPT_TAG}


class Token:
    """One lexical unit of the source: a leaf, a whole string literal, or a comment. A plain class with slots: the
    walk makes one per leaf, and compiled (``coonbench._native``) it is a native object."""

    __slots__ = ("text", "node", "type", "parent", "grandparent")

    def __init__(self, text: str, node: tree_sitter.Node, type: str, parent: str, grandparent: str) -> None:
        self.text = text
        self.node = node
        self.type = type  # the node's type (read once by the walk: each ``node.type`` is a call into tree-sitter)
        self.parent = parent  # the types of the two nodes above it ("" above the root): ``node.parent`` walks
        self.grandparent = grandparent  # down from the root each time, so the walk, passing them anyway, keeps them

    def __repr__(self) -> str:
        return f"Token({self.text!r}, {self.type}, under {self.parent} < {self.grandparent})"

    @property
    def is_comment(self) -> bool:
        return self.type in COMMENT_TYPES


class Scan(NamedTuple):
    """What one walk of a tree gives (``scan``)."""

    tokens: list[Token]  # leaves in order, string literals whole, comments included
    code: list[Token]  # the same without comments
    shape: list[object]  # the comparison shape (``scan``)


def scan(root: tree_sitter.Node, *, tokens_too: bool = True, shape_too: bool = True) -> Scan:
    """One walk of a tree in document order giving its token stream, with and without comments, and its comparison
    shape. String literals and comments are not entered: each is one token (a string's contents are gaps between
    its quotes). A cursor walk: no recursion, in Python or in C, so 10,000-deep trees are walked too; it is the
    COON codec's hottest loop, so the cursor's methods are called directly.

    The shape is the tree in document order as (depth, type, text) per node — text for leaves and string literals,
    None for inner nodes — with comments and trailing commas left out exactly as ``_compare`` leaves them out.
    Pre-order with depths is a tree's unique spelling, so equal shapes mean ``_compare`` finds no difference: the
    fast path of ``unit_diff`` (``_compare`` then runs only to say where two trees differ). Without
    ``tokens_too`` only the shape is made (the token lists stay empty), without ``shape_too`` only the tokens (the
    shape stays empty): the comparison reads only shapes, the COON codec only tokens.
    """
    tokens: list[Token] = []
    code: list[Token] = []
    shape: list[object] = []
    # typed locals: tree-sitter's values are untyped to the compiled build, which then works on them natively
    data: bytes = root.text or b""  # a leaf's text is sliced from here (quicker than node.text)
    offset: int = root.start_byte
    ascii_text = data.decode("ascii") if data.isascii() else ""  # most Dart (``_leaf_text``)
    cursor = root.walk()
    first_child, next_sibling, parent = cursor.goto_first_child, cursor.goto_next_sibling, cursor.goto_parent
    depth = 0
    above = ["", ""]  # the types of the nodes above the current one (two sentinels)
    types: list[str | None] = []  # by kind_id: ``node.type`` makes a new string each call, an id is a number
    while True:
        node = cursor.node
        kind_id: int = node.kind_id
        kind = types[kind_id] if kind_id < len(types) else None
        if kind is None:
            types.extend([None] * (kind_id + 1 - len(types)))
            kind = types[kind_id] = node.type
        if kind in _WHOLE_TYPES:
            start: int = node.start_byte
            end: int = node.end_byte
            text = _leaf_text(data, ascii_text, start - offset, end - offset)
            if kind == SCRIPT_TAG:
                text = text.rstrip("\r\n")
            if text:
                if tokens_too:
                    token = Token(text, node, kind, above[-1], above[-2])
                    tokens.append(token)
                    if kind not in COMMENT_TYPES:
                        code.append(token)
                if shape_too and kind not in COMMENT_TYPES:
                    shape.append(depth)
                    shape.append(kind)
                    # adjacent literals (or interpolation) compare part by part, as ``_compare`` does
                    shape.append(string_parts(text) if node.child_count > 2 else text)
        elif first_child():
            if shape_too:
                shape.append(depth)
                shape.append(kind)
                shape.append(None)
            above.append(kind)
            depth += 1
            continue
        else:
            start = node.start_byte
            end = node.end_byte
            text = _leaf_text(data, ascii_text, start - offset, end - offset)
            if text and tokens_too:  # MISSING nodes and zero-width leaves are no token
                if text == "?" and code and code[-1].text == "..." and code[-1].node.end_byte == start:
                    code[-1].text = "...?"  # one token to Dart's scanner (``...? a`` is not ``... ?a``), two leaves here
                else:
                    token = Token(text, node, kind, above[-1], above[-2])
                    tokens.append(token)
                    code.append(token)
            if shape_too:
                if text in CLOSERS and len(shape) >= 3 and shape[-1] == "," and shape[-3] == depth:
                    del shape[-3:]  # a trailing comma: the closer is its sibling
                shape.append(depth)
                shape.append(kind)
                shape.append(text)
        while depth and not next_sibling():
            parent()
            above.pop()
            depth -= 1
        if not depth:
            return Scan(tokens, code, shape)


def _leaf_text(data: bytes, ascii_text: str, start: int, end: int) -> str:
    """``data[start:end]`` as text: sliced from ``ascii_text`` when the source is ASCII (byte offsets are then
    character offsets), else decoded."""
    return ascii_text[start:end] if ascii_text else data[start:end].decode("utf-8")


def unit_scan(unit: ParsedUnit) -> Scan:
    """``scan`` of a parsed unit's whole tree for its tokens (no shape), made once per unit (the encoder and the
    other readers of a unit's tokens share it)."""
    found = unit.cache.get("scan")
    if found is None:
        found = unit.cache["scan"] = scan(unit.root, shape_too=False)
    return found  # type: ignore[return-value]


def unit_shape(unit: ParsedUnit) -> list[object]:
    """``scan``'s comparison shape of a parsed unit's whole tree, made once per unit (``unit_diff`` reads it)."""
    found = unit.cache.get("shape")
    if found is None:
        found = unit.cache["shape"] = scan(unit.root, tokens_too=False).shape
    return found  # type: ignore[return-value]


def _compare(a: tree_sitter.Node, b: tree_sitter.Node, root: str) -> _Found | None:
    """The first difference of two trees in document order, with the node of ``a`` where it is.

    An explicit stack (no recursion), so 10,000-deep trees compare without hitting Python's recursion limit.
    """
    stack: list[tuple[Any, ...]] = [(a, b, None)]
    while stack:
        task = stack.pop()
        if task[0] == "diff":
            _, path, left, right, where = task
            return Difference(_path_text(root, path), left, right), where
        a, b, path = task
        if a.type != b.type:
            return Difference(_path_text(root, path), f"{a.type}: {_snippet(a)}", f"{b.type}: {_snippet(b)}"), a
        if a.type in ATOMIC_TYPES:
            if string_parts(node_text(a)) != string_parts(node_text(b)):
                return Difference(_path_text(root, path), _snippet(a), _snippet(b)), a
            continue
        if a.child_count == 0 and b.child_count == 0:
            if node_text(a) != node_text(b):
                return Difference(_path_text(root, path), _snippet(a), _snippet(b)), a
            continue
        ka, kb = significant_children(a), significant_children(b)
        keys_a, keys_b = [_key(c) for c in ka], [_key(c) for c in kb]
        todo: list[tuple[Any, ...]] = []
        if keys_a == keys_b:
            todo = [(ca, cb, (path, ca)) for ca, cb in zip(ka, kb)]
        else:
            for op, i1, i2, j1, j2 in SequenceMatcher(None, keys_a, keys_b, autojunk=False).get_opcodes():
                if op == "equal":
                    todo.extend((ca, cb, (path, ca)) for ca, cb in zip(ka[i1:i2], kb[j1:j2]))
                    continue
                block_a, block_b = ka[i1:i2], kb[j1:j2]
                if op == "replace" and len(block_a) == len(block_b) == 1 and block_a[0].type == block_b[0].type:
                    todo.append((block_a[0], block_b[0], (path, block_a[0])))
                    continue
                named = [c for c in block_a + block_b if c.is_named] or block_a + block_b
                where = block_a[0] if block_a else (ka[i1] if i1 < len(ka) else a)
                todo.append(("diff", (path, named[0]), _snippets(block_a), _snippets(block_b), where))
                break
        stack.extend(reversed(todo))
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


def node_position(source: str, unit_start_byte: int, node: tree_sitter.Node | None) -> tuple[int, int] | None:
    """1-based (line, character column) of ``node`` in ``source`` (a fragment's wrapper subtracted)."""
    if node is None:
        return None
    offset = max(0, node.start_byte - unit_start_byte)
    before = source.encode("utf-8", "surrogatepass")[:offset].decode("utf-8", "replace")
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def unit_diff(ua: ParsedUnit, ub: ParsedUnit, source_a: str = "") -> Difference | None:
    """``ast_diff`` on already parsed units (the COON encoder compares its own tree with the decoded one)."""
    if ua.kind != ub.kind:
        return Difference(ua.root.type, f"a Dart {ua.kind}", f"a Dart {ub.kind}", 1, 1)
    root = ua.root.type if ua.kind == "program" else f"<{ua.kind}>"
    found = None if unit_shape(ua) == unit_shape(ub) else _compare(ua.root, ub.root, root)
    if found is None:
        found = _gap_difference(ua, ub, root)
    if found is None:
        return None
    diff, node = found
    where = node_position(source_a, ua.start_byte, node) if source_a else None
    return replace(diff, line=where[0], column=where[1]) if where else diff


def _gap_difference(ua: ParsedUnit, ub: ParsedUnit, root: str) -> _Found | None:
    """Trees that are alike can still be different Dart: ``@x (…)`` and ``@x(…)`` (see ``annotations``)."""
    gaps_a = unit_gaps(ua)
    if not gaps_a:
        return None  # nothing to compare: ``ub``'s annotations are not looked up
    for (name, gap_a), (_, gap_b) in zip(gaps_a, unit_gaps(ub)):
        if gap_a != gap_b:
            left, right = (f"@{node_text(name)}{' ' if gap else ''}(" for gap in (gap_a, gap_b))
            return Difference(f"{root}/annotation[{node_text(name)}]", left, right), name
    return None


def ast_diff(a: str, b: str) -> Difference | None:
    """None when ``a`` and ``b`` parse to equivalent trees, else the first difference (DartParseError propagates).

    The difference carries the line and column in ``a`` where the trees part.
    """
    return unit_diff(parse_unit(a), parse_unit(b), a)


def ast_equivalent(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` are the same Dart program up to comments, whitespace and trailing commas."""
    return ast_diff(a, b) is None
