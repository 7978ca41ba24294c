"""Parsing Dart with the tree-sitter-dart grammar shipped as a wheel (nothing is downloaded)."""

from __future__ import annotations

from functools import lru_cache

import tree_sitter
import tree_sitter_dart


class DartParseError(ValueError):
    """Dart source the grammar rejects; ``line``/``column`` are 1-based."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"{line}:{column}: {message}")
        self.message = message
        self.line = line
        self.column = column


@lru_cache(maxsize=1)
def _parser() -> tree_sitter.Parser:
    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_dart.language()))


def first_error(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The first ERROR or MISSING node in document order, or None.

    Iterative (a cursor descends into the first child that holds an error), so 10,000-deep input cannot hit
    Python's recursion limit.
    """
    if not node.has_error:
        return None
    current = node
    while not (current.is_error or current.is_missing):
        child = next((c for c in current.children if c.has_error or c.is_missing or c.is_error), None)
        if child is None:
            return current
        current = child
    return current


def utf8(source: str) -> bytes:
    """``source`` as UTF-8; a lone surrogate (not encodable) is a DartParseError at its line and column."""
    try:
        return source.encode("utf-8")
    except UnicodeEncodeError as err:
        before = source[: err.start]
        line = before.count("\n") + 1
        column = err.start - (before.rfind("\n") + 1) + 1
        raise DartParseError(
            f"lone surrogate {source[err.start]!r} (not Unicode text, cannot be UTF-8)", line, column
        ) from None


def parse_dart(source: str, *, strict: bool = True) -> tree_sitter.Tree:
    """Parse Dart source; with ``strict`` raise DartParseError at the first syntax error.

    Text that is not Unicode (a lone surrogate) raises DartParseError whatever ``strict`` says: no tree exists.
    """
    data = utf8(source)
    tree = _parser().parse(data)
    if strict:
        bad = first_error(tree.root_node)
        if bad is not None:
            row, col = bad.start_point
            what = f"missing {bad.type}" if bad.is_missing else "syntax error"
            snippet = data[bad.start_byte : bad.start_byte + 30].decode("utf-8", "replace")
            raise DartParseError(f"{what} near {snippet!r}", row + 1, col + 1)
    return tree


# --- fragments ------------------------------------------------------------------------------------------------
# Benchmark snippets are often a bare widget expression (``Text('a')``), some statements or class members, which
# the grammar rejects as a compilation unit. A fragment is parsed inside a fixed wrapper; only the nodes between
# ``start_byte`` and ``end_byte`` belong to the source.

FRAGMENT_WRAPPERS: tuple[tuple[str, str, str], ...] = (
    ("program", "", ""),
    ("expression", "var __coon_fragment__ =\n", "\n;"),
    ("statements", "void __coon_fragment__() {\n", "\n}"),
    ("members", "class __CoonFragment__ {\n", "\n}"),
)


class ParsedUnit:
    """A parsed program or fragment: the tree plus the byte span of the original source inside it."""

    def __init__(self, kind: str, tree: tree_sitter.Tree, start_byte: int, end_byte: int) -> None:
        self.kind = kind
        self.tree = tree
        self.start_byte = start_byte
        self.end_byte = end_byte

    @property
    def root(self) -> tree_sitter.Node:
        return self.tree.root_node


def parse_unit(source: str) -> ParsedUnit:
    """Parse ``source`` as a program, else as an expression, statements or class members (first that parses).

    Raises the program's DartParseError when no reading parses.
    """
    first: DartParseError | None = None
    size = len(utf8(source))
    for kind, prefix, suffix in FRAGMENT_WRAPPERS:
        try:
            tree = parse_dart(prefix + source + suffix, strict=True)
        except DartParseError as err:
            if first is None:
                first = err
            continue
        start = len(prefix.encode("utf-8"))
        return ParsedUnit(kind, tree, start, start + size)
    assert first is not None
    raise first
