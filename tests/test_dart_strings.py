"""Where a Dart string literal ends (``strings.string_end``): as tree-sitter-dart ends every string of the corpus, and
as Dart's rules read one character at a time on random literals full of quotes, escapes, ``$``, braces, comments
and newlines (tree-sitter-dart itself misreads some of those, e.g. ``'$\\'`` as a whole string)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from coonbench.dart.parse import parse_dart
from coonbench.dart.query import iter_nodes
from coonbench.dart.strings import block_comment_end, is_string_start, string_end
from coonbench.datasets.corpus import iter_data_dart

_GAP = re.compile(r"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)  # whitespace and comments between adjacent literals


def _agrees(source: str, start: int, node_end: int) -> bool:
    """``string_end`` from ``start`` reaches tree-sitter's end of the literal, or stops where an adjacent literal
    (``'a' 'b'``, one node for tree-sitter) begins."""
    end = string_end(source, start)
    if end == node_end:
        return True
    if end is None or end > node_end:
        return False
    nxt = _GAP.match(source, end).end()  # type: ignore[union-attr]
    return nxt < node_end and is_string_start(source, nxt) and _agrees(source, nxt, node_end)


def test_every_corpus_string_ends_where_tree_sitter_ends_it() -> None:
    checked = 0
    for _category, _sid, source in iter_data_dart():
        if not source.isascii():
            continue  # byte offsets are character offsets
        tree = parse_dart(source)
        for node in iter_nodes(tree.root_node, "string_literal"):
            assert _agrees(source, node.start_byte, node.end_byte), source[node.start_byte : node.end_byte]
            checked += 1
    assert checked > 500


def _reference_end(text: str, i: int) -> int | None:
    """Dart's rules read one character at a time, recursively (fine for the short inputs here): the oracle for
    ``string_end``, which jumps between the characters that matter and keeps its own stack."""
    raw = text[i] in "rR"
    j = i + raw
    quote = text[j]
    delim = quote * 3 if text.startswith(quote * 3, j) else quote
    j += len(delim)
    while j < len(text):
        if text.startswith(delim, j):
            return j + len(delim)
        if text[j] == "\n" and len(delim) == 1:
            return None
        if text[j] == "\\" and not raw:
            j += 2
        elif text.startswith("${", j) and not raw:
            found = _reference_interpolation_end(text, j + 2)
            if found is None:
                return None
            j = found
        else:
            j += 1
    return None


def _reference_interpolation_end(text: str, j: int) -> int | None:
    depth = 1
    while j < len(text):
        if text.startswith("//", j):
            if "\n" not in text[j:]:
                return None
            j = text.index("\n", j)
        elif text.startswith("/*", j):
            found = block_comment_end(text, j)
            if found is None:
                return None
            j = found
        elif is_string_start(text, j):
            found = _reference_end(text, j)
            if found is None:
                return None
            j = found
        elif text[j] in "{}":
            depth += 1 if text[j] == "{" else -1
            j += 1
            if depth == 0:
                return j
        else:
            j += 1
    return None


@settings(max_examples=500, deadline=None)
@given(
    body=st.text(alphabet="ab'\"\\${}/*\n r", max_size=40),
    quote=st.sampled_from(["'", '"', "'\'\'", '"""']),
    raw=st.booleans(),
)
def test_string_end_follows_darts_rules(body: str, quote: str, raw: bool) -> None:
    text = ("r" if raw else "") + quote + body
    assert string_end(text, 0) == _reference_end(text, 0)
