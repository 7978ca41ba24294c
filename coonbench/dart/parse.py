"""Parsing Dart with the tree-sitter-dart grammar shipped as a wheel (nothing is downloaded)."""

from __future__ import annotations

import re
import time
from functools import lru_cache

import tree_sitter
import tree_sitter_dart

from coonbench.dart.strings import block_comment_end, is_string_start, string_end


class DartParseError(ValueError):
    """Dart source the grammar rejects; ``line``/``column`` are 1-based."""

    def __init__(self, message: str, line: int, column: int, *, no_tree: bool = False) -> None:
        super().__init__(f"{line}:{column}: {message}")
        self.message = message
        self.line = line
        self.column = column
        self.no_tree = no_tree  # rejected before any tree was built: no fragment wrapper can change that


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
            f"lone surrogate {source[err.start]!r} (not Unicode text, cannot be UTF-8)", line, column, no_tree=True
        ) from None


PARSE_BUDGET_S = 0.15
"""CPU seconds tree-sitter may spend on one parse, plus ``PARSE_BUDGET_S_PER_MB`` per MB: real Dart parses at
several MB/s, but error recovery on 10,000 junk tokens takes ~0.5 s; past the budget the input is declared not
Dart (DartParseError) instead of stalling the caller."""
PARSE_BUDGET_S_PER_MB = 2.0
_STRAY = "\\x00-\\x08\\x0e-\\x1f\\x7f\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\ufeff`"
_STRAY_RE = re.compile(f"[{_STRAY}]")
# Where a scan must stop: a stray character, a quote or a comment start (everything else is skipped by the regex).
_SCAN_STOP = re.compile(f"[{_STRAY}'\"/]")
_CHUNK = 1 << 16


def _stray_character(source: str) -> None:
    """DartParseError at the first character that is never Dart outside strings and comments (a backtick, a
    control or invisible formatting character). The grammar's lexer spends ~60 µs on each such character and
    rejects the source anyway; finding them first keeps 10,000 of them from stalling the caller."""
    if not _STRAY_RE.search(source, 1):
        return
    i, n = (1 if source.startswith("\ufeff") else 0), len(source)
    if source.startswith("#!", i):
        i = source.find("\n", i)
        i = n if i < 0 else i
    while i < n:
        m = _SCAN_STOP.search(source, i)
        if m is None:
            return
        i = m.start()
        ch = source[i]
        if ch in "'\"":
            start = i - 1 if i > 0 and is_string_start(source, i - 1) else i
            end = string_end(source, start)
            if end is None:
                return  # unterminated: the grammar reports it
            i = end
        elif ch == "/":
            if source.startswith("//", i):
                nl = source.find("\n", i)
                i = n if nl < 0 else nl
            elif source.startswith("/*", i):
                close = block_comment_end(source, i)
                if close is None:
                    return
                i = close
            else:
                i += 1
        else:
            before = source[:i]
            raise DartParseError(
                f"unexpected character {ch!r} (not Dart outside strings and comments)",
                before.count("\n") + 1,
                i - (before.rfind("\n") + 1) + 1,
                no_tree=True,
            )


def _parse_bounded(data: bytes) -> tree_sitter.Tree:
    """Parse with a CPU budget (see ``PARSE_BUDGET_S``); DartParseError when the parser is cancelled."""
    deadline = time.process_time() + PARSE_BUDGET_S + PARSE_BUDGET_S_PER_MB * len(data) / 1e6

    def give_up(*_state: object) -> bool:
        return time.process_time() > deadline

    try:
        tree = _parser().parse(lambda offset, _point: data[offset : offset + _CHUNK], progress_callback=give_up)
    except ValueError:  # tree-sitter's "Parsing failed": the callback cancelled it
        tree = None
    if tree is None:
        _parser().reset()
        raise DartParseError(
            "tree-sitter-dart gave up on this input (error recovery past its time budget)", 1, 1, no_tree=True
        )
    # A tree parsed from a callback reads node texts back through it (slow); an incremental re-parse of the same
    # bytes reuses every node (milliseconds) and gives a tree that holds its source.
    return _parser().parse(data, old_tree=tree)


def parse_dart(source: str, *, strict: bool = True) -> tree_sitter.Tree:
    """Parse Dart source; with ``strict`` raise DartParseError at the first syntax error.

    Text that is not Unicode (a lone surrogate) raises DartParseError whatever ``strict`` says: no tree exists.
    """
    data = utf8(source)
    _stray_character(source)
    tree = _parse_bounded(data)
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
        self.cache: dict[str, object] = {}  # what is derived from the tree once and read often (``unit_scan``)

    @property
    def root(self) -> tree_sitter.Node:
        return self.tree.root_node


@lru_cache(maxsize=16)
def parse_unit(source: str, kind: str | None = None) -> ParsedUnit:
    """Parse ``source`` as a program, else as an expression, statements or class members (first that parses).

    ``kind`` tries that reading only (a decoder checking its output against a known source). Raises the first
    reading's DartParseError when no reading parses. The last units parsed are kept (a tree is never edited, and
    what is derived from it lives in its ``cache``): building a task encodes, minifies and compares each Dart file
    in several formats, each step parsing the same source again.
    """
    first: DartParseError | None = None
    size = len(utf8(source))
    wrappers = [w for w in FRAGMENT_WRAPPERS if kind is None or w[0] == kind]
    for kind, prefix, suffix in wrappers:
        try:
            tree = parse_dart(prefix + source + suffix, strict=True)
        except DartParseError as err:
            if err.no_tree:
                if first is None:
                    raise
                break  # a wrapper's own text cannot cause this; the program reading's error is the one to report
            if first is None:
                first = err
            continue
        start = len(prefix.encode("utf-8"))
        return ParsedUnit(kind, tree, start, start + size)
    assert first is not None
    raise first
