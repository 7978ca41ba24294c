"""JavaScript through the ``tree-sitter-javascript`` wheel: parsing, syntax errors, the lossless check and the
minifier, all on one token view of the tree.

Why one view: the lossless check and the minifier must agree on what a program is. A program is its syntax tree
with comments left out; strings, template strings and regular expressions are atoms (their text is their value,
spaces included), every other leaf is a token. Two programs are equivalent when their trees list the same node
types at the same depths with the same atom/token texts, so layout and comments never count and everything else
does. Every walk is iterative (hostile input nests deeply) and source is bounded by ``MAX_CHARS``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import tree_sitter_javascript
from tree_sitter import Language as TSLanguage
from tree_sitter import Node, Parser, Tree

from coonbench.languages.base import Difference, LanguageSyntaxError

MAX_CHARS = 1_000_000
"""Longest source parsed (tree-sitter reads a megabyte in well under a second)."""
COMMENTS = frozenset({"comment", "html_comment"})
ATOMS = frozenset({"string", "template_string", "regex", "hash_bang_line", "jsx_text"})
"""Nodes kept as written: their text is a value, so the minifier copies them and the check compares their text."""

_LANGUAGE = TSLanguage(tree_sitter_javascript.language())


def parse(source: str) -> Tree:
    """The tree-sitter tree of ``source`` (``LanguageSyntaxError`` when too long or not text)."""
    if not isinstance(source, str):
        raise LanguageSyntaxError("JavaScript source must be text", 1, 1)
    if len(source) > MAX_CHARS:
        raise LanguageSyntaxError(f"source longer than {MAX_CHARS} characters", 1, 1)
    return Parser(_LANGUAGE).parse(source.encode("utf-8", "surrogatepass"))


def _position(node: Node) -> tuple[int, int]:
    return node.start_point[0] + 1, node.start_point[1] + 1


def first_error(tree: Tree) -> LanguageSyntaxError | None:
    """The first ERROR or MISSING node in document order, as a positioned error; None for a valid program."""
    if not tree.root_node.has_error:
        return None
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_missing:
            return LanguageSyntaxError(f"missing '{node.type}'", *_position(node))
        if node.type == "ERROR":
            text = (node.text or b"").decode("utf-8", "replace")[:40]
            return LanguageSyntaxError(f"unexpected {text!r}", *_position(node))
        stack.extend(c for c in reversed(node.children) if c.has_error)
    return LanguageSyntaxError("syntax error", 1, 1)


def syntax_error(source: str) -> LanguageSyntaxError | None:
    """The first syntax error of ``source``, None when it is a valid program; never raises."""
    try:
        return first_error(parse(source))
    except LanguageSyntaxError as err:
        return err


def parse_valid(source: str) -> Tree:
    """The tree of a valid program; ``LanguageSyntaxError`` at the first error otherwise."""
    tree = parse(source)
    error = first_error(tree)
    if error is not None:
        raise error
    return tree


PATH_SHOWN = 8
"""Node types a difference's path shows, innermost last (a deep tree's path is cut at the front)."""


@dataclass(frozen=True)
class Item:
    """One node of the token view: its depth, type, the text of a token or atom ("" for an inner node), the node,
    the item of its parent (a chain, so a walk stays linear however deep the tree) and how many statement blocks
    enclose it."""

    depth: int
    kind: str
    text: str
    node: Node
    parent: Item | None
    blocks: int

    @property
    def key(self) -> tuple[int, str, str]:
        return self.depth, self.kind, self.text

    @property
    def path(self) -> str:
        """The node types from the root down to this one (``program > … > number``)."""
        kinds: list[str] = []
        item: Item | None = self
        while item is not None and len(kinds) < PATH_SHOWN:
            kinds.append(item.kind)
            item = item.parent
        return ("… > " if item is not None else "") + " > ".join(reversed(kinds))


def items(tree: Tree) -> Iterator[Item]:
    """Every node of the tree in document order, comments and their subtrees left out, atoms not entered."""
    stack: list[tuple[Node, Item | None]] = [(tree.root_node, None)]
    while stack:
        node, parent = stack.pop()
        if node.type in COMMENTS:
            continue
        leaf = node.child_count == 0 or node.type in ATOMS
        text = (node.text or b"").decode("utf-8", "surrogatepass") if leaf else ""
        depth = 0 if parent is None else parent.depth + 1
        blocks = (0 if parent is None else parent.blocks) + (node.type == "statement_block")
        item = Item(depth, node.type, text, node, parent, blocks)
        yield item
        if not leaf:
            stack.extend((c, item) for c in reversed(node.children))


def tokens(tree: Tree) -> list[Item]:
    """The tokens and atoms of the tree, in document order (what the minifier writes)."""
    return [i for i in items(tree) if i.text or i.node.child_count == 0]


def ast_diff(a: str, b: str) -> Difference | None:
    """The first difference between two programs' token views, None when equivalent (layout and comments aside)."""
    left, right = items(parse_valid(a)), items(parse_valid(b))
    while True:
        x, y = next(left, None), next(right, None)
        if x is None and y is None:
            return None
        if x is None or y is None or x.key != y.key:
            where = x or y
            assert where is not None
            line, column = _position(where.node) if x is not None else (None, None)
            return Difference(where.path, _show(x), _show(y), line, column)


def _show(item: Item | None) -> str:
    if item is None:
        return "<nothing>"
    text = item.text or (item.node.text or b"").decode("utf-8", "replace")
    return text if len(text) <= 60 else text[:57] + "..."


class MinifyError(ValueError):
    """The minifier cannot keep this program (its output would be another tree)."""


_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$\\")
_JOINS = {("+", "+"), ("-", "-"), ("/", "/"), ("/", "*"), ("<", "!"), ("-", ">"), ("*", "/"), (".", ".")}
_BLOCKS = frozenset({"statement_block", "class_body", "switch_body"})
_VALUE_ENDED = frozenset({"expression_statement", "lexical_declaration", "variable_declaration", "return_statement",
                          "throw_statement", "export_statement", "field_definition"})
"""Statements that end with an expression: a ``}`` there closes a value (a function, an object), not the
statement, so an automatic semicolon still ends them."""


def _is_statement(kind: str) -> bool:
    return kind.endswith(("_statement", "_declaration")) or kind == "field_definition"


def statement_ends(tree: Tree) -> set[int]:
    """Where a statement ends without a ``;`` or its own block's ``}`` (byte offsets): the places an automatic
    semicolon ended it, so the line break after it must stay (``return``⏎``x``, ``a``⏎``(b)``)."""
    ends: set[int] = set()
    last: dict[int, Item] = {}  # end byte -> the last token ending there
    for item in items(tree):
        if item.text or item.node.child_count == 0:
            last[item.node.end_byte] = item
    for item in items(tree):
        if not _is_statement(item.kind):
            continue
        tok = last.get(item.node.end_byte)
        if tok is None or tok.text == ";":
            continue
        if tok.text == "}" and tok.parent is not None and tok.parent.kind in _BLOCKS and item.kind not in _VALUE_ENDED:
            continue
        ends.add(item.node.end_byte)
    return ends


def _word(ch: str) -> bool:
    return ch in _WORD or ord(ch) > 127


def _separator(prev: Item, nxt: Item, source: bytes, ends: set[int]) -> str:
    """What must stay between two tokens: the line break after a statement that ends without a semicolon, a
    space where the two would read as one token, else nothing."""
    gap = source[prev.node.end_byte:nxt.node.start_byte]
    if prev.node.end_byte in ends and b"\n" in gap and nxt.text != "}":  # a `}` ends a statement by itself
        return "\n"
    p, n = prev.text[-1:], nxt.text[:1]
    if not p or not n:
        return ""
    if (_word(p) and _word(n)) or (p, n) in _JOINS:
        return " "
    if prev.kind == "number" and n == ".":
        return " "
    return ""


def minify(source: str) -> str:
    """``source`` without comments and with only the whitespace the grammar needs; MinifyError when the result
    would not be the same tree (the caller's check, here too, so no caller can forget it)."""
    tree = parse_valid(source)
    raw = source.encode("utf-8", "surrogatepass")
    toks = [t for t in tokens(tree) if t.node.end_byte > t.node.start_byte]
    ends = statement_ends(tree)
    out: list[str] = []
    for i, tok in enumerate(toks):
        if i:
            out.append(_separator(toks[i - 1], tok, raw, ends))
        out.append(tok.text)
    result = "".join(out) + ("\n" if out else "")
    try:
        diff = ast_diff(source, result)
    except LanguageSyntaxError as err:
        raise MinifyError(f"output does not parse at {err.line}:{err.column}: {err.message}") from None
    if diff is not None:
        raise MinifyError(f"output differs at {diff.path}: {diff.left!r} != {diff.right!r}")
    return result
